"""``readability`` as a metric of the suite's contract: how well an English text reads, from features
of every question people answer when they judge it (grammaticality, non-redundancy, referential
clarity, focus, structure, length; :mod:`coherence.readability.features`), weighted by a pairwise
ranker trained on human judgments (:mod:`coherence.readability.model`).

``value`` is the ranker's score (higher reads better; comparable across texts, best read among
texts of one input); the components give each question's share of it. The shipped model is
trained on SummEval only (a licence that lets it ship); ``model="all"`` is the opt-in model trained
on every judged set (SummEval, DialSummEval, WebNLG+ 2020), non-commercial like two of them."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import numpy as np

from coherence.readability.features import FEATURES, FEATURES_VERSION
from coherence.readability.model import ReadabilityModel
from evalcore import __version__
from evalcore.io.models import SUFFIX, load_trained
from evalcore.metric import Item, ReferenceFreeMetric, Score, Signature
from evalcore.resources.registry import ResourceError, package_path
from evalcore.text.sentences import DEFAULT_SENTENCES, check_mode

#: model file stem in coherence/models of the shipped model, and of each opt-in model by the name ``model=`` takes
MODEL_NAME = "readability_model"
SHIPPED_MODELS = {"all": "readability_all"}
QUESTIONS = tuple(dict.fromkeys(f.question for f in FEATURES))
ONE_SENTENCE_NOTE = "one_sentence: no sentence transitions (those features read as the training mean)"


def model_file(model: str | Path | None) -> Path:
    """The file of ``model``: None = the shipped default, a name of :data:`SHIPPED_MODELS`, else a path."""
    if model is None:
        return package_path("coherence", "models") / f"{MODEL_NAME}{SUFFIX}"
    if isinstance(model, str) and model in SHIPPED_MODELS:
        return package_path("coherence", "models") / f"{SHIPPED_MODELS[model]}{SUFFIX}"
    return Path(model)


def load_readability_model(model: str | Path | None = None) -> tuple[ReadabilityModel, dict]:
    """(model, header) of a readability model file, checked against the SHA-256 in its header."""
    return load_trained(model_file(model), ReadabilityModel, "readability", "coherence train readability")


class _Engine:
    """The model, its header and the feature extractor of one configuration, built once per process."""

    def __init__(self, model: str | Path | None, sentences: str, cache: bool):
        from coherence.readability.extract import Extractor

        self.model, self.info = load_readability_model(model)
        self.extractor = Extractor(sentences, cache=cache)
        if self.info.get("features_version") != FEATURES_VERSION:
            raise ResourceError(f"readability model {model_file(model)} was trained on features "
                                f"{self.info.get('features_version')}, this version computes "
                                f"{FEATURES_VERSION}: retrain it with `coherence train readability`")

    def scores(self, items: Sequence[Item]) -> list[Score]:
        """Scores of the items' texts; a text with no token (empty) gets the model's lowest score,
        each feature at its worst (:meth:`~coherence.readability.model.ReadabilityModel.worst`)."""
        X = self.extractor.features([it.candidate for it in items])
        z = self.model._z(X) * self.model.coef_
        z[np.isnan(X).all(axis=1)] = self.model.worst()
        values = z.sum(axis=1)
        question_of = {f.name: f.question for f in FEATURES}
        columns = {q: [i for i, name in enumerate(self.model.features) if question_of[name] == q] for q in QUESTIONS}
        sentences = X[:, 1]  # log_sentences: 0 for one sentence, NaN for none
        return [Score(float(v), {q: float(z[k, cols].sum()) for q, cols in columns.items()},
                      (ONE_SENTENCE_NOTE,) if s == 0 else ())
                for k, (v, s) in enumerate(zip(values, sentences))]


@functools.lru_cache(maxsize=4)
def _engine(model: str | None, sentences: str, cache: bool, version: tuple | None) -> _Engine:
    return _Engine(model, sentences, cache)


def clear_engines() -> None:
    """Forget every engine: the next score starts cold."""
    _engine.cache_clear()


class Readability(ReferenceFreeMetric):
    """Readability of an English text from features of TAC's five linguistic-quality questions.

    ``model``: a model file (None: the shipped one, trained on SummEval; ``"all"``: the opt-in
    model trained on every judged set, non-commercial). ``sentences``: where sentences end
    (:mod:`evalcore.text.sentences`). ``cache``: keep parses on disk (never changes a number)."""

    reads: ClassVar[str] = "candidate"
    component_names: ClassVar[tuple[str, ...]] = QUESTIONS
    in_sample: ClassVar[tuple[str, ...]] = ("readability:summeval",)
    signature_exempt: ClassVar[frozenset] = frozenset({"cache"})
    signature_via: ClassVar[dict[str, str]] = {"model": "model", "sentences": "sentences"}
    trained_on: ClassVar[str] = ("SummEval expert coherence and fluency (CNN/DailyMail summaries); model=\"all\": "
                                 "SummEval, DialSummEval and WebNLG+ 2020")
    opt_in: ClassVar[dict[str, tuple]] = {"model": ("all",)}  # DialSummEval and WebNLG: non-commercial
    cost: ClassVar[str] = "heavy"
    #: its own size cap: the near-duplicate and focus features compare every pair of sentences
    #: (quadratic in a text's length); summaries and paraphrases are far shorter (docs/bounds.md)
    max_chars: ClassVar[int | None] = 20_000

    def __init__(self, model: str | Path | None = None, sentences: str = DEFAULT_SENTENCES, cache: bool = True):
        self.model = model
        self.sentences = sentences
        self.cache = cache

    def validate(self) -> None:
        check_mode(self.sentences)

    def _engine(self) -> _Engine:
        self._ensure_valid()
        file = model_file(self.model)
        stat = file.stat() if file.exists() else None
        version = (str(file), stat.st_mtime_ns, stat.st_size) if stat else None
        return _engine(None if self.model is None else str(self.model), self.sentences, self.cache, version)

    def signature(self) -> Signature:
        """``readability|features:rf1|trained:summeval|sentences:auto|lm:default:4g:...|parser:...|
        dicomer:...|model:...``: the feature code, the training sets, the sentence mode, the LM,
        the discourse parser and DICOMER model the features read, and the model file's hash."""
        engine = self._engine()
        info, extractor = engine.info, engine.extractor
        extras = {"features": info["features_version"], "set": info["feature_set"],
                  "trained": "+".join(info["sets"]), "sentences": self.sentences, "lm": extractor.lm.signature(),
                  "parser": extractor.parser_id, "dicomer": extractor.dicomer_hash, "model": info["sha256"][:12]}
        if info.get("use"):
            extras["use"] = info["use"]
        return Signature(self.name, {}, extras, __version__)

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        return self._engine().scores(items)

