"""Which metric to trust for paraphrases: every metric scored on a judged paraphrase set and
ranked against the human scores by the leaderboard of ``aesop-eval meta-evaluate``
(:func:`evalcore.cli.meta_evaluate.board`: statistic, resampled interval, significance clusters).

- Twitter-Para (ParaScore release): 761 tweets (the inputs), each with one human reference and
  about nine candidate paraphrases scored 0..1 (overall quality); candidate k of a tweet is
  "system" k, so ``--level item`` correlates within a tweet and ``global`` pools every pair;
  intervals resample tweets (``--resample inputs``), as training splits by source.
- STS-B test: 1,379 sentence pairs with similarity 0..5 (meaning kept: adequacy alone), one
  "system"; no reference, so only the metrics that read (original, paraphrase) apply.

A metric whose smaller values are better (TER, self-BLEU) is negated, so every metric is read as
"higher = better paraphrase"; PEM's components are rows of their own. An item a metric cannot
score is a missing cell, counted on stderr, never dropped unnoticed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from evalcore.metric import Item, Metric

SETS = ("twitter-para", "sts-b")
#: what each set's human score judges
DIMENSIONS = {"twitter-para": "overall", "sts-b": "similarity"}
#: PEM's per-item components shown as metrics of their own (what answers adequacy, fluency, dissimilarity)
PEM_COMPONENTS = ("adequacy", "fluency", "target_ngram_f1")


@dataclass(frozen=True)
class Judged:
    """One judged pair: its input (tweet or pair number), its slot, texts, references, human score."""

    input: str
    system: str
    original: str
    paraphrase: str
    references: tuple[str, ...]
    score: float


def read_set(name: str, data: str | None, max_inputs: int | None = None) -> list[Judged]:
    """The judged pairs of ``name`` (first ``max_inputs`` tweets or pairs when given)."""
    import json

    from evalcore.io.textfiles import read_text
    from parapeval.data import read_sts_test, twitter_para_path

    out: list[Judged] = []
    if name == "sts-b":
        for k, pair in enumerate(read_sts_test(data)[:max_inputs]):
            out.append(Judged(f"pair{k + 1}", "pair", pair.original, pair.paraphrase, (), pair.score))
        return out
    lines = [line for line in read_text(twitter_para_path(data)).split("\n") if line.strip()][:max_inputs]
    for k, line in enumerate(lines):
        rec = json.loads(line)
        refs = (str(rec["reference"]),) if rec.get("reference") else ()
        for j, cand in enumerate(rec["candidates"]):
            out.append(Judged(f"tweet{k + 1}", f"candidate{j + 1}", str(rec["source"]), str(cand["text"]), refs,
                              float(cand["score"])))
    return out


def metric_cells(metrics: Sequence[Metric], judged: Sequence[Judged], score: Callable) -> dict[str, dict]:
    """{metric (and pem.<component>): {(system, input): value}}, negated where lower is better;
    ``score(metrics, items)`` is :func:`evalcore.metric.batch.score_with` configured by the caller."""
    items = [Item(j.paraphrase, j.references, source=j.original, id=f"{j.input}/{j.system}") for j in judged]
    results = score(metrics, items)
    cells: dict[str, dict] = {}
    for m in metrics:
        sign = -1.0 if m.lower_is_better else 1.0
        name = f"-{m.name}" if m.lower_is_better else m.name
        cells[name] = {(j.system, j.input): sign * r[m.name].value for j, r in zip(judged, results) if r[m.name].ok}
        if m.name == "pem":
            for c in PEM_COMPONENTS:
                cells[f"pem.{c}"] = {(j.system, j.input): r["pem"].components[c]
                                     for j, r in zip(judged, results) if r["pem"].ok}
    return cells
