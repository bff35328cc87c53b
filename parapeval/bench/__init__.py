"""`parapeval bench`: Twitter-Para cross-validation against baselines, the STS-B adequacy check,
speed and phrase-table build time; writes bench.md and bench.json."""
