"""The MEANT metrics (`meant`, `umeant`, `imeant`): semantic frames of the MT output and the
reference from the suite's labeller, token similarity from :mod:`.lexsim`, MEANT's alignment and
weighted f-score (:mod:`.alignment`, :mod:`.formula`). Every distinct text of a batch is labelled
once (SRL dominates the time)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from evalcore.metric import Item, ReferenceMetric, Score
from mteval.meant.alignment import FillerSimilarity, SentenceMeant, meant_pair, phrase_similarity
from mteval.meant.formula import DENOMINATORS, FRAME_WEIGHTS
from mteval.meant.roles import RoleWeights, equal_weights
from mteval.srl.frames import FramedSentence

#: "equal": w_pred = w_j; "umeant": UMEANT's relative frequencies (w_pred = 0.25 w_agent) counted on
#: the gold frames of UP English EWT dev (shipped counts), so a score never depends on its batch
ROLE_WEIGHTS = ("equal", "umeant")
#: "phrase": spec 8.1 step 4; "itg": IMEANT's length-normalised bracketing ITG inside score
FILLER_SIMILARITIES = ("phrase", "itg")
MULTI_REF = ("max", "mean")
#: token similarities built from English resources only
ENGLISH_SIMILARITIES = ("minmax-mi", "cosine", "wordnet")
#: the readings this implementation takes where the papers are silent or unclear (in the signature)
DECISIONS = ("roles:11-types(ARG2=benefactive,CAU=purpose)", "pred-sim:token", "frame-align:pred-sim>0",
             "coverage:pred+filler-spans/all-tokens", "backoff:phrase-F-of-sentences")


def _fields(description: dict) -> str:
    """A description dict as ``key=value,...`` (one signature field)."""
    return ",".join(f"{k}={v}" for k, v in description.items())


def role_weights(name: str) -> RoleWeights:
    """The weights a ``role_weights`` value stands for."""
    if name == "umeant":
        from mteval.meant.up_counts import up_weights

        return up_weights()
    return equal_weights()


def filler_similarity(name: str) -> FillerSimilarity:
    """The filler similarity a ``filler_similarity`` value stands for."""
    if name == "itg":
        from mteval.meant.itg import itg_similarity

        return itg_similarity
    return phrase_similarity


class Meant(ReferenceMetric):
    """MEANT (Lo & Wu; WMT 2012-2013, IMEANT 2014 §3.1) of a translation against its references.
    ``value`` = 2PR / (P + R) over aligned frames; components: precision, recall, frames of each
    side, aligned frames, backoff (1 when a side had no frame and whole sentences were compared).

    ``similarity``: token similarity (:func:`mteval.meant.lexsim.similarity`: minmax-mi, cosine,
    wordnet, exact); ``role_weights``: equal or umeant; ``filler_similarity``: phrase or itg
    (IMEANT); ``frame_weights``: coverage or uniform; ``denominator`` [ambiguous]: frames summed in
    the sentence-level denominators, all (default) or aligned; ``multi_ref``: best reference (max) or
    the mean over references [decision]; ``language``: of the output and references."""

    max_chars = 10_000  # the cost grows faster than linearly with length: docs/bounds.md

    signature_keys: ClassVar[dict[str, str]] = {"similarity": "sim", "role_weights": "w", "filler_similarity": "filler",
                                                "frame_weights": "fw", "denominator": "den", "multi_ref": "refs",
                                                "language": "lang"}
    languages: ClassVar[tuple[str, ...]] = ("en", "fr")  # the languages of the suite's SRL labellers
    trained_on: ClassVar[str | None] = "Universal Propositions gold frames (its SRL labeller; no human judgments)"
    default: ClassVar[bool] = False
    default_note: ClassVar[str] = ("semantic frames: SRL and context vectors take ~40 ms CPU a segment (the default "
                                   "WMT12 sample took ~35 min for meant and umeant on a loaded 2-core machine); ask "
                                   "for it with -m")
    cost: ClassVar[str] = "heavy"

    def __init__(self, similarity: str = "minmax-mi", role_weights: str = "equal", filler_similarity: str = "phrase",
                 frame_weights: str = "coverage", denominator: str = "all", multi_ref: str = "max",
                 language: str = "en"):
        self.similarity = similarity
        self.role_weights = role_weights
        self.filler_similarity = filler_similarity
        self.frame_weights = frame_weights
        self.denominator = denominator
        self.multi_ref = multi_ref
        self.language = language

    @property
    def name(self) -> str:  # type: ignore[override]  # a property: the name follows the parameters
        """The registered name of this configuration: imeant (ITG fillers), umeant, else meant."""
        if self.filler_similarity == "itg":
            return "imeant"
        return "umeant" if self.role_weights == "umeant" else "meant"

    @property
    def english(self) -> bool:  # type: ignore[override]  # a property: it follows the target language
        """English input notes apply to English output only."""
        return self.language == "en"

    def validate(self) -> None:
        for param, allowed in (("role_weights", ROLE_WEIGHTS), ("filler_similarity", FILLER_SIMILARITIES),
                               ("frame_weights", FRAME_WEIGHTS), ("denominator", DENOMINATORS),
                               ("multi_ref", MULTI_REF)):
            if getattr(self, param) not in allowed:
                raise ValueError(f"{self.name}: {param} must be one of {', '.join(allowed)}, got "
                                 f"{getattr(self, param)!r}")
        self._labeller()
        if self.language != "en" and self.similarity in ENGLISH_SIMILARITIES:
            raise ValueError(f"{self.name}: token similarity {self.similarity!r} is English-only (Brown context "
                             f"vectors, WordNet); for {self.language!r} output use similarity='exact'")
        self._similarity()

    # ---- the parts -------------------------------------------------------------------------------
    def _similarity(self):
        from mteval.meant.lexsim import similarity

        return similarity(self.similarity)

    def _labeller(self):
        """The suite's labeller for the output language (raises, naming what is missing, without one)."""
        from mteval.srl.labeller import default_labeller

        return default_labeller(self.language)

    def signature_extras(self) -> dict[str, object]:
        """Token similarity and labeller descriptions, the role weights' values, the decisions."""
        try:
            sim = self._similarity().describe()
            labeller = self._labeller().describe()
            weights = role_weights(self.role_weights).describe()
        except Exception:  # noqa: BLE001 - validate() refuses the configuration before scoring
            return {}
        extras: dict[str, object] = {"lexsim": _fields(sim), "srl": _fields(labeller), "weights": weights,
                  "decisions": ";".join(DECISIONS)}
        if self.filler_similarity == "itg":
            from mteval.meant.itg import IMEANT_WEIGHTS

            extras["itg"] = "inside,P^(1/max-len),min1," + _fields(IMEANT_WEIGHTS.describe())
        return extras

    # ---- scoring ---------------------------------------------------------------------------------
    def frames(self, texts: Sequence[str]) -> dict[str, FramedSentence]:
        """Each distinct text's frames, labelled in one call."""
        unique = list(dict.fromkeys(texts))
        return dict(zip(unique, self._labeller().label(unique)))

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        framed = self.frames([t for it in items for t in (it.candidate, *it.references)])
        sim, weights = self._similarity(), role_weights(self.role_weights)
        filler = filler_similarity(self.filler_similarity)
        out = []
        for item in items:
            hyp = framed[item.candidate]
            per_ref = [meant_pair(hyp, ref, sim.matrix(hyp.tokens, ref.tokens), weights, filler, self.frame_weights,
                                  self.denominator) for ref in (framed[r] for r in item.references)]
            out.append(self._combine(per_ref))
        return out

    def _combine(self, per_ref: list[SentenceMeant]) -> Score:
        """One score from the results against each reference (the best one's components)."""
        values = np.array([r.prf.f for r in per_ref])
        best = per_ref[int(np.argmax(values))]
        value = float(values.max() if self.multi_ref == "max" else values.mean())
        components = {"precision": best.prf.precision, "recall": best.prf.recall, "mt_frames": best.mt_frames,
                      "ref_frames": best.ref_frames, "aligned_frames": best.aligned,
                      "backoff": float(best.backoff is not None)}
        notes = (f"backoff: {best.backoff}; whole sentences compared",) if best.backoff else ()
        return Score(value, components, notes)
