"""What the MT metric families share about words: tagging, lemmas and function words
(:mod:`.preprocess`, German by HanTa in :mod:`.german`), WordNet synonym look-ups
(:mod:`.similarity`) and pivot-language phrase tables (:mod:`.bpng_features`)."""
