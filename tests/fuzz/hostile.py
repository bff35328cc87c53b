"""Hypothesis strategies for hostile input: texts from every Unicode category (format and control
characters, odd spaces, line separators other than ``\\n``, surrogate escapes that become
undecodable bytes), empty, whitespace-only and huge lines, and files in the encodings and line
ends users really send (UTF-8 with a BOM, UTF-16 with and without one, latin-1, CRLF, CR, no final
newline).

A file is a JSON-able *spec* (``{"lines", "enc", "eol", "final"}`` or ``{"raw"}``), so a failing
case can be saved and replayed; :func:`encode_file` turns it into bytes and :func:`canonical`
into the plain UTF-8 file that means the same text, the file a hostile one is compared with.
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

#: words that references and candidates share, so scores are not all zero
VOCAB = ("the", "council", "approved", "budget", "on", "Monday", "a", "cat", "sat", "mat", "of", "and", "is",
         "was", "in", "to", "report", "said", "new", "city", "minister", "people", "year", "after", "vote",
         "water", "price", "rose", "sharply", "yesterday", ".", ",")
#: tokens a careless reader trips on: other scripts, combining marks, format characters (Cf),
#: odd spaces (Zs), digits that are not ASCII, ligatures, markup, characters that split lines
#: for ``str.splitlines`` but not for ``split("\n")``, and C0/C1 controls
ODD = ("café", "naïve", "Straße", "東京", "موافقة", "Ελλάδα", "😀", "e\u0301", "\u0301", "\u200b", "\u200e",
       "\u202e", "\u2066", "\ufeff", "\u00ad", "\u00a0", "\u3000", "\u2009", "１２３", "ﬁ", "İ", "ǅ", "٣",
       "\U0001d7d1", "<b>", "&amp;", '"', "'", "\\", "|", "...", "\u2028", "\u2029", "\x85", "\x0b", "\x0c",
       "\x1c", "\x1e", "\x00", "\x1b[31m", "\x7f", "\x9b", "\t", "\ufffd", "\U0010fffd", "\ue000")
#: lone surrogates as ``surrogateescape`` makes them: written as UTF-8 they become undecodable bytes
SURROGATE_ESCAPES = ("\udc80", "\udce9", "\udcff", "\udcc3")
#: the characters the suite strips before scoring (README, "Bad input")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
SPACES = (" ", "  ", "\t", "\u00a0", "\u3000", " \u200b ")
#: encodings a file may come in; the first two are UTF-8, the rest foreign to a UTF-8 reader
ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "latin-1")
UTF8 = ("utf-8", "utf-8-sig")

any_char = st.characters(exclude_categories=["Cs"], exclude_characters="\n\r")


def plain_words(min_size: int = 1, max_size: int = 12) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(VOCAB), min_size=min_size, max_size=max_size)


@st.composite
def hostile_line(draw, long: bool = False) -> str:
    """One line of text (no ``\\n`` or ``\\r``): mostly words with odd tokens and separators,
    sometimes empty, blank, control characters only, random characters, or very long."""
    kind = draw(st.sampled_from(["words"] * 6 + ["odd", "empty", "blank", "control", "random", "escape"]
                                + (["long"] if long else [])))
    if kind == "empty":
        return ""
    if kind == "blank":
        return draw(st.text(alphabet=" \t\u00a0\u3000\u2009\u200b", min_size=1, max_size=6))
    if kind == "control":
        return draw(st.text(alphabet="\x00\x01\x07\x0b\x0c\x1b\x1f\x7f\x85\x9f", min_size=1, max_size=4))
    if kind == "random":
        return draw(st.text(alphabet=any_char, min_size=1, max_size=30))
    if kind == "long":
        return " ".join(draw(plain_words(3, 6)) * draw(st.integers(300, 600)))
    tokens = draw(st.lists(st.one_of(st.sampled_from(VOCAB), st.sampled_from(VOCAB), st.sampled_from(ODD))
                           if kind == "odd" else st.sampled_from(VOCAB), min_size=1, max_size=14))
    if kind == "escape":
        tokens.insert(draw(st.integers(0, len(tokens))), draw(st.sampled_from(SURROGATE_ESCAPES)))
    out = tokens[0]
    for token in tokens[1:]:
        out += draw(st.sampled_from(SPACES if kind == "odd" else (" ",) * 5 + SPACES)) + token
    return out


@st.composite
def file_spec(draw, lines: st.SearchStrategy[list[str]] | None = None, raw: bool = True) -> dict:
    """A text file: hostile lines in an encoding with line ends, or (rarely) random bytes."""
    if raw and draw(st.integers(0, 19)) == 0:
        return {"raw": draw(st.binary(max_size=200)).decode("latin-1")}
    return {"lines": draw(lines if lines is not None else st.lists(hostile_line(), max_size=8)),
            "enc": draw(st.sampled_from(("utf-8",) * 6 + ENCODINGS[1:])),
            "eol": draw(st.sampled_from(("\n",) * 4 + ("\r\n",) * 2 + ("\r",))),
            "final": draw(st.booleans())}


def encode_text(text: str, enc: str) -> bytes:
    """``text`` in ``enc``; lone surrogates become what a careless writer produces (raw bytes in
    UTF-8, unpaired code units in UTF-16, ``?`` in latin-1)."""
    if enc in UTF8:
        return text.encode(enc, "surrogateescape")
    if enc.startswith("utf-16"):
        return text.encode(enc, "surrogatepass")
    return text.encode(enc, "replace")


def encode_file(spec: dict) -> bytes:
    """The bytes of a file spec."""
    if "raw" in spec:
        return spec["raw"].encode("latin-1")
    eol = spec.get("eol", "\n")
    text = eol.join(spec["lines"]) + (eol if spec.get("final", True) and spec["lines"] else "")
    return encode_text(text, spec.get("enc", "utf-8"))


def meant_lines(spec: dict) -> list[str]:
    """The lines a spec's writer meant, as its encoding can carry them, control characters
    stripped (what the suite promises to score) from lines that hold anything else (a line of
    control characters alone stays: junk, not an absent line)."""
    enc = spec.get("enc", "utf-8")
    lines = spec["lines"]
    if enc == "latin-1":
        lines = [_latin1_as_read(line.encode(enc, "replace")) for line in lines]
    return [CONTROL.sub("", line) if CONTROL.sub("", line) else line for line in lines]


def _latin1_as_read(raw: bytes) -> str:
    """What a latin-1 line stands for under the input rule: bytes that are valid UTF-8 as well
    (``Ôª`` is D4 AA, the UTF-8 of U+052A) are UTF-8 text, as every UTF-8 reader takes them; the
    others mean their latin-1 characters (and the suite may refuse the line)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _other_byte_order(spec: dict) -> str | None:
    """The text of a UTF-16 file without byte-order mark that is byte for byte the file of another
    text in the other byte order, else None: every character of the file is U+xx00 (an
    ideographic space alone), so each code unit has its zero byte where the other order's ASCII
    has it, and no reader can tell which the writer meant; the NUL pattern names the other order."""
    enc = spec.get("enc", "utf-8")
    if enc not in ("utf-16-le", "utf-16-be"):
        return None
    data = encode_file(spec)
    text = data.decode(enc, "surrogatepass")
    if not text or not all(ord(ch) <= 0xFFFF and ord(ch) & 0xFF == 0 for ch in text):
        return None
    return data.decode("utf-16-be" if enc == "utf-16-le" else "utf-16-le", "surrogatepass")


def canonical(spec: dict, line_based: bool = False) -> dict | None:
    """The plain file (UTF-8, ``\\n``, final newline, no control characters) that means what
    ``spec`` means; None for random bytes, and for CR-only line ends unless the file is
    ``line_based`` (every line-based reader ends lines at LF, CRLF and CR alike; a text read whole keeps
    its CRs)."""
    if "raw" in spec or (spec.get("eol", "\n") == "\r" and not line_based):
        return None
    swapped = _other_byte_order(spec)
    if swapped is not None:
        return {"lines": meant_lines({"lines": [swapped]}), "enc": "utf-8", "eol": "\n", "final": True}
    lines = meant_lines(spec)
    if not spec.get("final", True) and spec["lines"] and not spec["lines"][-1]:
        lines = lines[:-1]  # "a\n" without a final newline after an empty last line is "a\n"
    return {"lines": lines, "enc": "utf-8", "eol": "\n", "final": True}


def rule_lines(data: bytes) -> list[bytes]:
    """The lines of ``data`` by the input rule's line ends (LF, CRLF, CR), without them; a line end
    closing the data adds no line."""
    parts = re.split(rb"\r\n|\r|\n", data)
    return parts[:-1] if parts and not parts[-1] else parts


def is_foreign(spec: dict) -> bool:
    """Whether a UTF-8 reader cannot read the spec's bytes as they are meant (UTF-16, latin-1)."""
    return "raw" in spec or spec.get("enc", "utf-8") not in UTF8
