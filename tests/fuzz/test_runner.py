"""The fuzzing machinery itself: in-process runs, saved cases and their replay."""

import json
import math
from typing import Any

import pytest
from hypothesis import strategies as st

from evalcore.metric import Item
from tests.fuzz import harness, run, targets
from tests.fuzz.harness import Checker, PropertyFailure, run_cli


def test_run_cli_catches_exit_and_keeps_an_escaped_exception(monkeypatch, tmp_path):
    out = run_cli("mteval", ["--version"])
    assert out.code == 0 and out.stdout.startswith("mteval ") and not out.exception

    def crash(argv):
        print("half a line", end="")
        raise RuntimeError("boom")

    monkeypatch.setattr(harness, "_main", lambda prog: crash)
    out = run_cli("mteval", ["score"])
    assert out.code is None and "RuntimeError: boom" in out.exception and out.stdout == "half a line"
    with pytest.raises(PropertyFailure, match=r"\[no-traceback\]"):
        Checker(tmp_path).run("mteval", ["score"])


def test_stdout_is_strict_utf8_as_a_real_pipe_is(monkeypatch):
    monkeypatch.setattr(harness, "_main", lambda prog: lambda argv: print("lone \udce9"))
    assert "UnicodeEncodeError" in run_cli("mteval", []).exception


def test_cases_round_trip_through_json():
    case: dict[str, Any] = {"metric": "bleu", "max_chars": None, "items": [
        Item("a \udce9", (b"\xff", None), id="x"),  # type: ignore[arg-type]  # wrong type on purpose
        ("refs", float("nan")), b"raw", {"a": (1, 2)}]}
    back = targets.from_json(json.loads(json.dumps(targets.to_json(case))))
    assert back["items"][0] == case["items"][0] and back["items"][2:] == case["items"][2:]
    assert back["items"][1][0] == "refs" and math.isnan(back["items"][1][1])


def test_failing_inputs_are_saved_and_replayed(monkeypatch, tmp_path):
    def check(case, workdir):
        harness.write(workdir, "input.txt", case["data"].encode())
        if case["data"] == "bad":
            raise PropertyFailure("toy-property", "bad input", [f"cat {workdir}/input.txt"])

    monkeypatch.setitem(targets.TARGETS, "toy", targets.Target("toy", st.nothing, check, "a toy target"))
    campaign = run.Campaign(tmp_path / "out", deadline=float("inf"))
    for data in ("good", "bad", "good"):
        campaign.try_case("toy", {"data": data})
    assert campaign.tried["toy"] == 3 and campaign.failed["toy", "toy-property"] == 1
    folder = tmp_path / "out" / "toy" / "toy-property-1"
    saved = json.loads((folder / "case.json").read_text())
    assert saved["commands"] == [f"cat {folder}/input.txt"] and (folder / "input.txt").read_text() == "bad"
    assert run.main(["--replay", str(folder)]) == 1
    saved["case"]["$dict"][0][1] = "good"
    (folder / "case.json").write_text(json.dumps(saved))
    assert run.main(["--replay", str(folder)]) == 0
