"""KenLM n-gram language models: trained with KenLM's ``lmplz`` (modified Kneser-Ney) and queried
with the ``kenlm`` module, on the same text normalisation for both (lowercased PTB-like tokens).

Shared by PEM's fluency feature and the MT metrics: build with :func:`train_lm`, query with
:class:`KenLM`. ``lmplz`` is found through ``AESOP_LMPLZ``, the suite's cache (where
``aesop-eval setup pem`` builds it) or ``PATH``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from evalcore.io.persist import atomic_write
from evalcore.resources.registry import ResourceError, resource_dir
from evalcore.text.preprocess import tokenize

#: KENLM_MAX_ORDER of the kenlm builds (sdist and module): higher orders do not load.
MAX_ORDER = 6
#: the order of the default LMs
DEFAULT_ORDER = 4
#: the kenlm sdist whose lmplz and build_binary `aesop-eval setup` compiles (the default LMs' tool)
KENLM_VERSION = "0.3.0"
LMPLZ_ENV = "AESOP_LMPLZ"


def lm_tokens(text: str) -> list[str]:
    """The LM's view of a text: lowercased PTB-like tokens."""
    return [t.lower() for t in tokenize(text)]


def cached_lmplz() -> Path:
    """Where ``aesop-eval setup`` builds ``lmplz`` (and ``build_binary``) of the pinned kenlm sdist."""
    return resource_dir() / f"kenlm-{KENLM_VERSION}" / "bin" / "lmplz"


def lmplz_signature(order: int) -> str:
    """How the default LMs are trained, for their manifests: tool, version, order, options."""
    return f"kenlm-{KENLM_VERSION} lmplz -o {order} --discount_fallback; build_binary"


def lm_problem(path: Path) -> str | None:
    """Why the model file at ``path`` cannot be loaded, or None when it loads."""
    try:
        KenLM(path)._lm()
    except ResourceError as exc:
        return str(exc)
    return None


def find_lmplz() -> Path:
    """KenLM's lmplz: ``$AESOP_LMPLZ``, the setup cache, or PATH."""
    for cand in (os.environ.get(LMPLZ_ENV), str(cached_lmplz()), shutil.which("lmplz")):
        if cand and Path(cand).is_file() and os.access(cand, os.X_OK):
            return Path(cand)
    raise ResourceError(f"KenLM's lmplz not found: run `aesop-eval setup pem` (it builds lmplz from the kenlm "
                        f"sdist into {cached_lmplz().parent}) or set {LMPLZ_ENV}")


class LMTrainingError(RuntimeError):
    """lmplz or build_binary refused the corpus or settings; the message says why."""


def _write_corpus(sentences: Iterable[str], corpus: Path) -> tuple[int, int]:
    """The LM's tokens of each non-empty sentence, one per line; (sentences, tokens) written."""
    n_sents = n_toks = 0
    with corpus.open("w", encoding="utf-8") as fh:
        for sentence in sentences:
            toks = lm_tokens(sentence)
            if toks:
                fh.write(" ".join(toks) + "\n")
                n_sents, n_toks = n_sents + 1, n_toks + len(toks)
    if n_sents == 0:
        raise ValueError("no non-empty sentence to train the language model on")
    return n_sents, n_toks


def _tool_message(stderr: bytes, lines: int = 6) -> str:
    """The last lines of a KenLM tool's stderr without its progress bars."""
    text = stderr.decode("utf-8", errors="replace").splitlines()
    kept = [line for line in text if line.strip() and not line.startswith(("----5", "****"))]
    return " | ".join(kept[-lines:])


def train_lm(sentences: Iterable[str], out: str | Path, order: int = DEFAULT_ORDER, memory: str = "1G",
             log: Callable[[str], None] = lambda msg: None) -> Path:
    """Train a modified-Kneser-Ney LM with lmplz on raw sentences (one per item) and write it
    to ``out`` as a KenLM binary (or ARPA when ``out`` ends in .arpa). Returns ``out``.

    On a corpus too small to estimate the discounts, lmplz substitutes fallback discounts
    (--discount_fallback) and ``log`` says so; a failing tool is an :class:`LMTrainingError`."""
    if not 2 <= order <= MAX_ORDER:
        raise ValueError(f"LM order must be 2..{MAX_ORDER} (KenLM's compiled limits), got {order}")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    lmplz = find_lmplz()
    with tempfile.TemporaryDirectory(prefix="aesop-lm-") as tmp:
        corpus, arpa = Path(tmp, "corpus.txt"), Path(tmp, "lm.arpa")
        n_sents, n_toks = _write_corpus(sentences, corpus)
        with corpus.open("rb") as fin, arpa.open("wb") as fout:
            proc = subprocess.run([str(lmplz), "-o", str(order), "-S", memory, "-T", tmp, "--discount_fallback"],
                                  stdin=fin, stdout=fout, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            raise LMTrainingError(f"lmplz could not train a {order}-gram LM on {n_sents} sentences ({n_toks} tokens), "
                                  f"exit {proc.returncode}: {_tool_message(proc.stderr)}")
        if b"fallback discounts" in proc.stderr:
            log(f"{n_sents} sentences ({n_toks} tokens) are too few to estimate Kneser-Ney discounts: "
                "lmplz used fallback discounts; train on more text for a reliable LM")
        build_binary = lmplz.with_name("build_binary")

        def write(tmp_out: Path) -> None:
            if out.suffix != ".arpa" and build_binary.is_file():
                proc = subprocess.run([str(build_binary), str(arpa), str(tmp_out)], capture_output=True)
                if proc.returncode != 0:
                    raise LMTrainingError(f"build_binary failed: {_tool_message(proc.stderr)}")
            else:
                shutil.copyfile(arpa, tmp_out)

        atomic_write(out, write)
    return out


def _load_error(exc: Exception) -> str:
    """kenlm's complaint, short: its C++ message (which it fails to decode on a binary file)."""
    raw = exc.object if isinstance(exc, UnicodeDecodeError) else str(exc).encode("utf-8")
    text = raw.decode("utf-8", errors="replace").split("\n")[0]
    return text if len(text) <= 160 else text[:160] + "..."


class KenLM:
    """A KenLM model file (binary or ARPA), loaded on first use; pickles as its path, so worker
    processes load their own copy."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_file():
            raise ResourceError(f"language model {self.path} not found: build one with `parapeval build-lm` "
                                "or the default with `aesop-eval setup pem`")
        self._model = None
        self._failure: ResourceError | None = None  # raised again without re-reading the file
        self._lock = threading.Lock()

    def __getstate__(self):
        return {"path": self.path}

    def __setstate__(self, state):
        KenLM.__init__(self, state["path"])

    def _lm(self):
        if self._model is None:
            with self._lock:
                if self._model is None:
                    try:
                        import kenlm
                    except ImportError as exc:
                        raise ResourceError("the kenlm module is not installed: "
                                            "pip install 'aesop-eval[pem]'") from exc
                    if self._failure is None:
                        try:
                            self._model = kenlm.Model(str(self.path))
                        except Exception as exc:  # noqa: BLE001 - kenlm raises OSError, RuntimeError or a decode error
                            self._failure = ResourceError(
                                f"language model {self.path} cannot be loaded ({_load_error(exc)}): "
                                "it is corrupt or not a KenLM file; rebuild it (`aesop-eval setup pem` rebuilds the "
                                "defaults, `parapeval build-lm` your own)")
                    if self._failure is not None:
                        raise self._failure
        return self._model

    @property
    def order(self) -> int:
        return self._lm().order

    def signature(self) -> str:
        """File name, order and a short content hash (first MiB and size): ``name:4g:1a2b3c4d``."""
        h = hashlib.sha1()
        with self.path.open("rb") as fh:
            h.update(fh.read(1 << 20))
        h.update(str(self.path.stat().st_size).encode())
        return f"{self.path.stem}:{self.order}g:{h.hexdigest()[:8]}"

    def log10_prob(self, text: str) -> tuple[float, int]:
        """(log10 Pr(text) with sentence boundaries, number of LM tokens) of one sentence."""
        toks = lm_tokens(text)
        return self._lm().score(" ".join(toks), bos=True, eos=True), len(toks)

    def log10_prob_tokens(self, tokens: list[str]) -> float:
        """log10 Pr of one sentence already in the LM's view (:func:`lm_tokens`), with boundaries."""
        return self._lm().score(" ".join(tokens), bos=True, eos=True)

    def unknown(self, tokens: list[str]) -> int:
        """How many of ``tokens`` (the LM's view) the model's vocabulary lacks."""
        model = self._lm()
        return sum(1 for t in tokens if t not in model)
