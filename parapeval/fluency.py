"""Fluency: length-normalised 4-gram language-model score, log10 Pr(P) / (length(P) + 1).

The LM is trained with KenLM's ``lmplz`` (modified Kneser-Ney) and queried with the ``kenlm``
module. Text is normalised the same way for training and querying (PTB-like tokens, lowercased).
The +1 counts the end-of-sentence event the LM also scores, so an empty sentence is defined.
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

from evalcore.resources import ResourceError
from evalcore.text import tokenize
from parapeval.defaults import cache_dir


def lm_tokens(text: str) -> list[str]:
    """The LM's view of a text: lowercased PTB-like tokens."""
    return [t.lower() for t in tokenize(text)]


def find_lmplz() -> Path:
    """KenLM's lmplz: $PARAPEVAL_LMPLZ, the setup cache, or PATH."""
    candidates = [os.environ.get("PARAPEVAL_LMPLZ"), str(cache_dir() / "kenlm" / "bin" / "lmplz"), shutil.which("lmplz")]
    for cand in candidates:
        if cand and Path(cand).is_file() and os.access(cand, os.X_OK):
            return Path(cand)
    raise ResourceError("KenLM's lmplz not found: run `make setup` (scripts/setup_parapeval.sh builds it "
                        "from the kenlm sdist) or set PARAPEVAL_LMPLZ")


MAX_ORDER = 6  # KENLM_MAX_ORDER of the kenlm builds (sdist and module): higher orders do not load


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


def train_lm(sentences: Iterable[str], out: str | Path, order: int = 4, memory: str = "1G",
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
    with tempfile.TemporaryDirectory(prefix="parapeval-lm-") as tmp:
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
        tmp_out = out.with_name(out.name + ".tmp")
        if out.suffix != ".arpa" and build_binary.is_file():
            proc = subprocess.run([str(build_binary), str(arpa), str(tmp_out)], capture_output=True)
            if proc.returncode != 0:
                raise LMTrainingError(f"build_binary failed: {_tool_message(proc.stderr)}")
        else:
            shutil.copyfile(arpa, tmp_out)
        os.replace(tmp_out, out)
    return out


class FluencyScorer:
    """Normalised LM score of a sentence; the model file is loaded on first use."""

    def __init__(self, lm_path: str | Path):
        self.lm_path = Path(lm_path)
        if not self.lm_path.is_file():
            raise ResourceError(f"language model {self.lm_path} not found: build one with `parapeval build-lm` "
                                "or the default with `make setup`")
        self._model = None
        self._lock = threading.Lock()

    def __getstate__(self):
        return {"lm_path": self.lm_path}

    def __setstate__(self, state):
        self.__init__(state["lm_path"])

    def _lm(self):
        if self._model is None:
            with self._lock:
                if self._model is None:
                    try:
                        import kenlm
                    except ImportError as exc:
                        raise ResourceError("the kenlm module is not installed: `pip install kenlm` "
                                            "(what `make setup` does)") from exc
                    self._model = kenlm.Model(str(self.lm_path))
        return self._model

    def signature(self) -> str:
        """LM file name, order and a short content hash."""
        h = hashlib.sha1()
        with self.lm_path.open("rb") as fh:
            h.update(fh.read(1 << 20))
        h.update(str(self.lm_path.stat().st_size).encode())
        return f"lm:{self.lm_path.stem}:{self._lm().order}g:{h.hexdigest()[:8]}"

    def score(self, text: str) -> float:
        """log10 Pr(text) / (number of tokens + 1), sentence boundaries included."""
        toks = lm_tokens(text)
        return self._lm().score(" ".join(toks), bos=True, eos=True) / (len(toks) + 1)
