"""The one input rule: invisible characters and NFC before any metric, encodings detected and named
wherever a file is read, an undecodable line costing that line only, binary files refused."""

import codecs
import json
import sys
import unicodedata

import pytest

from evalcore.io.textfiles import (
    CONTROL,
    InputError,
    LineError,
    UnreadableText,
    decode_lines,
    decode_text,
    detect_encoding,
    jsonl_objects,
    read_item_text,
)
from evalcore.metric import Item, ReferenceFreeMetric, Score
from evalcore.metric.inputs import check_text, clean_text


class Words(ReferenceFreeMetric):
    """Number of whitespace-separated words; a neutral value when asked (learned metrics' path)."""

    name = "words"

    def __init__(self, neutral: float | None = None):
        self.neutral = neutral

    def neutral_score(self):
        return None if self.neutral is None else Score(self.neutral)

    def _score_items(self, items):
        return [Score(len(it.candidate.split())) for it in items]


def test_every_format_character_of_this_python_is_removed():
    cf = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]
    assert len(cf) > 150
    assert clean_text("a" + "".join(cf) + "b") == "ab"


@pytest.mark.parametrize("invisible", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e",
                                       "\u200f", "\u202a", "\u202e", "\u2066", "\u2069", "\ufe0f", "\U000e0100",
                                       "\U000e0041", "\u034f", "\u3164"])
def test_invisible_characters_are_removed(invisible):
    assert clean_text(f"coun{invisible}cil") == "council"


def test_nfc_unifies_composed_and_decomposed_spellings_and_keeps_visible_characters():
    assert clean_text("cafe\u0301") == "caf\u00e9"
    assert clean_text("½ ² ﬁ ，") == "½ ² ﬁ ，"  # NFC, not NFKC: visible characters stay
    assert clean_text("tab\tnew\nline\x00\x1b") == "tab\tnew\nline"


def test_text_of_invisible_characters_only_is_empty():
    with pytest.raises(InputError, match="empty .only control or invisible characters"):
        check_text("\u200b\u202e\u202c", "candidate")


def test_a_removed_character_is_noted_on_the_record_and_does_not_cost_the_judgment():
    plain, hidden = Words(neutral=9.0).score_batch(["two words", "two\u200b words\u202e"])
    assert plain.value == hidden.value == 2 and plain.notes == ()
    assert hidden.notes == ("cleaned: candidate: removed 2 invisible characters (U+200B zero width space, ...)",)
    nul = Words().score_batch([Item("a\x00b c", id="f:3")])[0]
    assert nul.value == 2
    assert nul.notes == ("cleaned: candidate: removed 1 control character (U+0000 control character)",)
    assert Words().score_batch(["cafe\u0301 ok"])[0].notes == ("cleaned: candidate: applied NFC",)


def test_encodings_are_detected_and_named():
    text = "Le café était fermé.\nSecond line\n"
    assert detect_encoding(text.encode()).name == "UTF-8"
    assert detect_encoding(codecs.BOM_UTF8 + text.encode()).name == "UTF-8 with BOM"
    for codec, name in (("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")):
        bom = codecs.BOM_UTF16_LE if codec.endswith("le") else codecs.BOM_UTF16_BE
        assert detect_encoding(bom + text.encode(codec)).name == name
        assert decode_lines(bom + text.encode(codec), "f") == ["Le café était fermé.", "Second line"]
        assert detect_encoding(text.encode(codec)).name == f"{name} without BOM"
        assert decode_text(text.encode(codec), "f") == text
    assert decode_text(codecs.BOM_UTF32_LE + text.encode("utf-32-le"), "f") == text
    assert detect_encoding(b"\x00" * 40).name == "binary"
    assert detect_encoding(bytes(range(256)) * 4).name == "binary"


@pytest.mark.parametrize("data", [b"c\x00at\tx\n", b"original\tparaphrase\nThe c\x00at sat.\tA cat sat.\n" * 20],
                         ids=["short", "long"])
def test_one_nul_byte_is_a_control_character_not_a_binary_file(data):
    assert detect_encoding(data).codec == "utf-8"
    last = decode_lines(data, "f")[-1]
    assert isinstance(last, str) and "c\x00at" in last


def test_binary_files_are_refused_naming_them():
    for data in (b"\x00\x00\x00\n", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(32)) * 8):
        with pytest.raises(InputError, match="^scores.bin: binary data"):
            decode_lines(data, "scores.bin")
        with pytest.raises(InputError, match="binary"):
            decode_text(data, "scores.bin")


def test_an_undecodable_line_costs_that_line_only_and_names_file_line_and_encoding():
    lines = decode_lines(b"ok one\n" + "Le café\n".encode("latin-1") + b"ok three\n", "hyp.txt")
    assert lines[0] == "ok one" and lines[2] == "ok three"
    assert isinstance(lines[1], LineError)
    assert lines[1].message.startswith("hyp.txt:2: not valid UTF-8 (byte 0xe9 at byte 6; it looks like latin-1")


def test_a_file_read_as_one_item_is_unreadable_text_not_an_abort(tmp_path):
    (tmp_path / "peer").write_bytes("Le caf\xe9.".encode("latin-1"))
    text = read_item_text(tmp_path / "peer")
    assert isinstance(text, UnreadableText) and "latin-1" in text.reason
    rec = Words().score_batch([Item(text, id=str(tmp_path / "peer"))])[0]
    assert not rec.ok and rec.item == str(tmp_path / "peer") and "candidate: not valid UTF-8" in rec.message
    (tmp_path / "bin").write_bytes(b"\x00" * 64)  # a binary item file costs that item only
    binary = read_item_text(tmp_path / "bin")
    assert isinstance(binary, UnreadableText) and "binary data" in binary.reason
    rec = Words().score_batch([Item(binary, id=str(tmp_path / "bin"))])[0]
    assert not rec.ok and "binary data" in rec.message


def test_jsonl_lines_end_at_newlines_only():
    line = json.dumps({"text": "a\u2028b"}, ensure_ascii=False)
    assert [obj for _, obj in jsonl_objects(line + "\n" + line, "f.jsonl")] == [{"text": "a\u2028b"}] * 2


#: texts of many control characters: lines of controls alone, controls inside text lines (C0, C1,
#: DEL, form feed, escape) and characters of several bytes in UTF-8
CONTROL_HEAVY = ["\x01\x01\x01\nabcd\n", "\x01\x01\x01\nab\x85\x85\x85\x85cd\n", "\x01\x01\x01\n東京東京\n",
                 "a \x1c \x1e \x00\n", "\x1b[31m\n\x0c\n", "\x07\x1b\tthe cat\tA\nthe dog\ta dog\tB\n",
                 "the cat sat on the mat\n\x00\x00\n", "\x1f\x0b\x85\n" + "the council met\n" * 2]


def _verdict(data: bytes) -> bool:
    return detect_encoding(data).codec is None


@pytest.mark.parametrize("text", CONTROL_HEAVY)
def test_binary_test_gives_a_text_one_verdict_whatever_its_encoding_and_line_ends(text):
    """On the old main the share was of bytes with line ends counted: the same lines were binary
    data with LF line ends and text with CRLF, in UTF-8 and not in UTF-16, or the reverse."""
    crlf = text.replace("\n", "\r\n")
    twins = [text.encode(), codecs.BOM_UTF8 + text.encode(), crlf.encode(), text.rstrip("\n").encode(),
             codecs.BOM_UTF16_LE + text.encode("utf-16-le"), codecs.BOM_UTF16_BE + crlf.encode("utf-16-be"),
             codecs.BOM_UTF32_LE + text.encode("utf-32-le")]
    assert len({_verdict(data) for data in twins}) == 1


@pytest.mark.parametrize("text", CONTROL_HEAVY)
def test_removing_control_characters_never_makes_text_binary(text):
    """On the old main a file was text while its twin without the control characters of its text
    lines (what every metric reads) was binary data: C1 controls, form feeds and escapes went
    uncounted, and removing them raised the share of the others."""
    twin = "\n".join(CONTROL.sub("", line) or line for line in text.split("\n"))
    if not _verdict(text.encode()):
        assert not _verdict(twin.encode())


def test_control_characters_are_counted_as_characters_not_bytes():
    assert _verdict("\x01\x01\x01\n東京東京\n".encode())  # 3 of 7 characters (19% of the bytes)
    assert not _verdict(b"\x01\x01\x01\nabcdefg\n")  # 3 of 10 characters: not over 30%
    assert not _verdict(b"\n\r\n\n")  # line ends alone are no control characters


@pytest.mark.parametrize("data,lines",
                         [(b"\x00\n\x00\n", None), (b"\x00\na\n", None), (b"said\n\x00", ["said", "\x00"])],
                         ids=["nul-lines", "nul-line-and-word", "word-and-nul-line"])
def test_a_utf8_file_with_nul_lines_is_not_read_as_utf16(data, lines):
    """On the old main these UTF-8 files read as UTF-16: two empty lines, "\\n愊", "慳摩\\n" (a
    peer's "said" scored as two CJK characters)."""
    if lines is None:
        with pytest.raises(InputError, match="binary data"):
            decode_lines(data, "hyp.txt")
    else:
        assert decode_lines(data, "hyp.txt") == lines
    text = "the council approved the budget\n"
    assert decode_lines(text.encode("utf-16-le"), "f") == decode_lines(text.encode("utf-16-be"), "f") == [text[:-1]]


def test_a_raw_control_character_in_a_json_string_is_read_and_removed_later():
    """On the old main strict JSON refused a line whose string held a raw NUL or escape code (as a
    careless writer leaves it): ``summeval score -i`` stopped the whole run."""
    line = '{"summary": "The \x00cat \x1b[31msat."}'
    ((where, obj),) = jsonl_objects(line + "\n", "s.jsonl")
    assert where == "s.jsonl:1" and clean_text(obj["summary"]) == "The cat [31msat."


def test_utf16le_text_opening_with_a_nul_is_not_utf32():
    """On the old main the UTF-16LE mark and a NUL character read as a UTF-32LE mark: a peer of
    control characters scored as two characters of the supplementary planes."""
    assert detect_encoding("\x00\x1b\x01\x01\n".encode("utf-16")).name == "binary"
    assert decode_text("\x00the cat\n".encode("utf-16"), "f") == "\x00the cat\n"
    assert decode_text(codecs.BOM_UTF32_LE + "the cat\n".encode("utf-32-le"), "f") == "the cat\n"


def test_the_four_bytes_of_the_utf32le_mark_alone_are_a_utf16_nul():
    """FF FE 00 00 and nothing else is "\\x00" in UTF-16 (a NUL file, binary, as its UTF-8 twin)
    rather than an empty UTF-32 text scored as empty (fuzzer, coherence right-number)."""
    assert detect_encoding("\x00".encode("utf-16")).name == "binary"
    assert detect_encoding(b"\x00\n").name == "binary"


def test_a_nul_pattern_decoding_to_private_use_characters_is_not_utf16():
    """``00 0A E9 20 69 73`` (a NUL line, then latin-1 "\xe9 is") has a NUL in every other byte,
    but as UTF-16BE it is a private-use character and a CJK one: binary data, as the same bytes
    with a final newline are (fuzzer, summeval-tac right-number)."""
    assert detect_encoding(b"\x00\n\xe9 is").name == "binary"
    assert detect_encoding(b"\x00\n\xe9 is\n").name == "binary"


def test_an_invalid_byte_near_the_end_of_a_whole_file_is_not_forgiven_as_a_cut_sequence():
    """The sniffer forgives a multi-byte sequence its 64 KiB cut ends, not an invalid byte in the
    last three bytes of a whole file: the file without its final newline (or with a BOM) got the
    UTF-8 verdict while its twin was binary (a fuzz run found the two exiting 1 and 2)."""
    body = b"\x07\x1f\nnew \xe2\x80\x8b , .\napproved yesterday \xff\n\x07"
    for data in (body, body + b"\n", codecs.BOM_UTF8 + body):
        assert detect_encoding(data).name == "binary", data
    cut = b"a" * 65535 + "é".encode()  # the sniffed 64 KiB end inside the last character
    assert detect_encoding(cut).name == "UTF-8"


class AnyWords(Words):
    """Words of any language (its texts are never script-checked against English)."""

    name = "any-words"
    languages = ("*",)
    english = False


class Capped(AnyWords):
    """Words with its own, smaller cap (TER's path: ``max_chars`` on the class)."""

    name = "capped"
    max_chars = 40


KOREAN = "한국어 문장입니다 " * 4  # 40 syllables and spaces in NFC; NFD spells each syllable in 2-3 jamo


@pytest.mark.parametrize("metric", [AnyWords(), Capped()], ids=["general cap", "metric's own cap"])
@pytest.mark.parametrize("twin", [lambda t: unicodedata.normalize("NFD", t),
                                  lambda t: t.replace(" ", " " + "\u200b" * 30)], ids=["NFD", "zero-width padding"])
def test_the_size_cap_counts_the_cleaned_text_so_twins_get_one_verdict(metric, twin):
    from evalcore.metric.inputs import InputLimits

    raw = twin(KOREAN)
    assert len(raw) > 40 and clean_text(raw) == KOREAN and len(KOREAN) == 40
    scored = metric.score_batch([Item(KOREAN), Item(raw)], InputLimits(40))
    assert [r.ok for r in scored] == [True, True]
    assert scored[0].value == scored[1].value
    longer = metric.score_batch([Item(twin(KOREAN + "가"))], InputLimits(40))[0]
    assert not longer.ok and "(41 characters > 40" in longer.message


def test_a_text_accepted_under_one_cap_is_refused_under_a_smaller_one():
    from evalcore.metric.inputs import InputLimits

    text = unicodedata.normalize("NFD", KOREAN)
    assert check_text(text, "r", InputLimits(100)).text == KOREAN
    with pytest.raises(InputError, match=r"r is too long \(40 characters > 39"):
        check_text(text, "r", InputLimits(39))


def test_a_candidate_of_invisible_padding_longer_than_the_cap_is_an_empty_candidate():
    from evalcore.metric.inputs import EMPTY_NOTE, InputLimits

    result = Words().score_batch([Item("\u200b" * 100)], InputLimits(10))[0]
    assert result.ok and EMPTY_NOTE in result.notes


def test_line_ends_never_decide_binary_data_in_bytes_that_are_not_utf8():
    """A fuzz case: bytes that are not UTF-8 with a few control bytes were binary data with LF line
    ends but text with CRLF (the CRs diluted the control share); line ends are left aside."""
    lf = (b"of \xe2\x80\x8b \xc3 yesterday\npeople \xe2\x80\x8b \xe2\x80\xa8\n\x1f\x01\x0b\x0c\n"
          b"\xc2\x85\xc2\x9f\n\xc2\xad \xe2\x80\x8b city\n")
    crlf = lf.replace(b"\n", b"\r\n")
    assert detect_encoding(lf).codec == detect_encoding(crlf).codec
