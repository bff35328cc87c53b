"""``mteval train srl``: train the labeller of a language on its Universal PropBank dev file (spaCy
features on the gold tokens) and write the model file (header: signature, data, licence)."""

from __future__ import annotations

import datetime
from pathlib import Path

from evalcore.io.runinfo import source_commit
from evalcore.resources.registry import shared_data_dir
from mteval.srl.features import parse_gold_tokens
from mteval.srl.labeller import language_of, parser_for, save_labeller
from mteval.srl.model import Settings, SRLModel, train_model
from mteval.srl.up import UPSentence, read_up

#: feature set version (bump when features.py changes what a model sees)
FEATURES = "srl-feat-3"
LICENCE = (
    "Trained on Universal PropBank 1.0 (annotations: CDLA-Sharing-1.0) over Universal Dependencies "
    "treebank text (CC BY-SA 4.0). CDLA-Sharing-1.0 distinguishes the Data from Results, the outputs of "
    "Computational Use of the Data; its share-alike conditions bind republished Data and Enhanced Data, "
    "and this model's weights are Results. The CC BY-SA 4.0 text is not reproduced (no sentence is "
    "stored), but the feature vocabulary holds single words, lemmas and word pairs seen in it, and "
    "whether weights derived from such text are Adapted Material is unsettled: the model files are "
    "therefore distributed under CC BY-SA 4.0 with attribution to Universal PropBank (Akbik et al.; "
    "UniversalPropositions/UP-1.0) and the UD treebank, so that share-alike is met either way. Frames "
    "the model outputs on your own text are yours; the suite's code licence is unaffected.")
TREEBANK = {"en": "UD English EWT (CC BY-SA 4.0)", "fr": "UD French (UP 1.0 fr dev; CC BY-SA 4.0)"}


def up_path(language: str, data_root: Path | None = None) -> Path:
    """The UP dev file that trains a language's labeller."""
    return (data_root or shared_data_dir()) / "srl" / "up" / language_of(language).up_file


def training_sentences(language: str, data_root: Path | None = None) -> list[UPSentence]:
    """The annotated sentences of the language's UP dev file."""
    return [s for s in read_up(up_path(language, data_root)) if s.annotated]


def signature(language: str, settings: Settings) -> str:
    """The model's signature: language, parser, feature set and training settings."""
    meta = parser_for(language).meta
    sets = ",".join(f"{k}={v}" for k, v in settings.describe().items())
    return f"srl-{language}|parser:{meta['lang']}_{meta['name']}-{meta['version']}|{FEATURES}|linearsvc({sets})"


def train_and_save(language: str, out: Path, data_root: Path | None = None, settings: Settings = Settings(),
                   log=print) -> tuple[SRLModel, Path]:
    """Train on all of the language's UP dev and write the model file ``out``."""
    sentences = training_sentences(language, data_root)
    log(f"srl {language}: parsing {len(sentences)} UP sentences with spaCy")
    parsed = parse_gold_tokens(parser_for(language), sentences)
    log("srl: training predicate and argument classifiers")
    model = train_model(sentences, parsed, settings)
    path = up_path(language, data_root)
    info = {
        "signature": signature(language, settings),
        "trained_on": f"Universal PropBank 1.0 ({path.name}, UniversalPropositions/UP-1.0 @ b955f2aa): "
                      f"{len(sentences)} sentences, {sum(len(s.predicates) for s in sentences)} predicates; "
                      f"{TREEBANK.get(language, 'UD')}",
        "licence": LICENCE,
        "language": language,
        "settings": settings.describe(),
        "features": FEATURES,
        "classes": [str(c) for c in model.argument_clf.classes_],
        "n_features": {"predicate": len(model.predicate_vec.feature_names_),
                       "argument": len(model.argument_vec.feature_names_)},
        "commit": source_commit(),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "evaluation": "`python -m benchmarks srl` (cross-validated by document on the same dev file)",
    }
    save_labeller(model, out, info)
    return model, out

