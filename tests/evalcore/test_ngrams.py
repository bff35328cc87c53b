from collections.abc import Sequence

import numpy as np
import pytest

from evalcore.text import ngrams
from evalcore.text.ngrams import (
    Bag,
    BagRows,
    BagSet,
    id_bags,
    merge,
    ngram_bag,
    occurrences,
    ranges,
    skip_bigram_bag,
    token_ids,
    total,
)
from evalcore.text.preprocess import Doc


def doc(words, function=()):
    toks = tuple(words.split())
    return Doc(toks, tuple(t in function for t in toks))


def rouge155_skip_bigrams(tokens: Sequence[str], skip_distance: int) -> dict[tuple[str, str], int]:
    """Literal transcription of ROUGE-1.5.5's createSkipBigram loop bounds (no unigrams)."""
    grams: dict[tuple[str, str], int] = {}
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
    a: Bag = {("x",): 1.0}
    b: Bag = {("x",): 2.0, ("y",): 0.5}
    assert merge([a, b]) == {("x",): 3.0, ("y",): 0.5}
    assert total(merge([a, b])) == 3.5


def test_empty_doc_gives_empty_bags_and_bad_arguments_raise():
    empty = doc("")
    assert ngram_bag(empty, 1) == {} and skip_bigram_bag(empty) == {}
    with pytest.raises(ValueError):
        ngram_bag(empty, 0)
    with pytest.raises(ValueError):
        skip_bigram_bag(empty, -1)


# ---- integer-id bags ---------------------------------------------------------------------------


def _flat(ids: Sequence[np.ndarray], weights: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Texts end to end, as id_bags takes them."""
    return np.concatenate(ids), np.concatenate(weights), np.array([len(a) for a in ids])


def _as_dict(bag, vocab, bigram):
    words = {i: w for w, i in vocab.items()}
    keys = [(words[k >> 32], words[k & 0xFFFFFFFF]) if bigram else (words[k],) for k in bag.keys.tolist()]
    return dict(zip(keys, bag.weights.tolist()))


def test_id_bags_hold_the_dict_bags_floats_in_the_same_order():
    rng = np.random.default_rng(0)
    words = "the a of cat dog sat on mat ran".split()
    docs = [doc(" ".join(rng.choice(words, size=n)), function={"the", "a", "of", "on"}) for n in (0, 1, 2, 7, 40)]
    ids = [token_ids(d.tokens) for d in docs]
    weights = [np.array([0.1 if f else 1.0 for f in d.function]) for d in docs]
    unigrams, skips = id_bags(*_flat(ids, weights), max_gap=4)
    for d, u, s in zip(docs, unigrams, skips):
        expected_u, expected_s = ngram_bag(d, 1, 0.1), skip_bigram_bag(d, 4, 0.1)
        assert list(_as_dict(u, ngrams._vocabulary, False).items()) == list(expected_u.items())
        assert list(_as_dict(s, ngrams._vocabulary, True).items()) == list(expected_s.items())
    no_last, _ = id_bags(*_flat(ids, weights), max_gap=4, last_unigram=False)
    assert _as_dict(no_last[3], ngrams._vocabulary, False) == ngram_bag(doc(" ".join(docs[3].tokens[:-1]),
                                                                           {"the", "a", "of", "on"}), 1, 0.1)


@pytest.mark.parametrize("discount", [0.1, 0.0])
def test_bag_rows_numpy_and_scipy_paths_give_the_same_floats(monkeypatch, discount):
    rng = np.random.default_rng(1)
    words = [f"w{k}" for k in range(30)]
    docs = [doc(" ".join(rng.choice(words, size=int(rng.integers(0, 60)))), function=set(words[:8]))
            for _ in range(40)]
    ids = [token_ids(d.tokens) for d in docs]
    weights = [np.where(np.array(d.function, dtype=bool), discount, 1.0) for d in docs]
    cand = rng.integers(0, 40, size=200)
    ref = rng.integers(0, 40, size=200)
    for bags in id_bags(*_flat(ids, weights), max_gap=4):
        rows = BagRows(bags)
        matrix = rows.matrix()
        scipy_totals = np.asarray(matrix.sum(axis=1)).ravel()
        scipy_overlaps = np.asarray(matrix[cand].minimum(matrix[ref]).sum(axis=1)).ravel()
        assert rows.totals().tolist() == scipy_totals.tolist()
        assert rows._overlaps_numpy(cand, ref, np.zeros(len(cand), dtype=np.int64)).tolist() == scipy_overlaps.tolist()
        # one candidate against its references, where scipy may take its sorted-rows path
        for c in range(5):
            one, refs = np.full(6, c), np.arange(c + 1, c + 7)
            assert rows._overlaps_numpy(one, refs, np.zeros(6, dtype=np.int64)).tolist() == \
                np.asarray(matrix[one].minimum(matrix[refs]).sum(axis=1)).ravel().tolist()
        expected = [sum(min(a, b) for a, b in zip(matrix[c].toarray()[0], matrix[r].toarray()[0]))
                    for c, r in zip(cand, ref)]
        assert rows.overlaps(cand, ref) == pytest.approx(expected, abs=1e-12)
        monkeypatch.setattr(ngrams, "SMALL_PATH_ENTRIES", -1)
        assert rows.overlaps(cand, ref).tolist() == scipy_overlaps.tolist()
        monkeypatch.undo()


def test_bag_rows_follow_scipys_summation_order_on_sorted_and_unsorted_rows():
    from evalcore.text.ngrams import IdBag

    cand = IdBag(np.array([1, 2, 3]), np.array([0.1, 0.2, 0.3]))
    sums = []
    for ref_keys in ([1, 2, 3], [3, 1, 2]):  # sorted columns: ascending order; else reversed
        rows = BagRows([cand, IdBag(np.array(ref_keys), np.array([0.5, 0.5, 0.5]))])
        scipy_sum = np.asarray(rows.matrix()[[0]].minimum(rows.matrix()[[1]]).sum(axis=1)).ravel().tolist()
        assert rows._overlaps_numpy(np.array([0]), np.array([1]), np.zeros(1, dtype=np.int64)).tolist() == scipy_sum
        sums.append(scipy_sum[0])
    assert sums == [0.1 + (0.2 + 0.3), 0.3 + (0.2 + 0.1)] and sums[0] != sums[1]  # the order shows


def test_id_bags_compact_and_stable_sort_paths_agree(monkeypatch):
    rng = np.random.default_rng(2)
    ids = [rng.integers(0, 12, size=n) for n in (0, 3, 50, 80)]
    weights = [rng.choice([0.1, 1.0], size=len(a)) for a in ids]
    compact = id_bags(*_flat(ids, weights), 4, last_unigram=False)
    monkeypatch.setattr(ngrams, "COMPACT_LIMIT", 0)
    stable = id_bags(*_flat(ids, weights), 4, last_unigram=False)
    for kind_a, kind_b in zip(compact, stable):
        for a, b in zip(kind_a, kind_b):
            assert a.keys.tolist() == b.keys.tolist() and a.weights.tolist() == b.weights.tolist()


# ---- BagSet: the corpus-batch form, numpy and compiled engines ------------------------------------


def _random_texts(seed, n_texts=30, vocabulary=25, longest=50):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, longest, size=n_texts)
    ids = rng.integers(0, vocabulary, size=int(lengths.sum()))
    weights = rng.choice([0.1, 1.0, 0.0, 0.37], p=[0.3, 0.5, 0.1, 0.1], size=len(ids))
    return ids, weights, lengths


@pytest.mark.parametrize("last_unigram", [True, False])
def test_occurrence_bags_are_the_id_bags(last_unigram):
    ids, weights, lengths = _random_texts(3)
    bags = BagSet(occurrences(ids, weights, lengths, 4, last_unigram), 2 * len(lengths))
    unigrams, skips = id_bags(ids, weights, lengths, 4, last_unigram)
    got = bags.id_bags(range(2 * len(lengths)))
    for t in range(len(lengths)):
        for mine, theirs in ((got[2 * t], unigrams[t]), (got[2 * t + 1], skips[t])):
            assert mine.keys.tolist() == theirs.keys.tolist() and mine.weights.tolist() == theirs.weights.tolist()


def _queries(rng, n_bags, n_queries=60, slots=5):
    cand = rng.integers(0, n_bags, size=n_queries)
    refs = rng.integers(0, n_bags, size=(n_queries, slots))
    refs[rng.random(refs.shape) < 0.2] = -1
    refs[::3] = refs[0]  # queries sharing a reference set, as a document's candidates do
    return cand, refs


def _scipy_rows(bags):
    """The bags as a sparse matrix of dict bags: unigram keys (even bags) kept apart from skip-bigram keys."""
    from evalcore.text.ngrams import IdBag

    return BagRows([IdBag((b.keys << 32) | (1 << 31), b.weights) if k % 2 == 0 else b
                    for k, b in enumerate(bags.id_bags(range(bags.n_bags)))]).matrix()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bag_set_overlaps_are_scipys_floats(seed):
    rng = np.random.default_rng(seed)
    ids, weights, lengths = _random_texts(seed)
    bags = BagSet(occurrences(ids, weights, lengths, 4), 2 * len(lengths))
    cand, refs = _queries(rng, bags.n_bags)
    blocks = rng.integers(0, 2, size=len(cand))
    matrix = _scipy_rows(bags)
    assert bags.totals().tolist() == np.asarray(matrix.sum(axis=1)).ravel().tolist()
    got = bags.overlaps(cand, refs, blocks)
    for j in range(refs.shape[1]):
        for block in (0, 1):
            sel = (blocks == block) & (refs[:, j] >= 0)
            want = np.asarray(matrix[cand[sel]].minimum(matrix[refs[sel, j]]).sum(axis=1)).ravel()
            assert got[sel, j].tolist() == want.tolist()
    assert (got[refs < 0] == 0).all()


def test_bag_set_follows_scipys_order_on_canonical_rows():
    # one candidate whose references only hold n-grams in the candidate's order: scipy's sorted path
    ids, weights = np.array([1, 2, 3, 4, 1, 2, 1, 3]), np.array([0.1, 0.2, 0.3, 0.7, 0.5, 0.5, 0.5, 0.5])
    bags = BagSet(occurrences(ids, weights, np.array([4, 2, 2]), 0), 6)
    assert bags._canonical[[0, 2, 4]].all()
    matrix = _scipy_rows(bags)
    want = np.asarray(matrix[[0, 0]].minimum(matrix[[2, 4]]).sum(axis=1)).ravel()
    assert bags.overlaps(np.array([0]), np.array([[2, 4]])).ravel().tolist() == want.tolist()


def _engine(monkeypatch, engine: str) -> None:
    """Make :meth:`BagSet.of_texts` take ``engine`` on any batch ("sort", "tables" or "compiled")."""
    if engine == "compiled":
        pytest.importorskip("numba")
    monkeypatch.setattr(ngrams, "CORPUS_FROM", 0 if engine == "compiled" else float("inf"))
    monkeypatch.setattr(ngrams, "TABLES_FROM", 0 if engine == "tables" else float("inf"))
    monkeypatch.setattr(ngrams, "numba_installed", lambda: engine == "compiled")


@pytest.mark.parametrize("seed", [5, 6])
@pytest.mark.parametrize("engine", ["tables", "tables in runs", "compiled"])
@pytest.mark.parametrize("merged", [False, True])
def test_corpus_and_sort_engines_give_the_same_floats(monkeypatch, merged, engine, seed):
    from evalcore.text import ngram_tables

    rng = np.random.default_rng(seed)
    ids, weights, lengths = _random_texts(seed, n_texts=80, vocabulary=40, longest=70)
    _engine(monkeypatch, "sort")
    numpy_bags = BagSet.of_texts(ids, weights, lengths, 4, last_unigram=not merged, merged=merged)
    if engine == "tables in runs":  # texts bagged, and reference sets joined, a few at a time
        monkeypatch.setattr(ngram_tables, "RUN_TOKENS", 40)
        engine = "tables"
    _engine(monkeypatch, engine)
    corpus = BagSet.of_texts(ids, weights, lengths, 4, last_unigram=not merged, merged=merged)
    assert corpus.engine == engine and numpy_bags.engine == "sort"
    assert corpus.indptr.tolist() == numpy_bags.indptr.tolist()
    assert corpus.weights.tolist() == numpy_bags.weights.tolist()
    assert corpus.totals().tolist() == numpy_bags.totals().tolist()
    for a, b in zip(corpus.id_bags(range(corpus.n_bags)), numpy_bags.id_bags(range(numpy_bags.n_bags))):
        assert a.keys.tolist() == b.keys.tolist()
    cand, refs = _queries(rng, corpus.n_bags, n_queries=200, slots=7)
    blocks = cand % 2
    assert corpus.overlaps(cand, refs, blocks).tolist() == numpy_bags.overlaps(cand, refs, blocks).tolist()
    # a single block whose bags are all canonical: both engines add forwards
    first = np.array([0]), np.array([[0]])
    assert corpus.overlaps(*first).tolist() == numpy_bags.overlaps(*first).tolist()


def test_tables_and_compiled_engines_hold_the_same_arrays(monkeypatch):
    pytest.importorskip("numba")
    ids, weights, lengths = _random_texts(11, n_texts=60, vocabulary=30, longest=60)
    built = {}
    for engine in ("tables", "compiled"):
        _engine(monkeypatch, engine)
        built[engine] = BagSet.of_texts(ids, weights, lengths, 4)
    for name in ("keys", "weights", "indptr"):
        assert getattr(built["tables"], name).tolist() == getattr(built["compiled"], name).tolist()


def test_tables_engine_falls_back_beyond_its_table_limit(monkeypatch):
    """Tables larger than TABLE_LIMIT are not allocated: bagging goes to the sort engine, and
    reference sets are joined in chunks (a chunk whose n-gram table is too large by sorts); the
    floats stay the sort engine's."""
    from evalcore.text import ngram_tables

    rng = np.random.default_rng(13)
    ids, weights, lengths = _random_texts(13, n_texts=50, vocabulary=60, longest=60)
    _engine(monkeypatch, "sort")
    want = BagSet.of_texts(ids, weights, lengths, 4)
    cand, refs = _queries(rng, want.n_bags, n_queries=150, slots=6)
    blocks = cand % 2
    expected = want.overlaps(cand, refs, blocks).tolist()
    _engine(monkeypatch, "tables")
    monkeypatch.setattr(ngram_tables, "TABLE_LIMIT", 50)  # below one text's skip-bigram table
    assert BagSet.of_texts(ids, weights, lengths, 4).engine == "sort"
    monkeypatch.undo()
    _engine(monkeypatch, "tables")
    tables = BagSet.of_texts(ids, weights, lengths, 4)
    assert tables.engine == "tables"
    runs: list[int] = []
    sorts: list[int] = []
    real_run, real_sort = ngram_tables._join_chunk, BagSet._overlaps_numpy

    def counted_run(*args):
        runs.append(len(args[-1]))
        return real_run(*args)

    def counted_sort(*args):
        sorts.append(len(args[0]))
        return real_sort(tables, *args)

    monkeypatch.setattr(ngram_tables, "_join_chunk", counted_run)
    monkeypatch.setattr(tables, "_overlaps_numpy", counted_sort)
    # every set too large alone (all sorted), runs split by their tables' sizes, one run
    for limit, split, sorted_ in ((100, True, True), (8000, True, False), (1 << 23, False, False)):
        monkeypatch.setattr(ngram_tables, "TABLE_LIMIT", limit)
        runs.clear()
        sorts.clear()
        assert tables.overlaps(cand, refs, blocks).tolist() == expected
        assert (len(runs) > 1) == split and bool(sorts) == sorted_, (limit, runs, sorts)


def test_bag_set_refuses_occurrences_out_of_bag_order_and_handles_empty_input():
    occ = occurrences(np.array([1, 2, 3]), np.ones(3), np.array([2, 1]), 4)
    with pytest.raises(ValueError, match="bag by bag"):
        BagSet(occ._replace(bag=occ.bag[::-1].copy()), 4)
    empty = BagSet.of_texts(np.zeros(0, np.int64), np.zeros(0), np.array([0, 0]), 4)
    assert empty.totals().tolist() == [0.0] * 4
    assert empty.overlaps(np.array([0, 1]), np.array([[2], [3]])).tolist() == [[0.0], [0.0]]


def test_sort_positions_packed_and_fallback_agree():
    rng = np.random.default_rng(7)
    small = rng.integers(0, 50, size=1000)
    big = small * (1 << 55)  # too wide to pack with positions: the stable argsort
    for values in (small, big):
        order, sorted_values = ngrams._sort_positions(values)
        assert order.tolist() == np.argsort(values, kind="stable").tolist()
        assert sorted_values.tolist() == np.sort(values).tolist()


def test_ranges():
    assert ranges(np.array([5, 0, 9]), np.array([2, 0, 3])).tolist() == [5, 6, 9, 10, 11]
    assert ranges(np.array([5, 9]), np.array([2, 3]), np.array([True, False])).tolist() == [6, 5, 9, 10, 11]


def test_compiled_engine_starts_once_the_process_has_bagged_enough(monkeypatch):
    """From CORPUS_FROM occurrences bagged by the process on, the compiled kernels, where numba is
    installed (a one-candidate loop too); else a batch's own size picks the dense tables or sorts
    (a base install never needs numba)."""
    ids, weights, lengths = _random_texts(9, n_texts=4)
    one = len(ids) * 6  # a call's occurrences at max_gap 4
    pytest.importorskip("numba")
    monkeypatch.setattr(ngrams, "_bagged", 0)
    monkeypatch.setattr(ngrams, "CORPUS_FROM", 2 * one)
    monkeypatch.setattr(ngrams, "TABLES_FROM", float("inf"))
    assert [BagSet.of_texts(ids, weights, lengths, 4).engine for _ in range(3)] == ["sort", "compiled", "compiled"]


def test_without_numba_a_batch_of_tables_from_occurrences_takes_the_tables(monkeypatch):
    ids, weights, lengths = _random_texts(9, n_texts=4)
    one = len(ids) * 6
    monkeypatch.setattr(ngrams, "numba_installed", lambda: False)
    monkeypatch.setattr(ngrams, "CORPUS_FROM", 0)
    engines = []
    for tables_from in (one + 1, one, one + 1):
        monkeypatch.setattr(ngrams, "TABLES_FROM", tables_from)
        engines.append(BagSet.of_texts(ids, weights, lengths, 4).engine)
    assert engines == ["sort", "tables", "sort"]
