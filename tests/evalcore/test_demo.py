"""``aesop-eval demo``: the demo shipped inside the package is the checkout's demo, byte for byte, and
the command scores it (each part whose extra is installed; the others named with their install
command), also from a copy made with ``--out``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from evalcore import extras
from evalcore.cli.aesop import main
from evalcore.cli.demo import demo_folder

ROOT = Path(__file__).resolve().parents[2]
#: shipped demo file -> the checkout's file it copies
COPIES = {**{f"{d}/{p.name}": ROOT / "data" / "demo" / d / p.name
             for d in ("models", "peers") for p in (ROOT / "data" / "demo" / d).iterdir()},
          **{f"mt/{n}": ROOT / "data" / "demo" / "mt" / n
             for n in ("ref.A.en", "ref.B.en", "system-a.en", "system-b.en", "src.fr")},
          "pairs.tsv": ROOT / "data" / "parapeval" / "demo_pairs.tsv"}


def test_the_shipped_demo_is_the_checkouts_demo():
    shipped = {p.relative_to(demo_folder()).as_posix() for p in demo_folder().rglob("*") if p.is_file()}
    assert shipped == set(COPIES)
    assert [name for name, source in COPIES.items() if (demo_folder() / name).read_bytes() != source.read_bytes()] == []


def test_demo_scores_what_is_installed_and_names_the_rest(tmp_path, monkeypatch, capfd):
    """A wheel user had no data/demo for the quick start."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the commands run in processes of their own, on this checkout
    real = importlib.util.find_spec
    monkeypatch.setattr(extras.importlib.util, "find_spec",
                        lambda name, *a: None if name == "sacrebleu" else real(name, *a))
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out)]) == 0
    stdout, stderr = capfd.readouterr()
    assert (out / "models" / "D0001-A.M.100.A.A").read_bytes() == COPIES["models/D0001-A.M.100.A.A"].read_bytes()
    assert f"$ summeval score --models {out}/models --peers {out}/peers -m all" in stderr
    assert "aesop-eval demo: skipping translations (not installed: pip install 'aesop-eval[mt]')" in stderr
    assert "| D0003-A | 4      |" in stdout and "tesla-s|ngrams:1+sb4|" in stdout
    assert main(["demo", "--out", str(out)]) == 2  # not into a folder that holds files
    assert "--out " + str(out) + ": the folder is not empty" in capfd.readouterr().err


def test_an_unknown_part_is_one_line_and_exit_2(capsys):
    assert main(["demo", "poems"]) == 2
    assert capsys.readouterr().err == ("aesop-eval: error: unknown demo part 'poems'; choose from summaries, "
                                       "translations, paraphrases\n")


def test_a_part_named_runs_alone(monkeypatch, capfd):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    assert main(["demo", "translations"]) == 0
    stdout, stderr = capfd.readouterr()
    assert "$ mteval score -r " in stderr and "summeval" not in stderr
    assert "| system-a.en |" in stdout
