"""PEM scoring: (original, paraphrase) -> adequacy (pivot F1 averaged over pivots), fluency (LM),
dissimilarity feature (target n-gram F1) -> the regressor's overall score; batch API with one
result or one error record per item, and per-system aggregation."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from evalcore.bpng import BPNGBuilder, PhraseTableStore, pivot_f1
from evalcore.bpng.table import PhraseTable
from evalcore.text import Preprocessor
from parapeval import defaults
from parapeval.dissimilarity import target_bag, target_f1
from parapeval.fluency import FluencyScorer
from parapeval.model import FEATURES, PEMRegressor, load_model
from parapeval.phrase_table.build import english_preprocessor

MAX_TOKENS = 1000
MAX_CHARS = 20000


@dataclass(frozen=True)
class PEMScore:
    """One pair's PEM score and its components (adequacy = mean pivot F1, dissimilarity =
    target n-gram F1, i.e. similarity of wording; higher PEM is better)."""

    pem: float
    adequacy: float
    fluency: float
    dissimilarity: float
    pivot_f1: Mapping[str, float] = field(default_factory=dict)
    note: str = ""


@dataclass(frozen=True)
class PEMError:
    """A pair that could not be scored, with the reason."""

    item: str
    error: str


def check_text(text: object, role: str) -> str:
    """The text itself, or a ValueError naming the problem (not a string, too many words or
    characters: BPNG and n-gram bags grow with length, so extreme inputs are refused, not cut)."""
    if not isinstance(text, str):
        raise ValueError(f"{role} must be a string, got {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise ValueError(f"{role} is too long ({len(text)} characters > {MAX_CHARS})")
    n = len(text.split())
    if n > MAX_TOKENS:
        raise ValueError(f"{role} is too long ({n} words > {MAX_TOKENS})")
    return text


class PEMFeatures:
    """The three PEM features from phrase tables (one per pivot) and a language model."""

    def __init__(self, tables: Mapping[str, PhraseTable], lm: FluencyScorer, discount: float | None = None):
        if not tables:
            raise ValueError("PEM needs at least one pivot phrase table")
        self.tables = dict(tables)
        self.lm = lm
        self.discount = discount
        self.builders = {p: BPNGBuilder(t, discount=discount) for p, t in self.tables.items()}
        self._init_preprocessors()

    def _init_preprocessors(self) -> None:
        self.preprocessors = {p: english_preprocessor(self._stem(t)) for p, t in self.tables.items()}
        self.target_pre = Preprocessor(lowercase=True, stem=False, function_words="none")

    def __getstate__(self):
        state = dict(self.__dict__)
        del state["preprocessors"], state["target_pre"]  # per-process caches, rebuilt on unpickling
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._init_preprocessors()

    @staticmethod
    def _stem(table: PhraseTable) -> bool:
        meta = getattr(table, "meta", {})
        return str(meta.get("stem", "False")) == "True"

    @classmethod
    def from_paths(cls, tables: Mapping[str, str | Path], lm: str | Path, discount: float | None = None) -> "PEMFeatures":
        return cls({p: PhraseTableStore(path) for p, path in tables.items()}, FluencyScorer(lm), discount)

    @classmethod
    def default(cls, pivots: Sequence[str] = defaults.DEFAULT_PIVOTS, discount: float | None = None) -> "PEMFeatures":
        return cls.from_paths({p: defaults.phrase_table_path(p) for p in pivots}, defaults.lm_path(), discount)

    def signature(self) -> str:
        pivots = "+".join(self.tables)
        fw = "none" if self.discount is None else f"{self.discount:g}"
        return f"pivots:{pivots}|fw:{fw}|{self.lm.signature()}"

    def table_signatures(self) -> dict[str, str]:
        return {p: b.signature() for p, b in self.builders.items()}

    def pivot_scores(self, original: str, paraphrase: str) -> dict[str, float]:
        """Pivot-language F1 per pivot."""
        out = {}
        for pivot, builder in self.builders.items():
            pre = self.preprocessors[pivot]
            out[pivot] = pivot_f1(builder.bag(pre(original)), builder.bag(pre(paraphrase)))[2]
        return out

    def target_score(self, original: str, paraphrase: str) -> float:
        return target_f1(target_bag(self.target_pre(original)), target_bag(self.target_pre(paraphrase)))

    def compute(self, original: str, paraphrase: str) -> tuple[np.ndarray, dict[str, float]]:
        """Feature vector in :data:`FEATURES` order, and the per-pivot F1."""
        original, paraphrase = check_text(original, "original"), check_text(paraphrase, "paraphrase")
        pivots = self.pivot_scores(original, paraphrase)
        adequacy = float(np.mean(list(pivots.values())))
        return np.array([adequacy, self.lm.score(paraphrase), self.target_score(original, paraphrase)]), pivots


class PEM:
    """The PEM metric: features + a fitted :class:`PEMRegressor`; construct, then ``score``."""

    def __init__(self, features: PEMFeatures, model: PEMRegressor, model_name: str = "custom"):
        self.features = features
        self.model = model
        self.model_name = model_name

    @classmethod
    def default(cls, model_path: str | Path | None = None, pivots: Sequence[str] | None = None) -> "PEM":
        """Default phrase tables and LM (built by `make setup`) and the shipped model, or another
        model file; the pivots and discount are those the model was trained with."""
        path = Path(model_path) if model_path else defaults.model_path()
        model, meta = load_model(path)
        use = pivots or tuple(meta.get("pivots", defaults.DEFAULT_PIVOTS))
        return cls(PEMFeatures.default(use, meta.get("discount")), model, path.stem)

    def signature(self) -> str:
        return f"pem|{self.features.signature()}|model:{self.model_name}|v:{defaults.VERSION}"

    def score(self, original: str, paraphrase: str) -> PEMScore:
        x, pivots = self.features.compute(original, paraphrase)
        note = []
        if not original.strip():
            note.append("empty original")
        if not paraphrase.strip():
            note.append("empty paraphrase")
        if original.strip() and original.split() == paraphrase.split():
            note.append("paraphrase identical to original")
        pem = float(self.model.predict(x[None, :])[0])
        return PEMScore(pem, float(x[0]), float(x[1]), float(x[2]), pivots, "; ".join(note))

    def score_batch(self, pairs: Iterable[tuple[str, str, str]], jobs: int = 1) -> list[PEMScore | PEMError]:
        """Score (item id, original, paraphrase) triples; every item gets a score or an error.
        ``jobs`` > 1 scores chunks in worker processes (each loads the resources once)."""
        pairs = list(pairs)
        if jobs > 1 and len(pairs) > 1:
            from concurrent.futures import ProcessPoolExecutor

            size = -(-len(pairs) // (jobs * 4))
            chunks = [pairs[i:i + size] for i in range(0, len(pairs), size)]
            with ProcessPoolExecutor(jobs) as pool:
                return [r for chunk in pool.map(self.score_batch, chunks) for r in chunk]
        out: list[PEMScore | PEMError] = []
        for item, original, paraphrase in pairs:
            try:
                out.append(self.score(original, paraphrase))
            except ValueError as exc:
                out.append(PEMError(item, str(exc)))
        return out


def system_summary(systems: Sequence[str], results: Sequence[PEMScore | PEMError]) -> list[dict]:
    """Per system: number scored, number of errors, mean PEM and components, rank by mean PEM."""
    groups: dict[str, list[PEMScore]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    for system, result in zip(systems, results):
        if isinstance(result, PEMScore):
            groups[system].append(result)
        else:
            errors[system] += 1
    rows = []
    for system in sorted(set(systems)):
        scores = groups.get(system, [])
        mean = (lambda attr: float(np.mean([getattr(s, attr) for s in scores])) if scores else float("nan"))
        rows.append({"system": system, "n": len(scores), "errors": errors.get(system, 0), "pem": mean("pem"),
                     "adequacy": mean("adequacy"), "fluency": mean("fluency"), "dissimilarity": mean("dissimilarity")})
    ranked = sorted((r for r in rows if r["n"]), key=lambda r: (-r["pem"], r["system"]))
    for rank, row in enumerate(ranked, 1):
        row["rank"] = rank
    return ranked + [r for r in rows if not r["n"]]


__all__ = ["FEATURES", "PEM", "PEMError", "PEMFeatures", "PEMScore", "check_text", "system_summary"]
