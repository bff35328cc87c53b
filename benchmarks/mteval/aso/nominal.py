"""Liu & Ng (ACL 2007)'s argument classification of noun predicates with ASO, on Universal PropBank
English EWT dev (the only English UP split here): given the gold argument heads of every nominal
predicate, classify each one's role (ARG0-5, ARGM-*, C-/R- roles as annotated), cross-validated
by document, ASO beside the same linear classifier without ASO and a maximum-entropy model.

Features come from the gold UD columns, as the paper used gold parse trees (its Table 3
"classification" row: gold parses, gold argument identification). They are the paper's Table 2
carried over from constituents to dependency heads: position, "ptype" (UPOS and relation of the
head), first and last word of the filler (the head's subtree, :func:`mteval.srl.up.filler_span`),
the right sister's UPOS, the predicate lemma conjoined with ptype / last word / head word /
position; NOMLEX's NOM-TYPE is not available, so the predicate's own dependency relation (which
separates light-verb objects and compound modifiers from plain nouns) stands in for it, alone
and with position; and the dependency path between argument and predicate, which the paper
tried as an auxiliary problem and which carries a dependency tree's phrase-structure context.

Auxiliary problems as the paper chose them (section 5.1, its best): the "unobservable" target
problems themselves, one per role seen in training, h = their number (the paper's 20 of 20).
Further rows, each a variant the paper or Ando & Zhang (2005) motivate, chosen only inside the
training documents: h by an inner cross-validation grouped by document (``aso-cv``); Ando &
Zhang's semi-supervised setting, observable auxiliary problems from unlabelled Brown text
(:mod:`benchmarks.mteval.aso.unlabelled`; ``aso+brown``, h = all, and on request ``aso+brown-cv``); on request
(``verbal``), the roles of a seeded sample of verbal-predicate arguments of the training
documents as further auxiliary problems; on request (``--lambda-cv``), lambda chosen by the same kind of
inner cross-validation for the linear model and for ASO alike (``linear-cv-lambda``, ``aso-cv-lambda``):
with v unpenalised, ASO is the linear model with the penalty lifted on span(Theta), so how much it
can change depends on lambda, which the paper fixed. A variant with its own auxiliary examples gets its own
feature vocabulary (training arguments + auxiliary examples), so that the baselines' features
never depend on which variants run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold

from benchmarks.harness import machine, machine_line, write_report
from benchmarks.mteval.aso import unlabelled
from benchmarks.mteval.aso.estimator import ALPHA_GRID, H_GRID, ASOClassifier
from evalcore.io.tables import table
from evalcore.resources.registry import shared_data_dir
from evalcore.stats.correlation import percentile_interval, resample_counts
from evalcore.stats.significance import paired_bootstrap
from mteval.srl.features import Parsed, path, path_string
from mteval.srl.up import UPSentence, filler_span, kind_of, read_up

DEV_FILE = ("srl", "up", "en_ewt-up-dev.conllu")
#: the models compared, in table order: name -> description
MODELS = {
    "linear": "modified Huber one-vs-all (eq. 1; ASO with h = 0)",
    "maxent": "maximum entropy (multinomial logistic regression, L2, C = 1)",
    "aso": "ASO, auxiliary = the target roles (paper 5.1), h = all of them",
    "aso-cv": "ASO, auxiliary = the target roles, h by inner CV on the training documents",
    "aso+brown": "ASO, auxiliary = target roles + 20 observable Brown problems (A&Z 2005), h = all",
    "aso+brown-cv": "ASO, auxiliary = target roles + 20 observable Brown problems, h by inner CV",
    "aso+verbal": "ASO, auxiliary = target roles + verbal-predicate roles (not in the paper), h = all",
    "linear-cv-lambda": "modified Huber one-vs-all, lambda by inner CV on the training documents",
    "aso-cv-lambda": "ASO, auxiliary = the target roles, h = all, lambda by inner CV on the training documents",
}
#: inner folds of the ``-cv`` rows' choice of h (grouped by document, training documents only)
INNER_FOLDS = 3
#: observable Brown problems: the most frequent attachments (as the paper's Table 4: 20 most frequent)
BROWN_PROBLEMS = 20
#: lambda of eq. (1) in the paper (after Ando & Zhang 2005)
PAPER_LAMBDA = 1e-4
#: Liu & Ng (2007) Table 3, classification row (NomBank, PTB section 23): context only
PAPER_F1 = {"linear": 87.86, "maxent": 88.35, "aso": 89.17}


@dataclass(frozen=True)
class Instance:
    """One argument head of one predicate: its document (the cross-validation group), features and gold role."""

    doc_id: str
    features: dict[str, float]
    label: str


def gold_parse(sentence: UPSentence) -> Parsed:
    """The sentence's gold UD columns in the labeller's :class:`Parsed` form (XPOS as the fine tag)."""
    n = len(sentence)
    return Parsed(sentence.words, sentence.lemmas, sentence.xpos, sentence.upos, sentence.deprels,
                  sentence.heads, (0,) * n)


def argument_features(p: Parsed, pred: int, arg: int) -> dict[str, float]:
    """Table 2 of the paper on a dependency tree (see the module docstring for each stand-in)."""
    start, end = filler_span(p.heads, arg, pred)
    sisters = [c for c in range(arg + 1, len(p)) if p.heads[c] == p.heads[arg]]
    dep_path = path_string(p, path(p, arg, pred) or ([arg], [pred]))
    stem, head_word = p.lemmas[pred].lower(), p.lemmas[arg].lower()
    position = "left" if arg < pred else "right"
    ptype = f"{p.pos[arg]}|{p.deps[arg]}"
    last = p.words[end - 1].lower()
    nomtype = p.deps[pred]
    names = {
        "position": position, "ptype": ptype, "firstword": p.words[start].lower(), "lastword": last,
        "rsis.ptype": p.pos[sisters[0]] if sisters else "-", "nomtype": nomtype,
        "pred&ptype": f"{stem}|{ptype}", "pred&lastword": f"{stem}|{last}", "pred&hw": f"{stem}|{head_word}",
        "pred&position": f"{stem}|{position}", "nomtype&position": f"{nomtype}|{position}", "path": dep_path,
    }
    return {f"{k}={v}": 1.0 for k, v in names.items()}


def instances(sentences: Sequence[UPSentence], kind: str) -> list[Instance]:
    """Every gold argument head of every predicate of ``kind`` (nominal, verbal...), in file order."""
    out: list[Instance] = []
    for s in sentences:
        parsed = None
        for predicate in s.predicates:
            if kind_of(s.upos[predicate.index]) != kind:
                continue
            parsed = parsed or gold_parse(s)
            out.extend(Instance(s.doc_id, argument_features(parsed, predicate.index, head), label)
                       for head, label in predicate.arguments)
    return out


def _verbal_sample(verbal: Sequence[Instance], train_docs: set[str], size: int, seed: int) -> list[Instance]:
    """At most ``size`` verbal instances of the training documents, a seeded sample in file order."""
    pool = [x for x in verbal if x.doc_id in train_docs]
    if len(pool) <= size:
        return pool
    keep = np.sort(np.random.default_rng(seed).choice(len(pool), size=size, replace=False))
    return [pool[i] for i in keep]


def _models(alpha: float, names: Sequence[str]) -> dict:
    """A fresh, unfitted model per row name."""
    inner: dict[str, Any] = {"n_components": "cv", "cv": INNER_FOLDS}
    made = {"linear": lambda: ASOClassifier(n_components=0, alpha=alpha),
            "maxent": lambda: LogisticRegression(C=1.0, max_iter=5000),
            "aso": lambda: ASOClassifier(alpha=alpha), "aso-cv": lambda: ASOClassifier(alpha=alpha, **inner),
            "aso+brown": lambda: ASOClassifier(alpha=alpha),
            "aso+brown-cv": lambda: ASOClassifier(alpha=alpha, **inner),
            "aso+verbal": lambda: ASOClassifier(alpha=alpha),
            "linear-cv-lambda": lambda: ASOClassifier(n_components=0, alpha="cv", cv=INNER_FOLDS),
            "aso-cv-lambda": lambda: ASOClassifier(alpha="cv", cv=INNER_FOLDS)}
    return {name: made[name]() for name in names}


def cross_validate(nominal: Sequence[Instance], folds: int, alpha: float = PAPER_LAMBDA,
                   verbal: Sequence[Instance] = (), n_verbal: int = 0, seed: int = 0,
                   brown: tuple[list[dict[str, float]], np.ndarray] | None = None, brown_cv: bool = False,
                   lambda_cv: bool = False, log: Callable[[str], None] = lambda m: None
                   ) -> tuple[dict[str, np.ndarray], dict[str, float], dict]:
    """Predicted roles of every nominal instance by every model, each trained on the other
    documents' folds (GroupKFold by document), each model's CPU seconds, and the h each ``-cv``
    row chose per fold (with its inner accuracies); ``alpha`` is lambda of the linear model and of
    ASO; ``n_verbal`` > 0 adds ``aso+verbal`` with that many verbal instances of the training
    documents (seeded sample) as auxiliary examples; ``brown`` (features, labels of
    :func:`benchmarks.mteval.aso.unlabelled.auxiliary_problems`) adds ``aso+brown``, and
    ``aso+brown-cv`` with ``brown_cv``; ``lambda_cv`` adds ``linear-cv-lambda`` and
    ``aso-cv-lambda`` (their chosen lambda per fold in the third value)."""
    docs = np.array([x.doc_id for x in nominal])
    gold = np.array([x.label for x in nominal])
    names = [m for m in MODELS if (m != "aso+verbal" or n_verbal > 0) and (not m.startswith("aso+brown") or brown)
             and (m != "aso+brown-cv" or brown_cv) and (not m.endswith("-cv-lambda") or lambda_cv)]
    predicted = {name: np.empty(len(nominal), dtype=object) for name in names}
    seconds = dict.fromkeys(names, 0.0)
    chosen: dict[str, list] = {name: [] for name in names if "-cv" in name}
    for k, (train, test) in enumerate(GroupKFold(n_splits=folds).split(gold, groups=docs), 1):
        train_features = [nominal[i].features for i in train]
        test_features = [nominal[i].features for i in test]
        auxiliary = {"aso+brown": brown, "aso+brown-cv": brown} if brown else {}
        aux = _verbal_sample(verbal, set(docs[train]), n_verbal, seed + k) if n_verbal > 0 else []
        if aux:  # a fold without verbal examples leaves aso+verbal = aso
            labels = np.array([x.label for x in aux])
            auxiliary["aso+verbal"] = ([x.features for x in aux],
                                       np.where(labels[:, None] == np.unique(labels)[None, :], 1.0, -1.0))
        vectors = DictVectorizer().fit(train_features)
        X_train, X_test = vectors.transform(train_features), vectors.transform(test_features)
        for name, model in _models(alpha, names).items():
            start = time.process_time()
            extra = {"groups": docs[train]} if name in chosen else {}
            if name in auxiliary:
                aux_features, aux_Y = auxiliary[name]
                own = DictVectorizer().fit(train_features + aux_features)
                X_fit, X_apply = own.transform(train_features), own.transform(test_features)
                extra.update(auxiliary_X=own.transform(aux_features), auxiliary_Y=aux_Y)
            else:
                X_fit, X_apply = X_train, X_test
            model.fit(X_fit, gold[train], **extra)
            predicted[name][test] = model.predict(X_apply)
            seconds[name] += time.process_time() - start
            if name.endswith("-cv-lambda"):
                chosen[name].append({"lambda": model.alpha_,
                                     "inner_accuracy": {f"{a:g}": s for a, s in model.alpha_cv_scores_.items()}})
            elif name in chosen:
                chosen[name].append({"h": model.n_components_,
                                     "inner_accuracy": {str(h): a for h, a in model.cv_scores_.items()}})
            log(f"fold {k}/{folds}: {name} {time.process_time() - start:.1f} CPU s")
        log(f"fold {k}/{folds}: {len(train)} train, {len(test)} test arguments")
    return predicted, seconds, chosen


def document_statistics(docs: Sequence[str], gold: Sequence[str], predicted: Sequence[str] | np.ndarray,
                        labels: Sequence[str]) -> np.ndarray:
    """Per document (rows in first-seen order): correct, total, then per label tp, fp, fn."""
    order = {d: i for i, d in enumerate(dict.fromkeys(docs))}
    index = {lab: i for i, lab in enumerate(labels)}
    k = len(labels)
    stats = np.zeros((len(order), 2 + 3 * k))
    for d, g, p in zip(docs, gold, predicted):
        row = stats[order[d]]
        row[0] += g == p
        row[1] += 1
        if g == p:
            row[2 + index[g]] += 1
        else:
            if p in index:
                row[2 + k + index[p]] += 1
            row[2 + 2 * k + index[g]] += 1
    return stats


def accuracy(summed: np.ndarray) -> np.ndarray:
    """Accuracy from rows of summed document statistics (= micro F1: one role per gold head)."""
    return summed[:, 0] / summed[:, 1]


def macro_f1(summed: np.ndarray) -> np.ndarray:
    """Mean F1 over the labels with gold examples in each row of summed document statistics."""
    k = (summed.shape[1] - 2) // 3
    tp, fp, fn = summed[:, 2:2 + k], summed[:, 2 + k:2 + 2 * k], summed[:, 2 + 2 * k:]
    denominator = 2 * tp + fp + fn
    f1 = np.divide(2 * tp, denominator, out=np.zeros_like(tp), where=denominator > 0)
    present = (tp + fn) > 0
    return (f1 * present).sum(axis=1) / present.sum(axis=1)


MEASURES = {"accuracy": accuracy, "macro_f1": macro_f1}


def evaluate(docs: Sequence[str], gold: Sequence[str], predicted: dict[str, np.ndarray], n_boot: int,
             seed: int) -> dict:
    """Scores with document-bootstrap CIs per model, and the paired differences ASO - linear and
    ASO - maxent (same resamples; Koehn's paired bootstrap p-value)."""
    labels = sorted(set(gold))
    stats = {name: document_statistics(docs, gold, p, labels) for name, p in predicted.items()}
    counts = resample_counts(len(next(iter(stats.values()))), n_boot, seed)
    scores = {}
    for name, s in stats.items():
        scores[name] = {m: percentile_interval(float(f(s.sum(axis=0, keepdims=True))[0]), f(counts @ s)).as_dict()
                        for m, f in MEASURES.items()}
    differences = {}
    for a, b in (("aso", "linear"), ("aso", "maxent"), ("aso-cv", "linear"), ("aso+brown", "linear"),
                 ("aso+brown-cv", "linear"), ("aso+verbal", "linear"), ("aso-cv-lambda", "linear-cv-lambda"),
                 ("linear-cv-lambda", "linear"), ("aso-cv-lambda", "aso")):
        if a not in stats:
            continue
        differences[f"{a} - {b}"] = {m: paired_bootstrap(stats[a], stats[b], aggregate=f, n_samples=n_boot,
                                                         seed=seed).as_dict() for m, f in MEASURES.items()}
    return {"scores": scores, "differences": differences, "labels": labels}


def _pct(entry: dict) -> str:
    return f"{100 * entry['value']:.2f} [{100 * entry['ci_low']:.2f}, {100 * entry['ci_high']:.2f}]"


def scores_table(result: dict) -> str:
    """One row per model: accuracy and macro F1 with their CIs, the paper's F1, CPU seconds."""
    scores = result["evaluation"]["scores"]
    rows = [[name, _pct(scores[name]["accuracy"]), _pct(scores[name]["macro_f1"]),
             f"{PAPER_F1[name]:.2f}" if name in PAPER_F1 else "-", f"{result['seconds'][name]:.1f}", MODELS[name]]
            for name in MODELS if name in scores]
    return table(["model", "accuracy = micro F1 (%)", "macro F1 (%)", "paper F1 (NomBank)", "CPU s", "what"], rows)


def differences_table(result: dict) -> str:
    """The paired differences between models, with CIs and paired-bootstrap p-values."""
    diff_rows = [[pair, *(f"{100 * d[m]['difference']:+.2f} [{100 * d[m]['ci_low']:+.2f}, "
                          f"{100 * d[m]['ci_high']:+.2f}] p={d[m]['p_value']:.3f}" for m in MEASURES)]
                 for pair, d in result["evaluation"]["differences"].items()]
    return table(["difference", "accuracy", "macro F1"], diff_rows)


def markdown(result: dict) -> str:
    """The bench report: one row per model, then the paired differences."""
    data = result["data"]
    return "\n".join([
        "# ASO on noun-predicate argument classification (Liu & Ng 2007, Table 3 classification row)", "",
        f"Universal PropBank English EWT dev, gold UD features, gold argument heads: {data['instances']} "
        f"arguments of {data['predicates']} nominal predicates in {data['documents']} documents, "
        f"{len(result['evaluation']['labels'])} roles; {data['folds']}-fold cross-validation grouped by document; "
        f"lambda = {result['alpha']:g} for linear and ASO (the paper's: {PAPER_LAMBDA:g})"
        + (f"; aso+verbal: at most {result['verbal']} verbal-predicate arguments of the training documents per fold"
           if result["verbal"] else "")
        + (f"; aso+brown: {result['brown']['pairs']} (noun, argument) pairs of unlabelled Brown text, "
           f"{len(result['brown']['problems'])} problems ({', '.join(result['brown']['problems'])})"
           if result["brown"] else "")
        + f"; -cv rows: h from {{{', '.join('all' if h is None else str(h) for h in H_GRID)}}} by {INNER_FOLDS}-fold "
        f"cross-validation inside each training fold, grouped by document"
        + (f"; -cv-lambda rows: lambda from {{{', '.join(f'{a:g}' for a in ALPHA_GRID)}}} the same way"
           if any(name.endswith("-cv-lambda") for name in result["chosen"]) else "") + ". "
        f"95% CIs from {result['n_boot']} document bootstrap resamples (seed {result['seed']}).", "",
        scores_table(result), "",
        "Paired differences (percentage points, same document resamples; p: paired bootstrap):", "",
        differences_table(result), "",
        *(f"{name}: {'lambda' if 'lambda' in picks[0] else 'h'} chosen per outer fold "
          f"{[c.get('lambda', c.get('h')) for c in picks]}" for name, picks in result["chosen"].items()), "",
        "The paper's F1 is on NomBank (PTB section 23, 20 roles, trained on sections 2-21): context, not comparable.",
        machine_line(result["machine"]), ""])


def run(out: Path, data: Path | None = None, folds: int = 5, n_boot: int = 1000, seed: int = 0,
        alpha: float = PAPER_LAMBDA, verbal: int = 0, brown: int = 0, brown_cv: bool = False,
        lambda_cv: bool = False, log: Callable[[str], None] = lambda m: None) -> dict:
    """Read the UP English dev file, cross-validate every model, write ``aso.md`` and ``aso.json``;
    ``brown`` > 0 adds ``aso+brown`` with at most that many unlabelled Brown pairs (``brown_cv``: and
    ``aso+brown-cv``, 2-3x the CPU time of all other rows together); ``lambda_cv`` adds
    ``linear-cv-lambda`` and ``aso-cv-lambda``."""
    sentences = read_up((data or shared_data_dir()).joinpath(*DEV_FILE))
    nominal = instances(sentences, "nominal")
    if not nominal:
        raise ValueError("no nominal predicate arguments in the UP file")
    verbal_instances = instances(sentences, "verbal") if verbal > 0 else []
    problems, brown_info = None, None
    if brown > 0:
        features, labels, names = unlabelled.auxiliary_problems(unlabelled.brown_pairs(log=log), BROWN_PROBLEMS,
                                                                brown, seed)
        problems, brown_info = (features, labels), {"pairs": len(features), "problems": names}
    predicted, seconds, chosen = cross_validate(nominal, folds, alpha, verbal_instances, verbal, seed, problems,
                                                brown_cv, lambda_cv, log)
    docs, gold = [x.doc_id for x in nominal], [x.label for x in nominal]
    result = {
        "data": {"instances": len(nominal), "documents": len(set(docs)), "folds": folds,
                 "predicates": sum(kind_of(s.upos[p.index]) == "nominal" for s in sentences for p in s.predicates)},
        "evaluation": evaluate(docs, gold, predicted, n_boot, seed),
        "seconds": seconds, "chosen": chosen, "alpha": alpha, "verbal": verbal, "brown": brown_info,
        "n_boot": n_boot, "seed": seed, "machine": machine(),
    }
    write_report(Path(out), "aso", markdown(result), result)
    return result

