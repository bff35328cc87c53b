"""Notes on texts a summary metric's language cannot read, shared by every summary metric that
takes ``lang`` (TESLA-S, ROUGE): the score stands, and its record says why it may be 0."""

from __future__ import annotations

from collections.abc import Sequence

from evalcore.metric import Item
from evalcore.text.languages import language, script_note, words


def language_notes(items: Sequence[Item], lang: str) -> list[tuple[str, ...]]:
    """Per item, notes on texts a language cannot read: a script that is not ``lang``'s, or no
    word at all (the score is then 0 because nothing could be read, not because nothing matched)."""
    spec = language(lang)
    out = []
    for item in items:
        notes = []
        for role, text in (("candidate", item.candidate), *((f"reference {k + 1}", r)
                                                            for k, r in enumerate(item.references))):
            note = script_note(text, spec)
            if note:
                notes.append(f"{note} ({role})")
            elif text and not words(text, spec):
                notes.append(f"no-words: the {role} has no word of lang={lang}")
        out.append(tuple(notes))
    return out
