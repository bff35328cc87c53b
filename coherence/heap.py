"""Garbage collection confined to the objects a batch creates, so the loaded models are not re-scanned.

A DICOMER batch creates hundreds of thousands of container objects (token layouts, relations,
feature rows) that outlive CPython's young generations; each time enough of them pile up the
collector runs a full collection over the whole heap, which holds spaCy, the parser's and the
ranker's models: about 0.25 s a time, 0.7 ms per summary on a cold run, and none of
that heap can become garbage during a batch. The standard library has no scoped form of
``gc.freeze``, hence this context manager.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: a block of collect_new_objects_only owns the current freeze
_active = False


@contextmanager
def collect_new_objects_only() -> Iterator[None]:
    """Within the block, collections scan only objects created inside it: the heap that exists on
    entry is moved to the permanent generation (``gc.freeze``) and back into the oldest one on exit
    (``gc.unfreeze``; nothing is leaked, cycles among old objects are found by the next full
    collection). Cycles among new objects are still collected during the block. Nothing is done
    when the collector is off or the caller has frozen objects itself (its freeze is left alone,
    and nested blocks are no-ops)."""
    global _active
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    gc.freeze()
    _active = True
    try:
        yield
    finally:
        _active = False
        gc.unfreeze()


def keep_new_objects() -> None:
    """Inside a block of :func:`collect_new_objects_only` (else nothing): the objects made so far
    (a finished batch's results, kept to the end) are left out of the remaining collections too,
    so a long run does not re-scan its growing results; they return on the block's exit."""
    if _active:
        gc.freeze()
