"""A metric's name is stated once, by the registry: instances are named by the registered
configuration they have, configurations no spec states by the nearest one and what differs."""

from __future__ import annotations

import importlib

import pytest

from evalcore.metric import ReferenceMetric, Score, specs
from evalcore.metric.registry import MetricSpec, get_metric, registered


@pytest.mark.parametrize("name", [n for n, s in registered().items() if s.installed and not s.plugin])
def test_every_registered_name_names_its_own_configuration(name):
    assert get_metric(name).name == name


def test_no_suite_metric_class_states_a_name_of_its_own():
    """The registry's table is the one place a suite metric's name is written."""
    stating = []
    for name, spec in registered().items():
        if spec.plugin or not spec.installed:
            continue
        module, _, attr = spec.target.partition(":")
        cls = getattr(importlib.import_module(module), attr)
        stating += [f"{klass.__qualname__} ({name})" for klass in cls.__mro__
                    if "name" in vars(klass) and klass.__module__.split(".")[0] != "evalcore"]
    assert stating == []


@pytest.mark.parametrize(("make", "expected"), [
    (lambda: importlib.import_module("summeval.rouge.metric").RougeSU(max_gap=2), "rouge-su4[max_gap=2]"),
    (lambda: importlib.import_module("summeval.rouge.metric").RougeSU(max_gap=2, measure="f"),
     "rouge-su4-f[max_gap=2]"),
    (lambda: importlib.import_module("summeval.rouge.metric").Rouge(kind="rouge-1", measure="f"), "rouge-1-f"),
    (lambda: importlib.import_module("summeval.tesla_s.metric").TeslaS(lang="de"), "tesla-s"),
    # a value no spec states leaves the name (and the signatures of 0.1.0) alone
    (lambda: importlib.import_module("summeval.tesla_s.metric").TeslaS(function_words="none"), "tesla-s"),
])
def test_a_configuration_no_spec_states_is_the_nearest_name_and_what_differs(make, expected):
    assert make().name == expected


def test_one_name_never_stands_for_two_configurations():
    """Two configurations named alike would be computed once (build_metrics keeps one per name)."""
    meant = pytest.importorskip("mteval.meant.metric")
    names = {meant.Meant(role_weights=w, filler_similarity=f).name
             for w in ("equal", "umeant") for f in ("mi", "itg")}
    assert len(names) == 4 and "imeant[role_weights=umeant]" in names
    assert meant.Xmeant(filler_similarity="itg").name == "xmeant-itg"


class Named(ReferenceMetric):
    """A metric with a model file and an order, three configurations of which are registered."""

    def __init__(self, model: str | None = None, order: int = 2):
        self.model = model
        self.order = order

    def _score_items(self, items):
        return [Score(1.0) for _ in items]


@pytest.fixture
def named_table(monkeypatch):
    target = f"{__name__}:Named"
    table = {"named": MetricSpec(target, "Named."), "named-big": MetricSpec(target, "Big.", kwargs={"model": "big"}),
             "named-3": MetricSpec(target, "Order 3.", kwargs={"order": 3})}
    monkeypatch.setattr(specs, "_tables", lambda: table)
    specs._configurations.cache_clear()
    yield
    specs._configurations.cache_clear()


def test_only_values_a_spec_states_show_in_the_name(named_table):
    assert Named().name == "named" and Named(model="big").name == "named-big"
    assert Named(model="/data/my-model.npz").name == "named"  # the signature names the file by its hash
    assert Named(order=3).name == "named-3" and Named(order=4).name == "named"
    assert Named(model="/data/my-model.npz", order=3).name == "named-3"
    assert Named(model="big", order=3).name == "named-3[model=big]"  # ties: the more general name, then by name
    assert Named.name == ""  # the class itself states no name
    assert Named().signature().name == "named"


def test_a_class_registered_by_itself_keeps_the_name_it_states():
    class Plugin(Named):
        name = "plugin-metric"

    assert Plugin().name == "plugin-metric" and Plugin.name == "plugin-metric"
