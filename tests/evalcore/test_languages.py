"""Text processing per language (evalcore.text.languages): Unicode words in every script, Han and
kana by characters, Snowball stems, stop words, and a note for a text in another script."""

import unicodedata

import pytest

from evalcore.metric import Item, ReferenceMetric, Score
from evalcore.metric.inputs import clean_text
from evalcore.text.languages import LANGUAGES, LanguageTokenizer, language, reader, script_note, stop_words, words


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


def test_a_text_in_another_script_gets_a_note():
    assert script_note("我们今天去北京", language("de")).startswith("script: 100% of letters are not Latin")
    assert script_note("Путин заявил", language("ru")) == ""
    assert script_note("12 345", language("ru")) == ""  # no letters: nothing to judge


def test_every_language_names_its_parts_and_has_a_working_stemmer_and_list():
    for code, lang in LANGUAGES.items():
        fields = lang.describe(stem=True)
        assert fields["lang"] == code and fields["syn"] == "none"
        assert (fields["stem"] == "no") == (lang.snowball is None)
        assert (fields["sw"] == "none") == (lang.stop_words is None)
        assert lang.snowball or lang.stop_words, code
        if lang.stop_words:
            assert len(stop_words(lang)) >= 40, code


def test_an_unsupported_language_is_refused_naming_the_supported_ones():
    with pytest.raises(ValueError, match="'th' is not supported.*supported: en, ar"):
        language("th")


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
