"""Benchmark commands: they measure and write Markdown + JSON tables (they are not tests)."""
