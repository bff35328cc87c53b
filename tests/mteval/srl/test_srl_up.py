"""The Universal PropBank reader on inline CoNLL-U: both layouts, document ids, gold frames and
filler spans, and errors that name the line."""

import pytest

from mteval.srl.up import filler_span, kind_of, normalise_label, parse_up

# EWT layout: 10 UD columns, predicate column, one argument column per predicate
EWT = """\
# newdoc id = doc-a
# sent_id = doc-a-0001
# text = John gave Mary a book.
1\tJohn\tJohn\tPROPN\tNNP\t_\t2\tnsubj\t2:nsubj\t_\t_\tARG0
2\tgave\tgive\tVERB\tVBD\t_\t0\troot\t0:root\t_\tgive.01\tV
3\tMary\tMary\tPROPN\tNNP\t_\t2\tiobj\t2:iobj\t_\t_\tARG2
4\ta\ta\tDET\tDT\t_\t5\tdet\t5:det\t_\t_\t_
5\tbook\tbook\tNOUN\tNN\t_\t2\tobj\t2:obj\tSpaceAfter=No\t_\tARG1
6\t.\t.\tPUNCT\t.\t_\t2\tpunct\t2:punct\t_\t_\t_

# sent_id = doc-a-0002
# text = retiring jurists sleep
1\tretiring\tretire\tVERB\tVBG\t_\t2\tamod\t2:amod\t_\tretire.01\tV\t_
2\tjurists\tjurist\tNOUN\tNNS\t_\t3\tnsubj\t3:nsubj\t_\t_\tARG0\tARG0
3\tsleep\tsleep\tVERB\tVBP\t_\t0\troot\t0:root\t_\tsleep.01\t_\tV

# propbank = no-up
# newdoc id = doc-b
# sent_id = doc-b-0001
# text = unique gifts
1\tunique\tunique\tADJ\tJJ\t_\t2\tamod\t2:amod\t_=\t\t
2\tgifts\tgift\tNOUN\tNNS\t_\t0\troot\t0:root\t_=\t\t
"""

# UP 1.0 layout (German/French/Chinese files): 8 UD columns, Y flag, roleset, arguments
UP1 = """\
# sent_id dev-s2/de
1\tIch\tich\tPRON\tPPER\t_\t2\tnsubj\t_\t_\tA0
2\thatte\thaben\tVERB\tVAFIN\t_\t0\troot\tY\thave.03\t_
3\tZeit\tZeit\tNOUN\tNN\t_\t2\tdobj\t_\t_\tA1
4\theute\theute\tADV\tADV\t_\t2\tadvmod\t_\t_\tAM-TMP
"""


def test_ewt_layout_tokens_frames_and_documents():
    sents = parse_up(EWT.splitlines(keepends=True))
    assert [s.doc_id for s in sents] == ["doc-a", "doc-a", "doc-b"]
    first = sents[0]
    assert first.words == ("John", "gave", "Mary", "a", "book", ".")
    assert first.heads == (1, -1, 1, 4, 1, 1)
    assert first.lemmas[1] == "give" and first.xpos[1] == "VBD" and first.deprels[2] == "iobj"
    assert first.space_after == (True, True, True, True, False, True)
    (frame,) = first.framed().frames
    assert (frame.predicate, frame.lemma, frame.kind) == (1, "give", "verbal")
    assert [(a.role, a.head, a.span) for a in frame.arguments] == [
        ("ARG0", 0, (0, 1)), ("ARG2", 2, (2, 3)), ("ARG1", 4, (3, 5))]
    assert sents[2].annotated is False and sents[2].predicates == ()
    assert sents[0].annotated and sents[0].text == "John gave Mary a book."


def test_argument_dominating_its_predicate_leaves_the_predicate_out():
    sent = parse_up(EWT.splitlines())[1]
    retire, sleep = sent.framed().frames
    assert retire.arguments[0].span == (1, 2)  # "jurists", without "retiring"
    assert sleep.arguments[0].span == (0, 2)  # "retiring jurists"


def test_up1_layout_normalises_labels_and_uses_sentence_as_document():
    (sent,) = parse_up(UP1.splitlines())
    assert sent.sent_id == "dev-s2/de" and sent.doc_id == "dev-s2/de"
    (pred,) = sent.predicates
    assert pred.roleset == "have.03" and pred.lemma == "have"
    assert pred.arguments == ((0, "ARG0"), (2, "ARG1"), (3, "ARGM-TMP"))


def test_labels_and_kinds():
    assert normalise_label("A0") == "ARG0"
    assert normalise_label("AM-TMP") == "ARGM-TMP"
    assert normalise_label("R-AM-LOC") == "R-ARGM-LOC"
    assert normalise_label("C-A1") == "C-ARG1"
    assert normalise_label("ARG1") == "ARG1"
    assert [kind_of(t) for t in ("VERB", "AUX", "NOUN", "ADJ", "ADP")] == [
        "verbal", "verbal", "nominal", "adjectival", "other"]


def test_filler_span_is_the_contiguous_subtree():
    # 0 <- 1 -> 2 -> 3 ; head 1 is the root
    assert filler_span([1, -1, 1, 2], 2, 1) == (2, 4)
    assert filler_span([1, -1, 1, 2], 1, 3) == (0, 2)


@pytest.mark.parametrize("text, line, message", [
    ("1\ta\ta\tX\tX\t_\tx\tdep\t_\t_\t_\n", 1, "head 'x'"),
    ("1\ta\ta\tX\tX\t_\t9\tdep\t_\t_\t_\n", 1, "outside the sentence"),
    ("1\ta\ta\tX\tX\t_\t0\troot\t_\t_\tv.01\tV\n2\tb\tb\tX\tX\t_\t1\tdep\t_\t_\t_\n", 2, "argument columns"),
    ("1\ta\ta\tX\n", 1, "columns"),
    ("2\ta\ta\tX\tX\t_\t0\troot\t_\t_\t_\n", 1, "out of sequence"),
])
def test_malformed_lines_name_the_line(text, line, message):
    with pytest.raises(ValueError, match=f"^x.conllu:{line}: .*{message}"):
        parse_up(text.splitlines(), source="x.conllu")
