"""TESLA-CELAB: Chinese units, Cilin, the running example in characters, several references,
bad and non-Chinese input, signatures and the CLI (the word-level baseline is the bench's:
tests/benchmarks/test_celab.py)."""

from pathlib import Path

import numpy as np
import pytest

from evalcore.io.textfiles import InputError
from evalcore.matching.covered import CoveredProblem, plain_matching
from evalcore.metric import Item
from evalcore.metric.registry import get_metric
from mteval.celab.cilin import word_groups
from mteval.celab.metric import TeslaCelab, links
from mteval.celab.text import has_chinese, units

# The paper's example: reference 买雨伞 (buy rain umbrella), candidate 买伞 (buy umbrella);
# Cilin's group Bp34A01= holds 伞 and 雨伞.
REF, CAND = "买雨伞", "买伞"


@pytest.fixture(scope="module")
def celab():
    return TeslaCelab()


def test_units_are_characters_alphanumeric_runs_and_punctuation():
    assert units("我买了2021个iPhone！ ，好。") == ["我", "买", "了", "2021", "个", "iPhone", "!", ",", "好", "。"]
    assert units("２０２１年") == ["2021", "年"]  # NFKC: full-width digits
    assert units("COVID疫情") == ["COVID", "疫", "情"]
    assert units("，。！ …") == [",", "。", "!", ".", ".", "."]  # NFKC: the ellipsis is three full stops
    assert has_chinese("2021年") and not has_chinese("Hello 2021")


def test_digit_groups_join_whatever_spacing_separates_them():
    assert units("共1 000人") == units("共1000人") == ["共", "1000", "人"]
    assert units("1\u202f000\u00a0000元") == units("1 000 000元") == ["1000000", "元"]  # narrow and no-break spaces
    assert units("2021 2022年") == ["2021", "2022", "年"]  # not a digit group: two numbers
    assert units("第3 4名") == ["第", "3", "4", "名"]
    assert units("1,000") == ["1", ",", "000"]  # a comma is a character, not spacing


def test_a_number_matches_across_its_spacing(celab):
    assert celab.score(["共1 000人参加。"], "共1000人参加。").value == pytest.approx(1.0)
    assert celab.score(["共1000人参加。"], "共 1 000 人参加。").value == pytest.approx(1.0)


def test_cilin_synonym_groups():
    same, related = word_groups("cilin="), word_groups("cilin=#")
    assert set(same["伞"]) & set(same["雨伞"])  # group Bp34A01=
    assert word_groups("none") == {}
    assert 40000 < len(same) < len(related)
    assert set(same) <= set(related)
    with pytest.raises(ValueError, match="unknown synonym source"):
        word_groups("wordnet")


def test_running_example_in_characters_at_each_stage(celab):
    ref, cand = celab.side(REF), celab.side(CAND)
    found = links(ref, cand)
    assert found == {((0, 1), (0, 1)), ((2, 3), (1, 2)), ((1, 3), (1, 2))}  # 买-买, 伞-伞, 雨伞-伞
    plain = CoveredProblem.from_links(3, 2, found, phrases=False)
    assert plain_matching(plain) / 6 == pytest.approx(2 / 6) and plain_matching(plain) / 3 == pytest.approx(2 / 3)
    assert plain_matching(celab.problem(ref, cand)) == pytest.approx(3)  # 买雨伞-买伞 by phrase matching
    score = celab.score([REF], CAND)
    assert score.value == pytest.approx(1.0) and score.recall == pytest.approx(1.0)
    without = get_metric("tesla-celab-nocilin").score([REF], CAND)
    assert without.value < 0.5  # 买 and 伞 alone: recall 2/6, precision 2/3 once covered
    assert without.recall == pytest.approx(2 / 6) and without.precision == pytest.approx(2 / 3)


# The paper's Table 4 (IWSLT 2008 samples): each reference and candidate ends with a punctuation
# character the paper counts and matches ("周。 = 星期。" is one of its n-gram matches).

def test_table4_next_week_matches_punctuation_ngrams(celab):
    ref, cand = celab.side("下周。"), celab.side("下星期。")
    assert ref.units == ("下", "周", "。") and cand.units == ("下", "星", "期", "。")
    problem = celab.problem(ref, cand)
    linked = {(tuple(problem.ref_spans[i]), tuple(problem.cand_spans[j])) for i, j in problem.edges}
    assert ((1, 3), (1, 4)) in linked  # 周。 = 星期。 (Cilin 周 = 星期, then 。 = 。)
    assert ((0, 3), (0, 4)) in linked  # 下周。 = 下星期。
    assert celab.score(["下周。"], "下星期。").value == pytest.approx(1.0)
    # without its final 。 the candidate misses a character of the reference
    assert celab.score(["下周。"], "下星期").value < 1.0


def test_table4_daughter_by_hand(celab):
    """我有一个女儿。 against 我有一闺女。 (Cilin: 女儿 = 闺女; 一个 = 一 is not in it). Matches
    我有一 = 我有一 and 女儿。 = 闺女。. Reference: 7 units, 7 + 6 + 5 + 4 = 22 n-grams (n <= 4), the
    10 holding 个 uncovered -> 12; candidate: 6 units, 18 n-grams, the 6 crossing 一|闺 uncovered
    -> 12; score (12 + 0.25 * 12) / (22 + 0.25 * 18) = 15 / 26.5."""
    score = celab.score(["我有一个女儿。"], "我有一闺女。")
    assert score.recall == pytest.approx(12 / 22) and score.precision == pytest.approx(12 / 18)
    assert score.value == pytest.approx(15 / 26.5)


def test_table4_work_here_by_hand(celab):
    """你在这里工作吗？ against 您在这儿上班吗？ (Cilin: 你 = 您, 这 = 这儿; not 这里 = 这儿, not
    工作 = 上班 in the = groups). Matches 你在这 = 您在这儿 and 吗？ = 吗？. Reference 8 units, 26
    n-grams, covered 6 + 3 = 9; candidate 26 n-grams, covered 10 (inside 您在这儿) + 3 = 13;
    score (9 + 0.25 * 13) / (26 + 0.25 * 26)."""
    score = celab.score(["你在这里工作吗？"], "您在这儿上班吗？")
    assert score.recall == pytest.approx(9 / 26) and score.precision == pytest.approx(13 / 26)
    assert score.value == pytest.approx(12.25 / 32.5)


def test_identical_text_scores_one_and_disjoint_text_zero(celab):
    assert celab.score(["政府不能为此道歉。"], "政府不能为此道歉。").value == pytest.approx(1.0)
    assert celab.score(["政府不能为此道歉。"], "明天下雨").value == 0.0


def test_several_references_are_averaged(celab):
    refs = ("我去商店买了一把雨伞。", "我到商店去买了把伞。")
    cand = "我去商店买了一把伞。"
    both = celab.score(refs, cand)
    single = [celab.score([r], cand) for r in refs]
    assert both.value == pytest.approx(np.mean([s.value for s in single]))
    assert both.recall == pytest.approx(np.mean([s.recall for s in single]))
    assert single[0].value > single[1].value  # the closer reference counts more, but not alone


def test_corpus_score_is_the_mean_of_segments(celab):
    items = [Item("我去商店买了一把伞。", ("我去商店买了一把雨伞。",)), Item("明天下雨", ("今天下雪了",))]
    values = [r.value for r in celab.score_batch(items)]
    assert celab.corpus_score(items).value == pytest.approx(np.mean(values))


def test_bad_and_non_chinese_input(celab):
    items = [Item("   ", (REF,), id="blank"), Item("！！！", (REF,), id="punct"),
             Item("He bought an umbrella.", (REF,), id="english"), Item(CAND, ("。。",), id="punct-ref"),
             Item(CAND, (REF,), id="fine"), Item("买伞。", ("买伞。。",), id="punct-only-match")]
    results = celab.score_batch(items)
    assert [r.ok for r in results] == [True, True, False, True, True, True]
    assert results[0].value == 0.0 and any(n.startswith("empty") for n in results[0].notes)
    assert results[1].value == 0.0 and results[1].notes[0].startswith("non-chinese")  # punctuation: units, no match
    assert "candidate: 100% of letters are not Han script" in results[2].message  # English: refused
    assert results[3].value == 0.0 and results[3].notes == ("non-chinese: reference 1 has no Chinese characters",)
    assert results[4].value == pytest.approx(1.0) and not results[4].notes
    assert 0.5 < results[5].value < 1.0  # the second 。 of the reference is unmatched
    with pytest.raises(InputError):
        celab.score(["  "], CAND)


def test_signature_names_the_dictionary_and_parameters():
    sig = str(get_metric("tesla-celab").signature())
    assert sig.startswith("tesla-celab|syn:cilin=|f:0.25|n:4|tok:zh-chars|cilin:") and "research use" in sig
    nocilin = get_metric("tesla-celab-nocilin")
    assert nocilin.name == "tesla-celab-nocilin" and "cilin:" not in str(nocilin.signature())
    assert "syn:cilin=#" in str(TeslaCelab(synonyms="cilin=#").signature())
    for bad in ({"synonyms": "hownet"}, {"f": 0.0}, {"max_n": 0}):
        with pytest.raises(ValueError):
            TeslaCelab(**bad).validate()


def test_related_groups_only_add_links():
    ref, cand = "他是一个好人", "他是一个良民"
    assert TeslaCelab(synonyms="cilin=#").score([ref], cand).value >= TeslaCelab().score([ref], cand).value


def test_mteval_score_en_zh_on_the_demo(capsys):
    from mteval.cli import main

    demo = Path(__file__).resolve().parents[2] / "data" / "demo" / "mt-zh"
    code = main(["score", "-l", "en-zh", "-m", "tesla-celab", "-m", "bleu", "--format", "tsv",
                 "-r", str(demo / "ref.A.zh"), "-r", str(demo / "ref.B.zh"),
                 "-i", str(demo / "system-a.zh"), str(demo / "system-b.zh")])
    assert code == 1  # system-b's last line is English: an error record for TESLA-CELAB
    captured = capsys.readouterr()
    head, *rows = [line.split("\t") for line in captured.out.splitlines()]
    assert head[:3] == ["system", "tesla-celab", "bleu"]
    corpus = {row[0]: row[1:] for row in rows}
    assert float(corpus["system-a.zh"][0]) > 0.5 and corpus["system-b.zh"][0] == ""
    assert float(corpus["system-a.zh"][1]) > float(corpus["system-b.zh"][1]) > 0
    assert "tesla-celab|syn:cilin=" in captured.err and "bleu|tok:zh" in captured.err


def test_link_limit_gives_an_error_record_naming_it(celab):
    from mteval.celab.metric import MAX_LINKS, link_count

    demo = Path(__file__).resolve().parents[2] / "data" / "demo" / "mt-zh"
    lines = [line for f in ("ref.A.zh", "ref.B.zh", "system-a.zh")
             for line in (demo / f).read_text("utf-8").splitlines()]
    for a in lines:
        for b in lines:
            assert link_count(celab.side(a), celab.side(b)) >= len(links(celab.side(a), celab.side(b)))
    many = "的" * 130  # 130 x 130 = 16,900 links of one character
    results = celab.score_batch([Item(CAND, (REF,), id="fine"), Item(many, (many,), id="repeated")])
    assert results[0].ok and results[0].value == pytest.approx(1.0)
    assert not results[1].ok and results[1].item == "repeated"
    assert f"16,900 links > {MAX_LINKS:,}" in results[1].message
