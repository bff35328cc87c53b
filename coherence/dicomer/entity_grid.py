"""Barzilay & Lapata's entity grid without coreference (Lin 2011's baseline, spec 5.2).

Entities are stemmed head nouns matched by string; a cell holds the entity's most prominent
grammatical role in the sentence (S > O > X) or ``-``. Features are the probabilities of all
role transitions of length 2 and 3 (nil-only ``- -`` included, as in B&L), split by salience.
The grid is a :class:`RoleMatrix` with single-role cells, so it shares the transition code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from coherence.dicomer.cells import Cells, FeatureRows, decode, transition_counts
from coherence.dicomer.config import DicomerConfig
from coherence.dicomer.matrix import RoleMatrix, Token, block_names, salience_blocks

GRID_NIL = "-"
ROLE_RANK = {"S": 3, "O": 2, "X": 1}
SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass"})
OBJECT_DEPS = frozenset({"dobj", "obj", "dative", "iobj", "attr", "oprd"})


def grid_role(dep: str) -> str:
    """S for subjects, O for objects, X for any other noun (spaCy dependency labels)."""
    if dep in SUBJECT_DEPS:
        return "S"
    if dep in OBJECT_DEPS:
        return "O"
    return "X"


def build_grid(mentions: Sequence[tuple[int, str, str]], n_sentences: int) -> RoleMatrix:
    """Grid from ``(sentence, entity, role)`` mentions; the highest-ranked role wins a cell and
    an entity's frequency is its number of mentions."""
    best: dict[tuple[str, int], str] = {}
    for sentence, entity, role in mentions:
        key = (entity, sentence)
        if key not in best or ROLE_RANK[role] > ROLE_RANK[best[key]]:
            best[key] = role
    freq = Counter(entity for _, entity, _ in mentions)
    terms = tuple(dict.fromkeys(entity for _, entity, _ in mentions))
    return RoleMatrix.from_triples(n_sentences, [(s, e, r) for (e, s), r in best.items()], terms, dict(freq))


def grid_from_tokens(tokens: Sequence[Token], n_sentences: int) -> RoleMatrix:
    """Grid of a token layout (nouns carry a grid role)."""
    return build_grid([(t.sentence, t.term, t.grid_role) for t in tokens if t.grid_role and t.term],
                      n_sentences)


def add_grid(rows: FeatureRows, cells: Cells, config: DicomerConfig, prefix: str = "eg|") -> None:
    """Transition probabilities of grids (as cells) per salience block and length, all sequences
    included."""
    blocks = block_names(config)
    for n in config.lengths:
        def key(b: int, c: int, n: int = n) -> str:
            return f"{prefix}{blocks[b]}|{n}|{' '.join(decode(c, n, cells.roles, GRID_NIL))}"

        rows.add_counts(transition_counts(cells, n, len(blocks), nil_only=True),
                        ("grid", prefix, blocks, n, cells.roles), key)


def grid_features(grid: RoleMatrix, config: DicomerConfig, prefix: str = "eg|") -> dict[str, float]:
    """Transition probabilities of one grid per salience block and length, all sequences included."""
    rows = FeatureRows(1)
    add_grid(rows, grid.as_cells([cols for _, cols in salience_blocks(grid, config)]), config, prefix)
    return rows.table().dicts()[0]
