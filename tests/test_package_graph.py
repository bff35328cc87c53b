"""The package graph stays acyclic: evalcore <- coherence <- summeval, evalcore <- parapeval,
evalcore <- mteval; inside a package no two modules import each other (directly or round a
longer loop); a metric family imports its own modules, its package's shared modules (data,
learn, lexical, ...) and evalcore, never another family (but for a composite metric's declared
parts); shared modules import no family. Every family has the same roles: ``metric.py`` holds its
registered metrics, and scoring never imports training or command-line code. Every import
statement (top-level or inside a function) is checked."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# package -> the suite packages it may import (besides itself)
ALLOWED = {
    "evalcore": set(),
    "coherence": {"evalcore"},
    "summeval": {"evalcore", "coherence"},
    "parapeval": {"evalcore"},
    "mteval": {"evalcore"},
}
#: package -> the modules every family may build on; they import no family and no front end
SHARED = {
    "mteval": {"data", "learn", "lexical", "metaeval", "baselines", "io", "registry", "srl", "zh_words"},
    "coherence": {"relations", "formats", "corpora", "gold", "heap", "adapters", "parser", "inputs", "registry",
                  "sentences"},
    "summeval": {"multiref", "registry"},
    "parapeval": {"data", "io", "registry"},
}
#: package -> subpackages that re-export families for users (``summeval.metrics``): neither family nor shared
FRONT_ENDS = {"summeval": {"metrics"}}
#: a composite metric's family -> the families it is built from (CREMER regresses over TESLA-S;
#: readability reads DICOMER's value and parses)
COMPOSITES = {("summeval", "cremer"): {"tesla_s"}, ("coherence", "readability"): {"dicomer"}}
#: module names of a family that hold training or command-line code: scoring never imports them
NOT_SCORING = ("train", "cli", "cv_report")


def _families(package: str, root: Path = ROOT) -> set[str]:
    """The metric families of ``package``: its subpackages that are not shared modules."""
    return ({p.name for p in (root / package).iterdir() if (p / "__init__.py").is_file()} - SHARED[package]
            - FRONT_ENDS.get(package, set()))


#: package -> its metric families; each may import only itself and SHARED[package]
FAMILIES = {package: _families(package) for package in SHARED}


def _imports(path: Path):
    tree = ast.parse(path.read_text("utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def _violations(package: str, root: Path = ROOT) -> list[str]:
    bad = []
    for path in sorted((root / package).rglob("*.py")):
        for line, name in _imports(path):
            top = name.split(".")[0]
            if top in ALLOWED and top != package and top not in ALLOWED[package]:
                bad.append(f"{path.relative_to(root)}:{line} imports {top}")
    return bad


def _module(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _module_graph(package: str, root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports (``from a import b`` counts a.b when b is a module)."""
    modules = {_module(p, root): p for p in (root / package).rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for _, target in _imports(path):
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import loop of ``graph`` (its modules in order), or [] when there is none."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


#: package -> modules of its subpackages that form a layer of their own, below the rest of their
#: subpackage: evalcore.resources.registry (the resource error and cache folders every part uses) lies
#: under evalcore.text, while evalcore.resources.lm and .phrase_table build on evalcore.text
OWN_LAYER = {"evalcore": {"resources.registry"}}


def _unit_of(package: str, parts: list[str]) -> str:
    """The unit (top-level module, subpackage or :data:`OWN_LAYER` module) that a dotted name below
    ``package`` (without the package) falls in."""
    dotted = ".".join(parts)
    for layer in OWN_LAYER.get(package, ()):
        if dotted == layer or dotted.startswith(layer + "."):
            return layer
    return parts[0]


def _unit_imports(package: str, unit: str, root: Path = ROOT) -> dict[str, list[str]]:
    """Other top-level modules/subpackages of ``package`` that ``unit`` imports -> where."""
    where: dict[str, list[str]] = {}
    base = root / package / unit.replace(".", "/")
    paths = sorted(base.rglob("*.py")) if base.is_dir() else [base.with_suffix(".py")]
    for path in paths:
        if _unit_of(package, list(path.relative_to(root / package).with_suffix("").parts)) != unit:
            continue
        for line, name in _imports(path):
            parts = name.split(".")
            if parts[0] == package and len(parts) > 1 and (target := _unit_of(package, parts[1:])) != unit:
                where.setdefault(target, []).append(f"{path.relative_to(root)}:{line}")
    return where


@pytest.mark.parametrize("package", [p for p in ALLOWED if (ROOT / p).is_dir()],
                         ids=lambda p: f"{p} imports only {', '.join(sorted(ALLOWED[p])) or 'itself'}")
def test_no_import_against_the_package_order(package):
    assert _violations(package) == []


@pytest.mark.parametrize("package", list(ALLOWED), ids=lambda p: f"{p} modules import no loop")
def test_no_import_cycle_inside_a_package(package):
    assert _cycle(_module_graph(package)) == []


def _unit_graph(package: str, root: Path = ROOT) -> dict[str, set[str]]:
    """Top-level module or subpackage of ``package`` -> the others it imports."""
    units = {p.stem if p.is_file() else p.name for p in (root / package).iterdir()
             if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()}
    units |= {layer for layer in OWN_LAYER.get(package, ())
              if (root / package / f"{layer.replace('.', '/')}.py").is_file()}
    return {u: set(_unit_imports(package, u, root)) & units for u in units}


#: packages whose top-level parts (modules, subpackages) import no loop: all of them (in evalcore,
#: the metric contract imports the scheduler plumbing of ``distributed``, never the reverse)
PARTS_ACYCLIC = tuple(ALLOWED)


@pytest.mark.parametrize("package", PARTS_ACYCLIC, ids=lambda p: f"{p} subpackages and modules import no loop")
def test_no_import_cycle_between_the_parts_of_a_package(package):
    assert _cycle(_unit_graph(package)) == []


FAMILY_RULES = [(p, f) for p, fams in FAMILIES.items() for f in sorted(fams)]


@pytest.mark.parametrize("package,family", FAMILY_RULES,
                         ids=[f"{p}.{f} imports only {f}, shared modules, evalcore" for p, f in FAMILY_RULES])
def test_a_family_imports_no_other_family(package, family):
    allowed = SHARED[package] | COMPOSITES.get((package, family), set())
    bad = {unit: where for unit, where in _unit_imports(package, family).items() if unit not in allowed}
    assert bad == {}


@pytest.mark.parametrize("package,family", FAMILY_RULES,
                         ids=[f"{p}.{f} has metric.py; scoring imports no training or CLI" for p, f in FAMILY_RULES])
def test_a_family_has_the_roles_and_its_scoring_imports_no_training(package, family):
    graph = _module_graph(package)
    scoring = f"{package}.{family}.metric"
    assert scoring in graph, f"{package}/{family}/ has no metric.py"
    reached: set[str] = set()
    todo = [scoring]
    while todo:
        for nxt in graph[todo.pop()] - reached:
            reached.add(nxt)
            todo.append(nxt)
    assert sorted(m for m in reached if m.rpartition(".")[2] in NOT_SCORING or m == f"{package}.cli") == []


def test_every_registered_metric_lives_in_its_family_metric_module():
    from evalcore.metric.registry import registered, spec

    for name in registered():
        target = spec(name).target.partition(":")[0]
        package, family, *module = target.split(".")
        if package in FAMILIES:
            assert family in FAMILIES[package] | {"baselines"} and module == ["metric"], (name, target)


def test_the_roles_checker_sees_scoring_that_imports_training(tmp_path):
    pkg = tmp_path / "mteval"
    (pkg / "toy").mkdir(parents=True)
    (pkg / "toy" / "__init__.py").write_text("")
    (pkg / "toy" / "metric.py").write_text("from mteval.toy.features import f\n")
    (pkg / "toy" / "features.py").write_text("def f():\n    from mteval.toy.train import fit\n")
    (pkg / "toy" / "train.py").write_text("")
    graph = _module_graph("mteval", tmp_path)
    assert graph["mteval.toy.metric"] == {"mteval.toy.features"}
    assert graph["mteval.toy.features"] == {"mteval.toy.train"}


SHARED_RULES = [(p, s) for p, shared in SHARED.items() for s in sorted(shared)]


@pytest.mark.parametrize("package,shared", SHARED_RULES,
                         ids=[f"{p}.{s} imports only shared modules and evalcore" for p, s in SHARED_RULES])
def test_shared_modules_import_no_family_and_no_front_end(package, shared):
    bad = {unit: where for unit, where in _unit_imports(package, shared).items() if unit not in SHARED[package]}
    assert bad == {}


def test_a_new_subpackage_is_a_family_without_being_listed(tmp_path):
    for part in ("toy", "learn"):
        (tmp_path / "mteval" / part).mkdir(parents=True)
        (tmp_path / "mteval" / part / "__init__.py").write_text("")
    assert _families("mteval", tmp_path) == {"toy"}


def test_the_checker_sees_a_violation(tmp_path):
    pkg = tmp_path / "evalcore"
    pkg.mkdir()
    (pkg / "x.py").write_text("def f():\n    from summeval.metrics import get_metric\n")
    assert _violations("evalcore", tmp_path) == ["evalcore/x.py:2 imports summeval"]


def test_the_checker_sees_a_cycle_inside_a_package(tmp_path):
    pkg = tmp_path / "mteval"
    for part in ("tesla", "learn"):
        (pkg / part).mkdir(parents=True)
        (pkg / part / "__init__.py").write_text("")
    (pkg / "tesla" / "train.py").write_text("from mteval.learn import pairwise\n")
    (pkg / "learn" / "pairwise.py").write_text("def f():\n    from mteval.tesla.train import fit\n")
    assert _cycle(_module_graph("mteval", tmp_path)) == ["mteval.learn.pairwise", "mteval.tesla.train",
                                                          "mteval.learn.pairwise"]
    assert _unit_imports("mteval", "learn", tmp_path) == {"tesla": ["mteval/learn/pairwise.py:2"]}
    assert _cycle(_unit_graph("mteval", tmp_path)) == ["learn", "tesla", "learn"]
