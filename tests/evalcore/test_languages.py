"""Text processing per language (evalcore.text.languages): Unicode words in every spaced script, Han
and kana by characters, Thai/Lao/Khmer/Burmese by ICU word breaks, Snowball stems, stop words,
case folding (Greek without accents), and the script check."""

import unicodedata

import pytest

from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.metric.inputs import clean_text
from evalcore.text.languages import (
    LANGUAGES,
    LanguageTokenizer,
    language,
    reader,
    script_mismatch,
    stop_words,
    words,
)


def test_russian_words_are_read_stemmed_and_flagged():
    tokens, function = reader("ru", True, True).read("Президент России заявил, что выборы пройдут")
    assert tokens == ["президент", "росс", "заяв", "что", "выбор", "пройдут"]
    assert function == [False, False, False, True, False, False]


def test_chinese_and_japanese_are_read_by_characters_and_latin_runs_stay_whole():
    assert words("我们去北京 iPhone15。", language("zh")) == ["我", "们", "去", "北", "京", "iphone15"]
    assert words("東京タワーに行きました", language("ja"))[:4] == ["東", "京", "タ", "ワ"]


def test_marks_stay_inside_their_word():
    """Devanagari vowel signs and Arabic harakat are marks (\\p{M}), part of the word."""
    assert words("नमस्ते दुनिया", language("hi")) == ["नमस्ते", "दुनिया"]
    assert words("كَتَبَ الوَلَدُ", language("ar")) == ["كَتَبَ", "الوَلَدُ"]


def test_nfd_text_reads_as_its_nfc_twin_after_the_input_rule():
    nfc = "L'été à Zürich"
    nfd = unicodedata.normalize("NFD", nfc)
    assert nfd != nfc
    assert words(clean_text(nfd), language("fr")) == words(nfc, language("fr")) == ["l", "été", "à", "zürich"]
    assert words(nfd, language("fr")) == words(nfc, language("fr"))  # the tokenizer alone too (rouge-score's use)


def test_a_text_in_another_script_is_named():
    assert script_mismatch("我们今天去北京", "de").startswith("100% of letters are not Latin script")
    assert script_mismatch("我们今天去北京", "en").startswith("100% of letters are not Latin script")
    assert script_mismatch("Путин заявил", "ru") == ""
    assert script_mismatch("12 345", "ru") == ""  # no letters: nothing to judge
    assert script_mismatch("我们今天去北京", "xx") == ""  # a code the suite does not know: the metric refuses it


def test_every_language_names_its_parts_and_has_a_working_stemmer_and_list():
    from evalcore.extras import is_installed

    for code, lang in LANGUAGES.items():
        if lang.segmentation == "icu" and not is_installed("segment"):
            continue  # its tok field names the ICU version (test_unspaced_scripts_are_read_by_icu_word_breaks)
        fields = lang.describe(stem=True)
        assert fields["lang"] == code and fields["syn"] == "none" and lang.describe(stem=False)["stem"] == "no"
        assert (fields["stem"] == "no-snowball") == (lang.snowball is None)  # says why the words stay whole
        assert (fields["sw"] == "none") == (lang.stop_words is None)
        assert fields["tok"].endswith("-cf" if lang.accents else "-cf-noacc")
        if lang.stop_words:
            assert len(stop_words(lang)) >= 40, code


@pytest.mark.parametrize("code, text, expected", [
    ("bn", "আমি বাংলায় গান গাই।", ["আমি", "বাংলায়", "গান", "গাই"]),
    ("am", "ሰላም ለዓለም። እንዴት ነህ?", ["ሰላም", "ለዓለም", "እንዴት", "ነህ"]),
    ("ka", "გამარჯობა, მსოფლიო", ["გამარჯობა", "მსოფლიო"]),
])
def test_spaced_scripts_without_a_stemmer_are_read_by_their_words(code, text, expected):
    assert words(text, language(code)) == expected
    assert reader(code, True, True).read(text)[0] == expected  # stem asked for: nothing to stem with


def test_greek_capitals_read_as_their_lowercase_with_tonos():
    greek = language("el")
    assert words("Η ΟΔΟΣ ΠΡΟΣ ΤΗΝ ΑΘΗΝΑ", greek) == words("Η οδός προς την Αθήνα", greek) == \
        ["η", "οδοσ", "προσ", "την", "αθηνα"]
    assert words("ΠΡΩΤΕΪΝΗ", greek) == words("πρωτεΐνη", greek) == ["πρωτεϊνη"]  # the diaeresis stays
    assert words("Straße STRASSE", language("de")) == ["strasse", "strasse"]  # case folding


@pytest.mark.parametrize("code, text, expected", [
    ("th", "สวัสดีครับ วันนี้อากาศดีมาก", ["สวัสดี", "ครับ", "วัน", "นี้", "อากาศ", "ดี", "มาก"]),
    ("lo", "ສະບາຍດີ ມື້ນີ້ອາກາດດີ", ["ສະບາຍດີ", "ມື້ນີ້", "ອາກາດ", "ດີ"]),
    ("km", "សួស្តី ថ្ងៃនេះអាកាសធាតុល្អ", ["សួស្តី", "ថ្ងៃនេះ", "អាកាសធាតុ", "ល្អ"]),
    ("my", "မင်္ဂလာပါ ဒီနေ့ရာသီဥတုကောင်းတယ်", ["မင်္ဂလာ", "ပါ", "ဒီ", "နေ့", "ရာသီဥတု", "ကောင်း", "တယ်"]),
])
def test_unspaced_scripts_are_read_by_icu_word_breaks(code, text, expected):
    icu = pytest.importorskip("icu")
    assert words(text, language(code)) == expected
    assert language(code).describe(False)["tok"] == f"icu{icu.ICU_VERSION}-words-cf"


def test_an_unspaced_script_without_the_segment_extra_is_refused_with_the_install(monkeypatch):
    import evalcore.extras

    monkeypatch.setattr(evalcore.extras, "is_installed", lambda extra: extra != "segment")
    with pytest.raises(ValueError, match=r"Thai \(th\) is written without spaces.*aesop-eval\[segment\]"):
        language("th")


def test_an_unsupported_language_is_refused_naming_the_supported_ones():
    with pytest.raises(ValueError, match="'bo' is not supported.*supported: en, af, am, ar"):
        language("bo")


def test_the_rouge_tokenizer_stems_every_word():
    assert LanguageTokenizer("de", True).tokenize("Die Häuser der Regierung") == ["die", "haus", "der", "regier"]
    assert LanguageTokenizer("de", False).tokenize("Die Häuser") == ["die", "häuser"]


def test_the_docs_language_table_is_the_one_the_code_knows():
    from pathlib import Path

    from evalcore.text.languages import language_table

    page = (Path(__file__).resolve().parents[2] / "docs" / "languages.md").read_text("utf-8")
    shown = page.split("<!-- languages:table -->\n", 1)[1].split("<!-- /languages:table -->", 1)[0]
    assert shown.strip() == language_table()


class _Fixed(ReferenceMetric):
    """Reads English and French alike (no parameter selects the language)."""

    name = "fixed"
    languages = ("en", "fr")

    def _score_items(self, items):
        return [Score(float(len(it.candidate))) for it in items]


class _Chosen(ReferenceMetric):
    """Reads one language at a time, chosen by ``lang``."""

    name = "chosen"
    languages = ("en", "de")
    language_param = "lang"

    def __init__(self, lang: str = "en"):
        self.lang = lang

    def _score_items(self, items):
        return [Score(1.0 if self.lang == "de" else 0.0) for _ in items]


def test_an_item_language_picks_the_reading_or_an_error_record():
    items = [Item("a", ("b",), lang="fr"), Item("a", ("b",), lang="ru"), Item("a", ("b",))]
    fr, ru, none = _Fixed().score_batch(items)
    assert fr.ok and none.ok and not ru.ok and ru.message == "fixed does not read language 'ru': it reads en, fr"
    de, en, other = _Chosen().score_batch([Item("a", ("b",), lang="de"), Item("a", ("b",)),
                                           Item("a", ("b",), lang="fr")])
    assert (de.value, en.value) == (1.0, 0.0) and "lang: read as de (chosen|" in de.notes[0]
    assert not other.ok and "chosen does not read language 'fr'" in other.message
