"""The shipped PEM model with the default resources built by `make setup` (skipped when the
cache is not built, e.g. before setup)."""

import re

import pytest

from evalcore.io.models import load_model, read_header
from evalcore.metric import Item
from evalcore.resources import defaults
from parapeval import PEM
from parapeval.pem.metric import default_model_path
from parapeval.pem.model import PEMRegressor

BUILT = all(defaults.phrase_table_path(p).is_file() for p in defaults.DEFAULT_PIVOTS) and defaults.lm_path().is_file()
needs_resources = pytest.mark.skipif(not BUILT, reason="default phrase tables / LM not built (run `make setup`)")


@needs_resources
def test_shipped_model_prefers_rewording_over_copy_and_noise():
    pem = PEM()
    original = "The cat is sleeping on the mat."
    copy = pem.score(original, original)
    rewording = pem.score(original, "A cat sleeps on the rug.")
    noise = pem.score(original, "banana the run quickly purple")
    assert rewording.value > copy.value > noise.value
    assert copy.adequacy == pytest.approx(1.0) and copy.target_ngram_f1 == pytest.approx(1.0)
    assert {f"pivot_f1_{p}" for p in defaults.DEFAULT_PIVOTS} <= set(rewording.components)
    assert re.match(r"pem\|pivots:fr=[0-9a-f]{8}\+de=[0-9a-f]{8}\+es=[0-9a-f]{8}\+zh=[0-9a-f]{8}"
                    r"\|fw:none\|lm:default:4g:",
                    str(pem.signature()))  # each table named by its content hash
    assert str(pem.signature()).endswith("|model:pem-default|v:0.2.0")


@needs_resources
@pytest.mark.parametrize("pair", [("القط ينام على السجادة في الغرفة", "القطة نائمة على البساط"),
                                  ("猫在垫子上睡觉。", "一只猫睡在地毯上。")], ids=["arabic", "chinese"])
def test_shipped_model_refuses_non_english_pairs(pair):
    """On the old main these pairs got a confident PEM of about 0.71 and no flag; now an error record."""
    record = PEM().score_batch([Item(pair[1], source=pair[0], id="p1")])[0]
    assert not record.ok and "of letters are not Latin script" in record.message


def test_shipped_model_file_and_header():
    path = default_model_path()
    assert path.is_file(), "parapeval/models/pem-default.npz missing: run `parapeval train --controls`"
    info = read_header(path)
    assert info["metric"] == "pem" and load_model(path, classes=(PEMRegressor,))[1] == info  # hash checked
    assert info["feature_names"] == ["adequacy", "fluency", "target_ngram_f1"]
    assert info["pivots"] == ["fr", "de", "es", "zh"]
    assert info["trained_on"].startswith("Twitter-Para") and info["licence"]
    assert 0 < info["neutral"]["value"] < 1


@needs_resources
def test_shipped_model_scores_hostile_near_copies_as_the_copy_below_a_genuine_rewording():
    """The hostile fixture's game: on the old main a zero-width space lifted a copy from 0.350 to
    0.713, right-to-left marks to 0.749, above the genuine rewording (0.628)."""
    original = "The council approved the budget."
    near = [original.replace("council", "coun\u200bcil"), "\u202e" + original + "\u202c", original[:-1]]
    copy, *near_copies, genuine = PEM().score_batch(
        [(original, p) for p in (original, *near, "The budget was approved by the council.")])
    assert [c.value for c in near_copies] == pytest.approx([copy.value] * 3)
    assert all(genuine.value > c.value for c in (copy, *near_copies))
