"""The suite's semantic role labeller: spaCy parses the text, then the shipped linear models find
predicates (verbal, nominal, adjectival; sense-free) and label their arguments (ARG0-5, ARGM-*).

No registry ships an offline English SRL model, so the suite trains its own on Universal PropBank
English EWT dev (``mteval train srl``); ``default_labeller("en")`` loads the shipped one.
One :class:`FramedSentence` per input text, over spaCy's tokens of the whole text: a text that
holds several sentences keeps them together (frames never cross spaCy's sentence boundaries).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from evalcore.io.models import load_model, save_model
from evalcore.resources.registry import ResourceError, package_path, spacy_pipeline
from mteval.srl.features import Parsed, parse_texts
from mteval.srl.frames import FramedSentence
from mteval.srl.model import SRLModel


@dataclass(frozen=True)
class SRLLanguage:
    """What labelling one language takes: the spaCy model that parses it, the UP file that trains
    it, and the shipped model's folder under ``mteval/models``."""

    code: str
    spacy_model: str
    up_file: str
    folder: str


LANGUAGES = {
    "en": SRLLanguage("en", "en_core_web_sm", "en_ewt-up-dev.conllu", "srl-en"),
    "fr": SRLLanguage("fr", "fr_core_news_sm", "fr-up-dev.conllu", "srl-fr"),
}
#: what stops the other UP languages (checked against the offline package lists)
MISSING = {
    "de": "no offline German dependency parser installs from the registries (de-core-news-* on PyPI are "
          "999.9.9 placeholders; stanza, trankit and the UDPipe bindings fetch their models at run time), "
          "so there are no run-time features to train on; give external frames (mteval.srl.external) instead",
    "zh": "no offline Chinese dependency parser installs from the registries (zh-core-web-* on PyPI are "
          "999.9.9 placeholders; jieba tags but does not parse; HanLP, LTP and stanza fetch their models at "
          "run time), so there are no run-time features to train on; give external frames "
          "(mteval.srl.external) instead",
}
MODEL_FILE = "model.npz"


def language_of(code: str) -> SRLLanguage:
    """The labelling set-up of a language, or a clear error naming what is missing."""
    if code in LANGUAGES:
        return LANGUAGES[code]
    if code in MISSING:
        raise ResourceError(f"no semantic role labeller for {code!r}: {MISSING[code]}")
    raise ResourceError(f"no semantic role labeller for {code!r}: the suite labels {', '.join(LANGUAGES)}")


@functools.cache
def parser_for(code: str):
    """The spaCy pipeline (tagger, parser, lemmatiser, entity recogniser) of a language, loaded once."""
    if code == "en":
        return spacy_pipeline(())
    import spacy

    name = language_of(code).spacy_model
    try:
        return spacy.load(name)
    except OSError as exc:
        raise ResourceError(f"spaCy model {name} is not installed: pip install 'aesop-eval[mt]' installs it") from exc


def model_path(code: str) -> Path:
    """Where the shipped model of a language lives."""
    return package_path("mteval", "models", language_of(code).folder, MODEL_FILE)


class Labeller:
    """Labels texts of one language with a trained :class:`SRLModel`; ``info`` is the model's
    header (signature, training data, licence)."""

    def __init__(self, model: SRLModel, language: str = "en", info: dict | None = None):
        self.model = model
        self.language = language
        self.info = info or {}

    def label(self, texts: Sequence[str]) -> list[FramedSentence]:
        """One :class:`FramedSentence` per text (empty text: no tokens, no frames). Every text is
        read as this labeller's language; other languages get whatever frames the parse yields."""
        for k, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(f"text {k}: expected a string, got {type(text).__name__}")
        return self.label_parsed(parse_texts(parser_for(self.language), texts))

    def label_parsed(self, parsed: Sequence[Parsed]) -> list[FramedSentence]:
        """Frames of already parsed texts (the benchmark times spaCy apart from the models)."""
        return [FramedSentence(p.words, frames) for p, frames in zip(parsed, self.model.frames(parsed))]

    def describe(self) -> dict[str, str]:
        """Signature fields: language, parser (spaCy model and version), model hash, and for English
        the WordNet whose noun classes are predicate features (:func:`~mteval.srl.features.noun_classes`)."""
        meta = parser_for(self.language).meta
        fields = {"lang": self.language, "parser": f"{meta['lang']}_{meta['name']}-{meta['version']}",
                  "model": str(self.info.get("sha256", "unsaved"))[:8]}
        if self.language == "en":
            from evalcore.resources.wordnet import version

            fields["wordnet"] = version()
        return fields


def save_labeller(model: SRLModel, path: str | Path, info: dict) -> Path:
    """Write a trained model as a model file (:mod:`evalcore.io.models`; ``info``: signature,
    trained_on, licence, language, ...), named ``srl-<language>`` in its header."""
    return save_model({"predicate": (model.predicate_vec, model.predicate_clf),
                       "argument": (model.argument_vec, model.argument_clf)}, path,
                      {**info, "metric": f"srl-{info.get('language', 'en')}"})


def load_labeller(path: str | Path, language: str = "en") -> Labeller:
    """A :class:`Labeller` from a model file written by :func:`save_labeller` (hash checked)."""
    payload, info = load_model(path)
    return Labeller(SRLModel(*payload["predicate"], *payload["argument"]), language, info)


@functools.cache
def default_labeller(language: str = "en") -> Labeller:
    """The shipped labeller of a language (loaded once per process); a clear error for languages
    without one (German, Chinese: no offline parser) or when the model file is missing."""
    language_of(language)
    path = model_path(language)
    if not path.is_file():
        raise ResourceError(f"no shipped SRL model at {path}: train one with `mteval train srl --language {language}`")
    return load_labeller(path, language)
