import pytest

from evalcore.ngrams import merge, ngram_bag, skip_bigram_bag, total
from evalcore.text import Doc


def doc(words, function=()):
    toks = tuple(words.split())
    return Doc(toks, tuple(t in function for t in toks))


def rouge155_skip_bigrams(tokens, skip_distance):
    """Literal transcription of ROUGE-1.5.5's createSkipBigram loop bounds (no unigrams)."""
    grams = {}
    for i in range(len(tokens) - 1):
        j = i + 1
        while j <= len(tokens) - 1 and (skip_distance < 0 or j <= i + skip_distance + 1):
            g = (tokens[i], tokens[j])
            grams[g] = grams.get(g, 0) + 1
            j += 1
    return grams


def test_skip_bigram_window_matches_rouge_155_skip_distance_4():
    d = doc("a b c d e f g h")
    bag = skip_bigram_bag(d, max_gap=4)
    assert ("a", "f") in bag  # four words in between: allowed by -2 4
    assert ("a", "g") not in bag  # five words in between: not allowed
    assert bag == rouge155_skip_bigrams(d.tokens, 4)


@pytest.mark.parametrize("gap", [0, 1, 3, 9])
def test_skip_bigram_counts_match_rouge_155_for_other_gaps(gap):
    d = doc("x y x z y x w")
    assert skip_bigram_bag(d, gap) == rouge155_skip_bigrams(d.tokens, gap)


def test_gap_zero_is_plain_bigrams():
    d = doc("a b a b")
    assert skip_bigram_bag(d, 0) == ngram_bag(d, 2)


def test_function_word_discount_multiplies_per_function_word():
    d = doc("the cat of the", function={"the", "of"})
    uni = ngram_bag(d, 1, discount=0.1)
    assert uni[("the",)] == pytest.approx(0.2) and uni[("cat",)] == 1.0
    bi = ngram_bag(d, 2, discount=0.1)
    assert bi[("the", "cat")] == pytest.approx(0.1)
    assert bi[("of", "the")] == pytest.approx(0.01)


def test_merge_and_total():
    a, b = {("x",): 1.0}, {("x",): 2.0, ("y",): 0.5}
    assert merge([a, b]) == {("x",): 3.0, ("y",): 0.5}
    assert total(merge([a, b])) == 3.5


def test_empty_doc_gives_empty_bags_and_bad_arguments_raise():
    empty = doc("")
    assert ngram_bag(empty, 1) == {} and skip_bigram_bag(empty) == {}
    with pytest.raises(ValueError):
        ngram_bag(empty, 0)
    with pytest.raises(ValueError):
        skip_bigram_bag(empty, -1)
