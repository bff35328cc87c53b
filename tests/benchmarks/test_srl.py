"""The SRL bench's scoring: labelled (predicate, head, role) triples, per predicate kind by gold
UPOS, and the document bootstrap; the majority baseline on a toy training set."""

import numpy as np

from benchmarks.mteval.srl import MajorityBaseline, _counts, _scores
from mteval.srl.features import Parsed
from mteval.srl.up import parse_up

GOLD = """\
# sent_id = d-0001
1\tJohn\tJohn\tPROPN\tNNP\t_\t2\tnsubj\t_\t_\t_\tARG0
2\tgave\tgive\tVERB\tVBD\t_\t0\troot\t_\t_\tgive.01\tV
3\tMary\tMary\tPROPN\tNNP\t_\t2\tiobj\t_\t_\t_\tARG2
4\tbooks\tbook\tNOUN\tNNS\t_\t2\tobj\t_\t_\t_\tARG1
"""
PARSED = Parsed(words=("John", "gave", "Mary", "books"), lemmas=("John", "give", "Mary", "book"),
                tags=("NNP", "VBD", "NNP", "NNS"), pos=("PROPN", "VERB", "PROPN", "NOUN"),
                deps=("nsubj", "ROOT", "dative", "dobj"), heads=(1, -1, 1, 1), sents=(0,) * 4)


def test_counts_score_labelled_heads_per_kind():
    (sent,) = parse_up(GOLD.splitlines())
    # right predicate; ARG0 right, ARG1 labelled ARG2 (wrong), ARG2 missed; one extra predicate
    row = _counts(sent, [(1, [(0, "ARG0"), (3, "ARG2")]), (3, [])])
    assert list(row[:6]) == [1, 2, 1, 1, 2, 3]
    assert list(row[6:9]) == [1, 2, 3]  # verbal
    assert list(row[9:]) == [0, 0, 0, 0, 0, 0]  # nominal, adjectival: no gold, no system triples
    scores = _scores(row[None, :], np.zeros((5, 1), dtype=int))
    assert scores["arguments"]["p"]["value"] == 0.5
    assert abs(scores["arguments"]["r"]["value"] - 1 / 3) < 1e-12
    assert abs(scores["arguments"]["f1"]["value"] - 0.4) < 1e-12
    assert scores["predicates"]["f1"]["value"] == 2 / 3 and scores["arguments"]["gold"] == 3


def test_majority_baseline_learns_paths():
    (sent,) = parse_up(GOLD.splitlines())
    baseline = MajorityBaseline([sent], [PARSED])
    assert baseline.frames(PARSED) == [(1, [(0, "ARG0"), (2, "ARG2"), (3, "ARG1")])]
