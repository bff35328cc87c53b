"""WMT readers on small synthetic trees in the upstream layouts, plus a quick check of the real
files beside the checkout (../shared/data/mt)."""

from pathlib import Path

import pytest

from evalcore.io.textfiles import InputError
from evalcore.resources.registry import shared_data_dir
from mteval.data import mqm, wmt12

RNK_HEADER = ("srclang,trglang,srcIndex,documentId,segmentId,judgeId,system1Number,system1Id,system2Number,"
              "system2Id,system3Number,system3Id,system4Number,system4Id,system5Number,system5Id,system1rank,"
              "system2rank,system3rank,system4rank,system5rank")


def _write(path: Path, lines):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{x}\n" for x in lines), "utf-8")


@pytest.fixture
def wmt12_root(tmp_path):
    root = tmp_path / "wmt12"
    _write(root / "sources" / "newstest2012-src.de", ["Hallo Welt .", "Guten Morgen ."])
    _write(root / "references" / "newstest2012-ref.en", ["Hello world .", "Good morning ."])
    out = root / "system-outputs" / "newstest2012" / "de-en"
    _write(out / "newstest2012.de-en.sysA", ["Hello world .", "Good morning ."])
    _write(out / "newstest2012.de-en.sysB", ["Hi world .", "Morning good ."])
    _write(root / "wmt12.RNK_results.csv", [
        RNK_HEADER,
        "German,English,2,de-en.test,2,J1,1,sysA,2,sysB,3,sysC,4,sysD,5,sysE,1,3,3,-1,2",
        "Czech,English,1,cs-en.test,1,J2,1,sysA,2,sysB,3,sysC,4,sysD,5,sysE,1,2,3,4,5"])
    return root


def test_wmt12_tree(wmt12_root):
    ts = wmt12.read_testset(wmt12_root, "de-en")
    assert len(ts) == 2 and list(ts.systems) == ["sysA", "sysB"] and ts.target == "en"
    assert ts.references[0].lines == ("Hello world .", "Good morning .")
    with pytest.raises(InputError, match="unknown WMT12 pair"):
        wmt12.read_testset(wmt12_root, "de-fr")


def test_an_empty_system_output_line_is_a_segment_an_empty_reference_an_error(wmt12_root):
    """An empty output is a translation (the worst kind) that every metric scores; an empty
    reference or source line leaves nothing to score against."""
    _write(wmt12_root / "system-outputs" / "newstest2012" / "de-en" / "newstest2012.de-en.sysA", ["Hello world .", ""])
    ts = wmt12.read_testset(wmt12_root, "de-en")
    assert ts.systems["sysA"].lines == ("Hello world .", "") and not ts.systems["sysA"].errors
    _write(wmt12_root / "references" / "newstest2012-ref.en", ["Hello world .", " "])
    ts = wmt12.read_testset(wmt12_root, "de-en")
    assert ts.references[0].errors == {1: f"{wmt12_root / 'references' / 'newstest2012-ref.en'}:2: empty line"}


def test_rankings_to_pairwise_comparisons(wmt12_root):
    rankings = wmt12.read_rankings(wmt12_root / "wmt12.RNK_results.csv", ["de-en"])
    assert len(rankings) == 1
    r = rankings[0]
    assert r.segment == 2 and r.systems == ("sysA", "sysB", "sysC", "sysE") and r.ranks == (1, 3, 3, 2)
    got = {(c.a, c.b): c.human for c in wmt12.comparisons(rankings)}
    assert got == {("sysA", "sysB"): 1, ("sysA", "sysC"): 1, ("sysA", "sysE"): 1, ("sysB", "sysC"): 0,
                   ("sysB", "sysE"): -1, ("sysC", "sysE"): -1}
    assert len(wmt12.read_rankings(wmt12_root / "wmt12.RNK_results.csv")) == 2


def test_a_malformed_ranking_row_names_file_and_line(tmp_path):
    _write(tmp_path / "r.csv", [RNK_HEADER, "German,English,x,,,J,1,a,2,b,3,c,4,d,5,e,1,2,3,4,5"])
    with pytest.raises(InputError, match=r"r\.csv:2: not a WMT12 ranking row"):
        wmt12.read_rankings(tmp_path / "r.csv")


def test_mqm_scores_with_mixed_separators_and_unrated_rows(tmp_path):
    _write(tmp_path / "s.tsv", ["system mqm_avg_score seg_id", "Nemo\t-1.500000 1", "Nemo\tNone 2",
                                "ref-A\t-0.000000 1"])
    assert mqm.read_avg_scores(tmp_path / "s.tsv") == {("Nemo", 1): -1.5, ("ref-A", 1): 0.0}
    _write(tmp_path / "bad.tsv", ["system mqm_avg_score seg_id", "Nemo\tnan 1"])
    with pytest.raises(InputError, match=r"bad\.tsv:2: score 'nan' is not finite"):
        mqm.read_avg_scores(tmp_path / "bad.tsv")
    _write(tmp_path / "head.tsv", ["system score", "Nemo\t1 1"])
    with pytest.raises(InputError, match=r"head\.tsv:1"):
        mqm.read_avg_scores(tmp_path / "head.tsv")


def test_newstest_tree_with_other_references_as_systems(tmp_path):
    root = tmp_path / "wmt21-mqm"
    _write(root / "sources" / "newstest2021.en-de.src.en", ["a", "b"])
    for ref in "AC":
        _write(root / "references" / f"newstest2021.en-de.ref.{ref}.de", [f"{ref}1", f"{ref}2"])
    _write(root / "system-outputs" / "newstest2021.en-de.hyp.NVIDIA-NeMo.de", ["x", "y"])
    _write(root / "scores" / "mqm_newstest2021_ende.avg_seg_scores.tsv",
           ["system mqm_avg_score seg_id", "Nemo\t-2.0 1", "ref-C\t-0.5 2"])
    ts = mqm.newstest_testset(root, "en-de", "A", with_references=True)
    assert list(ts.systems) == ["NVIDIA-NeMo", "ref-C"] and ts.references[0].lines == ("A1", "A2")
    assert mqm.newstest_scores(root, "en-de") == {("NVIDIA-NeMo", 1): -2.0, ("ref-C", 2): -0.5}


def test_ted_texts_lose_their_error_marks(tmp_path):
    head = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment"
    _write(tmp_path / "mqm_ted_ende.tsv", [head, "UEdin\ttalk.1\t1\t1\tr1\tHello .\tHallo <v>Welt</v> "
                                                 ".\tStyle\tMinor\t",
                                           "ref\ttalk.1\t1\t1\tr2\tHello .\tHallo .\tNo-error\tNo-error\t"])
    _write(tmp_path / "mqm_ted_ende.avg_seg_scores.tsv", ["system mqm_avg_score seg_id", "UEdin\t-1.0 1",
                                                          "ref-A\t-0.0 1"])
    ted = mqm.read_ted(tmp_path)
    assert ted.source == {1: "Hello ."} and ted.outputs == {("UEdin", 1): "Hallo Welt .", ("ref-A", 1): "Hallo ."}
    assert ted.scores[("UEdin", 1)] == -1.0


def test_the_real_layout_reads():
    root = shared_data_dir() / "mt"
    ts = wmt12.read_testset(root / "wmt12", "cs-en")
    assert len(ts) == 3003 and len(ts.systems) == 6
    rankings = wmt12.read_rankings(root / "wmt12" / "wmt12.RNK_results.csv", ["cs-en"])
    assert len(rankings) == 1294 and {s for r in rankings for s in r.systems} <= set(ts.systems)
    ende = mqm.newstest_testset(root / "wmt21-mqm", "en-de")
    rated = {s for s, _ in mqm.newstest_scores(root / "wmt21-mqm", "en-de")}
    assert len(ende) == 1002 and len(rated & set(ende.systems)) == 8  # Nemo is NVIDIA-NeMo
    assert len(mqm.newstest_testset(root / "wmt21-en-zh", "en-zh", "B").systems) == 29
