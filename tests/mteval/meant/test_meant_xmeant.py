"""XMEANT: source frames against output frames with IBM-1 similarity (a hand-made table stands in
for the default one, external frames for the missing German labeller)."""

import json

import numpy as np
import pytest
from scipy import sparse

from benchmarks.mteval.xmeant import runnable
from evalcore.metric import Item
from evalcore.resources.registry import ResourceError
from mteval.meant import lexsim
from mteval.meant.crosslingual import text_key, xmeant_itg_similarity
from mteval.meant.lexsim import LexicalTable
from mteval.meant.metric import Xmeant
from mteval.srl.frames import Argument, Frame, FramedSentence

SOURCE = "The file could not be opened."
GOOD = "die Datei konnte nicht geöffnet werden ."
BAD = "ein Hund lief über die Straße ."
PAIRS = [("the", "die"), ("file", "datei"), ("could", "konnte"), ("not", "nicht"), ("opened", "geöffnet"),
         ("be", "werden"), (".", ".")]


@pytest.fixture
def hand_table(monkeypatch):
    """An English-German table where each pair of PAIRS translates one-to-one (p = 1)."""
    english = sorted({e for e, _ in PAIRS})
    german = sorted({f for _, f in PAIRS} | {"ein", "hund", "lief", "über", "straße"})
    m = sparse.lil_matrix((len(english), len(german)))
    for e, f in PAIRS:
        m[english.index(e), german.index(f)] = 1.0
    table = LexicalTable(english, german, m.tocsr(), m.tocsr(), "hand-de")
    monkeypatch.setattr(lexsim, "default_lexical_table", lambda pivot: table)
    return table


@pytest.fixture
def german_frames(tmp_path):
    """External frames of the two German outputs (JSON lines), as another labeller would give them."""
    good = FramedSentence(tuple(GOOD.split()), (Frame(4, "öffnen", "verbal", (
        Argument("ARG1", 1, (0, 2)), Argument("ARGM-MOD", 2, (2, 3)), Argument("ARGM-NEG", 3, (3, 4)))),))
    bad = FramedSentence(tuple(BAD.split()), (Frame(2, "laufen", "verbal", (
        Argument("ARG0", 1, (0, 2)), Argument("ARGM-DIR", 3, (3, 6)))),))
    path = tmp_path / "de.jsonl"
    path.write_text("\n".join(json.dumps(s.to_json()) for s in (good, bad)) + "\n", encoding="utf-8")
    return str(path)


def test_good_translation_beats_a_wrong_one(hand_table, german_frames):
    for filler in ("phrase", "itg"):
        metric = Xmeant("en", "de", filler_similarity=filler, output_frames=german_frames)
        good, bad = metric.score_batch([(SOURCE, GOOD), (SOURCE, BAD)])
        assert good.ok and bad.ok
        assert 0 < good.value <= 1 and 0 <= bad.value < good.value
        assert good.components["aligned_frames"] >= 1 and good.components["output_frames"] == 1
        assert good.components["backoff"] == 0.0


def test_phrase_and_itg_fillers_differ_as_the_paper_defines():
    block = np.array([[1.0, 0.0], [0.0, 1.0]])
    # 0.25 straight rule x (0.5 x 1) x (0.5 x 1), normalised by 2 tokens, plus null derivations
    assert 0.25 < xmeant_itg_similarity(block) < 0.26
    assert xmeant_itg_similarity(np.zeros((0, 1))) == 0.0


def test_missing_labeller_names_language_and_remedy():
    with pytest.raises(ResourceError, match=r"frames of the output \(de\).*German.*output_frames=FILE"):
        Xmeant("en", "de").validate()
    with pytest.raises(ResourceError, match=r"frames of the source \(de\)"):
        Xmeant("de", "en").validate()


def test_pairs_the_tables_cannot_cover_are_refused():
    with pytest.raises(ResourceError, match="no English-cs bitext"):
        Xmeant("cs", "en").validate()
    with pytest.raises(ValueError, match="both 'en'"):
        Xmeant("en", "en").validate()
    with pytest.raises(ValueError, match="no English side"):
        Xmeant("de", "fr").validate()
    with pytest.raises(ValueError, match="filler_similarity"):
        Xmeant("en", "de", filler_similarity="bleu").validate()


def test_text_without_external_frames_is_an_error_record(hand_table, german_frames):
    metric = Xmeant("en", "de", output_frames=german_frames)
    results = metric.score_batch([Item(GOOD, source=SOURCE, id="a"), Item("ganz anders", source=SOURCE, id="b")])
    assert results[0].ok and not results[1].ok
    assert results[1].item == "b" and "no external output frames" in results[1].message


def test_frameless_output_backs_off_to_the_sentences(hand_table, tmp_path):
    path = tmp_path / "none.jsonl"
    path.write_text(json.dumps(FramedSentence(tuple(GOOD.split())).to_json()) + "\n", encoding="utf-8")
    result = Xmeant("en", "de", output_frames=str(path)).score(SOURCE, GOOD)
    assert result.components["backoff"] == 1.0 and result.components["source_frames"] >= 1
    assert "no frame in the candidate" in result.notes[0] and result.value > 0.5


def test_signature_names_table_and_frames_file(hand_table, german_frames, tmp_path):
    sig = Xmeant("en", "de", output_frames=german_frames).signature()
    assert sig.extras["lexsim"] == "ibm1:hand-de" and sig.extras["output_frames"] != "none"
    srl_source = sig.extras["srl_source"]
    assert sig.extras["source_frames"] == "none" and isinstance(srl_source, str) and srl_source.startswith("lang=en")
    other = tmp_path / "other.jsonl"
    other.write_text(open(german_frames, encoding="utf-8").read().replace("laufen", "rennen"), encoding="utf-8")
    other_sig = Xmeant("en", "de", output_frames=str(other)).signature()
    assert other_sig.extras["output_frames"] != sig.extras["output_frames"]


def test_text_key_ignores_whitespace_only():
    assert text_key(" die  Datei .\n") == text_key("die Datei.") == "dieDatei."
    assert text_key("die Datei") != text_key("die Dateien")


def test_variant_names_and_coverage_reasons():
    assert Xmeant("en", "de").name == "xmeant" and Xmeant("en", "de", filler_similarity="itg").name == "xmeant-itg"
    no_bitext, no_frames = runnable("cs", "en"), runnable("en", "de")
    assert no_bitext is not None and "no English-cs bitext" in no_bitext
    assert no_frames is not None and "frames of the output (de)" in no_frames


def test_table_file_replaces_the_default(hand_table, german_frames, tmp_path, monkeypatch):
    path = tmp_path / "table.npz"
    hand_table.save(path)
    monkeypatch.setattr(lexsim, "default_lexical_table", lambda pivot: pytest.fail("default table used"))
    metric = Xmeant("en", "de", output_frames=german_frames, lexical_table=str(path))
    assert metric.signature().extras["lexsim"] == "ibm1:hand-de"
    assert metric.score(SOURCE, GOOD).value > metric.score(SOURCE, BAD).value
