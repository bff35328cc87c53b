"""The documentation's examples run as written: every Python snippet of the README and the guides
that needs only the base install runs, and prints the signatures its comments show; the commands
getting-started says `make demo` runs are the Makefile's."""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path

import pytest

from evalcore.metric.registry import spec

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("README.md", "docs/getting-started.md", *sorted(p.relative_to(ROOT).as_posix()
                                                          for p in (ROOT / "docs" / "guide").glob("*.md")),
         "docs/metrics/pem.md")
PACKAGES = ("evalcore", "summeval", "coherence", "parapeval", "mteval")
#: what the snippets call `refs` and `candidate`: the reader's own texts
PLACEHOLDERS = 'refs, candidate = ["The council approved the budget."], "The budget was approved."\n'
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def _blocks(lang: str) -> list[tuple[str, str]]:
    """(page:line, code) of every fenced block in ``lang`` on the checked pages."""
    found = []
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m.group(1) == lang:
                found.append((f"{page}:{text.count(chr(10), 0, m.start()) + 1}", m.group(2)))
    return found


def _needs_only_base(code: str) -> bool:
    """Whether a snippet imports only the suite's packages (no Dask) and names only metrics
    without a pip extra."""
    for node in ast.walk(ast.parse(code)):
        modules = ([a.name for a in node.names] if isinstance(node, ast.Import)
                   else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        if any(m.split(".")[0] not in PACKAGES or "distributed" in m for m in modules):
            return False
        if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "get_metric"
                and node.args and spec(node.args[0].value).extra):
            return False
    return True


def _expected_outputs(code: str) -> list[re.Pattern]:
    """``print(...)  # a|signature|...`` comments: what the line prints (``...`` elides)."""
    shown = [line.split("#", 1)[1].strip() for line in code.splitlines()
             if line.lstrip().startswith("print(") and "#" in line]
    return [re.compile(".*".join(map(re.escape, s.split("...")))) for s in shown if "|" in s]


BASE = [(where, code) for where, code in _blocks("python") if _needs_only_base(code)]


def test_the_readme_and_guides_have_base_snippets():
    assert {w.split(":")[0] for w, _ in BASE} >= {"README.md", "docs/guide/summaries.md"}


@pytest.mark.parametrize("where, code", BASE, ids=[w for w, _ in BASE])
def test_base_snippet_runs_and_prints_what_its_comments_show(where, code):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile((PLACEHOLDERS if "(refs, candidate)" in code else "") + code, where, "exec"), {})
    lines = out.getvalue().splitlines()
    for expected in _expected_outputs(code):
        assert any(expected.fullmatch(line) for line in lines), (where, expected.pattern, lines)


def test_expected_output_reader_sees_a_signature_comment():
    (pattern,) = _expected_outputs("print(m.signature())   # bleu|tok:13a|...|v:0.2.0\n")
    assert pattern.fullmatch("bleu|tok:13a|lc:no|v:0.2.0") and not pattern.fullmatch("bleu|tok:intl|v:0.2.0")


def _commands(text: str) -> list[str]:
    """Shell lines with continuations joined and spaces collapsed."""
    return [" ".join(line.split()) for line in text.replace("\\\n", " ").splitlines() if line.strip()]


def test_getting_started_shows_the_commands_make_demo_runs():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^demo:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    make_demo = _commands(recipe.replace("$(BIN)/", ".venv/bin/"))
    page = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    shown = re.search(r"`make demo` runs these .*?```bash\n(.*?)```", page, re.S).group(1)
    assert _commands(shown) == make_demo
