"""``python -m benchmarks srl``: the labeller cross-validated by document on UP dev (predicted predicates,
spaCy features on the gold tokens), beside a majority baseline trained on the same folds:
labelled argument-head P/R/F1 overall and per predicate kind, predicate identification P/R/F1,
bootstrap CIs over documents, and labelling speed on raw text (with spaCy's share).

Scoring: a predicted argument is right when its (predicate token, head token, role) triple is a
gold one; per-kind rows file each triple under the gold UPOS kind of its predicate token, so
precision and recall of a kind count the same tokens."""

from __future__ import annotations

import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.harness import machine, machine_line, write_report
from evalcore.io.tables import table
from evalcore.metaeval import percentile_interval, resample_documents
from mteval.srl.features import PREDICATE_POS, Parsed, candidate_routes, parse_gold_tokens, parse_texts, path_string
from mteval.srl.labeller import Labeller, parser_for
from mteval.srl.model import NONE, Settings, SRLModel, train_model
from mteval.srl.train import training_sentences, up_path
from mteval.srl.up import UPSentence, kind_of

KINDS = ("verbal", "nominal", "adjectival")
#: count columns per document: predicates (tp, predicted, gold), then arguments overall and per kind
_COLUMNS = ["pred_tp", "pred_sys", "pred_gold", "arg_tp", "arg_sys", "arg_gold",
            *[f"{k}_{c}" for k in KINDS for c in ("tp", "sys", "gold")]]


class MajorityBaseline:
    """The baseline of the same folds: a token is a predicate when its lemma and POS were one in
    most training occurrences (unseen: when it is a verb); a candidate's role is the majority
    label of its (predicate kind, dependency path, side) in training, backing off to the path."""

    def __init__(self, sentences: Sequence[UPSentence], parsed: Sequence[Parsed]):
        pred_counts: dict[str, Counter] = defaultdict(Counter)
        by_key: dict[tuple, Counter] = defaultdict(Counter)
        by_path: dict[str, Counter] = defaultdict(Counter)
        for sent, p in zip(sentences, parsed):
            gold = {pr.index: dict(pr.arguments) for pr in sent.predicates}
            for i in range(len(p)):
                if p.pos[i] in PREDICATE_POS:
                    pred_counts[_lemma_key(p, i)][i in gold] += 1
            for i, roles in gold.items():
                for a, route in candidate_routes(p, i):
                    key = _path_key(p, i, a, route)
                    by_key[key][roles.get(a, NONE)] += 1
                    by_path[key[1]][roles.get(a, NONE)] += 1
        self.is_predicate = {k: c[True] > c[False] for k, c in pred_counts.items()}
        self.role = {k: c.most_common(1)[0][0] for k, c in by_key.items()}
        self.path_role = {k: c.most_common(1)[0][0] for k, c in by_path.items()}

    def frames(self, p: Parsed) -> list[tuple[int, list[tuple[int, str]]]]:
        """(predicate, [(head, role)]) of a parsed sentence."""
        out = []
        for i in range(len(p)):
            if p.pos[i] in PREDICATE_POS and self.is_predicate.get(_lemma_key(p, i), p.pos[i] == "VERB"):
                args = []
                for a, route in candidate_routes(p, i):
                    key = _path_key(p, i, a, route)
                    role = self.role.get(key) or self.path_role.get(key[1], NONE)
                    if role != NONE:
                        args.append((a, role))
                out.append((i, args))
        return out


def _lemma_key(p: Parsed, i: int) -> str:
    return f"{p.lemmas[i].lower()}|{p.pos[i]}"


def _path_key(p: Parsed, pred: int, arg: int, route) -> tuple[str, str, str]:
    return p.kind(pred), path_string(p, route), "before" if arg < pred else "after"


def _triples(frames) -> list[tuple[int, list[tuple[int, str]]]]:
    """(predicate, [(head, role)]) of frames, the form :func:`_counts` scores."""
    return [(f.predicate, [(a.head, a.role) for a in f.arguments]) for f in frames]


def _counts(sent: UPSentence, predicted: Sequence[tuple[int, Sequence[tuple[int, str]]]]) -> np.ndarray:
    """One document-row of counts for one sentence's predicted frames against its gold frames."""
    gold = {(pr.index, h, r) for pr in sent.predicates for h, r in pr.arguments}
    system = {(i, h, r) for i, args in predicted for h, r in args}
    gold_preds = {pr.index for pr in sent.predicates}
    sys_preds = {i for i, _ in predicted}
    row = [len(gold_preds & sys_preds), len(sys_preds), len(gold_preds), len(gold & system), len(system), len(gold)]
    for kind in KINDS:
        g = {t for t in gold if kind_of(sent.upos[t[0]]) == kind}
        s = {t for t in system if kind_of(sent.upos[t[0]]) == kind}
        row += [len(g & s), len(s), len(g)]
    return np.array(row, dtype=float)


def _prf(tp, sys, gold):
    """Precision, recall and F1 (arrays allowed; 0 where undefined)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(sys > 0, tp / np.maximum(sys, 1), 0.0)
        r = np.where(gold > 0, tp / np.maximum(gold, 1), 0.0)
        f = np.where(p + r > 0, 2 * p * r / np.maximum(p + r, 1e-12), 0.0)
    return p, r, f


def _scores(per_doc: np.ndarray, resamples: np.ndarray) -> dict:
    """P/R/F1 of predicates, arguments and arguments per kind, each with a document-bootstrap CI."""
    total = per_doc.sum(axis=0)
    boot = per_doc[resamples].sum(axis=1)  # (n_boot x columns)
    out: dict[str, dict[str, Any]] = {}
    for name, base in [("predicates", 0), ("arguments", 3), *[(k, 6 + 3 * j) for j, k in enumerate(KINDS)]]:
        point = _prf(*total[base:base + 3])
        draws = _prf(*(boot[:, base + c] for c in range(3)))
        out[name] = {m: percentile_interval(float(v), d).as_dict() for m, v, d in zip(("p", "r", "f1"), point, draws)}
        out[name]["gold"] = int(total[base + 2])
    return out


def _fmt(entry: dict) -> str:
    return f"{entry['value']:.3f} [{entry['ci_low']:.3f}, {entry['ci_high']:.3f}]"


def systems_table(results: dict) -> str:
    """Argument and predicate P/R/F1 of each system."""
    head = ["system", "arg P", "arg R", "arg F1 [95% CI]", "pred P", "pred R", "pred F1"]
    rows = []
    for name, s in results["systems"].items():
        a, pr = s["arguments"], s["predicates"]
        rows.append([name, f"{a['p']['value']:.3f}", f"{a['r']['value']:.3f}", _fmt(a["f1"]),
                     f"{pr['p']['value']:.3f}", f"{pr['r']['value']:.3f}", _fmt(pr["f1"])])
    return table(head, rows)


def kinds_table(results: dict) -> str:
    """Argument P/R/F1 of each system per predicate kind (kinds without gold arguments left out)."""
    kinds = []
    for name, s in results["systems"].items():
        for kind in KINDS:
            k = s[kind]
            if not k["gold"]:
                continue
            kinds.append([name, kind, str(k["gold"]), f"{k['p']['value']:.3f}", f"{k['r']['value']:.3f}",
                          _fmt(k["f1"])])
    return table(["system", "kind", "gold args", "P", "R", "F1 [95% CI]"], kinds)


def speed_table(results: dict, cores: int) -> str:
    """The labeller's speed on raw text, with the machine's load while it ran."""
    sp = results["speed"]
    speed = [[f"{sp['sentences']}", f"{sp['sentences_per_s']:.1f}", f"{sp['spacy_share']:.0%}",
              f"{sp['tokens_per_s']:.0f}", f"{sp['load_average']:.1f} on {cores} cores"]]
    return table(["sentences", "sentences/s", "spaCy share", "tokens/s", "load average (1 min)"], speed)


def _markdown(results: dict, info: dict) -> str:
    return "\n".join([
        f"# SRL ({results['language']}): {results['folds']}-fold cross-validation grouped by document on "
        f"{results['data']}", "",
        *([] if results["documents"] < results["sentences"] else
          ["The file has no document ids: every sentence is its own document (folds grouped by sentence).", ""]),
        f"{results['sentences']} annotated sentences, {results['documents']} documents; predicted predicates, "
        "spaCy features on the gold tokens; labelled argument-head scores (predicate, head, role); 95% "
        f"percentile CIs from {results['bootstrap']} bootstrap resamples of documents.", "",
        systems_table(results), "",
        "Per predicate kind (gold UPOS of the predicate token; kinds without gold arguments left out):", "",
        kinds_table(results), "",
        "Speed (labeller on the raw text of the last fold's test sentences, one batch; spaCy's pipeline "
        "(tokeniser, tagger, parser, entity recogniser, lemmatiser) included):", "",
        speed_table(results, info["cores"]), "",
        machine_line(info), ""])


def _trained(model: SRLModel | None) -> SRLModel:
    """The model of the last fold (there is always one: GroupKFold needs two folds)."""
    if model is None:
        raise ValueError("no fold trained a model")
    return model


def run(out: Path, data_root: Path | None = None, language: str = "en", folds: int = 5, n_boot: int = 1000,
        seed: int = 0, settings: Settings = Settings(), log: Callable[[str], None] = print) -> dict:
    """Cross-validate the labeller and the baseline; write ``srl.md`` and ``srl.json`` into ``out``."""
    from sklearn.model_selection import GroupKFold

    sentences = training_sentences(language, data_root)
    nlp = parser_for(language)
    log(f"bench srl: parsing {len(sentences)} sentences with spaCy")
    parsed = parse_gold_tokens(nlp, sentences)
    docs = sorted({s.doc_id for s in sentences})
    doc_index = {d: k for k, d in enumerate(docs)}
    systems = {"labeller (predicted predicates)": np.zeros((len(docs), len(_COLUMNS))),
               "labeller (gold predicates)": np.zeros((len(docs), len(_COLUMNS))),
               "majority baseline": np.zeros((len(docs), len(_COLUMNS)))}
    groups = [s.doc_id for s in sentences]
    model = None
    test: Sequence[int] = []
    for k, (train, test) in enumerate(GroupKFold(n_splits=folds).split(sentences, groups=groups), 1):
        log(f"bench srl: fold {k}/{folds}")
        tr_s, tr_p = [sentences[i] for i in train], [parsed[i] for i in train]
        model = train_model(tr_s, tr_p, settings)
        baseline = MajorityBaseline(tr_s, tr_p)
        te_s, te_p = [sentences[i] for i in test], [parsed[i] for i in test]
        predicted = model.frames(te_p)
        with_gold = model.frames(te_p, [[pr.index for pr in s.predicates] for s in te_s])
        for s, p, frames, gold_frames in zip(te_s, te_p, predicted, with_gold):
            row = doc_index[s.doc_id]
            systems["labeller (predicted predicates)"][row] += _counts(s, _triples(frames))
            systems["labeller (gold predicates)"][row] += _counts(s, _triples(gold_frames))
            systems["majority baseline"][row] += _counts(s, baseline.frames(p))
    resamples = resample_documents(len(docs), n_boot, seed)
    results = {"language": language, "data": up_path(language, data_root).name, "folds": folds,
               "sentences": len(sentences), "documents": len(docs), "bootstrap": n_boot, "seed": seed,
               "settings": settings.describe(),
               "systems": {name: _scores(m, resamples) for name, m in systems.items()},
               "speed": _speed(Labeller(_trained(model), language), [sentences[i].text for i in test])}
    info = machine()
    results["machine"] = info
    write_report(out, "srl", _markdown(results, info), results)
    log(f"bench srl: wrote {out / 'srl.md'}")
    return results


def _speed(labeller: Labeller, texts: list[str]) -> dict:
    """Sentences and tokens per second of labelling raw texts, and the share spaCy takes."""
    nlp = parser_for(labeller.language)
    start = time.perf_counter()
    parsed = parse_texts(nlp, texts)
    parse_s = time.perf_counter() - start
    labeller.label_parsed(parsed)
    total = time.perf_counter() - start
    tokens = sum(len(p) for p in parsed)
    return {"sentences": len(texts), "load_average": os.getloadavg()[0], "seconds": total, "spacy_seconds": parse_s,
            "spacy_share": parse_s / total,
            "sentences_per_s": len(texts) / total, "tokens_per_s": tokens / total}
