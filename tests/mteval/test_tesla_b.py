"""TESLA-B: two-step averaging of BTNG and pivot F-measures, the pivot closed form against the LP,
pivot lemmatisation, error records, signature and a monotonic sanity check (toy phrase tables)."""

import math

import numpy as np
import pytest

from evalcore.bpng import BPNGBuilder, PhraseTableStore
from evalcore.matching import match
from evalcore.metric import ErrorRecord
from evalcore.resources.phrase_table.build import english_preprocessor
from evalcore.resources.registry import ResourceError
from mteval.lexical.bpng_features import PivotFeatures, lemma_bags, lemma_fmeasures, pivot_lemmatizer
from mteval.tesla.features import mean_defined, two_step
from mteval.tesla.metric import TeslaB, TeslaM

REF = "The cat sat on the mat."


@pytest.fixture(scope="module")
def tesla_b(toy_tables):
    return TeslaB(tables=toy_tables)


def test_identical_segments_score_one(tesla_b):
    score = tesla_b.score([REF], REF)
    assert score.value == pytest.approx(1.0)
    assert score.components["btng"] == pytest.approx(1.0) and score.components["bpng"] == pytest.approx(1.0)


def test_value_is_the_mean_of_the_two_means(tesla_b):
    score = tesla_b.score([REF], "A feline was sitting on the rug.")
    c = score.components
    btng = np.mean([c[f"btng_{s}{n}"] for s in ("ms", "pos") for n in (1, 2, 3)])
    bpng = np.mean([c[f"bpng_{p}_lem_{n}"] for p in ("fr", "zh") for n in (1, 2, 3)])
    assert c["btng"] == pytest.approx(btng) and c["bpng"] == pytest.approx(bpng)
    assert score.value == pytest.approx((btng + bpng) / 2)
    assert 0 < score.value < 1


def test_target_side_is_tesla_m(tesla_b):
    hyp = "A feline was sitting on the rug."
    assert tesla_b.score([REF], hyp).components["btng"] == pytest.approx(TeslaM().score([REF], hyp).value)


def test_pivot_synonyms_raise_the_pivot_side(tesla_b):
    """"feline" and "cat" share the pivot "chat"/"猫": the BPNG sees what the target side cannot."""
    synonym = tesla_b.score([REF], "The feline sat on the mat.").components
    unrelated = tesla_b.score([REF], "The dog sat on the mat.").components
    assert synonym["bpng_fr_lem_1"] > unrelated["bpng_fr_lem_1"]
    assert synonym["bpng_zh_lem_1"] > unrelated["bpng_zh_lem_1"]


def test_closer_hypothesis_does_not_score_lower(tesla_b):
    ladder = ["The dog barks.", "The dog sat on the rug.", "The cat sat on the rug.", "The cat sat on the mat."]
    values = [tesla_b.score([REF], h).value for h in ladder]
    assert values == sorted(values) and values[-1] == pytest.approx(1.0)


@pytest.mark.parametrize("hyp", ["The feline sat on the rug.", "A cat was sitting on the mat.", "Dog barks on cats."])
def test_pivot_closed_form_equals_the_lp(toy_tables, hyp):
    """s_lem is binary and transitive: the per-class minimum equals the general LP's optimum on
    the raw bags (one node per pivot n-gram, similarity 1 between n-grams with equal lemmas)."""
    store = PhraseTableStore(toy_tables["fr"])
    builder, pre = BPNGBuilder(store, max_n=3, discount=0.1), english_preprocessor(False)
    lemma, _ = pivot_lemmatizer("fr")
    x, y = builder.bag(pre(REF)), builder.bag(pre(hyp))
    closed = lemma_fmeasures(lemma_bags(x, lemma), lemma_bags(y, lemma))

    def key(g):
        return tuple(map(lemma, g))

    for n, f in zip((1, 2, 3), closed):
        xs, ys = [g for g in x if len(g) == n], [g for g in y if len(g) == n]
        sim = np.array([[float(key(a) == key(b)) for b in ys] for a in xs]).reshape(len(xs), len(ys))
        xw, yw = np.array([x[g] for g in xs]), np.array([y[g] for g in ys])
        s = match(xw, yw, sim, method="network-simplex")
        p, r = s / yw.sum(), s / xw.sum()
        assert f == pytest.approx(p * r / (0.8 * p + 0.2 * r) if s > 0 else 0.0)


def test_pivot_lemmas_merge_inflections(toy_tables):
    """simplemma maps French "chats" to "chat": "cats" matches "cat" on the French pivot."""
    lemma, name = pivot_lemmatizer("fr")
    assert name == "simplemma" and lemma("chats") == "chat"
    assert pivot_lemmatizer("zh")[1] == "surface"
    features = PivotFeatures.from_paths(toy_tables)
    f = dict(zip(features.names(), features.compute("The cat.", "The cats.")))
    assert f["bpng_fr_lem_1"] == pytest.approx(1.0)


def test_undefined_orders_are_left_out():
    rows = np.array([[1.0, np.nan, np.nan, 1.0, np.nan, np.nan, 0.5, np.nan, np.nan]])
    btng, bpng, value = two_step(rows)
    assert btng[0] == 1.0 and bpng[0] == 0.5 and value[0] == 0.75
    no_pivot = np.array([[0.4, 0.2, np.nan, 0.4, 0.2, np.nan, np.nan, np.nan, np.nan]])
    assert two_step(no_pivot)[2][0] == pytest.approx(0.3)  # the target side alone
    assert math.isnan(mean_defined(np.array([[np.nan, np.nan]]))[0])


def test_bad_segments_are_error_records_in_order(tesla_b):
    out = tesla_b.score_batch([([REF], REF), ([REF], ""), (["..."], "The cat."), ([REF], "The cat.")])
    assert [r.ok for r in out] == [True, True, False, True]
    assert out[1].value == 0.0 and "empty" in out[1].notes[0]  # an empty output is scored, with a note
    assert isinstance(out[2], ErrorRecord)
    assert "no word" in out[2].message


def test_several_references_are_averaged(tesla_b):
    hyp = "The feline sat on the rug."
    refs = [REF, "The dog barks."]
    per_ref = [tesla_b.score([r], hyp).value for r in refs]
    assert tesla_b.score(refs, hyp).value == pytest.approx(np.mean(per_ref))
    assert TeslaB(tables=tesla_b.tables, multi_ref="max").score(refs, hyp).value == pytest.approx(max(per_ref))


def test_signature_names_pivots_tables_and_lemmatisers(toy_tables, tesla_b):
    sig = str(tesla_b.signature())
    assert "pivots:fr=" in sig and "/simplemma" in sig and "zh=" in sig and "/surface" in sig and "psim:lem" in sig
    only_fr = TeslaB(pivots="fr", tables={"fr": toy_tables["fr"]})
    assert str(only_fr.signature()) != sig


def test_missing_table_is_named(tmp_path):
    metric = TeslaB(tables={"fr": tmp_path / "absent.sqlite"})
    with pytest.raises(ResourceError, match="'fr'"):
        metric.validate()
    assert "unresolved:yes" in str(metric.signature())
    with pytest.raises(ValueError, match="not among the pivots"):
        TeslaB(pivots=["fr"], tables={"de": tmp_path / "x.sqlite"}).validate()


def test_other_targets_are_refused_by_name(toy_tables):
    with pytest.raises(ValueError, match="English targets only"):
        TeslaB(tables=toy_tables, language="de").validate()
