"""MQM expert judgments (Freitag et al. 2021) in the layout of google/wmt-mqm-human-evaluation.

``*.avg_seg_scores.tsv``: a header ``system mqm_avg_score seg_id`` and rows of a system name, its
negated average MQM penalty (0 = no error; higher is better) and the 1-based segment id, ``None``
where the segment was not rated; the separators mix tabs and spaces upstream, so fields are split
on any whitespace. Rows named ``ref-*`` rate human references; ``metricsystem*`` rows have no
output text here.

- WMT21 newstest (``wmt21-mqm/``): texts in ``sources/``, ``references/`` and
  ``system-outputs/`` named ``newstest2021.<pair>.{src,ref.<X>,hyp.<system>}.<lang>``;
- WMT21 TED (``ted-mqm/``): no reference; the source and each system's output are read from the
  per-error file ``mqm_ted_ende.tsv`` (error spans marked ``<v>...</v>``, removed here).
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from pathlib import Path

from evalcore.io.textfiles import InputError, read_text
from mteval.data.testset import TestSet, load_testset

MqmScores = dict[tuple[str, int], float]  # (system, 1-based segment) -> score, rated rows only
#: names the MQM files give systems whose output files are named otherwise
MQM_ALIASES = {"Nemo": "NVIDIA-NeMo"}
NEWSTEST_PAIRS = {"en-de": "ende", "zh-en": "zhen"}
PREFIX = "newstest2021"


def read_avg_scores(path: Path) -> MqmScores:
    """Rated (system, segment) -> score of an ``avg_seg_scores.tsv`` file (``None`` rows skipped);
    a malformed row or a non-finite score is an InputError naming ``file:line``."""
    lines = read_text(path).split("\n")
    if not lines or lines[0].split() != ["system", "mqm_avg_score", "seg_id"]:
        raise InputError(f"{path}:1: expected the header 'system mqm_avg_score seg_id'")
    out: MqmScores = {}
    for number, line in enumerate(lines[1:], 2):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 3:
            raise InputError(f"{path}:{number}: expected system, score and segment id, got {len(fields)} fields")
        system, score, segment = fields
        try:
            key = (system, int(segment))
            value = None if score == "None" else float(score)
        except ValueError:
            raise InputError(f"{path}:{number}: score {score!r} or segment id {segment!r} is not a number") from None
        if value is None:
            continue
        if not math.isfinite(value):
            raise InputError(f"{path}:{number}: score {score!r} is not finite")
        if key in out:
            raise InputError(f"{path}:{number}: a second score for system {system!r}, segment {segment}")
        out[key] = value
    return out


def newstest_testset(root: Path, pair: str, reference: str = "A", with_references: bool = False) -> TestSet:
    """A WMT21 newstest pair below ``root`` (``wmt21-mqm`` or ``wmt21-en-zh``) scored against
    reference ``reference``; ``with_references`` adds every other reference as a system
    ``ref-<X>`` (the MQM files rate them too)."""
    src, tgt = pair.split("-")
    stem = f"{PREFIX}.{pair}."
    systems = {p.name[len(stem) + 4:-len(tgt) - 1]: p
               for p in (root / "system-outputs").glob(f"{stem}hyp.*.{tgt}")}
    ref_path = root / "references" / f"{stem}ref.{reference}.{tgt}"
    if with_references:
        for p in (root / "references").glob(f"{stem}ref.*.{tgt}"):
            if p != ref_path:
                systems[f"ref-{p.name[len(stem) + 4:-len(tgt) - 1]}"] = p
    return load_testset(pair, root / "sources" / f"{stem}src.{src}", [ref_path], systems)


def newstest_scores(root: Path, pair: str) -> MqmScores:
    """The MQM scores of a WMT21 newstest pair, system names as the output files spell them."""
    if pair not in NEWSTEST_PAIRS:
        raise InputError(f"no MQM scores for {pair!r}; choose from {', '.join(NEWSTEST_PAIRS)}")
    scores = read_avg_scores(root / "scores" / f"mqm_{PREFIX}_{NEWSTEST_PAIRS[pair]}.avg_seg_scores.tsv")
    return {(MQM_ALIASES.get(s, s), seg): v for (s, seg), v in scores.items()}


@dataclass(frozen=True)
class TedSegments:
    """TED talk segments rated by MQM: per (system, segment), the source and the system's output."""

    source: dict[int, str]
    outputs: dict[tuple[str, int], str]
    scores: MqmScores


_SPAN = re.compile(r"</?v>")


def read_ted(root: Path) -> TedSegments:
    """The WMT21 TED en-de MQM set below ``root`` (``ted-mqm``): texts from the per-error file,
    scores from the per-segment averages (the reference, ``ref`` there, is ``ref-A`` here)."""
    path = root / "mqm_ted_ende.tsv"
    rows = csv.DictReader(read_text(path).split("\n"), delimiter="\t", quoting=csv.QUOTE_NONE)
    source: dict[int, str] = {}
    outputs: dict[tuple[str, int], str] = {}
    for line, row in enumerate(rows, 2):
        if row.get("target") is None or row.get("seg_id") is None:
            raise InputError(f"{path}:{line}: expected system, seg_id, source and target columns")
        try:
            segment = int(row["seg_id"])
        except ValueError:
            raise InputError(f"{path}:{line}: seg_id {row['seg_id']!r} is not a number") from None
        system = "ref-A" if row["system"] == "ref" else row["system"]
        source.setdefault(segment, row["source"])
        outputs.setdefault((system, segment), _SPAN.sub("", row["target"]))
    scores = read_avg_scores(root / "mqm_ted_ende.avg_seg_scores.tsv")
    return TedSegments(source, outputs, scores)
