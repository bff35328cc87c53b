"""Shared core of the suite: text preprocessing, weighted bags of n-grams, the LP matcher,
meta-evaluation statistics and the resource registry.

Every package (``summeval``, ``coherence``, ``parapeval``) imports from here; nothing here
imports from them, so the dependency graph stays acyclic.
"""

__version__ = "0.2.0"
