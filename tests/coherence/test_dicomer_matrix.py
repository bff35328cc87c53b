"""Golden tests of the discourse role matrix on Lin et al. (2011) Figure 1 / Table 1 (spec 3.2, 7)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from coherence.dicomer.analysis import Analysis
from coherence.dicomer.config import VARIANTS, DicomerConfig, variant_config
from coherence.dicomer.features import intra_cell_features, text_features, transition_features
from coherence.dicomer.matrix import (
    NIL,
    RoleMatrix,
    Token,
    build_matrix,
    intra_cell_bigrams,
    salience_blocks,
    transitions,
)
from coherence.relations import Relation

S1 = ("Japan normally depends heavily on the Highland Valley and Cananea mines as well as the "
      "Bougainville mine in Papua New Guinea.")
S2 = "Recently, Japan has been buying copper elsewhere."
C31 = "But as Highland Valley and Cananea begin operating,"
C32 = "they are expected to resume their roles as Japan's suppliers."
C41 = "According to Fred Demler, metals economist for Drexel Burnham Lambert, New York,"
C42 = "\"Highland Valley has already started operating"
C43 = "and Cananea is expected to do so soon.\""
SENTENCES = [S1, S2, f"{C31} {C32}", f"{C41} {C42} {C43}"]
TEXT = " ".join(SENTENCES)
# hand-made stemmer restricted to the printed fragment's four columns
TERMS = {"copper": "copper", "cananea": "cananea", "operating": "operat", "depends": "depend"}
COLUMNS = ("copper", "cananea", "operat", "depend")

TABLE1 = {
    ("copper", 1): {"Comp.Arg2", "Comp.Arg1"},
    ("cananea", 0): {"Comp.Arg1"},
    ("cananea", 2): {"Comp.Arg2", "Temp.Arg1", "Exp.Arg1"},
    ("cananea", 3): {"Exp.Arg2"},
    ("operat", 2): {"Comp.Arg2", "Temp.Arg1", "Exp.Arg1"},
    ("operat", 3): {"Exp.Arg1", "Exp.Arg2"},
    ("depend", 0): {"Comp.Arg1"},
}


def span(piece: str, connective: str = "") -> tuple[tuple[int, int], ...]:
    start = TEXT.index(piece)
    skip = len(connective) + 1 if connective else 0
    return ((start + skip, start + len(piece)),)


def layout() -> list[Token]:
    tokens, pos = [], 0
    for k, sentence in enumerate(SENTENCES):
        base = TEXT.index(sentence, pos)
        for m in re.finditer(r"\w+", sentence):
            tokens.append(Token(k, base + m.start(), base + m.end(), TERMS.get(m.group().lower())))
        pos = base + len(sentence)
    return tokens


def relations() -> list[Relation]:
    s3, s4 = SENTENCES[2], SENTENCES[3]
    return [
        Relation("Implicit", "Comparison", span(S1), span(S2)),
        Relation("Explicit", "Comparison.Contrast", span(S2), span(s3, "But"),
                 connective=((TEXT.index(C31), TEXT.index(C31) + 3),)),
        Relation("Explicit", "Temporal.Synchronous", span(C31), span(C32)),
        Relation("Implicit", "Expansion", span(s3), span(s4)),
        Relation("Explicit", "Expansion.Conjunction", span(C42), span(C43, "and")),
    ]


@pytest.fixture()
def fragment() -> RoleMatrix:
    return build_matrix(layout(), relations(), 4, DicomerConfig()).restrict(COLUMNS)


def test_cells_equal_table1_from_relations(fragment):
    for term in COLUMNS:
        for s in range(4):
            assert set(fragment.cell(term, s)) == TABLE1.get((term, s), set()), (term, s)


def test_cells_from_triples_equal_relations_build(fragment):
    triples = [(s, t, r) for (t, s), roles in TABLE1.items() for r in roles]
    direct = RoleMatrix.from_triples(4, triples, COLUMNS)
    assert direct.cells == fragment.cells


def test_length2_sequences_and_paper_probability(fragment):
    counts, total = transitions(fragment, COLUMNS, 2)
    assert total == 25
    assert counts[("Comp.Arg2", "Exp.Arg2")] == 2
    assert counts[("Comp.Arg2", "Exp.Arg2")] / total == pytest.approx(0.08)
    assert counts[(NIL, NIL)] == 4
    per_term = {t: transitions(fragment, [t], 2)[1] for t in COLUMNS}
    assert per_term == {"copper": 5, "cananea": 7, "operat": 10, "depend": 3}


def test_length3_sequences(fragment):
    counts, total = transitions(fragment, COLUMNS, 3)
    assert total == 21
    assert counts[(NIL, NIL, NIL)] == 1
    assert counts[("Comp.Arg1", NIL, "Temp.Arg1")] == 1


def test_nil_only_sequences_in_denominator_not_features(fragment):
    config = DicomerConfig(salience=False)
    feats = transition_features(fragment, config)
    assert feats["all|2|Comp.Arg2>Exp.Arg2"] == pytest.approx(0.08)
    assert "all|2|nil>nil" not in feats and "all|3|nil>nil>nil" not in feats
    assert feats["all|2|Comp.Arg1>nil"] == pytest.approx(3 / 25)


def test_salience_split_has_own_denominators(fragment):
    # frequencies in the restricted matrix: sentences with a role (copper 1, cananea 3, operat 2, depend 1)
    blocks = dict(salience_blocks(fragment, DicomerConfig()))
    assert set(blocks["sal"]) == {"cananea", "operat"}
    assert set(blocks["non"]) == {"copper", "depend"}
    feats = transition_features(fragment, DicomerConfig())
    assert feats["sal|2|Comp.Arg2>Exp.Arg2"] == pytest.approx(2 / 17)
    assert feats["non|2|Comp.Arg1>nil"] == pytest.approx(2 / 8)
    assert sum(v for k, v in feats.items() if k.startswith("non|2|")) == pytest.approx(1 - 3 / 8)


def test_full_text_frequency_counts_occurrences():
    m = build_matrix(layout(), relations(), 4, DicomerConfig())
    assert m.frequency == {"depend": 1, "cananea": 3, "copper": 1, "operat": 2}


def test_explicit_typed_roles_union():
    config = variant_config("LIN+E")
    m = build_matrix(layout(), relations(), 4, config, typed="union")
    assert set(m.cell("cananea", 2)) == {"Comp.Arg2", "Temp.Arg1", "Exp.Arg1",
                                         "E.Comp.Arg2", "E.Temp.Arg1", "N.Exp.Arg1"}
    assert set(m.cell("copper", 1)) == {"Comp.Arg2", "Comp.Arg1", "N.Comp.Arg2", "E.Comp.Arg1"}
    typed = build_matrix(layout(), relations(), 4, config, typed="typed")
    assert set(typed.cell("operat", 3)) == {"N.Exp.Arg2", "E.Exp.Arg1"}


def test_intra_cell_bigrams_order_and_count():
    assert set(intra_cell_bigrams(TABLE1[("cananea", 2)])) == {
        ("Comp.Arg2", "Exp.Arg1"), ("Comp.Arg2", "Temp.Arg1"), ("Exp.Arg1", "Temp.Arg1")}
    m = build_matrix(layout(), relations(), 4, variant_config("DICOMER"), typed="union")
    union = intra_cell_bigrams(m.cell("cananea", 2))
    assert len(union) == 15 and ("E.Comp.Arg2", "Temp.Arg1") in union
    assert intra_cell_bigrams({"Exp.Arg2"}) == []


def test_intra_cell_features_relative_per_block(fragment):
    feats = intra_cell_features(fragment, DicomerConfig(intra_cell=True))
    # salient cells: cananea S3 (3 bigrams), operat S3 (3), operat S4 (1); non-salient: copper S2 (1)
    assert feats["sal|c|Comp.Arg2>Exp.Arg1"] == pytest.approx(2 / 7)
    assert feats["sal|c|Exp.Arg1>Exp.Arg2"] == pytest.approx(1 / 7)
    assert feats["non|c|Comp.Arg1>Comp.Arg2"] == pytest.approx(1.0)


def test_variants_select_feature_sources():
    a = Analysis(4, tuple(layout()), tuple(relations()))
    keys = {v: set(text_features(a, variant_config(v))) for v in ("LIN", "LIN+C", "LIN+E", "DICOMER")}
    assert not any("|c|" in k or "E." in k or "N." in k for k in keys["LIN"])
    assert any("|c|" in k for k in keys["LIN+C"]) and not any(".Comp" in k or "E.C" in k for k in keys["LIN+C"])
    assert any("E.Comp.Arg2" in k for k in keys["LIN+E"]) and not any("|c|" in k for k in keys["LIN+E"])
    assert keys["LIN"] < keys["LIN+C"] and keys["LIN"] < keys["LIN+E"]
    assert keys["LIN+C"] | keys["LIN+E"] <= keys["DICOMER"]
    assert "sal|c|E.Comp.Arg2>Temp.Arg1" in keys["DICOMER"]
    assert variant_config("dicomer") == VARIANTS["DICOMER"]
    with pytest.raises(ValueError):
        variant_config("LIN+X")


def test_separate_en_matrix_has_own_keys():
    a = Analysis(4, tuple(layout()), tuple(relations()))
    feats = text_features(a, DicomerConfig(explicit_flag=True, en_mode="separate"))
    assert any(k.startswith("EN:sal|2|") for k in feats)
    assert not any("E." in k or "N." in k for k in feats if not k.startswith("EN:"))


def test_ablation_roles():
    arg = build_matrix(layout(), relations(), 4, variant_config("Arg+Sal"))
    assert set(arg.cell("cananea", 2)) == {"Arg1", "Arg2"}
    typ = build_matrix(layout(), relations(), 4, variant_config("Type+Sal"))
    assert set(typ.cell("cananea", 2)) == {"Comp", "Temp", "Exp"}


def test_bad_input_gives_empty_features():
    assert text_features(Analysis(0, (), ()), variant_config("DICOMER+EGRID")) == {}
    one = Analysis(1, (Token(0, 0, 4, "dog", "S"),), ())
    assert text_features(one, variant_config("DICOMER+EGRID")) == {"text|one_sentence": 1.0}
    assert text_features(one, replace(variant_config("DICOMER"), one_sentence=False)) == {}
    no_rel = Analysis(2, (Token(0, 0, 4, "dog", "S"), Token(1, 5, 9, "dog", "O")), ())
    assert text_features(no_rel, variant_config("DICOMER")) == {}
    assert text_features(no_rel, variant_config("EGRID"))["eg|sal|2|S O"] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        RoleMatrix.from_triples(2, [(2, "dog", "Exp.Arg1")])
