"""The bitset kernel's region pruning and its reads of the key (``kernel.py``);
``BITSET_REGIONS_DIGEST`` there guards numba's cache (it keys a function on its own
file only), checked by ``tests/test_structure.py``.
"""

import numpy as np
from numba import njit

from dlx.kernels.bands import has_bit as _is_set
from dlx.kernels.bands import low as _low

# Nothing here allocates: compiled without numba's reference counting (``_nrt=False``),
# which would incref and decref every array handed to an inlined helper (as in
# ``dlx/kernels/links/kernel.py``).
PLAIN = {"cache": True, "_nrt": False}
# dlx/kernels/bands.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/bands.py changes, unless this file changes with it
BANDS_DIGEST = "c07b239f6ce16d0f"

_u = np.uint64  # unsigned indices: no test for negative ones (see dlx/kernels/links/kernel.py)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


# -- region pruning -------------------------------------------------------------------
#
# Region pruning (when the problem has pieces): the uncovered cells fall into connected
# regions of the adjacency graph (``neighbours``); an option that fits lies inside one
# region, so each region must be filled by options inside it, and its size must be a sum
# of option sizes of the pieces not used up, each piece used at most as often as it may
# still be. The sums that can be made are a bitset ``reach`` (bit ``s``: a sum of ``s``
# cells) grown piece by piece by ``reach |= reach << size``. A region whose size is not
# in ``reach`` makes the node dead. The test never removes a solution (tested against
# the search without it). Only the regions next to the option just taken can have
# changed, and only those of at most ``prune_cap`` cells are judged. With ``prune_cap``
# 1 (the default) a region is a lone free cell: its free neighbours are tested word by
# word, with no fill, and it is dead unless a piece of one cell is left.


@njit(**PLAIN, inline="always")
def _shift_or(reach, size, out):
    """``out |= reach << size`` on multiword bitsets (bits past the end dropped)."""
    n = reach.shape[0]
    whole = size >> 6
    part = np.uint64(size & 63)
    for w in range(n - 1, whole - 1, -1):
        v = reach[_u(w - whole)] << part
        if part and w - whole - 1 >= 0:
            v |= reach[_u(w - whole - 1)] >> (np.uint64(64) - part)
        out[_u(w)] |= v


@njit(**PLAIN, inline="always")
def _reachable(t, key, level, reach, spare):
    """Fill ``reach`` with the region sizes that the pieces left can fill (bit s: s)."""
    n = reach.shape[0]
    for w in range(n):
        reach[_u(w)] = _ZERO
    reach[0] = _ONE
    for p in range(t.piece_bit.shape[0]):
        b = t.piece_bit[_u(p)]
        if b >= 0:
            copies = 0 if _is_set(key, level, b) else 1
        else:
            c = t.piece_counter[_u(p)]
            copies = np.int64(t.counter_hi[_u(c)]) - np.int64(key[_u(level), _u(t.words + c)])
        for _ in range(copies):
            for w in range(n):
                spare[_u(w)] = reach[_u(w)]
            for j in range(t.piece_size_start[_u(p)], t.piece_size_start[_u(p + 1)]):
                _shift_or(spare, t.piece_size[_u(j)], reach)
            changed = False
            for w in range(n):
                if reach[_u(w)] != spare[_u(w)]:
                    changed = True
            if not changed:
                break


@njit(**PLAIN, inline="always")
def _lone_cell(t, key, level, o, reach, spare):
    """Whether a free cell next to option ``o`` (just taken) has no free neighbour and
    no piece left has one cell: the regions of one cell, judged without a fill."""
    words = t.words
    for w0 in range(words):
        seeds = t.halo[_u(o), _u(w0)] & ~key[_u(level), _u(w0)] & t.cell_mask[_u(w0)]
        while seeds:
            x = w0 * 64 + _low(seeds)
            seeds &= seeds - _ONE
            alone = True
            for w in range(words):
                if t.neighbours[_u(x), _u(w)] & ~key[_u(level), _u(w)] & t.cell_mask[_u(w)]:
                    alone = False
                    break
            if alone:
                _reachable(t, key, level, reach, spare)
                return not ((reach[0] >> np.uint64(1)) & _ONE)
    return False


@njit(**PLAIN)
def _dead_region(t, key, level, o, cap, marks, stack, reach, spare):
    """Whether a region next to option ``o`` (just taken) of at most ``cap`` cells cannot
    be filled by size (see "region pruning" above); larger regions are not judged.

    ``marks[0]``: the free cells; ``marks[1]``: those reached by an earlier fill (a
    complete region, or one given up as too big); ``marks[2]``: this fill's cells. A
    fill that meets an earlier one's cell is in that one's (too big) region.
    """
    words = t.words
    for w in range(words):
        marks[0, _u(w)] = ~key[_u(level), _u(w)] & t.cell_mask[_u(w)]
        marks[1, _u(w)] = _ZERO
    reach_done = False
    for w0 in range(words):
        seeds = t.halo[_u(o), _u(w0)] & marks[0, _u(w0)]
        while seeds:
            x = w0 * 64 + _low(seeds)
            seeds &= seeds - _ONE
            if (marks[1, _u(x >> 6)] >> np.uint64(x & 63)) & _ONE:
                continue
            for w in range(words):
                marks[2, _u(w)] = _ZERO
            marks[2, _u(x >> 6)] |= _ONE << np.uint64(x & 63)
            top = 1
            stack[0] = x
            size = 0
            big = False
            while top:
                top -= 1
                y = stack[_u(top)]
                size += 1
                if size > cap:
                    big = True
                    break
                for w in range(words):
                    nb = t.neighbours[_u(y), _u(w)] & marks[0, _u(w)] & ~marks[2, _u(w)]
                    if nb & marks[1, _u(w)]:
                        big = True
                    marks[2, _u(w)] |= nb
                    while nb:
                        stack[_u(top)] = w * 64 + _low(nb)
                        top += 1
                        nb &= nb - _ONE
                if big:
                    break
            for w in range(words):
                marks[1, _u(w)] |= marks[2, _u(w)]
            if big:
                continue
            if not reach_done:
                _reachable(t, key, level, reach, spare)
                reach_done = True
            if not ((reach[_u(size >> 6)] >> np.uint64(size & 63)) & _ONE):
                return True
    return False
