"""A one-document TESLA-S run imports only what it uses (its start-up target: within 2.5x of a
bare ``import numpy, scipy.sparse``): no scipy, scikit-learn, spaCy, rouge-score, numba or process pools."""

import json
import subprocess
import sys

HEAVY = ("scipy", "sklearn", "spacy", "rouge_score", "rouge_score_rs", "nltk", "numba", "concurrent.futures.process")


def test_one_document_tesla_s_imports_no_heavy_module(tmp_path):
    doc = {"topic": "t", "system": "s", "summary": "The cat sat on the mat.", "references": ["A cat sat on a mat."]}
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(doc) + "\n")
    code = ("import io, sys, contextlib\nfrom summeval.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n    rc = main(['score', '-m', 'tesla-s', '-i', "
            f"{str(path)!r}])\n"
            "print(rc, sorted(m for m in sys.modules if m.split('.')[0] in "
            f"{ {h.split('.')[0] for h in HEAVY} !r} and m in {HEAVY!r}))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.split()
    assert out[0] == "0"
    assert " ".join(out[1:]) == "[]"
