"""Every command follows one CLI skeleton (evalcore.cli.convention): ``--version`` and ``--list-metrics``;
``-m`` checked against the registry (an unknown name or a missing pip extra is one line and exit 2
before any metric is built); ``-o`` checked before any scoring; ``--format json`` parses; every
subcommand is dispatched through the handler :func:`evalcore.cli.convention.command` sets."""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path

import pytest

from evalcore import __version__
from evalcore.metric.registry import registered

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "data" / "demo" / "mt"
#: prog -> (module, package whose metrics it offers, a cheap metric, a metric that needs an extra)
CLIS = {"summeval": ("summeval.cli", "summeval", "rouge-2", "cremer"),
        "coherence": ("coherence.cli", "coherence", "dicomer", "dicomer"),
        "parapeval": ("parapeval.cli", "parapeval", "pem", "pem"),
        "mteval": ("mteval.cli", "mteval", "bleu", "bleu")}
ALL_PROGS = {**{prog: spec[0] for prog, spec in CLIS.items()}, "aesop-eval": "evalcore.cli.aesop"}


def _score_args(prog: str, tmp: Path) -> list[str]:
    """``PROG score`` with a small valid input."""
    if prog == "summeval":
        path = tmp / "pairs.jsonl"
        path.write_text(json.dumps({"topic": "d1", "system": "s1", "summary": "The cat sat on the mat.",
                                    "references": ["A cat was sitting on the mat."]}) + "\n", "utf-8")
        return ["score", "-i", str(path)]
    if prog == "coherence":
        path = tmp / "text.txt"
        path.write_text("The cat sat on the mat. Then it slept, because it was tired.\n", "utf-8")
        return ["score", str(path)]
    if prog == "parapeval":
        path = tmp / "pairs.tsv"
        path.write_text("original\tparaphrase\nThe cat sat on the mat .\tA cat was sitting on the mat .\n", "utf-8")
        return ["score", "-i", str(path)]
    return ["score", "-r", str(DEMO / "ref.A.en"), "-i", str(DEMO / "system-a.en")]


def _main(prog: str):
    return importlib.import_module(ALL_PROGS[prog]).main


@pytest.fixture
def no_metric_is_built(monkeypatch):
    """Fail the test if any metric is built: the check under test must come first."""
    from evalcore.metric import registry

    def refuse(name, **params):
        raise AssertionError(f"metric {name} was built before the usage error")

    monkeypatch.setattr(registry, "get_metric", refuse)


@pytest.mark.parametrize("prog", ALL_PROGS)
def test_version(prog, capsys):
    with pytest.raises(SystemExit) as exit_:
        _main(prog)(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out == f"{prog} {__version__}\n"


@pytest.mark.parametrize("prog", CLIS)
@pytest.mark.parametrize("where", [[], ["score"]])
def test_list_metrics_at_the_top_and_on_score(prog, where, capsys):
    """On the old main only ``parapeval score`` answered ``--list-metrics`` after the subcommand."""
    with pytest.raises(SystemExit) as exit_:
        _main(prog)([*where, "--list-metrics"])
    listed = {line.split()[0] for line in capsys.readouterr().out.splitlines()}
    assert exit_.value.code == 0 and set(registered(CLIS[prog][1])) <= listed


@pytest.mark.parametrize("prog", CLIS)
def test_an_unknown_metric_is_one_line_and_exit_2_before_any_metric_is_built(prog, tmp_path, capsys,
                                                                               no_metric_is_built):
    cheap = CLIS[prog][2]
    code = _main(prog)([*_score_args(prog, tmp_path), "-m", cheap, "-m", "no-such-metric"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith(f"{prog}: error: unknown metric 'no-such-metric'; {CLIS[prog][1]} offers: ")
    assert err.count("\n") == 1 and cheap in err


@pytest.mark.parametrize("prog", CLIS)
def test_a_missing_extra_is_one_line_naming_the_install_and_exit_2(prog, tmp_path, capsys, monkeypatch,
                                                                    no_metric_is_built):
    from evalcore import extras
    from evalcore.metric.registry import spec

    needing = CLIS[prog][3]
    extra = spec(needing).extra
    monkeypatch.setitem(extras.EXTRAS, extra, ("aesop_no_such_module",))
    code = _main(prog)([*_score_args(prog, tmp_path), "-m", needing])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"{prog}: error: metric '{needing}' needs") and f"pip install 'aesop-eval[{extra}]'" in err


@pytest.mark.parametrize("prog", CLIS)
def test_an_unwritable_output_is_exit_2_before_any_metric_is_built(prog, tmp_path, capsys, no_metric_is_built):
    target = tmp_path / "no-such-folder" / "out.json"
    code = _main(prog)([*_score_args(prog, tmp_path), "-m", CLIS[prog][2], "-o", str(target)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"{prog}: error: --output {target}: folder") and not target.parent.exists()


@pytest.mark.parametrize("prog", CLIS)
def test_format_json_parses_and_jsonl_is_json_lines(prog, tmp_path, capsys):
    """One scoring run per command with a cheap metric (a built default resource is needed)."""
    argv = [*_score_args(prog, tmp_path), "-m", CLIS[prog][2]]
    code = _main(prog)([*argv, "--format", "json"])
    out, err = capsys.readouterr()
    if code == 2 and any(s in err for s in ("aesop-eval setup", "parapeval setup", "not built")):
        pytest.skip(f"a default resource of {prog} is not built: {err.strip()}")
    assert code == 0, err
    assert CLIS[prog][2] in json.loads(out)["signature"]
    assert _main(prog)([*argv, "--format", "jsonl"]) == 0
    out, err = capsys.readouterr()
    assert out and all(isinstance(json.loads(line), dict) for line in out.splitlines())
    assert CLIS[prog][2] in err  # the signature goes to stderr, never among the rows


def _leaves(parser: argparse.ArgumentParser, path: str):
    """(command path, parser) of every subcommand that runs something."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
    for action in subs:
        for name, sub in action.choices.items():
            yield from _leaves(sub, f"{path} {name}")


def _all_leaves():
    for prog, module in ALL_PROGS.items():
        yield from _leaves(importlib.import_module(module).build_parser(), prog)


def test_every_subcommand_has_a_handler_and_the_shared_flags_come_together():
    """One dispatch style: every subcommand names its handler (evalcore.cli.convention.command); a command
    with ``-m`` lists its metrics, one with ``--format`` takes ``-o``; the scoring commands take
    ``--jobs``, ``--max-chars`` and ``--scheduler``."""
    leaves = dict(_all_leaves())
    assert len(leaves) >= 20
    for path, parser in leaves.items():
        flags = {s for a in parser._actions for s in a.option_strings}
        assert callable(parser.get_default("func")), f"{path}: no handler"
        if "--metric" in flags:
            assert "--list-metrics" in flags and "--max-chars" in flags, path
        if "--format" in flags:
            assert "--output" in flags, path
        if path.endswith(" score"):
            assert {"--metric", "--output", "--format", "--jobs", "--max-chars", "--scheduler"} <= flags, path


def test_a_cli_module_holds_no_metric_validator_of_its_own():
    """The four validators of ``-m`` are one (evalcore.cli.convention.metric_names)."""
    modules = [ROOT / f"{m.replace('.', '/')}.py" for m in ALL_PROGS.values()] + [ROOT / "coherence/dicomer/cli.py"]
    for path in modules:
        text = path.read_text("utf-8")
        assert "unknown metric" not in text and "registered(" not in text, path
