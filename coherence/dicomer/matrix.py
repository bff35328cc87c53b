"""The discourse role matrix of Lin, Ng & Kan (2011) and DICOMER's typed roles (spec 3, 4.1).

Rows are sentences, columns stemmed open-class terms, and a cell holds the set of roles
(``Comp.Arg2``; with the E/N flag also ``E.Comp.Arg2``) the term takes in that sentence.
A matrix is built either from a token layout plus relations (what the scorer does) or directly
from ``(sentence, term, role)`` triples (hand-made examples, tests, the entity grid).
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from coherence.dicomer.cells import Cells, decode, transition_counts
from coherence.dicomer.config import DicomerConfig
from coherence.relations import Relation

NIL = "nil"
TYPE_ABBREV = {"Temporal": "Temp", "Contingency": "Cont", "Comparison": "Comp",
               "Expansion": "Exp", "EntRel": "EntRel", "NoRel": "NoRel"}
OPEN_CLASS_PREFIXES = ("NN", "VB", "JJ", "RB")


@dataclass(frozen=True)
class Token:
    """One token of the layout: its sentence, character span, stemmed open-class term (None for
    closed-class words) and, for nouns, its entity-grid role (S, O or X)."""

    sentence: int
    start: int
    end: int
    term: str | None
    grid_role: str | None = None


@dataclass
class RoleMatrix:
    """Sparse matrix of role sets; ``terms`` are the columns in first-occurrence order."""

    n_sentences: int
    terms: tuple[str, ...]
    cells: dict[tuple[str, int], frozenset[str]]
    frequency: dict[str, int] = field(default_factory=dict)
    _rows: dict | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def from_triples(cls, n_sentences: int, triples: Iterable[tuple[int, str, str]],
                     terms: Sequence[str] | None = None,
                     frequency: dict[str, int] | None = None) -> RoleMatrix:
        """Matrix with the given ``(sentence, term, role)`` entries; ``terms`` defaults to the
        terms of the triples, ``frequency`` to the number of sentences each term has a role in."""
        cells: dict[tuple[str, int], set[str]] = {}
        order: dict[str, None] = {}
        for sentence, term, role in triples:
            if not 0 <= sentence < n_sentences:
                raise ValueError(f"sentence {sentence} outside 0..{n_sentences - 1}")
            cells.setdefault((term, sentence), set()).add(role)
            order.setdefault(term)
        columns = tuple(terms) if terms is not None else tuple(order)
        if frequency is None:
            frequency = Counter(t for t, _ in cells)
        return cls(n_sentences, columns, {k: frozenset(v) for k, v in cells.items()}, dict(frequency))

    def rows_by_term(self) -> dict[str, dict[int, tuple[str, ...]]]:
        """Non-nil cells per column as ``{term: {sentence: sorted roles}}`` (computed once)."""
        if self._rows is None:
            rows: dict[str, dict[int, tuple[str, ...]]] = {}
            for (term, sentence), roles in self.cells.items():
                if roles:
                    rows.setdefault(term, {})[sentence] = tuple(sorted(roles))
            self._rows = rows
        return self._rows

    def cell(self, term: str, sentence: int) -> frozenset[str]:
        """Roles of ``term`` in ``sentence``; empty set = nil."""
        return self.cells.get((term, sentence), frozenset())

    def as_cells(self, blocks: Sequence[Sequence[str]]) -> Cells:
        """The matrix as the :class:`~coherence.dicomer.cells.Cells` of one text whose columns are
        the terms of ``blocks`` (block ``b`` = ``blocks[b]``), for the batch counting code."""
        rows = self.rows_by_term()
        roles = tuple(sorted({r for cell in rows.values() for roles in cell.values() for r in roles}))
        role_id = {r: i for i, r in enumerate(roles)}
        columns = [(b, t) for b, terms in enumerate(blocks) for t in terms]
        entries = [(c, s, role_id[r]) for c, (_, t) in enumerate(columns)
                   for s, cell in rows.get(t, {}).items() for r in cell]
        col, sent, role = zip(*entries) if entries else ((), (), ())
        return Cells.build([self.n_sentences], [0] * len(columns), [b for b, _ in columns], col, sent, role, roles)

    def restrict(self, terms: Sequence[str]) -> RoleMatrix:
        """The same matrix with only the given columns (e.g. a printed fragment)."""
        keep = set(terms)
        return RoleMatrix(self.n_sentences, tuple(terms),
                          {k: v for k, v in self.cells.items() if k[0] in keep},
                          {t: self.frequency.get(t, 0) for t in terms})


def is_open_class(tag: str) -> bool:
    """Nouns, verbs, adjectives and adverbs by Penn tag (spec 3.1)."""
    return tag.startswith(OPEN_CLASS_PREFIXES)


def role_name(relation: Relation, arg: str, detail: str = "type+arg") -> str:
    """``Comp.Arg2`` (or ``Arg2`` / ``Comp`` for the Arg+Sal / Type+Sal ablations)."""
    typ = TYPE_ABBREV[relation.l1]
    return {"type+arg": f"{typ}.{arg}", "arg": arg, "type": typ}[detail]


def possible_roles(detail: str, typed: str = "plain") -> tuple[str, ...]:
    """Every role a matrix built with ``role_detail=detail`` and ``typed`` can hold, sorted."""
    args = ("Arg1", "Arg2")
    plain = {"type+arg": [f"{t}.{a}" for t in TYPE_ABBREV.values() for a in args], "arg": list(args),
             "type": list(TYPE_ABBREV.values())}[detail]
    en = [f"{flag}.{role}" for flag in ("E", "N") for role in plain]
    return tuple(sorted({"plain": plain, "typed": en, "union": plain + en}[typed]))


def _tokens_in(tokens: Sequence[Token], starts: list[int], ends: list[int],
               spans: Sequence[tuple[int, int]]) -> list[Token]:
    """Tokens overlapping any span; ``tokens`` sorted and non-overlapping, ``starts``/``ends``
    their offsets (binary search keeps long documents fast)."""
    found: dict[int, Token] = {}
    for s, e in spans:
        for i in range(bisect.bisect_right(ends, s), bisect.bisect_left(starts, e)):
            found[i] = tokens[i]
    return [found[i] for i in sorted(found)]


def build_cells(tokens: Sequence[Token], relations: Iterable[Relation], config: DicomerConfig,
                typed: str = "plain") -> list[tuple[int, str, str]]:
    """``(sentence, term, role)`` triples from relations over a token layout (spec 3.6).

    ``typed``: ``"plain"`` roles only, ``"typed"`` E/N roles only, ``"union"`` both.
    An argument spanning several sentences adds its role in each of them; a term in both
    arguments of one relation gets both roles.
    """
    tokens = sorted(tokens, key=lambda t: t.start)
    starts, ends = [t.start for t in tokens], [t.end for t in tokens]
    triples = []
    for rel in relations:
        en = "E" if rel.explicit else "N"
        for arg, spans in (("Arg1", rel.arg1), ("Arg2", rel.arg2)):
            role = role_name(rel, arg, config.role_detail)
            for tok in _tokens_in(tokens, starts, ends, spans):
                if tok.term is None:
                    continue
                if typed in ("plain", "union"):
                    triples.append((tok.sentence, tok.term, role))
                if typed in ("typed", "union"):
                    triples.append((tok.sentence, tok.term, f"{en}.{role}"))
    return triples


def term_frequency(tokens: Sequence[Token], definition: str = "occurrences") -> Counter:
    """Occurrences of each term in the text, or the number of sentences containing it."""
    if definition == "sentences":
        return Counter(t for t, _ in {(tok.term, tok.sentence) for tok in tokens if tok.term})
    return Counter(tok.term for tok in tokens if tok.term)


def build_matrix(tokens: Sequence[Token], relations: Sequence[Relation], n_sentences: int,
                 config: DicomerConfig, typed: str = "plain") -> RoleMatrix:
    """The discourse role matrix of a text; columns = every term (or only terms in arguments)."""
    triples = build_cells(tokens, relations, config, typed)
    freq = term_frequency(tokens, config.tf_definition)
    if config.columns == "terms_in_args":
        terms = tuple(dict.fromkeys(t for _, t, _ in triples))
    else:
        terms = tuple(dict.fromkeys(tok.term for tok in tokens if tok.term))
    return RoleMatrix.from_triples(n_sentences, triples, terms, freq)


def transitions(matrix: RoleMatrix, terms: Iterable[str], n: int,
                nil: str = NIL) -> tuple[Counter, int]:
    """Counts of every length-``n`` role sequence over the given columns, and their total.

    A window yields the Cartesian product of its cells (nil = one symbol), so the total counts
    nil-only sequences too (spec 3.3: 25 sequences in the paper's fragment); the counting is
    :func:`~coherence.dicomer.cells.transition_counts`, the code every feature goes through.
    """
    cells = matrix.as_cells([tuple(terms)])
    counts = transition_counts(cells, n, 1, nil_only=True)
    return (Counter({decode(c, n, cells.roles, nil): k for c, k in zip(counts.code.tolist(), counts.count.tolist())}),
            int(counts.totals[0]))


def intra_cell_bigrams(cell: Iterable[str]) -> list[tuple[str, str]]:
    """Ordered role pairs of one cell: sort by surface string, every (a, b) with a before b."""
    roles = sorted(set(cell))
    return [(a, b) for i, a in enumerate(roles) for b in roles[i + 1:]]


def salience_blocks(matrix: RoleMatrix, config: DicomerConfig) -> list[tuple[str, tuple[str, ...]]]:
    """Columns split into salient (frequency >= threshold) and non-salient blocks, or one block."""
    if not config.salience:
        return [("all", matrix.terms)]
    sal = tuple(t for t in matrix.terms if matrix.frequency.get(t, 0) >= config.salience_threshold)
    non = tuple(t for t in matrix.terms if matrix.frequency.get(t, 0) < config.salience_threshold)
    return [("sal", sal), ("non", non)]


def block_names(config: DicomerConfig) -> tuple[str, ...]:
    """Names of the salience blocks in block-id order (``sal``/``non``, or ``all``)."""
    return ("sal", "non") if config.salience else ("all",)
