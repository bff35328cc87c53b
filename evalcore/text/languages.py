"""What the suite knows of each language a lexical metric reads: how its text splits into words,
its Snowball stemmer, its stop-word (function-word) list and its synonym source.

A :class:`Language` names each part as a signature field, so a score says how its text was read.
The parts come from packages: word characters from ``regex`` (Unicode properties: every script's
letters, marks and digits), stemmers from ``snowballstemmer`` (the Snowball project's own
algorithms), stop words from ``stop-words`` (the lists that package ships, its version named).
Languages written without spaces between words (Chinese, Japanese) are read by characters: every
Han, Hiragana and Katakana character is a token (TESLA-CELAB's unit for Chinese), so two texts
that share a word share its characters and never score zero for a segmenter's disagreement.
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


@dataclass(frozen=True)
class Language:
    """A language as lexical metrics read it.

    ``scripts``: the Unicode scripts of its letters (a text mostly in others gets a note);
    ``segmentation``: ``"words"`` (runs of letters, marks and digits) or ``"characters"``
    (every Han/kana character a token, other runs whole); ``snowball``: the Snowball algorithm,
    None where Snowball has none; ``stop_words``: the ``stop-words`` list, None where it has none;
    ``synonyms``: the synonym source (``"none"``: no wordnet is used for this language)."""

    code: str
    name: str
    scripts: tuple[str, ...]
    segmentation: str = "words"
    snowball: str | None = None
    stop_words: str | None = None
    synonyms: str = "none"

    def describe(self, stem: bool) -> dict[str, str]:
        """Signature fields: tokenizer, stemmer (as used with ``stem``), stop words, synonyms."""
        return {"lang": self.code, "tok": f"unicode-{self.segmentation}-lc",
                "stem": f"snowball-{self.snowball}" if stem and self.snowball else "no",
                "sw": f"{STOP_WORDS_SOURCE}-{version('stop-words')}:{self.stop_words}" if self.stop_words else "none",
                "syn": self.synonyms}


def _lang(code: str, name: str, scripts: str, snowball: str | None = None, stop_words: str | None = None,
          segmentation: str = "words") -> Language:
    return Language(code, name, tuple(scripts.split()), segmentation, snowball, stop_words)


#: ISO 639-1 code -> language; every language Snowball stems or ``stop-words`` lists whose words
#: are separated by spaces, plus Chinese and Japanese by characters
LANGUAGES: dict[str, Language] = {lang.code: lang for lang in (
    _lang("ar", "Arabic", "Arabic", "arabic", "arabic"),
    _lang("bg", "Bulgarian", "Cyrillic", None, "bulgarian"),
    _lang("ca", "Catalan", "Latin", "catalan", "catalan"),
    _lang("cs", "Czech", "Latin", "czech", "czech"),
    _lang("da", "Danish", "Latin", "danish", "danish"),
    _lang("de", "German", "Latin", "german", "german"),
    _lang("el", "Greek", "Greek", "greek", "greek"),
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

#: scripts written without spaces between words that no language here segments (a text in them
#: is refused, not split into sentence-long tokens)
UNSEGMENTED = ("th", "lo", "km", "my")


def language_code(text: str) -> str:
    """``text`` when it has the form of an ISO 639-1 code (two lowercase letters), else ValueError:
    the type of the commands' ``--lang`` (a language no metric reads is refused per metric)."""
    if not regex.fullmatch(r"[a-z]{2}", text):
        raise ValueError(f"expected an ISO 639-1 code such as de, got {text!r}")
    return text


def language(code: str) -> Language:
    """The :class:`Language` of an ISO 639-1 code; ValueError naming the supported codes."""
    found = LANGUAGES.get(code)
    if found is None:
        raise ValueError(f"language {code!r} is not supported by the suite's lexical text processing; "
                         f"supported: en, {', '.join(sorted(LANGUAGES))}")
    return found


# Word characters: letters, combining marks (Devanagari vowel signs, Arabic harakat), digits.
_WORDS = regex.compile(r"[\p{L}\p{M}\p{N}]+")
# Han and kana characters one by one; any other run of word characters whole.
_CHARACTERS = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]|(?:(?![\p{Han}\p{Hiragana}\p{Katakana}])"
                            r"[\p{L}\p{M}\p{N}])+")
_LETTER = regex.compile(r"\p{L}")


def words(text: str, lang: Language) -> list[str]:
    """The lowercased word tokens of ``text`` in NFC (a metric's input rule has normalised it
    already; the check costs one pass where it has)."""
    if not text.isascii() and not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    pattern = _CHARACTERS if lang.segmentation == "characters" else _WORDS
    return pattern.findall(text.lower())


@functools.cache
def _script_pattern(scripts: tuple[str, ...]) -> regex.Pattern:
    return regex.compile("[" + "".join(rf"\p{{Script={s}}}" for s in scripts) + "]")


def script_note(text: str, lang: Language) -> str:
    """A note when most letters of ``text`` are not in ``lang``'s scripts ("" otherwise): the text
    is read, but its words cannot be the language's."""
    letters = len(_LETTER.findall(text))
    if not letters:
        return ""
    fitting = len(_script_pattern(lang.scripts).findall(text))
    if fitting >= 0.5 * letters:
        return ""
    return (f"script: {100 * (1 - fitting / letters):.0f}% of letters are not {'/'.join(lang.scripts)} script, "
            f"the script of lang={lang.code}")


def text_notes(candidate: str, references: Sequence[str], lang: str) -> tuple[str, ...]:
    """Notes on an item's texts that ``lang`` cannot read: a script that is not the language's, or
    no word at all (a score of 0 then means nothing could be read, not that nothing matched)."""
    spec = language(lang)
    notes = []
    for role, text in (("candidate", candidate), *((f"reference {k + 1}", r) for k, r in enumerate(references))):
        note = script_note(text, spec)
        if note:
            notes.append(f"{note} ({role})")
        elif text and not words(text, spec):
            notes.append(f"no-words: the {role} has no word of lang={lang}")
    return tuple(notes)


@functools.cache
def stemmer(lang: Language):
    """The Snowball stemmer of ``lang`` (None where Snowball has none); one per process."""
    if lang.snowball is None:
        return None
    import snowballstemmer

    return snowballstemmer.stemmer(lang.snowball)


@functools.cache
def stop_words(lang: Language) -> frozenset[str]:
    """The lowercased, NFC stop words of ``lang`` from the ``stop-words`` package (empty where it has none)."""
    if lang.stop_words is None:
        return frozenset()
    from stop_words import get_stop_words

    return frozenset(unicodedata.normalize("NFC", w.strip().lower()) for w in get_stop_words(lang.stop_words)
                     if w.strip())


class WordReader:
    """Tokens of one language under one setting, each raw word's form computed once (cached).

    ``stem``: Snowball-stem (content words only, with ``function_words``); ``function_words``:
    flag stop words (the list) or nothing."""

    def __init__(self, lang: Language, stem: bool, function_words: bool):
        self.lang = lang
        self.stem = stem
        self.function_words = function_words
        self._stop = stop_words(lang) if function_words else frozenset()
        self._stemmer = stemmer(lang) if stem else None
        self._forms: dict[str, tuple[str, bool]] = {}

    def form(self, word: str) -> tuple[str, bool]:
        """A lowercased word's normal form and whether it is a function word."""
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
    """A language's lowercased word tokens (Snowball-stemmed with ``stem``), as an object with
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
    rows = ["| code | language | tokens | stemmer (with `stem`) | stop words (TESLA-S function words) | synonyms |",
            "|---|---|---|---|---|---|"]
    for code, lang in sorted(LANGUAGES.items()):
        tokens = "Han/kana characters, other runs whole" if lang.segmentation == "characters" else "Unicode words"
        rows.append(f"| {code} | {lang.name} | {tokens} | {f'Snowball {lang.snowball}' if lang.snowball else 'none'} "
                    f"| {f'stop-words {lang.stop_words}' if lang.stop_words else 'none'} | {lang.synonyms} |")
    return "\n".join(rows)
