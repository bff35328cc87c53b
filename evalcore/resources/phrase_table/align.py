"""Word alignment in both directions with eflomal (PyPI, GPL-3, used as a dependency), run as its
seeded build (:mod:`.seeded_eflomal`) so that the same bitext and seed give the same alignments on
every machine.

eflomal's Python package writes the input files; the iteration counts and arguments are those of
``eflomal.Aligner.align`` (eflomal 2.0), with the seed passed in ``$EFLOMAL_SEED``.
"""

from __future__ import annotations

import math
import os
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from evalcore.resources.phrase_table.seeded_eflomal import SEED_ENV, eflomal_version, seeded_binary
from evalcore.resources.registry import ResourceError

Alignment = set[tuple[int, int]]
#: the sampler seed of every alignment the suite makes (tables, XMEANT's lexical tables)
ALIGNMENT_SEED = 20100701
#: eflomal's defaults (Aligner): samplers per direction, null-alignment prior
N_SAMPLERS = 3
NULL_PRIOR = 0.2


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


def iterations(n_sentences: int, model: int = 3) -> tuple[int, int, int]:
    """eflomal's automatic iteration counts (IBM1, HMM, fertility) for a bitext of this size."""
    iters = max(2, int(round(5000 / math.sqrt(n_sentences))))
    iters4 = max(1, iters // 4)
    return {1: (iters, 0, 0), 2: (max(2, iters4), iters, 0)}.get(model, (max(2, iters4), iters4, iters))


def aligner_signature(seed: int = ALIGNMENT_SEED, model: int = 3) -> str:
    """The alignment settings as signature text: eflomal version, model, samplers, seed."""
    return f"eflomal-{eflomal_version()}-m{model}-n{N_SAMPLERS}-seed{seed}"


def align_both_ways(e_sents: Sequence[Sequence[str]], f_sents: Sequence[Sequence[str]],
                    model: int = 3, seed: int = ALIGNMENT_SEED) -> tuple[list[Alignment], list[Alignment]]:
    """(English->pivot, pivot->English) alignments, both as (English index, pivot index) points."""
    try:
        import eflomal
    except ImportError as exc:
        raise ResourceError("eflomal is not installed: pip install 'aesop-eval[pem]'") from exc
    if len(e_sents) != len(f_sents):
        raise ValueError(f"bitext sides differ in length: {len(e_sents)} vs {len(f_sents)} sentences")
    if seed <= 0:
        raise ValueError(f"the alignment seed must be a positive integer, got {seed}")
    binary = seeded_binary()
    with tempfile.TemporaryDirectory(prefix="aesop-align-") as tmp:
        src, trg = Path(tmp, "src"), Path(tmp, "trg")
        fwd, rev = Path(tmp, "fwd"), Path(tmp, "rev")
        with src.open("wb") as srcf, trg.open("wb") as trgf:
            eflomal.Aligner(model=model).prepare_files([" ".join(s) for s in e_sents], srcf,
                                                       [" ".join(s) for s in f_sents], trgf, None, None)
        n1, n2, n3 = iterations(len(e_sents), model)
        args = [str(binary), "-m", str(model), "-s", str(src), "-t", str(trg), "-n", str(N_SAMPLERS),
                "-N", str(NULL_PRIOR), "-1", str(n1), "-q", "-f", str(fwd), "-r", str(rev)]
        args += (["-2", str(n2)] if model >= 2 else []) + (["-3", str(n3)] if model >= 3 else [])
        proc = subprocess.run(args, env={**os.environ, SEED_ENV: str(seed)}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"eflomal failed (exit {proc.returncode}): {proc.stderr.strip()[-600:]}")
        return _read_links(fwd, len(e_sents)), _read_links(rev, len(e_sents))
