"""Shared core of the suite, in layers (docs/architecture.md):
``text`` (preprocessing once, bags of n-grams) -> ``bpng``/``matching`` (pivot n-grams, the LP matcher)
-> ``metric`` (the contract, registry, batch scoring) -> ``stats`` (meta-evaluation) and ``learn``;
beside them ``io`` (files in and out), ``resources`` (built and shipped resources), ``run`` (worker
processes, Dask, progress) and ``cli`` (the command-line convention).

Every package (``summeval``, ``coherence``, ``parapeval``, ``mteval``) imports from here; nothing
here imports from them, so the dependency graph stays acyclic.
"""

__version__ = "0.2.0"
