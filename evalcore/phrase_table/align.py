"""Word alignment in both directions with eflomal (PyPI, GPL-3, used as a dependency).

eflomal's Gibbs sampler has no seed option, so alignments (and tables) can differ slightly
between builds; the table signature names the bitext hash and settings, not the sample.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from evalcore.resources import ResourceError

Alignment = set[tuple[int, int]]


def _read_links(path: Path, n: int) -> list[Alignment]:
    lines = path.read_text("utf-8").splitlines()
    lines += [""] * (n - len(lines))
    out = []
    for line in lines[:n]:
        points = set()
        for link in line.split():
            e, f = link.split("-")
            points.add((int(e), int(f)))
        out.append(points)
    return out


def align_both_ways(e_sents: Sequence[Sequence[str]], f_sents: Sequence[Sequence[str]],
                    model: int = 3) -> tuple[list[Alignment], list[Alignment]]:
    """(English->pivot, pivot->English) alignments, both as (English index, pivot index) points."""
    try:
        import eflomal
    except ImportError as exc:
        raise ResourceError("eflomal is not installed: `pip install eflomal` (what `make setup` does)") from exc
    if len(e_sents) != len(f_sents):
        raise ValueError(f"bitext sides differ in length: {len(e_sents)} vs {len(f_sents)} sentences")
    aligner = eflomal.Aligner(model=model)
    with tempfile.TemporaryDirectory(prefix="aesop-align-") as tmp:
        fwd, rev = Path(tmp, "fwd"), Path(tmp, "rev")
        aligner.align([" ".join(s) for s in e_sents], [" ".join(s) for s in f_sents],
                      links_filename_fwd=str(fwd), links_filename_rev=str(rev), quiet=True)
        return _read_links(fwd, len(e_sents)), _read_links(rev, len(e_sents))
