"""Reading summaries to score: TAC/AESOP folders, JSONL, and SummEval's release files."""

from summeval.io.jsonl import read_jsonl
from summeval.io.records import InputError, SummaryItem
from summeval.io.summeval_data import read_summeval
from summeval.io.tac import read_tac

__all__ = ["InputError", "SummaryItem", "read_jsonl", "read_summeval", "read_tac"]
