"""`summeval correlate --statistic ...` and `mteval correlate --statistic ...` print the leaderboard of
`aesop-eval meta-evaluate` (the same code and numbers); without --statistic they are unchanged
(tests/test_metaeval_pinned.py)."""

import json

import numpy as np
import pytest

from evalcore.stats.resampling import estimate
from mteval.cli import main as mteval_main
from summeval.cli import main as summeval_main


def _judged(n_sys=5, n_in=6, seed=0):
    rng = np.random.default_rng(seed)
    z = np.round(rng.random((n_sys, n_in)) * 4 + np.arange(n_sys)[:, None], 2)
    return z, z + rng.normal(0, 0.5, z.shape), z + rng.normal(0, 3.0, z.shape)


def test_summeval_correlate_statistic_matches_meta_evaluate(tmp_path, capsys):
    z, good, noisy = _judged()
    summaries = [{"topic": f"t{j}", "system": f"s{i}",
                  "scores": {"good": float(good[i, j]), "noisy": float(noisy[i, j])}}
                 for i in range(5) for j in range(6)]
    (tmp_path / "scores.json").write_text(json.dumps({"signature": {}, "summaries": summaries}), "utf-8")
    (tmp_path / "human.tsv").write_text("topic\tsystem\trelevance\n" + "".join(
        f"t{j}\ts{i}\t{z[i, j]}\n" for i in range(5) for j in range(6)), "utf-8")
    files = ["--scores", str(tmp_path / "scores.json"), "--human", str(tmp_path / "human.tsv")]
    code = summeval_main(["correlate", *files, "--statistic", "spearman", "--level", "item", "--bootstrap", "100",
                          "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    row = next(r for r in doc["leaderboards"]["relevance"]["metrics"] if r["metric"] == "good")
    ref = estimate(good, z, "item", "spearman", design="both", n_resamples=100, seed=0)
    assert code == 0 and (row["value"], row["ci_low"], row["ci_high"]) == pytest.approx(
        (ref.value, ref.ci_low, ref.ci_high), abs=1e-12)
    code = summeval_main(["correlate", *files, "--statistic", "pearson", "--dimension", "fluency"])
    assert code == 2 and "--dimension 'fluency'" in capsys.readouterr().err


def test_mteval_correlate_statistic_negates_ter_and_needs_segments(tmp_path, capsys):
    z, good, _ = _judged(seed=1)
    segments = [{"system": f"s{i}", "line": j + 1, "scores": {"bleu": float(good[i, j]), "ter": float(-good[i, j])}}
                for i in range(5) for j in range(6)]
    (tmp_path / "scores.json").write_text(json.dumps({"signature": {}, "segments": segments}), "utf-8")
    (tmp_path / "human.tsv").write_text("system\tline\tmqm\n" + "".join(
        f"s{i}\t{j + 1}\t{z[i, j]}\n" for i in range(5) for j in range(6)), "utf-8")
    code = mteval_main(["correlate", "--scores", str(tmp_path / "scores.json"), "--human", str(tmp_path / "human.tsv"),
                        "--statistic", "kendall-b", "--bootstrap", "100", "--format", "json"])
    rows = {r["metric"]: r for r in json.loads(capsys.readouterr().out)["leaderboards"]["mqm"]["metrics"]}
    assert code == 0 and rows["ter"]["value"] == rows["bleu"]["value"] > 0  # lower-is-better TER negated
    (tmp_path / "sys.tsv").write_text("system\tmqm\n" + "".join(f"s{i}\t{z[i].mean()}\n" for i in range(5)), "utf-8")
    code = mteval_main(["correlate", "--scores", str(tmp_path / "scores.json"), "--human", str(tmp_path / "sys.tsv"),
                        "--statistic", "pearson"])
    assert code == 2 and "needs segment judgments" in capsys.readouterr().err
