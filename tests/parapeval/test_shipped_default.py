"""The shipped PEM model with the default resources built by `make setup` (skipped when the
cache is not built, e.g. before setup)."""

import pytest

from parapeval import PEM, defaults

BUILT = all(defaults.phrase_table_path(p).is_file() for p in defaults.DEFAULT_PIVOTS) and defaults.lm_path().is_file()


@pytest.mark.skipif(not BUILT, reason="default phrase tables / LM not built (run `make setup`)")
def test_shipped_model_prefers_rewording_over_copy_and_noise():
    pem = PEM.default()
    original = "The cat is sleeping on the mat."
    copy = pem.score(original, original)
    rewording = pem.score(original, "A cat sleeps on the rug.")
    noise = pem.score(original, "banana the run quickly purple")
    assert rewording.pem > copy.pem > noise.pem
    assert copy.adequacy == pytest.approx(1.0) and set(rewording.pivot_f1) == set(defaults.DEFAULT_PIVOTS)
    assert pem.signature().startswith("pem|pivots:fr+de+es+zh|fw:none|lm:default:4g:")


def test_shipped_model_file_exists():
    assert defaults.model_path().is_file(), "data/parapeval/pem-default.pkl missing: run `parapeval train --controls`"
