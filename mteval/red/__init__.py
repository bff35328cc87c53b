"""RED and REDp (Yu et al., COLING 2014): the reference's dependency n-grams (headword chains and
fixed-floating structures) matched against the unparsed hypothesis; REDp adds stem, WordNet
synonym and pivot-paraphrase matches, a function-word weight and the paper's tuned values."""
