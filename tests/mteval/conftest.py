"""Tiny TESLA-B/F resources built once per test session: two toy pivot phrase tables (French and
Chinese, so both pivot lemmatisers run) and two toy KenLM models."""

import pytest

from evalcore.bpng import write_store
from evalcore.resources.lm import train_lm

# English phrase -> (N(e), {pivot phrase: N(e, f)}); the English side as the scorer preprocesses it
# (lowercased, not stemmed: the tables' metadata say stem False)
FR = {
    ("the",): (10, {("le",): 6, ("la",): 4}),
    ("cat",): (5, {("chat",): 5}),
    ("cats",): (3, {("chats",): 3}),
    ("feline",): (2, {("chat",): 1, ("félin",): 1}),
    ("sat",): (4, {("était", "assis"): 3, ("assis",): 1}),
    ("was", "sitting"): (2, {("était", "assis"): 2}),
    ("on",): (8, {("sur",): 8}),
    ("mat",): (3, {("tapis",): 3}),
    ("rug",): (2, {("tapis",): 2}),
    ("dog",): (4, {("chien",): 4}),
    ("barks",): (2, {("aboie",): 2}),
}
ZH = {
    ("the",): (10, {("这",): 3}),
    ("cat",): (5, {("猫",): 5}),
    ("feline",): (2, {("猫",): 2}),
    ("sat",): (4, {("坐",): 4}),
    ("on",): (8, {("在",): 8}),
    ("mat",): (3, {("垫", "子"): 3}),
    ("rug",): (2, {("地", "毯"): 2}),
    ("dog",): (4, {("狗",): 4}),
}
LM_TEXT = ["the cat sat on the mat .", "the dog sat on the rug .", "a cat was sitting on the mat .",
           "the dog barks .", "the feline sat on the rug ."] * 6


def _store(path, entries, pivot):
    rows = [(e, float(n), sorted(((f, float(c)) for f, c in tr.items()), key=lambda fc: -fc[1]))
            for e, (n, tr) in entries.items()]
    return write_store(path, rows, {"signature": f"pt:{pivot}:toy", "pivot": pivot, "stem": "False"})


@pytest.fixture(scope="session")
def toy_tables(tmp_path_factory):
    """pivot -> toy phrase-table file (fr, zh)."""
    root = tmp_path_factory.mktemp("tesla-tables")
    return {"fr": _store(root / "fr.sqlite", FR, "fr"), "zh": _store(root / "zh.sqlite", ZH, "zh")}


@pytest.fixture(scope="session")
def toy_lms(tmp_path_factory):
    """LM name -> toy 3-gram KenLM file (two, as TESLA-F reads two)."""
    root = tmp_path_factory.mktemp("tesla-lms")
    return {"news": train_lm(LM_TEXT, root / "news.arpa", order=3),
            "bible": train_lm(LM_TEXT[::-1][:12], root / "bible.arpa", order=3)}
