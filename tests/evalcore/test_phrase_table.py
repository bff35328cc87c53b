"""Phrase tables (evalcore.resources.phrase_table): symmetrisation, extraction on a hand-aligned toy bitext,
reading bitexts, the store, the build with eflomal."""

import codecs
import pickle
import sqlite3

import pytest

from evalcore.bpng import BPNGBuilder, PhraseTableStore, write_store
from evalcore.io.textfiles import InputError
from evalcore.resources.phrase_table import build_phrase_table
from evalcore.resources.phrase_table.bitext import read_parallel_files, tokenize_pivot
from evalcore.resources.phrase_table.build import english_preprocessor
from evalcore.resources.phrase_table.extract import count_phrase_pairs, extract_phrase_pairs
from evalcore.resources.phrase_table.symmetrize import grow_diag_final_and
from evalcore.resources.registry import ResourceError


def test_extraction_hand_aligned_with_unaligned_pivot_words():
    e = ["he", "goes", "home"]
    f = ["il", "va", "à", "la", "maison"]
    pairs = extract_phrase_pairs(e, f, {(0, 0), (1, 1), (2, 4)}, max_len=4)
    got = {(" ".join(a), " ".join(b)) for a, b in pairs}
    assert got == {
        ("he", "il"), ("he goes", "il va"), ("he goes", "il va à"), ("he goes", "il va à la"),
        ("goes", "va"), ("goes", "va à"), ("goes", "va à la"), ("goes home", "va à la maison"),
        ("home", "maison"), ("home", "la maison"), ("home", "à la maison"),
    }
    assert len(pairs) == 11  # "he goes home" -> 5 pivot words exceeds the 4-word limit


def test_extraction_rejects_inconsistent_spans():
    # Crossing alignment: "a" <-> "y", "b" <-> "x"; "a" alone cannot take "x y".
    pairs = extract_phrase_pairs(["a", "b"], ["x", "y"], {(0, 1), (1, 0)})
    assert set(pairs) == {(("a",), ("y",)), (("b",), ("x",)), (("a", "b"), ("x", "y"))}
    assert extract_phrase_pairs(["a"], ["x"], set()) == []


def test_counts_over_corpus():
    corpus = [(["the", "cat"], ["le", "chat"], {(0, 0), (1, 1)})] * 3
    counts = count_phrase_pairs(corpus)
    assert counts[(("cat",), ("chat",))] == 3
    assert counts[(("the", "cat"), ("le", "chat"))] == 3


def test_grow_diag_final_and():
    e2f = {(0, 0), (1, 1), (3, 5)}
    f2e = {(0, 0), (1, 1), (1, 2), (2, 0), (3, 3)}
    sym = grow_diag_final_and(e2f, f2e)
    # (1, 2) and (2, 0) are union neighbours of the intersection that align a new word;
    # (3, 5) joins at the final-and step, after which (3, 3) would re-align e=3.
    assert sym == {(0, 0), (1, 1), (1, 2), (2, 0), (3, 5)}


def test_pivot_tokenizer_splits_cjk():
    assert tokenize_pivot("Bonjour, Monsieur.") == ["bonjour", ",", "monsieur", "."]
    assert tokenize_pivot("打开文件 OK") == ["打", "开", "文", "件", "ok"]


def test_store_roundtrip_is_lazy_and_picklable(tmp_path):
    path = write_store(tmp_path / "t.sqlite", [(("a", "b"), 4, [(("x",), 3), (("y", "z"), 1)])],
                       {"signature": "pt:toy"})
    store = PhraseTableStore(path)
    assert store._con is None
    entry = store.lookup([("a", "b"), ("q",)])[("a", "b")]
    assert entry.count == 4 and entry.distribution() == [(("x",), 0.75), (("y", "z"), 0.25)]
    assert store.total == 4 and store.signature() == f"pt:toy|content:{store.content_hash()[:16]}"
    clone = pickle.loads(pickle.dumps(store))
    assert clone.lookup([("a", "b")]) == {("a", "b"): entry}


def test_tables_differing_in_one_count_have_different_signatures(tmp_path):
    """The signature carries the content hash: same build signature, different rows, different signatures."""
    one = write_store(tmp_path / "one.sqlite", [(("a",), 4, [(("x",), 3)])], {"signature": "pt:toy"})
    two = write_store(tmp_path / "two.sqlite", [(("a",), 4, [(("x",), 2)])], {"signature": "pt:toy"})
    assert PhraseTableStore(one).signature() != PhraseTableStore(two).signature()
    again = write_store(tmp_path / "again.sqlite", [(("a",), 4, [(("x",), 3)])], {"signature": "pt:toy"})
    assert PhraseTableStore(again).signature() == PhraseTableStore(one).signature()
    assert again.read_bytes() == one.read_bytes()  # no build time or path in the file


def test_a_table_without_a_stored_content_hash_gets_the_same_one_from_its_rows(tmp_path):
    path = write_store(tmp_path / "t.sqlite", [(("a", "b"), 4, [(("x",), 3)]), (("c",), 1, [(("é",), 1)])],
                       {"signature": "pt:toy"})
    stored = PhraseTableStore(path).content_hash()
    con = sqlite3.connect(path)
    con.execute("DELETE FROM meta WHERE key = 'content_sha256'")
    con.commit()
    con.close()
    assert "content_sha256" not in PhraseTableStore(path).meta
    assert PhraseTableStore(path).content_hash() == stored


def test_store_errors(tmp_path):
    with pytest.raises(ResourceError, match="build-phrase-table"):
        PhraseTableStore(tmp_path / "missing.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(ResourceError, match="not a parapeval phrase table"):
        PhraseTableStore(junk).lookup([("a",)])


TOY = [("the cat sleeps .", "le chat dort ."), ("the dog sleeps .", "le chien dort ."),
       ("a cat eats .", "un chat mange ."), ("a dog eats .", "un chien mange ."),
       ("the cat eats fish .", "le chat mange du poisson ."), ("the dog sleeps here .", "le chien dort ici .")]


def test_build_with_eflomal_on_toy_bitext(tmp_path):
    src, tgt = tmp_path / "toy.en", tmp_path / "toy.fr"
    src.write_text("\n".join(e for e, _ in TOY * 10) + "\n", "utf-8")
    tgt.write_text("\n".join(f for _, f in TOY * 10) + "\n", "utf-8")
    path = build_phrase_table(read_parallel_files(src, tgt), "fr", tmp_path / "toy.sqlite", "toy", stem=False)
    store = PhraseTableStore(path)
    assert store.signature().startswith("pt:fr:toy:")
    assert "sents:60" in store.signature()
    cat = store.lookup([("cat",)])[("cat",)]
    assert cat.translations[0][0] == ("chat",)
    bag = BPNGBuilder(store).bag(english_preprocessor(False)("the cat sleeps ."))
    assert ("chat",) in bag


def test_read_parallel_files_mismatch(tmp_path):
    (tmp_path / "a").write_text("x\ny\n", "utf-8")
    (tmp_path / "b").write_text("x\n", "utf-8")
    with pytest.raises(ValueError, match="not a sentence-aligned bitext"):
        read_parallel_files(tmp_path / "a", tmp_path / "b")


def test_bitext_bom_separators_and_bad_bytes(tmp_path):
    src, tgt = tmp_path / "b.en", tmp_path / "b.fr"
    src.write_bytes(codecs.BOM_UTF8 + "the cat\u2028sleeps\nthe dog\x0ceats\r\n".encode())
    tgt.write_text("le chat dort\nle chien mange\n", "utf-8")
    assert read_parallel_files(src, tgt) == [("the cat\u2028sleeps", "le chat dort"),
                                             ("the dog\x0ceats", "le chien mange")]
    src.write_bytes(b"the \xff cat\nthe dog\n")
    with pytest.raises(InputError, match=r"b\.en: not valid UTF-8"):
        read_parallel_files(src, tgt)


def test_empty_bitext_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no usable sentence pair"):
        build_phrase_table([("", "x"), (" ", "")], "fr", tmp_path / "t.sqlite", "empty")


def _edit_rows(path, rows: int) -> None:
    """Change N(e) of the first ``rows`` rows in place: the file stays a valid table."""
    con = sqlite3.connect(path)
    keys = [k for (k,) in con.execute("SELECT src FROM phrase ORDER BY src LIMIT ?", (rows,))]
    con.executemany("UPDATE phrase SET n = n + 1 WHERE src = ?", [(k,) for k in keys])
    con.commit()
    con.close()


def test_an_edited_table_does_not_keep_its_signature(tmp_path, capsys):
    """Seven rows edited after the build (the file stays a valid database): the signature names
    the rows read, a warning says the table changed, and its build's problem check says so."""
    entries = [((f"w{i:02d}",), 4, [((f"x{i}",), 3)]) for i in range(12)]  # key order = index order
    path = write_store(tmp_path / "t.sqlite", entries, {"signature": "pt:toy"})
    before = PhraseTableStore(path).signature()
    _edit_rows(path, 7)
    store = PhraseTableStore(path)
    assert store.lookup([("w00",)])[("w00",)].count == 5
    assert store.signature() != before
    assert store.rows_hash() != store.meta["content_sha256"]
    assert "differ from those it recorded at its build" in capsys.readouterr().err
    fresh = write_store(tmp_path / "fresh.sqlite", [(p, n + (i < 7), tr) for i, (p, n, tr) in enumerate(entries)],
                        {"signature": "pt:toy"})
    assert store.signature() == PhraseTableStore(fresh).signature()  # the same rows, the same signature


def test_a_table_digest_is_read_again_only_when_the_file_changes(tmp_path, monkeypatch):
    """An unchanged table's digest costs a stat (kept in the process and the cache); a change
    of size, time or inode computes it again from the rows."""
    import evalcore.bpng.store as store_module
    import evalcore.io.persist as persist

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    path = write_store(tmp_path / "t.sqlite", [(("a",), 4, [(("x",), 3)])], {"signature": "pt:toy"})
    calls = []
    real = store_module.content_hash
    def counted(rows):
        calls.append(1)
        return real(rows)

    monkeypatch.setattr(store_module, "content_hash", counted)
    PhraseTableStore(path).signature()
    persist._DIGESTS.clear()  # a new process: the cache's record answers
    PhraseTableStore(path).signature()
    assert calls == []  # the build recorded the digest of the rows it wrote
    _edit_rows(path, 1)
    PhraseTableStore(path).signature()
    PhraseTableStore(path).signature()
    assert calls == [1]


def test_setup_rebuilds_an_edited_default_table(tmp_path):
    """A default table whose rows no longer match its build's record is a problem setup rebuilds."""
    from evalcore.resources import defaults

    path = write_store(tmp_path / "fr.sqlite", [((f"w{i:02d}",), 4, [(("x",), 3)]) for i in range(9)],
                       {"signature": "pt:toy"})
    from evalcore.resources.inputs import manifest, write_manifest

    write_manifest(path, manifest([], table="fr"))
    assert defaults._table_problem(path, wheels=()) is None
    _edit_rows(path, 7)
    assert "changed since" in (defaults._table_problem(path, wheels=()) or "")
