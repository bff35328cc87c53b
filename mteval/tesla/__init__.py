"""The TESLA family of MT metrics: shared preprocessing, bags of target n-grams, TESLA-M/B/F."""
