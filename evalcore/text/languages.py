"""What the suite knows of each language a lexical metric reads: how its text splits into words,
its Snowball stemmer, its stop-word (function-word) list and its synonym source.

A :class:`Language` names each part as a signature field, so a score says how its text was read.
The parts come from packages: word characters from ``regex`` (Unicode properties: every script's
letters, marks and digits), stemmers from ``snowballstemmer`` (the Snowball project's own
algorithms), stop words from ``stop-words`` (the lists that package ships, its version named).
Every language written with spaces between words is read by its Unicode words (unstemmed where
Snowball has no stemmer for it, and the signature says so). Words are compared case-folded
(``str.casefold``: German "STRASSE" is "straße" folded), Greek also without its accents (the
tonos that capitals never carry). Chinese and Japanese are read by characters: every Han,
Hiragana and Katakana character is a token (TESLA-CELAB's unit for Chinese), so two texts that
share a word share its characters and never score zero for a segmenter's disagreement. Thai,
Lao, Khmer and Burmese, written without spaces between words, are read by ICU's dictionary word
breaks (PyICU, the ``segment`` extra; the ICU version is in the signature) and refused without it.
English is not here: the English metrics keep their own tokenizers (PTB-like for TESLA-S,
rouge-score's for ROUGE), so English numbers and signatures stay as they were.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version

import regex

#: the ``stop-words`` package version whose lists the signatures name
STOP_WORDS_SOURCE = "stop-words"
#: the pip extra whose ICU word breaks read the languages of ``segmentation="icu"``
SEGMENT_EXTRA = "segment"


@dataclass(frozen=True)
class Language:
    """A language as lexical metrics read it.

    ``scripts``: the Unicode scripts of its letters (a text mostly in others is an error record);
    ``segmentation``: ``"words"`` (runs of letters, marks and digits), ``"characters"`` (every
    Han/kana character a token, other runs whole) or ``"icu"`` (ICU's dictionary word breaks);
    ``snowball``: the Snowball algorithm, None where Snowball has none; ``stop_words``: the
    ``stop-words`` list, None where it has none; ``synonyms``: the synonym source (``"none"``: no
    wordnet is used for this language); ``accents``: whether its accents count when words are
    compared (False for Greek: capitals carry no tonos)."""

    code: str
    name: str
    scripts: tuple[str, ...]
    segmentation: str = "words"
    snowball: str | None = None
    stop_words: str | None = None
    synonyms: str = "none"
    accents: bool = True

    @property
    def tokens(self) -> str:
        """The signature's ``tok`` field: the segmentation (ICU's with its version), case-folded
        (``cf``), without accents where they do not count (``noacc``)."""
        unit = f"icu{icu_version()}-words" if self.segmentation == "icu" else f"unicode-{self.segmentation}"
        return f"{unit}-cf" + ("" if self.accents else "-noacc")

    def describe(self, stem: bool) -> dict[str, str]:
        """Signature fields: tokenizer, stemmer (as used with ``stem``; ``no-snowball`` where
        stemming was asked for and Snowball has no stemmer for the language), stop words, synonyms."""
        return {"lang": self.code, "tok": self.tokens,
                "stem": (f"snowball-{self.snowball}" if self.snowball else "no-snowball") if stem else "no",
                "sw": f"{STOP_WORDS_SOURCE}-{version('stop-words')}:{self.stop_words}" if self.stop_words else "none",
                "syn": self.synonyms}


def _lang(code: str, name: str, scripts: str, snowball: str | None = None, stop_words: str | None = None,
          segmentation: str = "words", accents: bool = True) -> Language:
    return Language(code, name, tuple(scripts.split()), segmentation, snowball, stop_words, accents=accents)


#: ISO 639-1 code -> language: every language Snowball stems or ``stop-words`` lists, and the
#: other languages written with spaces between words in a script of their own or a shared one
#: (read by Unicode words, unstemmed, no stop words); Chinese and Japanese by characters; Thai,
#: Lao, Khmer and Burmese by ICU's word breaks (the ``segment`` extra)
LANGUAGES: dict[str, Language] = {lang.code: lang for lang in (
    _lang("af", "Afrikaans", "Latin"),
    _lang("am", "Amharic", "Ethiopic"),
    _lang("ar", "Arabic", "Arabic", "arabic", "arabic"),
    _lang("as", "Assamese", "Bengali"),
    _lang("az", "Azerbaijani", "Latin"),
    _lang("be", "Belarusian", "Cyrillic"),
    _lang("bn", "Bengali", "Bengali"),
    _lang("br", "Breton", "Latin"),
    _lang("bs", "Bosnian", "Latin Cyrillic"),
    _lang("cy", "Welsh", "Latin"),
    _lang("dv", "Dhivehi", "Thaana"),
    _lang("fy", "Western Frisian", "Latin"),
    _lang("gd", "Scottish Gaelic", "Latin"),
    _lang("gl", "Galician", "Latin"),
    _lang("ha", "Hausa", "Latin"),
    _lang("hr", "Croatian", "Latin"),
    _lang("ht", "Haitian Creole", "Latin"),
    _lang("ig", "Igbo", "Latin"),
    _lang("is", "Icelandic", "Latin"),
    _lang("iu", "Inuktitut", "Canadian_Aboriginal"),
    _lang("jv", "Javanese", "Latin"),
    _lang("ka", "Georgian", "Georgian"),
    _lang("kk", "Kazakh", "Cyrillic"),
    _lang("km", "Khmer", "Khmer", segmentation="icu"),
    _lang("kn", "Kannada", "Kannada"),
    _lang("ky", "Kyrgyz", "Cyrillic"),
    _lang("lb", "Luxembourgish", "Latin"),
    _lang("lo", "Lao", "Lao", segmentation="icu"),
    _lang("lv", "Latvian", "Latin"),
    _lang("mg", "Malagasy", "Latin"),
    _lang("mi", "Maori", "Latin"),
    _lang("mk", "Macedonian", "Cyrillic"),
    _lang("ml", "Malayalam", "Malayalam"),
    _lang("mn", "Mongolian", "Cyrillic"),
    _lang("mr", "Marathi", "Devanagari"),
    _lang("mt", "Maltese", "Latin"),
    _lang("my", "Burmese", "Myanmar", segmentation="icu"),
    _lang("or", "Odia", "Oriya"),
    _lang("pa", "Punjabi", "Gurmukhi"),
    _lang("ps", "Pashto", "Arabic"),
    _lang("sd", "Sindhi", "Arabic"),
    _lang("si", "Sinhala", "Sinhala"),
    _lang("sl", "Slovenian", "Latin"),
    _lang("so", "Somali", "Latin"),
    _lang("sq", "Albanian", "Latin"),
    _lang("sw", "Swahili", "Latin"),
    _lang("te", "Telugu", "Telugu"),
    _lang("tg", "Tajik", "Cyrillic"),
    _lang("th", "Thai", "Thai", segmentation="icu"),
    _lang("ti", "Tigrinya", "Ethiopic"),
    _lang("tl", "Tagalog", "Latin"),
    _lang("tt", "Tatar", "Cyrillic"),
    _lang("ug", "Uyghur", "Arabic"),
    _lang("ur", "Urdu", "Arabic"),
    _lang("uz", "Uzbek", "Latin Cyrillic"),
    _lang("xh", "Xhosa", "Latin"),
    _lang("yo", "Yoruba", "Latin"),
    _lang("zu", "Zulu", "Latin"),
    _lang("bg", "Bulgarian", "Cyrillic", None, "bulgarian"),
    _lang("ca", "Catalan", "Latin", "catalan", "catalan"),
    _lang("cs", "Czech", "Latin", "czech", "czech"),
    _lang("da", "Danish", "Latin", "danish", "danish"),
    _lang("de", "German", "Latin", "german", "german"),
    _lang("el", "Greek", "Greek", "greek", "greek", accents=False),
    _lang("eo", "Esperanto", "Latin", "esperanto"),
    _lang("es", "Spanish", "Latin", "spanish", "spanish"),
    _lang("et", "Estonian", "Latin", "estonian"),
    _lang("eu", "Basque", "Latin", "basque"),
    _lang("fa", "Persian", "Arabic", "persian", "persian"),
    _lang("fi", "Finnish", "Latin", "finnish", "finnish"),
    _lang("fr", "French", "Latin", "french", "french"),
    _lang("ga", "Irish", "Latin", "irish"),
    _lang("gu", "Gujarati", "Gujarati", None, "gujarati"),
    _lang("he", "Hebrew", "Hebrew", None, "hebrew"),
    _lang("hi", "Hindi", "Devanagari", "hindi", "hindi"),
    _lang("hu", "Hungarian", "Latin", "hungarian", "hungarian"),
    _lang("hy", "Armenian", "Armenian", "armenian"),
    _lang("id", "Indonesian", "Latin", "indonesian", "indonesian"),
    _lang("it", "Italian", "Latin", "italian", "italian"),
    _lang("ja", "Japanese", "Han Hiragana Katakana", None, "japanese", "characters"),
    _lang("ko", "Korean", "Hangul Han", None, "korean"),
    _lang("lt", "Lithuanian", "Latin", "lithuanian"),
    _lang("ms", "Malay", "Latin", None, "malaysian"),
    _lang("ne", "Nepali", "Devanagari", "nepali"),
    _lang("nl", "Dutch", "Latin", "dutch", "dutch"),
    _lang("no", "Norwegian", "Latin", "norwegian", "norwegian"),
    _lang("pl", "Polish", "Latin", "polish", "polish"),
    _lang("pt", "Portuguese", "Latin", "portuguese", "portuguese"),
    _lang("ro", "Romanian", "Latin", "romanian", "romanian"),
    _lang("ru", "Russian", "Cyrillic", "russian", "russian"),
    _lang("sk", "Slovak", "Latin", None, "slovak"),
    _lang("sr", "Serbian", "Cyrillic Latin", "serbian"),
    _lang("st", "Sesotho", "Latin", "sesotho"),
    _lang("sv", "Swedish", "Latin", "swedish", "swedish"),
    _lang("ta", "Tamil", "Tamil", "tamil"),
    _lang("tr", "Turkish", "Latin", "turkish", "turkish"),
    _lang("uk", "Ukrainian", "Cyrillic", None, "ukrainian"),
    _lang("vi", "Vietnamese", "Latin", None, "vietnamese"),
    _lang("yi", "Yiddish", "Hebrew", "yiddish"),
    _lang("zh", "Chinese", "Han", None, "chinese", "characters"),
)}

#: the scripts of English, for the script check of English text
ENGLISH_SCRIPTS = ("Latin",)


def language_code(text: str) -> str:
    """``text`` when it has the form of an ISO 639-1 code (two lowercase letters), else ValueError:
    the type of the commands' ``--lang`` (a language no metric reads is refused per metric)."""
    if not regex.fullmatch(r"[a-z]{2}", text):
        raise ValueError(f"expected an ISO 639-1 code such as de, got {text!r}")
    return text


def language_or_auto(text: str) -> str:
    """The type of ``summeval score --lang``: an ISO 639-1 code (:func:`language_code`) or ``auto``
    (each summary's language identified by :func:`identify`)."""
    return text if text == "auto" else language_code(text)


#: the pip extra of ``--lang auto``'s language identifier
LANGID_EXTRA = "langid"


def identifier() -> str:
    """The name and version of the language identifier behind ``--lang auto`` (py3langid:
    langid.py's naive Bayes model of 97 languages, shipped in the wheel, offline)."""
    return f"py3langid-{version('py3langid')}"


def identify(text: str) -> str:
    """The ISO 639-1 code of the language py3langid finds for ``text`` (the ``langid`` extra)."""
    from py3langid.langid import classify

    return str(classify(text)[0])


def unstemmed_languages() -> list[str]:
    """The codes of the languages Snowball has no stemmer for (``stem`` leaves their words whole)."""
    return sorted(code for code, lang in LANGUAGES.items() if lang.snowball is None)


def language(code: str) -> Language:
    """The :class:`Language` of an ISO 639-1 code; ValueError naming the supported codes, or the
    install command of the ``segment`` extra for a language read by ICU's word breaks without it."""
    found = LANGUAGES.get(code)
    if found is None:
        raise ValueError(f"language {code!r} is not supported by the suite's lexical text processing; "
                         f"supported: en, {', '.join(sorted(LANGUAGES))}")
    if found.segmentation == "icu":
        from evalcore.extras import install_command, is_installed

        if not is_installed(SEGMENT_EXTRA):
            raise ValueError(f"{found.name} ({code}) is written without spaces between words: it is read by ICU's "
                             f"word breaks, which need the '{SEGMENT_EXTRA}' extra: {install_command(SEGMENT_EXTRA)}")
    return found


@functools.cache
def icu_version() -> str:
    """The version of the ICU library whose word breaks read Thai, Lao, Khmer and Burmese."""
    import icu

    return str(icu.ICU_VERSION)


# Word characters: letters, combining marks (Devanagari vowel signs, Arabic harakat), digits.
_WORDS = regex.compile(r"[\p{L}\p{M}\p{N}]+")
# Han and kana characters one by one; any other run of word characters whole.
_CHARACTERS = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]|(?:(?![\p{Han}\p{Hiragana}\p{Katakana}])"
                            r"[\p{L}\p{M}\p{N}])+")
_LETTER = regex.compile(r"\p{L}")


def fold(text: str, lang: Language) -> str:
    """``text`` as its words are compared: case-folded, in NFC, and without accents (combining
    marks but the diaeresis) for a language whose accents do not count (Greek)."""
    text = text.casefold()
    if text.isascii():
        return text
    if not lang.accents:
        text = "".join(c for c in unicodedata.normalize("NFD", text)
                       if c == _DIAERESIS or not unicodedata.combining(c))
    return unicodedata.normalize("NFC", text)


_DIAERESIS = "\u0308"


def words(text: str, lang: Language) -> list[str]:
    """The case-folded word tokens of ``text`` (:func:`fold`), by the language's segmentation."""
    text = fold(text, lang)
    if lang.segmentation == "icu":
        return _icu_words(text, lang.code)
    pattern = _CHARACTERS if lang.segmentation == "characters" else _WORDS
    return pattern.findall(text)


def _icu_words(text: str, code: str) -> list[str]:
    """The word tokens of ``text`` by ICU's dictionary word breaks for ``code``: every piece
    between two breaks, its runs of word characters kept (punctuation and spaces are no token)."""
    import icu

    breaks = icu.BreakIterator.createWordInstance(icu.Locale(code))
    breaks.setText(text)
    out: list[str] = []
    start = breaks.first()
    for end in breaks:
        out.extend(_WORDS.findall(text[start:end]))
        start = end
    return out


@functools.cache
def _script_pattern(scripts: tuple[str, ...]) -> regex.Pattern:
    return regex.compile("[" + "".join(rf"\p{{Script={s}}}" for s in scripts) + "]")


def scripts_of(code: str) -> tuple[str, ...] | None:
    """The scripts of a language's letters (English: Latin), None for a code the suite does not know."""
    if code == "en":
        return ENGLISH_SCRIPTS
    found = LANGUAGES.get(code)
    return None if found is None else found.scripts


def script_mismatch(text: str, code: str) -> str:
    """Why ``text`` cannot be language ``code`` when most of its letters are in other scripts
    ("" when they are not, the text has no letters, or the code is unknown)."""
    scripts = scripts_of(code)
    if scripts is None or (text.isascii() and "Latin" in scripts):
        return ""
    letters = len(_LETTER.findall(text))
    if not letters:
        return ""
    fitting = len(_script_pattern(scripts).findall(text))
    if fitting >= 0.5 * letters:
        return ""
    return (f"{100 * (1 - fitting / letters):.0f}% of letters are not {'/'.join(scripts)} script, "
            f"the script of lang={code}")


def text_notes(candidate: str, references: Sequence[str], lang: str) -> tuple[str, ...]:
    """Notes on an item's texts in which ``lang`` finds no word at all (a score of 0 then means
    nothing could be read, not that nothing matched); a text in another script never gets here
    (the contract's script check makes it an error record)."""
    spec = language(lang)
    return tuple(f"no-words: the {role} has no word of lang={lang}"
                 for role, text in (("candidate", candidate), *((f"reference {k + 1}", r)
                                                                 for k, r in enumerate(references)))
                 if text and not words(text, spec))


@functools.cache
def stemmer(lang: Language):
    """The Snowball stemmer of ``lang`` (None where Snowball has none); one per process."""
    if lang.snowball is None:
        return None
    import snowballstemmer

    return snowballstemmer.stemmer(lang.snowball)


@functools.cache
def stop_words(lang: Language) -> frozenset[str]:
    """The stop words of ``lang`` from the ``stop-words`` package, folded as words are (:func:`fold`;
    empty where it has none)."""
    if lang.stop_words is None:
        return frozenset()
    from stop_words import get_stop_words

    return frozenset(fold(unicodedata.normalize("NFC", w.strip()), lang) for w in get_stop_words(lang.stop_words)
                     if w.strip())


class WordReader:
    """Tokens of one language under one setting, each raw word's form computed once (cached).

    ``stem``: Snowball-stem (content words only, with ``function_words``; nothing where Snowball
    has no stemmer for the language); ``function_words``: flag stop words (the list) or nothing."""

    def __init__(self, lang: Language, stem: bool, function_words: bool):
        self.lang = lang
        self.stem = stem
        self.function_words = function_words
        self._stop = stop_words(lang) if function_words else frozenset()
        self._stemmer = stemmer(lang) if stem else None
        self._forms: dict[str, tuple[str, bool]] = {}

    def form(self, word: str) -> tuple[str, bool]:
        """A folded word's normal form and whether it is a function word."""
        known = self._forms.get(word)
        if known is None:
            function = word in self._stop
            token = self._stemmer.stemWord(word) if self._stemmer is not None and not function else word
            if len(self._forms) >= 1_000_000:
                self._forms.clear()
            known = self._forms[word] = (token, function)
        return known

    def read(self, text: str) -> tuple[list[str], list[bool]]:
        """Tokens of ``text`` and their function-word flags."""
        pairs = [self.form(w) for w in words(text, self.lang)]
        return [t for t, _ in pairs], [f for _, f in pairs]


@functools.cache
def reader(code: str, stem: bool, function_words: bool) -> WordReader:
    """The process's one :class:`WordReader` per (language, setting)."""
    return WordReader(language(code), stem, function_words)


class LanguageTokenizer:
    """A language's folded word tokens (Snowball-stemmed with ``stem``), as an object with
    rouge-score's tokenizer interface (``tokenize(text) -> list[str]``): ROUGE of another language
    reads the words TESLA-S reads, and rouge-score itself can be given the very same tokenizer."""

    def __init__(self, lang: str, stem: bool):
        self.lang = lang
        self.stem = stem
        self._read = reader(lang, stem, False).read

    def tokenize(self, text: str) -> list[str]:
        return self._read(text)[0]

    def __repr__(self) -> str:
        return f"LanguageTokenizer({self.lang!r}, stem={self.stem})"


def language_table() -> str:
    """The Markdown table of docs/languages.md: every language with its parts (tests keep the page
    equal to it)."""
    rows = ["| code | language | script | tokens | stemmer (with `stem`) | stop words (TESLA-S function words) "
            "| synonyms |", "|---|---|---|---|---|---|---|"]
    units = {"characters": "Han/kana characters, other runs whole", "icu": "ICU word breaks (`segment` extra)",
             "words": "Unicode words"}
    for code, lang in sorted(LANGUAGES.items()):
        tokens = units[lang.segmentation] + ("" if lang.accents else ", accents dropped")
        rows.append(f"| {code} | {lang.name} | {'/'.join(lang.scripts).replace('_', ' ')} | {tokens} "
                    f"| {f'Snowball {lang.snowball}' if lang.snowball else 'none'} "
                    f"| {f'stop-words {lang.stop_words}' if lang.stop_words else 'none'} | {lang.synonyms} |")
    return "\n".join(rows)
