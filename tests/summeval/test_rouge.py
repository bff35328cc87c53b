import json
from pathlib import Path

import pytest
from rouge_score import rouge_scorer, tokenizers

from evalcore.data.summeval import read_summeval
from evalcore.metric.registry import get_metric
from evalcore.text.ngrams import merge, ngram_bag, skip_bigram_bag, total
from evalcore.text.preprocess import Doc
from summeval.metrics import Rouge, RougeSU
from summeval.rouge.metric import ROUGE_TYPES
from tests.scored import scored

REF, CAND = "The cats were chasing the mice in the garden.", "Cats chased mice in a garden."


@pytest.mark.parametrize("kind,key", [("rouge-1", "rouge1"), ("rouge-2", "rouge2"), ("rouge-l", "rougeL")])
def test_rouge_is_rouge_score_for_each_kind(kind, key):
    expected = rouge_scorer.RougeScorer([key], use_stemmer=True).score(REF, CAND)[key]
    s = Rouge(kind).score(REF, CAND)
    assert s.value == pytest.approx(expected.recall)
    assert (s.precision, s.recall, s.f) == pytest.approx((expected.precision, expected.recall, expected.fmeasure))
    assert Rouge(kind, "f").score(REF, CAND).value == pytest.approx(expected.fmeasure)
    assert set(s.components) == {"precision", "recall", "f"}


def test_rouge_su4_hand_computed_with_rouge_155_unigram_rule():
    # reference a b c: skip-bigrams ab ac bc + unigrams of all tokens but the last (a, b) = 5
    # candidate a c:   skip-bigram ac + unigram a = 2; overlap ac + a = 2
    s = RougeSU(4).score("a b c", "a c")
    assert s.recall == pytest.approx(2 / 5)
    assert s.precision == pytest.approx(1.0)


def test_rouge_su4_window_and_multi_reference_max():
    ref = "w1 w2 w3 w4 w5 w6 w7"
    # (w1, w6) has four words between: counted; (w1, w7) five: not counted
    assert RougeSU(4).score(ref, "w1 w6").recall > RougeSU(4).score(ref, "w1 w7").recall
    one = RougeSU(4).score("x y z", "x y")
    both = RougeSU(4).score(["p q r", "x y z"], "x y")
    assert both.value == pytest.approx(one.value)


def test_registered_names_and_signatures_are_those_of_0_1_0():
    assert str(get_metric("rouge-2").signature()) == \
        "rouge-2|measure:recall|refs:max|tok:rouge-score|stem:porter|v:0.2.0"
    assert str(get_metric("rouge-l-f").signature()) == \
        "rouge-l-f|measure:f|refs:max|tok:rouge-score|stem:porter|v:0.2.0"
    assert str(get_metric("rouge-su4").signature()) == \
        "rouge-su4|skip:4|unigrams:1.5.5|measure:recall|refs:max|tok:rouge-score|stem:porter|v:0.2.0"
    assert get_metric("rouge-su4-f").name == "rouge-su4-f" and get_metric("rouge-1-f").name == "rouge-1-f"
    assert str(Rouge("rouge-2", stem=False).signature()).endswith("stem:no|v:0.2.0")


def test_bad_measure_and_type():
    with pytest.raises(ValueError):
        Rouge("rouge-9").score("a", "a")
    with pytest.raises(ValueError):
        RougeSU(4, measure="precision").score("a", "a")


# ---- value for value against rouge-score (the reference implementation) on SummEval ------------
@pytest.fixture(scope="module")
def summeval_pairs(summeval_expert):
    items = read_summeval(summeval_expert)
    topics = sorted({it.topic for it in items})[:4]
    return [(list(it.references), it.summary) for it in items if it.topic in topics]


@pytest.mark.parametrize("stem", [True, False])
def test_rouge_equals_rouge_score_on_summeval_value_for_value(summeval_pairs, stem):
    reference = rouge_scorer.RougeScorer(list(ROUGE_TYPES.values()), use_stemmer=stem)
    expected = [[reference.score(r, cand) for r in refs] for refs, cand in summeval_pairs]
    for kind, key in ROUGE_TYPES.items():
        for measure, field in (("recall", "recall"), ("f", "fmeasure")):
            got = scored(Rouge(kind, measure, stem).score_batch(summeval_pairs))
            for scores, per_ref in zip(got, expected):
                best = max(per_ref, key=lambda s: getattr(s[key], field))[key]  # first best, as before
                assert (scores.value, scores.precision, scores.recall, scores.f) == \
                    (getattr(best, field), best.precision, best.recall, best.fmeasure)


def _su4_of_0_1_0(reference, candidate, stem):
    """ROUGE-SU4 recall by its definition: dict bags on rouge-score's own tokens."""
    def bag(text):
        toks = tuple(tokenizers.DefaultTokenizer(use_stemmer=stem).tokenize(text))
        doc = Doc(toks, (False,) * len(toks))
        return merge([skip_bigram_bag(doc, 4), ngram_bag(Doc(toks[:-1], (False,) * max(len(toks) - 1, 0)), 1)])

    ref, cand = bag(reference), bag(candidate)
    hit = sum(min(w, cand[g]) for g, w in ref.items() if g in cand)
    return hit / total(ref) if total(ref) else 0.0, hit / total(cand) if total(cand) else 0.0


@pytest.mark.parametrize("engine", ["sort", "tables", "compiled"])
def test_rouge_su4_equals_the_dict_bag_computation_on_summeval(summeval_pairs, monkeypatch, engine):
    from evalcore.text import ngrams

    # the sort engine, or a corpus-batch one forced on this small batch: dense tables (no numba)
    # or compiled kernels
    if engine == "compiled":
        pytest.importorskip("numba")
    monkeypatch.setattr(ngrams, "CORPUS_FROM", 0 if engine == "compiled" else float("inf"))
    monkeypatch.setattr(ngrams, "TABLES_FROM", 0 if engine == "tables" else float("inf"))
    monkeypatch.setattr(ngrams, "numba_installed", lambda: engine == "compiled")
    pairs = summeval_pairs[:48]
    got = scored(RougeSU(4).score_batch(pairs))
    for (refs, cand), s in zip(pairs, got):
        per_ref = [_su4_of_0_1_0(r, cand, True) for r in refs]
        recall, precision = max(per_ref, key=lambda rp: rp[0])
        assert (s.value, s.recall, s.precision) == (recall, recall, precision)
    one = [RougeSU(4).score(refs, cand).value for refs, cand in pairs[:5]]
    assert one == [s.value for s in got[:5]]


@pytest.mark.parametrize("metric", [Rouge("rouge-2"), Rouge("rouge-l", "f"), RougeSU(4)])
def test_multi_ref_mean_and_jackknife_combine_the_per_reference_values(metric):
    refs = ["the council approved the budget on monday", "a budget was approved by the city council",
            "council members voted for new schools"]
    cand = "the city council approved a budget for schools"
    per_ref = [metric.score(r, cand) for r in refs]
    values = sorted(s.value for s in per_ref)
    jack = type(metric)(**{**metric.get_params(), "multi_ref": "jackknife"})
    mean = type(metric)(**{**metric.get_params(), "multi_ref": "mean"})
    # TAC: each leave-one-out subset keeps its best reference; dropping the best leaves the second
    assert jack.score(refs, cand).value == pytest.approx((2 * values[-1] + values[-2]) / 3)
    assert mean.score(refs, cand).value == pytest.approx(sum(values) / 3)
    assert mean.score(refs, cand).precision == pytest.approx(sum(s.precision for s in per_ref) / 3)
    assert metric.score(refs, cand).value == pytest.approx(values[-1])
    assert "|refs:jackknife|" in str(jack.signature())
    with pytest.raises(ValueError, match="multi_ref"):
        type(metric)(**{**metric.get_params(), "multi_ref": "median"}).score(refs, cand)


def test_summeval_score_multi_ref_reaches_rouge(capsys):
    from summeval.cli import main

    demo = Path(__file__).resolve().parents[2] / "data" / "demo"
    tac = ["--models", str(demo / "models"), "--peers", str(demo / "peers"), "-m", "rouge-2", "--format", "json"]
    docs = {}
    for mode in ("max", "jackknife"):
        assert main(["score", *tac, "--multi-ref", mode]) == 0
        docs[mode] = json.loads(capsys.readouterr().out)
    assert docs["jackknife"]["signature"]["rouge-2"]["short"].startswith("rouge-2|measure:recall|refs:jackknife|")
    pairs = [(a["scores"]["rouge-2"], b["scores"]["rouge-2"])
             for a, b in zip(docs["max"]["summaries"], docs["jackknife"]["summaries"])]
    assert all(j <= m + 1e-12 for m, j in pairs) and any(j < m for m, j in pairs)
