"""Regenerate ``dicomer_golden.json``: discourse relations (both tiers), DICOMER features and the
values of DICOMER and the three CREMERs made by the code at commit 1e6608f (before the
batched parser and shared DICOMER analysis), on a fixed set of SummEval summaries.

    rm -rf /tmp/old && mkdir /tmp/old && git archive 1e6608f | tar -x -C /tmp/old
    AESOP_CACHE=$(mktemp -d) AESOP_SHARED_DATA=$PWD/../shared/data PYTHONPATH=/tmp/old \
        .venv/bin/python tests/coherence/golden/make_dicomer_golden.py

Only identifiers, offsets and numbers are stored (no SummEval text): the test reads the texts from
``../shared/data/summeval``; token layouts and feature vectors as digests. The SHA-256 of each model used is
stored beside its values.
"""

import hashlib
import json
from dataclasses import astuple
from pathlib import Path
from typing import Any

from evalcore.io.persist import file_sha256

WHOLE_TOPICS = 3   # the first topics with all their summaries (CREMER standardises within a topic)
SPREAD = 50        # plus one summary every len/SPREAD items of the other topics (alone in their topic)
METRICS = ("dicomer", "cremer", "cremer-rbf", "cremer-pf")


def golden_items(items):
    """The fixed selection: whole first topics, then summaries spread over the rest."""
    topics = sorted({it.topic for it in items})[:WHOLE_TOPICS]
    whole = [it for it in items if it.topic in topics]
    rest = [it for it in items if it.topic not in topics]
    return whole + rest[::len(rest) // SPREAD][:SPREAD]


def digest(value) -> str:
    """A short exact fingerprint of JSON-able data (floats by their shortest repr)."""
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def relation_rows(relations) -> list:
    """A text's relations as JSON rows (spans and sentence indices as lists)."""
    return [[r.rel_type, r.sense, r.arg1, r.arg2, r.connective, r.connective_text, r.arg1_sentences,
             r.arg2_sentences] for r in relations]


def value_rows(results, names) -> dict:
    """Per metric, each summary's [value, components, notes, error] (None where absent)."""
    return {name: [[r.scores.get(name), r.components.get(name, {}), list(r.notes.get(name, ())),
                    r.errors.get(name)] for r in results] for name in names}


def shipped_model_hashes() -> dict[str, str]:
    """SHA-256 of the shipped DICOMER and CREMER models (of their content, as each model file's
    header records it; the parser's and DICOMER's recorded here were converted from the joblib files
    1e6608f shipped, whose state the model files hold unchanged)."""
    from coherence.dicomer.metric import resolve_model
    from evalcore.io.models import read_header
    from summeval.cremer.model import model_path

    return {"dicomer": read_header(resolve_model(None))["sha256"],
            **{name: read_header(model_path(kernel))["sha256"] for name, kernel in
               (("cremer", "linear"), ("cremer-rbf", "rbf"), ("cremer-pf", "poly"))}}


def main() -> None:
    import coherence.parser.pipeline as old

    assert old.__file__.startswith("/tmp/old/"), f"not the 1e6608f code: {old.__file__}"
    from coherence.dicomer.analysis import AnalysisCache
    from coherence.dicomer.config import variant_config
    from coherence.dicomer.features import text_features
    from coherence.dicomer.metric import load_dicomer_model
    from coherence.parser.pipeline import DiscourseParser
    from evalcore.data.summeval import read_summeval
    from evalcore.metric.registry import build_metrics
    from evalcore.resources.registry import shared_data_dir
    from summeval.pipeline import score_items

    items = golden_items(read_summeval(shared_data_dir() / "summeval" / "summeval_16sys_mean_expert.json"))
    texts = [it.summary for it in items]
    out: dict[str, Any] = {"commit": "1e6608f", "items": [[it.topic, it.system] for it in items], "relations": {}}
    for tier in (0, 1):
        out["relations"][str(tier)] = [relation_rows(rels) for rels in DiscourseParser(tier=tier).parse_many(texts)]
    model, info = load_dicomer_model()
    analyses = AnalysisCache(DiscourseParser(tier=int(info["parser_tier"]))).analyse(texts)
    out["layout"] = [digest([astuple(t) for t in a.tokens]) for a in analyses]
    out["features"] = [digest(text_features(a, variant_config(model.variant))) for a in analyses]
    results = score_items(items, build_metrics(METRICS))
    out["values"] = value_rows(results, METRICS)
    # ``old`` is the 1e6608f checkout's module (PYTHONPATH above), whose reader lists its files
    parser_file = old.model_paths()[0]  # type: ignore[attr-defined]  # the old code's function: see above
    out["models"] = {"parser": file_sha256(parser_file), **shipped_model_hashes()}
    Path(__file__).with_name("dicomer_golden.json").write_text(json.dumps(out))


if __name__ == "__main__":
    main()
