"""Benchmarks of mteval: meta-evaluation on WMT human judgments (Markdown + JSON)."""
