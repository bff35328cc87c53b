"""Meta-evaluation outputs stay what they were: every ``correlate`` command and the summeval
system means equal ``golden/metaeval_golden.json`` (written before the statistics, the judgment
reader and the score reader moved into evalcore) to the last digit."""

import json

import pytest

from tests.golden.metaeval_outputs import GOLDEN, outputs

EXPECTED = json.loads(GOLDEN.read_text("utf-8"))


@pytest.fixture(scope="module")
def produced(tmp_path_factory):
    return outputs(tmp_path_factory.mktemp("metaeval"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_output_is_unchanged(produced, name):
    assert produced[name] == EXPECTED[name]
