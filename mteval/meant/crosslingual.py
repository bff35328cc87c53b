"""What XMEANT reads beside the metric: the ITG filler similarity of an output x source block,
frames from another labeller's file (matched to a text by its characters without whitespace) and
saved lexical tables, each read once per file version."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import numpy as np

from mteval.srl.frames import FramedSentence


def xmeant_itg_similarity(sim: np.ndarray) -> float:
    """XMEANT's ITG filler similarity of an output x source block of p(e, f) values."""
    from mteval.meant.itg import XMEANT_WEIGHTS, inside_score

    return min(1.0, inside_score(sim, XMEANT_WEIGHTS).normalised)


def text_key(text: str) -> str:
    """How external frames are matched to a text: its characters without whitespace."""
    return "".join(text.split())


def file_digest(path: str) -> str:
    """Short content hash of a frames file ("none" without one): the signature's stand-in for a path."""
    if not path:
        return "none"
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


@functools.lru_cache(maxsize=8)
def external_frames(path: str, mtime: int) -> dict[str, FramedSentence]:
    """Another labeller's frames, by :func:`text_key` of their tokens (read once per file version)."""
    from mteval.srl.external import read_frames

    return {text_key("".join(s.tokens)): s for s in read_frames(path)}


@functools.lru_cache(maxsize=4)
def table_file(path: str, mtime: int):
    """A saved lexical table (read once per file version)."""
    from mteval.meant.lexsim import LexicalTable

    return LexicalTable.load(Path(path))
