"""The labeller's trained parts, two linear scikit-learn classifiers over sparse features:
predicate identification (is this verb/noun/adjective a predicate here?) and argument labelling
(which role, if any, a candidate token fills for a predicate: one multi-class model whose extra
class ``_`` means "not an argument"). Decoding keeps each core role (ARG0-5) once per frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mteval.srl.features import PREDICATE_POS, Parsed, argument_features, candidate_routes, predicate_features
from mteval.srl.frames import Argument, Frame
from mteval.srl.up import UPSentence

NONE = "_"
CORE = frozenset(f"ARG{k}" for k in range(6))


@dataclass(frozen=True)
class Settings:
    """Training settings (in the model's signature): LinearSVC's C per stage and the minimum count
    of a feature in the training data."""

    c_predicate: float = 0.1
    c_argument: float = 0.1
    min_count: int = 2

    def describe(self) -> dict[str, float | int]:
        return {"c_predicate": self.c_predicate, "c_argument": self.c_argument, "min_count": self.min_count}


class SRLModel:
    """Predicate identifier and argument labeller; :meth:`frames` turns a parsed text into frames."""

    def __init__(self, predicate_vec, predicate_clf, argument_vec, argument_clf):
        self.predicate_vec = predicate_vec
        self.predicate_clf = predicate_clf
        self.argument_vec = argument_vec
        self.argument_clf = argument_clf

    def predicates(self, p: Parsed) -> list[int]:
        """Tokens identified as predicates (candidates: verbs, auxiliaries, nouns, adjectives)."""
        cands = [i for i in range(len(p)) if p.pos[i] in PREDICATE_POS]
        if not cands:
            return []
        scores = self.predicate_clf.decision_function(self.predicate_vec.transform([predicate_features(p, i) for i in cands]))
        return [i for i, s in zip(cands, scores) if s > 0]

    def arguments(self, p: Parsed, pred: int) -> list[tuple[int, str]]:
        """(head, role) of the predicate's arguments, in token order, each core role at most once."""
        routes = candidate_routes(p, pred)
        if not routes:
            return []
        x = self.argument_vec.transform([argument_features(p, pred, a, route) for a, route in routes])
        return decode([a for a, _ in routes], self.argument_clf.decision_function(x), [str(c) for c in self.argument_clf.classes_])

    def frames(self, p: Parsed, preds: Sequence[int] | None = None) -> tuple[Frame, ...]:
        """Frames of a parsed text: of the identified predicates, or of ``preds`` when given."""
        out = []
        for i in self.predicates(p) if preds is None else preds:
            lemma = p.lemmas[i] if p.pos[i] == "PROPN" else p.lemmas[i].lower()
            args = tuple(Argument(role, h, p.span(h, i)) for h, role in self.arguments(p, i))
            out.append(Frame(i, lemma, p.kind(i), args))
        return tuple(out)


def decode(cands: Sequence[int], scores: np.ndarray, classes: Sequence[str]) -> list[tuple[int, str]]:
    """Best role per candidate where it beats "not an argument", each core role kept only for its
    best-scoring candidate (the others fall back to their next role, or to none)."""
    none = classes.index(NONE)
    order = np.argsort(-scores, axis=1)
    taken: set[str] = set()
    chosen: dict[int, str] = {}
    # candidates visited by the margin of their best role, so a core role goes to the surest one
    best = scores.max(axis=1) - scores[:, none]
    for row in np.argsort(-best, kind="stable"):
        for k in order[row]:
            role = classes[k]
            if k == none or scores[row, k] <= scores[row, none]:
                break
            if role in CORE and role in taken:
                continue
            chosen[cands[row]] = role
            taken.add(role)
            break
    return sorted(chosen.items())


def training_rows(sentences: Sequence[UPSentence], parsed: Sequence[Parsed]):
    """Feature dicts and labels of both stages from gold sentences and their spaCy parses:
    (predicate features, is-predicate labels, argument features, role labels)."""
    pred_x, pred_y, arg_x, arg_y = [], [], [], []
    for sent, p in zip(sentences, parsed):
        if not sent.annotated:
            continue
        gold = {pr.index: pr for pr in sent.predicates}
        for i in range(len(p)):
            if p.pos[i] in PREDICATE_POS:
                pred_x.append(predicate_features(p, i))
                pred_y.append(i in gold)
        for pr in sent.predicates:
            roles = dict(pr.arguments)
            for a, route in candidate_routes(p, pr.index):
                arg_x.append(argument_features(p, pr.index, a, route))
                arg_y.append(roles.get(a, NONE))
    return pred_x, np.array(pred_y), arg_x, np.array(arg_y)


def _fit(x_dicts, y, c: float, min_count: int):
    """A DictVectorizer (features seen fewer than ``min_count`` times dropped) and a LinearSVC."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.svm import LinearSVC

    vec = DictVectorizer(dtype=np.float32)
    x = vec.fit_transform(x_dicts)
    keep = np.asarray((x != 0).sum(axis=0)).ravel() >= min_count
    vec.restrict(keep)
    clf = LinearSVC(C=c, random_state=0, max_iter=5000)
    clf.fit(x[:, keep], y)
    clf.coef_ = clf.coef_.astype(np.float32)
    return vec, clf


def train_model(sentences: Sequence[UPSentence], parsed: Sequence[Parsed], settings: Settings = Settings()) -> SRLModel:
    """Both stages trained on gold UP sentences with spaCy features (``parsed`` from
    :func:`mteval.srl.features.parse_gold_tokens`)."""
    pred_x, pred_y, arg_x, arg_y = training_rows(sentences, parsed)
    if not arg_x or len(set(pred_y)) < 2:
        raise ValueError("training needs annotated sentences with predicates and arguments")
    pv, pc = _fit(pred_x, pred_y, settings.c_predicate, settings.min_count)
    av, ac = _fit(arg_x, arg_y, settings.c_argument, settings.min_count)
    return SRLModel(pv, pc, av, ac)
