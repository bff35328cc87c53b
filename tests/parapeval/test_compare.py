"""`parapeval compare`: generators ranked with intervals, paired tests and clusters; the numbers
checked against sacrebleu's own paired tests on the same outputs and seed."""

import json
from pathlib import Path

import pytest

from parapeval.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "paraphrase-example"
SYSTEMS = ("copy.txt", "rewrite.txt", "unrelated.txt")


def _lines(name: str) -> list[str]:
    return (EXAMPLE / name).read_text(encoding="utf-8").splitlines()


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def _example(*extra: str) -> list[str]:
    return ["compare", "--originals", str(EXAMPLE / "originals.txt"), "--references", str(EXAMPLE / "references.txt"),
            "-i", *(str(EXAMPLE / s) for s in SYSTEMS), *extra]


def _table(doc: dict, metric: str) -> dict:
    return {r["system"]: r for r in doc["metrics"][metric]["systems"]}


def test_copy_gets_self_bleu_100_and_ranks_below_the_rewrite_on_ibleu(capsys):
    rc, out, _ = _run(capsys, *_example("-m", "self-bleu", "-m", "ibleu", "--paired-bs", "--format", "json"))
    doc = json.loads(out)
    assert rc == 0 and doc["inputs"] == 12
    assert _table(doc, "self-bleu")["copy.txt"]["value"] == pytest.approx(100)
    ibleu = _table(doc, "ibleu")
    assert ibleu["rewrite.txt"]["rank"] == 1 and ibleu["copy.txt"]["rank"] == 3
    assert ibleu["copy.txt"]["cluster"] > ibleu["rewrite.txt"]["cluster"]
    assert len(doc["metrics"]["ibleu"]["pairs"]) == 3


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_tests_and_intervals_agree_with_sacrebleu(capsys, monkeypatch, test):
    """Same outputs, same seed (12345): the bootstrap p-values and the mean of the resampled BLEU
    equal sacrebleu's (it sums float32 counts: 1e-6 relative); sacrebleu's interval is the 26th and
    975th of 1000 sorted values, ours numpy's interpolated 2.5 and 97.5 percentiles: half-widths
    within 5%. Approximate randomization draws its shuffles differently (sacrebleu asks numpy for
    booleans) and counts a shuffle that ties the observed difference (ours does, sacrebleu's ``>``
    does not; with 12 inputs and integer n-gram counts ties happen): its p-values agree within
    0.005 and on both sides of 0.05 and 0.01."""
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    rc, out, _ = _run(capsys, *_example("-m", "bleu", f"--paired-{test}", "--format", "json"))
    doc = json.loads(out)["metrics"]["bleu"]
    refs = [_lines("references.txt")]
    for a, b in (("copy.txt", "rewrite.txt"), ("copy.txt", "unrelated.txt"), ("rewrite.txt", "unrelated.txt")):
        _, theirs = PairedTest([(a, _lines(a)), (b, _lines(b))], {"bleu": BLEU()}, references=refs,
                               test_type=test, n_samples=0)()
        result = theirs["BLEU"][1]
        assert not isinstance(result, str) and result.p_value is not None  # sacrebleu's Result of system b
        ours = next(p for p in doc["pairs"] if p["a"] == a and p["b"] == b)
        assert ours["score_b"] == pytest.approx(result.score, rel=1e-9)
        if test == "bs":
            assert ours["p_value"] == pytest.approx(result.p_value, abs=1e-12)
            row = _table({"metrics": {"bleu": doc}}, "bleu")[b]
            assert row["mean"] == pytest.approx(result.mean, rel=1e-6)
            assert (row["ci_high"] - row["ci_low"]) / 2 == pytest.approx(result.ci, rel=0.05)
        else:
            assert abs(ours["p_value"] - result.p_value) <= 0.005
            assert all((ours["p_value"] < level) == (result.p_value < level) for level in (0.05, 0.01))


def test_a_system_missing_inputs_is_reported_and_left_out(tmp_path, capsys):
    rows = [{"id": str(k), "original": o, "paraphrase": p, "system": s, "references": [r]}
            for s, name in (("copy", "copy.txt"), ("rewrite", "rewrite.txt"))
            for k, (o, p, r) in enumerate(zip(_lines("originals.txt"), _lines(name), _lines("references.txt")))]
    rows = [r for r in rows if not (r["system"] == "rewrite" and r["id"] == "3")]
    path = tmp_path / "outputs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    rc, out, err = _run(capsys, "compare", "-i", str(path), "-m", "bleu", "--paired-bs", "--format", "json")
    doc = json.loads(out)
    rewrite = _table(doc, "bleu")["rewrite"]
    assert rc == 1 and "system rewrite has no output for 1 of 12 inputs" in err
    assert rewrite["missing"] == 1 and rewrite["complete"] is False and rewrite["ci_low"] is None
    assert "rewrite" in doc["metrics"]["bleu"]["left_out"] and not doc["metrics"]["bleu"]["pairs"]


def test_reference_metrics_without_references_are_refused_before_output(tmp_path, capsys):
    path = tmp_path / "outputs.jsonl"
    path.write_text(json.dumps({"original": "a b c", "paraphrase": "a c b", "system": "x"}) + "\n", encoding="utf-8")
    rc, out, err = _run(capsys, "compare", "-i", str(path), "-m", "ibleu")
    assert rc == 2 and out == "" and "read references" in err


@pytest.mark.parametrize("fmt", ["table", "tsv", "html"])
def test_every_format_ranks_the_systems(capsys, fmt):
    rc, out, err = _run(capsys, *_example("-m", "self-bleu", "--paired-ar", "--paired-n", "500", "--format", fmt))
    assert rc == 0 and "unrelated.txt" in out
    if fmt == "tsv":
        header, *body = out.splitlines()
        assert header.startswith("metric\tsystem\trank") and len(body) == 3 and "self-bleu|" in err
    if fmt == "html":
        assert out.startswith("<!DOCTYPE html>") and "self-bleu|" in out


def test_line_files_an_empty_last_output_is_scored_and_a_bad_line_is_an_error_not_missing(tmp_path, capsys):
    (tmp_path / "o.txt").write_bytes(b"the cat sat\nthe dog ran\n")
    (tmp_path / "empty.txt").write_bytes(b"a cat sat\n\n")
    (tmp_path / "bad.txt").write_bytes(b"a cat sat\n\xff\xfe dog\n")
    rc, out, err = _run(capsys, "compare", "--originals", str(tmp_path / "o.txt"), "-i", str(tmp_path / "empty.txt"),
                        str(tmp_path / "bad.txt"), "-m", "self-bleu", "--format", "json")
    rows = _table(json.loads(out), "self-bleu")
    assert rc == 1 and "bad.txt:2: self-bleu: not valid UTF-8" in err
    assert (rows["empty.txt"]["n"], rows["empty.txt"]["complete"]) == (2, True)
    assert (rows["bad.txt"]["errors"], rows["bad.txt"]["missing"], rows["bad.txt"]["complete"]) == (1, 0, False)


def test_tsv_with_references_and_a_repeated_input(tmp_path, capsys):
    path = tmp_path / "outputs.tsv"
    path.write_text("original\tparaphrase\tsystem\treferences\n"
                    "the cat sat\ta cat sat\tA\tthe cat was sitting\n"
                    "the cat sat\tthe cat sat\tB\tthe cat was sitting\n"
                    "the cat sat\tcats sat\tB\tthe cat was sitting\n", encoding="utf-8")
    rc, out, err = _run(capsys, "compare", "-i", str(path), "-m", "ibleu", "--format", "json")
    doc = json.loads(out)
    rows = _table(doc, "ibleu")
    assert rc == 1 and "duplicate input: outputs.tsv:3 has the same original" in err
    assert rows["A"]["complete"] and rows["B"]["n"] == 1 and rows["B"]["errors"] == 1


def test_ibleu_alpha_reaches_the_metric_and_its_signature(capsys):
    rc, out, _ = _run(capsys, *_example("-m", "ibleu", "--ibleu-alpha", "0.9", "--format", "json"))
    doc = json.loads(out)
    assert rc == 0 and doc["signature"]["ibleu"]["params"]["alpha"] == "0.9"


def test_copy_ranks_below_the_rewrite_on_pem_with_its_components(capsys):
    rc, out, _ = _run(capsys, *_example("-m", "pem", "--paired-bs", "--format", "json"))
    rows = _table(json.loads(out), "pem")
    assert rc == 0 and rows["rewrite.txt"]["rank"] == 1 and rows["copy.txt"]["rank"] == 2
    assert rows["copy.txt"]["components"]["target_ngram_f1"] == pytest.approx(1.0)
    assert rows["copy.txt"]["components"]["adequacy"] > rows["rewrite.txt"]["components"]["adequacy"]
