"""From a parsed spaCy doc to RED's tree: punctuation dropped, its dependents re-attached to the
nearest kept ancestor, words lowercased, function words by POS (doc built by hand, no parser)."""

import spacy
from spacy.tokens import Doc

from mteval.red.parse import tree_from_doc


def test_punctuation_is_dropped_and_its_dependents_reattached():
    vocab = spacy.blank("en").vocab
    # "Well - The cat sat ." with "Well" (odd but possible) depending on the dash, the dash on "sat"
    doc = Doc(vocab, words=["Well", "-", "The", "cat", "sat", "."], heads=[1, 4, 3, 4, 4, 4],
              deps=["intj", "punct", "det", "nsubj", "ROOT", "punct"],
              pos=["INTJ", "PUNCT", "DET", "NOUN", "VERB", "PUNCT"], tags=["UH", ":", "DT", "NN", "VBD", "."])
    tree = tree_from_doc(doc)
    assert tree.words == ("well", "the", "cat", "sat")
    assert tree.heads == (3, 2, 3, -1)
    assert tree.function == (False, True, False, False)
