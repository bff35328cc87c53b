"""Semantic role labelling: frames (predicates and role fillers) for MEANT and the ASO experiment."""
