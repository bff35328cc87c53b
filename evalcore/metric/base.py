"""Metric bases typed by what they read (sacrerouge's idea), with scikit-learn's parameter
contract (``__init__`` only stores parameters; ``get_params`` round-trips) and sacrebleu's
signature and corpus statistics.

- :class:`ReferenceMetric`: ``score(references, candidate)`` (TESLA-S, ROUGE, CREMER, MT metrics);
- :class:`ReferenceFreeMetric`: ``score(candidate)`` (DICOMER);
- :class:`SourceMetric`: ``score(source, candidate)`` (PEM on an original/paraphrase pair).

Subclasses implement :meth:`Metric._score_items` over already-checked :class:`Item` s. The base
applies the input rule (:mod:`.inputs`) once per text, turns bad items into error records, retries
a failing batch item by item so one bad item never costs the others, and attaches notes.
"""

from __future__ import annotations

import inspect
import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, TypeVar

import numpy as np

from evalcore import __version__
from evalcore.io.textfiles import InputError
from evalcore.metric.inputs import (
    EMPTY_NOTE,
    InputLimits,
    TextCheck,
    check_text,
    clean_text,
    cleaning_note,
    is_blank,
)
from evalcore.metric.lazy import reset
from evalcore.metric.records import ErrorRecord, Score
from evalcore.metric.signature import Signature
from evalcore.text.languages import script_mismatch

#: cleaned reference tuples that passed the input rule, by (references, size cap, English): a
#: topic's references met again with its next candidate cost one look-up, not one check (and one
#: role string) per reference; bounded by emptying it when full
_checked_refs: dict[tuple, tuple[str, ...]] = {}
_CHECKED_REFS_SIZE = 4096


def _checked_references(references, name: str, limits: InputLimits, english: bool) -> tuple[str, ...]:
    """The cleaned references of item ``name`` (:func:`check_text` on each, InputError naming the
    first bad one); tuples that passed are remembered, so each is checked once per process."""
    references = tuple(references)
    key = (references, limits.max_chars, english)
    hashable = True
    try:
        refs = _checked_refs.get(key)
    except TypeError:  # an unhashable entry: check_text names it below
        hashable, refs = False, None
    if refs is None:
        refs = tuple(check_text(r, f"{name}: reference {k + 1}", limits, english).text
                     for k, r in enumerate(references))
        if hashable:
            if len(_checked_refs) >= _CHECKED_REFS_SIZE:
                _checked_refs.clear()
            _checked_refs[key] = refs
    return refs


@dataclass(frozen=True)
class Item:
    """One thing to score: a candidate, with references and/or a source where the metric reads
    them; ``id`` names the item in error records; ``lang`` (ISO 639-1) is the item's language
    when it is not the metric's own (None: the metric's language)."""

    candidate: str
    references: tuple[str, ...] = ()
    source: str | None = None
    id: str = ""
    lang: str | None = None


Result = Score | ErrorRecord

#: the scale of :attr:`Metric.cost`
COSTS = ("light", "medium", "heavy")


MetricT = TypeVar("MetricT", bound="Metric")


class RegisteredName:
    """A metric's name, stated once by the registry: an instance is named by the registered
    configuration it has (:func:`~evalcore.metric.registry.configuration_name`), so a metric class
    states no name of its own. A class registered by itself (a plugin) states ``name = "..."``,
    which replaces this; on the class, with no name stated, it reads ""."""

    def __get__(self, instance: Metric | None, owner: type) -> str:
        if instance is None:
            return ""
        from evalcore.metric.specs import configuration_name

        return configuration_name(owner, {k: getattr(instance, k) for k in instance._param_names()
                                          if hasattr(instance, k)})


class Metric(ABC):
    """Base of every metric. Class attributes say what it is; instances hold only parameters."""

    name: ClassVar[str] = RegisteredName()  # type: ignore[assignment]  # reads as a str
    #: "references", "candidate", "source" or "source+references": what an item must carry besides
    #: the candidate.
    reads: ClassVar[str] = "references"
    #: short signature keys for constructor parameters (parameter name -> key); others use their name.
    signature_keys: ClassVar[dict[str, str]] = {}
    #: this metric's own size cap (characters per text), below the input rule's, where its cost
    #: grows faster than linearly with a text's length (docs/bounds.md); None: the rule's cap only
    max_chars: ClassVar[int | None] = None
    #: parameters the signature shows through a derived fact (parameter -> extras key), e.g. a
    #: model path through the model's hash: the path itself says nothing reproducible; "name"
    #: where the metric's name carries the parameter (ROUGE's kind: rouge-2).
    signature_via: ClassVar[dict[str, str]] = {}
    #: parameters that cannot change a number (a cache switch): left out of the signature.
    signature_exempt: ClassVar[frozenset[str]] = frozenset()
    #: whether the English input notes apply (False for metrics of other languages).
    english: ClassVar[bool] = True
    #: "item": a value depends on its item alone (batch = one by one); "topic": on the other items of
    #: the batch that share its references too (CREMER standardises TESLA-S within a topic), so a
    #: topic's items must be scored in one batch; items of other topics never change a value.
    scope: ClassVar[str] = "item"
    #: the value of an empty candidate for a metric that cannot read an empty text (its worst
    #: value); None: the metric scores the empty text itself.
    empty_value: ClassVar[float | None] = None
    #: the components every score of it carries, in order (a tabular output's columns beside its
    #: value); () where they vary or a tabular output shows the value alone.
    component_names: ClassVar[tuple[str, ...]] = ()

    # ---- facts: what registries, CLIs and benchmarks read instead of knowing a metric by name ----
    #: True where a smaller value is better (TER): ranks, correlations and significance flip the sign.
    lower_is_better: ClassVar[bool] = False
    #: the target languages it supports (ISO 639-1 codes), ``("*",)`` for any language.
    languages: ClassVar[tuple[str, ...]] = ("en",)
    #: the parameter that selects the language it reads (TESLA-S's ``lang``), None where it reads
    #: one language or any: an item in another language it supports is scored by a copy set to
    #: that language; an item in a language it does not read gets an error record naming both.
    language_param: ClassVar[str | None] = None
    #: parameter -> the value its signature leaves unnamed (``lang: "en"``: English signatures
    #: stay as they were before the parameter existed); any other value is named.
    signature_implicit: ClassVar[dict[str, object]] = {}
    #: what data the shipped model learned from (None: nothing learned), e.g. "WMT12 human rankings into English".
    trained_on: ClassVar[str | None] = None
    #: benchmark sets the shipped model saw, as ``"benchmark:pair"`` (``"wmt12:de-en"``): a benchmark
    #: reports no in-sample figure there.
    in_sample: ClassVar[tuple[str, ...]] = ()
    #: whether a benchmark's default run and the package's ``-m all`` include it; ``default_note``
    #: says why not (slow, another language, a parameter a benchmark cannot set).
    default: ClassVar[bool] = True
    default_note: ClassVar[str] = ""
    #: parameter -> values that make a configuration opt-in (a non-commercial model): never in a
    #: default set, whatever ``default`` says.
    opt_in: ClassVar[dict[str, tuple]] = {}
    #: time per segment of the default configuration, one of :data:`COSTS`: "light" (under ~1 ms),
    #: "medium" (~1-10 ms), "heavy" (over ~10 ms: discourse parsing, semantic role labelling).
    cost: ClassVar[str] = "light"
    #: the pip extra of ``aesop-eval`` whose dependencies it needs ("" for the base install); a
    #: metric registered as a class (a plugin's entry point) is listed with it.
    extra: ClassVar[str] = ""
    #: the suite command that offers it (``mteval``, ``summeval``, ``coherence``, ``parapeval``);
    #: "" for the top package of its module, which is what every metric inside the suite uses.
    package: ClassVar[str] = ""

    def is_opt_in(self) -> bool:
        """Whether this configuration is opt-in (a parameter value listed in :attr:`opt_in`)."""
        return any(getattr(self, p, None) in values for p, values in self.opt_in.items())

    def statistic_names(self) -> tuple[str, ...] | None:
        """The fixed order of the per-segment statistics a score carries as components (what the
        tuning stream's ``--stats`` prints); None: the score's own components."""
        return None

    # ---- scikit-learn's parameter contract ---------------------------------------------------
    @classmethod
    def _param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        return [p.name for p in sig.parameters.values()
                if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]

    def get_params(self, deep: bool = False) -> dict:
        """Every constructor parameter and its value: ``type(m)(**m.get_params())`` equals ``m``."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self: MetricT, **params) -> MetricT:
        """Change parameters; the lazy resources they select (:mod:`evalcore.metric.lazy`) are rebuilt on next use."""
        valid = set(self._param_names())
        for key, value in params.items():
            if key not in valid:
                raise ValueError(f"{self.name}: unknown parameter {key!r}; valid: {', '.join(sorted(valid))}")
            setattr(self, key, value)
        self.__dict__.pop("_validated", None)
        reset(self, params)
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.get_params().items())})"

    def __getstate__(self):
        """Only parameters travel to worker processes; loaded models and caches are rebuilt."""
        return self.get_params()

    def __setstate__(self, state):
        type(self).__init__(self, **state)

    # ---- signature ---------------------------------------------------------------------------
    def signature_extras(self) -> dict[str, object]:
        """Facts derived from the parameters that change the numbers (a model's hash, a tokenizer)."""
        return {}

    def signature(self) -> Signature:
        """The :class:`Signature` of this configuration (printed with every score)."""
        params = {self.signature_keys.get(k, k): v for k, v in self.get_params().items()
                  if k not in self.signature_exempt and k not in self.signature_via
                  and not (k in self.signature_implicit and v == self.signature_implicit[k])}
        return Signature(self.name, params, self.signature_extras(), __version__)

    # ---- scoring -----------------------------------------------------------------------------
    def validate(self) -> None:  # noqa: B027 - a hook: metrics with parameters to check override it
        """Check parameter values (called once before scoring, not in ``__init__``)."""

    def _ensure_valid(self) -> None:
        if not self.__dict__.get("_validated"):
            self.validate()
            self.__dict__["_validated"] = True

    @abstractmethod
    def _score_items(self, items: Sequence[Item]) -> list[Score]:
        """Scores of checked items, in order; texts shared between items are preprocessed once."""

    def neutral_score(self) -> Score | None:
        """What a learned metric gives text it cannot judge (its neutral value); None = score the
        text as usual and flag it."""
        return None

    def _to_item(self, raw, position: int) -> Item:
        """The typed form of one batch entry (an :class:`Item` or the tuple ``score`` takes)."""
        if isinstance(raw, Item):
            return raw
        raise InputError(f"item {position + 1}: expected an Item, got {type(raw).__name__}")

    @staticmethod
    def _check_candidate(text, role: str, limits: InputLimits, english: bool) -> TextCheck:
        """The input rule for a candidate: an empty one is an output to score (with
        :data:`EMPTY_NOTE`), not an error; anything else as :func:`check_text`."""
        if is_blank(text) and len(clean_text(text)) <= limits.max_chars:  # the cap counts cleaned text
            return TextCheck("", (EMPTY_NOTE,))
        return check_text(text, role, limits, english)

    def _check(self, item: Item, limits: InputLimits) -> tuple[Item, tuple[str, ...]]:
        """The item with cleaned texts, and its notes; InputError names the item and the text."""
        name = item.id or "item"
        # the English notes apply where the item is read as English
        english = self.english if item.lang is None or item.lang == self.own_language() else item.lang == "en"
        cand = self._check_candidate(item.candidate, f"{name}: candidate", limits, english)
        notes = cand.notes
        refs: tuple[str, ...] = ()
        source = None
        if self.reads in ("references", "source+references"):
            if isinstance(item.references, str) or not item.references:
                raise InputError(f"{name}: no references given")
            refs = _checked_references(item.references, name, limits, english)
        if self.reads in ("source", "source+references"):
            src: TextCheck = check_text(item.source, f"{name}: source", limits, english)
            source, notes = src.text, tuple(dict.fromkeys((*src.notes, *notes)))
        self._check_script(item.lang or self.own_language(), name, cand.text, refs)
        return replace(item, candidate=cand.text, references=refs, source=source), notes

    def _check_script(self, lang: str, name: str, candidate: str, references: tuple[str, ...]) -> None:
        """InputError when most letters of the candidate or of a reference are not in the scripts
        of the language they are read as (``lang``; no check for "*", for a code the suite does not
        know, or for a language this metric does not read, which it refuses by name): its words
        cannot be that language's, and a score would be a silent zero."""
        if lang not in self.languages and "*" not in self.languages:
            return
        for role, text in (("candidate", candidate), *((f"reference {k + 1}", r) for k, r in enumerate(references))):
            why = script_mismatch(text, lang)
            if why:
                raise InputError(f"{name}: {role}: {why}; give the text's language (--lang or a 'lang' field)")

    def score_batch(self, items: Iterable, limits: InputLimits | None = None) -> list[Result]:
        """A :class:`Score` or an :class:`ErrorRecord` for every item of any iterable, in order
        (never fewer): a malformed item (None, bytes, a number, a tuple of the wrong length,
        references that are not strings) is an error record naming it, never an exception. A
        string or bytes given as the whole batch is an InputError (it would be read character by
        character)."""
        if isinstance(items, (str, bytes, bytearray)):
            raise InputError(f"{self.name}: score_batch takes an iterable of items, got a {type(items).__name__} "
                             "(score one text with score())")
        self._ensure_valid()
        limits = self.input_limits(limits or InputLimits.from_env())
        items = list(items)
        out: dict[int, Result] = {}
        todo: list[tuple[int, Item, tuple[str, ...]]] = []
        neutral = self.neutral_score()
        for k, raw in enumerate(items):
            try:
                item = self._to_item(raw, k)
                item = item if item.id else replace(item, id=f"item {k + 1}")
                checked, notes = self._check(item, limits)
            except Exception as exc:  # noqa: BLE001 - any malformed item becomes its error record
                message = (str(exc) if isinstance(exc, InputError)
                           else f"malformed item ({type(exc).__name__}: {exc})")
                out[k] = ErrorRecord(_raw_id(raw) or f"item {k + 1}", self.name, _strip_id(message, k))
                continue
            notes = (*notes, *_cleaning_notes(item, checked))
            if EMPTY_NOTE in notes and self.empty_value is not None:
                out[k] = Score(self.empty_value, notes=notes)
            elif (notes and neutral is not None and EMPTY_NOTE not in notes
                  and not all(n.startswith(CLEANED) for n in notes)):
                out[k] = neutral.with_notes(*notes, "neutral: the model's neutral value, not a judgment")
            else:
                todo.append((k, checked, notes))
        for metric, group in self._by_language(todo, out):
            read_as = () if metric is self else (f"lang: read as {metric.own_language()} ({metric.signature()})",)
            for k, result in metric._score_isolated([t[1] for t in group]):
                notes = (*group[k][2], *read_as)
                out[group[k][0]] = result.with_notes(*notes) if result.ok and notes else result
        return [out[k] for k in range(len(items))]

    def own_language(self) -> str:
        """The language this configuration reads: its :attr:`language_param`'s value, else its
        only language (English for the English metrics), "*" for any."""
        if self.language_param is not None:
            return str(getattr(self, self.language_param))
        return self.languages[0] if len(self.languages) == 1 else "*"

    def _by_language(self, todo: list, out: dict) -> list[tuple[Metric, list]]:
        """The items grouped by the metric that reads their language: this one for its own
        language (and for items without ``lang``, and for any language it reads where no parameter
        selects the language), a copy set to another language it supports; an item in a language
        it does not read gets an error record in ``out``."""
        own = self.own_language()
        fixed = self.language_param is None
        groups: dict[str, list] = {}
        for entry in todo:
            lang = entry[1].lang
            if lang is None or lang == own or "*" in self.languages or (fixed and lang in self.languages):
                groups.setdefault(own, []).append(entry)
            elif self.language_param is not None and lang in self.languages:
                groups.setdefault(lang, []).append(entry)
            else:
                out[entry[0]] = ErrorRecord(entry[1].id, self.name, f"{self.name} does not read language "
                                            f"{lang!r}: it reads {', '.join(self.languages)}")
        runs: list[tuple[Metric, list]] = []
        for lang, group in groups.items():
            if lang == own or self.language_param is None:
                runs.append((self, group))
                continue
            metric = type(self)(**{**self.get_params(), self.language_param: lang})
            try:
                metric._ensure_valid()
            except ValueError as exc:  # a setting the other language cannot have (English POS tags)
                out.update((k, ErrorRecord(item.id, self.name, f"lang {lang!r}: {exc}")) for k, item, _ in group)
                continue
            runs.append((metric, group))
        return runs

    def input_limits(self, limits: InputLimits) -> InputLimits:
        """``limits`` narrowed to this metric's own :attr:`max_chars`."""
        if self.max_chars is None or self.max_chars >= limits.max_chars:
            return limits
        return InputLimits(self.max_chars, owner=self.name)

    def _score_isolated(self, items: list[Item]):
        """(position, result) pairs; a failing batch is retried item by item to name the culprit."""
        if not items:
            return []
        try:
            scores = self._score_items(items)
            if len(scores) != len(items):
                raise RuntimeError(f"{self.name} returned {len(scores)} scores for {len(items)} items")
            return list(enumerate(scores))
        except Exception as exc:  # noqa: BLE001 - isolate the failing item(s) below
            if len(items) == 1:
                return [(0, self._error(items[0], exc))]
            return [(k, self._score_one_isolated(it)) for k, it in enumerate(items)]

    def _score_one_isolated(self, item: Item) -> Result:
        try:
            return self._score_items([item])[0]
        except Exception as exc:  # noqa: BLE001 - any failure is this item's error record
            return self._error(item, exc)

    def _error(self, item: Item, exc: Exception) -> ErrorRecord:
        return ErrorRecord(item.id, self.name, f"{type(exc).__name__}: {exc}")

    def _one(self, item: Item) -> Score:
        """Score one item or raise InputError (the single-item API never returns an error record)."""
        result = self.score_batch([item])[0]
        if not result.ok:
            raise InputError(result.message)
        return result

    # ---- corpus / system level ---------------------------------------------------------------
    def corpus_score(self, items: Iterable) -> Score:
        """One score for a whole test set: :meth:`aggregate` of :meth:`score_batch`."""
        return self.aggregate(self.score_batch(items))

    def aggregate(self, records: Iterable[Result]) -> Score:
        """Corpus score from the records of :meth:`score_batch`: error records are left out and
        counted in a note (``n_errors`` component), so no item goes missing unnoticed; metrics
        with sufficient statistics (BLEU-like) override :meth:`_aggregate`."""
        records = list(records)
        scores = [r for r in records if r.ok]
        errors = len(records) - len(scores)
        result = self.aggregate_scores(scores)
        if not errors:
            return result
        note = f"{errors} of {len(records)} items have error records and are not in this score"
        return Score(result.value, {**result.components, "n_errors": errors}, (*result.notes, note))

    def aggregate_scores(self, scores: Sequence[Score]) -> Score:
        """Corpus score of scores alone (no error records); ``scores`` is read in order, possibly
        more than once, and may make each Score as it is read (:class:`~evalcore.metric.columns.ScoreColumns`)."""
        return self._aggregate(scores)

    def _aggregate(self, scores: Sequence[Score]) -> Score:
        """Corpus score from segment scores (mean of values and of shared components)."""
        if not scores:
            return Score(math.nan, notes=("no item scored",))
        keys = set(scores[0].components)
        for s in scores:  # one score at a time: ``scores`` may make them as it is read (ScoreColumns)
            keys &= s.components.keys()
        comps = {k: float(np.mean(np.fromiter((s.components[k] for s in scores), float, len(scores))))
                 for k in sorted(keys)}
        return Score(float(np.mean(np.fromiter((s.value for s in scores), float, len(scores)))), comps)


#: the prefix of the notes saying what the input rule removed from a text
CLEANED = "cleaned: "


def _cleaning_notes(raw: Item, checked: Item) -> tuple[str, ...]:
    """Notes for the texts of ``raw`` that the input rule changed (cleaned texts differ)."""
    pairs = [(raw.candidate, checked.candidate, "candidate"), (raw.source, checked.source, "source")]
    if raw.references != checked.references:
        pairs += [(r, c, f"reference {k + 1}") for k, (r, c) in enumerate(zip(raw.references, checked.references))]
    notes = (cleaning_note(r, role) for r, c, role in pairs if isinstance(r, str) and isinstance(c, str) and r != c)
    return tuple(note for note in notes if note)


def _raw_id(raw) -> str:
    """The id a malformed entry carries (an Item's), else ""."""
    return raw.id if isinstance(raw, Item) and isinstance(raw.id, str) else ""


def _strip_id(message: str, position: int) -> str:
    """The message without a leading ``item N:`` (a placeholder name the record carries already);
    a real id such as ``file:line`` stays in the message, so it reaches every output format."""
    return message.removeprefix(f"item {position + 1}: ")


class ReferenceMetric(Metric):
    """Candidate + references. ``score(references, candidate)``, as rouge-score's
    ``score(target, prediction)``; batch items are ``(references, candidate)`` pairs or Items."""

    reads: ClassVar[str] = "references"

    def score(self, references: Sequence[str] | str, candidate: str) -> Score:
        if isinstance(candidate, (list, tuple)) and isinstance(references, str):
            raise InputError("candidate must be a string, got a list: arguments are (references, candidate) "
                             "- did you swap them?")
        if not isinstance(references, Iterable):
            raise InputError(f"references must be a string or a list of strings, got {type(references).__name__}")
        refs = (references,) if isinstance(references, str) else tuple(references)
        return self._one(Item(candidate, refs))

    def _to_item(self, raw, position: int) -> Item:
        if isinstance(raw, Item):
            return raw
        if isinstance(raw, tuple) and len(raw) == 2:
            refs, cand = raw
            if isinstance(cand, (list, tuple)) and isinstance(refs, str):
                raise InputError(f"item {position + 1}: pairs are (references, candidate) - did you swap them?")
            if isinstance(refs, str):
                return Item(cand, (refs,))
            if not isinstance(refs, (list, tuple)):
                raise InputError(f"item {position + 1}: references must be a string or a list of strings, "
                                 f"got {type(refs).__name__}")
            return Item(cand, tuple(refs))
        raise InputError(f"item {position + 1}: expected a (references, candidate) pair or an Item, got "
                         + (f"a tuple of {len(raw)}" if isinstance(raw, tuple) else type(raw).__name__))


class ReferenceFreeMetric(Metric):
    """Candidate alone. ``score(candidate)``; batch items are strings or Items."""

    reads: ClassVar[str] = "candidate"

    def score(self, candidate: str) -> Score:
        return self._one(Item(candidate))

    def _to_item(self, raw, position: int) -> Item:
        if isinstance(raw, Item):
            return raw
        if isinstance(raw, tuple) and len(raw) == 2 and isinstance(raw[1], str):
            return Item(raw[1])  # a (references, candidate) pair from a mixed batch: references unused
        return Item(raw)


class SourceMetric(Metric):
    """Source + candidate (an original and its paraphrase). ``score(source, candidate)``; batch
    items are ``(source, candidate)`` pairs or Items."""

    reads: ClassVar[str] = "source"

    def score(self, source: str, candidate: str) -> Score:
        return self._one(Item(candidate, source=source))

    @staticmethod
    def source_text(item: Item) -> str:
        """The source of an item the input check passed (it gives every item here a source)."""
        if item.source is None:
            raise InputError(f"{item.id or 'item'}: no source given")
        return item.source

    def _to_item(self, raw, position: int) -> Item:
        if isinstance(raw, Item):
            return raw
        if isinstance(raw, tuple) and len(raw) == 2:
            return Item(raw[1], source=raw[0])
        raise InputError(f"item {position + 1}: expected a (source, candidate) pair or an Item, got "
                         + (f"a tuple of {len(raw)}" if isinstance(raw, tuple) else type(raw).__name__))


class SourceReferenceMetric(Metric):
    """Source + references + candidate (an original, its human paraphrases and a generator's
    paraphrase: iBLEU). ``score(source, references, candidate)``; batch items are
    ``(source, references, candidate)`` triples or Items."""

    reads: ClassVar[str] = "source+references"
    source_text = staticmethod(SourceMetric.source_text)

    def score(self, source: str, references: Sequence[str] | str, candidate: str) -> Score:
        refs = (references,) if isinstance(references, str) else tuple(references)
        return self._one(Item(candidate, refs, source=source))

    def _to_item(self, raw, position: int) -> Item:
        if isinstance(raw, Item):
            return raw
        if isinstance(raw, tuple) and len(raw) == 3:
            source, refs, cand = raw
            if not isinstance(refs, (str, list, tuple)):
                raise InputError(f"item {position + 1}: references must be a string or a list of strings, "
                                 f"got {type(refs).__name__}")
            return Item(cand, (refs,) if isinstance(refs, str) else tuple(refs), source=source)
        raise InputError(f"item {position + 1}: expected a (source, references, candidate) triple or an Item, got "
                         + (f"a tuple of {len(raw)}" if isinstance(raw, tuple) else type(raw).__name__))
