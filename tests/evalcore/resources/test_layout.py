"""The resources package: every former module path still imports for one release, warns naming
the new path and is the new module; ``parapeval setup`` still builds, and says what replaces it."""

import importlib
import subprocess
import sys
import warnings

import pytest

MOVED = [
    ("evalcore.default_resources", "evalcore.resources.defaults"),
    ("evalcore.system_resources", "evalcore.resources.system"),
    ("evalcore.lm", "evalcore.resources.lm"),
    ("evalcore.wordnet", "evalcore.resources.wordnet"),
    ("evalcore.phrase_table", "evalcore.resources.phrase_table"),
    ("evalcore.phrase_table.bitext", "evalcore.resources.phrase_table.bitext"),
    ("evalcore.phrase_table.seeded_eflomal", "evalcore.resources.phrase_table.seeded_eflomal"),
]


def _fresh_import(code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a new interpreter with every warning shown (a module warns on first import only)."""
    return subprocess.run([sys.executable, "-W", "always::DeprecationWarning", "-c", code],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("old", "new"), MOVED)
def test_an_old_module_path_warns_naming_the_new_one_and_is_that_module(old, new):
    proc = _fresh_import(f"import importlib; old = importlib.import_module({old!r}); "
                         f"new = importlib.import_module({new!r}); "
                         "print(old is new or old.__name__ == 'evalcore.phrase_table')")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True"]
    assert f"{old} is deprecated; import {new}" in proc.stderr


def test_the_old_phrase_table_package_still_offers_its_builder():
    from evalcore.resources.phrase_table import build_phrase_table

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        old = importlib.import_module("evalcore.phrase_table")
    assert old.build_phrase_table is build_phrase_table


def test_a_name_of_the_former_registry_module_warns_once_and_points_at_the_importer():
    proc = _fresh_import("from evalcore.resources import cache_root, ResourceError\n"
                         "import evalcore.resources.registry as r\n"
                         "assert cache_root is r.cache_root and ResourceError is r.ResourceError\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("evalcore.resources.cache_root is deprecated; "
                             "import it from evalcore.resources.registry") == 1
    assert proc.stderr.startswith("<string>:1: DeprecationWarning"), proc.stderr


def test_an_unknown_name_of_the_resources_package_is_an_attribute_error():
    import evalcore.resources

    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        evalcore.resources.nonesuch  # noqa: B018 - the look-up is the test


def test_parapeval_setup_builds_the_pem_family_and_names_its_successor(monkeypatch, capsys):
    from evalcore.resources import defaults, system
    from parapeval.cli import main

    calls = []
    monkeypatch.setattr(system, "ensure", lambda family, **kw: calls.append((family, kw)))
    assert main(["setup"]) == 0
    out, err = capsys.readouterr()
    assert calls == [("pem", {"verify": True})]
    assert "deprecated" in err and "`aesop-eval setup pem`" in err
    assert out.splitlines() == [f"{p}\t{defaults.phrase_table_path(p)}" for p in defaults.DEFAULT_PIVOTS] + \
        [f"lm\t{defaults.lm_path()}"]


@pytest.mark.parametrize(("source", "folder"), [(None, "registry"), ("registry", "registry"), ("debian", "")])
def test_shared_resources_live_in_the_neutral_cache_folder(monkeypatch, tmp_path, source, folder):
    """Each source builds into its own folder of ``resources/``; the default is the registry's."""
    from evalcore.resources import defaults, lm, system
    from evalcore.resources.phrase_table import seeded_eflomal

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path))
    if source is None:
        monkeypatch.delenv("AESOP_RESOURCES", raising=False)
    else:
        monkeypatch.setenv("AESOP_RESOURCES", source)
    base = tmp_path / "resources"
    built = base / folder if folder else base
    assert defaults.phrase_table_path("fr").parent == built / "phrase_tables"
    assert defaults.lm_path().parent == defaults.bible_lm_path().parent == built / "lm"
    assert lm.cached_lmplz().is_relative_to(base) and system.brown_dir().is_relative_to(base)
    assert seeded_eflomal.seeded_binary_path().is_relative_to(base)
