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
from collections.abc import Iterable
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


def train_lm(sentences: Iterable[str], out: str | Path, order: int = 4, memory: str = "1G") -> Path:
    """Train a modified-Kneser-Ney LM with lmplz on raw sentences (one per item) and write it
    to ``out`` as a KenLM binary (or ARPA when ``out`` ends in .arpa). Returns ``out``."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    lmplz = find_lmplz()
    with tempfile.TemporaryDirectory(prefix="parapeval-lm-") as tmp:
        corpus = Path(tmp, "corpus.txt")
        n = 0
        with corpus.open("w", encoding="utf-8") as fh:
            for sentence in sentences:
                toks = lm_tokens(sentence)
                if toks:
                    fh.write(" ".join(toks) + "\n")
                    n += 1
        if n == 0:
            raise ValueError("no non-empty sentence to train the language model on")
        arpa = Path(tmp, "lm.arpa")
        with corpus.open("rb") as fin, arpa.open("wb") as fout:
            proc = subprocess.run([str(lmplz), "-o", str(order), "-S", memory, "-T", tmp, "--discount_fallback"],
                                  stdin=fin, stdout=fout, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            raise RuntimeError(f"lmplz failed ({proc.returncode}): {proc.stderr.decode(errors='replace')[-800:]}")
        build_binary = lmplz.with_name("build_binary")
        tmp_out = out.with_name(out.name + ".tmp")
        if out.suffix != ".arpa" and build_binary.is_file():
            proc = subprocess.run([str(build_binary), str(arpa), str(tmp_out)], capture_output=True)
            if proc.returncode != 0:
                raise RuntimeError(f"build_binary failed: {proc.stderr.decode(errors='replace')[-800:]}")
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
