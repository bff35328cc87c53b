"""The documentation's examples run as written: every Python snippet of the README and the guides
that needs only the base install runs, prints something, and prints the signatures its comments
show; the README's other snippets do so too where their extras are installed; the commands
getting-started says `make demo` runs are the Makefile's; every metric the README's table names
with `-m` is listed by `--list-metrics` of the command it names."""

from __future__ import annotations

import ast
import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from evalcore.metric.registry import spec

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("README.md", "docs/getting-started.md", *sorted(p.relative_to(ROOT).as_posix()
                                                          for p in (ROOT / "docs" / "guide").glob("*.md")),
         "docs/metrics/pem.md", "docs/languages.md")
PACKAGES = ("evalcore", "summeval", "coherence", "parapeval", "mteval")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _blocks(lang: str) -> list[tuple[str, str]]:
    """(page:line, code) of every fenced block in ``lang`` on the checked pages."""
    found = []
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m.group(1) == lang:
                found.append((f"{page}:{text.count(chr(10), 0, m.start()) + 1}", m.group(2)))
    return found


def _extras(code: str) -> set[str] | None:
    """The pip extras a snippet needs: those of the metrics it names by literal and of the
    imports outside the suite (Dask); None when it cannot be told (a metric named other than by
    a literal, a module of no extra)."""
    needed: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        modules = ([a.name for a in node.names] if isinstance(node, ast.Import)
                   else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        for module in modules:
            if "distributed" in module or module.split(".")[0] == "dask":  # summeval.distributed too
                needed.add("dask")
            elif module.split(".")[0] not in PACKAGES:
                return None
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "get_metric" \
                and node.args:
            name = node.args[0]
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                return None
            needed.add(spec(name.value).extra)
    return needed - {""}


def _needs_only_base(code: str) -> bool:
    """Whether a snippet imports only the suite's packages (no Dask) and names only metrics
    without a pip extra."""
    return _extras(code) == set()


def _expected_outputs(code: str) -> list[re.Pattern]:
    """``print(...)  # a|signature|...`` comments: what the line prints (``...`` elides)."""
    shown = [line.split("#", 1)[1].strip() for line in code.splitlines()
             if line.lstrip().startswith("print(") and "#" in line]
    return [re.compile(".*".join(map(re.escape, s.split("...")))) for s in shown if "|" in s]


BASE = [(where, code) for where, code in _blocks("python") if _needs_only_base(code)]
#: the README's snippets that need an extra, run where it is installed (a wheel user meets them first)
README_EXTRA = [(where, code) for where, code in _blocks("python")
                if where.startswith("README.md:") and not _needs_only_base(code)]


def test_the_readme_and_guides_have_base_snippets():
    assert {w.split(":")[0] for w, _ in BASE} >= {"README.md", "docs/guide/summaries.md"}


def _run_snippet(where: str, code: str) -> None:
    """Run ``code`` as written (no name defined for it) and check it prints what its comments show."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, where, "exec"), {})  # noqa: S102 - running the docs' own snippet is the test
    lines = out.getvalue().splitlines()
    assert lines, f"{where}: the snippet prints nothing"
    for expected in _expected_outputs(code):
        assert any(expected.fullmatch(line) for line in lines), (where, expected.pattern, lines)


@pytest.mark.parametrize("where, code", BASE, ids=[w for w, _ in BASE])
def test_base_snippet_runs_and_prints_what_its_comments_show(where, code):
    _run_snippet(where, code)


@pytest.mark.parametrize("where, code", README_EXTRA, ids=[w for w, _ in README_EXTRA])
def test_readme_snippet_with_an_extra_runs_where_it_is_installed(where, code):
    from evalcore.extras import is_installed

    needed = _extras(code)
    assert needed is not None, f"{where}: name the snippet's metrics by literal"
    missing = sorted(e for e in needed if not is_installed(e))
    if missing:
        pytest.skip(f"needs the extra(s) {', '.join(missing)}")
    _run_snippet(where, code)


def test_every_readme_snippet_is_run_by_one_of_the_tests():
    readme = [w for w, _ in _blocks("python") if w.startswith("README.md:")]
    assert len(readme) >= 4 and set(readme) == {w for w, _ in BASE + README_EXTRA if w.startswith("README.md:")}


def test_expected_output_reader_sees_a_signature_comment():
    (pattern,) = _expected_outputs("print(m.signature())   # bleu|tok:13a|...|v:0.2.0\n")
    assert pattern.fullmatch("bleu|tok:13a|lc:no|v:0.2.0") and not pattern.fullmatch("bleu|tok:intl|v:0.2.0")


def _commands(text: str) -> list[str]:
    """Shell lines with continuations joined and spaces collapsed."""
    return [" ".join(line.split()) for line in text.replace("\\\n", " ").splitlines() if line.strip()]


def test_getting_started_shows_the_commands_make_demo_runs():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    demo = re.search(r"^demo:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert demo is not None
    recipe = demo.group(1)
    make_demo = _commands(recipe.replace("$(BIN)/", ".venv/bin/"))
    page = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    block = re.search(r"`make demo` runs these .*?```bash\n(.*?)```", page, re.DOTALL)
    assert block is not None
    shown = block.group(1)
    assert _commands(shown) == make_demo


def _table_metrics(readme: str) -> dict[str, set[str]]:
    """command -> the metric names the README's metric table gives it with ``-m``: a backticked
    command and its ``-m`` names (``tesla-m/-b/-f`` is three), then ``-m NAME`` or bare names
    (``cremer-rbf``) that continue it in the same cell."""
    named: dict[str, set[str]] = {}
    for row in re.findall(r"^\|(.*)\|$", readme, re.MULTILINE):
        current = None
        for span in re.findall(r"`([^`]+)`", row.split("|")[-1]):
            words = span.split()
            if words[0] in PACKAGES:
                current = words[0] if "-m" in words else None
            elif words[0] != "-m" and len(words) > 1:  # another command (`python -m benchmarks srl`)
                current = None
            if current is None:
                continue
            for group in (w for w in (words[words.index("-m") + 1:] if "-m" in words else words) if w != "-m"):
                first, *rest = group.split("/")
                stem = first.rsplit("-", 1)[0]
                named.setdefault(current, set()).update([first, *(stem + r if r.startswith("-") else r for r in rest)])
    return named


def test_table_reader_expands_the_short_forms():
    row = ("| x | y | `summeval score -m cremer` (linear), `cremer-rbf`; `mteval -m tesla-m/-b`, `-m beer2`; "
           "`python -m benchmarks hmeant` |\n")
    assert _table_metrics(row) == {"summeval": {"cremer", "cremer-rbf"}, "mteval": {"tesla-m", "tesla-b", "beer2"}}


def test_every_metric_of_the_readme_table_is_listed_by_its_command():
    named = _table_metrics((ROOT / "README.md").read_text(encoding="utf-8"))
    assert sum(map(len, named.values())) >= 20, named
    for command, names in named.items():
        done = subprocess.run([sys.executable, "-m", f"{command}.cli", "--list-metrics"], cwd=ROOT,
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        listed = {line.split()[0] for line in done.stdout.splitlines() if line.strip()}
        assert names - listed == set(), command
