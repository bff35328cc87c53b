"""The every-pair skip-bigram overlap counted from word positions equals the listed definition,
and a long line costs neither quadratic memory nor the listed pairs' time."""

import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval.beer2 import pairs
from mteval.beer2.features import FeatureTemplate
from mteval.beer2.model import default_model_dir
from mteval.beer2.pairs import inversions, listed_overlap, ordered_pair_overlap


def test_inversions_of_permutations():
    rng = random.Random(3)
    for m in [0, 1, 2, 3, 7, 16, 33, 100]:
        p = list(range(m))
        rng.shuffle(p)
        want = sum(p[i] > p[j] for i in range(m) for j in range(i + 1, m))
        assert inversions(np.array(p)) == want


WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]), max_size=40)


@settings(max_examples=300, deadline=None)
@given(WORDS, WORDS)
def test_counted_overlap_equals_listed(xs, ys):
    old = pairs.LIST_PAIRS_BELOW
    pairs.LIST_PAIRS_BELOW = 0  # force the counting path on small inputs
    try:
        assert ordered_pair_overlap(xs, ys) == listed_overlap(xs, ys)
    finally:
        pairs.LIST_PAIRS_BELOW = old


@pytest.mark.parametrize("vocab", [3, 40, 400, 10**6])
def test_counted_overlap_equals_listed_on_long_texts(vocab):
    rng = random.Random(vocab)
    xs = [str(rng.randrange(vocab)) for _ in range(700)]
    ys = [str(rng.randrange(vocab)) for _ in range(500)] + xs[:200]
    rng.shuffle(ys)
    assert ordered_pair_overlap(xs, ys) == listed_overlap(xs, ys)


def test_block_size_does_not_change_the_count(monkeypatch):
    rng = random.Random(5)
    xs = [str(rng.randrange(60)) for _ in range(300)]
    ys = [str(rng.randrange(60)) for _ in range(300)]
    want = listed_overlap(xs, ys)
    monkeypatch.setattr(pairs, "BLOCK_CELLS", 1)
    assert ordered_pair_overlap(xs, ys) == want


def test_covered_text_has_closed_form_size_and_no_listed_pieces():
    template = FeatureTemplate.from_yaml(default_model_dir() / "feature_template.yaml")
    words = [f"w{k}" for k in range(50)]
    text = template.pieces(" ".join(words))
    for j, fam in enumerate(template.families):
        if fam.kind == "skip-bigram" and fam.order >= 48:
            assert text.counts[j] is None and text.sizes[j] == 50 * 49 / 2
        elif fam.kind == "skip-bigram":
            assert text.counts[j] is not None


def test_a_window_covering_one_side_only_lists_that_side():
    """skip4 covers a 5-word text but not a 9-word one: the short side's pairs are listed."""
    template = FeatureTemplate.from_yaml(default_model_dir() / "feature_template.yaml")
    j = next(j for j, f in enumerate(template.families) if f.kind == "skip-bigram" and f.order == 4)
    short, long_ = template.pieces("a b c a b"), template.pieces("a b c a b c a b c")
    assert short.counts[j] is None and long_.counts[j] is not None
    from mteval.beer2.pieces import skip_bigrams

    want = sum((skip_bigrams(short.words, 4) & skip_bigrams(long_.words, 4)).values())
    assert template.overlap(j, short, long_) == want == template.overlap(j, long_, short)


def test_long_line_is_linear_in_memory():
    """15,000 words (~99,000 characters, under the input cap): listing the every-pair skip-bigrams
    took 6.5 GiB and two minutes; counted, it stays under 600 MiB and 30 s."""
    code = textwrap.dedent("""
        import random, resource, time
        from evalcore.metric import Item
        from mteval.beer2.metric import Beer2
        rng = random.Random(0)
        words = [f"w{int(rng.paretovariate(0.7)) % 5000}" for _ in range(15000)]
        cand, ref = " ".join(words), " ".join(rng.sample(words, len(words)))
        start = time.process_time()
        result = Beer2().score_batch([Item(cand, (ref,))])[0]
        assert result.ok, result
        # VmHWM: ru_maxrss would carry the parent's (pytest's) peak across fork and exec
        hwm = [int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")]
        print(time.process_time() - start, hwm[0] if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    seconds, rss_kib = out.stdout.split()
    assert float(seconds) < 30
    assert int(rss_kib) < 600 * 1024
