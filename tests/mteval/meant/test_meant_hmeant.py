"""HMEANT: the WMT 2013 annotation reader on hand-made tables, MEANT's f-score on human frames
and links, annotator agreement on frames, and the shared annotation where it is present."""

from pathlib import Path

import pytest

from evalcore.io.textfiles import InputError
from evalcore.resources.registry import ResourceError, shared_data_dir
from mteval.meant.hmeant import aligned_frames, hmeant, read_hmeant, reference_frames
from mteval.meant.roles import equal_weights

TABLES = {
    "sentences_text": ["id\tlanguage\tsegment\tnumber\tversion\ttext",
                       "0\ten\t00\t01\t00\tthe council approved the budget .",
                       "1\ten\t00\t01\t01\tthe budget was approved by council ."],
    # 10, 11: annotators a and b on the reference; 12: a's copy of it for MT sentence 1; 13: a on MT
    "annotations": ["id\tsentence_id\tannotator\tref_id", "10\t0\ta\tNULL", "11\t0\tb\tNULL", "12\t1\ta\tNULL",
                    "13\t1\ta\t12"],
    "actions": ["id\tannotation_id\ttokens", "0\t10\t2", "1\t11\t2", "2\t12\t2", "3\t13\t3"],
    "slots": ["id\taction_id\ttype\ttokens", "0\t0\tAGENT\t0,1", "1\t0\tEXPERIENCER-PATIENT\t3,4",
              "2\t1\tAGENT\t1", "3\t1\tEXPERIENCER-PATIENT\t3,4",
              "4\t2\tAGENT\t0,1", "5\t2\tEXPERIENCER-PATIENT\t3,4",
              "6\t3\tEXPERIENCER-PATIENT\t0,1", "7\t3\tAGENT\t4,5"],
    "action_aligns": ["id\tref_action_id\thypo_action_id\ttype", "0\t2\t3\tfull"],
    "slot_aligns": ["id\tref_slot_id\thypo_slot_id\ttype", "0\t4\t7\tfull", "1\t5\t6\tpartial"],
}


@pytest.fixture
def tables(tmp_path):
    for name, lines in TABLES.items():
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def test_reader_resolves_frames_and_links(tables):
    data = read_hmeant(tables)
    (a,) = data.annotated
    assert (a.language, a.system, a.annotator, a.document) == ("en", "phrase-based", "a", "00-01")
    assert a.ref.sentence.tokens[a.ref.sentence.frames[0].predicate] == "approved"  # copy indexes the reference
    assert a.mt.sentence.frames[0].arguments[1].span == (4, 6)
    assert a.frame_links == ((0, 0, "full"),)
    (pair,) = aligned_frames(a)
    assert dict(pair.roles) == {"agent": 1.0, "experiencer": 0.5}
    assert len(reference_frames(data, "en")) == 2 and not reference_frames(data, "de")


def test_hmeant_is_meants_f_score_on_human_links(tables):
    (a,) = read_hmeant(tables).annotated
    prf = hmeant(a, equal_weights())
    assert (prf.precision, prf.recall) == pytest.approx((2.5 / 3, 2.5 / 3))  # (1 + 1 + 0.5) / (1 + 2)




def test_bad_tables_name_the_problem(tables):
    (tables / "slots").write_text("id\taction_id\ttype\ttokens\n0\t0\tAGENT\t0,9\n", encoding="utf-8")
    with pytest.raises(InputError, match="slot 0 tokens 0,9"):
        read_hmeant(tables)
    (tables / "actions").unlink()
    with pytest.raises(InputError, match="missing HMEANT table"):
        read_hmeant(tables)


def _shared() -> Path:
    try:
        root = shared_data_dir() / "srl" / "hmeant-wmt13"
    except ResourceError:
        root = Path("/nonexistent")
    if not root.is_dir():
        pytest.skip("../shared/data/srl/hmeant-wmt13 is not here")
    return root


def test_shared_annotation_reads_whole():
    data = read_hmeant(_shared())
    assert len(data.annotated) == 1266 and len(data.references) == 422
    (a,) = [a for a in data.annotated if (a.hyp_id, a.annotator) == ("256", "susanne")]
    assert a.mt_text.startswith("Die Stimmen für Afrika") and a.system == "syntax-based"
    # one frame each side, predicate full, six fillers linked (one partial): (1 + 5.5) / (1 + 6)
    assert hmeant(a, equal_weights()).f == pytest.approx(6.5 / 7)
    assert all(0.0 <= hmeant(x, equal_weights()).f <= 1.0 for x in data.annotated)
