import json
from pathlib import Path

import pytest

import summeval
from evalcore.metric.inputs import EMPTY_NOTE
from summeval.cli import main

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"
TAC = ("--models", str(DEMO / "models"), "--peers", str(DEMO / "peers"))


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def strict(text: str):
    """Parse JSON as a strict reader does (no NaN or Infinity)."""
    def refuse(name):
        raise ValueError(f"non-standard JSON constant {name}")
    return json.loads(text, parse_constant=refuse)


def write_jsonl(path: Path, rows) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def no_scoring(monkeypatch):
    """Make any scoring fail loudly: checks that must happen before scoring are seen to."""
    def refuse(*args, **kwargs):
        raise AssertionError("scoring started")
    monkeypatch.setattr("summeval.pipeline.score_items", refuse)


def test_version_and_list_metrics(capsys):
    assert summeval.__version__ == "0.2.0"
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.strip() == "summeval 0.2.0"
    with pytest.raises(SystemExit) as exit_:
        main(["--list-metrics"])
    listed = {line.split()[0]: line.split()[2] for line in capsys.readouterr().out.splitlines()}
    assert exit_.value.code == 0 and listed["dicomer"] == "coherence" and listed["tesla-s"] == "summeval"
    assert {"tesla-s-pos", "rouge-1", "rouge-2", "rouge-l", "rouge-su4", "rouge-1-f", "rouge-2-f", "rouge-l-f",
            "rouge-su4-f", "cremer", "cremer-rbf", "cremer-pf"} < set(listed)
    assert set(listed.values()) == {"summeval", "coherence"}  # parapeval's metrics are not offered here


def test_score_table_shows_summaries_systems_and_signatures_after_it(capsys):
    code, out, err = run(capsys, "score", *TAC)
    assert code == 0 and err == ""
    table, signatures = out.split("\nSignatures:\n")
    assert "Per system" in table and table.count("D0001-A") == 4
    assert "tesla-s|ngrams:1+sb4|fw:0.1|alpha:0.8|refs:max|tok:ptb-lc|stem:no|fwd:list|v:0.2.0" in signatures


def test_score_json_is_strict_with_a_signature_object(capsys, tmp_path):
    out_file = tmp_path / "scores.json"
    code, out, err = run(capsys, "score", *TAC, "-m", "tesla-s", "-m", "rouge-2", "--format", "json", "-o",
                         str(out_file))
    assert code == 0 and out == "" and err == ""
    doc = strict(out_file.read_text())
    assert set(doc) == {"signature", "summaries", "systems", "ranking"}
    assert doc["signature"]["tesla-s"]["short"].startswith("tesla-s|ngrams:1+sb4|")
    assert set(doc["summaries"][0]) == {"topic", "system", "scores", "components"}
    assert set(doc["summaries"][0]["components"]["rouge-2"]) == {"precision", "recall", "f"}
    assert {s["system"]: s["rank"]["tesla-s"] for s in doc["systems"]}["1"] == 1
    assert doc["ranking"]["tesla-s"] == {"topics": 3, "of": 3, "rule": "complete", "order": "higher is better"}


def test_jsonl_and_tsv_are_pure_with_signatures_on_stderr(capsys, tmp_path):
    rows = [{"topic": "t", "system": "a", "summary": "cats chase mice", "references": ["cats chase mice"]},
            {"topic": "t", "system": "b", "summary": "dogs", "references": [" "]}]
    path = write_jsonl(tmp_path / "in.jsonl", rows)
    code, out, err = run(capsys, "score", "-i", str(path), "--format", "jsonl", "-m", "tesla-s")
    assert code == 1
    lines = [strict(line) for line in out.splitlines()]
    assert lines[0]["scores"] == {"tesla-s": 1.0} and lines[1]["errors"]["tesla-s"].endswith("reference 1 is empty")
    assert err.splitlines()[0].startswith("tesla-s|") and "1 of 2 summaries could not be scored" in err
    code, out, err = run(capsys, "score", "-i", str(path), "--format", "tsv", "-m", "tesla-s")
    lines = out.strip().split("\n")
    assert code == 1 and lines[0] == "topic\tsystem\ttesla-s\terrors"
    assert lines[1] == "t\ta\t1.000000\t" and lines[2].endswith("tesla-s: in.jsonl:2: reference 1 is empty".replace(
        "in.jsonl", str(path)))
    assert "tesla-s|" not in out and "tesla-s|" in err


def test_bad_input_gives_exit_2_and_names_the_file(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xe9t\xe9 garbage")
    code, _, err = run(capsys, "score", "--input", str(bad))
    assert code == 2 and "bad.jsonl:1: not valid UTF-8" in err and "latin-1" in err
    code, _, err = run(capsys, "score", "--models", str(DEMO / "models"))
    assert code == 2 and "--models and --peers go together" in err
    code, _, err = run(capsys, "score", *TAC, "-m", "bleu")
    assert code == 2 and "unknown metric 'bleu'" in err
    code, _, err = run(capsys, "score", *TAC, "--cremer-models", str(tmp_path), "-m", "cremer")
    assert code == 2 and "summeval train cremer" in err


def test_output_paths_are_checked_before_scoring(capsys, tmp_path, monkeypatch):
    # defect: -o into a missing folder failed after scoring, and the results were lost
    no_scoring(monkeypatch)
    code, _, err = run(capsys, "score", *TAC, "-o", str(tmp_path / "missing" / "scores.json"))
    assert code == 2 and "does not exist" in err
    (tmp_path / "file").write_text("")
    code, _, err = run(capsys, "score", *TAC, "--report", str(tmp_path / "file" / "report"))
    assert code == 2 and "--report" in err
    bad_human = tmp_path / "human.tsv"
    bad_human.write_text("topic\tsystem\tq\nD0001-A\t1\tInfinity\n")
    code, _, err = run(capsys, "score", *TAC, "--report", str(tmp_path / "rep"), "--human", str(bad_human))
    assert code == 2 and "human.tsv:2" in err
    code, _, err = run(capsys, "score", *TAC, "--human", str(bad_human))
    assert code == 2 and "--report" in err


def test_an_empty_peer_file_is_an_empty_summary_not_the_end_of_the_run(capsys, tmp_path):
    # defect: TAC folders stopped on one empty peer file; an empty summary is scored, with a note
    models, peers = tmp_path / "models", tmp_path / "peers"
    models.mkdir()
    peers.mkdir()
    (models / "D1.M.100.A.A").write_text("Cats chase mice in the garden.")
    (peers / "D1.M.100.A.1").write_text("Cats chase mice.")
    (peers / "D1.M.100.A.2").write_text("")
    code, out, err = run(capsys, "score", "--models", str(models), "--peers", str(peers), "--format", "json")
    doc = strict(out)
    assert code == 0
    assert doc["summaries"][0]["scores"]["tesla-s"] > 0 and doc["summaries"][1]["scores"]["tesla-s"] == 0
    assert EMPTY_NOTE in doc["summaries"][1]["notes"]["tesla-s"]


def test_max_chars_turns_an_oversized_summary_into_an_error_record(capsys, tmp_path):
    rows = [{"topic": "t", "system": "a", "summary": "cats chase mice", "references": ["cats chase mice"]},
            {"topic": "t", "system": "b", "summary": "cats " * 100, "references": ["cats chase mice"]}]
    path = write_jsonl(tmp_path / "in.jsonl", rows)
    code, out, err = run(capsys, "score", "-i", str(path), "--format", "json", "--max-chars", "100")
    doc = strict(out)
    assert code == 1 and doc["summaries"][0]["scores"]["rouge-2"] == 1.0
    assert "too long (500 characters > 100" in doc["summaries"][1]["errors"]["rouge-2"]


def test_correlate_round_trip_reports_matched_pairs(capsys, tmp_path):
    scores = tmp_path / "scores.json"
    run(capsys, "score", *TAC, "-m", "tesla-s", "-m", "rouge-2", "--format", "json", "-o", str(scores))
    human = tmp_path / "human.tsv"
    quality = {"1": 5, "2": 1, "3": 2, "4": 3}
    human.write_text("topic\tsystem\tcontent\n" + "".join(
        f"D000{t}-A\t{s}\t{q + 0.1 * t}\n" for t in (1, 2, 3) for s, q in quality.items()))
    code, out, err = run(capsys, "correlate", "--scores", str(scores), "--human", str(human),
                         "--compare", "tesla-s", "rouge-2", "--bootstrap", "200", "--format", "json")
    assert code == 0 and "12 (topic, system) pairs matched" in err
    result = strict(out)
    assert result["correlations"]["system"]["content"]["tesla-s"]["kendall"]["value"] == pytest.approx(1.0)
    assert "tesla-s>rouge-2" in result["significance"]["item"]["content"]
    assert result["pairs"] == {"matched": 12, "only_scored": 0, "only_human": 0}
    code, out, _ = run(capsys, "correlate", "--scores", str(scores), "--human", str(human), "--bootstrap", "50")
    assert code == 0 and "tesla-s|ngrams:1+sb4|" in out.split("Signatures", 1)[1]


def test_correlate_says_what_did_not_match_and_strict_refuses(capsys, tmp_path):
    # defect: unmatched (topic, system) pairs were dropped without a word (5 of 12 matched)
    scores = tmp_path / "scores.json"
    run(capsys, "score", *TAC, "-m", "tesla-s", "--format", "json", "-o", str(scores))
    human = tmp_path / "human.tsv"
    human.write_text("topic\tsystem\tq\n" + "".join(f"D000{t}-A\t{s}\t{s + t}\n" for t in (1, 2) for s in (1, 2, 3))
                     + "D0009-A\t1\t2\n")
    code, out, err = run(capsys, "correlate", "--scores", str(scores), "--human", str(human), "--bootstrap", "20",
                         "--format", "json")
    assert code == 0 and strict(out)["pairs"] == {"matched": 6, "only_scored": 6, "only_human": 1}
    assert "6 (topic, system) pairs matched; 6 scored pairs without human scores (e.g. D0001-A/4)" in err
    code, out, err = run(capsys, "correlate", "--scores", str(scores), "--human", str(human), "--strict")
    assert code == 2 and out == "" and "--strict: 6 (topic, system) pairs matched; 6 scored pairs" in err


def test_correlate_counts_a_blank_judgment_as_missing_and_says_so(capsys, tmp_path):
    # defect: a row with a blank judgment cell was counted among the matched pairs
    scores = tmp_path / "scores.json"
    run(capsys, "score", *TAC, "-m", "rouge-2", "--format", "json", "-o", str(scores))
    human = tmp_path / "human.tsv"
    human.write_text("topic\tsystem\tq\n" + "".join(f"D000{t}-A\t{s}\t{s + t if s != 4 else ''}\n"
                                                    for t in (1, 2, 3) for s in (1, 2, 3, 4)))
    code, out, err = run(capsys, "correlate", "--scores", str(scores), "--human", str(human), "--bootstrap", "20",
                         "--format", "json")
    assert code == 0 and strict(out)["pairs"] == {"matched": 9, "only_scored": 3, "only_human": 0}
    assert f"{human}: 3 rows without a judgment (blank cells: missing judgments, not matched), e.g. {human}:5" in err


def test_correlate_explains_malformed_score_files(capsys, tmp_path):
    # defect: a score file of the wrong shape ended in a traceback
    human = tmp_path / "human.tsv"
    human.write_text("topic\tsystem\tq\nt\ts\t1\n")
    cases = {"notjson.json": ("{oops", "invalid JSON"),
             "list.json": ("[1, 2]", "no \"summaries\" list"),
             "nokey.json": (json.dumps({"summaries": [{"system": "s", "scores": {}}]}), "summary 1: needs \"topic\""),
             "text.json": (json.dumps({"summaries": [{"topic": "t", "system": "s", "scores": {"m": "high"}}]}),
                           "score m = 'high' is not a finite number")}
    for name, (text, message) in cases.items():
        (tmp_path / name).write_text(text)
        code, _, err = run(capsys, "correlate", "--scores", str(tmp_path / name), "--human", str(human))
        assert code == 2 and message in err and "Traceback" not in err, name




def test_report_with_human_scores(capsys, tmp_path):
    human = tmp_path / "human.tsv"
    quality = {"1": 5, "2": 1, "3": 2, "4": 3}
    human.write_text("topic\tsystem\toverall\n" + "".join(
        f"D000{t}-A\t{s}\t{q}\n" for t in (1, 2, 3) for s, q in quality.items()))
    code, _, err = run(capsys, "score", *TAC, "--report", str(tmp_path / "rep"), "--human", str(human))
    assert code == 0 and "report written" in err
    page = (tmp_path / "rep" / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 2 and "D0003-A" in page
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## Correlation with human scores" in md and "tesla-s|" in md
    assert "![system-level scatter plots](scatter.png)" in md
    assert (tmp_path / "rep" / "scatter.png").stat().st_size > 1000
    assert "[τ " in page  # correlation cells carry their bootstrap CI
    assert "## Significance clusters" in md and "### overall" in md and "| cluster | metric" in md
    assert "<h2 id='clusters'>Significance clusters</h2>" in page


def test_report_escapes_names(capsys, tmp_path):
    rows = [{"topic": "t1", "system": f"<b>s{k}</b>|x", "summary": f"the cat sat on mat {k}",
             "references": ["the cat sat on the mat"]} for k in range(2)]
    path = write_jsonl(tmp_path / "in.jsonl", rows)
    code, _, _ = run(capsys, "score", "--input", str(path), "-m", "rouge-1", "--report", str(tmp_path / "rep"))
    page = (tmp_path / "rep" / "report.html").read_text()
    assert code == 0 and "<b>s0</b>" not in page and "&lt;b&gt;s0&lt;/b&gt;" in page
    assert "<b>s0</b>\\|x" in (tmp_path / "rep" / "report.md").read_text()


def test_a_system_missing_topics_is_flagged_in_every_format(capsys, tmp_path):
    ref = "the council approved the budget for two new schools"
    rows = [{"topic": t, "system": "full", "summary": s, "references": [ref]}
            for t, s in (("t1", ref), ("t2", "a storm hit"), ("t3", "rain fell"))]
    rows.append({"topic": "t1", "system": "partial", "summary": "the council approved the budget", "references": [ref]})
    path = write_jsonl(tmp_path / "in.jsonl", rows)
    code, out, _ = run(capsys, "score", "-i", str(path), "-m", "tesla-s", "--format", "json")
    doc = strict(out)
    ranks = {s["system"]: s for s in doc["systems"]}
    assert code == 0 and ranks["full"]["rank"]["tesla-s"] == 1 and ranks["partial"]["rank"]["tesla-s"] is None
    assert ranks["partial"]["missing_topics"] == ["t2", "t3"] and ranks["partial"]["coverage"] == {"tesla-s": "1/3"}
    assert doc["ranking"]["tesla-s"] == {"topics": 3, "of": 3, "rule": "complete", "order": "higher is better",
                                         "unranked": ["partial"]}
    code, out, _ = run(capsys, "score", "-i", str(path), "-m", "tesla-s")
    assert "partial has no summary for 2 of 3 topics (t2, t3): not ranked" in out and "(-, 1/3 topics)" in out


def test_metric_all_runs_the_aesop_workflow_with_report(capsys, tmp_path):
    human = tmp_path / "human.tsv"
    human.write_text("topic\tsystem\tresponsiveness\n" + "".join(
        f"D000{t}-A\t{s}\t{5 - s}\n" for t in (1, 2, 3) for s in (1, 2, 3, 4)))
    out_file, report = tmp_path / "all.json", tmp_path / "report"
    code, _, err = run(capsys, "score", *TAC, "--metric", "all", "--format", "json", "-o", str(out_file),
                       "--report", str(report), "--human", str(human))
    assert code == 0, err
    doc = strict(out_file.read_text())
    names = {"tesla-s", "dicomer", "readability", "cremer", "cremer-lf", "cremer-rbf", "cremer-pf", "rouge-1",
             "rouge-2", "rouge-l", "rouge-su4"}
    assert set(doc["signature"]) == names
    assert all(set(s["scores"]) == names for s in doc["summaries"]) and len(doc["summaries"]) == 12
    assert "|model:" in doc["signature"]["cremer"]["short"]
    assert "|parser:gdtb-clf" in doc["signature"]["dicomer"]["short"]
    # DICOMER and CREMER carry what they define, never precision/recall/F
    components = doc["summaries"][0]["components"]
    assert set(components["dicomer"]) == {"log_score"}
    assert set(components["cremer-lf"]) == {"tesla_s", "tesla_s_z", "dicomer"}
    assert "tesla_s" in components["cremer"]
    assert set(components["cremer"]) <= {"tesla_s", "readability", "readability_z"}
    assert set(components["readability"]) == {"length", "grammaticality", "non-redundancy", "referential clarity",
                                              "structure", "focus"}
    ranks = {s["system"]: s["rank"] for s in doc["systems"]}
    assert ranks["1"]["cremer"] == ranks["1"]["cremer-lf"] == 1  # the close paraphrase is the most responsive
    html = (report / "report.html").read_text()
    assert "cremer" in html and "data:image/png;base64" in html and (report / "report.md").exists()


def test_metric_all_keeps_an_unscorable_summary_as_an_error_record(capsys, tmp_path):
    # an empty reference leaves nothing to score against (an empty summary is scored)
    ref = "The council approved the budget. It will fund two new schools next year."
    rows = [{"topic": "t", "system": "a", "summary": "The council approved the budget for new schools.",
             "references": [ref]},
            {"topic": "t", "system": "b", "summary": "The council met.", "references": ["   "]}]
    path = write_jsonl(tmp_path / "in.jsonl", rows)
    code, out, err = run(capsys, "score", "--input", str(path), "--format", "json", "--metric", "all")
    assert code == 1 and "1 of 2 summaries" in err
    doc = strict(out)
    assert len(doc["summaries"]) == 2
    assert set(doc["summaries"][1]["errors"]) == set(doc["signature"]) - {"dicomer", "readability"}
    assert "cremer" in doc["summaries"][0]["scores"]
    assert doc["systems"][1]["scores"]["tesla-s"] is None  # strict JSON: a missing mean is null


def _demo_human(tmp_path, skip=None):
    human = tmp_path / "human.tsv"
    human.write_text("topic\tsystem\tresponsiveness\n" + "".join(
        f"D000{t}-A\t{s}\t{5 - s + 0.1 * t}\n" for t in (1, 2, 3) for s in (1, 2, 3, 4) if (t, s) != skip))
    return human


def test_train_cremer_on_judged_tac_folders(capsys, tmp_path):
    from summeval.cremer.model import load_cremer

    code, out, err = run(capsys, "train", "cremer", *TAC, "--human", str(_demo_human(tmp_path)),
                         "--target", "responsiveness", "--kernel", "linear", "--out", str(tmp_path / "models"))
    assert code == 0, err
    model, info = load_cremer("linear", tmp_path / "models")
    assert info["n_summaries"] == 12 and info["target"].endswith(":responsiveness")
    assert "not trained on these summaries" in info["dicomer_training_values"] and info["licence"]
    code, out, err = run(capsys, "score", *TAC, "-m", "cremer-lf", "--cremer-models", str(tmp_path / "models"),
                         "--format", "json")
    assert code == 0, err
    doc = strict(out)
    assert f"model:{info['sha256'][:12]}" in doc["signature"]["cremer-lf"]["short"]
    assert {s["system"]: s["rank"]["cremer-lf"] for s in doc["systems"]}["1"] == 1


def test_train_cremer_names_a_summary_without_human_score(capsys, tmp_path):
    code, _, err = run(capsys, "train", "cremer", *TAC, "--human", str(_demo_human(tmp_path, skip=(2, 3))),
                       "--target", "responsiveness", "--out", str(tmp_path / "models"))
    assert code == 2 and "D0002-A.M.100.A.3" in err
    code, _, err = run(capsys, "train", "cremer", "--input", str(tmp_path / "x.jsonl"))
    assert code == 2 and "--human FILE is needed" in err
