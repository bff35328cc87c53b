"""The Debian source's phrase tables (``AESOP_RESOURCES=debian``) are built from named, versioned
inputs only: two builds from empty
caches on machines that differ in what else they have installed give byte-identical tables and
manifests; an input that differs from the named version is named on stderr and changes the
signature. The builds are restricted to one small package (sed's French catalog) to stay fast."""

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from evalcore.resources import defaults, inputs
from evalcore.resources.inputs import DebianInput
from evalcore.resources.phrase_table.bitext import catalog_pairs
from evalcore.resources.registry import ResourceError

SED_FR = "/usr/share/locale/fr/LC_MESSAGES/sed.mo"
OTHER_FR = "/usr/share/locale/fr/LC_MESSAGES/grep.mo"
SED = next(inp for inp in inputs.CATALOG_PACKAGES if inp.package == "sed")

needs_dpkg = pytest.mark.skipif(shutil.which("dpkg-query") is None or inputs.installed_version("sed") is None
                                or not Path(SED_FR).is_file() or not Path(OTHER_FR).is_file(),
                                reason="needs dpkg with sed's and grep's French catalogs installed")


@pytest.fixture(autouse=True)
def debian_source(monkeypatch):
    """Every test here is about the Debian source, which is not the default."""
    monkeypatch.setenv(inputs.SOURCE_ENV, "debian")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _fake_root(root: Path, files: dict[str, str]) -> Path:
    """A file system root holding ``files`` (path in the root -> real file copied there)."""
    for path, source in files.items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    return root


@pytest.fixture(scope="module")
def aligner(tmp_path_factory):
    """The seeded eflomal binary, built once for the module (a tool, not an input of the tables)."""
    pytest.importorskip("eflomal")
    from evalcore.resources.phrase_table.seeded_eflomal import build_seeded_binary

    return build_seeded_binary(tmp_path_factory.mktemp("tools") / "eflomal")


def _build(cache: Path, root: Path, aligner: Path, monkeypatch) -> dict[str, str]:
    """Build sed's French table into an empty ``cache`` reading from ``root``; SHA-256 of the files written."""
    from evalcore.resources.phrase_table import seeded_eflomal

    assert not cache.exists()
    monkeypatch.setenv("AESOP_CACHE", str(cache))
    dest = seeded_eflomal.seeded_binary_path()
    dest.parent.mkdir(parents=True)
    shutil.copy2(aligner, dest)
    inputs.read_package.cache_clear()
    defaults.build_phrase_tables(log=lambda msg: None, pivots=("fr",), packages=(SED,), bible=False, root=root)
    folder = cache / "resources" / "phrase_tables"
    return {p.name: _sha256(p) for p in sorted(folder.iterdir())}


@needs_dpkg
def test_two_builds_on_machines_with_other_catalogs_installed_are_byte_identical(tmp_path, monkeypatch, aligner,
                                                                                   capsys):
    sed = {path: path for path in inputs.default_files(SED)}
    plain = _fake_root(tmp_path / "machine-a", sed)
    # the second machine has one more French catalog in the same folder (another package's)
    planted = "/usr/share/locale/fr/LC_MESSAGES/planted.mo"
    busy = _fake_root(tmp_path / "machine-b", {**sed, planted: OTHER_FR})
    extra = set(catalog_pairs([busy / planted.lstrip("/")])) - set(catalog_pairs([plain / SED_FR.lstrip("/")]))
    assert extra, "the planted catalog adds pairs: a build that scanned the folder would differ"

    first = _build(tmp_path / "cache-a", plain, aligner, monkeypatch)
    second = _build(tmp_path / "cache-b", busy, aligner, monkeypatch)
    assert set(first) == {"fr.sqlite", "fr.manifest.json"}
    assert first == second
    assert "warning" not in capsys.readouterr().err

    manifest = json.loads((tmp_path / "cache-b" / "resources" / "phrase_tables" / "fr.manifest.json").read_text())
    [record] = manifest["inputs"]
    assert (record["package"], record["named"], list(record["files"])) == ("sed", SED.upstream, [SED_FR])
    assert record["files"][SED_FR] == _sha256(Path(SED_FR))


@needs_dpkg
def test_another_version_is_named_on_stderr_and_changes_the_table_name(capsys):
    inputs.read_package.cache_clear()
    named, _, _ = defaults.default_bitext("fr", packages=(SED,), bible=False)
    assert "warning" not in capsys.readouterr().err
    older = DebianInput("sed", "4.8", SED.digest)
    other, _, _ = defaults.default_bitext("fr", packages=(older,), bible=False)
    err = capsys.readouterr().err
    version = inputs.installed_version("sed")
    assert f"Debian package sed {version} is installed, but the defaults name version 4.8" in err
    assert other != named and other.startswith("debian-l10n-fr@")


@needs_dpkg
def test_files_that_differ_from_the_named_version_are_named_on_stderr(tmp_path, capsys):
    inputs.read_package.cache_clear()
    changed = _fake_root(tmp_path / "changed", {SED_FR: OTHER_FR})  # same path, other content
    name_changed, _, content = defaults.default_bitext("fr", packages=(SED,), bible=False, root=changed)
    err = capsys.readouterr().err
    assert "Debian package sed" in err and "its files differ from those of the named version" in err
    inputs.read_package.cache_clear()
    missing = _fake_root(tmp_path / "missing", {})
    with pytest.raises(ResourceError, match="no fr catalogs"):
        defaults.default_bitext("fr", packages=(SED,), bible=False, root=missing)
    err = capsys.readouterr().err
    assert "Debian package sed" in err and "listed files missing" in err
    inputs.read_package.cache_clear()
    name_installed, _, _ = defaults.default_bitext("fr", packages=(SED,), bible=False)
    assert name_changed != name_installed
    assert content["inputs"][0]["files"][SED_FR] == _sha256(Path(OTHER_FR))


@needs_dpkg
@pytest.mark.parametrize("inp", inputs.CATALOG_PACKAGES + inputs.BIBLE_PACKAGES, ids=lambda inp: inp.package)
def test_a_named_package_installed_at_its_named_version_has_its_named_digest(inp):
    version = inputs.installed_version(inp.package)
    if version is None or inputs.upstream_version(version) != inp.upstream:
        pytest.skip(f"{inp.package} {inp.upstream} is not installed here")
    inputs.read_package.cache_clear()
    record = inputs.read_package(inp)
    assert inputs.files_digest(record["files"]) == inp.digest


def test_upstream_version_drops_the_debian_revision_only():
    assert inputs.upstream_version("1:2.39.5-0+deb12u3") == "1:2.39.5"
    assert inputs.upstream_version("1.34+dfsg-1.2+deb12u1") == "1.34+dfsg"
    assert inputs.upstream_version("2.6.1") == "2.6.1"


def test_a_missing_named_package_is_an_error_naming_the_install_command(monkeypatch):
    monkeypatch.setattr(inputs, "installed_version", lambda package: None)
    inputs.read_package.cache_clear()
    with pytest.raises(ResourceError, match="`apt-get install sed`"):
        inputs.read_package(SED)
    inputs.read_package.cache_clear()
