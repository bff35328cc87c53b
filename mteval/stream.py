"""`mteval stream`: the tuning mode. A MERT-style tuner writes candidates on stdin, one a line
(``SEGMENT_ID<TAB>candidate``, the id being the 1-based line of the reference files; or the
candidate alone with ``--ids implicit``, Z-MERT-like, the input line number being the id), and
reads one answer a line on stdout, written and flushed as soon as its candidate is read.

References are read and prepared once at start-up: every reference set is scored once against
its own first reference, which tags, lemmatises and encodes each reference (TESLA's text caches
and bags) before the first candidate arrives, so a candidate costs its own preparation and the
matching only. The answer is the sentence score, or with ``--stats`` the metric's sufficient
statistics: sacrebleu's segment statistics for BLEU/chrF/TER (corpus score from their sums), the
six F-measures for TESLA-M (its corpus score is the mean of sentence scores, each the mean of
the defined F; an undefined F is ``nan``), the score's components otherwise. A bad line (no tab,
unknown id, empty or undecodable candidate, a reference line that cannot be read) is answered by
an error line naming the input line, and the stream goes on.
"""

from __future__ import annotations

import codecs
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import BinaryIO, TextIO

from evalcore.io.textfiles import arriving_lines, undecodable
from evalcore.metric import InputLimits, Item, Metric, Score
from mteval.io import Segments

ERROR = "ERROR"
ID_MODES = ("explicit", "implicit")


def _number(value: float) -> str:
    """Whole numbers (counts) without a decimal point, others at full precision, NaN as ``nan``."""
    value = float(value)
    if not math.isfinite(value):
        return "nan"
    return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)


@dataclass
class Streamer:
    """One metric against fixed references, answering candidate lines one at a time."""

    metric: Metric
    references: Sequence[Segments]
    stats: bool = False
    ids: str = "explicit"
    limits: InputLimits | None = None

    def __post_init__(self) -> None:
        if self.ids not in ID_MODES:
            raise ValueError(f"--ids must be one of {', '.join(ID_MODES)}, got {self.ids!r}")
        self.names = self.metric.statistic_names() if self.stats else None
        self._refs: dict[int, tuple[str, ...] | str] = {}
        for k in range(len(self.references[0])):
            bad = [r.errors[k] for r in self.references if k in r.errors]
            self._refs[k + 1] = "; ".join(bad) if bad else tuple(r.text(k) for r in self.references)

    def prepare(self) -> None:
        """Prepare every readable reference set once (each scored against its first reference)."""
        items = [Item(refs[0], refs, id=f"reference {k}") for k, refs in self._refs.items() if isinstance(refs, tuple)]
        if items:
            self.metric.score_batch(items, self.limits)

    def answer(self, raw: bytes, number: int) -> str:
        """The answer line (no newline) to input line ``number`` (``raw``: its bytes, no line end)."""
        where = f"stdin:{number}"
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return f"{ERROR}\t{undecodable(where, raw, exc)}"
        if self.ids == "implicit":
            seg_id, candidate = str(number), text
        else:
            seg_id, tab, candidate = text.partition("\t")
            if not tab:
                return (f"{ERROR}\t{where}: expected SEGMENT_ID<TAB>candidate "
                        "(no tab; --ids implicit reads candidates alone)")
        seg_number = segment_number(seg_id)
        refs = self._refs.get(seg_number) if seg_number is not None else None
        if refs is None:
            return f"{ERROR}\t{where}: unknown segment id {seg_id!r} (the references have lines 1-{len(self._refs)})"
        if isinstance(refs, str):
            return f"{ERROR}\t{where}: segment {seg_id.strip()}: {refs}"
        result = self.metric.score_batch([Item(candidate, refs, id=where)], self.limits)[0]
        if not result.ok:
            return f"{ERROR}\t{result}"
        return f"{seg_id.strip()}\t{self.render(result)}"

    def render(self, score: Score) -> str:
        """The sentence score, or the sufficient statistics separated by spaces."""
        if not self.stats:
            return _number(score.value)
        names = self.names or tuple(score.components)
        return " ".join(_number(score.components.get(n, math.nan)) for n in names)

    def run(self, lines: Iterable[bytes], out: TextIO) -> tuple[int, int]:
        """Answer every line, flushing each answer; (error lines, lines read)."""
        errors = number = 0
        for number, raw in enumerate(lines, start=1):
            line = self.answer(raw, number)
            errors += line.startswith(ERROR)
            out.write(line + "\n")
            out.flush()
        return errors, number


def segment_number(text: str) -> int | None:
    """The segment id ``text`` names (decimal digits, spaces around allowed); None when it names
    none, a number of more digits than ``int`` reads included."""
    digits = text.strip()
    if not digits.isdecimal():
        return None
    try:
        return int(digits)
    except ValueError:  # more than sys.get_int_max_str_digits() digits: no line has that number
        return None


def read_lines(stream: BinaryIO) -> Iterator[bytes]:
    """Lines of a binary stream as they arrive, by the input rule's line ends (LF, CRLF, CR;
    :func:`~evalcore.io.textfiles.arriving_lines`), never a read to the end. A UTF-8 byte-order
    mark opening the stream is dropped, as the input rule drops it from every file
    (``printf '\\xef\\xbb\\xbf1\\t...'``, a Windows tool's output, names segment 1)."""
    for number, line in enumerate(arriving_lines(stream)):
        yield line.removeprefix(codecs.BOM_UTF8) if number == 0 else line
