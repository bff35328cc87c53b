"""Data readers shared by the benches of every package: the item record, SummEval's release
files, and human-score tables."""
