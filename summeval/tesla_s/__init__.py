"""TESLA-S (Lin, Liu, Ng, Kan 2012, section 3): summary content as LP-matched weighted bags of n-grams."""
