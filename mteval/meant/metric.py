"""The MEANT metrics.

- `meant`, `umeant`, `imeant`: semantic frames of the MT output and the
reference from the suite's labeller, token similarity from :mod:`.lexsim`, MEANT's alignment and
weighted f-score (:mod:`.alignment`, :mod:`.formula`). Every distinct text of a batch is labelled
once (SRL dominates the time).
- `xmeant`: XMEANT (Lo et al., ACL 2014): MEANT without a reference. The frames of the source sentence
stand in for the reference's, aligned against the MT output's frames with cross-lingual lexical
similarity p(e, f) = sqrt(t(e|f) t(f|e)) from IBM-1-style tables (:mod:`.lexsim`), fillers
compared by MEANT's f-score (§3.1) or the bracketing-ITG inside score (§3.2, :mod:`.itg`).

Scoring is MEANT's (:func:`mteval.meant.alignment.meant_pair`, output in the MT role, source in
the REF role). Both sides need frames: the suite's labeller where one exists for the language
(:func:`mteval.srl.labeller.default_labeller`), else frames from another labeller's file
(``source_frames`` / ``output_frames``: CoNLL-U with PropBank columns or JSON, matched to the texts
by their characters without whitespace); without either, validation stops naming what is missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

import numpy as np

from evalcore.io.textfiles import InputError
from evalcore.metric import Item, ReferenceMetric, Score, SourceMetric
from evalcore.metric.inputs import InputLimits, check_text
from evalcore.resources.registry import ResourceError
from mteval.meant.alignment import FillerSimilarity, SentenceMeant, meant_pair, phrase_similarity
from mteval.meant.crosslingual import external_frames, file_digest, table_file, text_key, xmeant_itg_similarity
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


#: the readings this implementation takes where the paper is silent (XMEANT's, in its signature)
XMEANT_DECISIONS = ("tables:eflomal-link-frequencies", "unknown-token:identity", "frames:source-as-REF",
             "external-frames:match-by-characters")


class Xmeant(SourceMetric):
    """XMEANT of an MT output against its source sentence (no reference). ``value`` = 2PR / (P + R)
    over aligned frames of the output (precision) and the source (recall); components as MEANT's:
    precision, recall, output_frames, source_frames, aligned_frames, backoff (1 when a side had no
    frame and the whole sentences were compared with the lexical similarity).

    ``source_language`` / ``language``: of the source and the output, English on exactly one side
    (the suite's bitexts pair English with fr, de, es, zh); ``filler_similarity``: phrase or itg;
    ``role_weights``: equal or umeant (MEANT's UP English role counts [decision: the paper would
    count roles of the foreign input]); ``frame_weights``, ``denominator``: as MEANT's;
    ``exact_backoff``: identical tokens the table does not know match (names, numbers);
    ``lexical_table``: a table file (:meth:`mteval.meant.lexsim.LexicalTable.save`, built from your
    own bitext with :func:`~mteval.meant.lexsim.build_lexical_table`) instead of the default
    gettext one (its signature names the bitext)."""

    max_chars = 10_000  # the cost grows faster than linearly with length: docs/bounds.md

    signature_keys: ClassVar[dict[str, str]] = {"source_language": "src", "language": "lang",
                                                "filler_similarity": "filler", "role_weights": "w",
                                                "frame_weights": "fw", "denominator": "den",
                                                "exact_backoff": "oov"}
    signature_via: ClassVar[dict[str, str]] = {"source_frames": "source_frames", "output_frames": "output_frames",
                                               "lexical_table": "lexsim"}
    languages: ClassVar[tuple[str, ...]] = ("en", "fr", "de", "es", "zh")  # English on one side
    trained_on: ClassVar[str | None] = "the suite's eflomal-aligned bitexts (its IBM-1 tables; no human judgments)"
    default: ClassVar[bool] = False
    default_note: ClassVar[str] = ("reads the source, whose language is a parameter a benchmark does not set (its "
                                   "default, French, would be wrong on cs/de/es-en): `python -m benchmarks xmeant` "
                                   "runs it where it can")
    cost: ClassVar[str] = "heavy"

    def __init__(self, source_language: str = "fr", language: str = "en", filler_similarity: str = "phrase",
                 role_weights: str = "equal", frame_weights: str = "coverage", denominator: str = "all",
                 exact_backoff: bool = True, source_frames: str = "", output_frames: str = "",
                 lexical_table: str = ""):
        self.source_language = source_language
        self.language = language
        self.filler_similarity = filler_similarity
        self.role_weights = role_weights
        self.frame_weights = frame_weights
        self.denominator = denominator
        self.exact_backoff = exact_backoff
        self.source_frames = source_frames
        self.output_frames = output_frames
        self.lexical_table = lexical_table

    @property
    def english(self) -> bool:  # type: ignore[override]  # a property: it follows the target language
        """English input notes apply to English output only."""
        return self.language == "en"

    def validate(self) -> None:
        for param, allowed in (("filler_similarity", FILLER_SIMILARITIES), ("role_weights", ROLE_WEIGHTS),
                               ("frame_weights", FRAME_WEIGHTS), ("denominator", DENOMINATORS)):
            if getattr(self, param) not in allowed:
                raise ValueError(f"xmeant: {param} must be one of {', '.join(allowed)}, got {getattr(self, param)!r}")
        if self.source_language == self.language:
            raise ValueError(f"xmeant compares a source with its translation: source and output are both "
                             f"{self.language!r} (for same-language texts use meant with the source as reference)")
        if "en" not in (self.source_language, self.language):
            raise ValueError(f"xmeant: the lexical tables pair English with another language; "
                             f"{self.source_language}-{self.language} has no English side")
        from evalcore.resources.defaults import DEFAULT_PIVOTS

        pivot = self.language if self.source_language == "en" else self.source_language
        if self.lexical_table:
            table_file(self.lexical_table, Path(self.lexical_table).stat().st_mtime_ns)
        elif pivot not in DEFAULT_PIVOTS:
            raise ResourceError(f"xmeant {self.source_language}-{self.language}: no English-{pivot} bitext in the "
                                f"suite for the IBM-1 table (it has English with {', '.join(DEFAULT_PIVOTS)})")
        self._side("source")
        self._side("output")

    # ---- the parts -------------------------------------------------------------------------------
    def _side(self, side: str):
        """The labeller of one side, or its external frames (text key -> frames); a clear error
        naming the language and the missing piece when there is neither."""
        path = self.source_frames if side == "source" else self.output_frames
        language = self.source_language if side == "source" else self.language
        if path:
            return external_frames(path, Path(path).stat().st_mtime_ns)
        from mteval.srl.labeller import default_labeller

        try:
            return default_labeller(language)
        except ResourceError as exc:
            option = "source_frames" if side == "source" else "output_frames"
            raise ResourceError(f"xmeant needs frames of the {side} ({language}): {exc}; or give another "
                                f"labeller's frames with {option}=FILE (CoNLL-U with PropBank columns, "
                                "or JSON)") from None

    def _similarity(self):
        """Output (rows) x source (columns) token similarity from the default English-pivot table."""
        from mteval.meant.lexsim import Ibm1Similarity

        table = (table_file(self.lexical_table, Path(self.lexical_table).stat().st_mtime_ns)
                 if self.lexical_table else None)
        return Ibm1Similarity(self.language, self.source_language, exact_backoff=self.exact_backoff, table=table)

    def _filler(self) -> FillerSimilarity:
        return xmeant_itg_similarity if self.filler_similarity == "itg" else phrase_similarity

    def signature_extras(self) -> dict[str, object]:
        """The IBM-1 table, each side's labeller (or frames file hash), role weights, decisions."""
        try:
            sides = {side: self._side(side) for side in ("source", "output")}
            table = self._similarity().describe()["table"]
        except Exception:  # noqa: BLE001 - validate() refuses the configuration before scoring
            return {}
        described = {side: (f"file:{file_digest(self.source_frames if side == 'source' else self.output_frames)}"
                             if isinstance(s, dict) else ",".join(f"{k}={v}" for k, v in s.describe().items()))
                     for side, s in sides.items()}
        return {"lexsim": f"ibm1:{table}", "srl_source": described["source"], "srl_output": described["output"],
                "source_frames": file_digest(self.source_frames), "output_frames": file_digest(self.output_frames),
                "weights": role_weights(self.role_weights).describe(), "decisions": ";".join(XMEANT_DECISIONS)}

    # ---- scoring ---------------------------------------------------------------------------------
    def _check(self, item: Item, limits: InputLimits) -> tuple[Item, tuple[str, ...]]:
        """The input rule per side: English notes only for a side that is English."""
        name = item.id or "item"
        cand = self._check_candidate(item.candidate, f"{name}: candidate", limits, self.language == "en")
        src = check_text(item.source, f"{name}: source", limits, self.source_language == "en")
        return replace(item, candidate=cand.text, source=src.text), tuple(dict.fromkeys((*cand.notes, *src.notes)))

    def frames(self, texts: Sequence[str], side: str) -> dict[str, FramedSentence]:
        """Each distinct text's frames on one side (labelled in one call, or looked up in the file)."""
        unique = list(dict.fromkeys(texts))
        found = self._side(side)
        if not isinstance(found, dict):
            return dict(zip(unique, found.label(unique)))
        missing = [t for t in unique if text_key(t) not in found]
        if missing:
            raise InputError(f"no external {side} frames for {missing[0][:60]!r} "
                             f"({self.source_frames if side == 'source' else self.output_frames})")
        return {t: found[text_key(t)] for t in unique}

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        texts = [self.source_text(it) for it in items]
        sources = self.frames(texts, "source")
        outputs = self.frames([it.candidate for it in items], "output")
        sim, weights, filler = self._similarity(), role_weights(self.role_weights), self._filler()
        out = []
        for item, text in zip(items, texts):
            mt, src = outputs[item.candidate], sources[text]
            res = meant_pair(mt, src, sim.matrix(mt.tokens, src.tokens), weights, filler, self.frame_weights,
                             self.denominator)
            components = {"precision": res.prf.precision, "recall": res.prf.recall, "output_frames": res.mt_frames,
                          "source_frames": res.ref_frames, "aligned_frames": res.aligned,
                          "backoff": float(res.backoff is not None)}
            notes = (f"backoff: {res.backoff.replace('reference', 'source')}; whole sentences compared",) \
                if res.backoff else ()
            out.append(Score(res.prf.f, components, notes))
        return out
