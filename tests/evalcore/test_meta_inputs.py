"""Meta-evaluation inputs and statistics (issue 38, items 7-12): orientation from the metric's facts
in every path, shown; constant means equal; a score column without a value is reported, never
dropped; the inputs an item-level value uses are counted; natural sort of any name; impossible
resample counts refused before any work."""

import json
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import pearsonr

from evalcore.cli.aesop import main
from evalcore.stats.coefficients import pearson
from evalcore.stats.correlation import correlate, resample_documents
from evalcore.stats.resampling import estimate

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo" / "mt"
SYSTEMS = [f"s{i}" for i in range(5)]
INPUTS = [f"d{j}" for j in range(6)]


def _code(run, argv: list[str]) -> int:
    """The exit code of a command's ``main``, argparse's usage errors included."""
    try:
        return run(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2


def _run(capsys, *args):
    code = _code(main, ["meta-evaluate", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _table(path: Path, header: str, rows) -> str:
    path.write_text(header + "\n" + "".join("\t".join(map(str, r)) + "\n" for r in rows), "utf-8")
    return str(path)


def _human(tmp_path, value=lambda i, j: i + 0.1 * j, systems=SYSTEMS, inputs=INPUTS) -> str:
    return _table(tmp_path / "human.tsv", "system\tinput\tquality",
                  [(s, d, value(i, j)) for i, s in enumerate(systems) for j, d in enumerate(inputs)])


# ---- 7: orientation ----------------------------------------------------------------------------

def test_ter_is_oriented_by_its_facts_in_meta_evaluate_and_in_mteval_correlate(tmp_path, capsys):
    """TER from an `mteval score` file against judgments where its lower values are the better
    outputs: positive in meta-evaluate, equal to `mteval correlate --statistic`, and said."""
    from mteval.cli import main as mteval

    scores = tmp_path / "scores.json"
    third = tmp_path / "system-c.en"  # a third system: two lines of system a, the rest of system b
    a, b = (((DEMO / f"system-{s}.en").read_text("utf-8")).splitlines() for s in "ab")
    third.write_text("\n".join(a[:2] + b[2:]) + "\n", "utf-8")
    assert mteval(["score", "-r", str(DEMO / "ref.A.en"), "-i", str(DEMO / "system-a.en"), str(DEMO / "system-b.en"),
                   str(third), "-m", "bleu", "-m", "ter", "--segments", "--format", "json", "-o", str(scores)]) == 0
    doc = json.loads(scores.read_text("utf-8"))
    human = _table(tmp_path / "h.tsv", "system\tline\tquality",
                   [(r["system"], r["line"], -r["scores"]["ter"]) for r in doc["segments"]])
    capsys.readouterr()
    args = ["--human", human, "--dimension", "quality", "--level", "global", "--statistic", "pearson",
            "-n", "50", "--format", "json"]
    code, out, _ = _run(capsys, "--scores", str(scores), *args)
    rows = {r["metric"]: r for r in json.loads(out)["metrics"]}
    assert code == 0 and rows["ter"]["value"] == pytest.approx(1.0) and rows["ter"]["lower_is_better"]
    assert not rows["bleu"]["lower_is_better"] and any("lower-is-better" in f for f in rows["ter"]["flags"])
    assert mteval(["correlate", "--scores", str(scores), "--human", human, "--level", "global",
                   "--statistic", "pearson", "--bootstrap", "50", "--format", "json"]) == 0
    board = json.loads(capsys.readouterr().out)["leaderboards"]["quality"]
    assert {r["metric"]: r["value"] for r in board["metrics"]} == {n: r["value"] for n, r in rows.items()}
    code, table, _ = _run(capsys, "--scores", str(scores), *args[:-2])
    assert "orientation from the metrics' facts: bleu higher is better, ter lower is better" in table


def test_an_unregistered_column_is_assumed_higher_and_can_be_declared_lower(tmp_path, capsys):
    human = _human(tmp_path)
    scores = _table(tmp_path / "m.tsv", "system\tinput\terrs",
                    [(s, d, -(i + 0.1 * j)) for i, s in enumerate(SYSTEMS) for j, d in enumerate(INPUTS)])
    base = ["--scores", scores, "--human", human, "--dimension", "quality", "--statistic", "pearson", "-n", "20"]
    code, out, _ = _run(capsys, *base, "--format", "json")
    doc = json.loads(out)
    assert doc["metrics"][0]["value"] == pytest.approx(-1.0) and not doc["metrics"][0]["lower_is_better"]
    code, out, _ = _run(capsys, *base, "--lower-is-better", "errs", "--format", "json")
    assert json.loads(out)["metrics"][0]["value"] == pytest.approx(1.0)
    code, table, _ = _run(capsys, *base)
    assert "not registered metrics, read as higher is better: errs" in table


def test_declaring_a_registered_higher_metric_lower_is_refused(tmp_path, capsys):
    scores = _table(tmp_path / "m.tsv", "system\tinput\tbleu",
                    [(s, d, i) for i, s in enumerate(SYSTEMS) for d in INPUTS])
    code, _, err = _run(capsys, "--scores", scores, "--human", _human(tmp_path), "--dimension", "quality",
                        "--lower-is-better", "bleu")
    assert code == 2 and "its facts say higher is better" in err


# ---- 8: constant means equal -------------------------------------------------------------------

def test_pearson_of_nearly_equal_scores_is_defined_as_scipy_says():
    x = np.array([0.9999991, 0.9999993, 0.9999992, 0.9999995, 0.9999994, 0.9999999, 0.9999997])
    z = np.arange(7.0)
    expected = pearsonr(x, z).statistic
    assert float(pearson(x, z)) == pytest.approx(expected, abs=1e-6)
    assert estimate(x[:, None], z[:, None], "system", "pearson", design=None).value == \
        pytest.approx(expected, abs=1e-6)
    # the older correlate path (documents x systems), per system and pooled
    assert correlate(x[None, :], z[None, :], "item", "pearson").value == pytest.approx(expected, abs=1e-6)
    assert correlate(x[None, :], z[None, :], "none", "pearson").value == pytest.approx(expected, abs=1e-6)
    # item level through the resampling weights: the same value on every all-ones resample
    boot = estimate(np.tile(x[:, None], (1, 2)), np.tile(z[:, None], (1, 2)), "item", "pearson",
                    design="inputs", n_resamples=5)
    assert boot.value == pytest.approx(expected, abs=1e-6) and boot.ci_low == pytest.approx(expected, abs=1e-6)


def test_equal_scores_stay_constant_whatever_their_rounding():
    x = np.full(6, 0.1 + 0.2)
    z = np.arange(6.0)
    assert np.isnan(pearson(x, z)) and np.isnan(correlate(x[None, :], z[None, :], "none", "pearson").value)
    res = resample_documents(3, 20)
    assert np.isnan(correlate(np.tile(x, (3, 1)), np.tile(z, (3, 1)), "none", "pearson", res).value)


# ---- 9: a score column without a value ----------------------------------------------------------

def test_an_all_error_or_blank_column_is_reported_not_dropped(tmp_path, capsys):
    rows = [(s, d, i + j, "", "error", f"note {j}", "", "error" if j == 0 else i * j)
            for i, s in enumerate(SYSTEMS) for j, d in enumerate(INPUTS)]
    scores = _table(tmp_path / "m.tsv", "system\tinput\tgood\tblank\tfailed\tcomment\terrors\tpartly", rows)
    code, out, err = _run(capsys, "--scores", scores, "--human", _human(tmp_path), "--dimension", "quality",
                          "-n", "20", "--format", "json")
    board = {r["metric"]: r for r in json.loads(out)["metrics"]}
    assert code == 1 and set(board) == {"good", "blank", "failed", "partly"}
    assert board["partly"]["value"] is not None and json.loads(out)["cells"]["partly"]["unscored"] == 5
    assert board["blank"]["value"] is None and "no score in any judged cell" in board["failed"]["undefined"]
    assert "blank: no cell has a score" in err and "column 'comment' holds text" in err


def test_a_metric_of_the_signatures_that_scored_nothing_is_reported(tmp_path, capsys):
    segments = [{"system": s, "line": j + 1, "scores": {"good": i + j, "broken": None}}
                for i, s in enumerate(SYSTEMS) for j in range(6)]
    (tmp_path / "mt.json").write_text(json.dumps({"signature": {"good": "good|v1", "broken": "broken|v1"},
                                                  "segments": segments}), "utf-8")
    human = _human(tmp_path, inputs=[str(j + 1) for j in range(6)])
    code, out, _ = _run(capsys, "--scores", str(tmp_path / "mt.json"), "--human", human, "--dimension", "quality",
                        "-n", "20", "--format", "json")
    rows = {r["metric"]: r for r in json.loads(out)["metrics"]}
    assert code == 1 and rows["broken"]["value"] is None and rows["good"]["value"] is not None


# ---- 10: inputs used ---------------------------------------------------------------------------

def test_item_level_counts_the_inputs_its_value_comes_from(tmp_path, capsys):
    """Only d0's judgments differ between systems: the other five inputs are all tied and left out."""
    human = _human(tmp_path, value=lambda i, j: float(i) if j == 0 else 1.0)
    scores = _table(tmp_path / "m.tsv", "system\tinput\tm",
                    [(s, d, i + 0.3 * j) for i, s in enumerate(SYSTEMS) for j, d in enumerate(INPUTS)])
    code, out, _ = _run(capsys, "--scores", scores, "--human", human, "--dimension", "quality", "--level", "item",
                        "--statistic", "pearson", "-n", "20", "--format", "json")
    row = json.loads(out)["metrics"][0]
    assert code == 0 and row["used"] == {"n": 1, "of": 6, "what": "inputs"}
    assert any(f.startswith("inputs-used: the value comes from 1 of 6 inputs") for f in row["flags"])
    code, out, _ = _run(capsys, "--scores", scores, "--human", _human(tmp_path), "--dimension", "quality",
                        "--level", "item", "--statistic", "pearson", "-n", "20", "--format", "json")
    row = json.loads(out)["metrics"][0]
    assert row["used"] == {"n": 6, "of": 6, "what": "inputs"} and not any("used" in f for f in row["flags"])


# ---- 11: natural sort --------------------------------------------------------------------------

def test_natural_sort_reads_decimal_digits_only():
    from evalcore.data.cells import natural_key

    names = ["s10", "s2", "①", "D1²", "D1", "s02", "D١٢", "D3"]
    ordered = sorted(names, key=natural_key)
    assert ordered.index("s2") < ordered.index("s10") and ordered.index("D3") < ordered.index("D١٢")
    assert sorted(reversed(names), key=natural_key) == ordered  # a total order: ties broken by the name


def test_digit_like_names_are_judged_like_any_other(tmp_path, capsys):
    systems, inputs = ["①", "②", "s2", "s10"], ["D1²", "D1", "x³"]
    human = _human(tmp_path, systems=systems, inputs=inputs)
    scores = _table(tmp_path / "m.tsv", "system\tinput\tm",
                    [(s, d, i * 2 + j) for i, s in enumerate(systems) for j, d in enumerate(inputs)])
    code, out, _ = _run(capsys, "--scores", scores, "--human", human, "--dimension", "quality", "-n", "20",
                        "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["systems"] == ["s2", "s10", "①", "②"]


# ---- 12: resample counts -----------------------------------------------------------------------

@pytest.mark.parametrize("n, message", [("1000000000000000", "expected 1 to 1000000 resamples"),
                                        ("0", "expected 1 to 1000000 resamples"),
                                        ("-5", "expected 1 to 1000000 resamples")])
def test_impossible_resample_counts_are_usage_errors(tmp_path, capsys, n, message):
    scores = _table(tmp_path / "m.tsv", "system\tinput\tm", [(s, d, i) for i, s in enumerate(SYSTEMS) for d in INPUTS])
    code, out, err = _run(capsys, "--scores", scores, "--human", _human(tmp_path), "--dimension", "quality", "-n", n)
    assert code == 2 and out == "" and message in err


def test_a_count_whose_draws_pass_the_memory_bound_is_refused_with_the_largest_that_fits(tmp_path, capsys,
                                                                                          monkeypatch):
    import evalcore.stats.resampling as resampling

    monkeypatch.setattr(resampling, "DRAW_BYTES", 8 * 11 * 100)  # room for 100 resamples of 5 + 6
    scores = _table(tmp_path / "m.tsv", "system\tinput\tm", [(s, d, i) for i, s in enumerate(SYSTEMS) for d in INPUTS])
    args = ["--scores", scores, "--human", _human(tmp_path), "--dimension", "quality", "--test", "bootstrap"]
    code, out, err = _run(capsys, *args, "-n", "101")
    assert code == 2 and out == "" and "at most 100" in err
    assert _run(capsys, *args, "-n", "100")[0] == 0


@pytest.mark.parametrize("command", ["mteval", "summeval"])
def test_correlate_bootstrap_zero_is_a_usage_error(command, capsys):
    import importlib

    main_of = importlib.import_module(f"{command}.cli").main
    assert _code(main_of, ["correlate", "--scores", "x.json", "--human", "h.tsv", "--bootstrap", "0"]) == 2
    assert "expected 1 to 1000000 resamples" in capsys.readouterr().err


def test_the_library_refuses_an_impossible_count_before_drawing():
    from evalcore.stats.compare import compare

    x = np.arange(12.0).reshape(3, 4)
    with pytest.raises(ValueError, match="at most"):
        estimate(x, x, "system", "pearson", n_resamples=10**15)
    with pytest.raises(ValueError, match="at most"):
        compare(x, x + 1, x, "system", "pearson", "perm-both", n_samples=10**12)


def test_correlate_names_a_metric_that_scored_nothing_and_exits_1(tmp_path, capsys):
    """summeval and mteval correlate without --statistic: a metric of the signatures without a
    single score is named on stderr and in the JSON, exit 1 (it vanished with exit 0 before)."""
    from mteval.cli import main as mteval
    from summeval.cli import main as summeval

    rows = [{"topic": d, "system": s, "scores": {"good": i + 0.1 * j, "broken": None}}
            for i, s in enumerate(SYSTEMS) for j, d in enumerate(INPUTS)]
    sig = {"good": {"short": "good|v1"}, "broken": {"short": "broken|v1"}}
    (tmp_path / "s.json").write_text(json.dumps({"signature": sig, "summaries": rows}), "utf-8")
    human = _table(tmp_path / "h.tsv", "topic\tsystem\tquality",
                   [(d, s, i + j) for i, s in enumerate(SYSTEMS) for j, d in enumerate(INPUTS)])
    code = _code(summeval, ["correlate", "--scores", str(tmp_path / "s.json"), "--human", human, "--format", "json",
                            "--bootstrap", "20"])
    out = capsys.readouterr()
    assert code == 1 and json.loads(out.out)["unscored_metrics"] == ["broken"] and "broken: no matched" in out.err
    segments = [{"system": s, "line": j + 1, "scores": {"good": i + 0.1 * j, "broken": None}}
                for i, s in enumerate(SYSTEMS) for j in range(6)]
    (tmp_path / "m.json").write_text(json.dumps({"signature": sig, "segments": segments}), "utf-8")
    judged = _table(tmp_path / "j.tsv", "system\tline\tquality",
                    [(s, j + 1, i + j) for i, s in enumerate(SYSTEMS) for j in range(6)])
    code = _code(mteval, ["correlate", "--scores", str(tmp_path / "m.json"), "--human", judged, "--format", "json",
                          "--bootstrap", "20"])
    out = capsys.readouterr()
    assert code == 1 and json.loads(out.out)["unscored_metrics"] == ["broken"] and "broken: no segment" in out.err
