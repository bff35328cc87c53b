"""Old import paths of moved modules keep working for one release, each with a DeprecationWarning
naming the new path, and no code of the suite imports an old path (DICOMER's parser excepted: its
source is hashed into DICOMER's signature, so its imports move with its next change)."""

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("evalcore", "summeval", "coherence", "parapeval", "mteval")
SHIM = re.compile(r'^moved\(__name__, "([\w.]+)"\)$', re.M)
#: files that still import an old path, and why (see the module docstring)
KEPT = {"coherence/parser/document.py", "coherence/parser/lexicon.py", "coherence/parser/pipeline.py"}
#: packages that replaced a module of the same name -> the module now holding its names
FORMER_MODULES = {"evalcore.cli": "evalcore.cli.convention", "evalcore.resources": "evalcore.resources.registry",
                  "evalcore.text": "evalcore.text.preprocess"}


def _shims() -> dict[str, str]:
    """Old module name -> new module name, from every shim file of the suite."""
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            match = SHIM.search(path.read_text("utf-8"))
            if match:
                out[".".join(path.relative_to(ROOT).with_suffix("").parts)] = match.group(1)
    return out


SHIMS = _shims()


def test_there_are_shims_to_check():
    assert {"evalcore.textio", "evalcore.models", "evalcore.workers"} <= set(SHIMS)


_IMPORT_EACH = """
import importlib, json, sys, warnings
out = {}
for old in sys.argv[1:]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    out[old] = [module.__name__, [str(w.message) for w in caught if w.category is DeprecationWarning]]
print(json.dumps(out))
"""


def test_an_old_path_warns_and_is_the_new_module():
    """One fresh process imports every old path (each warns on its first import only)."""
    proc = subprocess.run([sys.executable, "-c", _IMPORT_EACH, *sorted(SHIMS)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    seen = json.loads(proc.stdout)
    for old, new in SHIMS.items():
        assert seen[old][0] == new, old
        assert f"{old} is deprecated; import {new}" in seen[old][1], (old, seen[old][1])


_FIRST_USE = """
import importlib, warnings
warnings.simplefilter("error")
package = importlib.import_module("{package}")
try:
    getattr(package, "{name}")
except DeprecationWarning as w:
    print(w)
warnings.simplefilter("ignore")
assert getattr(package, "{name}") is getattr(importlib.import_module("{new}"), "{name}")
print(hasattr(package, "no_such_name"))
"""


@pytest.mark.parametrize(("package", "name"), [("evalcore.cli", "guarded"), ("evalcore.text", "Preprocessor"),
                                             ("evalcore.resources", "cache_dir")])
def test_a_name_of_a_module_that_became_a_package_warns(package, name):
    """Each name warns on its first use (a fresh process: another test may have used it)."""
    code = _FIRST_USE.format(package=package, name=name, new=FORMER_MODULES[package])
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[:2] == [f"{package}.{name} is deprecated; import it from {FORMER_MODULES[package]}",
                                           "False"]


def test_no_code_of_the_suite_imports_an_old_path():
    bad = []
    for folder in (*PACKAGES, "benchmarks", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = str(path.relative_to(ROOT))
            if rel in KEPT or SHIM.search(path.read_text("utf-8")):
                continue
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                else:
                    continue
                bad += [f"{rel}:{node.lineno} {n}" for n in names if n in SHIMS or _former_name(n)]
    assert bad == []


def _former_name(dotted: str) -> bool:
    """Whether ``dotted`` is a name a former module held, imported from the package that replaced it."""
    package, _, name = dotted.rpartition(".")
    return package in FORMER_MODULES and not (ROOT / package.replace(".", "/") / name).exists() \
        and not (ROOT / package.replace(".", "/") / f"{name}.py").exists()
