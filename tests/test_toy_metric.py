"""docs/adding-a-metric.md's walk-through, performed: its code blocks are written into a tmp folder
as the package ``toy-metric``, its model is trained, and its ``pyproject.toml`` entry point is
installed as a dist-info beside the code (what ``pip install -e`` leaves, no venv). The toy is
then listed and scored by ``mteval``, passes the conformance suite and its own test; broken
plugins cost only themselves."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest

from evalcore.metric import ReferenceMetric, Score, conformance
from evalcore.metric.registry import (
    MetricSpec,
    PluginWarning,
    get_metric,
    registered,
    spec,
)
from evalcore.metric.specs import _tables

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "adding-a-metric.md"
BLOCK = re.compile(r"```(?:python|toml)\n# file: (\S+)\n(.*?)```", re.DOTALL)


def walkthrough_files() -> dict[str, str]:
    """The page's files: path -> text, from the code blocks whose first line names a file."""
    return {path: text for path, text in BLOCK.findall(PAGE.read_text("utf-8"))}


def install_entry_points(project: Path, entry_points: dict[str, dict[str, str]], name: str = "") -> None:
    """A dist-info in ``project`` declaring ``entry_points`` (group -> name -> target)."""
    name = name or project.name
    info = project / f"{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", "utf-8")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()) for group, points in entry_points.items()),
        "utf-8")


def _env(*paths: Path) -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (*paths, ROOT)))}


@pytest.fixture
def on_path(monkeypatch):
    """Puts folders on sys.path with a fresh registry; the registry and the modules they gave are
    forgotten afterwards."""
    before = set(sys.modules)

    def add(*folders: Path) -> None:
        for folder in folders:
            monkeypatch.syspath_prepend(str(folder))
        _tables.cache_clear()

    yield add
    _tables.cache_clear()
    conformance._configured.cache_clear()
    for module in set(sys.modules) - before:
        if module.startswith(("toy_metric", "bad_plugin")):
            del sys.modules[module]


@pytest.fixture(scope="module")
def toy(tmp_path_factory) -> Path:
    """The walk-through's package, its model trained, its entry point installed: its folder."""
    root = tmp_path_factory.mktemp("walkthrough")
    files = walkthrough_files()
    assert len(files) + 1 <= 4, f"the walk-through needs {len(files)} files and a model: {sorted(files)}"
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, "utf-8")
    project = root / "toy-metric"
    done = subprocess.run([sys.executable, "-c", "import toy_metric; print(toy_metric.train())"], cwd=project,
                          env=_env(project), capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    model = Path(done.stdout.strip())
    assert model.is_file() and model.parent == project / "toy_metric" and model.stem == "toy-model"
    meta = tomllib.loads((project / "pyproject.toml").read_text("utf-8"))["project"]
    install_entry_points(project, meta["entry-points"], meta["name"])
    return project


def _mteval(project: Path, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mteval.cli", *args], cwd=cwd, env=_env(project),
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_walkthrough_is_four_files_naming_nothing_in_the_suite():
    files = walkthrough_files()
    assert sorted(files) == ["toy-metric/pyproject.toml", "toy-metric/tests/test_toy.py",
                             "toy-metric/toy_metric/__init__.py"]
    assert all(p.startswith("toy-metric/") for p in files)


def test_mteval_lists_the_toy_from_its_entry_point(toy):
    done = _mteval(toy, "--list-metrics")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    (line,) = [x for x in done.stdout.splitlines() if x.split()[0] == "toy"]
    assert line.split()[1:3] == ["references", "mteval"] and "walk-through metric" in line
    assert line.endswith("[plugin: toy-metric]")


def test_mteval_scores_the_toy_with_json_output_and_a_signature(toy, tmp_path):
    (tmp_path / "ref.en").write_text("the cat sat on the mat\nit rains in spring\n", "utf-8")
    (tmp_path / "hyp.en").write_text("a cat sat on the mat\nprices rose again\n", "utf-8")
    done = _mteval(toy, "score", "-m", "toy", "-l", "de-en", "-r", "ref.en", "-i", "hyp.en", "--format", "json",
                   "--segments", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads(done.stdout)
    short = doc["signature"]["toy"]["short"]
    assert re.fullmatch(r"toy\|lang:en\|nrefs:1\|model:toy-model:[0-9a-f]{8}\|v:\S+", short), short
    (system,) = doc["systems"]
    assert system["scored"] == {"toy": 2} and set(system["components"]["toy"]) == {"word_f1", "char_f1"}
    close, unrelated = [seg["scores"]["toy"] for seg in doc["segments"]]
    assert 0 < unrelated < close < 1


def test_the_toy_passes_the_conformance_suite_and_its_own_test(toy, on_path):
    on_path(toy)
    assert spec("toy").package == "mteval" and spec("toy").plugin == "toy-metric"
    conformance.check_metric("toy")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=toy,
                          env=_env(toy), capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "2 passed" in done.stdout


def test_an_unknown_parameter_of_the_toy_is_an_error(toy, on_path):
    on_path(toy)
    assert get_metric("toy", language="de").language == "de"
    with pytest.raises(ValueError, match="toy: unknown parameter 'alfa'; valid: language, model"):
        get_metric("toy", alfa=0.5)


BAD = {"missing": "no_such_module:Metric", "not-a-metric": "json:loads",
       "clash": "bad_plugin:Clash", "nameless": "bad_plugin:Nameless", "odd-extra": "bad_plugin:OddExtra"}
BAD_MODULE = '''
from evalcore.metric import ReferenceMetric, Score


class Clash(ReferenceMetric):
    """Claims a name the suite has."""
    name = "bleu"

    def _score_items(self, items):
        return [Score(0.0) for _ in items]


class Nameless(Clash):
    """Has no name."""
    name = ""


class OddExtra(Clash):
    """Needs an extra aesop-eval does not have."""
    name = "odd-extra"
    extra = "gpu"
'''


@pytest.fixture
def bad_plugin(tmp_path) -> Path:
    (tmp_path / "bad_plugin.py").write_text(BAD_MODULE, "utf-8")
    install_entry_points(tmp_path, {"aesop_eval.metrics": BAD}, "bad-plugin")
    return tmp_path


def test_a_bad_plugin_is_a_warning_naming_it_and_the_suite_works_on(bad_plugin, on_path):
    on_path(bad_plugin)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        names = registered()
    messages = [str(w.message) for w in caught if issubclass(w.category, PluginWarning)]
    assert len(messages) == len(BAD), messages
    for ep, why in [("missing", "ModuleNotFoundError"), ("not-a-metric", "neither a Metric subclass"),
                    ("clash", "'bleu' of entry point clash"), ("nameless", "has no name"),
                    ("odd-extra", "extra 'gpu'")]:
        assert any(m.startswith(f"metric entry point {ep} =") or f"entry point {ep} =" in m for m in messages), ep
        assert any(why in m and "bad-plugin" in m for m in messages), why
    assert "odd-extra" not in names and spec("bleu").plugin == ""
    assert spec("bleu").target == "mteval.baselines.metric:Bleu"


def test_mteval_runs_with_a_bad_plugin_installed(bad_plugin, tmp_path):
    done = _mteval(bad_plugin, "--list-metrics")
    assert done.returncode == 0, done.stderr
    assert "bleu" in done.stdout.split() and "missing = 'no_such_module:Metric'" in done.stderr
    assert "(distribution bad-plugin)" in done.stderr


def test_a_class_entry_reads_every_field_from_the_class():
    from evalcore.metric import SourceMetric

    class Distance(SourceMetric):
        """Edit distance to the source.

        Longer notes stay out of the summary."""

        name = "distance"
        package = "parapeval"
        extra = "pem"
        lower_is_better = True

        def _score_items(self, items):
            raise AssertionError("the entry is read from the class: nothing is scored")

    entry = MetricSpec.of_class(Distance, plugin="distance-metric")
    assert entry == MetricSpec(f"{__name__}:test_a_class_entry_reads_every_field_from_the_class.<locals>.Distance",
                               "Edit distance to the source. (lower is better)", "source", {}, "parapeval", "pem",
                               "distance-metric")


class NeedsMt(ReferenceMetric):
    """Declares the mt extra and the mteval command."""

    name = "needs-mt"
    extra = "mt"
    package = "mteval"

    def _score_items(self, items):
        return [Score(1.0) for _ in items]


@pytest.mark.parametrize("entry, message", [
    ({"extra": "", "package": "mteval"}, "the class needs extra 'mt', the registry says ''"),
    ({"extra": "mt", "package": "summeval"}, "the class is offered by mteval, the registry says summeval"),
])
def test_the_registry_check_compares_a_class_extra_and_package_with_its_entry(monkeypatch, entry, message):
    from evalcore.metric import specs

    table = {"needs-mt": MetricSpec(f"{NeedsMt.__module__}:NeedsMt", "Needs mt.", plugin="needs-mt", **entry)}
    monkeypatch.setattr(specs, "_tables", lambda: table)
    with pytest.raises(AssertionError, match=re.escape(message)):
        conformance.check_spec_agrees_with_class("needs-mt")
    monkeypatch.setattr(specs, "_tables", lambda: {"needs-mt": MetricSpec.of_class(NeedsMt, "needs-mt")})
    conformance.check_spec_agrees_with_class("needs-mt")
