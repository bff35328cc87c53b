"""BLEU against the original: self-BLEU and iBLEU (Sun and Zhou 2012)."""
