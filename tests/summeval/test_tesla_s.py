import importlib.util
import pickle
from typing import Any

import pytest

from evalcore.io.textfiles import InputError
from evalcore.metric.inputs import EMPTY_NOTE
from evalcore.metric.registry import get_metric
from summeval.metrics import TeslaS
from summeval.multiref import combine
from tests.scored import scored


def test_hand_computed_without_function_words():
    s = TeslaS().score("cats chase mice", "cats chase dogs")
    assert s.unigram_f == pytest.approx(2 / 3)
    assert s.skip_bigram_f == pytest.approx(1 / 3)
    assert s.value == pytest.approx(0.5) and s.f == s.value


def test_components_are_what_tesla_s_defines():
    s = TeslaS().score("the cat sat on the mat", "a cat sat on a mat")
    assert set(s.components) == {"precision", "recall", "f", "unigram_f", "skip_bigram_f"}


def test_function_words_are_discounted_by_a_tenth():
    s = TeslaS().score("the cat sleeps", "a cat sleeps")
    assert s.unigram_f == pytest.approx(2 / 2.1)
    assert s.skip_bigram_f == pytest.approx(1 / 1.2)
    no_discount = TeslaS(function_words="none").score("the cat sleeps", "a cat sleeps")
    assert no_discount.unigram_f == pytest.approx(2 / 3)


def test_alpha_weights_recall():
    s = TeslaS().score("cats chase mice quickly", "cats chase")
    p, r = 1.0, 0.5
    assert s.unigram_f == pytest.approx(p * r / (0.8 * p + 0.2 * r))
    assert TeslaS(alpha=0.5).score("cats chase mice quickly", "cats chase").unigram_f == pytest.approx(2 / 3)


def test_identical_and_disjoint_texts():
    assert TeslaS().score("A quick brown fox jumps.", "a quick brown fox jumps .").value == pytest.approx(1.0)
    assert TeslaS().score("red green blue", "cats dogs").value == 0.0


def test_multi_reference_modes():
    refs = ["cats chase mice", "dogs chase cats", "birds fly"]
    cand = "cats chase dogs"
    singles = [TeslaS().score(r, cand).value for r in refs]
    assert TeslaS().score(refs, cand).value == pytest.approx(max(singles))
    assert TeslaS(multi_ref="mean").score(refs, cand).value == pytest.approx(sum(singles) / 3)
    loo = [max(singles[:k] + singles[k + 1:]) for k in range(3)]
    assert TeslaS(multi_ref="jackknife").score(refs, cand).value == pytest.approx(sum(loo) / 3)


def test_jackknife_combine_matches_definition():
    import numpy as np

    v = np.array([0.2, 0.9, 0.5, 0.9])
    loo = [max(np.delete(v, k)) for k in range(4)]
    assert combine(v, "jackknife") == pytest.approx(np.mean(loo))


def test_batch_equals_one_by_one():
    metric = TeslaS()
    items = [(["the cat sat on the mat", "a cat was on a mat"], "the cat is on the mat"),
             (["dogs bark loudly at night"], "at night dogs bark"),
             (["dogs bark loudly at night"], "the cat is on the mat")]
    batch = metric.score_batch(items)
    assert [b.value for b in batch] == pytest.approx([TeslaS().score(r, c).value for r, c in items])


def test_signatures_keep_the_short_form_of_0_1_0():
    # the strings CREMER's model headers record, parameter for parameter
    assert str(get_metric("tesla-s").signature()) == \
        "tesla-s|ngrams:1+sb4|fw:0.1|alpha:0.8|refs:max|tok:ptb-lc|stem:no|fwd:list|v:0.2.0"
    assert str(get_metric("tesla-s-pos").signature()) == \
        "tesla-s-pos|ngrams:1+sb4|fw:0.1|alpha:0.8|refs:max|tok:ptb-lc|stem:no|fwd:pos|v:0.2.0"
    assert str(TeslaS(multi_ref="jackknife", stem=True).signature()) == \
        "tesla-s|ngrams:1+sb4|fw:0.1|alpha:0.8|refs:jackknife|tok:ptb-lc|stem:porter|fwd:list|v:0.2.0"
    assert str(TeslaS(function_words="none").signature()) == \
        "tesla-s|ngrams:1+sb4|fw:none|alpha:0.8|refs:max|tok:ptb-lc|stem:no|fwd:none|v:0.2.0"


def test_signature_changes_with_every_parameter():
    base = str(TeslaS().signature())
    changed: dict[str, Any] = {"alpha": 0.5, "discount": 0.2, "max_gap": 3, "multi_ref": "mean", "stem": True,
                               "function_words": "pos"}
    for name, value in changed.items():
        assert str(TeslaS(**{name: value}).signature()) != base, name


def test_parameters_round_trip_and_travel_as_parameters():
    metric = TeslaS(alpha=0.6, multi_ref="jackknife", stem=True)
    assert type(metric)(**metric.get_params()).get_params() == metric.get_params()
    assert pickle.loads(pickle.dumps(metric)).get_params() == metric.get_params()
    assert TeslaS(function_words="pos").name == "tesla-s-pos" and TeslaS().name == "tesla-s"


def test_bad_parameters_raise_on_use_not_on_construction():
    for params in ({"multi_ref": "median"}, {"alpha": 1.5}, {"discount": -1}, {"max_gap": -2},
                   {"function_words": "regex"}, {"stem": "yes"}):
        metric = TeslaS(**params)  # __init__ only stores
        with pytest.raises(ValueError):
            metric.score("a b", "a b")
    with pytest.raises(ValueError, match="unknown metric"):
        get_metric("no-such-metric")


def test_empty_candidate_is_scored_with_a_note_in_the_api_and_the_cli_alike():
    # defect: the Python API scored an empty candidate 0.0 while the CLI gave an error record
    score = TeslaS().score("cats chase mice", "   ")
    (record,) = TeslaS().score_batch([(["cats chase mice"], "")])
    assert score.value == record.value == 0.0 and EMPTY_NOTE in score.notes and EMPTY_NOTE in record.notes


def test_swapped_arguments_say_so():
    # defect: score(candidate, [references]) died with "unhashable type: 'list'"
    with pytest.raises(InputError, match="swap"):
        TeslaS().score("the candidate summary",
                       ["reference one", "reference two"])  # type: ignore[arg-type]  # wrong type on purpose


@pytest.mark.parametrize("stem,function_words", [(False, "list"), (True, "pos"), (False, "none")])
def test_tokeniser_fields_are_the_preprocessors(stem, function_words):
    from evalcore.text.preprocess import Preprocessor

    fields = str(TeslaS(stem=stem, function_words=function_words).signature()).split("|")[5:8]
    assert "|".join(fields) == Preprocessor(lowercase=True, stem=stem, function_words=function_words).signature()


def test_tokens_never_span_white_space_so_strings_are_tokenised_once():
    # TESLA-S tokenises each whitespace-separated string once (summeval.tesla_s.metric._Vocabulary):
    # right only if the tokeniser's tokens of a text are those of its strings end to end
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from evalcore.text.preprocess import tokenize

    alphabet = st.sampled_from(list("an't’sdmlrve-._,;:!?\"()$%0123 \t\n\u00a0\u2028xyzÉé") + ["n't", "'s", "’re"])

    @settings(max_examples=400, deadline=None)
    @given(st.lists(alphabet, max_size=40).map("".join))
    def check(text):
        assert tokenize(text) == [t for string in text.split() for t in tokenize(string)]

    check()


def test_ids_follow_the_preprocessor_and_the_vocabulary_can_be_forgotten():
    from evalcore.text.ngrams import token_ids
    from summeval.tesla_s.metric import _ids_and_flags, clear_caches, preprocessor

    texts = ["The cat's mat, isn't it?", "", "  the   DOG ran  ", "The cat's mat"]
    for forget in (False, True):
        clear_caches(vocabulary=forget)
        ids, function, lengths = _ids_and_flags(texts, False, "list")
        docs = [preprocessor(False, "list")(t) for t in texts]
        assert lengths.tolist() == [len(d) for d in docs]
        assert ids.tolist() == token_ids([t for d in docs for t in d.tokens]).tolist()
        assert function.tolist() == [f for d in docs for f in d.function]


@pytest.mark.parametrize("numba", [False, True])
@pytest.mark.parametrize("config", ["default", "no-fw", "jackknife"])
def test_corpus_batch_engines_give_the_golden_floats(monkeypatch, config, summeval_expert, numba):
    # the golden batch is small enough for the sort engine; force a corpus engine: the dense
    # tables of a base install (no numba), or the compiled kernels
    import json
    from pathlib import Path

    from evalcore.data.summeval import read_summeval
    from evalcore.text import ngrams
    from summeval.tesla_s.metric import clear_caches

    golden = json.loads((Path(__file__).parent / "golden" / "tesla_s_golden.json").read_text())
    by_key = {(it.topic, it.system): it for it in read_summeval(summeval_expert)}
    pairs = [(list(by_key[t, s].references), by_key[t, s].summary) for t, s in golden["items"]]
    if numba:
        pytest.importorskip("numba")
    monkeypatch.setattr(ngrams, "CORPUS_FROM", 0 if numba else float("inf"))
    monkeypatch.setattr(ngrams, "TABLES_FROM", float("inf") if numba else 0)
    monkeypatch.setattr(ngrams, "numba_installed", lambda: numba)
    clear_caches()
    scores = TeslaS(**golden["configs"][config]).score_batch(pairs)
    assert [[getattr(s, f) for f in golden["fields"]] for s in scores] == golden["batch"][config]


@pytest.mark.parametrize("lang", ["ru", "zh", "en"])
def test_corpus_engines_score_other_languages_and_nfd_text_as_the_sort_engine(monkeypatch, lang):
    """Russian, Chinese and NFD-decomposed English through every bag engine: the same floats."""
    import unicodedata

    from evalcore.text import ngrams
    from summeval.tesla_s.metric import clear_caches

    texts = {"ru": ["Кошка сидит на ковре, а собака спит у двери.", "Собака спит у двери, кошка на ковре.",
                    "На ковре сидит кошка; собака у двери не спит."],
             "zh": ["猫坐在垫子上，狗在门边睡觉。", "狗在门边睡觉，猫在垫子上。", "垫子上坐着一只猫，门边的狗没有睡。"],
             "en": [unicodedata.normalize("NFD", t) for t in ("The café's crème brûlée was naïve.",
                                                             "A naïve crème brûlée at the café.",
                                                             "The café served crème brûlée.")]}[lang]
    pairs = [([texts[(k + 1) % 3], texts[(k + 2) % 3]], texts[k]) for k in range(3)] * 4
    metric = TeslaS(lang=lang) if lang != "en" else TeslaS()
    scores = {}
    for engine in ("sort", "tables", "compiled"):
        if engine == "compiled" and importlib.util.find_spec("numba") is None:
            continue
        monkeypatch.setattr(ngrams, "CORPUS_FROM", 0 if engine == "compiled" else float("inf"))
        monkeypatch.setattr(ngrams, "TABLES_FROM", 0 if engine == "tables" else float("inf"))
        monkeypatch.setattr(ngrams, "numba_installed", lambda e=engine: e == "compiled")
        clear_caches()
        scores[engine] = [(s.value, s.unigram_f, s.skip_bigram_f) for s in scored(metric.score_batch(pairs))]
    assert all(v == scores["sort"] for v in scores.values())
    assert all(0 < value < 1 for value, _, _ in scores["sort"])
