"""REDp's paraphrase module (RED §3) from the suite's pivot phrase tables (the ones PEM and
TESLA-B read): no paraphrase table installs here, so paraphrase pairs are pivoted (Bannard and
Callison-Burch 2005): p(e2 | e1) = sum_f t(f | e1) t(e2 | f), averaged over the pivot tables,
with t(e2 | f) = N(e2, f) / N(f) and N(f) summed over the table's stored translations (computed
once per table and cached on disk).

Paraphrase-ngrams: pairs of a reference span (1..3 words) and a hypothesis span (1..4 words)
that differ in the table's normal form (lowercased, Porter-stemmed) with p >= ``min_prob``,
chosen greedily by probability so that no word on either side is in two pairs.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Mapping, Sequence

import numpy as np

from evalcore.bpng import PhraseTableStore
from evalcore.bpng.table import ListedPhraseTable, Phrase, PhraseTable
from evalcore.io.persist import array_strings, load_arrays, save_arrays, strings_array
from evalcore.resources.phrase_table.build import english_preprocessor
from evalcore.resources.registry import cache_folder
from mteval.lexical.bpng_features import default_tables, table_hash

REF_MAX = 3
HYP_MAX = 4
#: references whose table look-ups are remembered (they recur across systems)
REF_CACHE = 20000
#: the cached N(f) file's format
MARGINALS_FORMAT = 3
MARGINALS_KIND = f"pivot-marginals/{MARGINALS_FORMAT}"
Pair = tuple[int, int, int, int, float]  # ref start, ref end, hyp start, hyp end, p(e2 | e1)


def pivot_marginals(table: ListedPhraseTable) -> dict[str, float]:
    """N(f) of every pivot phrase (tokens joined by spaces) of a table; an on-disk table's are
    cached by its signature's hash (an .npz of phrases and counts, rebuilt when bad)."""
    cache = cache_folder("mteval") if isinstance(table, PhraseTableStore) else None
    path = cache / f"pivot-marginals-v{MARGINALS_FORMAT}-{table_hash(table)}.npz" if cache is not None else None
    stored = load_arrays(path, MARGINALS_KIND) if path is not None else None
    if stored is not None:
        phrases = array_strings(stored["phrases"])
        if len(phrases) == len(stored["counts"]):
            return dict(zip(phrases, stored["counts"].tolist()))
    counts: dict[str, float] = defaultdict(float)
    for _, entry in table.items():
        for f, n in entry.translations:
            counts[" ".join(f)] += n
    out = {f: float(n) for f, n in counts.items()}
    if path is not None:
        save_arrays(path, MARGINALS_KIND, {"phrases": strings_array(list(out)),
                                           "counts": np.array(list(out.values()), dtype=np.float64)})
    return out


def _stemmed(table: PhraseTable) -> bool:
    return str(getattr(table, "meta", {}).get("stem", "False")) == "True"


class PivotParaphrases:
    """Paraphrase pairs between a reference and a hypothesis through pivot phrase tables."""

    def __init__(self, tables: Mapping[str, ListedPhraseTable], min_prob: float = 0.05):
        if not tables:
            raise ValueError("the paraphrase module needs at least one pivot phrase table")
        self.tables = dict(tables)
        self.min_prob = min_prob
        self.marginals = {p: pivot_marginals(t) for p, t in self.tables.items()}
        self.normal = {p: english_preprocessor(_stemmed(t)) for p, t in self.tables.items()}
        self._refs: dict[tuple, list] = {}

    @classmethod
    def default(cls, min_prob: float = 0.05) -> PivotParaphrases:
        """Over the suite's default pivot tables (``make setup`` builds them)."""
        return _default(min_prob)

    def signature_fields(self) -> dict[str, object]:
        """The pivots and their tables' hashes, e.g. ``para: fr=1a2b3c4d+de=...``."""
        return {"para": "+".join(f"{p}={table_hash(t)}" for p, t in self.tables.items())}

    def _spans(self, pivot: str, words: Sequence[str], longest: int) -> dict[tuple[int, int], Phrase]:
        norm = [self.normal[pivot].token(w)[0] for w in words]
        return {(s, s + n): tuple(norm[s:s + n]) for n in range(1, longest + 1) for s in range(len(words) - n + 1)}

    def probabilities(self, reference: Sequence[str], hypothesis: Sequence[str]) -> dict[tuple, float]:
        """p(e2 | e1) averaged over pivots for (reference span, hypothesis span) of different normal forms."""
        total: dict[tuple, float] = {}
        for pivot in self.tables:
            hyp = self._spans(pivot, hypothesis, HYP_MAX)
            by_pivot: dict[Phrase, list[tuple[Phrase, float]]] = {}
            marg = self.marginals[pivot]
            for phrase, entry in self.tables[pivot].lookup(set(hyp.values())).items():
                for f, n in entry.translations:
                    by_pivot.setdefault(f, []).append((phrase, n / marg[" ".join(f)]))
            spans_of: dict[Phrase, list[tuple[int, int]]] = {}
            for span, phrase in hyp.items():
                spans_of.setdefault(phrase, []).append(span)
            for rspan, phrase, distribution in self._reference_side(pivot, tuple(reference)):
                for f, t_f in distribution:
                    for e2, t_e2 in by_pivot.get(f, ()):
                        if e2 != phrase:
                            for hspan in spans_of[e2]:
                                key = (rspan, hspan)
                                total[key] = total.get(key, 0.0) + t_f * t_e2
        return {k: v / len(self.tables) for k, v in total.items()}

    def _reference_side(self, pivot: str, reference: tuple[str, ...]) -> list[tuple[tuple[int, int], Phrase, list]]:
        """(span, normal form, t(f | e1)) of each reference span in the table (cached per reference)."""
        key = (pivot, reference)
        known = self._refs.get(key)
        if known is None:
            if len(self._refs) >= REF_CACHE:
                self._refs.clear()
            spans = self._spans(pivot, reference, REF_MAX)
            entries = self.tables[pivot].lookup(set(spans.values()))
            known = self._refs[key] = [(span, phrase, entries[phrase].distribution())
                                       for span, phrase in spans.items() if phrase in entries]
        return known

    def pairs(self, reference: Sequence[str], hypothesis: Sequence[str]) -> list[Pair]:
        """Paraphrase-ngrams: non-overlapping pairs with p >= min_prob, most probable first."""
        ranked = sorted(((p, k) for k, p in self.probabilities(reference, hypothesis).items() if p >= self.min_prob),
                        key=lambda pk: (-pk[0], pk[1]))
        used_r: set[int] = set()
        used_h: set[int] = set()
        out: list[Pair] = []
        for p, ((rs, re_), (hs, he)) in ranked:
            rr, hh = set(range(rs, re_)), set(range(hs, he))
            if rr & used_r or hh & used_h:
                continue
            used_r |= rr
            used_h |= hh
            out.append((rs, re_, hs, he, p))
        return out


@functools.lru_cache(maxsize=4)
def _default(min_prob: float) -> PivotParaphrases:
    return PivotParaphrases({p: PhraseTableStore(path) for p, path in default_tables().items()}, min_prob)
