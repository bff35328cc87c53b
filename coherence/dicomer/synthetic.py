"""Synthetic coherence data across the GUM genres of GDTB: summary-sized windows of the training
documents against seeded sentence permutations and one-sentence moves.

DICOMER trained on these (``coherence train dicomer --mode gdtb-permutation``) learns what an
ordered text looks like without human scores of one domain, so nothing it learns is tied to the
length or genre of one summary set. The default keeps to the genres whose text licence allows
commercial use (:data:`OPEN_GENRES`); ``genres="all"`` adds the non-commercial ones (opt-in).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from coherence.dicomer.analysis import Analysis, AnalysisCache, sentence_spans, text_key

# W consecutive sentences (summary-sized texts), at most WINDOWS_PER_DOC per training document,
# spread over the document, each with TRAIN_NEGATIVES permutations and as many one-sentence moves.
# 4 x 8 is the best of eight settings tried on both summary sets (results in the
# transfer benchmark notes: the choice is sensitive to these two numbers).
WINDOW_SENTENCES = 4
WINDOWS_PER_DOC = 8
TRAIN_NEGATIVES = 5
#: GUM genres (the second part of a GDTB document id) and the licence of their text (gdtb/LICENSE.txt)
GENRE_LICENCES = {
    "academic": "CC BY 4.0", "bio": "CC BY-SA 3.0", "court": "CC BY 4.0", "interview": "CC BY 2.5",
    "news": "CC BY 2.5", "voyage": "CC BY-SA 3.0", "essay": "CC BY-NC-SA 4.0", "fiction": "CC BY-NC-SA 3.0",
    "letter": "CC BY-NC-SA 4.0", "podcast": "CC BY-NC-SA 4.0", "whow": "CC BY-NC-SA 3.0",
    "reddit": "reddit user agreement, non-commercial only",
}
#: genres whose text licence allows commercial use (CC BY / CC BY-SA); genres not listed in
#: gdtb/LICENSE.txt (conversation, speech, textbook, vlog ...) are left out as unknown
OPEN_GENRES = ("academic", "bio", "court", "interview", "news", "voyage")
GENRE_SETS = ("open", "all")


@dataclass
class Synthetic:
    """Summary-sized GDTB training windows with their permuted and sentence-moved versions."""

    genres: list[str]
    originals: list[Analysis]
    permuted: list[list[Analysis]]
    inserted: list[list[Analysis]]

    def groups(self, kinds: tuple[str, ...] = ("perm",), genres: str = "open"
               ) -> tuple[list[Analysis], list[float], list[str]]:
        """(texts, labels, groups) for a ranker: each window (label 1) against its negatives
        (label 0) of each kind (``perm``: permutations, ``insert``: one sentence moved); windows of
        genres outside ``genres`` (``open`` = :data:`OPEN_GENRES`, ``all``) are left out."""
        if genres not in GENRE_SETS:
            raise ValueError(f"genres must be one of {GENRE_SETS}, got {genres!r}")
        texts: list[Analysis] = []
        y: list[float] = []
        groups: list[str] = []
        for kind in kinds:
            if kind not in ("perm", "insert"):
                raise ValueError(f"negative kind must be perm or insert, got {kind!r}")
            negatives = self.permuted if kind == "perm" else self.inserted
            for g, (genre, orig, negs) in enumerate(zip(self.genres, self.originals, negatives)):
                if not negs or (genres == "open" and genre not in OPEN_GENRES):
                    continue
                texts += [orig, *negs]
                y += [1.0] + [0.0] * len(negs)
                groups += [f"{kind}:{g}"] * (len(negs) + 1)
        return texts, y, groups

    def genre_counts(self, genres: str = "open") -> dict[str, int]:
        """Windows per genre that ``genres`` keeps (for model headers and reports)."""
        keep = [g for g in self.genres if genres == "all" or g in OPEN_GENRES]
        return {g: keep.count(g) for g in sorted(set(keep))}


def genre(doc_id: str) -> str:
    """GUM genre of a GDTB document id such as ``GUM_news_iodine``."""
    return doc_id.split("_")[1] if doc_id.count("_") >= 2 else doc_id


def moved_orders(n: int, k: int, seed: int) -> list[tuple[int, ...]]:
    """Up to ``k`` distinct sentence orders of ``n`` sentences that each move one sentence
    elsewhere (sentence insertion), drawn with ``seed``."""
    rng = np.random.default_rng(seed)
    out: list[tuple[int, ...]] = []
    moves = [(i, p) for i in range(n) for p in range(n) if p != i]
    for pick in rng.permutation(len(moves)):
        i, p = moves[pick]
        order = [s for s in range(n) if s != i]
        order.insert(p, i)
        if tuple(order) not in out:
            out.append(tuple(order))
        if len(out) == k:
            break
    return out


def window_starts(n_sentences: int, width: int = WINDOW_SENTENCES, per_doc: int = WINDOWS_PER_DOC) -> list[int]:
    """First sentence of each window of a document: non-overlapping windows of ``width``
    sentences, at most ``per_doc`` of them spread evenly over the document."""
    starts = list(range(0, n_sentences - width + 1, width))
    if not starts:
        return []
    return [starts[i] for i in np.unique(np.linspace(0, len(starts) - 1, per_doc).round().astype(int))]


def gdtb_windows(root: Path, cache: AnalysisCache, seed: int, inserted: bool = True) -> Synthetic:
    """Windows of the GDTB training split (every genre with text; filter with
    :meth:`Synthetic.groups`), each with seeded permutations and, with ``inserted``, one-sentence
    moves (:data:`TRAIN_NEGATIVES` of each); parses cached. ``root`` is the shared data root."""
    from coherence.corpora import load_gdtb

    docs, _ = load_gdtb(root / "discourse" / "gdtb", "train")
    full = cache.analyse([d.text for d in docs], progress=True)
    genres, windows = [], []
    for doc, analysis in zip(docs, full):
        spans = sentence_spans(analysis)
        for start in window_starts(len(spans)):
            part = spans[start:start + WINDOW_SENTENCES]
            windows.append(" ".join(doc.text[a:b] for a, b in part))
            genres.append(genre(doc.doc_id))
    originals = cache.analyse(windows, progress=True)
    cache.save()
    permuted = cache.analyse_permutations(windows, TRAIN_NEGATIVES, seed, progress=True)
    moved: list[list[Analysis]] = [[] for _ in windows]
    if inserted:
        moved_texts = []
        for text, analysis in zip(windows, originals):
            spans = sentence_spans(analysis)
            orders = moved_orders(len(spans), TRAIN_NEGATIVES, (int(text_key(text)[:8], 16) + seed) % 2**32)
            moved_texts.append([" ".join(text[slice(*spans[i])] for i in o) for o in orders])
        flat = cache.analyse([t for ts in moved_texts for t in ts], progress=True)
        moved, pos = [], 0
        for ts in moved_texts:
            moved.append(flat[pos:pos + len(ts)])
            pos += len(ts)
    cache.save()
    return Synthetic(genres, originals, permuted, moved)
