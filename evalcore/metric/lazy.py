"""Lazy resources: what an object builds from its parameters on first use (a model, phrase
tables, a tokenizer), built once per instance and process, and dropped when a parameter that
selects it changes.

``@lazy_resource("model", "tables")`` on a method turns it into a read-only attribute: the first
read builds the value under a lock (threads share one build), later reads return it, and
:func:`reset` (called by :meth:`evalcore.metric.Metric.set_params` with the changed names) drops
it when one of the named parameters changes (no names: any parameter). The value lives in the
instance's ``__dict__`` under ``_lazy_<name>``: a metric pickles its parameters only, so a
resource never travels into a worker process or a Dask task; a worker builds its own.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")

#: the key prefix of built values in an instance's ``__dict__``
PREFIX = "_lazy_"
#: every descriptor, for :func:`_fresh_locks`
_descriptors: list[LazyResource] = []


class LazyResource(Generic[T]):
    """Descriptor: the value of ``build(instance)``, built on first read; see the module doc."""

    def __init__(self, build: Callable[[Any], T], params: frozenset[str]):
        self.build = build
        self.params = params
        self.name = build.__name__
        self.key = PREFIX + self.name
        self.lock = threading.RLock()
        self.__doc__ = build.__doc__
        _descriptors.append(self)

    def __set_name__(self, owner, name: str) -> None:
        self.name = name
        self.key = PREFIX + name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> LazyResource[T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        values = instance.__dict__
        if self.key in values:
            return values[self.key]
        with self.lock:
            if self.key not in values:
                values[self.key] = self.build(instance)
            return values[self.key]

    def __set__(self, instance, value) -> None:
        raise AttributeError(f"{self.name} is built from the parameters; change them with set_params")

    def selected_by(self, changed: Iterable[str]) -> bool:
        """Whether a change of the parameters ``changed`` selects another value."""
        return not self.params or bool(self.params & set(changed))


def lazy_resource(*params: str) -> Callable[[Callable[[Any], T]], LazyResource[T]]:
    """Decorator: the method becomes a :class:`LazyResource` selected by the parameters ``params``
    (none: by every parameter)."""

    def wrap(build: Callable[[Any], T]) -> LazyResource[T]:
        return LazyResource(build, frozenset(params))

    return wrap


def reset(instance, changed: Iterable[str] | None = None) -> None:
    """Drop the built lazy resources of ``instance`` that the parameters ``changed`` select
    (None: all of them)."""
    changed = None if changed is None else set(changed)
    for cls in type(instance).__mro__:
        for attr in vars(cls).values():
            if isinstance(attr, LazyResource) and (changed is None or attr.selected_by(changed)):
                instance.__dict__.pop(attr.key, None)


def _fresh_locks() -> None:
    """A forked child gets unheld locks (a parent thread may hold one while it forks)."""
    for descriptor in _descriptors:
        descriptor.lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_locks)
