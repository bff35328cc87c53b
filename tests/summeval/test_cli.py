import json
from pathlib import Path

import pytest

from summeval.cli import main

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "summeval" / "summeval_16sys_mean_expert.json"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_score_table_shows_summaries_systems_and_signatures(capsys):
    code, out, _ = run(capsys, "score", "--models", str(DEMO / "models"), "--peers", str(DEMO / "peers"))
    assert code == 0
    assert "Per system" in out and "tesla-s|ngrams:1+sb4|fw:0.1|alpha:0.8" in out
    assert out.count("D0001-A") == 4


def test_score_json_shape(capsys, tmp_path):
    out_file = tmp_path / "scores.json"
    code, _, err = run(capsys, "score", "--models", str(DEMO / "models"), "--peers", str(DEMO / "peers"),
                       "-m", "tesla-s", "-m", "rouge-2", "--format", "json", "-o", str(out_file))
    assert code == 0 and "tesla-s|" in err
    doc = json.loads(out_file.read_text())
    assert set(doc) == {"signature", "summaries", "systems"}
    assert set(doc["summaries"][0]) == {"topic", "system", "scores"}
    assert {s["system"]: s["rank"]["tesla-s"] for s in doc["systems"]}["1"] == 1


def test_score_jsonl_with_error_record_and_tsv(capsys, tmp_path):
    path = tmp_path / "in.jsonl"
    rows = [{"topic": "t", "system": "a", "summary": "cats chase mice", "references": ["cats chase mice"]},
            {"topic": "t", "system": "b", "summary": "", "references": ["cats chase mice"]}]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    code, out, err = run(capsys, "score", "--input", str(path), "--format", "tsv", "-m", "tesla-s")
    assert code == 0
    lines = out.strip().split("\n")
    assert lines[0] == "topic\tsystem\ttesla-s\terror"
    assert lines[1].startswith("t\ta\t1.000000") and "candidate summary is empty" in lines[2]
    assert "1 of 2 summaries could not be scored" in err


def test_bad_input_gives_exit_2_and_names_the_file(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe garbage")
    code, _, err = run(capsys, "score", "--input", str(bad))
    assert code == 2 and "bad.jsonl: not valid UTF-8" in err
    code, _, err = run(capsys, "score", "--models", str(DEMO / "models"))
    assert code == 2 and "--models and --peers go together" in err


def test_correlate_round_trip(capsys, tmp_path):
    scores = tmp_path / "scores.json"
    run(capsys, "score", "--models", str(DEMO / "models"), "--peers", str(DEMO / "peers"),
        "-m", "tesla-s", "-m", "rouge-2", "--format", "json", "-o", str(scores))
    human = tmp_path / "human.tsv"
    quality = {"1": 5, "2": 1, "3": 2, "4": 3}
    human.write_text("topic\tsystem\tcontent\n" + "".join(
        f"D000{t}-A\t{s}\t{q + 0.1 * t}\n" for t in (1, 2, 3) for s, q in quality.items()))
    code, out, _ = run(capsys, "correlate", "--scores", str(scores), "--human", str(human),
                       "--compare", "tesla-s", "rouge-2", "--bootstrap", "200", "--format", "json")
    assert code == 0
    result = json.loads(out)
    system = result["correlations"]["system"]["content"]["tesla-s"]
    assert system["kendall"]["value"] == pytest.approx(1.0)
    assert "tesla-s>rouge-2" in result["significance"]["summary"]["content"]
    code, out, _ = run(capsys, "correlate", "--scores", str(scores), "--human", str(human), "--bootstrap", "50")
    assert code == 0 and "tesla-s|ngrams:1+sb4|" in out.split("Signatures", 1)[1]


@pytest.mark.skipif(not SHARED.exists(), reason="../shared/data/summeval not present")
def test_bench_commands_on_a_small_slice(capsys, tmp_path):
    data = json.loads(SHARED.read_text())
    small = tmp_path / "small.json"
    small.write_text(json.dumps({k: data[k] for k in sorted(data)[:6]}))
    assert main(["bench", "speed", "--data", str(small), "--out", str(tmp_path / "speed"), "--problems", "5"]) == 0
    report = json.loads((tmp_path / "speed" / "speed.json").read_text())
    assert report["summaries"]["n_pairs"] == 6 * 16 * 11
    assert max(report["lp"]["max_abs_objective_diff_vs_pulp_highs"].values()) < 1e-6
    assert main(["bench", "summeval", "--data", str(small), "--out", str(tmp_path / "se"), "--bootstrap", "50"]) == 0
    result = json.loads((tmp_path / "se" / "summeval.json").read_text())
    rel = result["settings"]["all"]["correlations"]["system"]["relevance"]
    assert set(rel["tesla-s"]) == {"pearson", "spearman", "kendall"}
    assert (tmp_path / "se" / "summeval_system_scatter.png").stat().st_size > 1000


def test_report_with_human_scores(capsys, tmp_path):
    human = tmp_path / "human.tsv"
    quality = {"1": 5, "2": 1, "3": 2, "4": 3}
    human.write_text("topic\tsystem\toverall\n" + "".join(
        f"D000{t}-A\t{s}\t{q}\n" for t in (1, 2, 3) for s, q in quality.items()))
    code, _, err = run(capsys, "score", "--models", str(DEMO / "models"), "--peers", str(DEMO / "peers"),
                       "--report", str(tmp_path / "rep"), "--human", str(human))
    assert code == 0 and "report written" in err
    page = (tmp_path / "rep" / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 2 and "D0003-A" in page
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## Correlation with human scores" in md and "tesla-s|" in md
    assert "![system-level scatter plots](scatter.png)" in md and (tmp_path / "rep" / "scatter.png").stat().st_size > 1000
    assert "[τ " in page  # correlation cells carry their bootstrap CI


def test_report_escapes_names(capsys, tmp_path):
    rows = [{"topic": "t1", "system": f"<b>s{k}</b>|x", "summary": f"the cat sat on mat {k}",
             "references": ["the cat sat on the mat"]} for k in range(2)]
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, _, _ = run(capsys, "score", "--input", str(path), "-m", "rouge-1", "--report", str(tmp_path / "rep"))
    page = (tmp_path / "rep" / "report.html").read_text()
    assert code == 0 and "<b>s0</b>" not in page and "&lt;b&gt;s0&lt;/b&gt;" in page
    assert "<b>s0</b>\\|x" in (tmp_path / "rep" / "report.md").read_text()


def test_metric_all_runs_the_aesop_workflow_with_report(capsys, tmp_path):
    human = tmp_path / "human.tsv"
    human.write_text("topic\tsystem\tresponsiveness\n" + "".join(
        f"D000{t}-A\t{s}\t{5 - s}\n" for t in (1, 2, 3) for s in (1, 2, 3, 4)))
    out_file, report = tmp_path / "all.json", tmp_path / "report"
    code, _, err = run(capsys, "score", "--models", str(DEMO / "models"), "--peers", str(DEMO / "peers"),
                       "--metric", "all", "--format", "json", "-o", str(out_file), "--report", str(report),
                       "--human", str(human))
    assert code == 0, err
    doc = json.loads(out_file.read_text())
    names = {"tesla-s", "dicomer", "cremer", "cremer-lf", "cremer-pf", "rouge-1", "rouge-2", "rouge-l", "rouge-su4"}
    assert set(doc["signature"]) == names
    assert all(set(s["scores"]) == names for s in doc["summaries"]) and len(doc["summaries"]) == 12
    assert "|model:" in doc["signature"]["cremer"] and "|parser:gdtb-clf" in doc["signature"]["dicomer"]
    ranks = {s["system"]: s["rank"] for s in doc["systems"]}
    assert ranks["1"]["cremer"] == 1  # the close paraphrase is the most responsive peer
    html = (report / "report.html").read_text()
    assert "cremer" in html and "data:image/png;base64" in html and (report / "report.md").exists()


def test_metric_all_keeps_an_unscorable_summary_as_an_error_record(capsys, tmp_path):
    path = tmp_path / "in.jsonl"
    ref = "The council approved the budget. It will fund two new schools next year."
    rows = [{"topic": "t", "system": "a", "summary": "The council approved the budget for new schools.",
             "references": [ref]},
            {"topic": "t", "system": "b", "summary": "   ", "references": [ref]}]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    code, out, err = run(capsys, "score", "--input", str(path), "--format", "json", "--metric", "all")
    assert code == 0
    doc = json.loads(out)
    assert len(doc["summaries"]) == 2 and doc["summaries"][1].get("error")
    assert "cremer" in doc["summaries"][0]["scores"]


def _demo_human(tmp_path, skip=None):
    human = tmp_path / "human.tsv"
    human.write_text("topic\tsystem\tresponsiveness\n" + "".join(
        f"D000{t}-A\t{s}\t{5 - s + 0.1 * t}\n" for t in (1, 2, 3) for s in (1, 2, 3, 4) if (t, s) != skip))
    return human


def test_train_cremer_on_judged_tac_folders(capsys, tmp_path):
    from summeval.cremer import load_model

    code, out, err = run(capsys, "train", "cremer", "--models", str(DEMO / "models"), "--peers", str(DEMO / "peers"),
                         "--human", str(_demo_human(tmp_path)), "--target", "responsiveness", "--kernel", "linear",
                         "--out", str(tmp_path / "models"))
    assert code == 0, err
    model, info = load_model("linear", tmp_path / "models")
    assert info["n_summaries"] == 12 and info["target"].endswith(":responsiveness")
    assert "not trained on these summaries" in info["dicomer_training_values"]
    code, out, err = run(capsys, "score", "--models", str(DEMO / "models"), "--peers", str(DEMO / "peers"),
                         "-m", "cremer-lf", "--cremer-models", str(tmp_path / "models"), "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert f"model:{info['model_hash']}" in doc["signature"]["cremer-lf"]
    assert {s["system"]: s["rank"]["cremer-lf"] for s in doc["systems"]}["1"] == 1


def test_train_cremer_names_a_summary_without_human_score(capsys, tmp_path):
    code, _, err = run(capsys, "train", "cremer", "--models", str(DEMO / "models"), "--peers", str(DEMO / "peers"),
                       "--human", str(_demo_human(tmp_path, skip=(2, 3))), "--target", "responsiveness",
                       "--out", str(tmp_path / "models"))
    assert code == 2 and "D0002-A.M.100.A.3" in err
    code, _, err = run(capsys, "train", "cremer", "--input", str(tmp_path / "x.jsonl"))
    assert code == 2 and "--human FILE is needed" in err
