"""Property-based fuzzing of every scoring CLI and of ``score_batch`` with hostile input."""
