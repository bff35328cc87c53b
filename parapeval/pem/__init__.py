"""PEM (Liu, Dahlmeier, Ng 2010): the metric, its features (fluency, target n-grams), its regressor
(``model``, ``rbf_svr``) and its training (``train``)."""
