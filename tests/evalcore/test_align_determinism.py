"""Word alignment is reproducible: the seeded eflomal build gives the same alignments for the same
bitext and seed, whatever the number of threads, and the seed is what it samples from."""

import random

import pytest

from evalcore.resources.phrase_table.align import align_both_ways
from evalcore.resources.registry import ResourceError


def synthetic_bitext(n: int = 300, seed: int = 3) -> tuple[list[list[str]], list[list[str]]]:
    """Word-for-word translations with two-way ambiguous pivot words, swaps and unaligned fillers:
    enough ambiguity for an unseeded sampler to differ between runs."""
    rng = random.Random(seed)
    english = [f"w{i}" for i in range(60)]
    pivot = {w: [f"p{i}", f"q{i % 7}"] for i, w in enumerate(english)}
    e_sents, f_sents = [], []
    for _ in range(n):
        e = [rng.choice(english) for _ in range(rng.randint(4, 12))]
        f = [rng.choice(pivot[w]) for w in e] + ["de"] * rng.randint(0, 2)
        for _ in range(2):
            i, j = rng.randrange(len(f)), rng.randrange(len(f))
            f[i], f[j] = f[j], f[i]
        e_sents.append(e)
        f_sents.append(f)
    return e_sents, f_sents


@pytest.fixture(scope="module")
def bitext():
    e, f = synthetic_bitext()
    try:
        first = align_both_ways(e, f)
    except ResourceError as exc:
        pytest.skip(str(exc))
    return e, f, first


def test_the_same_seed_gives_the_same_alignments(bitext):
    e, f, first = bitext
    assert align_both_ways(e, f) == first


def test_the_thread_count_does_not_change_the_alignments(bitext, monkeypatch):
    e, f, first = bitext
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert align_both_ways(e, f) == first
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert align_both_ways(e, f) == first


def test_another_seed_samples_other_alignments(bitext):
    e, f, first = bitext
    assert align_both_ways(e, f, seed=7) != first


def test_a_seed_must_be_positive(bitext):
    e, f, _ = bitext
    with pytest.raises(ValueError, match="positive"):
        align_both_ways(e, f, seed=0)
