"""Training the shipped DICOMER model on public data (one command: `coherence train dicomer`).

Modes (spec 5.2): ``listwise`` = SummEval summaries grouped by source document, labelled with
the mean expert coherence; ``permutation`` = SummEval source articles against 20 seeded
sentence permutations each; ``combined`` = both sets of groups in one ranker.
The default (listwise, DICOMER, Tier 1 parser, SVMlight's C) is the setting with the best
out-of-fold summary-level correlation in `coherence bench readability`; the shipped model is
trained on all 100 documents, the benchmark only reports out-of-fold numbers.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from evalcore.resources import shared_data_dir

from coherence.dicomer.analysis import Analysis, parser_id, shared_cache
from coherence.dicomer.config import variant_config
from coherence.dicomer.model import DicomerModel, permutation_training_set

MODES = ("listwise", "permutation", "combined")
SUMMEVAL_FILE = ("summeval", "summeval_16sys_mean_expert.json")
N_PERMUTATIONS = 20
LICENCE_NOTE = ("SummEval annotations and summaries: MIT licence; CNN/DailyMail article text: "
                "research use only; GDTB (parser): annotations CC BY 4.0, GUM texts per genre, "
                "some CC BY-NC-SA (essays, fiction, letters, podcasts, WikiHow): NC terms for "
                "commercial use (data/coherence/README.md)")


def summeval_file(data: Path | None) -> Path:
    """The 16-system SummEval file from a file path, its folder, the shared data root or None."""
    candidates = [shared_data_dir().joinpath(*SUMMEVAL_FILE)] if data is None else [
        data, data / SUMMEVAL_FILE[1], data.joinpath(*SUMMEVAL_FILE)]
    for path in candidates:
        if path.is_file():
            return path
    raise FileNotFoundError(f"SummEval file {SUMMEVAL_FILE[1]} not found under {data}: the "
                            "benchmark and training read ../shared/data/summeval/")


@dataclass(frozen=True)
class SummEvalSet:
    """SummEval summaries (documents sorted, systems in file order) and source articles."""

    topics: tuple[str, ...]
    systems: tuple[str, ...]
    summaries: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    human: dict[str, np.ndarray]
    sources: dict[str, str]

    def folds(self, k: int = 5) -> dict[str, int]:
        """benchmarks.md: sort document ids, fold = index mod k."""
        return {t: i % k for i, t in enumerate(sorted(set(self.topics)))}


def load_summeval(data: Path | None = None) -> SummEvalSet:
    from evalcore.data.summeval import read_summeval

    path = summeval_file(data)
    items = read_summeval(path, references="all")
    raw = json.loads(path.read_text("utf-8"))
    dims = ("coherence", "fluency", "consistency", "relevance")
    return SummEvalSet(tuple(i.topic for i in items), tuple(i.system for i in items),
                       tuple(i.summary for i in items), tuple(tuple(i.references) for i in items),
                       {d: np.array([i.human[d] for i in items]) for d in dims},
                       {doc: raw[doc]["src"] for doc in sorted(raw)})


def training_data(mode: str, summaries: list[Analysis], labels: np.ndarray, topics: list[str],
                  originals: list[Analysis], permuted: list[list[Analysis]]):
    """(analyses, labels, groups) of a mode; summary groups are topics, article groups ``perm:i``."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    texts, y, groups = [], [], []
    if mode in ("listwise", "combined"):
        texts += list(summaries)
        y += list(labels)
        groups += [f"doc:{t}" for t in topics]
    if mode in ("permutation", "combined"):
        ptexts, py, pg = permutation_training_set(originals, permuted)
        texts += ptexts
        y += list(py)
        groups += [f"perm:{g}" for g in pg]
    return texts, np.asarray(y, dtype=float), np.asarray(groups)


def train(mode: str = "listwise", variant: str = "DICOMER", data: Path | None = None, tier: int = 1,
          C="svmlight", seed: int = 0, out: Path | None = None, target: str = "coherence") -> dict:
    """Train on all of SummEval and write ``dicomer_model.joblib`` with its sidecar
    (:mod:`evalcore.persist`); returns the sidecar."""
    from evalcore.persist import read_sidecar, save_model

    from coherence.dicomer.metric import model_paths, model_signature
    from coherence.parser.pipeline import DiscourseParser

    start = time.perf_counter()
    config = variant_config(variant)
    se = load_summeval(data)
    cache = shared_cache(DiscourseParser(tier=tier))
    summaries = cache.analyse(list(se.summaries), progress=True)
    sources = list(se.sources.values())
    originals = cache.analyse(sources, progress=True) if mode != "listwise" else []
    permuted = cache.analyse_permutations(sources, N_PERMUTATIONS, seed, progress=True) if mode != "listwise" else []
    cache.save()
    texts, y, groups = training_data(mode, summaries, se.human[target], list(se.topics), originals, permuted)
    model = DicomerModel(variant, C=C, seed=seed).fit(texts, y, groups)
    info = {
        "variant": variant, "features": config.signature(), "config": config.as_dict(), "mode": mode,
        "training_data": {"file": str(summeval_file(data).name), "target": target,
                          "summaries": len(summaries) if mode != "permutation" else 0,
                          "source_articles_permuted": len(originals),
                          "permutations_per_article": N_PERMUTATIONS if originals else 0},
        "parser_tier": tier, "parser": parser_id(cache.parser),
        "C": model.ranker_.C_, "C_setting": C, "n_pairs": model.ranker_.n_pairs_,
        "n_features": model.ranker_.n_features_in_, "seed": seed, "licence": LICENCE_NOTE,
        "seconds": round(time.perf_counter() - start, 1),
    }
    info["signature"] = str(model_signature(info, info["parser"]))
    info["trained_on"] = trained_on(info)
    model_file = save_model(model, model_paths(out)[0], info, compress=3)
    return read_sidecar(model_file)


def trained_on(info: dict) -> str:
    """One line naming a DICOMER model's training data (the sidecar's ``trained_on``)."""
    data = info["training_data"]
    parts = []
    if data["summaries"]:
        parts.append(f"{data['summaries']} SummEval summaries ranked by mean expert {data['target']} within each document")
    if data["source_articles_permuted"]:
        parts.append(f"{data['source_articles_permuted']} SummEval source articles against "
                     f"{data['permutations_per_article']} seeded sentence permutations each")
    return f"{data['file']}: " + "; ".join(parts) + f" ({info['mode']})"
