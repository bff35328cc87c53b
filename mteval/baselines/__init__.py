"""The baselines of every MT table: BLEU, chrF, TER (sacrebleu) and METEOR (nltk)."""
