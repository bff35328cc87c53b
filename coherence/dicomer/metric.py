"""DICOMER as a metric of the suite's contract: the readability of a candidate text alone.

Each text is parsed once (spaCy + the discourse parser the model was trained with; parses cached
on disk by text hash), featurised and ranked by the shipped (or a given) model. ``value`` is the
ranker's decision value, the ``log_score`` component the paper's shifted logarithm (for Pearson).
Text an English pipeline cannot judge (another script, symbols only) gets the model's neutral
value, the median of its training predictions, with a note. So does, with the shipped model (variant
DICOMER-N), a text with fewer than two sentences or no discourse relation: noted "not_judged", it
carries no evidence either way. Models with the older one-sentence indicator score such texts and
note them. Relations may also come from parses made elsewhere
(``precomputed`` files or an ``external`` command, see :mod:`coherence.adapters`).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Sequence
from pathlib import Path

from coherence.heap import collect_new_objects_only
from coherence.sentences import DEFAULT_SENTENCES, check_mode
from evalcore import __version__
from evalcore.io.models import SUFFIX, load_trained
from evalcore.metric import Item, ReferenceFreeMetric, Score, Signature
from evalcore.resources.registry import package_path

MODEL_NAME = "dicomer_model"
#: opt-in shipped models by the name ``Dicomer(model=...)`` accepts: file stem in coherence/models
SHIPPED_MODELS = {"gdtb-all": "dicomer_gdtb_all"}
_NOTES = {
    "one_sentence": "one_sentence: no sentence transitions to judge (the model's one-sentence value)",
    "no_relations": "no_relations: no discourse relation found",
}
#: scores kept per engine, so the metrics of one run (DICOMER, each CREMER) that score the same
#: chunk of texts one after another analyse and featurise each text once
RECENT_TEXTS = 4096
_NEUTRAL_NOTES = {
    "one_sentence": "not_judged: fewer than two sentences (the model's neutral value)",
    "no_relations": "not_judged: no discourse relation found (the model's neutral value)",
}


def model_path(folder: Path | None = None, name: str = MODEL_NAME) -> Path:
    """The model file (:mod:`evalcore.io.models`) named ``name`` in ``folder`` (default: the shipped
    models' folder)."""
    return (folder or package_path("coherence", "models")) / f"{name}{SUFFIX}"


def resolve_model(model: str | Path | None) -> Path:
    """The file of ``model``: None = the shipped default, a name of :data:`SHIPPED_MODELS`
    (an opt-in shipped model), else a path."""
    if model is None:
        return model_path()
    if isinstance(model, str) and model in SHIPPED_MODELS:
        return model_path(name=SHIPPED_MODELS[model])
    return Path(model)


def load_dicomer_model(path: str | Path | None = None):
    """(fitted :class:`~coherence.dicomer.model.DicomerModel`, header dict) of a model file (or a
    name of :data:`SHIPPED_MODELS`), checked against the SHA-256 in its header; read once per
    process and file version."""
    from coherence.dicomer.model import DicomerModel

    return load_trained(resolve_model(path), DicomerModel, "DICOMER", "coherence train dicomer")


def model_signature(info: dict, parser: str, model_hash: str | None = None,
                    sentences: str | None = None) -> Signature:
    """The signature of a DICOMER model described by its header ``info``, with relations from
    ``parser`` (an id of :func:`~coherence.dicomer.analysis.parser_id`), texts read in sentence mode
    ``sentences`` (:mod:`coherence.sentences`; None before any text is read, as in a model file's
    header) and, once the file exists, the first 12 hex digits of its SHA-256."""
    features = dict(part.split(":", 1) for part in info["features"].split("|"))
    extras = {**features, "svmC": f"{info['C']:.4g}", "transform": "shifted_log"}
    if info.get("genres"):
        extras["genres"] = info["genres"]
    if info.get("genres") == "all":  # the opt-in model carries its restriction in its name and signature
        extras["use"] = "non-commercial"
    if model_hash:
        extras["model"] = model_hash
    if sentences:
        extras["sentences"] = sentences
    name = "dicomer-gdtb-all" if info.get("genres") == "all" else "dicomer"
    return Signature(name, {"variant": info["variant"], "mode": info["mode"], "parser": parser}, extras,
                     __version__)


def analysis_notes(analysis, neutral: bool = False) -> tuple[str, ...]:
    """Notes for analyses with little structure to judge: fewer than two sentences, no relations;
    ``neutral``: the model gave such a text its neutral value (it was not judged)."""
    flags = (["one_sentence"] if analysis.n_sentences < 2 else []) + ([] if analysis.relations else ["no_relations"])
    notes = _NEUTRAL_NOTES if neutral else _NOTES
    return tuple(notes[f] for f in flags)


class _Engine:
    """What scoring needs, built once per configuration and process: model, header, relation
    source, analysis cache, and the scores of recent texts, so DICOMER and every CREMER of a run
    analyse and score a text once (:func:`engine_for`)."""

    def __init__(self, params: dict):
        from coherence.adapters import ExternalParser, PrecomputedParses
        from coherence.dicomer.analysis import AnalysisCache, parser_id, shared_cache
        from coherence.parser.pipeline import DiscourseParser

        self.model, self.info = load_dicomer_model(params["model"])
        self.relations: PrecomputedParses | ExternalParser | None
        if params["precomputed"]:
            self.relations = PrecomputedParses(params["precomputed"])
        elif params["external"]:
            self.relations = ExternalParser(params["external"], params["external_format"])
        else:
            self.relations = None
        self.parser = self.relations or DiscourseParser(tier=int(self.info["parser_tier"]))
        self.parser_id = parser_id(self.parser)
        if self.info.get("parser", self.parser_id) != self.parser_id:
            advice = "" if self.relations else ": retrain with `coherence train dicomer`"
            warnings.warn(f"DICOMER model was trained with parser {self.info['parser']}, the relations "
                          f"now come from {self.parser_id}{advice}", stacklevel=5)
        # parses made elsewhere depend on tools we cannot fingerprint: never cached
        self.cache = None
        if self.relations is None:
            self.cache = shared_cache(self.parser) if params["cache"] else AnalysisCache(self.parser)
        self.recent: dict[str, Score] = {}
        self.sentences = check_mode(params["sentences"])

    def scores(self, items: Sequence[Item]) -> list[Score]:
        """Scores of the items' candidates; a text scored recently is not analysed or featurised
        again. With relations from elsewhere each item's parse is found by its id (the file name),
        so nothing is shared between items, and a failure raises naming the item. The collector
        scans only the objects made meanwhile (:mod:`coherence.heap`), not the loaded models."""
        with collect_new_objects_only():
            return self._scores(items)

    def _scores(self, items: Sequence[Item]) -> list[Score]:
        from coherence.dicomer.analysis import analyse_batch, text_key
        from coherence.parser.document import parse_texts

        if self.relations is not None:
            parsed = parse_texts([it.candidate for it in items], [it.id for it in items])
            return self._scored(analyse_batch(parsed, self.parser))
        keys = [text_key(it.candidate, self.sentences) for it in items]
        new = {k: it.candidate for k, it in zip(keys, items) if k not in self.recent}
        if new:
            assert self.cache is not None, "a metric that parses its texts has a cache"
            analyses = self.cache.analyse(list(new.values()), sentences=self.sentences)
            self.cache.save()
            self.recent.update(zip(new, self._scored(analyses)))
        scores = [self.recent[k] for k in keys]
        for old in list(self.recent)[:max(0, len(self.recent) - RECENT_TEXTS)]:
            del self.recent[old]
        return scores

    def _scored(self, analyses: Sequence) -> list[Score]:
        values = self.model.decision_function(analyses)
        logs = self.model.log_score(values)
        neutral = bool(self.info.get("config", {}).get("neutral", False))
        return [Score(float(v), {"log_score": float(lg)}, analysis_notes(a, neutral))
                for a, v, lg in zip(analyses, values, logs)]


def engine_for(params: dict) -> _Engine:
    """The engine of a configuration, one per process for equal parameters, model file version and
    cache folder: a ``dicomer`` metric and the DICOMER inside each CREMER share their analyses."""
    from evalcore.resources.registry import cache_root

    file = resolve_model(params["model"])
    stat = file.stat() if file.exists() else None
    version = (stat.st_mtime_ns, stat.st_size) if stat else None
    return _engine(tuple(params.items()), version, str(cache_root()) if params["cache"] else None)


@functools.lru_cache(maxsize=4)
def _engine(params: tuple, model_version: tuple | None, cache_folder: str | None) -> _Engine:
    return _Engine(dict(params))


def clear_engines() -> None:
    """Forget every engine: the next score starts cold (models re-read, analysis caches new)."""
    _engine.cache_clear()


class Dicomer(ReferenceFreeMetric):
    """DICOMER readability (Lin, Liu, Ng & Kan 2012) of a candidate text; no references.

    ``model``: a model file (None: the shipped one). ``precomputed``: a folder of parses named
    after each item's id (file name), or ``external``: a parser command template with ``{input}``
    and ``external_format`` (``pipe``/``json``) - else the parser the model was trained with.
    ``cache``: keep parses on disk under the suite's cache root (it never changes a number).
    ``sentences``: where sentences end (:data:`~coherence.sentences.SENTENCE_MODES`; ``auto``: at
    line breaks in a text that has them, as CNN/DailyMail and TAC files write one sentence a line)."""

    reads = "candidate"
    component_names = ("log_score",)
    signature_via = {"model": "model", "precomputed": "parser", "external": "parser", "external_format": "parser",
                     "sentences": "sentences"}
    signature_exempt = frozenset({"cache"})
    trained_on = ("GDTB train windows (open GUM genres) against sentence permutations; "
                  "model=\"gdtb-all\": every GUM genre")
    opt_in = {"model": ("gdtb-all",)}  # some GUM genres are CC BY-NC-SA: non-commercial
    cost = "heavy"

    def __init__(self, model: str | Path | None = None, precomputed: str | Path | None = None,
                 external: str | None = None, external_format: str = "pipe", cache: bool = True,
                 sentences: str = DEFAULT_SENTENCES):
        self.model = model
        self.precomputed = precomputed
        self.external = external
        self.external_format = external_format
        self.cache = cache
        self.sentences = sentences

    def validate(self) -> None:
        from coherence.adapters import FORMATS

        check_mode(self.sentences)
        if self.precomputed and self.external:
            raise ValueError("dicomer: give precomputed parses or an external parser, not both")
        if self.external is not None and "{input}" not in self.external:
            raise ValueError("dicomer: the external parser command must contain {input}")
        if self.external_format not in FORMATS:
            raise ValueError(f"dicomer: external_format must be one of {FORMATS}, got {self.external_format!r}")

    def _engine(self) -> _Engine:
        self._ensure_valid()
        return engine_for(self.get_params())

    def signature(self) -> Signature:
        """sacrebleu's short form: the model's variant and training mode, the
        parser (code and model hash, or where the relations come from), the feature configuration,
        the ranker's C, the transform and the model file's hash."""
        engine = self._engine()
        return model_signature(engine.info, engine.parser_id, engine.info["sha256"][:12], self.sentences)

    def neutral_score(self) -> Score:
        """The model's neutral value (the median of its training predictions) and its log score:
        what text the English pipeline cannot judge gets instead of a confident score."""
        model = self._engine().model
        return Score(model.neutral_score_, {"log_score": float(model.log_score([model.neutral_score_])[0])})

    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        return self._engine().scores(items)
