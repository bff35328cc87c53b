"""grow-diag-final-and symmetrisation of two directional word alignments (Koehn et al. 2003,
as in Moses): start from the intersection, grow into the union through neighbours (diagonals
included) that align a so-far unaligned word, then add union points between two unaligned words."""

from __future__ import annotations

Alignment = set[tuple[int, int]]

_NEIGHBOURS = ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def grow_diag_final_and(e2f: Alignment, f2e: Alignment) -> Alignment:
    """Symmetrised alignment from points (e, f) of both directions (both given as (e, f))."""
    union = e2f | f2e
    points = set(e2f & f2e)
    e_aligned = {e for e, _ in points}
    f_aligned = {f for _, f in points}
    added = True
    while added:
        added = False
        for e, f in sorted(points):
            for de, df in _NEIGHBOURS:
                cand = (e + de, f + df)
                if cand in union and cand not in points and (cand[0] not in e_aligned or cand[1] not in f_aligned):
                    points.add(cand)
                    e_aligned.add(cand[0])
                    f_aligned.add(cand[1])
                    added = True
    for direction in (e2f, f2e):
        for e, f in sorted(direction):
            if e not in e_aligned and f not in f_aligned:
                points.add((e, f))
                e_aligned.add(e)
                f_aligned.add(f)
    return points
