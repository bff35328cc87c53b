"""A value computed while a cache is built equals the value read back from it: every cached metric
scored in a process that starts from an empty AESOP_CACHE (it builds the IBM-1 tables, the Brown
counts, REDp's pivot marginals, the compiled phrase tables, WordNet's folder, the DICOMER parses)
and again in a fresh process that reads them, with exactly equal values.

The tables and LMs `make setup` builds (minutes) are linked in from the shared cache; everything
derived from them starts empty."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evalcore.resources.defaults import DEFAULT_PIVOTS, bible_lm_path, lm_path, phrase_table_path, resource_dir
from evalcore.resources.wordnet import nltk_data_dir

#: metrics that read or write a cache below AESOP_CACHE, and what they cache
CACHED = {
    "xmeant": "IBM-1 tables (mteval/meant-ibm1-*)",
    "meant": "Brown context counts, WordNet", "imeant": "Brown context counts, WordNet",
    "umeant": "Brown context counts, WordNet",
    "redp": "pivot marginals (mteval/pivot-marginals-*), compiled tables, WordNet",
    "red": "WordNet",
    "tesla-b": "compiled tables (bpng/)", "tesla-f": "compiled tables (bpng/)", "tesla-m": "WordNet",
    "tesla-s": "compiled tables (bpng/)", "meteor": "WordNet", "pem": "compiled tables (bpng/)",
    "dicomer": "parses (dicomer/)", "cremer": "parses (dicomer/)",
}
ROOT = Path(__file__).resolve().parent.parent
SCORE = ("import json, sys; import evalcore.bpng.compiled as c; c.COMPILED_FROM = 0; c.DISK_CACHE_MIN_BYTES = 0; "
         "from evalcore.metric.registry import get_metric; from evalcore.metric.conformance import items_for; "
         "out = {}\n"
         "for name in sys.argv[1:]:\n"
         "    m = get_metric(name)\n"
         "    out[name] = [r.value if r.ok else str(r) for r in m.score_batch(items_for(m.reads))]\n"
         "print(json.dumps(out))")


def _score(cache: Path, names: list[str]) -> dict[str, list]:
    env = {**os.environ, "AESOP_CACHE": str(cache)}
    out = subprocess.run([sys.executable, "-c", SCORE, *names], capture_output=True, text=True, env=env,
                         cwd=str(ROOT), timeout=1800)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "warning:" not in out.stderr, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_cold_cache_values_equal_warm_cache_values(tmp_path):
    built = [phrase_table_path(p) for p in DEFAULT_PIVOTS] + [lm_path()]
    if not all(p.is_file() for p in built):
        pytest.skip("the default phrase tables and LM are not built (`aesop-eval setup`)")
    names = [n for n in CACHED if n != "tesla-f" or bible_lm_path().is_file()]  # TESLA-F reads the Bible LM too
    shared = resource_dir()
    cache = tmp_path / "cache"
    (cache / "resources").mkdir(parents=True)
    for entry in shared.iterdir():  # tables, LMs, lmplz, the Brown corpus, the aligner
        (cache / "resources" / entry.name).symlink_to(entry)
    cold = _score(cache, names)
    for folder, pattern in (("mteval", "meant-ibm1-*.npz"), ("mteval", "meant-brown-*.npz"),
                            ("mteval", "pivot-marginals-*.npz"), ("bpng", "*/meta.json"),
                            ("dicomer", "*.sqlite"), (nltk_data_dir().name, "corpora/wordnet/lexnames")):
        assert list((cache / folder).glob(pattern)), f"the cold run wrote no {folder}/{pattern}"
    warm = _score(cache, names)
    assert {n: v for n, v in warm.items() if v != cold[n]} == {}, {n: cold[n] for n in warm if warm[n] != cold[n]}
    assert all(isinstance(v, float) for values in cold.values() for v in values), cold
