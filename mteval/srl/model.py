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
    """Predicate identifier and argument labeller; :meth:`frames` turns parsed texts into frames."""

    def __init__(self, predicate_vec, predicate_clf, argument_vec, argument_clf):
        self.predicate_vec = predicate_vec
        self.predicate_clf = predicate_clf
        self.argument_vec = argument_vec
        self.argument_clf = argument_clf

    def predicates(self, parsed: Sequence[Parsed]) -> list[list[int]]:
        """Per parsed text, the tokens identified as predicates (candidates: verbs, auxiliaries,
        nouns, adjectives), all texts scored in one call."""
        cands = [[i for i in range(len(p)) if p.pos[i] in PREDICATE_POS] for p in parsed]
        rows = [predicate_features(p, i) for p, cs in zip(parsed, cands) for i in cs]
        if not rows:
            return [[] for _ in parsed]
        scores = iter(self.predicate_clf.decision_function(self.predicate_vec.transform(rows)))
        return [[i for i in cs if next(scores) > 0] for cs in cands]

    def arguments(self, jobs: Sequence[tuple[Parsed, int]]) -> list[list[tuple[int, str]]]:
        """Per (parsed text, predicate), (head, role) of its arguments in token order, each core
        role at most once (all candidates scored in one call)."""
        routes = [candidate_routes(p, pred) for p, pred in jobs]
        rows = [argument_features(p, pred, a, route) for (p, pred), rs in zip(jobs, routes) for a, route in rs]
        if not rows:
            return [[] for _ in jobs]
        scores = self.argument_clf.decision_function(self.argument_vec.transform(rows))
        classes = [str(c) for c in self.argument_clf.classes_]
        out, start = [], 0
        for rs in routes:
            out.append(decode([a for a, _ in rs], scores[start:start + len(rs)], classes) if rs else [])
            start += len(rs)
        return out

    def frames(self, parsed: Sequence[Parsed], preds: Sequence[Sequence[int]] | None = None) -> list[tuple[Frame, ...]]:
        """Frames of each parsed text: of the identified predicates, or of ``preds`` (one list per
        text) when given. Batched: per-call overheads of the vectoriser and the models dominate
        when texts are labelled one at a time."""
        preds = self.predicates(parsed) if preds is None else [list(ps) for ps in preds]
        jobs = [(p, i) for p, ps in zip(parsed, preds) for i in ps]
        found = iter(self.arguments(jobs))
        out = []
        for p, ps in zip(parsed, preds):
            frames = []
            for i in ps:
                lemma = p.lemmas[i] if p.pos[i] == "PROPN" else p.lemmas[i].lower()
                frames.append(Frame(i, lemma, p.kind(i),
                                    tuple(Argument(role, h, p.span(h, i)) for h, role in next(found))))
            out.append(tuple(frames))
        return out


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
