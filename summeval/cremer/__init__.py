"""CREMER (Lin et al. 2012, section 5): responsiveness as an SVR over TESLA-S and DICOMER: the metric,
its regressor (``model``) and its training (``train``)."""

from typing import Any


def __getattr__(name: str) -> Any:
    """Names of the former module ``summeval.cremer`` (now :mod:`summeval.cremer.model`), deprecated."""
    from evalcore._moved import moved_name

    return moved_name("summeval.cremer", "summeval.cremer.model", name)
