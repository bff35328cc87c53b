"""Reading summaries to score: TAC/AESOP folders and JSONL (SummEval's release files are read by
:mod:`evalcore.data.summeval`; the item record is :class:`evalcore.data.records.SummaryItem`)."""

from summeval.io.jsonl import read_jsonl
from summeval.io.records import InputError
from summeval.io.tac import read_tac

__all__ = ["InputError", "read_jsonl", "read_tac"]
