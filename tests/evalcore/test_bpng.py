"""BPNG: the paper's worked example, segmentation and the confusion-network n-gram bag."""

import pytest

from evalcore.bpng import BPNGBuilder, MemoryPhraseTable, confusion_network, pivot_f1, pivot_ngram_bag, segment
from evalcore.text import Doc


def _doc(text):
    toks = tuple(text.split())
    return Doc(toks, tuple(t in {",", ".", "the", "a"} for t in toks))


@pytest.fixture
def paper_table():
    return MemoryPhraseTable({
        ("hello", ","): (10, {("bonjour", ","): 9, ("salut", ","): 1}),
        ("hello",): (5, {("bonjour",): 5}),
        (",",): (100, {(",",): 100}),
        (".",): (100, {(".",): 100}),
        ("morning", ",", "sir", "."): (2, {("bonjour", ",", "monsieur", "."): 2}),
        ("morning",): (3, {("matin",): 3}),
        ("sir",): (4, {("monsieur",): 4}),
    })


def test_paper_worked_example(paper_table):
    builder = BPNGBuilder(paper_table)
    hello = builder.bag(_doc("hello , querrien ."))
    morning = builder.bag(_doc("morning , sir ."))
    assert hello[("bonjour",)] == pytest.approx(0.9)
    assert hello[("salut", ",", "querrien", ".")] == pytest.approx(0.1)
    assert hello[(",", "querrien", ".")] == pytest.approx(1.0)
    assert sum(hello.values()) == pytest.approx(10.0)
    assert sum(morning.values()) == pytest.approx(10.0)
    assert len(morning) == 10
    p, r, f = pivot_f1(hello, morning)
    assert (p, r) == (pytest.approx(0.38), pytest.approx(0.38))
    assert f == pytest.approx(0.38)


def test_segmentation_prefers_known_long_phrases(paper_table):
    toks = "hello , querrien .".split()
    assert segment(toks, paper_table) == [(0, 2), (2, 3), (3, 4)]
    assert segment("morning , sir .".split(), paper_table) == [(0, 4)]
    assert segment([], paper_table) == []


def test_segmentation_dp_beats_greedy():
    # Greedy longest-first would take "a b c" then "d"; the DP sees "a" + "b c d" is likelier.
    table = MemoryPhraseTable({
        ("a", "b", "c"): (1, {("x",): 1}), ("d",): (1, {("y",): 1}),
        ("a",): (50, {("x",): 50}), ("b", "c", "d"): (50, {("z",): 50}),
    })
    assert segment(list("abcd"), table) == [(0, 1), (1, 4)]


def test_unseen_word_counts_half():
    # N(w)=0.5 for an unseen word: "q" alone costs 0.5/total; a two-word phrase seen once wins.
    table = MemoryPhraseTable({("p", "q"): (1, {("pq",): 1}), ("p",): (1, {("p'",): 1})})
    assert segment(["p", "q"], table) == [(0, 2)]
    table2 = MemoryPhraseTable({("p", "q"): (0.1, {("pq",): 0.1}), ("p",): (100, {("p'",): 100})})
    assert segment(["p", "q"], table2) == [(0, 1), (1, 2)]


def test_pruning_arcs_and_ngrams():
    table = MemoryPhraseTable({("a",): (100, {("x",): 60, ("y",): 35, ("z",): 5}),
                               ("b",): (10, {("u",): 10})})
    net = confusion_network(["a", "b"], [(0, 1), (1, 2)], table.lookup([("a",), ("b",)]))
    assert [arc.tokens for arc in net[0]] == [("x",), ("y",)]  # 0.05 < 0.1 pruned
    bag = pivot_ngram_bag(net, max_n=4, min_weight=0.4)
    assert set(bag) == {("x",), ("u",), ("x", "u")}  # y (0.35) pruned by weight


def test_function_word_discount():
    table = MemoryPhraseTable({("the",): (10, {("le",): 10}), ("cat",): (10, {("chat",): 10})})
    plain = BPNGBuilder(table).bag(_doc("the cat"))
    disc = BPNGBuilder(table, discount=0.1).bag(_doc("the cat"))
    assert plain[("le", "chat")] == pytest.approx(1.0)
    assert disc[("le", "chat")] == pytest.approx(0.1)
    assert disc[("chat",)] == pytest.approx(1.0)
    assert "fw:0.1" in BPNGBuilder(table, discount=0.1).signature()


def test_empty_and_identical():
    table = MemoryPhraseTable({("a",): (1, {("x",): 1})})
    b = BPNGBuilder(table)
    assert b.bag(_doc("")) == {}
    assert pivot_f1({}, b.bag(_doc("a"))) == (0.0, 0.0, 0.0)
    assert pivot_f1(b.bag(_doc("a b")), b.bag(_doc("a b")))[2] == pytest.approx(1.0)
