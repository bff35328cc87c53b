"""Build one phrase table: tokenise both sides, align both ways, symmetrise, extract phrase
pairs, count N(e) and N(e, f), and write the SQLite store with its signature."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from evalcore.bpng.store import write_store
from evalcore.resources.phrase_table.align import align_both_ways, aligner_signature
from evalcore.resources.phrase_table.bitext import bitext_hash, tokenize_pivot
from evalcore.resources.phrase_table.extract import count_phrase_pairs
from evalcore.resources.phrase_table.symmetrize import grow_diag_final_and
from evalcore.text.preprocess import Preprocessor

MAX_TRANSLATIONS = 20


def english_preprocessor(stem: bool) -> Preprocessor:
    """The English preprocessing of tables and scoring alike (lowercased, list function words)."""
    return Preprocessor(lowercase=True, stem=stem, function_words="list")


def build_phrase_table(pairs: Sequence[tuple[str, str]], pivot: str, out: str | Path, name: str,
                       stem: bool = True, max_len: int = 4, min_prob: float = 0.01,
                       max_tokens: int = 80, log: Callable[[str], None] = lambda msg: None) -> Path:
    """Build a phrase table from (English, pivot) sentence pairs and write it to ``out``.

    Pairs with an empty side or more than ``max_tokens`` tokens on a side are skipped (counted
    in the table's metadata). Translations with t(f | e) < ``min_prob`` are not stored (N(e)
    still counts them); at most 20 per phrase are kept.
    """
    started = time.perf_counter()
    pre = english_preprocessor(stem)
    e_sents, f_sents = [], []
    skipped = 0
    for e_text, f_text in pairs:
        e_toks, f_toks = pre(e_text).tokens, tokenize_pivot(f_text)
        if not e_toks or not f_toks or len(e_toks) > max_tokens or len(f_toks) > max_tokens:
            skipped += 1
            continue
        e_sents.append(e_toks)
        f_sents.append(f_toks)
    if not e_sents:
        raise ValueError(f"bitext {name!r} has no usable sentence pair (all empty or longer than {max_tokens} tokens)")
    n_words = sum(map(len, e_sents))
    log(f"{name}: {len(e_sents)} sentence pairs, {n_words} English words ({skipped} skipped); aligning with eflomal")
    e2f, f2e = align_both_ways(e_sents, f_sents)
    log(f"{name}: aligned in {time.perf_counter() - started:.1f}s; extracting phrases up to {max_len} words")
    corpus = ((e, f, grow_diag_final_and(a, b)) for e, f, a, b in zip(e_sents, f_sents, e2f, f2e))
    counts = count_phrase_pairs(corpus, max_len)
    by_source: dict[tuple[str, ...], list[tuple[tuple[str, ...], int]]] = defaultdict(list)
    for (e, f), n in counts.items():
        by_source[e].append((f, n))

    def entries():
        for e, translations in by_source.items():
            n_e = sum(n for _, n in translations)
            kept = sorted((fn for fn in translations if fn[1] / n_e >= min_prob), key=lambda fn: (-fn[1], fn[0]))
            yield e, n_e, kept[:MAX_TRANSLATIONS]

    signature = (f"pt:{pivot}:{name}:{bitext_hash(zip(map(' '.join, e_sents), map(' '.join, f_sents)))}"
                 f"|sents:{len(e_sents)}|align:{aligner_signature()}+gdfa|len:{max_len}|mint:{min_prob:g}"
                 f"|{pre.signature()}")
    meta = {"signature": signature, "pivot": pivot, "name": name, "stem": str(stem), "max_len": str(max_len),
            "sentences": str(len(e_sents)), "skipped": str(skipped), "english_words": str(n_words)}
    path = write_store(out, entries(), meta)
    log(f"{name}: wrote {len(by_source)} English phrases to {path} in {time.perf_counter() - started:.1f}s")
    return path
