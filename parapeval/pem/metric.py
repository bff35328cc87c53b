"""The PEM metric (Liu, Dahlmeier, Ng 2010) on the suite's contract: ``PEM().score(original,
paraphrase)`` -> a :class:`~evalcore.metric.Score` whose value is the regressor's output and whose
components are its three features (adequacy = pivot-language F1 averaged over pivots, fluency =
normalised LM score, target_ngram_f1 = English n-gram F1, a similarity of wording) and the F1 of
each pivot. :class:`PEMFeatures` computes the features (training and the benchmark use it too).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from evalcore import __version__
from evalcore.bpng import BPNGBuilder, PhraseTableStore
from evalcore.bpng.compiled import compiled_pays
from evalcore.bpng.table import PhraseTable
from evalcore.io.models import ModelFileError
from evalcore.io.textfiles import InputError
from evalcore.metric import InputLimits, Item, Score, Signature, SourceMetric
from evalcore.metric.lazy import lazy_resource
from evalcore.resources import defaults
from evalcore.resources.phrase_table.build import english_preprocessor
from evalcore.resources.registry import ResourceError, package_path
from evalcore.text.preprocess import Preprocessor, tokenize
from parapeval.pem.fluency import FluencyScorer
from parapeval.pem.target_ngrams import target_bag, target_f1, target_f1_batch

if TYPE_CHECKING:
    from parapeval.pem.model import PEMRegressor

def default_model_path() -> Path:
    """The shipped default PEM model (a model file, :mod:`evalcore.io.models`)."""
    return package_path("parapeval", "models", "pem-default.npz")


#: PEM refuses texts of more words (BPNG and n-gram bags grow with length): an error record.
MAX_WORDS = 1000
#: pairs whose features are computed together (bags of a window are held at once)
WINDOW_PAIRS = 256
_WORD_CHAR = re.compile(r"\w")
COPY_NOTE = "copy: the paraphrase has the original's words (case, spacing and punctuation aside)"


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
        """One English preprocessor per distinct table setting (stemmed or not), shared by the
        pivots of that setting, so a text is tokenised and stemmed once, not once per pivot."""
        shared: dict[bool, Preprocessor] = {}
        self.preprocessors = {}
        for pivot, table in self.tables.items():
            stem = self._stem(table)
            if stem not in shared:
                shared[stem] = english_preprocessor(stem)
            self.preprocessors[pivot] = shared[stem]
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
    def from_paths(cls, tables: Mapping[str, str | Path], lm: str | Path, discount: float | None = None) -> PEMFeatures:
        return cls({p: PhraseTableStore(path) for p, path in tables.items()}, FluencyScorer(lm), discount)

    def signature_fields(self) -> dict[str, object]:
        """The short-form fields of these features: pivots, function-word discount, LM."""
        return {"pivots": tuple(self.tables), "fw": self.discount, "lm": self.lm.signature()}

    def signature(self) -> str:
        """``pem|pivots:..|fw:..|lm:..|v:..``: the features' part of PEM's signature."""
        return str(Signature("pem", self.signature_fields(), {}, __version__))

    def table_signatures(self) -> dict[str, str]:
        return {p: b.signature() for p, b in self.builders.items()}

    def pivot_scores(self, original: str, paraphrase: str) -> dict[str, float]:
        """Pivot-language F1 per pivot."""
        return dict(zip(self.builders, self.pivot_matrix([(original, paraphrase)])[0].tolist()))

    def target_score(self, original: str, paraphrase: str) -> float:
        """English n-gram F1 of the two texts (1 for a verbatim copy)."""
        return float(self.target_scores([(original, paraphrase)])[0])

    def pivot_matrix(self, pairs: Sequence[tuple[str, str]], compiled: bool | None = None) -> np.ndarray:
        """Pivot F1 of each pair (rows) for each pivot (columns, in the tables' order), each
        pivot's pairs in one :meth:`~evalcore.bpng.BPNGBuilder.f1_batch` call (``compiled`` as there)."""
        F = np.empty((len(pairs), len(self.builders)))
        for j, (pivot, builder) in enumerate(self.builders.items()):
            pre = self.preprocessors[pivot]
            F[:, j] = builder.f1_batch([(pre(original), pre(paraphrase)) for original, paraphrase in pairs], compiled)
        return F

    def target_scores(self, pairs: Sequence[tuple[str, str]], compiled: bool | None = None) -> np.ndarray:
        """English n-gram F1 of each pair (by the compiled kernel when ``compiled``, default: when
        :func:`~evalcore.bpng.compiled.compiled_pays`)."""
        pre = self.target_pre
        docs = [(pre(original), pre(paraphrase)) for original, paraphrase in pairs]
        if compiled if compiled is not None else compiled_pays(len(pairs)):
            return target_f1_batch(docs)
        return np.array([target_f1(target_bag(original), target_bag(paraphrase)) for original, paraphrase in docs])

    def compute(self, original: str, paraphrase: str) -> tuple[np.ndarray, dict[str, float]]:
        """Feature vector in :data:`parapeval.pem.model.FEATURES` order, and the per-pivot F1."""
        X, per_pivot = self.compute_many([(original, paraphrase)])
        return X[0], per_pivot[0]

    def compute_many(self, pairs: Sequence[tuple[str, str]],
                     on_window: Callable[[int], object] | None = None) -> tuple[np.ndarray, list[dict[str, float]]]:
        """Feature rows and per-pivot F1 of many pairs, a window of :data:`WINDOW_PAIRS` pairs at a
        time (a window's bags are what is held in memory), by the compiled kernels when
        :func:`~evalcore.bpng.compiled.compiled_pays` for all the pairs. ``on_window(n)`` follows
        each window."""
        X = np.empty((len(pairs), 3))
        per_pivot: list[dict[str, float]] = []
        compiled = compiled_pays(len(pairs))
        for start in range(0, len(pairs), WINDOW_PAIRS):
            window = pairs[start:start + WINDOW_PAIRS]
            rows = slice(start, start + len(window))
            F = self.pivot_matrix(window, compiled)
            X[rows, 0] = F.mean(axis=1)
            X[rows, 1] = [self.lm.score(paraphrase) for _, paraphrase in window]
            X[rows, 2] = self.target_scores(window, compiled)
            per_pivot.extend(dict(zip(self.builders, row)) for row in F.tolist())
            if on_window is not None:
                on_window(len(window))
        return X, per_pivot


@dataclass(frozen=True)
class _Config:
    """PEM's parameters resolved against the model's header and the default resources."""

    model: Path
    info: dict
    pivots: tuple[str, ...]
    tables: dict[str, Path]
    lm: Path
    discount: float | None


class PEM(SourceMetric):
    """PEM: features + a fitted regressor; ``score(original, paraphrase)``.

    Parameters (all optional; None = the default):
    ``model``: a model file written by ``parapeval train`` (default: the shipped
    ``parapeval/models/pem-default.npz``); ``pivots``: pivot languages (default: those the model
    was trained with, or those of ``tables``); ``tables``: pivot -> phrase-table file (default:
    the tables ``aesop-eval setup pem`` builds); ``lm``: KenLM file (default: the one ``aesop-eval setup pem``
    builds); ``discount``: BPNG function-word discount (default: the model's).

    Text the English pipeline cannot judge gets the model's neutral value (its prediction at the
    median training features, stored in the model file's header) with a note.
    """

    reads: ClassVar[str] = "source"
    signature_keys: ClassVar[dict[str, str]] = {"discount": "fw", "tables": "pivots"}
    trained_on: ClassVar[str | None] = "Twitter-Para (ParaScore release) paraphrase judgments"
    cost: ClassVar[str] = "medium"

    def __init__(self, model: str | Path | None = None, pivots: Sequence[str] | None = None,
                 tables: Mapping[str, str | Path] | None = None, lm: str | Path | None = None,
                 discount: float | None = None):
        self.model = model
        self.pivots = pivots
        self.tables = tables
        self.lm = lm
        self.discount = discount

    # ---- resolution of the parameters ---------------------------------------------------------
    @lazy_resource("model", "pivots", "tables", "lm", "discount")
    def _config(self) -> _Config:
        """The parameters resolved: model file and header, pivots, table and LM files, discount."""
        from parapeval.pem.model import model_info

        path = Path(self.model) if self.model else default_model_path()
        info = model_info(path)
        if self.tables is not None and not isinstance(self.tables, Mapping):
            raise ValueError(f"PEM's tables must map pivot -> phrase-table file, got {self.tables!r}")
        given = {p: Path(t) for p, t in (self.tables or {}).items()}
        if isinstance(self.pivots, str):
            pivots = tuple(p for p in self.pivots.split(",") if p)
        elif self.pivots:
            pivots = tuple(self.pivots)
        else:
            pivots = tuple(given) if given else tuple(info["pivots"])
        tables = {p: given.get(p, defaults.phrase_table_path(p)) for p in pivots}
        discount = self.discount if self.discount is not None else info.get("discount")
        return _Config(path, info, pivots, tables, Path(self.lm) if self.lm else defaults.lm_path(), discount)

    def config(self) -> _Config:
        """The parameters resolved (once per configuration and process)."""
        return self._config

    def validate(self) -> None:
        """Every resource exists and the settings make sense (raised before any scoring)."""
        cfg = self.config()
        if not cfg.pivots:
            raise ValueError("PEM needs at least one pivot language")
        if cfg.discount is not None and not 0 <= cfg.discount <= 1:
            raise ValueError(f"PEM's function-word discount must be in [0, 1], got {cfg.discount}")
        unused = set(self.tables or {}) - set(cfg.pivots)
        if unused:
            raise ValueError(f"phrase tables given for {', '.join(sorted(unused))}, not among the pivots "
                             f"{', '.join(cfg.pivots)}")
        steps = self._missing_default_steps(cfg)
        if steps:
            from evalcore.resources.system import ensure

            ensure("pem", steps=steps)
        for pivot, path in cfg.tables.items():
            if not path.is_file():
                raise ResourceError(f"phrase table for pivot {pivot!r} not found at {path}: build the defaults "
                                    "with `aesop-eval setup pem` or one with `parapeval build-phrase-table`")
        if not cfg.lm.is_file():
            raise ResourceError(f"language model {cfg.lm} not found: build the default with "
                                "`aesop-eval setup pem` or one with `parapeval build-lm`")

    @staticmethod
    def _missing_default_steps(cfg) -> tuple[str, ...]:
        """The build steps of :func:`~evalcore.resources.system.ensure` that make ``cfg``'s missing
        default resources (a resource the user named is never built)."""
        steps: tuple[str, ...] = ()
        if any(path == defaults.phrase_table_path(p) and not path.is_file() for p, path in cfg.tables.items()):
            steps += ("eflomal", "phrase-tables")
        if cfg.lm == defaults.lm_path() and not cfg.lm.is_file():
            steps += ("lmplz", "brown", "brown-lm")
        return steps

    @lazy_resource("model", "pivots", "tables", "lm", "discount")
    def resources(self) -> tuple[PEMFeatures, PEMRegressor]:
        """(features, regressor), loaded once per configuration and process."""
        from parapeval.pem.model import load_pem

        cfg = self.config()
        regressor, _ = load_pem(cfg.model)
        return PEMFeatures.from_paths(cfg.tables, cfg.lm, cfg.discount), regressor

    # ---- signature ----------------------------------------------------------------------------
    def signature(self) -> Signature:
        """``pem|pivots:fr=1a2b3c4d+de=...|fw:none|lm:default:4g:515b640c|model:pem-default|v:0.2.0``:
        each pivot with the hash of its table's signature (bitext, aligner, settings and content
        hash, so tables that differ in any entry differ here), the function-word discount, the
        LM's name, order and hash, and the model. Never raises: when
        the model's header or a resource cannot be read, the fields show the parameters as given
        and an ``unresolved:yes`` field says so (``validate`` names the problem)."""
        try:
            return self._resolved_signature()
        except (ResourceError, ModelFileError, ValueError, TypeError, OSError):
            return self._raw_signature()

    def _resolved_signature(self) -> Signature:
        from evalcore.resources.lm import KenLM

        cfg = self.config()
        pivots = tuple(f"{p}={_table_hash(t)}" for p, t in cfg.tables.items())
        params = {"pivots": pivots, "fw": cfg.discount, "lm": KenLM(cfg.lm).signature(), "model": cfg.model.stem}
        return Signature(self.name, params, {}, __version__)

    def _raw_signature(self) -> Signature:
        tables = self.tables if isinstance(self.tables, Mapping) else {}
        if isinstance(self.pivots, str):
            pivots = [p for p in self.pivots.split(",") if p]
        else:
            pivots = list(self.pivots or tables) or ["model"]
        shown = [f"{p}={Path(str(tables[p])).stem}" if p in tables else p for p in pivots]
        if self.tables is not None and not isinstance(self.tables, Mapping):
            shown.append(f"tables={self.tables}")
        params = {"pivots": tuple(shown), "fw": self.discount if self.discount is not None else "model",
                  "lm": Path(str(self.lm)).stem if self.lm else "default",
                  "model": Path(str(self.model)).stem if self.model else default_model_path().stem}
        return Signature(self.name, params, {"unresolved": True}, __version__)

    # ---- scoring ------------------------------------------------------------------------------
    def _check(self, item: Item, limits: InputLimits) -> tuple[Item, tuple[str, ...]]:
        """The contract's input rule, then PEM's word cap on both sides."""
        checked, notes = super()._check(item, limits)
        for role, text in (("source", self.source_text(checked)), ("candidate", checked.candidate)):
            n = len(text.split())
            if n > MAX_WORDS:
                raise InputError(f"{checked.id}: {role} is too long ({n:,} words > {MAX_WORDS:,}: PEM's bags "
                                 "of pivot n-grams grow with length)")
        return checked, notes

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        """One regressor call for the batch; features per window of pairs by the compiled kernels; a
        text shared by several items of a window (an original with many paraphrases) is
        preprocessed and its pivot bags built once. A copy (:func:`is_copy`) is scored as the
        verbatim copy of its original, so dropping the final period or changing case never lifts
        a copy above the copy penalty the model learned."""
        features, regressor = self.resources
        sources = [self.source_text(item) for item in items]
        copies = [is_copy(source, item.candidate) for source, item in zip(sources, items)]
        X, per_pivot = features.compute_many([(source, source if copy else item.candidate)
                                              for source, item, copy in zip(sources, items, copies)])
        predictions = regressor.predict(X)
        out = []
        for x, pivots, value, copy in zip(X, per_pivot, predictions, copies):
            components = {"adequacy": x[0], "fluency": x[1], "target_ngram_f1": x[2],
                          **{f"pivot_f1_{p}": f for p, f in pivots.items()}}
            out.append(Score(float(value), components, (COPY_NOTE,) if copy else ()))
        return out

    def neutral_score(self) -> Score:
        """The model's neutral value: its prediction at the median training features (model header)."""
        neutral = self.config().info["neutral"]
        return Score(neutral["value"], neutral["features"])


def copy_words(text: str) -> list[str]:
    """The words a copy check compares: tokens with a letter or digit, case-folded (punctuation
    and spacing dropped)."""
    return [t.casefold() for t in tokenize(text) if _WORD_CHAR.search(t)]


def is_copy(original: str, paraphrase: str) -> bool:
    """Whether ``paraphrase`` repeats ``original`` word for word, whatever its case, spacing and
    punctuation (a copy without its final period is still a copy)."""
    return original == paraphrase or copy_words(original) == copy_words(paraphrase)


def _table_hash(path: Path) -> str:
    """Short hash of a phrase table's signature (bitext hash, aligner, settings, content hash)."""
    return hashlib.sha1(PhraseTableStore(path).signature().encode("utf-8")).hexdigest()[:8]


__all__ = ["COPY_NOTE", "MAX_WORDS", "PEM", "PEMFeatures", "is_copy"]
