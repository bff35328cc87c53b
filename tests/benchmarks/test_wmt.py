"""`python -m benchmarks wmt` on small slices of the real data, and the data README's protocol check:
sentence chrF agrees with WMT12 human preferences at Kendall about 0.23-0.27."""

import json

import pytest

from benchmarks.mteval import wmt as bench
from benchmarks.mteval.wmt import run, wmt12_pair
from evalcore.resources.registry import shared_data_dir
from mteval.baselines.metric import Bleu, Chrf
from mteval.data import wmt12


def test_protocol_check_chrf_on_wmt12_cs_en():
    root = shared_data_dir() / "mt" / "wmt12"
    rankings = wmt12.read_rankings(root / "wmt12.RNK_results.csv", ["cs-en"])
    result, _, _ = wmt12_pair(root, "cs-en", [Chrf()], rankings, limit=0, n_boot=200, seed=0, jobs=1)
    chrf = result["metrics"]["chrf"]
    assert result["segments"] == 937 and result["systems"] == 6
    assert 0.22 <= chrf["kendall_wmt12"]["value"] <= chrf["kendall_no_ties"]["value"] <= 0.28


def test_bench_writes_tables_and_reports_metrics_that_do_not_load(tmp_path):
    report = run(tmp_path, metrics=["bleu", "no-such-metric"], pairs=["de-en", "mqm-zh-en"], max_segments=12,
                 n_boot=50, baselines=("chrf",), log=lambda m: None)
    assert list(report["failed_to_load"]) == ["no-such-metric (en)"]
    assert report["failed_to_load"]["no-such-metric (en)"].startswith("ValueError: unknown metric 'no-such-metric'")
    md = (tmp_path / "wmt.md").read_text()
    data = json.loads((tmp_path / "wmt.json").read_text())
    assert "Metrics that did not load:\n- no-such-metric (en)" in md
    assert "WMT12 segment level: Kendall's tau, WMT12 variant" in md and "WMT21 MQM zh-en" in md
    de = data["wmt12"]["de-en"]
    assert de["segments"] == 12 and de["systems"] == 16
    assert set(de["metrics"]) == {"bleu", "chrf"}
    assert 0 <= data["wmt12_significance"]["bleu>chrf"]["de-en"]["wmt12"] <= 1
    zh = data["mqm"]["mqm-zh-en"]
    assert zh["reference_systems"] == [] and len(zh["systems"]) == 8
    assert set(zh["metrics"]["bleu"]["without_refs"]) == {"segment_none", "segment_item", "system"}
    assert data["speed"]["bleu"]["segments"] == 12 * 16 + 12 * 8


def test_a_metric_is_never_evaluated_on_the_rankings_it_was_trained_on(tmp_path, monkeypatch):
    monkeypatch.setattr(Bleu, "in_sample", ("wmt12:de-en",))
    report = run(tmp_path, metrics=["bleu"], pairs=["de-en", "mqm-zh-en"], max_segments=5, n_boot=20,
                 baselines=("chrf",), log=lambda m: None)
    assert set(report["wmt12"]["de-en"]["metrics"]) == {"chrf"}
    assert "bleu" in report["mqm"]["mqm-zh-en"]["metrics"]
    assert report["not_run"]["bleu (de-en)"].startswith("trained on these rankings")
    assert "- bleu (de-en): trained on these rankings" in (tmp_path / "wmt.md").read_text()


def test_the_default_run_reads_what_it_leaves_out_from_the_metrics():
    left_out = bench.not_by_default()
    assert set(left_out) == {"tesla-celab", "tesla-celab-nocilin", "meant", "umeant", "imeant", "xmeant", "xmeant-itg"}
    assert left_out["meant"].startswith("semantic frames") and "Chinese-target" in left_out["tesla-celab"]
    from evalcore.metric.registry import get_metric

    trained = {n for n in ("tesla-f", "beer", "beer2", "bleu") for p in bench.INTO_ENGLISH
               if bench.trained_here(get_metric(n), p)}
    assert trained == {"tesla-f", "beer"} and not bench.trained_here(get_metric("tesla-f"), "en-de")


def test_bench_commands_write_their_tables_and_plots(tmp_path):
    from benchmarks.__main__ import main

    args = ["-m", "bleu", "--max-segments", "4", "--bootstrap", "20"]
    assert main(["wmt12", "--out", str(tmp_path / "w"), "--pairs", "de-en", *args]) == 0
    assert main(["mqm", "--out", str(tmp_path / "m"), "--pairs", "mqm-zh-en", *args]) == 0
    w = json.loads((tmp_path / "w" / "wmt12.json").read_text())
    assert list(w["wmt12"]) == ["de-en"] and w["mqm"] == {} and w["plots"] == ["wmt12-kendall.png"]
    assert "`python -m benchmarks wmt12`" in (tmp_path / "w" / "wmt12.md").read_text()
    m = json.loads((tmp_path / "m" / "mqm.json").read_text())
    assert list(m["mqm"]) == ["mqm-zh-en"] and m["wmt12"] == {} and m["plots"] == ["mqm-kendall.png"]
    for png in (tmp_path / "w" / "wmt12-kendall.png", tmp_path / "m" / "mqm-kendall.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_bench_refuses_the_other_benchs_pairs(tmp_path, capsys):
    from benchmarks.__main__ import main

    assert main(["mqm", "--out", str(tmp_path), "--pairs", "de-en", "-m", "bleu"]) == 2
    expected = "python -m benchmarks mqm: error: unknown pair 'de-en'; choose from mqm-en-de, mqm-zh-en"
    assert expected in capsys.readouterr().err


def test_bench_speed_writes_stage_and_ratio_tables(tmp_path):
    from benchmarks.mteval.speed import BASELINES, METRICS, run

    report = run(tmp_path, "fr-en", 3, log=lambda m: None)
    md = (tmp_path / "speed.md").read_text()
    assert json.loads((tmp_path / "speed.json").read_text())["segments"] == 3
    for name in (*METRICS, *BASELINES):
        assert report["end_to_end_ms"][name] > 0 and f"| {name} " in md
    assert "paper's 10-20 ms / this" in md and "| / bleu | / chrf | / meteor |" in md
    assert report["bpng_ms_per_segment"] > 0 and report["lm_ms_per_segment"] > 0


def test_the_docs_tables_are_the_reports_own_and_a_missing_one_is_named():
    """The committed default run: the report is its named tables in order, a metric page's cut
    keeps only the rows, pairs and averages it asks for, and a table a run lacks is an error."""
    from benchmarks import render
    from evalcore.io.textfiles import InputError

    report = render.load("wmt")["result"]
    body = bench.markdown(report).split("\n", 4)[4]  # after the title, the settings line and their blank lines
    assert body == "\n".join(line for lines in bench.blocks(report).values() for line in lines)
    cut = bench.kendall_table(report, "kendall_wmt12", ("red", "bleu"), bench.INTO_ENGLISH, ("into-English",))
    head, _, *rows = cut.strip().split("\n")[2:]
    assert [c.strip() for c in head.strip("|").split("|")] == ["metric", *bench.INTO_ENGLISH, "avg into-English"]
    assert [r.split("|")[1].strip() for r in rows] == ["red", "bleu"]
    no_mqm = {**report, "mqm": {}}
    with pytest.raises(InputError, match="no table 'mqm-zh-en'"):
        bench.block(no_mqm, "mqm-zh-en")


def test_an_average_over_some_pairs_is_labelled_by_them():
    """A run with --pairs averages only the pairs it ran: the column says which, not "avg all"."""
    from benchmarks import render

    report = render.load("wmt-de")["result"]
    head = bench.kendall_table(report, "kendall_wmt12", ("bleu",), ("en-de",), ("all",)).strip().split("\n")[2]
    assert [c.strip() for c in head.strip("|").split("|")] == ["metric", "en-de", "avg en-de"]
    full = render.load("wmt")["result"]
    head = bench.kendall_table(full, "kendall_wmt12", ("bleu",), ("en-de",), ("all",)).strip().split("\n")[2]
    assert head.split("|")[-2].strip() == "avg all"
