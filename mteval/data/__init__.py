"""Readers for WMT test sets and human judgments in their upstream layouts (``../shared/data/mt``):
plain-text trees of sources, references and system outputs, WMT12's 5-way relative rankings,
and MQM per-segment scores (WMT21 newstest, WMT21 TED)."""
