"""Feature vectors of the discourse role matrix (spec 3.5, 4.1, 4.2) for every variant.

Keys are ``block|n|role>role...`` with block in {sal, non} (or ``all`` without salience) and the
value the sequence's share of all length-n sequences of that block; nil-only sequences count in
the denominator but are never keys. ``block|c|a>b`` are DICOMER's intra-cell bigrams, ``EN:``
prefixes the separate E/N matrix and ``eg|`` the entity-grid features.
"""

from __future__ import annotations

from collections import Counter

from coherence.dicomer.analysis import Analysis
from coherence.dicomer.config import DicomerConfig
from coherence.dicomer.entity_grid import grid_features, grid_from_tokens
from coherence.dicomer.matrix import NIL, RoleMatrix, build_matrix, intra_cell_bigrams, salience_blocks, transitions


def transition_features(matrix: RoleMatrix, config: DicomerConfig, prefix: str = "") -> dict[str, float]:
    """Length-n transition probabilities per salience block (nil-only sequences not emitted)."""
    out: dict[str, float] = {}
    for block, cols in salience_blocks(matrix, config):
        for n in config.lengths:
            counts, total = transitions(matrix, cols, n)
            for seq, count in counts.items():
                if any(role != NIL for role in seq):
                    out[f"{prefix}{block}|{n}|{'>'.join(seq)}"] = count / total
    return out


def intra_cell_features(matrix: RoleMatrix, config: DicomerConfig, prefix: str = "") -> dict[str, float]:
    """Intra-cell bigram counts per salience block, relative to the block's total (or raw)."""
    out: dict[str, float] = {}
    for block, cols in salience_blocks(matrix, config):
        rows = matrix.rows_by_term()
        counts = Counter(bigram for t in cols for cell in rows.get(t, {}).values()
                         for bigram in intra_cell_bigrams(cell))
        total = sum(counts.values())
        for (a, b), count in counts.items():
            out[f"{prefix}{block}|c|{a}>{b}"] = count / total if config.intra_cell_value == "relative" else float(count)
    return out


def discourse_matrices(analysis: Analysis, config: DicomerConfig) -> list[tuple[str, RoleMatrix]]:
    """The matrices a variant reads: plain roles; with +E the union matrix, or plain plus a
    separate typed-role matrix (``en_mode="separate"``)."""
    def build(typed: str) -> RoleMatrix:
        return build_matrix(analysis.tokens, analysis.relations, analysis.n_sentences, config, typed)

    if not config.explicit_flag:
        return [("", build("plain"))]
    if config.en_mode == "union":
        return [("", build("union"))]
    return [("", build("plain")), ("EN:", build("typed"))]


ONE_SENTENCE = "text|one_sentence"


def judged(analysis: Analysis, config: DicomerConfig) -> bool:
    """Whether a text has discourse structure to judge: two or more sentences and, when the
    configuration reads the discourse matrix, at least one relation."""
    return analysis.n_sentences >= 2 and (bool(analysis.relations) or not config.discourse)


def text_features(analysis: Analysis, config: DicomerConfig) -> dict[str, float]:
    """Sparse feature dict of one analysed text; empty for an empty text and for a text without
    transitions (and, without the ``one_sentence`` indicator, for a one-sentence text); with
    ``neutral``, empty for every text :func:`judged` refuses."""
    if config.neutral and not judged(analysis, config):
        return {}
    out: dict[str, float] = {ONE_SENTENCE: 1.0} if config.one_sentence and analysis.n_sentences == 1 else {}
    if config.discourse:
        for prefix, matrix in discourse_matrices(analysis, config):
            out.update(transition_features(matrix, config, prefix))
            if config.intra_cell:
                out.update(intra_cell_features(matrix, config, prefix))
    if config.entity_grid:
        out.update(grid_features(grid_from_tokens(analysis.tokens, analysis.n_sentences), config))
    return out
