"""Training CREMER (:mod:`summeval.cremer.model`): its two features of judged summaries, TESLA-S from
:mod:`summeval.metrics` and DICOMER from ``coherence``, then one tuned model file per kernel.
Apart from the regressor's module so that the metric, which reads the model, and the training,
which runs the metrics, import each other in one direction only."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evalcore.io.textfiles import InputError
from evalcore.metric import Item
from evalcore.resources.registry import ResourceError
from summeval.cremer.model import (
    DEFAULT_KERNEL,
    DEFAULT_TRAINING,
    DICOMER_SCALING,
    FEATURES,
    KERNELS,
    N_FOLDS,
    PARAM_GRIDS,
    TESLA_SCALING,
    VALID_FOR,
    dicomer_judged,
    feature_matrix,
    fit_cremer,
    monotone_in_tesla,
    save_cremer,
    scale_dicomer,
    standardised,
    svr_params,
    topic_z,
)


def tesla_training(values) -> dict:
    """Mean and SD of raw TESLA-S over a training set (the single-summary fallback's distribution)."""
    values = np.asarray(values, float)
    return {"mean": float(values.mean()), "sd": float(values.std()) or 1.0}


def _fit_and_save(tesla: np.ndarray, dicomer: np.ndarray, judged: np.ndarray, y: np.ndarray, groups: np.ndarray,
                  kernels: tuple[str, ...], folder: str | Path | None, info: dict,
                  training: str = DEFAULT_TRAINING) -> list[Path]:
    """One tuned model per kernel over (TESLA-S and DICOMER standardised within topic), saved with its
    header (``info`` + the chosen SVR parameters, the scalings and whether it is monotone in TESLA-S)."""
    x = feature_matrix(topic_z(tesla, groups), scale_dicomer(dicomer, judged, groups))
    grid = np.quantile(x[:, 1], np.linspace(0, 1, 11))
    paths = []
    for kernel in kernels:
        model = fit_cremer(kernel, x, y, groups, n_folds=min(N_FOLDS - 1, len(set(groups))))
        header = {"variant": KERNELS[kernel], "features": list(FEATURES), **info,
                  "tesla_scaling": TESLA_SCALING, "tesla_s_training": tesla_training(tesla),
                  "dicomer_scaling": DICOMER_SCALING, "dicomer_judged_share": float(np.mean(judged)),
                  "monotone_in_tesla_s": monotone_in_tesla(model, grid), "valid_for": VALID_FOR,
                  "svr": svr_params(model), "target_scaling": "standardised (epsilon in SDs)",
                  "tuning": f"grid {PARAM_GRIDS[kernel]}, folds by document, MSE"}
        paths.append(save_cremer(model, kernel, header, folder, training))
    return paths


def _judged(results: list) -> np.ndarray:
    """DICOMER's judged flag of each (already checked) training score."""
    return np.array([dicomer_judged(r) for r in results], bool)


def _values(results: list, items, what: str) -> np.ndarray:
    """Values of a training feature; a summary it could not score is an error naming it (a model
    cannot be fitted around a hole)."""
    bad = [(it, r) for it, r in zip(items, results) if not r.ok]
    if bad:
        item, record = bad[0]
        raise InputError(f"{what} could not score {len(bad)} training summaries, e.g. "
                         f"{item.origin or f'{item.topic}/{item.system}'}: {record.message}")
    return np.array([r.value for r in results], float)


def _metric_items(items) -> list[Item]:
    return [Item(it.summary, it.references, id=it.origin or f"{it.topic}/{it.system}") for it in items]


def _candidate_items(items) -> list[Item]:
    """The summaries alone, for DICOMER (reference-free)."""
    return [Item(it.summary, id=it.origin or f"{it.topic}/{it.system}") for it in items]


def train_on_summeval(data: Path, kernels: tuple[str, ...] = tuple(KERNELS), target: str = "mean",
                      folder: str | Path | None = None, seed: int = 0) -> list[Path]:
    """Fit CREMER on all of SummEval and save one model per kernel. Features: TESLA-S with all
    references, standardised within each document, and DICOMER: the shipped model's values when it
    never saw SummEval's summaries (the default, trained on GDTB), else out-of-fold values.
    Report cross-validated and cross-domain quality with `python -m benchmarks transfer`."""
    from evalcore.data.summeval import read_summeval

    items = read_summeval(data)
    topics = np.array([it.topic for it in items])
    if _dicomer_saw_summaries():
        from coherence.dicomer import oof
        from coherence.dicomer.config import variant_config
        from coherence.dicomer.features import judged as judges
        from coherence.dicomer.metric import Dicomer
        from summeval.tesla_s.metric import TeslaS

        tesla = TeslaS()
        tesla_values = _values(tesla.score_batch(_metric_items(items)), items, "TESLA-S")
        analyses = oof.summary_analyses([it.summary for it in items])
        coherence = np.array([it.human["coherence"] for it in items])
        dicomer = oof.out_of_fold(analyses, coherence, topics, np.ones(len(items), bool), N_FOLDS, seed)
        judged = np.array([judges(a, variant_config(oof.VARIANT)) for a in analyses])
        signatures = {"tesla_s": str(tesla.signature()), "dicomer": str(Dicomer().signature())}
        dicomer_values = f"out of fold ({N_FOLDS} folds by document, seed {seed})"
    else:
        tesla_values, dicomer, judged, signatures = shipped_features(items)
        dicomer_values = "shipped DICOMER model (trained without SummEval summaries)"
    y = np.array([it.human[target] for it in items])
    info = {"target": f"summeval:{target}", "data": Path(data).name, "n_summaries": len(items),
            "trained_on": f"SummEval {Path(data).name}: {len(items)} summaries of 100 CNN/DailyMail articles "
                          f"(11 references each), target {target}",
            **signatures, "dicomer_training_values": dicomer_values,
            "licence": "trained on SummEval annotations (MIT); CNN/DailyMail text, research use; no "
                       "non-commercial data"}
    return _fit_and_save(tesla_values, dicomer, judged, y, topics, kernels, folder, info)


def _dicomer_saw_summaries() -> bool:
    """Whether the DICOMER model in use was trained on summaries (then its values on them are
    in-sample, and a CREMER must not be fitted on them as they are)."""
    from coherence.dicomer.metric import Dicomer

    return bool(Dicomer()._engine().info["training_data"].get("summaries"))


def shipped_features(items) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    """(raw TESLA-S, raw DICOMER, DICOMER's judged flags, the two signatures) of judged summaries,
    from TESLA-S against their references and the shipped DICOMER (which never saw a summary)."""
    from coherence.dicomer.metric import Dicomer
    from summeval.tesla_s.metric import TeslaS

    tesla, dicomer = TeslaS(), Dicomer()
    tesla_values = _values(tesla.score_batch(_metric_items(items)), items, "TESLA-S")
    dicomer_results = dicomer.score_batch(_candidate_items(items))
    return (tesla_values, _values(dicomer_results, items, "DICOMER"), _judged(dicomer_results),
            {"tesla_s": str(tesla.signature()), "dicomer": str(dicomer.signature())})


def train_on_news_and_chat(summeval_file: Path, dialsummeval_dir: Path, kernels: tuple[str, ...] = (DEFAULT_KERNEL,),
                           folder: str | Path | None = None) -> list[Path]:
    """The opt-in ``cremer-news-chat``: CREMER fitted on SummEval (news, 11 references) and
    DialSummEval (chat, one reference) together, target = the mean of the four dimensions
    standardised within each set (their judges and scales differ). Non-commercial: SAMSum's text is
    CC BY-NC-ND, and the model's header and signature say so (``use:non-commercial``)."""
    from evalcore.data.dialsummeval import LICENCE, read_dialsummeval
    from evalcore.data.summeval import read_summeval

    if _dicomer_saw_summaries():
        raise ResourceError("the DICOMER model in use was trained on summaries: its values on SummEval would be "
                            "in-sample; fit cremer-news-chat with the shipped DICOMER (trained on GDTB)")
    sets = {"summeval": read_summeval(summeval_file), "dialsummeval": list(read_dialsummeval(dialsummeval_dir).items)}
    parts: list[tuple[np.ndarray, ...]] = []
    signatures: dict = {}
    for name, items in sets.items():
        tesla, dicomer, judged, signatures = shipped_features(items)
        y = np.array([it.human["mean"] for it in items])
        topics = np.array([f"{name}:{it.topic}" for it in items])
        parts.append((tesla, dicomer, judged, standardised(y), topics))
    tesla, dicomer, judged, y, topics = (np.concatenate(a) for a in zip(*parts))
    sizes = {name: len(items) for name, items in sets.items()}
    info = {"target": "summeval+dialsummeval:mean-z", "data": f"{summeval_file.name} + {dialsummeval_dir.name}",
            "n_summaries": len(y), "use": "non-commercial", **signatures,
            "trained_on": f"SummEval ({sizes['summeval']} news summaries, 11 references) and DialSummEval "
                          f"({sizes['dialsummeval']} chat summaries, one reference), target = mean of the four "
                          "dimensions standardised within each set",
            "dicomer_training_values": "shipped DICOMER model (trained without summaries)",
            "licence": "OPT-IN, NON-COMMERCIAL: trained on DialSummEval (" + LICENCE + ") and SummEval "
                       "annotations (MIT; CNN/DailyMail text, research use)"}
    return _fit_and_save(tesla, dicomer, judged, y, topics, kernels, folder, info, training="news-chat")


def train_on_judged(items, human: dict[tuple[str, str], dict[str, float]], target: str,
                    kernels: tuple[str, ...] = tuple(KERNELS), folder: str | Path | None = None,
                    source: str = "") -> list[Path]:
    """Fit CREMER on one's own judged summaries (TAC folders or JSONL plus a human-score file):
    TESLA-S against their references and the shipped DICOMER, which never saw these texts."""
    missing = [it.origin or f"{it.topic}/{it.system}" for it in items if target not in human.get(it.key, {})]
    if missing:
        raise InputError(f"no human {target!r} score for {len(missing)} summaries, e.g. {missing[0]}")
    topics = np.array([it.topic for it in items])
    if len(set(topics)) < 2:
        raise InputError("training CREMER needs summaries of at least two topics (folds are grouped by topic)")
    tesla_values, dicomer_values, judged, signatures = shipped_features(items)
    y = np.array([human[it.key][target] for it in items])
    name = Path(source).name or "judged"
    info = {"target": f"{name}:{target}", "data": str(source), "n_summaries": len(items),
            "trained_on": f"{source or 'judged summaries'}: {len(items)} summaries, human {target!r}",
            **signatures, "dicomer_training_values": "shipped DICOMER model (not trained on these summaries)",
            "licence": f"inherits the licence of the judged summaries and judgments ({name})"}
    return _fit_and_save(tesla_values, dicomer_values, judged, y, topics, kernels, folder, info)


def held_out_responsiveness_inputs(data_root: Path, features_folder: Path | None) -> dict:
    """For SummEval and DialSummEval: (TESLA-S, readability scores of the shipped readability recipe
    that no model fitted on the set, topics, systems, human ``mean``). DialSummEval's readability is
    the shipped model's (trained on SummEval alone); SummEval's is out of fold (five folds of its
    documents, each scored by a model trained as the shipped one on the other four)."""
    from coherence.readability.data import load_set
    from coherence.readability.extract import Extractor
    from coherence.readability.metric import load_readability_model
    from coherence.readability.train import fit, input_folds, set_features
    from summeval.tesla_s.metric import TeslaS

    shipped, info = load_readability_model(None)
    extractor = Extractor("auto")
    out = {}
    for name in ("summeval", "dialsummeval"):
        data = set_features(name, data_root, extractor, features_folder)
        items = load_set(name, data_root).items
        tesla = _values(TeslaS().score_batch(_metric_items(items)), items, "TESLA-S")
        if name in info["sets"]:
            fold = input_folds(data.topics, N_FOLDS)
            readability = np.zeros(len(items))
            for k in range(N_FOLDS):
                model = fit([data.subset(fold != k)], shipped.features, **info["params"])
                readability[fold == k] = model.decision_function(data.X[fold == k])
        else:
            readability = shipped.decision_function(data.X)
        out[name] = {"tesla": tesla, "readability": readability, "topics": data.topics, "systems": data.systems,
                     "human": np.array([it.human["mean"] for it in items])}
    return out


def summary_criterion(values: np.ndarray, part: dict) -> float:
    """The summary level the suite reports: mean of per-input Kendall tau-b and pooled Pearson with
    the human ``mean``."""
    from coherence.readability.train import matrix
    from evalcore.stats.levels import values as statistic

    x = matrix(values, part["systems"], part["topics"])
    z = matrix(part["human"], part["systems"], part["topics"])
    return float((statistic(x, z, "item", "kendall-b")[0] + statistic(x, z, "global", "pearson")[0]) / 2)


def train_weighted(data_root: Path, folder: str | Path | None = None, features_folder: Path | None = None) -> Path:
    """The weighted CREMER: the readability weight whose smallest summary-level gain over TESLA-S,
    across SummEval and DialSummEval (held-out readability scores), is largest; saved with every
    weight's gains. No parameter is fitted to DialSummEval's texts: it only judges the candidates."""
    from coherence.readability.metric import Readability
    from evalcore.io.models import save_model
    from evalcore.resources.registry import package_path
    from summeval.cremer.combination import WEIGHTS, choose_weight
    from summeval.cremer.metric import WEIGHTED_MODEL

    parts = held_out_responsiveness_inputs(data_root, features_folder)
    weight, gains = choose_weight({n: (p["tesla"], p["readability"], p["topics"]) for n, p in parts.items()},
                                  lambda n, v: summary_criterion(v, parts[n]))
    readability = Readability()
    header = {"metric": "cremer", "signature": f"cremer|weight:{weight:g}",
              "readability": readability.name, "readability_signature": str(readability.signature()),
              "chosen_on": "summeval+dialsummeval", "weights_searched": list(WEIGHTS), "gains": gains,
              "criterion": "smallest gain over TESLA-S across the sets of the mean of per-input Kendall tau-b "
                           "and pooled Pearson with the mean of the four human dimensions",
              "trained_on": "the weight: chosen on SummEval and DialSummEval (held-out readability scores); no "
                            "parameter fitted to their texts",
              "licence": "a weight chosen by held-out evaluation on SummEval (MIT) and DialSummEval (research use); "
                         "the readability model it reads is trained on SummEval alone"}
    path = (Path(folder) if folder else package_path("summeval", "models")) / f"{WEIGHTED_MODEL}.npz"
    return save_model({"weight": weight}, path, header)
