"""evalcore.wordnet: Debian's WordNet 3.0 read by nltk offline, the lexnames file it needs, and a
clear error when the Debian files are missing."""

import os
import stat

import pytest

from evalcore import wordnet as wn_module
from evalcore.resources import ResourceError


def test_lexnames_has_wordnets_45_files_in_order():
    lines = wn_module.lexnames_text().splitlines()
    assert len(lines) == 45
    assert lines[0] == "00\tadj.all\t3" and lines[3] == "03\tnoun.Tops\t1" and lines[44] == "44\tadj.ppl\t3"


def test_reader_loads_once_and_answers():
    wn = wn_module.wordnet()
    assert wn is wn_module.wordnet()
    assert wn_module.version() == "3.0"
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


def test_missing_debian_files_give_a_resource_error(tmp_path):
    with pytest.raises(ResourceError, match="wordnet-base"):
        wn_module.wordnet_dir(source=tmp_path / "nowhere", target=tmp_path / "wn")
