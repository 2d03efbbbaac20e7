"""Branching "fewest" for the solution-graph kernel: the options alive, and their frames.

``dlx/solution_graph/kernel.py`` calls these (every ``@njit(cache=True)`` function of the
rule lives here; the kernel records this file's digest, ``FEWEST_DIGEST``, checked by
``tests/test_structure.py``, since numba's cache keys a kernel on its own file).

The options alive
-----------------
``alive[l]`` is a bitset of the options (list order) that fit ``key[l]``: the parent's
less the options that meet the option just taken (``item_bits[x]``: the options of item
bit ``x``, in the words ``item_lo[x]:item_hi[x]``). The bit branched on is the uncovered
primary bit with the fewest options alive (the first of those), a popcount of its row
and'ed with ``alive[l]``, cut short once it reaches the best so far; a bit with none
refutes the subproblem at once. It depends on the key alone, so the memo stays exact.

Frames
------
(The tight kernel's lesson, ``dlx/kernels/tight/frames.py``, with arrays of its own.)
Deep down few options are alive (a few hundred of a 9x10 subproblem's 1,900), while an
item's row keeps its span of words (up to 30 there), mostly zero: counting the free
items costs their spans, and taking an option clears its items' spans. So when a node
branches (two candidates or more), no frame is open, at most ``64 * FRAME_WORDS``
options are alive there (``frame_live.shape[1]``, ``dlx/solution_graph/layout.py``) and
they fit in fewer words than ``alive``'s, a *frame* opens at its level: its options alive
renumbered ``0..m-1`` in list order (``frame_map[i]``: the option of frame bit ``i``),
each item bit's options among them as ``fw = ceil(m / 64)`` words of frame bits
(``frame_group[x, :fw]``), and the level's options alive as frame bits
(``frame_live[l, :fw]``), as are those of every level below it. An item's count is then
a pass over ``fw`` words, and taking an option clears ``fw`` words an item. The
candidates are the same options in the same order (frame bits run in list order), so the
graph is the one without frames. The frame closes when a subproblem is entered at its
level or above (``frame``: its level, ``NO_FRAME`` for none, and ``fw``, 0 for none);
the levels above it keep ``alive``. A frame inside a frame (narrower, deeper down) was
tried and did not pay (docs/oeis.md).

The lone-cell rule, which both rules of branching use, lives here too (``lone_cell``).
"""

import numpy as np
from numba import njit

from dlx.kernels.bits import popcount, trailing_zeros

# dlx/kernels/bits.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/bits.py changes, unless this file changes with it
BITS_DIGEST = "2ca1aca66e643eb6"

PLAIN = {"cache": True, "_nrt": False}  # nothing here allocates (see kernel.py)
NO_OPTION = -2  # an item has no option left
NO_FRAME = -1
_ZERO = np.uint64(0)
_ONE = np.uint64(1)


@njit(**PLAIN, inline="always")
def lone_cell(t, key, row, o):
    """Whether, once option ``o`` is taken at ``key[row]``, a free cell next to it has
    no free neighbour, so that no option can cover it (``halo`` leaves out the cells
    that an option of one cell covers)."""
    for w0 in range(t.halo.shape[1]):
        seeds = t.halo[o, w0] & ~key[row, w0]
        while seeds:
            x = w0 * 64 + np.int64(trailing_zeros(seeds))
            seeds &= seeds - _ONE
            alone = True
            for w in range(t.neighbours.shape[1]):
                if t.neighbours[x, w] & ~(key[row, w] | t.mask[o, w]):
                    alone = False
                    break
            if alone:
                return True
    return False


@njit(**PLAIN, inline="always")
def _kill(t, alive, level, o):
    """``alive[level]``: ``alive[level - 1]`` less the options that meet option ``o``."""
    for w in range(alive.shape[1]):
        alive[level, w] = alive[level - 1, w]
    for w0 in range(t.words):
        bits = t.mask[o, w0]
        while bits:
            x = w0 * 64 + np.int64(trailing_zeros(bits))
            bits &= bits - _ONE
            for w in range(t.item_lo[x], t.item_hi[x]):
                alive[level, w] &= ~t.item_bits[x, w]


@njit(**PLAIN, inline="always")
def _frame_kill(t, s, level, o, fw):
    """``frame_live[level]``: the row above less the frame bits of the options that meet
    option ``o``."""
    live, group = s.frame_live, s.frame_group
    for w in range(fw):
        live[level, w] = live[level - 1, w]
    for w0 in range(t.words):
        bits = t.mask[o, w0]
        while bits:
            x = w0 * 64 + np.int64(trailing_zeros(bits))
            bits &= bits - _ONE
            for w in range(fw):
                live[level, w] &= ~group[x, w]


@njit(**PLAIN)
def _open_frame(t, s, level, m):
    """Open the frame at ``level`` for its ``m`` options alive (see the module's essay).
    Out of line: it runs once a frame."""
    fw = (m + 63) >> 6
    group = s.frame_group
    for x in range(group.shape[0]):
        for w in range(fw):
            group[x, w] = _ZERO
    i = 0
    for w in range(s.alive.shape[1]):
        bits = s.alive[level, w]
        while bits:
            o = w * 64 + np.int64(trailing_zeros(bits))
            bits &= bits - _ONE
            s.frame_map[i] = o
            bit = _ONE << np.uint64(i & 63)
            for w0 in range(t.words):
                items = t.mask[o, w0]
                while items:
                    x = w0 * 64 + np.int64(trailing_zeros(items))
                    items &= items - _ONE
                    group[x, i >> 6] |= bit
            i += 1
    for w in range(fw):
        k = m - 64 * w
        s.frame_live[level, w] = ~_ZERO if k >= 64 else (_ONE << np.uint64(k)) - _ONE
    s.frame[0] = level
    s.frame[1] = fw


@njit(**PLAIN, inline="always")
def alive_at(t, s, level, o):
    """Make the options alive at ``level`` (``o``: the option taken to reach it, -1 at
    the root), in the frame if one is open above it, else in ``alive``; a frame at
    ``level`` or below closes."""
    if s.frame[0] >= level:
        s.frame[0] = NO_FRAME
        s.frame[1] = 0
    if s.frame[1]:
        _frame_kill(t, s, level, o, s.frame[1])
    elif level > 0:
        _kill(t, s.alive, level, o)


@njit(**PLAIN, inline="always")
def frame_at(t, s, level):
    """Open a frame at ``level`` (a node of two branches or more), if none is open,
    where its options alive are few enough (see the module's essay)."""
    if s.frame[1] or s.frame_live.shape[1] == 0:
        return
    m = 0
    for w in range(s.alive.shape[1]):
        m += np.int64(popcount(s.alive[level, w]))
    if 0 < m <= 64 * s.frame_live.shape[1] and (m + 63) >> 6 < s.alive.shape[1]:
        _open_frame(t, s, level, m)


@njit(**PLAIN, inline="always")
def _span(t, x, fw):
    """The words of item bit ``x``'s row: every word of the frame (``fw > 0``), else
    its span in ``item_bits``."""
    if fw:
        return 0, fw
    return t.item_lo[x], t.item_hi[x]


@njit(**PLAIN)
def choose(t, s, level, primary_words, last_mask, o):
    """The uncovered primary bit with the fewest options alive at ``level`` (the first
    of those); NO_OPTION when one has none. The free cells next to option ``o`` (the
    one just taken) are looked at first for one with none."""
    key = s.key
    fw = s.frame[1]
    live = s.frame_live if fw else s.alive
    group = s.frame_group if fw else t.item_bits
    for w0 in range(t.halo.shape[1]):
        seeds = t.halo[o, w0] & ~key[level, w0] if o >= 0 else _ZERO
        while seeds:
            y = w0 * 64 + np.int64(trailing_zeros(seeds))
            seeds &= seeds - _ONE
            lo, hi = _span(t, y, fw)
            empty = True
            for w in range(lo, hi):
                if live[level, w] & group[y, w]:
                    empty = False
                    break
            if empty:
                return NO_OPTION
    best, best_n = NO_OPTION, 1 << 62
    for w0 in range(primary_words):
        free = ~key[level, w0]
        if w0 == primary_words - 1:
            free &= last_mask
        while free:
            b = w0 * 64 + np.int64(trailing_zeros(free))
            free &= free - _ONE
            lo, hi = _span(t, b, fw)
            n = 0
            for w in range(lo, hi):
                n += np.int64(popcount(live[level, w] & group[b, w]))
                if n >= best_n:
                    break
            if n == 0:
                return NO_OPTION
            if n < best_n:
                best, best_n = b, n
    return best


@njit(**PLAIN, inline="always")
def candidates(t, s, level, b, start):
    """Write the options of bit ``b`` alive at ``level`` that leave no lone cell to
    ``cand[start:]`` (list order); return how many."""
    fw = s.frame[1]
    live = s.frame_live if fw else s.alive
    group = s.frame_group if fw else t.item_bits
    lo, hi = _span(t, b, fw)
    n = 0
    for w in range(lo, hi):
        bits = live[level, w] & group[b, w]
        while bits:
            i = w * 64 + np.int64(trailing_zeros(bits))
            bits &= bits - _ONE
            o = s.frame_map[i] if fw else i
            if not lone_cell(t, s.key, level, o):
                s.cand[start + n] = o
                n += 1
    return n
