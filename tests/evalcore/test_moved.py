"""Old import paths of moved modules keep working for one release, each with a DeprecationWarning
naming the new path, and no code of the suite imports an old path (DICOMER's parser excepted: its
source is hashed into DICOMER's signature, so its imports move with its next change)."""

import ast
import importlib
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("evalcore", "summeval", "coherence", "parapeval", "mteval")
SHIM = re.compile(r'^moved\(__name__, "([\w.]+)"\)$', re.M)
#: files that still import an old path, and why (see the module docstring)
KEPT = {"coherence/parser/pipeline.py"}


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


@pytest.mark.parametrize("old", sorted(SHIMS))
def test_an_old_path_warns_and_is_the_new_module(old):
    code = (f"import warnings\nwarnings.simplefilter('error')\n"
            f"try:\n    import {old}\nexcept DeprecationWarning as w:\n    print(w)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == f"{old} is deprecated; import {SHIMS[old]}", proc.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert importlib.import_module(old) is importlib.import_module(SHIMS[old])


def test_a_name_of_a_module_that_became_a_package_warns():
    with pytest.warns(DeprecationWarning, match="evalcore.cli.guarded is deprecated; import it from "
                                                "evalcore.cli.convention"):
        from evalcore.cli import guarded
    from evalcore.cli.convention import guarded as new

    assert guarded is new
    with pytest.raises(AttributeError):
        import evalcore.cli

        evalcore.cli.no_such_name  # noqa: B018


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
                bad += [f"{rel}:{node.lineno} {n}" for n in names if n in SHIMS]
    assert bad == []
