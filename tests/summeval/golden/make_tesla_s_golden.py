"""Regenerate ``tesla_s_golden.json``: TESLA-S values computed by the implementation at commit
b9955f2 (before the integer-id bags), on the first documents of SummEval.

    rm -rf /tmp/old && mkdir /tmp/old && git archive b9955f2 | tar -x -C /tmp/old
    AESOP_SHARED_DATA=$PWD/../shared/data PYTHONPATH=/tmp/old .venv/bin/python
    tests/summeval/golden/make_tesla_s_golden.py

Only identifiers and numbers are stored (no SummEval text): the test reads the texts from
``../shared/data/summeval``.
"""

import json
from pathlib import Path
from typing import Any

import summeval.tesla_s.metric as old

assert old.__file__.startswith("/tmp/old/"), f"not the b9955f2 code: {old.__file__}"
from evalcore.data.summeval import read_summeval  # noqa: E402 - b9955f2's reader
from evalcore.resources.registry import shared_data_dir  # noqa: E402 - after the check that the old code is imported

N_TOPICS = 5
CONFIGS: dict[str, dict[str, Any]] = {
    "default": {}, "stem": {"stem": True}, "no-fw": {"function_words": "none"},
    "mean": {"multi_ref": "mean"}, "jackknife": {"multi_ref": "jackknife", "max_gap": 2, "alpha": 0.5}}
FIELDS = ("value", "precision", "recall", "f", "unigram_f", "skip_bigram_f")


def main() -> None:
    items = read_summeval(shared_data_dir() / "summeval" / "summeval_16sys_mean_expert.json")
    topics = sorted({it.topic for it in items})[:N_TOPICS]
    items = [it for it in items if it.topic in topics]
    pairs = [(list(it.references), it.summary) for it in items]
    out: dict[str, Any] = {"commit": "b9955f2", "topics": topics, "items": [[it.topic, it.system] for it in items],
                           "batch": {}, "single": {}}
    for name, kwargs in CONFIGS.items():
        metric = old.TeslaS(**kwargs)
        out["batch"][name] = [[getattr(s, f) for f in FIELDS] for s in metric.score_batch(pairs)]
        out["single"][name] = [[getattr(s, f) for f in FIELDS] for s in (metric.score_batch([p])[0] for p in pairs)]
    out["configs"], out["fields"] = CONFIGS, FIELDS
    Path(__file__).with_name("tesla_s_golden.json").write_text(json.dumps(out))


if __name__ == "__main__":
    main()
