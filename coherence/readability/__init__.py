"""``readability``: how an English text reads, from features of TAC's five linguistic-quality
questions, weighted by a pairwise ranker trained across judged sets.

Data flow: text -> :mod:`extract` (one spaCy parse with :mod:`coherence.sentences`, the discourse
parser, the LM) -> :mod:`features` -> :mod:`model` (standardised features, w . z) -> :mod:`metric`
(the suite's metric contract); :mod:`data` and :mod:`train` choose and fit it leaving one judged
set out; its meta-evaluation is ``python -m benchmarks readability`` in a checkout.
"""
