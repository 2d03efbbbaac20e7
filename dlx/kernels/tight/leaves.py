"""The tight kernel's forced leaves: a child whose every level would be forced,
counted at its parent.

In a problem without secondary items, a child where each uncovered primary item has
exactly one live option is one solution: every level below it would choose an item
with one option. ``forced_out`` checks it when the kernel would enter the child in a
full count: cheaply first (the live options, of ``size_low`` to ``size_high``
primary items each, must add up to the items left), then the live options' items
into a scratch row (no item twice, every item once). Where it holds, the child is
counted 1 and not entered (the nodes are fewer; solutions and branch numbers the
same). Where the forced levels are many and cheap (a sparse sudoku's last cells),
this saves their nodes.

numba's cache keys a kernel on its own file: ``kernel.py`` records this file's digest
(``TIGHT_LEAVES_DIGEST``, checked by ``tests/test_structure.py``).
"""

import numpy as np
from numba import njit

from dlx.kernels.bands import low as _low
from dlx.kernels.bits import popcount as _popcount

# Nothing here allocates: compiled without numba's reference counting (see bitset.py).
PLAIN = {"cache": True, "_nrt": False}
# dlx/kernels/bits.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/bits.py changes, unless this file changes with it
BITS_DIGEST = "2ca1aca66e643eb6"
# dlx/kernels/bands.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/bands.py changes, unless this file changes with it
BANDS_DIGEST = "c07b239f6ce16d0f"

_u = np.uint64
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(**PLAIN, forceinline=True)
def forced_out(t, s, child, stream, split_depth):
    """1 when ``child`` (its rows made) is one solution with every level below it
    forced: each uncovered item has exactly one live option (a live option's items
    are all uncovered, so those options cover each item once); -1 when some item has
    other than one, or the search enters each child (``stream``: a stream or a limited
    count; ``child`` at ``split_depth``), or the problem has secondary items.
    Row ``child + 1`` of ``uncovered`` is scratch."""
    if stream or child == split_depth or t.group_start.shape[0] - 1 != t.n_primary:
        return -1
    live = s.live
    uncovered = s.uncovered
    n_live = _ZERO
    for w in range(t.words):
        n_live += _popcount(live[_u(child), _u(w)])
    left = _ZERO
    for w in range(uncovered.shape[1]):
        left += _popcount(uncovered[_u(child), _u(w)])
    if n_live * np.uint64(t.size_low) > left or n_live * np.uint64(t.size_high) < left:
        return -1  # the live options' items cannot add up to the items left
    for w in range(uncovered.shape[1]):
        uncovered[_u(child + 1), _u(w)] = _ZERO
    seen = _ZERO
    for w in range(t.words):
        bits = live[_u(child), _u(w)]
        while bits:
            o = w * 64 + _low(bits)
            bits &= bits - _ONE
            for j in range(t.option_primary_start[_u(o)], t.option_primary_start[_u(o + 1)]):
                p = t.option_primary[_u(j)]
                bit = _ONE << np.uint64(p & 63)
                if uncovered[_u(child + 1), _u(p >> 6)] & bit:
                    return -1  # two live options of one item
                uncovered[_u(child + 1), _u(p >> 6)] |= bit
                seen += _ONE
    return 1 if seen == left else -1  # else an item without options: the child's *choose*
