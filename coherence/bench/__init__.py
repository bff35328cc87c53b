"""Benchmarks of the discourse layer (``coherence bench ...``)."""
