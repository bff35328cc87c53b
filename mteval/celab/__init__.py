"""TESLA-CELAB (Liu & Ng, ACL 2012): character-level MT evaluation for Chinese with word-level
synonyms (Cilin) of any length, matched with coverage inside one LP (evalcore.matching.covered)."""
