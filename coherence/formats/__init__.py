"""Readers and writers for discourse relation files (PDTB pipe standoff, CoNLL-2016 JSON)."""
