"""The score-JSON reader behind every correlate command: rows by key, refused shapes named."""

import json

import pytest

from evalcore.data.scores import read_score_json
from evalcore.io.textfiles import InputError

KEYS = {"system": str, "line": int}


def _read(tmp_path, doc):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc, "utf-8")
    return read_score_json(path, "mteval score --format json --segments", "segments", "segment", KEYS,
                           hint="score with --segments")


def test_rows_by_key_with_components_and_signatures(tmp_path):
    rows, signatures = _read(tmp_path, {"signature": {"bleu": {"short": "bleu|x"}}, "segments": [
        {"system": "a", "line": 1, "scores": {"bleu": 30, "ter": None}, "components": {"bleu": {"len": 4}}},
        {"system": "a", "line": 2, "scores": {}}]})
    assert rows[("a", 1)].scores == {"bleu": 30.0} and rows[("a", 1)].components == {"bleu": {"len": 4}}
    assert rows[("a", 2)].scores == {} and signatures == {"bleu": {"short": "bleu|x"}}


@pytest.mark.parametrize("doc, message", [
    ("{oops", "invalid JSON at line 1"),
    ({"summaries": []}, 'no "segments" list: score with --segments'),
    ({"segments": [{"system": "a", "line": 1, "scores": {}}, {"system": "a", "line": 1, "scores": {}}]},
     "segment 2: duplicate scores for system 'a', line 1"),
    ({"segments": [{"system": "a", "line": "one", "scores": {}}]},
     "segment 1: needs \"system\" and \"line\" (line must"),
    ({"segments": [{"system": "a", "line": 1, "scores": {"bleu": "high"}}]}, "score bleu = 'high' is not a finite"),
    ('{"segments": [{"system": "a", "line": 1, "scores": {"bleu": Infinity}}]}', "score bleu = inf is not a finite"),
    ({"segments": [{"system": "a", "line": 1, "scores": {"bleu": 1}, "components": [1]}]}, '"components" must be'),
])
def test_malformed_files_are_input_errors_naming_the_row(tmp_path, doc, message):
    with pytest.raises(InputError, match="s.json") as exc:
        _read(tmp_path, doc)
    assert message in str(exc.value)
