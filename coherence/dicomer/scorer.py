"""Scoring texts with the shipped DICOMER model: parse once, featurise, rank score, log score.

Every text gets a record; nothing raises for bad input. Empty text, a single sentence or a text
without relations yields the model's score of its (possibly empty) feature vector with a flag.
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

from coherence.dicomer.analysis import Analysis, AnalysisCache, parser_id

MODEL_NAME = "dicomer_model"


def model_paths(folder: Path | None = None) -> tuple[Path, Path]:
    """The shipped model (joblib bundle) and its JSON signature sidecar."""
    folder = folder or data_dir() / "coherence"
    return folder / f"{MODEL_NAME}.joblib", folder / f"{MODEL_NAME}.json"


@dataclass(frozen=True)
class ScoreRecord:
    """One text's result; ``flags`` name degenerate inputs, ``error`` a text that was not a str."""

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
    bundle["info"]["model_hash"] = hashlib.sha256(file.read_bytes()).hexdigest()[:12]
    return bundle


class DicomerScorer:
    """The shipped (or a given) model with the discourse parser it was trained with."""

    def __init__(self, model_path: str | None = None, cache_dir: Path | None = None):
        from coherence.parser.pipeline import DiscourseParser

        bundle = load_bundle(model_path)
        self.model = bundle["model"]
        self.info = bundle["info"]
        self.parser = DiscourseParser(tier=int(self.info["parser_tier"]))
        self.parser_id = parser_id(self.parser)
        if self.info.get("parser", self.parser_id) != self.parser_id:
            warnings.warn(f"DICOMER model was trained with parser {self.info['parser']}, the installed "
                          f"parser is {self.parser_id}: retrain with `coherence train dicomer`",
                          stacklevel=2)
        self.cache = AnalysisCache(self.parser, cache_dir)

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

    def score_texts(self, texts: Sequence[str]) -> list[ScoreRecord]:
        """One record per text, in order; non-str items get an error record, never an exception."""
        good = [i for i, t in enumerate(texts) if isinstance(t, str)]
        records = dict(zip(good, self.score_analyses(self.cache.analyse([texts[i] for i in good]))))
        self.cache.save()
        nan = float("nan")
        return [records.get(i) or ScoreRecord(nan, nan, 0, 0, ("invalid",),
                                              f"expected str, got {type(t).__name__}")
                for i, t in enumerate(texts)]


def score_texts(texts: Sequence[str], model_path: str | None = None) -> list[ScoreRecord]:
    """Score texts with the shipped model (see :class:`DicomerScorer`)."""
    return DicomerScorer(model_path).score_texts(texts)

