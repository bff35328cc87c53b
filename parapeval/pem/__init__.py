"""PEM (Liu, Dahlmeier, Ng 2010): the metric, its features (fluency, target n-grams), its regressor
(``model``, ``rbf_svr``) and its training (``train``)."""

from typing import Any


def __getattr__(name: str) -> Any:
    """Names of the former module ``parapeval.pem`` (now :mod:`parapeval.pem.metric`), deprecated."""
    from evalcore._moved import moved_name

    return moved_name("parapeval.pem", "parapeval.pem.metric", name)
