"""RED's dep-n-grams on the paper's Figure 1 sentence, parsed by hand (not by spaCy)."""

from mteval.red.depngrams import DepTree, dep_ngrams, fixed_floating, headword_chains

# I(0) saw(1) an(2) ant(3) with(4) a(5) magnifier(6): saw is the root; I, ant, with depend on saw;
# an on ant; magnifier on with; a on magnifier (RED Figure 1, 0-based positions)
WORDS = ("i", "saw", "an", "ant", "with", "a", "magnifier")
HEADS = (1, -1, 3, 1, 1, 6, 4)
FUNCTION = (True, False, True, False, True, True, False)
TREE = DepTree(WORDS, HEADS, FUNCTION)


def _strings(spans):
    return {" ".join(WORDS[s:e]) for s, e in spans}


def test_headword_chains_are_the_downward_paths():
    assert headword_chains(TREE, 1) == [(i,) for i in range(7)]
    assert set(headword_chains(TREE, 2)) == {(1, 0), (1, 3), (1, 4), (3, 2), (4, 6), (6, 5)}
    assert set(headword_chains(TREE, 3)) == {(1, 3, 2), (1, 4, 6), (4, 6, 5)}
    # the paper's example chain saw(2) -> with(5) -> magnifier(7), 1-based
    assert (1, 4, 6) in headword_chains(TREE, 3)


def test_fixed_and_floating_structures_of_the_paper():
    spans = fixed_floating(TREE, max_n=5)
    # Figure 2(b): fixed (I, saw, an, ant); Figure 2(c): floating (an, ant, with, a, magnifier)
    assert "i saw an ant" in _strings(spans[4])
    assert "an ant with a magnifier" in _strings(spans[5])
    # "I saw" + "with a magnifier" leaves out the nearer child "an ant": not a structure
    assert "i saw with a magnifier" not in _strings(spans[5])


def test_dep_ngrams_up_to_three():
    grams = dep_ngrams(TREE)
    assert _strings(grams.spans[2]) == {"i saw", "an ant", "a magnifier"}
    assert _strings(grams.spans[3]) == {"saw an ant", "with a magnifier"}
    assert grams.spans[1] == []
    assert [grams.count(n) for n in (1, 2, 3)] == [7, 6 + 3, 3 + 2]


def test_floating_siblings_must_be_contiguous():
    # a(0) <- b(1) -> c(2): siblings a and c straddle their head, so no floating "a c"
    tree = DepTree(("a", "b", "c"), (1, -1, 1), (False,) * 3)
    spans = fixed_floating(tree, 3)
    assert _strings_of(tree, spans[2]) == {"a b", "b c"}
    assert _strings_of(tree, spans[3]) == {"a b c"}


def _strings_of(tree, spans):
    return {" ".join(tree.words[s:e]) for s, e in spans}
