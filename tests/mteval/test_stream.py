"""`mteval stream`, driven as a tuner drives it: one candidate written, its answer read, then the
next (so an answer that waited for more input or for the end of input would hang the test);
values equal `mteval score --segments`; bad lines answered with an error line naming them."""

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

from mteval.baselines.metric import Bleu
from mteval.cli import main
from mteval.io import read_segments
from mteval.stream import Streamer

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo" / "mt"
REFS = [str(DEMO / "ref.A.en"), str(DEMO / "ref.B.en")]
HYP = DEMO / "system-a.en"


def _segment_scores(metric: str, tmp_path) -> list[dict]:
    out = tmp_path / "scores.json"
    assert main(["score", "-r", REFS[0], "-r", REFS[1], "-i", str(HYP), "-m", metric, "--segments",
                 "--format", "json", "-o", str(out)]) == 0
    rows = json.loads(out.read_text())["segments"]
    return [{"value": r["scores"][metric], "components": r.get("components", {}).get(metric, {})} for r in rows]


class Tuner:
    """A tuner's side of the pipe: write one line, read one answer."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "mteval.cli", "stream", "-r", REFS[0], "-r", REFS[1],
                                      *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    @staticmethod
    def _pipe(stream: IO[bytes] | None) -> IO[bytes]:
        assert stream is not None, "every stream is opened as a pipe"
        return stream

    def ask(self, line: bytes) -> str:
        stdin, stdout = self._pipe(self.proc.stdin), self._pipe(self.proc.stdout)
        stdin.write(line + b"\n")
        stdin.flush()
        return stdout.readline().decode("utf-8").rstrip("\n")

    def close(self) -> tuple[int, str]:
        self._pipe(self.proc.stdin).close()
        rest = self._pipe(self.proc.stdout).read()
        assert rest == b""  # every answer was already read, one per line
        err = self._pipe(self.proc.stderr).read().decode("utf-8")
        return self.proc.wait(timeout=60), err


@pytest.mark.parametrize("metric", ["tesla-m", "bleu"])
def test_answers_one_line_at_a_time_equal_to_score_segments(metric, tmp_path):
    expected = _segment_scores(metric, tmp_path)
    hyps = HYP.read_text("utf-8").splitlines()
    tuner = Tuner("-m", metric)
    for k in reversed(range(len(hyps))):  # any order: the id picks the references
        seg_id, value = tuner.ask(f"{k + 1}\t{hyps[k]}".encode()).split("\t")
        assert seg_id == str(k + 1)
        assert float(value) == pytest.approx(expected[k]["value"], abs=1e-12)
    rc, err = tuner.close()
    assert rc == 0 and err.startswith(metric + "|")


def test_stats_are_the_sufficient_statistics(tmp_path):
    hyps = HYP.read_text("utf-8").splitlines()
    for metric, names in (("bleu", ["sys_len", "ref_len", *(f"correct_{n}" for n in range(1, 5)),
                                    *(f"total_{n}" for n in range(1, 5))]),
                          ("tesla-m", ["ms1", "ms2", "ms3", "pos1", "pos2", "pos3"])):
        expected = _segment_scores(metric, tmp_path)
        tuner = Tuner("-m", metric, "--stats")
        for k in (0, 3):
            stats = [float(x) for x in tuner.ask(f"{k + 1}\t{hyps[k]}".encode()).split("\t")[1].split(" ")]
            assert len(stats) == len(names)
            for name, value in zip(names, stats):
                want = expected[k]["components"].get(name, math.nan)
                assert value == pytest.approx(want, abs=1e-12, nan_ok=True)
            if metric == "tesla-m":  # the sentence score is the mean of the defined F-measures
                defined = [v for v in stats if not math.isnan(v)]
                assert sum(defined) / len(defined) == pytest.approx(expected[k]["value"], abs=1e-12)
        rc, err = tuner.close()
        assert rc == 0 and "statistics: " + " ".join(names) in err


def test_bad_lines_get_error_lines_naming_them_and_the_stream_goes_on():
    tuner = Tuner("-m", "bleu")
    assert tuner.ask(b"no tab here").startswith("ERROR\tstdin:1: expected SEGMENT_ID<TAB>candidate")
    assert tuner.ask(b"99\tsome words") == "ERROR\tstdin:2: unknown segment id '99' (the references have lines 1-8)"
    assert tuner.ask(b"x\tsome words").startswith("ERROR\tstdin:3: unknown segment id 'x'")
    assert tuner.ask(b"2\t\xff\xfe bad").startswith("ERROR\tstdin:4: not valid UTF-8")
    assert tuner.ask(b"2\tHeavy rain closed roads.").startswith("2\t")
    rc, err = tuner.close()
    assert rc == 1 and "4 of 5 candidate lines could not be scored" in err


def test_an_empty_candidate_is_answered_with_the_value_score_gives_it():
    """A tuner's n-best list may hold an empty hypothesis: it is a translation (BLEU 0), as in
    ``mteval score``, not an error."""
    tuner = Tuner("-m", "bleu")
    seg_id, value = tuner.ask(b"2\t  ").split("\t")
    assert seg_id == "2" and float(value) == 0.0
    rc, _ = tuner.close()
    assert rc == 0


def test_an_id_of_more_digits_than_int_reads_is_an_unknown_id_and_the_stream_goes_on(tmp_path):
    streamer = Streamer(Bleu(), [read_segments(REFS[0])])
    huge = "9" * 5000
    assert streamer.answer(f"{huge}\tsome words".encode(), 1).startswith("ERROR\tstdin:1: unknown segment id '999")
    assert streamer.answer(b"2\tHeavy rain closed roads.", 2).startswith("2\t")


def test_implicit_ids_are_input_line_numbers():
    hyps = HYP.read_text("utf-8").splitlines()
    tuner = Tuner("-m", "chrf", "--ids", "implicit")
    answers = [tuner.ask(h.encode()) for h in hyps[:3]]
    assert [a.split("\t")[0] for a in answers] == ["1", "2", "3"]
    assert tuner.close()[0] == 0


def test_references_are_prepared_once_at_start_up(monkeypatch):
    from mteval.lexical import preprocess
    from mteval.tesla.metric import TeslaM

    prep = preprocess.Preparer("en")
    monkeypatch.setattr(preprocess, "preparer", lambda language="en": prep)
    monkeypatch.setattr("mteval.tesla.metric.preparer", lambda language="en": prep)
    tagged: list[str] = []
    tokens = prep._tokens

    def tagging(texts: list[str]) -> list[list[preprocess.Token]]:
        tagged.extend(texts)
        return tokens(texts)

    monkeypatch.setattr(prep, "_tokens", tagging)
    refs = [read_segments(p) for p in REFS]
    streamer = Streamer(TeslaM(), refs)
    streamer.prepare()
    assert set(tagged) == set(refs[0].lines) | set(refs[1].lines)
    tagged.clear()
    hyps = HYP.read_text("utf-8").splitlines()
    for k, h in enumerate(hyps):
        assert not streamer.answer(f"{k + 1}\t{h}".encode(), k + 1).startswith("ERROR")
    assert tagged == hyps  # the candidates only: no reference is tagged again


def test_unreadable_reference_line_is_named(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_bytes(b"a good line\n\nanother line\n")
    streamer = Streamer(Bleu(), [read_segments(ref)])
    streamer.prepare()
    assert streamer.answer(b"2\tsome words", 1) == f"ERROR\tstdin:1: segment 2: {ref}:2: empty line"
    assert streamer.answer(b"3\tanother line", 2).startswith("3\t")


def test_unusable_references_stop_before_any_candidate(tmp_path, capsys):
    short = tmp_path / "short.en"
    short.write_text("one line\n")
    assert main(["stream", "-r", REFS[0], "-r", str(short), "-m", "bleu"]) == 2
    assert "files must align line by line" in capsys.readouterr().err
    assert main(["stream", "-r", str(tmp_path / "missing.en"), "-m", "bleu"]) == 2
    assert "-r " + str(tmp_path / "missing.en") + ": no such file" in capsys.readouterr().err
    assert main(["stream", "-r", REFS[0], "-m", "no-such-metric"]) == 2


def test_stats_come_from_the_metric_in_the_order_it_declares():
    """The stream asks any metric for its statistics (``statistic_names``), never its type."""
    from evalcore.metric import ReferenceMetric, Score
    from mteval.io import Segments

    class Counts(ReferenceMetric):
        name = "counts"

        def statistic_names(self):
            return ("ref_words", "cand_words", "absent")

        def _score_items(self, items):
            return [Score(1.0, {"cand_words": float(len(it.candidate.split())),
                                "ref_words": float(len(it.references[0].split()))}) for it in items]

    streamer = Streamer(Counts(), [Segments("ref", ("the cat sat",), {})], stats=True)
    assert streamer.answer(b"1\ta cat", 1) == "1\t3 2 nan"


@pytest.mark.parametrize("ids", ["explicit", "implicit"])
def test_a_byte_order_mark_opening_standard_input_is_dropped(ids):
    """A UTF-8 BOM before the first line (a Windows tool's output) does not become part of the
    segment id: it was ``ERROR unknown segment id '\\ufeff1'``."""
    line = b"Heavy rain closed roads." if ids == "implicit" else b"1\tHeavy rain closed roads."
    answers = []
    for bom in (b"\xef\xbb\xbf", b""):
        tuner = Tuner("-m", "bleu", "--ids", ids)
        answers.append(tuner.ask(bom + line))
        rc, err = tuner.close()
        assert rc == 0, err
    assert answers[0] == answers[1] and answers[0].startswith("1\t")
