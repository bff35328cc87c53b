"""eflomal's aligner compiled for the same alignments on every machine: a fixed seed, samplers
in order, portable floating point.

The ``eflomal`` package (PyPI, GPL-3, source distribution only) seeds its Gibbs sampler from
``/dev/urandom``, hands out the samplers' seeds in OpenMP thread order, and compiles with
``-Ofast -march=native``: three reasons its alignments differ between runs and between CPUs.
This module compiles the unmodified C source of the installed eflomal version (its sdist, fetched
with pip) with a forced-include header that reads the seed from ``$EFLOMAL_SEED`` where eflomal
opens ``/dev/urandom`` and keeps nested OpenMP regions serial (each direction's samplers run in
order, the two directions still run in parallel), and with ``-O2 -ffp-contract=off`` (IEEE
arithmetic, baseline instruction set). The binary lives below the cache root, built on first use.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from evalcore.resources.registry import ResourceError, resource_dir

SEED_ENV = "EFLOMAL_SEED"
#: compiler flags of the seeded build: no -Ofast/-march=native, no fused multiply-add
CFLAGS = ("-O2", "-std=gnu99", "-ffp-contract=off", "-fopenmp", "-w")

SEED_HEADER = r"""
/* Forced include of the seeded eflomal build: the seed comes from $EFLOMAL_SEED where eflomal
 * reads /dev/urandom, and nested OpenMP regions stay serial so samplers get their seeds in order. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
static __thread uint64_t aesop_seed;
static FILE *aesop_fopen(const char *path, const char *mode) {
    if (strcmp(path, "/dev/urandom") == 0) {
        const char *text = getenv("EFLOMAL_SEED");
        aesop_seed = text ? strtoull(text, NULL, 10) : 0;
        if (aesop_seed == 0) {
            fprintf(stderr, "eflomal (seeded build): EFLOMAL_SEED must be a positive integer\n");
            exit(2);
        }
        return fmemopen(&aesop_seed, sizeof aesop_seed, "r");
    }
    return fopen(path, mode);
}
#define fopen aesop_fopen
#define omp_set_nested(flag) omp_set_max_active_levels(1)
"""


def eflomal_version() -> str:
    """The installed eflomal's version (the seeded build compiles the same source)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("eflomal")
    except PackageNotFoundError as exc:
        raise ResourceError("eflomal is not installed: pip install 'aesop-eval[pem]'") from exc


def seeded_binary_path() -> Path:
    """Where the seeded build of the installed eflomal version lives."""
    return resource_dir() / f"eflomal-{eflomal_version()}-seeded" / "eflomal"


def _compiler() -> str:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    raise ResourceError("no C compiler (cc) to build the seeded eflomal; install one "
                        "(eflomal's own install needs it too)")


def build_seeded_binary(dest: Path) -> Path:
    """Fetch the eflomal sdist of the installed version with pip and compile it seeded into ``dest``."""
    ver = eflomal_version()
    with tempfile.TemporaryDirectory(prefix="aesop-eflomal-") as tmp:
        work = Path(tmp)
        got = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", "eflomal",
                              "-d", str(work), f"eflomal=={ver}"],
                             capture_output=True, text=True)
        sdists = sorted(work.glob("eflomal-*.tar.gz"))
        if got.returncode != 0 or not sdists:
            raise ResourceError(f"could not fetch the eflomal {ver} sdist with pip: {got.stderr.strip()[-400:]}")
        with tarfile.open(sdists[0]) as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(work, filter="data")
            else:
                tar.extractall(work)
        src = next(work.glob("eflomal-*/src/eflomal.c"))
        header = src.with_name("aesop_seed.h")
        header.write_text(SEED_HEADER, "utf-8")
        out = src.with_name("eflomal-seeded")
        cc = subprocess.run([_compiler(), *CFLAGS, "-include", str(header), "-o", str(out), str(src), "-lm"],
                            capture_output=True, text=True)
        if cc.returncode != 0:
            raise ResourceError(f"compiling the seeded eflomal failed: {cc.stderr.strip()[-800:]}")
        dest.parent.mkdir(parents=True, exist_ok=True)
        staged = dest.with_name(f".{dest.name}.{os.getpid()}")
        shutil.copy2(out, staged)
        os.replace(staged, dest)
    return dest


def seeded_binary() -> Path:
    """The seeded eflomal binary, built on first use (~10 s: pip download and one C file)."""
    path = seeded_binary_path()
    if not (path.is_file() and os.access(path, os.X_OK)):
        build_seeded_binary(path)
    return path
