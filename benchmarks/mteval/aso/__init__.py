"""Alternating Structure Optimization (Ando & Zhang 2005, as Liu & Ng 2007 apply it to noun-predicate
semantic role labelling): a scikit-learn multi-task linear learner and the paper's NomBank-style experiment."""
