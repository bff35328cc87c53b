"""DICOMER's features computed without batched counting: one text at a time, each window's
Cartesian product enumerated in Python. The tests compare the batched features of
:mod:`coherence.dicomer.features` with these, key for key and bit for bit."""

from __future__ import annotations

from collections import Counter
from itertools import product

from coherence.dicomer.entity_grid import GRID_NIL, grid_from_tokens
from coherence.dicomer.matrix import NIL, build_matrix, intra_cell_bigrams, salience_blocks


def transitions(matrix, terms, n, nil=NIL):
    counts: Counter = Counter()
    total = 0
    n_windows = matrix.n_sentences - n + 1
    if n_windows <= 0:
        return counts, 0
    rows = matrix.rows_by_term()
    for term in terms:
        cells = rows.get(term, {})
        touched = sorted({j for s in cells for j in range(max(0, s - n + 1), min(s, n_windows - 1) + 1)})
        for j in touched:
            seqs = list(product(*(cells.get(j + k) or (nil,) for k in range(n))))
            total += len(seqs)
            counts.update(seqs)
        empty = n_windows - len(touched)
        if empty:
            total += empty
            counts[(nil,) * n] += empty
    return counts, total


def transition_features(matrix, config, prefix=""):
    out = {}
    for block, cols in salience_blocks(matrix, config):
        for n in config.lengths:
            counts, total = transitions(matrix, cols, n)
            for seq, count in counts.items():
                if any(role != NIL for role in seq):
                    out[f"{prefix}{block}|{n}|{'>'.join(seq)}"] = count / total
    return out


def intra_cell_features(matrix, config, prefix=""):
    out = {}
    for block, cols in salience_blocks(matrix, config):
        rows = matrix.rows_by_term()
        counts = Counter(bigram for t in cols for cell in rows.get(t, {}).values()
                         for bigram in intra_cell_bigrams(cell))
        total = sum(counts.values())
        for (a, b), count in counts.items():
            out[f"{prefix}{block}|c|{a}>{b}"] = count / total if config.intra_cell_value == "relative" else float(count)
    return out


def grid_features(grid, config, prefix="eg|"):
    out = {}
    for block, cols in salience_blocks(grid, config):
        for n in config.lengths:
            counts, total = transitions(grid, cols, n, nil=GRID_NIL)
            for seq, count in counts.items():
                out[f"{prefix}{block}|{n}|{' '.join(seq)}"] = count / total
    return out


def text_features(analysis, config):
    if config.neutral and not (analysis.n_sentences >= 2 and (bool(analysis.relations) or not config.discourse)):
        return {}
    out = {"text|one_sentence": 1.0} if config.one_sentence and analysis.n_sentences == 1 else {}
    if config.discourse:
        def build(typed):
            return build_matrix(analysis.tokens, analysis.relations, analysis.n_sentences, config, typed)

        if not config.explicit_flag:
            matrices = [("", build("plain"))]
        elif config.en_mode == "union":
            matrices = [("", build("union"))]
        else:
            matrices = [("", build("plain")), ("EN:", build("typed"))]
        for prefix, matrix in matrices:
            out.update(transition_features(matrix, config, prefix))
            if config.intra_cell:
                out.update(intra_cell_features(matrix, config, prefix))
    if config.entity_grid:
        out.update(grid_features(grid_from_tokens(analysis.tokens, analysis.n_sentences), config))
    return out
