"""Feature vectors of the discourse role matrix (spec 3.5, 4.1, 4.2) for every variant.

Keys are ``block|n|role>role...`` with block in {sal, non} (or ``all`` without salience) and the
value the sequence's share of all length-n sequences of that block; nil-only sequences count in
the denominator but are never keys. ``block|c|a>b`` are DICOMER's intra-cell bigrams, ``EN:``
prefixes the separate E/N matrix and ``eg|`` the entity-grid features.

A batch of texts is featurised at once (:func:`feature_table`): the token layouts and relations
become the cells of every text's matrices as flat arrays (:mod:`coherence.dicomer.cells`) and
one numpy pass counts them; :class:`~coherence.dicomer.matrix.RoleMatrix` objects (hand-made
examples, printed fragments) go through the same counting code.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

import numpy as np

from coherence.dicomer.analysis import Analysis
from coherence.dicomer.cells import (
    Cells,
    FeatureRows,
    FeatureTable,
    decode,
    expand_ranges,
    intra_cell_counts,
    transition_counts,
)
from coherence.dicomer.config import DicomerConfig
from coherence.dicomer.entity_grid import ROLE_RANK, add_grid
from coherence.dicomer.matrix import NIL, RoleMatrix, block_names, possible_roles, role_name, salience_blocks

ONE_SENTENCE = "text|one_sentence"
_TOKEN = attrgetter("sentence", "start", "end", "term", "grid_role")
_GRID_ROLES = tuple(sorted(ROLE_RANK))  # role ids of the grid's cells


def add_transitions(rows: FeatureRows, cells: Cells, config: DicomerConfig, prefix: str = "") -> None:
    """Length-n transition probabilities per salience block (nil-only sequences not emitted)."""
    blocks = block_names(config)
    for n in config.lengths:
        def key(b: int, c: int, n: int = n) -> str:
            return f"{prefix}{blocks[b]}|{n}|{'>'.join(decode(c, n, cells.roles, NIL))}"

        rows.add_counts(transition_counts(cells, n, len(blocks)), ("transitions", prefix, blocks, n, cells.roles), key)


def add_intra_cell(rows: FeatureRows, cells: Cells, config: DicomerConfig, prefix: str = "") -> None:
    """Intra-cell bigram counts per salience block, relative to the block's total (or raw)."""
    blocks = block_names(config)
    rows.add_counts(intra_cell_counts(cells, len(blocks)), ("intra", prefix, blocks, cells.roles),
                    lambda b, c: f"{prefix}{blocks[b]}|c|{'>'.join(decode(c, 2, cells.roles, NIL))}",
                    relative=config.intra_cell_value == "relative")


def matrix_cells(matrix: RoleMatrix, config: DicomerConfig) -> Cells:
    """One matrix as cells, its columns split into the configuration's salience blocks."""
    return matrix.as_cells([cols for _, cols in salience_blocks(matrix, config)])


def transition_features(matrix: RoleMatrix, config: DicomerConfig, prefix: str = "") -> dict[str, float]:
    """Length-n transition probabilities of one matrix per salience block."""
    rows = FeatureRows(1)
    add_transitions(rows, matrix_cells(matrix, config), config, prefix)
    return rows.table().dicts()[0]


def intra_cell_features(matrix: RoleMatrix, config: DicomerConfig, prefix: str = "") -> dict[str, float]:
    """Intra-cell bigram features of one matrix per salience block."""
    rows = FeatureRows(1)
    add_intra_cell(rows, matrix_cells(matrix, config), config, prefix)
    return rows.table().dicts()[0]


class _Layouts:
    """The token layouts of a batch as arrays (tokens ordered by text, then start); term ids
    index ``terms`` (-1: closed-class word)."""

    def __init__(self, analyses: Sequence[Analysis]):
        rows = [_TOKEN(t) for a in analyses for t in a.tokens]
        self.text = np.repeat(np.arange(len(analyses), dtype=np.int64), [len(a.tokens) for a in analyses])
        sentence, start, end, terms, grid = zip(*rows) if rows else ((), (), (), (), ())
        ids: dict[str, int] = {}
        term = np.fromiter((ids.setdefault(t, len(ids)) if t else -1 for t in terms), np.int64, len(rows))
        rank = np.fromiter((ROLE_RANK.get(g, 0) for g in grid), np.int64, len(rows))
        order = np.lexsort((np.asarray(start, dtype=np.int64), self.text))  # build_cells' order
        self.text = self.text[order]
        self.sentence, self.start, self.end = (np.asarray(a, dtype=np.int64)[order] for a in (sentence, start, end))
        self.term, self.grid_rank = term[order], rank[order]
        self.n_terms = max(len(ids), 1)

    def column_keys(self, mask: np.ndarray) -> np.ndarray:
        """Packed (text, term) keys of the tokens in ``mask``."""
        return self.text[mask] * self.n_terms + self.term[mask]


def _blocks(frequency: np.ndarray, config: DicomerConfig) -> np.ndarray:
    """Block id of columns with the given frequencies (0 = salient or all, 1 = non-salient)."""
    if not config.salience:
        return np.zeros(len(frequency), dtype=np.int64)
    return np.where(frequency >= config.salience_threshold, 0, 1)


def _argument_tokens(analyses: Sequence[Analysis], tokens: _Layouts, config: DicomerConfig):
    """(token index, plain role, E/N-typed role) of each open-class token in an argument of a
    relation: ``Token``s overlapping one of its spans, as in :func:`~coherence.dicomer.matrix.build_cells`."""
    spans = [(k, s, e, role, f"{'E' if rel.explicit else 'N'}.{role}")
             for k, a in enumerate(analyses) for rel in a.relations
             for arg, arg_spans in (("Arg1", rel.arg1), ("Arg2", rel.arg2))
             for role in (role_name(rel, arg, config.role_detail),) for s, e in arg_spans]
    if not spans:
        return np.zeros(0, dtype=np.int64), [], []
    text, start, end, plain, typed = zip(*spans)
    base = np.asarray(text, dtype=np.int64) << 32
    token_base = tokens.text << 32
    first = np.searchsorted(token_base + tokens.end, base + np.asarray(start), side="right")
    stop = np.searchsorted(token_base + tokens.start, base + np.asarray(end), side="left")
    count = np.maximum(stop - first, 0)
    index = expand_ranges(first, count)
    span = np.repeat(np.arange(len(spans)), count)
    keep = tokens.term[index] >= 0
    span = span[keep].tolist()
    return index[keep], [plain[i] for i in span], [typed[i] for i in span]


def _discourse_cells(analyses: Sequence[Analysis], tokens: _Layouts, config: DicomerConfig,
                     n_sentences: np.ndarray) -> list[tuple[str, Cells]]:
    """The cells of the matrices a variant reads: plain roles; with +E the union matrix, or plain
    plus a separate typed-role matrix (``en_mode="separate"``), each with its prefix."""
    has_term = tokens.term >= 0
    keys = tokens.column_keys(has_term)
    if config.tf_definition == "sentences":
        seen = np.unique(keys * (int(n_sentences.max(initial=0)) + 1) + tokens.sentence[has_term])
        term_keys, frequency = np.unique(seen // (int(n_sentences.max(initial=0)) + 1), return_counts=True)
    else:
        term_keys, frequency = np.unique(keys, return_counts=True)
    index, plain, typed = _argument_tokens(analyses, tokens, config)
    entry_keys = tokens.text[index] * tokens.n_terms + tokens.term[index]
    if not config.explicit_flag:
        matrices = [("", "plain", [plain])]
    elif config.en_mode == "union":
        matrices = [("", "union", [plain, typed])]
    else:
        matrices = [("", "plain", [plain]), ("EN:", "typed", [typed])]
    out = []
    for prefix, kind, role_lists in matrices:
        roles = possible_roles(config.role_detail, kind)
        role_id = {r: i for i, r in enumerate(roles)}
        columns = np.unique(entry_keys) if config.columns == "terms_in_args" else term_keys
        col = np.searchsorted(columns, entry_keys)
        freq = frequency[np.searchsorted(term_keys, columns)]
        ids = np.concatenate([np.fromiter((role_id[r] for r in names), np.int64, len(names)) for names in role_lists])
        out.append((prefix, Cells.build(n_sentences, columns // tokens.n_terms, _blocks(freq, config),
                                        np.tile(col, len(role_lists)), np.tile(tokens.sentence[index], len(role_lists)),
                                        ids, roles)))
    return out


def _grid_cells(tokens: _Layouts, config: DicomerConfig, n_sentences: np.ndarray) -> Cells:
    """The entity grids of a batch (nouns with a term), as :func:`~coherence.dicomer.entity_grid.build_grid`."""
    mention = (tokens.grid_rank > 0) & (tokens.term >= 0)
    keys = tokens.column_keys(mention)
    columns, col, frequency = np.unique(keys, return_inverse=True, return_counts=True)
    col, sentence, rank = col.reshape(-1), tokens.sentence[mention], tokens.grid_rank[mention]
    span = int(n_sentences.max(initial=0)) + 1
    cell = col * span + sentence
    order = np.lexsort((rank, cell))
    best = order[np.r_[cell[order][1:] != cell[order][:-1], True]] if len(order) else order  # highest rank wins
    rank_role = {ROLE_RANK[r]: _GRID_ROLES.index(r) for r in _GRID_ROLES}
    role = np.fromiter((rank_role[r] for r in rank[best].tolist()), np.int64, len(best))
    return Cells.build(n_sentences, columns // tokens.n_terms, _blocks(frequency, config), col[best],
                       sentence[best], role, _GRID_ROLES)


def judged(analysis: Analysis, config: DicomerConfig) -> bool:
    """Whether a text has discourse structure to judge: two or more sentences and, when the
    configuration reads the discourse matrix, at least one relation."""
    return analysis.n_sentences >= 2 and (bool(analysis.relations) or not config.discourse)


def feature_table(analyses: Sequence[Analysis], config: DicomerConfig) -> FeatureTable:
    """Features of a batch of analysed texts (see :func:`text_features`), counted in one pass."""
    kept = [a for a in analyses if judged(a, config)] if config.neutral else list(analyses)
    rows = FeatureRows(len(kept))
    n_sentences = np.array([a.n_sentences for a in kept], dtype=np.int64)
    if config.one_sentence:
        rows.add(np.flatnonzero(n_sentences == 1), ONE_SENTENCE, 1.0)
    tokens = _Layouts(kept)
    if config.discourse:
        for prefix, cells in _discourse_cells(kept, tokens, config, n_sentences):
            add_transitions(rows, cells, config, prefix)
            if config.intra_cell:
                add_intra_cell(rows, cells, config, prefix)
    if config.entity_grid:
        add_grid(rows, _grid_cells(tokens, config, n_sentences), config)
    table = rows.table()
    if len(kept) == len(analyses):
        return table
    position = np.flatnonzero([judged(a, config) for a in analyses])
    return FeatureTable(len(analyses), position[table.text], table.name, table.value, table.names)


def batch_features(analyses: Sequence[Analysis], config: DicomerConfig) -> list[dict[str, float]]:
    """:func:`text_features` of each analysed text, the batch counted in one pass."""
    return feature_table(analyses, config).dicts()


def text_features(analysis: Analysis, config: DicomerConfig) -> dict[str, float]:
    """Sparse feature dict of one analysed text; empty for an empty text and for a text without
    transitions (and, without the ``one_sentence`` indicator, for a one-sentence text); with
    ``neutral``, empty for every text :func:`judged` refuses."""
    return batch_features([analysis], config)[0]
