"""BEER (Stanojevic & Sima'an, EMNLP 2014): a learned sentence-level MT metric over dense adequacy
and permutation-tree word-order features."""
