"""`aesop-eval setup --status` checks what it reports (issue 38, item 16): a truncated phrase table,
a truncated LM or an emptied manifest is "damaged: why", never "built"."""

from __future__ import annotations

import shutil

import pytest

from evalcore.bpng import write_store
from evalcore.resources.artifacts import CATALOG_WHEELS
from evalcore.resources.defaults import DEFAULT_PIVOTS, lm_path, phrase_table_path
from evalcore.resources.inputs import manifest, manifest_path, write_manifest
from evalcore.resources.lm import train_lm
from evalcore.resources.system import status

TEXT = ["the cat sleeps on the mat .", "the dog sleeps on the rug .", "a cat eats fish ."] * 5


@pytest.fixture(scope="module")
def toy_lm(tmp_path_factory):
    return train_lm(TEXT, tmp_path_factory.mktemp("lm") / "toy.klm")


@pytest.fixture
def cache(tmp_path, monkeypatch, toy_lm):
    """A cache whose default phrase tables and Brown LM are built (tiny, with sound manifests naming
    the pinned wheels)."""
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path))
    for pivot in DEFAULT_PIVOTS:
        path = phrase_table_path(pivot)
        path.parent.mkdir(parents=True, exist_ok=True)
        rows = [(("cat",), 3, [(("chat",), 3)]), (("the",), 9, [(("le",), 9)])]
        write_store(path, rows, {"signature": f"pt:{pivot}"})
        write_manifest(path, manifest([art.record() for art in CATALOG_WHEELS], bitext=f"toy-{pivot}"))
    lm_path().parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(toy_lm, lm_path())
    write_manifest(lm_path(), manifest([], lm="toy"))
    return tmp_path


def _cut(path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])


def test_sound_resources_are_built(cache):
    states = status("pem")
    assert states["phrase-tables"] == "built" and states["brown-lm"] == "built"


@pytest.mark.parametrize("damage, step, why", [
    (lambda: _cut(phrase_table_path(DEFAULT_PIVOTS[0])), "phrase-tables", f"{DEFAULT_PIVOTS[0]}.sqlite"),
    (lambda: _cut(lm_path()), "brown-lm", "cannot be loaded"),
    (lambda: manifest_path(lm_path()).write_text(""), "brown-lm", "manifest"),
    (lambda: manifest_path(phrase_table_path(DEFAULT_PIVOTS[-1])).write_text("{}"), "phrase-tables", "manifest"),
])
def test_status_reads_what_it_reports(cache, damage, step, why):
    damage()
    state = status("pem")[step]
    assert state.startswith("damaged: ") and why in state  # before: "built"


def test_an_emptied_manifest_makes_setup_rebuild_the_table(cache):
    from evalcore.resources.defaults import _table_problem

    path = phrase_table_path(DEFAULT_PIVOTS[0])
    assert _table_problem(path) is None
    manifest_path(path).write_text("")
    assert "its manifest" in (_table_problem(path) or "")  # before: a manifest file of any content was enough


def test_the_command_prints_the_state(cache, capsys):
    from evalcore.cli.aesop import main

    manifest_path(lm_path()).write_text("")
    assert main(["setup", "pem", "--status"]) == 0
    out = capsys.readouterr().out
    assert "brown-lm       damaged: default.klm: its manifest" in out and "phrase-tables  built" in out
