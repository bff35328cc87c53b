"""BPNG: the paper's worked example, segmentation and the confusion-network n-gram bag; the
walk, the caches and the store's batched look-ups that keep PEM fast."""

import gc
import pickle
import random
from collections.abc import Sequence
from typing import TypedDict

import numpy as np
import pytest

from evalcore.bpng import (
    Arc,
    BPNGBuilder,
    MemoryPhraseTable,
    PhraseTableStore,
    confusion_network,
    pivot_f1,
    pivot_ngram_bag,
    segment,
    write_store,
)
from evalcore.bpng.builder import BAG_CACHE_SIZE
from evalcore.bpng.segment import candidate_phrases
from evalcore.bpng.table import Phrase
from evalcore.text.preprocess import Doc


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


def _recursive_bag(network: Sequence[Sequence[Arc]], max_n: int = 4, min_weight: float = 0.01
                   ) -> dict[Phrase, float]:
    """The recursive walk PEM shipped with (one Python call per step): the reference the
    explicit-stack walk must match bit for bit, sums in the same order."""
    bag: dict[Phrase, float] = {}
    floor = min_weight - 1e-9

    def walk(gram, weight, arc, offset, slot):
        for tok in arc.tokens[offset:]:
            weight *= arc.token_factor
            if weight < floor:
                return
            gram = gram + (tok,)
            bag[gram] = bag.get(gram, 0.0) + weight
            if len(gram) == max_n:
                return
        if slot + 1 < len(network):
            for nxt in network[slot + 1]:
                w = weight * nxt.prob
                if w >= floor:
                    walk(gram, w, nxt, 0, slot + 1)

    for s, arcs in enumerate(network):
        for arc in arcs:
            if arc.prob >= floor:
                for offset in range(len(arc.tokens)):
                    walk((), arc.prob, arc, offset, s)
    return bag


def test_bag_equals_the_recursive_walk_exactly():
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(6)]
    for _ in range(300):
        network = []
        for _ in range(rng.randint(0, 7)):
            factor = rng.choice([1.0, 1.0, 0.1, 0.37])
            network.append([Arc(tuple(rng.choices(vocab, k=rng.randint(1, 3))), rng.choice([1.0, rng.random()]), factor)
                            for _ in range(rng.randint(1, 4))])
        for max_n, min_weight in ((4, 0.01), (2, 0.2), (3, 0.0)):
            assert pivot_ngram_bag(network, max_n, min_weight) == _recursive_bag(network, max_n, min_weight)


def test_arc_cache_gives_the_same_network_and_is_reused(paper_table):
    tokens = "hello , querrien .".split()
    spans = segment(tokens, paper_table)
    entries = paper_table.lookup(candidate_phrases(tokens))
    cache: dict[tuple[Phrase, float], tuple[Arc, ...]] = {}
    plain = confusion_network(tokens, spans, entries)
    assert confusion_network(tokens, spans, entries, arc_cache=cache) == plain
    assert cache[(("hello", ","), 1.0)] == plain[0]
    assert confusion_network(tokens, spans, entries, arc_cache=cache)[0] is cache[(("hello", ","), 1.0)]


def test_builder_bag_cache_is_bounded():
    """The old builders kept 65,536 bags each: 251 MiB of PEM's 500 MiB peak on Twitter-Para."""
    table = MemoryPhraseTable({("a",): (1, {("x",): 1})})
    builder = BPNGBuilder(table)
    assert builder._cached.cache_parameters()["maxsize"] == BAG_CACHE_SIZE <= 1024
    small = BPNGBuilder(table, cache_size=3)
    for k in range(10):
        small.bag(_doc("a " * (k + 1)))
    assert small._cached.cache_info().currsize == 3


@pytest.fixture
def store_path(tmp_path, paper_table):
    return write_store(tmp_path / "t.sqlite", [(e, x.count, x.translations) for e, x in paper_table._entries.items()],
                       {"signature": "pt:paper", "stem": "False"})


def _count_queries(store):
    queries = []
    store._connection().set_trace_callback(lambda sql: queries.append(sql) if "FROM phrase" in sql else None)
    return queries


def test_store_answers_repeated_phrases_from_memory(store_path, paper_table):
    """The old store queried SQLite for every sentence and pivot (25% of PEM's time)."""
    store = PhraseTableStore(store_path)
    queries = _count_queries(store)
    asked = [("hello",), ("hello", ","), ("querrien",), (".",)]
    first = store.lookup(asked)
    assert len(queries) == 1 and first == paper_table.lookup(asked)
    assert store.lookup(asked) == first and store.lookup([("querrien",)]) == {}
    assert len(queries) == 1  # found and absent phrases alike come from the cache


def test_store_cache_is_bounded_and_stays_correct(store_path, paper_table):
    store = PhraseTableStore(store_path, cache_phrases=3)
    phrases = [e for e in paper_table._entries] + [("unseen",), ("other",)]
    for _ in range(3):
        for p in phrases:
            assert store.lookup([p]) == paper_table.lookup([p])
            assert len(store._cache) <= 3
    assert pickle.loads(pickle.dumps(store)).cache_phrases == 3


def test_prefetch_looks_up_many_sentences_in_one_query(store_path, paper_table):
    store = PhraseTableStore(store_path)
    queries = _count_queries(store)
    sentences = ["hello , querrien .", "morning , sir .", "hello , sir .", "sir , hello ."]
    builder = BPNGBuilder(store)
    builder.prefetch(_doc(s) for s in sentences)
    assert len(queries) == 1
    bags = [builder.bag(_doc(s)) for s in sentences]
    assert len(queries) == 1
    reference = BPNGBuilder(paper_table)
    assert bags == [reference.bag(_doc(s)) for s in sentences]
    other = "morning , hello ."  # not prefetched: looked up on its own, same bag
    assert builder.bag(_doc(other)) == reference.bag(_doc(other))


# ---- the compiled batch path (evalcore.bpng.compiled, evalcore.bpng.kernels) -----------------------

def _reference_f1(builder, pairs):
    return [pivot_f1(builder.bag(ref), builder.bag(cand))[2] for ref, cand in pairs]


def _random_table(rng, vocab, pivot_vocab):
    entries = {}
    for _ in range(rng.randint(5, 40)):
        phrase = tuple(rng.choices(vocab, k=rng.choice([1, 1, 2, 3, 4])))
        translations = {tuple(rng.choices(pivot_vocab, k=rng.randint(0, 3))): rng.randint(1, 9)
                        for _ in range(rng.randint(0, 12))}
        entries[phrase] = (rng.randint(1, 30), translations)
    return MemoryPhraseTable(entries)


class _Settings(TypedDict, total=False):
    """Keyword arguments of BPNGBuilder a test varies."""

    max_phrase_len: int
    max_n: int
    min_arc: float
    min_weight: float
    discount: float


SETTINGS: tuple[_Settings, ...] = (
    {}, {"discount": 0.1}, {"max_n": 2, "min_weight": 0.2}, {"min_arc": 0.01, "max_n": 5},
    {"max_phrase_len": 2, "min_arc": 0.4, "discount": 0.0},
)


def test_compiled_f1_equals_the_reference_bit_for_bit_on_random_tables():
    """Random tables (multi-word phrases, empty and long pivot phrases, pass-through words whose
    string is also a pivot token, phrases without translations), random sentences, every setting."""
    rng = random.Random(11)
    vocab = [f"e{i}" for i in range(8)] + ["the", "a", ".", "p1"]
    pivot_vocab = [f"p{i}" for i in range(6)] + ["e1", "."]
    for _ in range(40):
        table = _random_table(rng, vocab, pivot_vocab)
        sentences = [_doc(" ".join(rng.choices(vocab + ["unseen", "zz"], k=rng.randint(0, 12)))) for _ in range(8)]
        pairs = [(rng.choice(sentences), rng.choice(sentences)) for _ in range(12)]
        for settings in SETTINGS:
            builder = BPNGBuilder(table, **settings)
            assert builder.compiled() is not None
            expected = _reference_f1(BPNGBuilder(table, **settings), pairs)
            assert builder.f1_batch(pairs, compiled=True).tolist() == expected


def test_compiled_f1_on_the_paper_example_and_empty_sentences(paper_table):
    builder = BPNGBuilder(paper_table)
    pairs = [(_doc("hello , querrien ."), _doc("morning , sir .")), (_doc(""), _doc("hello ,")),
             (_doc(""), _doc("")), (_doc("morning , sir ."), _doc("morning , sir ."))]
    f1 = builder.f1_batch(pairs, compiled=True)
    assert f1[0] == pytest.approx(0.38) and f1[1] == f1[2] == 0.0 and f1[3] == pytest.approx(1.0)
    assert f1.tolist() == _reference_f1(BPNGBuilder(paper_table), pairs)
    assert builder.f1_batch([], compiled=True).shape == (0,)


class _ListlessTable:
    """A phrase table that cannot list its entries (only look-ups): the builder falls back to the
    Python path."""

    def __init__(self, table):
        self.table, self.total = table, table.total

    def lookup(self, phrases):
        return self.table.lookup(phrases)

    def signature(self):
        return "pt:listless"


def test_tables_that_cannot_list_their_entries_use_the_python_path(paper_table):
    builder = BPNGBuilder(_ListlessTable(paper_table))
    pairs = [(_doc("hello , querrien ."), _doc("morning , sir ."))]
    assert builder.compiled() is None
    assert builder.f1_batch(pairs, compiled=True).tolist() == _reference_f1(BPNGBuilder(paper_table), pairs)


def test_store_is_compiled_once_into_the_cache_and_memory_mapped(store_path, paper_table, tmp_path, monkeypatch):
    from evalcore.bpng import compiled as compiled_module

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(compiled_module, "DISK_CACHE_MIN_BYTES", 0)
    pairs = [(_doc("hello , querrien ."), _doc("morning , sir .")), (_doc("sir , hello ."), _doc("hello , sir ."))]
    first = BPNGBuilder(PhraseTableStore(store_path))
    expected = _reference_f1(BPNGBuilder(paper_table), pairs)
    assert first.f1_batch(pairs, compiled=True).tolist() == expected
    folders = list((tmp_path / "cache" / "bpng").iterdir())
    assert len(folders) == 1
    built = first.compiled()
    assert built is not None
    assert not isinstance(built.arrays["phrase_ids"].base, np.memmap)  # built in this process
    assert BPNGBuilder(PhraseTableStore(store_path)).compiled() is first.compiled()  # one per process while used
    del first, built
    gc.collect()
    again = BPNGBuilder(PhraseTableStore(store_path))
    compiled = again.compiled()
    assert compiled is not None
    assert all(isinstance(a.base, np.memmap) for a in compiled.arrays.values())  # loaded from the cache
    assert again.f1_batch(pairs, compiled=True).tolist() == expected
    assert pickle.loads(pickle.dumps(again)).f1_batch(pairs, compiled=True).tolist() == expected
    # another min_arc is another compiled form; a rewritten table file replaces its old form
    assert BPNGBuilder(PhraseTableStore(store_path), min_arc=0.5).compiled() is not None
    assert len(list((tmp_path / "cache" / "bpng").iterdir())) == 2
    write_store(store_path, [(e, x.count, x.translations) for e, x in paper_table._entries.items()][:3],
                {"signature": "pt:paper", "stem": "False"})
    smaller = BPNGBuilder(PhraseTableStore(store_path))
    smaller_compiled = smaller.compiled()
    assert smaller_compiled is not None and smaller_compiled.arrays["phrase_ids"].shape[0] == 3
    now = {f.name for f in (tmp_path / "cache" / "bpng").iterdir()}
    assert len(now) == 2 and folders[0].name not in now
    monkeypatch.setattr(compiled_module, "DISK_CACHE_MIN_BYTES", 1 << 30)  # small tables: compiled in memory
    assert BPNGBuilder(PhraseTableStore(store_path), min_arc=0.3).f1_batch(pairs[:1], compiled=True).shape == (1,)
    assert {f.name for f in (tmp_path / "cache" / "bpng").iterdir()} == now


def test_small_batches_before_numba_is_loaded_take_the_python_path(paper_table):
    """Importing numba and loading compiled code costs about a second: a one-pair run in a fresh
    process must not pay it. Both paths give the same values."""
    import sys

    from evalcore.bpng.compiled import COMPILED_FROM, compiled_pays

    assert compiled_pays(COMPILED_FROM) and compiled_pays(1) == ("numba" in sys.modules)
    pairs = [(_doc("hello , querrien ."), _doc("morning , sir ."))]
    python = BPNGBuilder(paper_table)
    compiled = BPNGBuilder(paper_table).f1_batch(pairs, compiled=True)
    assert python.f1_batch(pairs, compiled=False).tolist() == compiled.tolist()
    from evalcore.bpng import builder as builder_module

    assert python._compiled is builder_module._UNCOMPILED  # the Python path never compiled the table


def test_a_copied_or_moved_cache_and_table_find_their_compiled_form(store_path, tmp_path, monkeypatch):
    """The compiled form is keyed by the table's content, not its path: a table and cache copied
    elsewhere (another user, a CI cache restored at another path) load it instead of compiling."""
    import shutil

    from evalcore.bpng import compiled as compiled_module

    monkeypatch.setattr(compiled_module, "DISK_CACHE_MIN_BYTES", 0)
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    assert BPNGBuilder(PhraseTableStore(store_path)).compiled() is not None
    (form,) = (tmp_path / "cache" / "bpng").iterdir()
    shutil.copytree(tmp_path / "cache", tmp_path / "moved-cache")
    moved_table = tmp_path / "elsewhere" / "table.sqlite"
    moved_table.parent.mkdir()
    shutil.copy2(store_path, moved_table)
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "moved-cache"))
    compiled_module._LOADED.clear()
    monkeypatch.setattr(compiled_module.CompiledTable, "build",
                        classmethod(lambda cls, *a: pytest.fail("the moved table was compiled again")))
    compiled = BPNGBuilder(PhraseTableStore(moved_table)).compiled()
    assert compiled is not None and all(isinstance(a.base, np.memmap) for a in compiled.arrays.values())
    assert [f.name for f in (tmp_path / "moved-cache" / "bpng").iterdir()] == [form.name]
