"""The shipped English labeller on hand-labelled sentences, and its defined behaviour on bad input
(empty text, no predicate, non-English text, several sentences in one text)."""

import numpy as np
import pytest

from evalcore.resources.registry import ResourceError
from mteval.srl.labeller import default_labeller
from mteval.srl.model import decode


@pytest.fixture(scope="module")
def labeller():
    return default_labeller("en")


def _frame(sentence, predicate):
    (frame,) = [f for f in sentence.frames if f.predicate == predicate]
    return frame


def _roles(frame):
    return {(a.role, a.head) for a in frame.arguments}


def test_give_has_its_three_core_arguments(labeller):
    (sent,) = labeller.label(["John gave Mary a book."])
    assert sent.tokens == ("John", "gave", "Mary", "a", "book", ".")
    give = _frame(sent, 1)
    assert (give.lemma, give.kind) == ("give", "verbal")
    assert _roles(give) == {("ARG0", 0), ("ARG2", 2), ("ARG1", 4)}
    assert [sent.text_of(a.span) for a in give.arguments] == [("John",), ("Mary",), ("a", "book")]


def test_modifiers_and_prepositional_spans(labeller):
    (sent,) = labeller.label(["The police arrested the man yesterday in Paris."])
    arrest = _frame(sent, 2)
    assert _roles(arrest) == {("ARG0", 1), ("ARG1", 4), ("ARGM-TMP", 5), ("ARGM-LOC", 7)}
    loc = next(a for a in arrest.arguments if a.role == "ARGM-LOC")
    assert sent.text_of(loc.span) == ("in", "Paris")


def test_passive_subject_is_arg1_and_negation(labeller):
    passive, negated = labeller.label(["The book was given to Mary by John.", "She did not eat the cake."])
    assert ("ARG1", 1) in _roles(_frame(passive, 3)) and ("ARG0", 7) in _roles(_frame(passive, 3))
    assert _roles(_frame(negated, 3)) >= {("ARG0", 0), ("ARGM-NEG", 2), ("ARG1", 5)}


def test_nominal_and_adjectival_predicates(labeller):
    noun, adj = labeller.label(["The destruction of the city shocked the world.", "The house is big."])
    destruction = _frame(noun, 1)
    assert destruction.kind == "nominal" and ("ARG1", 4) in _roles(destruction)
    big = _frame(adj, 3)
    assert big.kind == "adjectival" and _roles(big) == {("ARG1", 1)}


def test_bad_input_has_defined_output(labeller):
    empty, blank, no_predicate, german, two = labeller.label(
        ["", "   ", "Hello", "Der Hund bellt laut.", "He will sell his car. She bought it."])
    assert empty.tokens == () and empty.frames == () and blank.tokens == () and blank.frames == ()
    assert no_predicate.tokens == ("Hello",) and no_predicate.frames == ()
    assert german.tokens == ("Der", "Hund", "bellt", "laut", ".")  # read as English: whatever frames it finds
    sell, buy = _frame(two, 2), _frame(two, 7)
    assert all(a.span[1] <= 6 for a in sell.arguments) and all(a.span[0] >= 6 for a in buy.arguments)
    with pytest.raises(TypeError, match="text 1"):
        labeller.label(["fine", None])


def test_languages_without_a_parser_name_what_is_missing():
    with pytest.raises(ResourceError, match="German dependency parser"):
        default_labeller("de")
    with pytest.raises(ResourceError, match="Chinese"):
        default_labeller("zh")
    with pytest.raises(ResourceError, match="labels en"):
        default_labeller("xx")


def test_decode_keeps_each_core_role_once():
    classes = ["ARG0", "ARG1", "ARGM-TMP", "_"]
    scores = np.array([[2.0, 0.5, -1, 0.0],   # token 3: ARG0, sure
                       [1.0, 0.8, -1, 0.0],   # token 5: ARG0 taken -> ARG1
                       [0.5, -1, 0.9, 0.0],   # token 7: ARGM-TMP
                       [-1, -1, -1, 0.0]])    # token 9: none
    assert decode([3, 5, 7, 9], scores, classes) == [(3, "ARG0"), (5, "ARG1"), (7, "ARGM-TMP")]


def test_french_labeller_finds_the_obvious_frame():
    (sent,) = default_labeller("fr").label(["Jean a donné un livre à Marie."])
    donner = _frame(sent, 2)
    assert (donner.lemma, donner.kind) == ("donner", "verbal")
    assert {("ARG0", 0), ("ARG1", 4)} <= _roles(donner)
