"""PEM's speed benchmark on toy resources: PEM against sentence BLEU in one run, and the runner's
``parapeval-speed``."""

import json

import numpy as np

from benchmarks.__main__ import main
from benchmarks.parapeval.speed import STAGES, run_speed, speed_markdown


def test_speed_compares_pem_with_bleu_in_one_run(toy_pem, toy_pairs):
    pairs = [(p.original, p.paraphrase) for p in toy_pairs]
    res = run_speed(pairs, toy_pem.get_params(), repeats=2)
    assert res["pairs"] == len(pairs) and len(res["ratios"]) == 2
    assert res["ratio"] == np.median(res["ratios"]) > 0
    assert res["target_met"] == (res["ratio"] <= 7)
    assert set(res["stage_seconds"]) == {*STAGES, "other"} and all(v >= 0 for v in res["stage_seconds"].values())
    assert res["memory"]["pem_heap_peak_mib"] > 0 and res["memory"]["process_peak_rss_mib"] > 0
    md = speed_markdown(res)
    assert "| PEM (score_batch, end to end) |" in md and "time vs BLEU" in md and "| BPNG + pivot F1 |" in md


def test_cli_speed_only_writes_the_speed_report(tmp_path, toy_pairs, resource_args, capsys):
    data = tmp_path / "twitter_para.jsonl"
    by_source: dict[str, list[dict[str, object]]] = {}
    for p in toy_pairs:
        by_source.setdefault(p.original, []).append({"text": p.paraphrase, "score": p.score})
    data.write_text("".join(json.dumps({"source": s, "candidates": c}) + "\n" for s, c in by_source.items()), "utf-8")
    out = tmp_path / "speed"
    rc = main(["parapeval-speed", "--data", str(data), "--out", str(out), "--speed-pairs", "5",
               "--repeats", "1", *resource_args])
    assert rc == 0
    report = json.loads((out / "speed.json").read_text("utf-8"))
    assert report["pairs"] == 5 and report["bleu_pairs_per_s"] > 0 and report["pem_pairs_per_s"] > 0
    assert "time vs BLEU" in (out / "speed.md").read_text("utf-8") and "time vs BLEU" in capsys.readouterr().out
    assert main(["parapeval-speed", "--data", str(data), "--out", str(out), "--repeats", "0",
                 *resource_args]) == 2
