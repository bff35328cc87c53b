"""MEANT's role classes and their weights: PropBank and HMEANT labels mapped to the 11 SSST-6
role types, equal weights, and UMEANT's unsupervised weights from role counts (SSST-6 2012)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mteval.srl.frames import FramedSentence

#: the 11 role types of the 12 weights (w_pred + one per type) [decision: spec 8.1]
ROLE_CLASSES = ("agent", "experiencer", "benefactive", "temporal", "locative", "purpose", "manner", "extent",
                "modal", "negation", "other")
#: PropBank labels -> role type [decision: ARG0-2 as Lo & Wu's tables name them (Agent, Experiencer,
#: Benefactive); ARGM-CAU with purpose ("why"); ARG3-5 and the other modifiers are "other"]
PROPBANK_CLASS = {"ARG0": "agent", "ARG1": "experiencer", "ARG2": "benefactive", "ARGM-TMP": "temporal",
                  "ARGM-LOC": "locative", "ARGM-PRP": "purpose", "ARGM-PNC": "purpose", "ARGM-CAU": "purpose",
                  "ARGM-MNR": "manner", "ARGM-EXT": "extent", "ARGM-MOD": "modal", "ARGM-NEG": "negation"}
#: the HMEANT annotation labels of Birch et al. (WMT 2013) -> role type
HMEANT_CLASS = {"AGENT": "agent", "EXPERIENCER-PATIENT": "experiencer", "BENEFICIARY": "benefactive",
                "TEMPORAL": "temporal", "LOCATIVE": "locative", "PURPOSE": "purpose", "MANNER": "manner",
                "DEGREE-EXTENT": "extent", "MODAL": "modal", "NEGATION": "negation", "OTHER": "other"}


def role_class(label: str) -> str:
    """The role type of a PropBank label (``C-``/``R-`` prefixes dropped) or an HMEANT label."""
    core = label.upper()
    for prefix in ("C-", "R-"):
        core = core.removeprefix(prefix)
    return PROPBANK_CLASS.get(core) or HMEANT_CLASS.get(core) or "other"


@dataclass(frozen=True)
class RoleWeights:
    """w_pred and one weight per role type (in :data:`ROLE_CLASSES` order). Frame scores are ratios
    of weighted sums, so only the weights' proportions matter."""

    pred: float
    roles: tuple[float, ...]
    source: str

    def __post_init__(self):
        if len(self.roles) != len(ROLE_CLASSES):
            raise ValueError(f"need {len(ROLE_CLASSES)} role weights, got {len(self.roles)}")
        if min(self.pred, *self.roles) < 0 or self.pred + sum(self.roles) <= 0:
            raise ValueError("role weights must be non-negative and not all zero")

    def of(self, role: str) -> float:
        """The weight of a role type."""
        return self.roles[ROLE_CLASSES.index(role)]

    def describe(self) -> str:
        """Where the weights come from and their values (3 decimals, pred first) for signatures."""
        return f"{self.source}:" + ",".join(f"{w:.3g}" for w in (self.pred, *self.roles))


def equal_weights() -> RoleWeights:
    """Every role type and the predicate weigh the same."""
    return RoleWeights(1.0, (1.0,) * len(ROLE_CLASSES), "equal")


def count_roles(sentences: Iterable[FramedSentence]) -> Counter:
    """Fillers per role type over the frames of ``sentences`` (UMEANT's c_j)."""
    return Counter(role_class(a.role) for s in sentences for f in s.frames for a in f.arguments)


def umeant_weights(counts: Mapping[str, int], source: str) -> RoleWeights:
    """UMEANT (SSST-6 2012 §3-4): w_j = c_j / sum_j c_j and w_pred = 0.25 w_agent (its method ii)."""
    total = sum(counts.get(r, 0) for r in ROLE_CLASSES)
    if total <= 0:
        raise ValueError("UMEANT weights need at least one role filler to count")
    roles = tuple(counts.get(r, 0) / total for r in ROLE_CLASSES)
    return RoleWeights(0.25 * roles[0], roles, source)


def read_counts(text: str) -> dict[str, int]:
    """Role counts from the JSON :func:`count_roles` results are shipped in (``{"counts": {...}}``)."""
    counts = json.loads(text)["counts"]
    unknown = set(counts) - set(ROLE_CLASSES)
    if unknown:
        raise ValueError(f"unknown role types in counts: {', '.join(sorted(unknown))}")
    return {r: int(counts.get(r, 0)) for r in ROLE_CLASSES}
