"""Train the Tier 1 parser on GDTB train (hyper-parameter C tuned on dev) and write the model
file (:mod:`evalcore.io.models`, its signature in the header) and the connective lexicon into
``coherence/models/``."""

from __future__ import annotations

import time
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import sklearn
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score
from sklearn.pipeline import Pipeline, make_pipeline

from coherence.corpora import load_gdtb
from coherence.gold import connective_examples, explicit_examples, pair_examples, parse_corpus
from coherence.parser import argpos, explicit_sense, nonexplicit
from coherence.parser.connectives import context_features
from coherence.parser.lexicon import LEXICON_FILE, Lexicon, build_lexicon, save_lexicon
from coherence.parser.pipeline import model_path

SEED = 13
C_GRID = (0.1, 0.3, 1.0, 3.0)
FEATURES = {
    "connective": "connective string/cased/POS/category, previous & next word and POS, dependency "
                  "label, head POS/label, dependency path to root (4), sentence position, finite verb "
                  "after, comma after (spaCy on project tokens)",
    "argpos": "connective features + Tier 0 SS/PS rule + first-sentence flag",
    "explicit_sense": "connective features + GDTB-train and PDTB-2 most frequent sense + head "
                      "lemma/tag; unseen connectives back off to train MFS",
    "nonexplicit": "first/last words, first two words of Arg2, Tier 0 label, question marks, "
                   "lengths; MI-selected 500 word pairs, 100 dependency rules, 100 production-like "
                   "rules valued by Arg1/Arg2/both (Lin et al. 2009)",
}
DATA_LICENCE = ("GDTB annotations CC BY 4.0 (Liu, Zeldes et al.); GUM texts per genre, some CC BY-NC-SA; "
                "no text is stored in the model beyond lexical feature names")


def _logreg(c: float, balanced: bool = False) -> LogisticRegression:
    return LogisticRegression(C=c, max_iter=3000, random_state=SEED,
                              class_weight="balanced" if balanced else None)


def _dict_model(c: float) -> Pipeline:
    return make_pipeline(DictVectorizer(), _logreg(c))


def _tune(make, X_train, y_train, X_dev, y_dev, score, grid=C_GRID):
    """Fit one model per setting on train, keep the best on dev; returns (model, setting, dev score)."""
    best = None
    for setting in grid:
        model = make(setting).fit(X_train, y_train)
        s = score(y_dev, model.predict(X_dev))
        if best is None or s > best[2]:
            best = (model, setting, s)
    return best


def stage_data(docs, parsed, lexicon: Lexicon) -> dict[str, Any]:
    """Features and labels of every stage for a set of documents."""
    data: dict[str, Any] = {k: ([], []) for k in ("connective", "argpos", "explicit_sense", "nonexplicit")}
    norel_filled = 0
    for doc, pt in zip(docs, parsed):
        cands, labels = connective_examples(pt, doc, lexicon.tier1_keys)
        data["connective"][0].extend(context_features(pt, c) for c in cands)
        data["connective"][1].extend(labels)
        for ex in explicit_examples(pt, doc):
            if ex.cand.sentence > 0:
                data["argpos"][0].append(argpos.features(pt, ex.cand))
                data["argpos"][1].append(ex.position)
            data["explicit_sense"][0].append(explicit_sense.features(pt, ex.cand, lexicon))
            data["explicit_sense"][1].append(ex.l1)
        pairs, plabels, annotated = pair_examples(pt, doc)
        norel_filled += annotated.count(False)
        data["nonexplicit"][0].extend(nonexplicit.pair_item(pt, i) for i in pairs)
        data["nonexplicit"][1].extend(plabels)
    data["norel_filled"] = norel_filled
    return data


def train(gdtb_dir: Path, pdtb2_table: Path, out_dir: Path, log=print) -> dict:
    """Train all Tier 1 stages; write lexicon and model file (:mod:`evalcore.io.models`) to
    ``out_dir``; returns the model's header."""
    t0 = time.time()
    train_docs, train_skipped = load_gdtb(gdtb_dir, "train")
    dev_docs, _ = load_gdtb(gdtb_dir, "dev")
    log(f"parsing {len(train_docs)} train + {len(dev_docs)} dev documents with spaCy")
    train_pt, dev_pt = parse_corpus(train_docs), parse_corpus(dev_docs)
    lexicon = build_lexicon(pdtb2_table, train_docs)
    tr, dv = stage_data(train_docs, train_pt, lexicon), stage_data(dev_docs, dev_pt, lexicon)
    models, tuning = {}, {}
    for stage in ("connective", "argpos", "explicit_sense"):
        scorer = (lambda y, p: f1_score(y, p)) if stage == "connective" else accuracy_score
        grid = (1.0, 3.0, 10.0, 30.0) if stage == "connective" else C_GRID
        (x_train, y_train), (x_dev, y_dev) = tr[stage], dv[stage]
        model, c, s = _tune(_dict_model, x_train, y_train, x_dev, y_dev, scorer, grid)
        models[stage], tuning[stage] = model, {"C": c, "dev_score": round(s, 4), "n_train": len(tr[stage][1])}
        log(f"{stage}: C={c} dev={s:.4f} (n={len(tr[stage][1])})")
    settings = [(c, bal) for c in (0.03, 0.1, 0.3) for bal in (False, True)]
    (x_train, y_train), (x_dev, y_dev) = tr["nonexplicit"], dv["nonexplicit"]
    model, setting, s = _tune(
        lambda cb: make_pipeline(nonexplicit.PairFeaturizer(), _logreg(*cb)), x_train, y_train, x_dev, y_dev,
        partial(f1_score, average="macro"), settings)
    models["nonexplicit"] = model
    tuning["nonexplicit"] = {"C": setting[0], "class_weight": "balanced" if setting[1] else None,
                             "dev_macro_f1": round(s, 4), "n_train": len(tr["nonexplicit"][1]),
                             "train_pairs_without_gold_relation_labelled_NoRel": tr["norel_filled"]}
    log(f"nonexplicit: setting={setting} dev macro-F1={s:.4f} (n={len(tr['nonexplicit'][1])})")
    out_dir.mkdir(parents=True, exist_ok=True)
    save_lexicon(lexicon, out_dir / LEXICON_FILE[-1])
    from evalcore.io.models import read_header, save_model
    from evalcore.resources.registry import spacy_pipeline

    meta = spacy_pipeline(("ner",)).meta
    info = {
        "model": "gdtb-clf-v1", "training_split": "GDTB train (splits.md), Reddit documents skipped",
        "train_documents": len(train_docs), "skipped_blanked_documents": train_skipped,
        "tuned_on": "GDTB dev", "tuning": tuning, "features": FEATURES,
        "estimator": "sklearn LogisticRegression (lbfgs) per stage",
        "sklearn_version": sklearn.__version__, "seed": SEED,
        "spacy_model": f"{meta.get('name')}-{meta.get('version')}",
        "lexicon": f"{LEXICON_FILE[-1]}: PDTB-2 connective table + GDTB train connectives",
        "data_licence": DATA_LICENCE, "licence": DATA_LICENCE,
        "nonexplicit_train_distribution": dict(Counter(tr["nonexplicit"][1])),
        "train_seconds": round(time.time() - t0, 1),
    }
    info["signature"] = parser_signature(info)
    info["trained_on"] = f"GDTB train: {len(train_docs)} documents (Reddit skipped), tuned on GDTB dev"
    info["metric"] = "gdtb-clf-v1"
    model_file = save_model(models, model_path(out_dir), info, classes=(nonexplicit.PairFeaturizer,))
    log(f"wrote {model_file} ({model_file.stat().st_size // 1024} KiB) in {time.time() - t0:.0f}s")
    return read_header(model_file)


def parser_signature(info: dict) -> str:
    """What produced a Tier 1 parser model, in sacrebleu's short form (the header's ``signature``)."""
    return (f"{info['model']}|train:gdtb-train-{info['train_documents']}docs|tuned:gdtb-dev|seed:{info['seed']}"
            f"|spacy:{info['spacy_model']}|sklearn:{info['sklearn_version']}")
