"""Scoring texts with the shipped DICOMER model: parse once, featurise, rank score, log score.

Every text gets a record; nothing raises for bad input. Empty text, a single sentence or a text
without relations is flagged; when it has no transitions at all it gets the model's neutral score
(the median of its training texts, see :class:`DicomerModel`). Relations come from the built-in
parser (analyses cached on disk) or from an adapter for parses made elsewhere (not cached).
"""

from __future__ import annotations

import functools
import hashlib
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from evalcore import __version__
from evalcore.resources import ResourceError, data_dir

from coherence.adapters import RelationAdapter
from coherence.dicomer.analysis import Analysis, AnalysisCache, analyse_parsed, parser_id
from coherence.dicomer.model import LEGACY_NEUTRAL_SCORE
from coherence.parser.document import parse_texts

MODEL_NAME = "dicomer_model"


def model_paths(folder: Path | None = None) -> tuple[Path, Path]:
    """The shipped model (joblib bundle) and its JSON signature sidecar."""
    folder = folder or data_dir() / "coherence"
    return folder / f"{MODEL_NAME}.joblib", folder / f"{MODEL_NAME}.json"


@dataclass(frozen=True)
class ScoreRecord:
    """One text's result; ``flags`` name degenerate inputs, ``error`` a text that was not a str
    or whose external parse failed."""

    score: float
    log_score: float
    n_sentences: int
    n_relations: int
    flags: tuple[str, ...] = ()
    error: str | None = None

    def as_dict(self) -> dict:
        return {**asdict(self), "flags": list(self.flags)}


def input_flags(analysis: Analysis) -> tuple[str, ...]:
    """``empty``, ``one_sentence`` and/or ``no_relations`` for degenerate analyses."""
    if analysis.empty:
        return ("empty",)
    flags = []
    if analysis.n_sentences == 1:
        flags.append("one_sentence")
    if not analysis.relations:
        flags.append("no_relations")
    return tuple(flags)


@functools.lru_cache(maxsize=4)
def load_bundle(path: str | None = None) -> dict:
    """``{"model": DicomerModel, "info": sidecar dict}`` from the joblib file."""
    import joblib

    file = Path(path) if path else model_paths()[0]
    if not file.exists():
        raise ResourceError(f"DICOMER model {file} is missing: run `coherence train dicomer`")
    bundle = joblib.load(file)
    if not hasattr(bundle["model"], "neutral_score_"):
        warnings.warn(f"DICOMER model {file} predates the neutral score: texts without transitions "
                      f"keep {LEGACY_NEUTRAL_SCORE} (above most real texts) until you retrain with "
                      "`coherence train dicomer`", stacklevel=2)
    bundle["info"]["model_hash"] = hashlib.sha256(file.read_bytes()).hexdigest()[:12]
    return bundle


def _failed(error: str) -> ScoreRecord:
    nan = float("nan")
    return ScoreRecord(nan, nan, 0, 0, ("invalid",), error)


class DicomerScorer:
    """The shipped (or a given) model with the discourse parser it was trained with, or with
    ``relations`` from an adapter of :mod:`coherence.adapters` (parses made elsewhere)."""

    def __init__(self, model_path: str | None = None, cache_dir: Path | None = None,
                 relations: RelationAdapter | None = None):
        from coherence.parser.pipeline import DiscourseParser

        bundle = load_bundle(model_path)
        self.model = bundle["model"]
        self.info = bundle["info"]
        self.parser = relations or DiscourseParser(tier=int(self.info["parser_tier"]))
        self.parser_id = parser_id(self.parser)
        if self.info.get("parser", self.parser_id) != self.parser_id:
            advice = "" if relations else ": retrain with `coherence train dicomer`"
            warnings.warn(f"DICOMER model was trained with parser {self.info['parser']}, the relations "
                          f"now come from {self.parser_id}{advice}", stacklevel=2)
        # external parses depend on tools we cannot fingerprint: never cached
        self.cache = None if relations else AnalysisCache(self.parser, cache_dir)

    def signature(self) -> str:
        i = self.info
        return (f"dicomer|variant:{i['variant']}|mode:{i['mode']}|parser:{self.parser_id}"
                f"|{i['features']}|svmC:{i['C']:.4g}|transform:shifted_log"
                f"|model:{i['model_hash']}|v:{__version__}")

    def score_analyses(self, analyses: Sequence[Analysis]) -> list[ScoreRecord]:
        scores = self.model.decision_function(analyses)
        logs = self.model.log_score(scores) if len(scores) else []
        return [ScoreRecord(float(s), float(lg), a.n_sentences, len(a.relations), input_flags(a))
                for a, s, lg in zip(analyses, scores, logs)]

    def analyse(self, texts: Sequence[str], doc_ids: Sequence[str] | None = None) -> list[Analysis | str]:
        """Analyses of the texts; with external relations a text whose parse fails gets the error
        message instead, so the other texts are still scored."""
        if self.cache is not None:
            analyses = self.cache.analyse(texts)
            self.cache.save()
            return analyses
        out: list[Analysis | str] = []
        for pt in parse_texts(list(texts), list(doc_ids) if doc_ids else None):
            try:
                out.append(analyse_parsed(pt, self.parser))
            except ValueError as exc:
                out.append(str(exc))
        return out

    def score_texts(self, texts: Sequence[str], doc_ids: Sequence[str] | None = None) -> list[ScoreRecord]:
        """One record per text, in order; non-str items and failed external parses get an error
        record, never an exception. ``doc_ids`` name the texts for external relations (precomputed
        parses are found by file name)."""
        good = [i for i, t in enumerate(texts) if isinstance(t, str)]
        analysed = dict(zip(good, self.analyse([texts[i] for i in good],
                                               [doc_ids[i] for i in good] if doc_ids else None)))
        ok = [i for i in good if isinstance(analysed[i], Analysis)]
        records = dict(zip(ok, self.score_analyses([analysed[i] for i in ok])))
        return [records.get(i) or _failed(analysed.get(i) or f"expected str, got {type(t).__name__}")
                for i, t in enumerate(texts)]


def score_texts(texts: Sequence[str], model_path: str | None = None) -> list[ScoreRecord]:
    """Score texts with the shipped model (see :class:`DicomerScorer`)."""
    return DicomerScorer(model_path).score_texts(texts)

