"""Regenerate ``pem_golden.json``: PEM on every 10th Twitter-Para pair with the shipped model and
the default resources, which must be built first (``aesop-eval setup pem``); the resources are
recorded by SHA-256, so the test skips on a machine whose tables differ.

    AESOP_SHARED_DATA=$PWD/../shared/data .venv/bin/python tests/parapeval/data/make_pem_golden.py COMMIT

Run it only when the default resources change deliberately (their inputs, the aligner, the
model), with the commit whose code writes the values, and say in the CHANGELOG why the values moved.
"""

import json
import subprocess
import sys
from pathlib import Path

from evalcore.io.models import read_header
from evalcore.io.persist import file_sha256
from evalcore.resources import defaults
from parapeval import PEM
from parapeval.data import read_twitter_para, twitter_para_path
from parapeval.pem.metric import default_model_path

OUT = Path(__file__).parent / "pem_golden.json"
COLUMNS = ["pair", "value", "adequacy", "fluency", "target_ngram_f1",
           *(f"pivot_f1_{p}" for p in defaults.DEFAULT_PIVOTS)]


def main(commit: str) -> None:
    files = {f"table_{p}": defaults.phrase_table_path(p) for p in defaults.DEFAULT_PIVOTS}
    resources = {k: file_sha256(path) for k, path in files.items()}
    resources["lm"] = file_sha256(defaults.lm_path())
    resources["model"] = read_header(default_model_path())["sha256"]
    pairs = read_twitter_para(twitter_para_path())
    chosen = list(range(0, len(pairs), 10))
    pem = PEM()
    results = pem.score_batch([(pairs[i].original, pairs[i].paraphrase) for i in chosen])
    rows = []
    for i, result in zip(chosen, results):
        got = {"value": result.value, **result.components}
        rows.append([i, *(None if got.get(c) is None else float(got[c]).hex() for c in COLUMNS[1:])])
    tables = {k: json.loads((path.with_name(f"{path.stem}.manifest.json")).read_text("utf-8"))["digest"][:12]
              for k, path in files.items()}
    record = {"about": "PEM on every 10th Twitter-Para pair (index into read_twitter_para), shipped model and the "
                       "default tables (built from the named inputs with the seeded eflomal, the same on every "
                       f"machine with those inputs; manifest digests {tables}) and LM identified by their SHA-256; "
                       f"values as float.hex(), written by the code of commit {commit}",
              "signature": str(pem.signature()), "resources": resources, "columns": COLUMNS, "rows": rows}
    OUT.write_text(json.dumps(record, separators=(",", ":")) + "\n", "utf-8")
    print(f"wrote {len(rows)} rows to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    main(sys.argv[1] if len(sys.argv) > 1 else head)
