"""PEM's values did not move with the speed work: every 10th Twitter-Para pair scored with the
shipped model and the default resources equals what the code before the compiled BPNG path
(1e6608f) gave on the same resources (tests/parapeval/data/pem_golden.json), within 1e-12
relative and absolute: the SVR's ``exp`` and the compiled sums differ between CPUs by a few
units in the last place (on an AVX-512 machine 583 of the 5,720 values differ, by at most
3.6e-14; docs/determinism.md). The recorded tables are the seeded build, the same on every
machine; where the default resources differ from the recorded ones (their SHA-256: tables built
before the seeded aligner) the check is skipped; test_bpng's compiled-vs-reference tests cover
every machine."""

import json
import math
from pathlib import Path

import pytest

from evalcore.io.models import read_header
from evalcore.io.persist import file_sha256
from evalcore.resources import defaults
from evalcore.resources.registry import ResourceError
from parapeval import PEM
from parapeval.data import read_twitter_para, twitter_para_path
from parapeval.pem.metric import default_model_path

GOLDEN = Path(__file__).parent / "data" / "pem_golden.json"
#: recorded on another machine: values agree within this, relative and absolute
TOLERANCE = 1e-12


def _sha256(key: str, path: Path) -> str:
    """A resource's SHA-256: the model's content (its header's), a table's or LM's file bytes."""
    return read_header(path)["sha256"] if key == "model" else file_sha256(path)


def _resource_files() -> dict[str, Path]:
    files = {f"table_{p}": defaults.phrase_table_path(p) for p in defaults.DEFAULT_PIVOTS}
    return {**files, "lm": defaults.lm_path(), "model": default_model_path()}


@pytest.fixture(scope="module")
def golden() -> dict:
    record = json.loads(GOLDEN.read_text("utf-8"))
    files = _resource_files()
    missing = [k for k, path in files.items() if not path.is_file()]
    if missing:
        pytest.skip(f"default resources not built ({', '.join(missing)}): run `make setup`")
    differ = [k for k, path in files.items() if _sha256(k, path) != record["resources"][k]]
    if differ:
        pytest.skip(f"default resources differ from the recorded ones ({', '.join(differ)})")
    try:
        record["pairs"] = read_twitter_para(twitter_para_path())
    except ResourceError as exc:
        pytest.skip(str(exc))
    return record


def test_pem_values_equal_the_recorded_ones_within_1e12(golden):
    pairs = golden["pairs"]
    rows = golden["rows"]
    columns = golden["columns"][1:]
    pem = PEM()
    results = pem.score_batch([(pairs[row[0]].original, pairs[row[0]].paraphrase) for row in rows])
    mismatched = []
    for row, result in zip(rows, results):
        got = {"value": result.value, **result.components}
        for name, want in zip(columns, row[1:]):
            have = got.get(name)
            if (want is None) != (have is None) or (want is not None and have is not None and not math.isclose(
                    float(have), float.fromhex(want), rel_tol=TOLERANCE, abs_tol=TOLERANCE)):
                mismatched.append((row[0], name, want, None if have is None else float(have).hex()))
    assert not mismatched, f"{len(mismatched)} values moved, e.g. {mismatched[:3]}"


def test_one_pair_at_a_time_gives_the_batch_values(golden):
    """The per-pair ``score`` path gives the same bits as the batch in the same process (a few pairs)."""
    pairs, pem = golden["pairs"], PEM()
    chosen = [pairs[row[0]] for row in golden["rows"][:25]]
    batch = pem.score_batch([(p.original, p.paraphrase) for p in chosen])
    assert [pem.score(p.original, p.paraphrase).value for p in chosen] == [r.value for r in batch]


def test_compiled_path_equals_the_python_path_on_the_default_tables():
    """On any machine with the default resources (whatever eflomal gave): each pivot's compiled F1
    equals the dict-based reference (``pivot_f1`` of ``BPNGBuilder.bag``) on Twitter-Para pairs."""
    from evalcore.bpng import BPNGBuilder, PhraseTableStore, pivot_f1
    from evalcore.resources.phrase_table.build import english_preprocessor

    tables = {p: defaults.phrase_table_path(p) for p in defaults.DEFAULT_PIVOTS}
    if not all(path.is_file() for path in tables.values()):
        pytest.skip("default phrase tables not built: run `make setup`")
    try:
        pairs = read_twitter_para(twitter_para_path())[:300]
    except ResourceError as exc:
        pytest.skip(str(exc))
    pre = english_preprocessor(True)
    docs = [(pre(p.original), pre(p.paraphrase)) for p in pairs]
    for pivot, path in tables.items():
        for discount in (None, 0.1):
            fast = BPNGBuilder(PhraseTableStore(path), discount=discount).f1_batch(docs, compiled=True).tolist()
            reference = BPNGBuilder(PhraseTableStore(path), discount=discount)
            assert fast == [pivot_f1(reference.bag(o), reference.bag(p))[2] for o, p in docs], (pivot, discount)
