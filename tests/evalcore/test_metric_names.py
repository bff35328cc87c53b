"""Metric names are unique in a run and fit every output (issue 38, items 14 and 15): two
configurations of one metric under one name are refused, not merged into one key; a plugin whose
name is a reserved column (`lines`, `errors`, `system`) or holds a tab is skipped at registration
with a warning naming it, so no TSV header is corrupted."""

from __future__ import annotations

import warnings

import pytest

from evalcore.data.records import SummaryItem
from evalcore.metric.batch import check_distinct_names, score_with
from evalcore.metric.registry import PluginWarning, registered
from evalcore.metric.specs import name_problem
from summeval.pipeline import score_items
from summeval.tesla_s.metric import TeslaS
from tests.test_toy_metric import install_entry_points, on_path  # noqa: F401 - on_path is a fixture

ITEMS = [SummaryItem("t", "s", "the cat sat", ("the cat sat on the mat",), "x")]


def test_two_configurations_under_one_name_are_refused():
    with pytest.raises(ValueError, match=r"both named 'tesla-s' but configured differently \(alpha=0.8 and 0.2\)"):
        score_items(ITEMS, [TeslaS(), TeslaS(alpha=0.2)])  # before: one 'tesla-s' key, one value lost
    with pytest.raises(ValueError, match="both named 'tesla-s'"):
        score_with([TeslaS(), TeslaS(alpha=0.2)], [])


def test_one_configuration_twice_is_one_metric():
    check_distinct_names([TeslaS(alpha=0.2), TeslaS(alpha=0.2)])
    assert list(score_items(ITEMS, [TeslaS(), TeslaS()])[0].scores) == ["tesla-s"]


PLUGIN = '''
from evalcore.metric import ReferenceMetric, Score


class Lines(ReferenceMetric):
    """Named like a column of mteval's TSV."""
    name = "lines"

    def _score_items(self, items):
        return [Score(1.0) for _ in items]


class Errors(Lines):
    """Named like summeval's error column."""
    name = "errors"


class System(Lines):
    """Named like the system column."""
    name = "system"


class Tabbed(Lines):
    """Holds a tab."""
    name = "my\\tmetric"


class Fine(Lines):
    """A good name."""
    name = "my-metric_2"
'''
NAMES = {"lines": "reserved", "errors": "reserved", "system": "reserved", "my\tmetric": "not a metric name"}


@pytest.fixture
def named_plugin(tmp_path):
    (tmp_path / "named_plugin.py").write_text(PLUGIN, "utf-8")
    install_entry_points(tmp_path, {"aesop_eval.metrics": {
        "lines": "named_plugin:Lines", "errors": "named_plugin:Errors", "system": "named_plugin:System",
        "tabbed": "named_plugin:Tabbed", "fine": "named_plugin:Fine"}}, "named-plugin")
    return tmp_path


def test_reserved_and_unprintable_plugin_names_are_skipped_with_a_warning(named_plugin, on_path):  # noqa: F811
    on_path(named_plugin)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = registered()
    messages = [str(w.message) for w in caught if issubclass(w.category, PluginWarning)]
    assert "my-metric_2" in names and not set(NAMES) & set(names)  # before: all five registered
    for name, why in NAMES.items():
        assert any(f"metric {name!r} of entry point" in m and why in m and "named-plugin" in m for m in messages), name


@pytest.mark.parametrize("name", ["lines", "errors", "system", "a\tb", "a b", "tesla-s[alpha=2]", "pem.notes",
                                  "a,b", "Bleu", "", "x" * 65, "-lead", "trail-", "naïve"])
def test_names_no_output_can_carry_are_problems(name):
    assert name_problem(name)


@pytest.mark.parametrize("name", sorted(registered()))
def test_every_suite_name_is_a_name(name):
    assert name_problem(name) is None
