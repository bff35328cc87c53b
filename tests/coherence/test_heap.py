"""The scoped freeze of coherence.heap: old objects skipped during the block, everything restored after."""

import gc
import weakref

from coherence.heap import collect_new_objects_only, keep_new_objects


class _Node:
    other: "_Node"


def _cycle() -> weakref.ref:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_old_objects_frozen_inside_and_restored_after():
    gc.collect()
    old = _cycle()  # garbage made before the block: only a full collection outside it finds it
    with collect_new_objects_only():
        assert gc.get_freeze_count() > 0
        gc.collect()
        assert old() is not None
        new = _cycle()
        gc.collect()
        assert new() is None  # cycles among new objects are still collected inside
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert old() is None


def test_caller_freeze_left_alone_and_nesting_is_a_no_op():
    # frozen objects can still be freed (by reference counting, e.g. in another thread), so the
    # count may fall; a freeze inside would raise it, an unfreeze drop it to 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collect_new_objects_only():
            assert 0 < gc.get_freeze_count() <= frozen
        assert 0 < gc.get_freeze_count() <= frozen
    finally:
        gc.unfreeze()
    with collect_new_objects_only():
        outer = gc.get_freeze_count()
        with collect_new_objects_only():
            pass
        assert 0 < gc.get_freeze_count() <= outer
    assert gc.get_freeze_count() == 0


def test_collector_off_stays_off_and_unfrozen():
    gc.disable()
    try:
        with collect_new_objects_only():
            assert gc.get_freeze_count() == 0
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_keep_new_objects_only_inside_a_block():
    keep_new_objects()
    assert gc.get_freeze_count() == 0
    with collect_new_objects_only():
        kept = _cycle()
        keep_new_objects()
        gc.collect()
        assert kept() is not None
    gc.collect()
    assert kept() is None
