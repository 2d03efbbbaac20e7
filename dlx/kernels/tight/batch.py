"""The tight kernel's batches: many small searches in one call, with item domination
(``search_batch``, re-exported by ``kernel.py``). ``BANDS_DIGEST`` guards
numba's cache as ``dlx/kernels/bands.py`` explains.
"""

import numpy as np
from numba import njit

from dlx.driver.codes import (
    ADVANCE,
    BACKDOWN,
    FORWARD,
)
from dlx.kernels.bands import gather as _gather
from dlx.kernels.bands import has_bit as _has_bit
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

_u = np.uint64  # unsigned indices: no test for negative ones (see dlx/kernels/links/kernel.py)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


# -- batches: many small searches in one call, with item domination -------------------
#
# ``search_batch`` runs one search per set of forced options (a sudoku's givens) on one
# layout: each set's options are taken at the root, in place (one that starves an item
# ends the search with no solution), then the search counts up to a limit and keeps its
# first solution. No memo, no pause: each search is small and stops at its limit.
#
# At a solution limit of 1, a node's options are tried most constrained first (the sum
# of their primary items' live options, most first): the option that kills more is
# more often the one in the solution, and the search stops sooner.
#
# A batch keeps each primary item's live options counted (``b.count[level, p]``; a
# covered item holds ``_COVERED`` less its options killed since it was covered, which
# is more than ``_UNCOVERED_MAX``), decremented as options are killed (``_kill``): its
# searches are small and their options short, so counting as they die is cheaper than
# the popcounts of ``dlx.kernels.tight.kernel._choose_item``, and *choose* is a scan of
# one row of counts. An item
# whose count falls to ``cap`` or below is marked *pending* (a bit of ``b.pending``, one
# per primary item: set without a branch, as the count is decremented).
# Taking an option clears its dense conflict mask where the layout has those (else its
# groups, one by one): a first pass sets a bit for each word that loses options, with
# no branch, then only those words are visited (``_kill_conflicts``).
#
# Item domination (``cap > 0``): on entering a node past the forced levels, each pending
# item A, still uncovered with at most ``cap`` live options, is checked: each primary
# item B that every live option of A covers (found among the items of A's first live
# option) will be covered by the option that covers A, so B's live options that are not
# A's are in no solution, and are killed (those may mark more items). An item whose
# live options did not change cannot dominate anew, so checking the pending items
# (every uncovered item short enough, at the first node past the forced ones) until
# none is left finds all there is. An item left with no option makes the node dead.
# What is killed is in no exact cover, whatever the colours of secondary items: counts
# and solutions stay the same; the tree shrinks (sudoku's locked candidates: pointing
# and claiming; for A of one option, what a single eliminates before it is taken).

_COVERED = 1 << 30  # the count of an item when it is covered
_UNCOVERED_MAX = _COVERED >> 1  # more than any item's options (dlx.kernels.tight.search.batch)


@njit(**PLAIN, inline="always")
def _push(b, p):
    """Mark primary item ``p`` pending."""
    b.pending[_u(p >> 6)] |= _ONE << np.uint64(p & 63)


@njit(**PLAIN, inline="always")
def _clear_pending(b):
    """Mark no item pending."""
    for w in range(b.pending.shape[0]):
        b.pending[_u(w)] = _ZERO


@njit(**PLAIN, inline="always")
def _kill(t, b, level, w, bits, cap):
    """Kill the options ``bits`` (live, in word ``w``) at ``level``: count them out of
    their primary items, marking pending those left with at most ``cap`` (without a
    branch), and the level dead if one has none; return how many."""
    b.live[_u(level), _u(w)] ^= bits
    n = _popcount(bits)
    fewest = _UNCOVERED_MAX
    while bits:
        o = w * 64 + _low(bits)
        bits &= bits - _ONE
        for j in range(t.option_primary_start[_u(o)], t.option_primary_start[_u(o + 1)]):
            p = t.option_primary[_u(j)]
            c = b.count[_u(level), _u(p)] - 1
            b.count[_u(level), _u(p)] = c
            b.pending[_u(p >> 6)] |= np.uint64(c <= cap) << np.uint64(p & 63)
            fewest = min(fewest, c)
    if fewest == 0:
        b.dead[0] = 1
    return n


@njit(**PLAIN, inline="always")
def _kill_conflicts(t, b, level, o, cap, whole):
    """Kill the live options of option ``o``'s conflict groups at ``level``: word by word
    with its dense conflict mask where the layout has those, else group by group; stop
    once an item is starved (``b.dead[0]``) unless ``whole``. Return how many."""
    updates = _ZERO
    if t.conflict.shape[0] > 0:  # the dense mask, 64 words at a time: first a bit for
        for w0 in range(0, t.words, 64):  # each word that loses options (no branch),
            nonzero = _ZERO  # then those words alone
            for w in range(w0, min(w0 + 64, t.words)):
                bits = b.live[_u(level), _u(w)] & t.conflict[_u(o), _u(w)]
                nonzero |= np.uint64(bits != _ZERO) << np.uint64(w - w0)
            while nonzero:
                if b.dead[0] and not whole:
                    return updates
                w = w0 + _low(nonzero)
                nonzero &= nonzero - _ONE
                bits = b.live[_u(level), _u(w)] & t.conflict[_u(o), _u(w)]
                updates += _kill(t, b, level, w, bits, cap)
        return updates
    for j in range(t.option_group_start[_u(o)], t.option_group_start[_u(o + 1)]):
        if b.dead[0] and not whole:
            break
        g = t.option_group[_u(j)]
        for k in range(t.group_start[_u(g)], t.group_start[_u(g + 1)]):
            w = t.group_word[_u(k)]
            bits = b.live[_u(level), _u(w)] & t.group_bits[_u(k)]
            if bits:
                updates += _kill(t, b, level, w, bits, cap)
    return updates


@njit(**PLAIN, inline="always")
def _take(t, b, level, o, cap, whole):
    """Take option ``o`` at ``level``, in place: mark its primary items covered and kill
    the options of its conflict groups (``b.dead[0]`` set if that starves an item; then
    the rest is left undone, the level being dead, unless ``whole``); their counts
    stay above ``_UNCOVERED_MAX`` whatever is killed after."""
    for j in range(t.option_primary_start[_u(o)], t.option_primary_start[_u(o + 1)]):
        b.count[_u(level), _u(t.option_primary[_u(j)])] = _COVERED
    updates = _kill_conflicts(t, b, level, o, cap, whole)
    b.stats[1] += np.int64(updates)


@njit(**PLAIN, inline="always")
def _batch_cover(t, b, level, o, cap):
    """Make the rows of ``level + 1``: ``level``'s with option ``o`` taken."""
    child = level + 1
    for w in range(t.words):
        b.live[_u(child), _u(w)] = b.live[_u(level), _u(w)]
    for p in range(t.n_primary):
        b.count[_u(child), _u(p)] = b.count[_u(level), _u(p)]
    b.dead[0] = 0
    _take(t, b, child, o, cap, False)


@njit(**PLAIN, inline="always")
def _covers(t, o, p):
    """Whether option ``o`` covers primary item ``p``."""
    for j in range(t.option_primary_start[_u(o)], t.option_primary_start[_u(o + 1)]):
        if t.option_primary[_u(j)] == p:
            return True
    return False


@njit(**PLAIN, inline="always")
def _first_live(t, live, level, a):
    """The first live option of primary item ``a`` (-1: none), by its sparse group."""
    for k in range(t.group_start[_u(a)], t.group_start[_u(a + 1)]):
        w = t.group_word[_u(k)]
        bits = live[_u(level), _u(w)] & t.group_bits[_u(k)]
        if bits:
            return w * 64 + _low(bits)
    return -1


@njit(**PLAIN, inline="always")
def _band_word(t, a, w):
    """Word ``w`` of primary item ``a``'s options (0 outside its band)."""
    k = w - t.item_first_word[_u(a)]
    first = t.item_band_start[_u(a)]
    if k < 0 or first + k >= t.item_band_start[_u(a + 1)]:
        return _ZERO
    return t.item_band[_u(first + k)]


@njit(**PLAIN, inline="always")
def _dominate_item(t, b, level, a, cap):
    """Kill the live options of each uncovered primary item that every live option of
    ``a`` covers, but not ``a``'s own; return how many were killed."""
    n = b.count[_u(level), _u(a)]
    m = _gather(t, b.live, level, a, b.spare, 0)  # a's live options
    o = b.spare[0]
    killed = _ZERO
    for j in range(t.option_primary_start[_u(o)], t.option_primary_start[_u(o + 1)]):
        p = t.option_primary[_u(j)]
        held = b.count[_u(level), _u(p)]
        if p == a or held == n or held > _UNCOVERED_MAX:  # nothing to kill
            continue
        common = True
        for i in range(1, m):
            if not _covers(t, b.spare[_u(i)], p):
                common = False
                break
        if not common:
            continue
        for k in range(t.group_start[_u(p)], t.group_start[_u(p + 1)]):
            w = t.group_word[_u(k)]
            bits = b.live[_u(level), _u(w)] & t.group_bits[_u(k)] & ~_band_word(t, a, w)
            if bits:
                killed += _kill(t, b, level, w, bits, cap)
    return killed


@njit(**PLAIN, inline="always")
def _propagate(t, b, level, cap):
    """Check the pending items at ``level`` (lowest first, again from the first word
    while any is marked): with ``cap > 0``, take each single in place (noted on
    ``b.taken``) and apply item domination; return False as soon as an uncovered item
    has no live option left."""
    again = True
    while again:
        again = False
        for w in range(b.pending.shape[0]):
            while b.pending[_u(w)]:
                if b.dead[0]:
                    _clear_pending(b)
                    return False
                again = True
                bits = b.pending[_u(w)]
                a = w * 64 + _low(bits)
                b.pending[_u(w)] = bits & (bits - _ONE)
                n = b.count[_u(level), _u(a)]
                if n == 0:
                    _clear_pending(b)
                    return False
                if n == 1 and cap > 0:
                    o = _first_live(t, b.live, level, a)
                    k = b.taken[0] + 1
                    b.taken[0] = k
                    b.taken[_u(k)] = o
                    _take(t, b, level, o, cap, False)
                elif 1 < n <= cap and b.dominates[_u(a)]:
                    b.stats[1] += np.int64(_dominate_item(t, b, level, a, cap))
    return not b.dead[0]


@njit(**PLAIN, inline="always")
def _tightest(t, b, level, least):
    """The uncovered primary item with the fewest live options (the first of ties; the
    first with at most ``least``, the fewest any item may have) and that number; -1
    when every item is covered."""
    best = -1
    best_n = _UNCOVERED_MAX + 1
    for p in range(t.n_primary):
        n = b.count[_u(level), _u(p)]
        if n < best_n:
            best = p
            best_n = n
            if n <= least:
                break
    return best, best_n


@njit(**PLAIN, inline="always")
def _batch_branches(t, b, level, cap, first_only):
    """The options to try at ``level`` written to ``cand[cand_start[level]:]``: the
    tightest item's after domination (if ``first_only``, most constrained first);
    return how many (-1: a solution)."""
    start = b.cand_start[_u(level)]
    if b.dead[0]:
        _clear_pending(b)
        return 0
    b.taken[0] = b.taken_end[_u(level - 1)] if level > 0 else 0
    if level == 0:
        for p in range(t.n_primary):
            if b.count[0, _u(p)] <= cap:
                _push(b, p)
    alive = _propagate(t, b, level, cap)
    b.taken_end[_u(level)] = b.taken[0]
    if not alive:
        return 0
    p, n = _tightest(t, b, level, 2 if cap > 0 else 1)  # no singles left with cap > 0
    if p < 0:
        return -1
    if n == 0:
        return 0
    n = _gather(t, b.live, level, p, b.cand, start)
    if first_only:
        _most_constrained_first(t, b, level, start, n)
    return n


@njit(**PLAIN, inline="always")
def _most_constrained_first(t, b, level, start, n):
    """Sort the ``n`` options ``cand[start:]`` of ``level`` by the live options of
    their primary items, most first (stable: ties keep their order): the option that
    kills more is tried first, and a search that stops at its first solution meets it
    sooner (the order changes nothing where the whole tree is searched)."""
    if n < 2:
        return
    for i in range(n):
        o = b.cand[_u(start + i)]
        weight = 0
        for j in range(t.option_primary_start[_u(o)], t.option_primary_start[_u(o + 1)]):
            weight += b.count[_u(level), _u(t.option_primary[_u(j)])]
        b.spare[_u(i)] = weight
    for i in range(1, n):  # insertion sort: n is small (a sudoku's 2 to 9)
        weight = b.spare[_u(i)]
        o = b.cand[_u(start + i)]
        j = i
        while j > 0 and b.spare[_u(j - 1)] < weight:
            b.spare[_u(j)] = b.spare[_u(j - 1)]
            b.cand[_u(start + j)] = b.cand[_u(start + j - 1)]
            j -= 1
        b.spare[_u(j)] = weight
        b.cand[_u(start + j)] = o


@njit(**PLAIN, inline="always")
def _note_first(b, level, first):
    """Write the options of the solution at ``level`` past the forced ones (those
    chosen, then those taken as singles) to ``first`` (cut at its width)."""
    j = 0
    for lev in range(level):
        if j < first.shape[0]:
            first[_u(j)] = b.choice[_u(lev)]
            j += 1
    for k in range(1, b.taken[0] + 1):
        if j < first.shape[0]:
            first[_u(j)] = b.taken[_u(k)]
            j += 1


@njit(**PLAIN)
def _batch_one(t, b, forced, limit, cap, first):
    """One search of a batch: count up to ``limit`` with ``forced`` taken first; the
    first solution's options past the forced ones into ``first`` (-1 padded, cut at its
    width). Return the count (-1 when forced options clash); ``b.stats`` holds its nodes
    and updates."""
    for j in range(first.shape[0]):
        first[_u(j)] = -1
    for j in range(forced.shape[0]):  # taken at the root, in place
        if not _has_bit(b.live, 0, forced[_u(j)]):
            return -1  # killed by one taken before: they clash
        _take(t, b, 0, forced[_u(j)], cap, True)  # whole: a clash after is still seen
    count = 0
    level = 0
    step = FORWARD
    while True:
        if step == FORWARD:
            b.stats[0] += 1
            n = _batch_branches(t, b, level, cap, limit == 1)
            step = BACKDOWN
            if n < 0:
                count += 1
                if count == 1:
                    _note_first(b, level, first)
                if count >= limit:
                    break
            elif n > 0:
                b.cand_start[_u(level + 1)] = b.cand_start[_u(level)] + n
                b.branch_degree[_u(level)] = n
                b.branch_index[_u(level)] = 0
                step = ADVANCE
        elif step == ADVANCE:
            i = b.branch_index[_u(level)]
            if i >= b.branch_degree[_u(level)]:
                step = BACKDOWN
                continue
            o = b.cand[_u(b.cand_start[_u(level)] + i)]
            _batch_cover(t, b, level, o, cap)
            b.choice[_u(level)] = o
            level += 1
            step = FORWARD
        else:
            if level == 0:
                break
            level -= 1
            b.branch_index[_u(level)] += 1
            step = ADVANCE
    _clear_pending(b)
    return count


@njit(**PLAIN)
def search_batch(t, b, root_live, root_count, forced, forced_start, limit, cap, out):
    """Search once per forced set: set ``k`` takes the options (bits)
    ``forced[forced_start[k]:forced_start[k + 1]]`` first, and counts up to ``limit``.
    ``b``: a batch's arrays (``dlx.kernels.tight.search.BatchState``); ``root_live``,
    ``root_count``: every option live, each primary item's options. Item domination
    checks items of at most ``cap`` live options (0: off). Writes ``out.counts[k]``,
    ``out.first[k]`` (the first solution's options past the forced ones, bits, -1
    padded) and ``out.stats[k]`` (nodes, updates)."""
    for k in range(out.counts.shape[0]):
        for w in range(t.words):
            b.live[0, _u(w)] = root_live[_u(w)]
        for p in range(t.n_primary):
            b.count[0, _u(p)] = root_count[_u(p)]
        b.stats[0] = 0
        b.stats[1] = 0
        b.dead[0] = 0
        b.cand_start[0] = 0
        sets = forced[forced_start[_u(k)] : forced_start[_u(k + 1)]]
        out.counts[_u(k)] = _batch_one(t, b, sets, limit, cap, out.first[_u(k)])
        _clear_pending(b)
        out.stats[_u(k), 0] = b.stats[0]
        out.stats[_u(k), 1] = b.stats[1]
