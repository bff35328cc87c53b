"""The judged sets ``readability`` is trained and tested on, leaving one set out at a time:
each set's texts, its inputs (the texts people compared), its readability dimensions and licence.

- ``summeval``: 16 systems x 100 CNN/DailyMail documents, expert coherence and fluency (1-5);
- ``dialsummeval``: 13 systems x 100 SAMSum dialogues, coherence and fluency (1-5; non-commercial);
- ``webnlg``: 16 systems x 178 RDF inputs, fluency and text structure (0-100; non-commercial).

A set's ``readability`` target is the mean of its dimensions, each standardised within the set.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from evalcore.data.records import SummaryItem

SETS = ("summeval", "dialsummeval", "webnlg")
#: sets whose licence lets a model trained on them ship by default
OPEN_SETS = ("summeval",)


@dataclass(frozen=True)
class JudgedSet:
    """One judged set: items (topic = the input people compared texts of), the readability
    dimensions of its human scores, and the licence of a model trained on it."""

    name: str
    items: tuple[SummaryItem, ...]
    dimensions: tuple[str, ...]
    licence: str

    @property
    def texts(self) -> list[str]:
        return [i.summary for i in self.items]

    @property
    def topics(self) -> np.ndarray:
        return np.array([i.topic for i in self.items])

    @property
    def systems(self) -> np.ndarray:
        return np.array([i.system for i in self.items])

    def human(self, dimension: str) -> np.ndarray:
        """The human scores of ``dimension``, or ``readability``: the mean of the set's
        dimensions, each standardised within the set."""
        if dimension != "readability":
            return np.array([i.human[dimension] for i in self.items], float)
        columns = [self.human(d) for d in self.dimensions]
        return np.mean([(c - c.mean()) / c.std() for c in columns], axis=0)


def load_set(name: str, data_root: str | Path) -> JudgedSet:
    """The judged set ``name`` of :data:`SETS` under the shared data root (``../shared/data``)."""
    root = Path(data_root)
    if name == "summeval":
        from evalcore.data.summeval import read_summeval

        items = read_summeval(root / "summeval" / "summeval_16sys_mean_expert.json")
        return JudgedSet(name, tuple(items), ("coherence", "fluency"),
                         "SummEval expert annotations (MIT) over CNN/DailyMail summaries")
    if name == "dialsummeval":
        from evalcore.data.dialsummeval import LICENCE, read_dialsummeval

        return JudgedSet(name, read_dialsummeval(root / "dialsummeval").items, ("coherence", "fluency"), LICENCE)
    if name == "webnlg":
        from evalcore.data.webnlg import LICENCE as WEBNLG_LICENCE
        from evalcore.data.webnlg import read_webnlg

        return JudgedSet(name, tuple(read_webnlg(root / "webnlg2020-humeval")), ("fluency", "text_structure"),
                         WEBNLG_LICENCE)
    raise ValueError(f"unknown judged set {name!r}; known: {', '.join(SETS)}")
