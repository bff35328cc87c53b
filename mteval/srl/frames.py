"""Semantic frames as the labeller produces them and MEANT consumes them: a predicate with its
role fillers, per sentence. One type for every source (the suite's labeller, UP gold frames,
HMEANT's human frames, external labellers' CoNLL-U or JSON), so MEANT never sees where they came from."""

from __future__ import annotations

from dataclasses import dataclass

#: predicate kinds (from the predicate's part of speech)
KINDS = ("verbal", "nominal", "adjectival", "other")


@dataclass(frozen=True)
class Argument:
    """One role filler: its PropBank label (ARG0..ARG5, ARGM-*), its head token and the token span
    [start, end) of the whole filler (MEANT compares fillers as phrases)."""

    role: str
    head: int
    span: tuple[int, int]

    def to_json(self) -> dict:
        return {"role": self.role, "head": self.head, "span": list(self.span)}

    @classmethod
    def from_json(cls, data: dict) -> Argument:
        return cls(str(data["role"]), int(data["head"]), (int(data["span"][0]), int(data["span"][1])))


@dataclass(frozen=True)
class Frame:
    """A predicate (token index, lemma, kind) and its arguments, ordered by head position."""

    predicate: int
    lemma: str
    kind: str
    arguments: tuple[Argument, ...] = ()

    def to_json(self) -> dict:
        return {"predicate": self.predicate, "lemma": self.lemma, "kind": self.kind,
                "arguments": [a.to_json() for a in self.arguments]}

    @classmethod
    def from_json(cls, data: dict) -> Frame:
        kind = str(data.get("kind", "other"))
        if kind not in KINDS:
            raise ValueError(f"frame kind must be one of {KINDS}, got {kind!r}")
        return cls(int(data["predicate"]), str(data["lemma"]), kind,
                   tuple(Argument.from_json(a) for a in data.get("arguments", ())))


@dataclass(frozen=True)
class FramedSentence:
    """A tokenised sentence and the frames found in it (possibly none)."""

    tokens: tuple[str, ...]
    frames: tuple[Frame, ...] = ()

    def text_of(self, span: tuple[int, int]) -> tuple[str, ...]:
        """The tokens of a span."""
        return self.tokens[span[0]:span[1]]

    def to_json(self) -> dict:
        return {"tokens": list(self.tokens), "frames": [f.to_json() for f in self.frames]}

    @classmethod
    def from_json(cls, data: dict) -> FramedSentence:
        sentence = cls(tuple(str(t) for t in data["tokens"]), tuple(Frame.from_json(f) for f in data.get("frames", ())))
        n = len(sentence.tokens)
        for frame in sentence.frames:
            if not 0 <= frame.predicate < n:
                raise ValueError(f"predicate index {frame.predicate} outside the sentence ({n} tokens)")
            for arg in frame.arguments:
                if not (0 <= arg.span[0] <= arg.head < arg.span[1] <= n):
                    raise ValueError(f"argument {arg.role}: head {arg.head} / span {arg.span} outside the sentence")
        return sentence
