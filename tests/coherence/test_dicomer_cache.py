"""The DICOMER parse cache: JSON rows (nothing that runs code when read) that round-trip every
analysis exactly, saved periodically so an interrupted run keeps the parses it made."""

from __future__ import annotations

import sqlite3

import pytest

from coherence.dicomer import analysis as analysis_module
from coherence.dicomer.analysis import AnalysisCache, decode_analysis, encode_analysis, text_key
from coherence.parser.pipeline import DiscourseParser

TEXTS = [
    "The company reported higher profits. But its shares fell because investors expected more.",
    "Shares rose again in March. Profits were higher, and analysts agreed.",
    "The council approved the budget after a long debate. However, the mayor vetoed it.",
    "It rained. Therefore the match was cancelled, although the fans waited.",
]


def test_entries_are_json_and_round_trip_exactly(tmp_path):
    parser = DiscourseParser(tier=0)
    cache = AnalysisCache(parser, tmp_path)
    made = cache.analyse(TEXTS)
    cache.save()
    assert any(a.relations for a in made)
    assert [decode_analysis(encode_analysis(a)) for a in made] == made
    assert cache.path is not None
    with sqlite3.connect(cache.path) as db:
        values = [v for (v,) in db.execute("SELECT value FROM analyses")]
    assert len(values) == len(TEXTS) and all(isinstance(v, str) and v.startswith("{") for v in values)
    assert AnalysisCache(parser, tmp_path).analyse(TEXTS) == made


def test_interrupted_run_keeps_the_parses_it_made(tmp_path, monkeypatch):
    parser = DiscourseParser(tier=0)
    monkeypatch.setattr(analysis_module, "BATCH_TEXTS", 1)
    real_parse = analysis_module.parse_with_sentences
    calls = []

    def ctrl_c_on_the_third_batch(texts, *args, **kwargs):
        calls.append(texts)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_parse(texts, *args, **kwargs)

    monkeypatch.setattr(analysis_module, "parse_with_sentences", ctrl_c_on_the_third_batch)
    with pytest.raises(KeyboardInterrupt):
        AnalysisCache(parser, tmp_path).analyse(TEXTS)
    path = AnalysisCache(parser, tmp_path).path
    assert path is not None
    with sqlite3.connect(path) as db:
        kept = {k for (k,) in db.execute("SELECT key FROM analyses")}
    assert kept == {text_key(t) for t in TEXTS[:2]}


def test_long_runs_save_every_few_seconds(tmp_path, monkeypatch):
    parser = DiscourseParser(tier=0)
    monkeypatch.setattr(analysis_module, "BATCH_TEXTS", 1)
    monkeypatch.setattr(analysis_module, "SAVE_EVERY", 0.0)
    cache = AnalysisCache(parser, tmp_path)
    saved: list[int] = []
    real_write = cache._write_rows

    def counted_write(rows: list[tuple[str, str]]) -> None:
        saved.append(len(rows))
        real_write(rows)

    monkeypatch.setattr(cache, "_write_rows", counted_write)
    cache.analyse(TEXTS)
    assert saved == [1, 1, 1, 1]  # one save per batch, each of the new analyses only


def test_corpus_parse_cache_that_does_not_fit_is_parsed_again_and_replaced(tmp_path, monkeypatch, capsys):
    """The spaCy cache of the discourse corpora: a file with the wrong number of parses (or not a
    DocBin) is named once, parsed again and written over."""
    import evalcore.resources.registry as resources
    from coherence.corpora import GoldDocument
    from coherence.gold import parse_corpus

    monkeypatch.setattr(resources, "_WARNED", set())
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path))
    docs = [GoldDocument(f"d{k}", text, []) for k, text in enumerate(TEXTS)]
    parse_corpus(docs)
    (whole,) = (tmp_path / "coherence").glob("*.spacy")
    words = [p.words for p in parse_corpus(docs[1:2])]
    (path,) = set((tmp_path / "coherence").glob("*.spacy")) - {whole}
    good = path.read_bytes()
    path.write_bytes(whole.read_bytes())  # four parses where one is expected: the first is another text's
    assert [p.words for p in parse_corpus(docs[1:2])] == words
    assert path.read_bytes() == good  # replaced
    warned = [w for w in capsys.readouterr().err.splitlines() if w.startswith("warning:")]
    assert len(warned) == 1 and str(path) in warned[0] and "4 parses for 1 texts" in warned[0]
