"""Optional extras (a missing one is named, never an import failure) and first-use builds of
system resources (one message naming the Debian packages; a file lock so that concurrent first
uses build once)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import multiprocessing
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evalcore import extras
from evalcore.metric import registry
from evalcore.resources import system as system_resources
from evalcore.resources.registry import ResourceError


def _without(monkeypatch, *modules: str) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(extras.importlib.util, "find_spec",
                        lambda name, *a: None if name in modules else real(name, *a))


def test_missing_extra_names_the_install_command(monkeypatch):
    _without(monkeypatch, "sacrebleu")
    with pytest.raises(extras.MissingExtraError, match=r"pip install 'aesop-eval\[mt\]'") as info:
        registry.get_metric("bleu")
    assert "sacrebleu" in str(info.value)
    assert isinstance(info.value, ResourceError)  # every CLI turns it into one line and exit 2


def test_the_network_simplex_needs_pot_not_the_whole_lp_extra(monkeypatch):
    """An `mt` install (POT, no PuLP) runs the network simplex; without POT the error names `lp`."""
    from evalcore.matching import transport

    transport._emd_wrap.cache_clear()
    _without(monkeypatch, "pulp")
    assert transport._emd_wrap() is not None
    transport._emd_wrap.cache_clear()
    _without(monkeypatch, "ot", "pulp")
    with pytest.raises(extras.MissingExtraError, match=r"missing: ot\): pip install 'aesop-eval\[lp\]'"):
        transport._emd_wrap()
    transport._emd_wrap.cache_clear()


def test_listing_marks_uninstalled_metrics_and_imports_none(monkeypatch):
    _without(monkeypatch, "spacy")
    text = registry.list_metrics()
    rows = {line.split()[0]: line for line in text.splitlines()}
    assert "not installed: pip install 'aesop-eval[coherence]'" in rows["dicomer"]
    assert "not installed" not in rows["tesla-s"] and "not installed" not in rows["rouge-2"]


def test_every_metric_names_a_known_extra():
    for name, spec in registry.registered().items():
        assert spec.extra == "" or spec.extra in extras.EXTRAS, name


def test_base_metrics_need_no_extra():
    specs = registry.registered()
    assert {specs[n].extra for n in ("tesla-s", "rouge-1", "rouge-2", "rouge-l", "rouge-su4")} == {""}


def _fake_family(monkeypatch, tmp_path: Path, debian: tuple[str, ...] = ()) -> Path:
    """A family of one step that appends a line to a file each time it builds."""
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    target = tmp_path / "built.txt"

    def build(progress) -> Path:
        with target.open("a") as fh:
            fh.write("built\n")
        return target

    step = system_resources.Step("fake", debian, build, target.is_file)
    monkeypatch.setattr(system_resources, "family_steps", lambda family: [step])
    return target


def test_ensure_names_missing_debian_packages_and_the_setup_command(monkeypatch, tmp_path):
    target = _fake_family(monkeypatch, tmp_path, debian=("no-such-package-aesop",))
    monkeypatch.setattr(system_resources, "missing_debian", lambda pkgs: list(pkgs))
    with pytest.raises(ResourceError) as info:
        system_resources.ensure("pem")
    message = str(info.value)
    assert "apt-get install no-such-package-aesop" in message and "aesop-eval setup pem" in message
    assert not target.exists()


def test_ensure_builds_once_and_skips_what_is_built(monkeypatch, tmp_path):
    target = _fake_family(monkeypatch, tmp_path)
    system_resources.ensure("pem")
    system_resources.ensure("pem")
    assert target.read_text() == "built\n"


def test_setup_says_it_checks_what_is_built(monkeypatch, tmp_path, capsys):
    _fake_family(monkeypatch, tmp_path)
    system_resources.ensure("pem", verify=True)
    assert "building fake" in capsys.readouterr().err
    system_resources.ensure("pem", verify=True)
    err = capsys.readouterr().err
    assert "checking fake" in err and "building" not in err


def _locked_build(cache: str, target: str, barrier) -> None:
    import os
    import time

    os.environ["AESOP_CACHE"] = cache
    path = Path(target)

    def build(progress) -> Path:
        time.sleep(0.3)  # long enough for the other process to wait on the lock
        with path.open("a") as fh:
            fh.write("built\n")
        return path

    system_resources.family_steps = lambda family: [system_resources.Step("fake", (), build, path.is_file)]
    barrier.wait()
    system_resources.ensure("pem")


def test_two_first_uses_at_once_build_once(tmp_path):
    target = tmp_path / "built.txt"
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(2)
    procs = [ctx.Process(target=_locked_build, args=(str(tmp_path / "cache"), str(target), barrier)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
    assert [p.exitcode for p in procs] == [0, 0]
    assert target.read_text() == "built\n"


def test_setup_command_rejects_an_unknown_family(capsys):
    from evalcore.cli.aesop import main

    assert main(["setup", "nonsense"]) == 2
    assert "unknown family" in capsys.readouterr().err


def test_setup_status_lists_every_step(capsys, monkeypatch, tmp_path):
    from evalcore.cli.aesop import main

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path))
    assert main(["setup", "--status", "mt"]) == 0
    out = capsys.readouterr().out
    assert {line.split()[1] for line in out.splitlines()} == set(system_resources.FAMILIES["mt"])


PACKAGES = ("evalcore", "summeval", "coherence", "parapeval", "mteval")


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring nodes of a module and its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def test_messages_name_commands_an_installed_wheel_has():
    """An installed wheel has no Makefile and no scripts/: messages and help name `aesop-eval
    setup FAMILY` and the pip extra instead."""
    root = Path(__file__).resolve().parents[2]
    offenders = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            skip = _docstrings(tree)
            for node in ast.walk(tree):
                if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
                        and ("make setup" in node.value or "setup_resources.sh" in node.value)):
                    offenders.append(f"{path.relative_to(root)}:{node.lineno}")
    assert offenders == []


def test_missing_default_resources_name_the_setup_command(monkeypatch, tmp_path):
    from evalcore.bpng.store import PhraseTableStore
    from evalcore.resources import lm

    with pytest.raises(ResourceError, match="`aesop-eval setup pem`"):
        PhraseTableStore(tmp_path / "fr.sqlite")
    with pytest.raises(ResourceError, match="`aesop-eval setup pem`"):
        lm.KenLM(tmp_path / "default.klm")
    monkeypatch.delenv(lm.LMPLZ_ENV, raising=False)
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ResourceError, match="`aesop-eval setup pem`"):
        lm.find_lmplz()


def test_all_scores_every_installed_metric_and_names_the_skipped_ones(monkeypatch, capsys, tmp_path):
    """The README's quick start (`summeval score -m all`) stopped on DICOMER in a base install;
    a metric named on its own still needs its extra."""
    import json

    from summeval.cli import main

    _without(monkeypatch, "spacy")
    demo = Path(__file__).resolve().parents[2] / "data" / "demo"
    out = tmp_path / "scores.json"
    assert main(["score", "--models", str(demo / "models"), "--peers", str(demo / "peers"), "-m", "all",
                 "--format", "json", "-o", str(out)]) == 0
    assert capsys.readouterr().err.splitlines()[0] == (
        "summeval: -m all: skipping dicomer, readability, cremer, cremer-lf, cremer-rbf, cremer-pf "
        "(not installed: pip install 'aesop-eval[coherence]')")
    scored = json.loads(out.read_text())["summaries"]
    assert len(scored) == 12 and all(set(s["scores"]) == {"tesla-s", "rouge-1", "rouge-2", "rouge-l", "rouge-su4"}
                                     for s in scored)
    assert main(["score", "--models", str(demo / "models"), "--peers", str(demo / "peers"), "-m", "all",
                 "-m", "dicomer"]) == 2
    assert "metric 'dicomer' needs the optional dependencies of 'coherence'" in capsys.readouterr().err


def test_the_lp_matchers_network_simplex_without_pot_names_the_lp_extra(monkeypatch):
    """POT is the ``lp`` extra: a general LP (no closed form) without it is an error naming the
    install, while closed forms (TESLA-S's exact match) need no extra."""
    from evalcore.matching import match, transport

    _without(monkeypatch, "ot")
    transport._emd_wrap.cache_clear()
    general = np.array([[0.5, 0.2], [0.3, 0.9]])
    with pytest.raises(extras.MissingExtraError, match=r"network simplex needs .*\(missing: ot\): "
                                                      r"pip install 'aesop-eval\[lp\]'"):
        match([1.0, 2.0], [2.0, 1.0], general)
    assert match([1.0, 2.0], [2.0, 1.0], np.eye(2)) == 2.0  # vertex-disjoint edges: a closed form


def test_the_reference_matcher_without_pulp_names_the_lp_extra(monkeypatch):
    from evalcore.matching import CoveredProblem, match
    from evalcore.matching.covered import solve_covered_pulp

    _without(monkeypatch, "pulp")
    with pytest.raises(extras.MissingExtraError, match=r"reference matcher \(PuLP\) needs .*\(missing: pulp\)"):
        match([1.0], [1.0], np.ones((1, 1)), method="pulp")
    problem = CoveredProblem.from_links(2, 2, [((0, 1), (0, 1))])
    with pytest.raises(extras.MissingExtraError, match=r"pip install 'aesop-eval\[lp\]'"):
        solve_covered_pulp(problem)


@pytest.mark.parametrize("prog, args, extra", [
    ("summeval", ["train", "cremer"], "coherence"),
    ("coherence", ["train", "dicomer"], "coherence"),
    ("coherence", ["train", "parser"], "coherence"),
    ("parapeval", ["train"], "pem"),
])
def test_training_without_scikit_learn_names_the_extra(monkeypatch, capsys, tmp_path, prog, args, extra):
    """scikit-learn comes with the learned metrics' extras: a training command in the base install
    says which one, in one line, before reading any data."""
    main = importlib.import_module(f"{prog}.cli").main
    _without(monkeypatch, "sklearn")
    assert main([*args, "--out", str(tmp_path / "model")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert f"(missing: sklearn): pip install 'aesop-eval[{extra}]'" in err


def test_coherence_help_needs_no_extra():
    """The command line lists DICOMER's training modes without importing scikit-learn."""
    code = ("import sys; sys.modules['sklearn'] = None\n"
            "from coherence.cli import main\n"
            "sys.exit(main(['train', 'dicomer', '--help']))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "gdtb-permutation" in proc.stdout


def test_report_plots_without_matplotlib_stop_before_scoring(monkeypatch, tmp_path, capsys):
    """matplotlib is the ``report`` extra: ``--report`` with ``--human`` (the plots) says so in one
    line and exit 2 before any metric runs; the report without plots needs no extra."""
    from summeval.cli import main

    _without(monkeypatch, "matplotlib")
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"topic": "d1", "system": "s1", "summary": "The cat sat on the mat.",
                                 "references": ["A cat was sitting on the mat."]}) + "\n", "utf-8")
    human = tmp_path / "human.jsonl"
    human.write_text(json.dumps({"topic": "d1", "system": "s1", "overall": 3.0}) + "\n", "utf-8")
    args = ["score", "-i", str(pairs), "-m", "tesla-s", "--format", "json"]
    code = main([*args, "--report", str(tmp_path / "plotted"), "--human", str(human)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("summeval: error: the report's plots against --human needs") \
        and "(missing: matplotlib): pip install 'aesop-eval[report]'" in err
    assert not (tmp_path / "plotted").exists()
    assert main([*args, "--report", str(tmp_path / "plain")]) == 0
    assert (tmp_path / "plain" / "report.html").is_file()
