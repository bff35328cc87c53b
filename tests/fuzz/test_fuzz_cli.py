"""The short fuzzing budget of the command lines (``fuzz-ci`` profile: the same cases on every
run). Each explicit example is the smallest known input of a defect class the fuzzer found."""

import json

from hypothesis import example, given

from tests.fuzz import inputs, meta, mt, names, pairs, summaries
from tests.fuzz.ci import ci, run


def _file(*lines: str, enc: str = "utf-8", final: bool = True, eol: str = "\n") -> dict:
    return {"lines": list(lines), "enc": enc, "eol": eol, "final": final}


@ci(50)
@given(case=mt.score_case())
@example(case={"refs": [_file("the council approved the budget .")],
               "hyps": [_file("the council\u3000approved the budget .", enc="utf-16-le", final=False)],
               "metrics": ["bleu"], "format": "json", "segments": True, "max_chars": None, "stdin": False})
@example(case={"refs": [_file("the council met", "the budget")], "hyps": [_file("\x01\x01\x01", "abcd", eol="\r\n")],
               "metrics": ["bleu"], "format": "json", "segments": True, "max_chars": None, "stdin": False})
@example(case={"refs": [_file("minister cat the", "on the yesterday")],  # latin-1 "Ôª" is the UTF-8 of U+052A
               "hyps": [_file("a\xd4\xaaX", "year\xa0water was", enc="latin-1")],
               "metrics": ["chrf"], "format": "json", "segments": True, "max_chars": None, "stdin": False})
@example(case={"refs": [_file("the council met", "the budget ."),  # an invalid byte in a whole file's last 3 bytes
                        _file("\x07\x1f", "approved yesterday \udcff", "\x07", enc="utf-8-sig", final=False)],
               "hyps": [_file("the council met", "the budget")], "metrics": ["bleu"], "format": "jsonl",
               "segments": True, "max_chars": None, "stdin": True})
def test_mteval_score(case):
    run("mteval-score", case)


@ci(40)
@given(case=mt.stream_case())
@example(case={"refs": [_file("the council approved the budget .")], "ids": "explicit", "stats": False,
               "metric": "bleu",
               "stdin": "9" * 5000 + "\tthe council\n1\tthe council approved\n"})
@example(case={"refs": [_file("the council approved the budget .")], "ids": "explicit", "stats": False,
               "metric": "bleu", "stdin": "\xef\xbb\xbf1\tthe council approved\n"})  # issue 31: a BOM on stdin
def test_mteval_stream(case):
    run("mteval-stream", case)


@ci(40)
@given(case=summaries.tac_case())
@example(case={"models": {"D0001-A.M.100.A.A": _file("The minister said the council met.")},
               "peers": {"D0001-A.M.100.A.1": _file("said", "\x00", final=False)},
               "metrics": ["rouge-1"], "format": "json", "stray": None})
@example(case={"models": {"D0001-A.M.100.A.A": _file("\u2009"), "D1103-C.M.100.A.A": _file("\x01", "", eol="\r")},
               "peers": {"D1103-C.M.100.A.1": _file("The council met.")},
               "metrics": ["rouge-1"], "format": "json", "stray": None})
@example(case={"models": {"D0001-A.M.100.A.A": _file("The council met.")},
               "peers": {"D0001-A.M.100.A.1": _file("\x00\x1b\x01\x01", enc="utf-16")},
               "metrics": ["rouge-1"], "format": "json", "stray": None})
@example(case={"models": {"D0001-A.M.100.A.A": _file("\x00 \x1c \x1e a")},
               "peers": {"D0001-A.M.100.A.1": _file("The council approved the budget.")},
               "metrics": ["rouge-2"], "format": "json", "stray": None})
@example(case={"models": {"D0001-A.M.100.A.A": _file("The council approved the budget on Monday.")},
               "peers": {"D0001-A.M.100.A.1": _file("The council approved the budget."),
                         "D0001-A.M.100.A.2": _file("Le café était fermé. The council met.", enc="latin-1")},
               "metrics": ["rouge-2"], "format": "json", "stray": None})
def test_summeval_tac(case):
    run("summeval-tac", case)


@ci(30)
@given(case=summaries.jsonl_case())
@example(case={"spec": _file(json.dumps({"topic": "D1", "system": "1", "summary": "The council approved\u2028the "
                                                                                  "budget.",
                                         "references": ["The council approved the budget."]}, ensure_ascii=False)),
               "broken": False, "metrics": ["rouge-2"], "format": "jsonl", "stdin": False})
def test_summeval_jsonl(case):
    run("summeval-jsonl", case)


@ci(50)
@given(case=pairs.pairs_case())
@example(case={"spec": _file("original\tparaphrase\tsystem", "The c\x00at sat on the mat.\tA cat sat on the mat.\tA",
                             "The council met.\tThe council met.\tB"),
               "jsonl": False, "format": "jsonl", "system_field": True, "stdin": False})
@example(case={"spec": _file("\x01\x01\x01", "a\tb", eol="\r\n"), "jsonl": False, "format": "json",
               "system_field": False, "stdin": False})
@example(case={"spec": _file('"a string"', '{"original": "the", "paraphrase": "approved \\udcc3"}',
                             '{"original": "", "paraphrase": "\\u00a0", "system": 3}', final=False),
               "jsonl": True, "format": "tsv", "system_field": True, "stdin": True})
@example(case={"spec": _file("\t", '{"original": "a cat", "paraphrase": '), "jsonl": True, "format": "json",
               "system_field": False, "stdin": True})
@example(case={"spec": {"lines": ["\t", '{"original": "a cat", "paraphrase": "the cat"}'], "enc": "utf-16", "eol": "\r",
                        "final": False}, "jsonl": True, "format": "jsonl", "system_field": True, "stdin": True})
@example(case={"spec": _file("\t", "}", eol="\r", final=False), "jsonl": True, "format": "table",  # stdin: TSV
               "system_field": True, "stdin": True})
def test_parapeval_score(case):
    run("parapeval-score", case)


@ci(30)
@given(case=summaries.coherence_case())
@example(case={"texts": [_file("The council approved the budget.\u3000It met on Monday.", enc="utf-16-le",
                               final=False)],
               "format": "json", "stdin": False, "max_chars": None})
@example(case={"texts": [_file("\x01\x01\x01", "abcd", eol="\r\n")], "format": "json", "stdin": False,
               "max_chars": None})
@example(case={"texts": [_file("council report rose vote city was in vote city . people new.", eol="\r\n",
                               final=False)],
               "format": "json", "stdin": False, "max_chars": 60})
def test_coherence_score(case):
    run("coherence-score", case)


_ROW = json.dumps({"topic": "D1", "system": "B", "summary": "the council met", "references": ["the council met today"]})


@ci(30)
@given(case=inputs.read_once_case())
@example(case={"command": "summeval", "files": [_file(_ROW, _ROW.replace("D1", "D3"), eol="\r")], "n_refs": 0,
               "deliveries": ["file"], "dup": None, "change": {"file": 0, "when": "during", "how": "truncate"},
               "format": "json", "segments": False})  # the cut line was met as invalid JSON, not as the change
@example(case={"command": "mteval", "files": [_file("the council met", "the budget", enc="utf-16-le", final=False),
                                              _file("the council met", "a budget")], "n_refs": 1,
               "deliveries": ["file", "fifo"], "dup": None, "change": {"file": 0, "when": "during", "how": "truncate"},
               "format": "table", "segments": False})  # the cut UTF-16 file was met as binary data
@example(case={"command": "mteval", "files": [_file("the council met"), _file("the council met")], "n_refs": 1,
               "deliveries": ["stdin", "file"], "dup": 0, "change": None, "format": "json", "segments": False})
@example(case={"command": "mteval", "many": 70, "deliveries": [], "dup": None, "change": None})
@example(case={"command": "summeval", "files": [_file(_ROW, _ROW.replace("D1", "D3"), eol="\r")], "n_refs": 0,
               "deliveries": ["file"], "dup": None, "change": {"file": 0, "when": "between", "how": "edit"},
               "format": "tsv", "segments": False})  # an edit keeping size and time: the TSV head was out first
def test_read_once(case):
    run("read-once", case)


@ci(40)
@given(case=names.names_case())
@example(case={"name": "lines", "package": "mteval"})  # issue 38: a second "lines" column in mteval's TSV
@example(case={"name": "errors", "package": "summeval"})
@example(case={"name": "my\tmetric", "package": "mteval"})
@example(case={"name": "word-overlap", "package": "summeval"})
def test_plugin_names(case):
    run("plugin-names", case)


@ci(40)
@given(case=meta.meta_case())
@example(case={"names": ["m1", "blank"], "human": {"①\td1": "1", "s2\td1": "2", "s10\td1": "3"},
               "scores": {"①\td1": ["0.9999991", "error"], "s2\td1": ["0.9999995", ""], "s10\td1": ["0.9999999", ""]},
               "n": "20", "level": "global", "statistic": "pearson", "format": "json"})  # issue 38: items 8, 9, 11
@example(case={"names": ["ter"], "human": {"s1\tD1²": "3", "s2\tD1²": "1", "s10\tD1²": "2"},
               "scores": {"s1\tD1²": ["0.1"], "s2\tD1²": ["0.9"], "s10\tD1²": ["0.5"]},
               "n": "1000000000000000", "level": "system", "statistic": "kendall-b", "format": "json"})  # item 12
def test_meta_evaluate(case):
    run("meta-evaluate", case)
