"""`parapeval correlate`: metrics against Twitter-Para's human scores by meta-evaluate's leaderboard."""

import json

import pytest

from evalcore.resources.registry import ResourceError
from parapeval.cli import main
from parapeval.correlate import read_set

try:
    TWEETS = read_set("twitter-para", None, 25)
except ResourceError:
    TWEETS = []

needs_data = pytest.mark.skipif(not TWEETS, reason="needs ../shared/data/paraphrase (Twitter-Para)")


@needs_data
def test_leaderboard_reads_lower_is_better_metrics_negated(capsys):
    rc = main(["correlate", "--max-inputs", "25", "-m", "self-bleu", "-m", "bleu", "-n", "200", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    rows = {r["metric"]: r for r in doc["metrics"]}
    assert rc == 0 and set(rows) == {"-self-bleu", "bleu"}
    assert doc["settings"]["level"] == "global" and doc["settings"]["resample"] == "inputs"
    assert doc["n_inputs"] == 25 and all(r["ci_low"] <= r["value"] <= r["ci_high"] for r in rows.values())
    assert any("negated" in n for n in doc["notes"])


@needs_data
def test_every_judged_pair_is_a_cell():
    assert len({(j.system, j.input) for j in TWEETS}) == len(TWEETS) and all(j.references for j in TWEETS)


def test_reference_metrics_on_sts_b_are_refused(capsys, monkeypatch):
    from parapeval import correlate
    from parapeval.correlate import Judged

    monkeypatch.setattr(correlate, "read_set", lambda *a: [Judged("pair1", "pair", "a b", "a c", (), 1.0)])
    rc = main(["correlate", "--set", "sts-b", "-m", "bleu"])
    err = capsys.readouterr().err
    assert rc == 2 and "read references" in err
