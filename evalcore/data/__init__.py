"""Data readers shared by the benchmarks and training of every package: the item record,
SummEval's release files, and human-score tables."""
