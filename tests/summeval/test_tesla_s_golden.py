"""TESLA-S on integer-id bags gives the very floats of the dict-bag implementation at
b9955f2, in batch and one call per candidate, on the first SummEval documents
(``golden/tesla_s_golden.json``; ``golden/make_tesla_s_golden.py`` regenerates it)."""

import json
from pathlib import Path

import pytest

from evalcore.data.summeval import read_summeval
from summeval.metrics import TeslaS

GOLDEN = json.loads((Path(__file__).parent / "golden" / "tesla_s_golden.json").read_text())


@pytest.fixture(scope="module")
def pairs(summeval_expert):
    by_key = {(it.topic, it.system): it for it in read_summeval(summeval_expert)}
    return [(list(by_key[t, s].references), by_key[t, s].summary) for t, s in GOLDEN["items"]]


def _fields(score):
    return [getattr(score, f) for f in GOLDEN["fields"]]


@pytest.mark.parametrize("config", sorted(GOLDEN["configs"]))
def test_batch_values_are_those_of_the_golden_file_exactly(pairs, config):
    from summeval.tesla_s.metric import clear_caches

    clear_caches()
    metric = TeslaS(**GOLDEN["configs"][config])
    assert [_fields(s) for s in metric.score_batch(pairs)] == GOLDEN["batch"][config]


@pytest.mark.parametrize("config", ["default", "jackknife"])
def test_per_candidate_values_are_those_of_the_golden_file_exactly(pairs, config):
    metric = TeslaS(**GOLDEN["configs"][config])
    assert [_fields(metric.score(refs, cand)) for refs, cand in pairs] == GOLDEN["single"][config]
