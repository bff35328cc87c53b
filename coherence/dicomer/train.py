"""Training the shipped DICOMER model on public data (one command: `coherence train dicomer`).

Modes (spec 5.2): ``listwise`` = SummEval summaries grouped by source document, labelled with
the mean expert coherence; ``permutation`` = SummEval source articles against 20 seeded
sentence permutations each; ``combined`` = both sets of groups in one ranker;
``gdtb-permutation`` = 5-sentence windows of GDTB's training documents against seeded
permutations (:mod:`coherence.dicomer.synthetic`), across the GUM genres ``open`` (text licences
that allow commercial use) or ``all`` (opt-in: some texts CC BY-NC-SA).
The default (gdtb-permutation on the open genres, variant DICOMER-N, Tier 1 parser, SVMlight's C)
is chosen by the transfer benchmark (`python -m benchmarks transfer`): the listwise SummEval model is
best in-domain but does not transfer to other summaries (its one-sentence indicator points the wrong
way).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from coherence.dicomer.analysis import Analysis, parser_id, shared_cache
from coherence.dicomer.config import DEFAULT_MODE, DEFAULT_VARIANT, MODES, SUMMEVAL_MODES, variant_config
from coherence.dicomer.model import DicomerModel, permutation_training_set
from evalcore.resources.registry import shared_data_dir

SUMMEVAL_FILE = ("summeval", "summeval_16sys_mean_expert.json")
N_PERMUTATIONS = 20
GDTB_NOTE = ("GDTB annotations CC BY 4.0 (Liu, Zeldes et al.); parser: coherence/models/parser_tier1.json")
LICENCE_NOTE = ("SummEval annotations and summaries: MIT licence; CNN/DailyMail article text: "
                "research use only; GDTB (parser): annotations CC BY 4.0, GUM texts per genre, "
                "some CC BY-NC-SA (essays, fiction, letters, podcasts, WikiHow): NC terms for "
                "commercial use (coherence/models/README.md)")


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
    """(analyses, labels, groups) of a SummEval mode; summary groups are topics, article groups ``perm:i``."""
    if mode not in SUMMEVAL_MODES:
        raise ValueError(f"mode must be one of {SUMMEVAL_MODES}, got {mode!r}")
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


def save_dicomer(model, path: Path, info: dict) -> Path:
    """Write a trained DICOMER as a model file (:mod:`evalcore.io.models`) whose header names the
    metric it serves (``dicomer``, or ``dicomer-gdtb-all`` for the opt-in every-genre model)."""
    from evalcore.io.models import save_model

    metric = "dicomer-gdtb-all" if info.get("genres") == "all" else "dicomer"
    return save_model(model, path, {**info, "metric": metric}, classes=(DicomerModel,))


def model_name(mode: str, genres: str) -> str:
    """File stem of a trained model: the default's, or ``dicomer_gdtb_all`` for the opt-in
    all-genre model (it must never replace the licence-clean default by accident)."""
    from coherence.dicomer.metric import MODEL_NAME, SHIPPED_MODELS

    return SHIPPED_MODELS["gdtb-all"] if mode == "gdtb-permutation" and genres == "all" else MODEL_NAME


def genre_licence(genres: dict[str, int]) -> str:
    """Licence line of a model trained on GDTB windows of ``genres`` (genre -> windows)."""
    from coherence.dicomer.synthetic import GENRE_LICENCES

    texts = ", ".join(f"{g} ({GENRE_LICENCES.get(g, 'licence not stated in gdtb/LICENSE.txt')})" for g in genres)
    restricted = [g for g in genres if "NC" in GENRE_LICENCES.get(g, "NC")
                  or "non-commercial" in GENRE_LICENCES.get(g, "")]
    terms = ("OPT-IN, NON-COMMERCIAL: trained on texts under non-commercial or unknown terms "
             f"({', '.join(restricted)})" if restricted else "no non-commercial text")
    return f"{terms}; GUM texts: {texts}; {GDTB_NOTE}"


def train_gdtb(variant: str = DEFAULT_VARIANT, genres: str = "open", data: Path | None = None, tier: int = 1,
               C="svmlight", seed: int = 0, out: Path | None = None) -> dict:
    """Train on GDTB windows against seeded permutations (no human scores, no summaries) and
    write the model file; ``genres="all"`` writes the opt-in ``dicomer_gdtb_all``."""
    from coherence.dicomer.metric import model_path, model_signature
    from coherence.dicomer.synthetic import TRAIN_NEGATIVES, WINDOW_SENTENCES, gdtb_windows
    from coherence.parser.pipeline import DiscourseParser
    from evalcore.io.models import read_header

    start = time.perf_counter()
    config = variant_config(variant)
    root = Path(data) if data else shared_data_dir()
    cache = shared_cache(DiscourseParser(tier=tier))
    synthetic = gdtb_windows(root, cache, seed, inserted=False)
    texts, y, groups = synthetic.groups(("perm",), genres)
    model = DicomerModel(variant, C=C, seed=seed).fit(texts, np.asarray(y), np.asarray(groups))
    counts = synthetic.genre_counts(genres)
    info = {
        "variant": variant, "features": config.signature(), "config": config.as_dict(), "mode": "gdtb-permutation",
        "genres": genres,
        "training_data": {"file": "GDTB train (discourse/gdtb)", "windows": sum(counts.values()),
                          "window_sentences": WINDOW_SENTENCES, "permutations_per_window": TRAIN_NEGATIVES,
                          "windows_per_genre": counts, "summaries": 0},
        "parser_tier": tier, "parser": parser_id(cache.parser),
        "C": model.ranker_.C_, "C_setting": C, "n_pairs": model.ranker_.n_pairs_,
        "n_features": model.ranker_.n_features_in_, "seed": seed, "licence": genre_licence(counts),
        "valid_for": "English prose of about 2-10 sentences with discourse relations; texts with fewer than two "
                     "sentences or no relation get the neutral value and the note not_judged",
        "seconds": round(time.perf_counter() - start, 1),
    }
    info["signature"] = str(model_signature(info, info["parser"]))
    info["trained_on"] = (f"{sum(counts.values())} {WINDOW_SENTENCES}-sentence windows of GDTB train ({genres} genres: "
                          f"{', '.join(counts)}) against {TRAIN_NEGATIVES} seeded sentence permutations each")
    model_file = save_dicomer(model, model_path(out, model_name("gdtb-permutation", genres)), info)
    return read_header(model_file)


def train(mode: str = DEFAULT_MODE, variant: str = DEFAULT_VARIANT, data: Path | None = None, tier: int = 1,
          C="svmlight", seed: int = 0, out: Path | None = None, target: str = "coherence",
          genres: str = "open") -> dict:
    """Train the DICOMER model of ``mode`` and write it as a model file (:mod:`evalcore.io.models`);
    SummEval modes train on all of SummEval; returns its header."""
    from coherence.dicomer.metric import model_path, model_signature
    from coherence.parser.pipeline import DiscourseParser
    from evalcore.io.models import read_header

    if mode == "gdtb-permutation":
        return train_gdtb(variant, genres, data, tier, C, seed, out)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
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
    model_file = save_dicomer(model, model_path(out), info)
    return read_header(model_file)


def train_on_judged(items, human: dict[tuple[str, str], dict[str, float]], target: str = "coherence",
                    variant: str = DEFAULT_VARIANT, tier: int = 1, C="svmlight", seed: int = 0,
                    out: Path | None = None, source: str = "") -> dict:
    """Train DICOMER listwise on one's own judged summaries (:class:`~evalcore.data.records.SummaryItem`
    from TAC folders or JSONL, human scores from :func:`evalcore.data.human.read_human`): one group
    per topic, labels = the human ``target``; writes the model file into ``out``."""
    from coherence.dicomer.metric import model_path, model_signature
    from coherence.parser.pipeline import DiscourseParser
    from evalcore.io.models import read_header
    from evalcore.io.textfiles import InputError

    if out is None:
        raise InputError("training on your own judged summaries needs --out DIR (the shipped model stays in place)")
    missing = [it.origin or f"{it.topic}/{it.system}" for it in items if target not in human.get(it.key, {})]
    if missing:
        raise InputError(f"no human {target!r} score for {len(missing)} summaries, e.g. {missing[0]}")
    topics = [it.topic for it in items]
    y = np.array([human[it.key][target] for it in items], float)
    if not any(len(set(y[[t == topic for t in topics]])) > 1 for topic in set(topics)):
        raise InputError(f"no topic has two summaries with different human {target!r} scores: nothing to rank")
    start = time.perf_counter()
    config = variant_config(variant)
    cache = shared_cache(DiscourseParser(tier=tier))
    analyses = cache.analyse([it.summary for it in items], progress=True)
    cache.save()
    model = DicomerModel(variant, C=C, seed=seed).fit(analyses, y, np.asarray([f"doc:{t}" for t in topics]))
    name = Path(source).name or "judged summaries"
    info = {
        "variant": variant, "features": config.signature(), "config": config.as_dict(), "mode": "listwise",
        "training_data": {"file": name, "target": target, "summaries": len(items), "topics": len(set(topics)),
                          "source_articles_permuted": 0, "permutations_per_article": 0},
        "parser_tier": tier, "parser": parser_id(cache.parser),
        "C": model.ranker_.C_, "C_setting": C, "n_pairs": model.ranker_.n_pairs_,
        "n_features": model.ranker_.n_features_in_, "seed": seed,
        "licence": f"inherits the licence of the judged summaries and judgments ({name}); parser: "
                   "coherence/models/parser_tier1.json",
        "seconds": round(time.perf_counter() - start, 1),
    }
    info["signature"] = str(model_signature(info, info["parser"]))
    info["trained_on"] = (f"{name}: {len(items)} summaries of {len(set(topics))} topics ranked by human "
                          f"{target} within each topic (listwise)")
    model_file = save_dicomer(model, model_path(out), info)
    return read_header(model_file)


def trained_on(info: dict) -> str:
    """One line naming a DICOMER model's training data (the header's ``trained_on``)."""
    data = info["training_data"]
    parts = []
    if data["summaries"]:
        parts.append(f"{data['summaries']} SummEval summaries ranked by mean expert {data['target']} "
                     "within each document")
    if data["source_articles_permuted"]:
        parts.append(f"{data['source_articles_permuted']} SummEval source articles against "
                     f"{data['permutations_per_article']} seeded sentence permutations each")
    return f"{data['file']}: " + "; ".join(parts) + f" ({info['mode']})"
