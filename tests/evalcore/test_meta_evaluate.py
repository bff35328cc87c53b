"""`aesop-eval meta-evaluate`: a leaderboard from score files of every supported kind, strict JSON
with every field, seeded output, exit codes, and the documented answer to each kind of bad
judgment file (NaN, duplicates, ties everywhere, one system, constant scores)."""

import json

import numpy as np
import pytest

from evalcore.cli.aesop import main
from evalcore.stats.levels import values
from evalcore.stats.resampling import estimate


def _write_tables(tmp_path, n_sys=6, n_in=8, seed=0):
    """A human TSV (dimension "quality"), a metric TSV (good, noisy) and an mteval-style score JSON."""
    rng = np.random.default_rng(seed)
    z = np.round(rng.random((n_sys, n_in)) * 4 + np.arange(n_sys)[:, None] * 0.5, 2)
    good = z + rng.normal(0, 0.2, z.shape)
    noisy = z + rng.normal(0, 3.0, z.shape)
    human = ["system\tline\tquality\tannotator"]
    metric = ["system\tline\tgood\tnoisy"]
    segments = []
    for i in range(n_sys):
        for j in range(n_in):
            human.append(f"sys{i}\t{j + 1}\t{z[i, j]}\tann-{j % 2}")
            metric.append(f"sys{i}\t{j + 1}\t{float(good[i, j])!r}\t{float(noisy[i, j])!r}")
            segments.append({"system": f"sys{i}", "line": j + 1, "scores": {"third": float(z[i, j] * 2 - 1)}})
    (tmp_path / "human.tsv").write_text("\n".join(human) + "\n", "utf-8")
    (tmp_path / "metrics.tsv").write_text("\n".join(metric) + "\n", "utf-8")
    (tmp_path / "mt.json").write_text(json.dumps({"signature": {"third": {"short": "third|v1"}}, "segments": segments}),
                                      "utf-8")
    return z, good, noisy


def _run(capsys, *args):
    code = main(["meta-evaluate", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_leaderboard_json_is_strict_seeded_and_matches_the_library(tmp_path, capsys):
    z, good, noisy = _write_tables(tmp_path)
    args = ["--scores", str(tmp_path / "metrics.tsv"), str(tmp_path / "mt.json"),
            "--human", str(tmp_path / "human.tsv"), "--dimension", "quality", "--level", "item",
            "--statistic", "pearson", "-n", "200", "--format", "json"]
    code, out, _ = _run(capsys, *args)
    assert code == 0
    doc = json.loads(out, parse_constant=lambda c: pytest.fail(f"bare {c} in JSON"))
    rows = {r["metric"]: r for r in doc["metrics"]}
    assert set(rows) == {"good", "noisy", "third"}
    assert rows["third"]["value"] == pytest.approx(1.0, abs=1e-12)  # an affine map of the judgments
    ref = estimate(good, z, "item", "pearson", design="both", n_resamples=200, seed=0)
    assert (rows["good"]["value"], rows["good"]["ci_low"], rows["good"]["ci_high"]) == \
        pytest.approx((ref.value, ref.ci_low, ref.ci_high), abs=1e-12)
    assert rows["third"]["cluster"] == 1 and rows["noisy"]["cluster"] > 1
    for key in ("statistic", "level", "epsilon", "resample", "ci", "n_resamples", "seed", "undefined", "flags",
                "cluster", "cluster_head", "p_vs_head", "n_defined_resamples"):
        assert key in rows["good"]
    assert doc["signature"] == {"third": {"short": "third|v1"}} and doc["n_systems"] == 6 and doc["n_inputs"] == 8
    assert _run(capsys, *args)[1] == out  # seeded: identical output


def test_tie_calibration_reports_epsilon_and_table_and_html_render(tmp_path, capsys):
    z, good, _ = _write_tables(tmp_path)
    base = ["--scores", str(tmp_path / "metrics.tsv"), "--human", str(tmp_path / "human.tsv"), "--dimension",
            "quality", "--level", "item", "--statistic", "acc-eq", "--tie-calibration", "-n", "100"]
    code, out, _ = _run(capsys, *base, "--format", "json")
    row = next(r for r in json.loads(out)["metrics"] if r["metric"] == "good")
    value, eps = values(good, z, "item", "acc-eq", None)
    assert code == 0 and row["value"] == pytest.approx(float(value), abs=1e-12) and row["epsilon"] == float(eps)
    code, table, _ = _run(capsys, *base)
    assert code == 0 and "| cluster | metric" in table and "optimistic" in table
    code, page, _ = _run(capsys, *base, "--format", "html")
    assert code == 0 and page.startswith("<!DOCTYPE html>") and "<td>good</td>" in page


def test_unknown_dimension_and_duplicate_metric_are_usage_errors(tmp_path, capsys):
    _write_tables(tmp_path)
    code, _, err = _run(capsys, "--scores", str(tmp_path / "metrics.tsv"), "--human", str(tmp_path / "human.tsv"),
                        "--dimension", "fluency")
    assert code == 2 and "no dimension 'fluency'" in err and "quality" in err
    code, _, err = _run(capsys, "--scores", str(tmp_path / "metrics.tsv"), str(tmp_path / "metrics.tsv"),
                        "--human", str(tmp_path / "human.tsv"), "--dimension", "quality")
    assert code == 2 and "is in both" in err


def _judgments(tmp_path, rows, name="bad.tsv"):
    (tmp_path / name).write_text("system\tinput\tquality\n" + "".join(f"{s}\t{i}\t{v}\n" for s, i, v in rows), "utf-8")
    return str(tmp_path / name)


def _scores(tmp_path, rows):
    (tmp_path / "m.tsv").write_text("system\tinput\tm\n" + "".join(f"{s}\t{i}\t{v}\n" for s, i, v in rows), "utf-8")
    return str(tmp_path / "m.tsv")


GRID = [(f"s{i}", f"d{j}") for i in range(4) for j in range(3)]


@pytest.mark.parametrize("bad, message", [("nan", "not a finite number"), ("inf", "not a finite number")])
def test_nan_or_infinite_judgment_is_an_error_naming_the_line(tmp_path, capsys, bad, message):
    rows = [(s, i, bad if (s, i) == ("s1", "d1") else 1.0 + k) for k, (s, i) in enumerate(GRID)]
    code, _, err = _run(capsys, "--scores", _scores(tmp_path, [(s, i, k) for k, (s, i) in enumerate(GRID)]),
                        "--human", _judgments(tmp_path, rows), "--dimension", "quality")
    assert code == 2 and message in err and "bad.tsv:6" in err


def test_duplicate_judgment_is_an_error(tmp_path, capsys):
    rows = [(s, i, float(k)) for k, (s, i) in enumerate(GRID)] + [("s0", "d0", 3.0)]
    code, _, err = _run(capsys, "--scores", _scores(tmp_path, [(s, i, k) for k, (s, i) in enumerate(GRID)]),
                        "--human", _judgments(tmp_path, rows), "--dimension", "quality")
    assert code == 2 and "duplicate" in err


@pytest.mark.parametrize("level, statistic, human, metric, reason", [
    # ties everywhere: every judgment equal -> a correlation is undefined, acc-eq is defined
    ("system", "pearson", lambda k: 2.0, lambda k: k, "constant scores on one side"),
    ("item", "kendall-b", lambda k: 2.0, lambda k: k, "constant scores on one side"),
    # constant metric
    ("global", "spearman", lambda k: k % 5, lambda k: 7.0, "constant scores on one side"),
])
def test_constant_or_all_tied_sides_are_undefined_with_exit_1(tmp_path, capsys, level, statistic, human, metric,
                                                               reason):
    code, out, err = _run(capsys, "--scores", _scores(tmp_path, [(s, i, metric(k)) for k, (s, i) in enumerate(GRID)]),
                          "--human", _judgments(tmp_path, [(s, i, human(k)) for k, (s, i) in enumerate(GRID)]),
                          "--dimension", "quality", "--level", level, "--statistic", statistic, "--format", "json",
                          "-n", "50")
    row = json.loads(out)["metrics"][0]
    assert code == 1 and row["value"] is None and row["ci_low"] is None and row["cluster"] is None
    assert reason in row["undefined"] and "no defined" in err


def test_ties_everywhere_still_give_acc_eq(tmp_path, capsys):
    """All judgments tied: acc-eq counts a pair right when the metric ties it too."""
    code, out, _ = _run(capsys, "--scores", _scores(tmp_path, [(s, i, 1.0) for s, i in GRID]),
                        "--human", _judgments(tmp_path, [(s, i, 2.0) for s, i in GRID]), "--dimension", "quality",
                        "--level", "item", "--statistic", "acc-eq", "--format", "json", "-n", "50")
    assert code == 0 and json.loads(out)["metrics"][0]["value"] == pytest.approx(1.0, abs=1e-12)


def test_one_system_is_undefined_at_system_and_item_level(tmp_path, capsys):
    one = [("s0", f"d{j}") for j in range(5)]
    for level in ("system", "item"):
        code, out, _ = _run(capsys, "--scores", _scores(tmp_path, [(s, i, k) for k, (s, i) in enumerate(one)]),
                            "--human", _judgments(tmp_path, [(s, i, k * 2) for k, (s, i) in enumerate(one)]),
                            "--dimension", "quality", "--level", level, "--format", "json", "-n", "20")
        row = json.loads(out)["metrics"][0]
        assert code == 1 and row["value"] is None
        assert ("1 system with scores" if level == "system" else "no input has 3 systems") in row["undefined"]


def test_missing_cells_are_counted_on_stderr(tmp_path, capsys):
    scored = [(s, i, k) for k, (s, i) in enumerate(GRID) if (s, i) != ("s2", "d2")] + [("s9", "d0", 1.0)]
    code, _, err = _run(capsys, "--scores", _scores(tmp_path, scored),
                        "--human", _judgments(tmp_path, [(s, i, k % 7) for k, (s, i) in enumerate(GRID)]),
                        "--dimension", "quality", "-n", "20")
    assert code == 0 and "1 scored cells without a judgment" in err and "1 judged cells without a score" in err
