"""Text preprocessing done once per text: tokenisation, lowercasing, optional Porter stemming
and function-word flags (by closed-class word list, or by spaCy POS tags).

The result, :class:`Doc`, is what every feature extractor reads; scorers cache it by text so
references and model summaries are preprocessed once, not once per candidate.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from evalcore.resources.registry import shipped_file, spacy_pipeline

# Penn-Treebank-like tokens: "do|n't", "team|'s", hyphenated and dotted words kept whole,
# every other non-space character its own token. Works on raw and on pre-tokenised text.
_TOKEN_RE = re.compile(
    r"\w+?(?=n't\b)|n't\b|['’](?:s|re|ve|ll|d|m|t)\b|\w+(?:[-.]\w+|['’](?!(?:s|re|ve|ll|d|m|t)\b)\w+)*|[^\w\s]",
    re.UNICODE,
)
_HAS_WORD_CHAR = re.compile(r"\w", re.UNICODE)

# Universal POS classes that are closed (function words), plus Penn tags spaCy maps elsewhere.
_CLOSED_UPOS = frozenset({"ADP", "AUX", "CCONJ", "SCONJ", "DET", "PART", "PRON", "PUNCT", "SYM"})
_CLOSED_PENN = frozenset({"EX", "MD", "PDT", "POS", "RP", "TO", "WDT", "WP", "WP$"})

FUNCTION_WORD_MODES = ("list", "pos", "none")


def closed_class(pos: str, tag: str) -> bool:
    """Whether a token with Universal POS ``pos`` and fine tag ``tag`` is a function word."""
    return pos in _CLOSED_UPOS or tag in _CLOSED_PENN


#: distinct raw tokens a Preprocessor remembers (emptied when full)
_TOKEN_CACHE = 1_000_000


@functools.lru_cache(maxsize=1)
def function_word_list() -> frozenset[str]:
    """The shipped closed-class word list (``evalcore/wordlists/function_words_en.txt``)."""
    words: set[str] = set()
    for line in shipped_file("evalcore", "wordlists", "function_words_en.txt").read_text("utf-8").splitlines():
        if not line.startswith("#"):
            words.update(line.split())
    return frozenset(words)


@functools.lru_cache(maxsize=1)
def _porter():
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()


@dataclass(frozen=True)
class Doc:
    """A preprocessed text: normalised tokens and, per token, whether it is a function word."""

    tokens: tuple[str, ...]
    function: tuple[bool, ...]

    def __len__(self) -> int:
        return len(self.tokens)


def tokenize(text: str) -> list[str]:
    """Split text into PTB-like tokens (no lowercasing)."""
    return _TOKEN_RE.findall(text)


class Preprocessor:
    """Turns text into a :class:`Doc`; one instance per setting, results cached by text.

    ``function_words``: ``"list"`` (closed-class word list, fast), ``"pos"`` (spaCy POS tags,
    the paper's definition) or ``"none"`` (no discount).
    """

    def __init__(self, lowercase: bool = True, stem: bool = False, function_words: str = "list",
                 cache_size: int = 65536):
        if function_words not in FUNCTION_WORD_MODES:
            raise ValueError(f"function_words must be one of {FUNCTION_WORD_MODES}, got {function_words!r}")
        self.lowercase = lowercase
        self.stem = stem
        self.function_words = function_words
        self.process = functools.lru_cache(maxsize=cache_size)(self._process)
        self._tokens: dict[str, tuple[str, bool]] = {}  # raw token -> token(raw), for "list" and "none"

    def signature(self) -> str:
        """Reproducibility fields for the metric signature."""
        return (f"tok:ptb{'-lc' if self.lowercase else ''}|stem:{'porter' if self.stem else 'no'}"
                f"|fwd:{self.function_words}")

    def __call__(self, text: str) -> Doc:
        return self.process(text)

    def token(self, raw: str) -> tuple[str, bool]:
        """A raw token's normal form (lowercased, stemmed) and whether it is a function word, for
        ``function_words`` "list" or "none", where neither depends on the context (cached)."""
        known = self._tokens.get(raw)
        if known is not None:
            return known
        if self.function_words == "pos":
            raise ValueError("function words by POS depend on the sentence: use the Preprocessor on the text")
        token = raw.lower() if self.lowercase else raw
        function = self.function_words == "list" and (
            token.lower() in function_word_list() or not _HAS_WORD_CHAR.search(token))
        if self.stem and len(token) > 3 and not function:
            token = _porter().stem(token)
        if len(self._tokens) >= _TOKEN_CACHE:
            self._tokens.clear()
        self._tokens[raw] = (token, function)
        return token, function

    def _process(self, text: str) -> Doc:
        if not isinstance(text, str):
            raise TypeError(f"expected text as str, got {type(text).__name__}")
        if self.function_words != "pos":
            known, token = self._tokens, self.token
            pairs = [known[t] if t in known else token(t) for t in tokenize(text)]
            tokens, flags = zip(*pairs) if pairs else ((), ())
            return Doc(tokens, flags)
        raw, function = self._tag(text)
        words = [t.lower() for t in raw] if self.lowercase else list(raw)
        if self.stem:
            stemmer = _porter()
            words = [stemmer.stem(t) if len(t) > 3 and not f else t for t, f in zip(words, function)]
        return Doc(tuple(words), tuple(function))

    @staticmethod
    def _tag(text: str) -> tuple[list[str], list[bool]]:
        """Tokens and closed-class flags from spaCy's tagger (our tokens, spaCy's tags)."""
        nlp = spacy_pipeline(("ner", "parser", "lemmatizer"))
        from spacy.tokens import Doc as SpacyDoc

        words = tokenize(text)
        doc = nlp(SpacyDoc(nlp.vocab, words=words)) if words else []
        return words, [closed_class(t.pos_, t.tag_) for t in doc]
