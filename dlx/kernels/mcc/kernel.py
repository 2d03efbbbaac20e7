"""The multiplicity kernel: primary items of bounds ``lo:hi``, on bit sets of live options.

Every ``@njit(cache=True)`` function this kernel calls lives in this file (numba's cache
only notices edits to the file a function is defined in); ``dlx/kernels/mcc/layout.py``
builds its arrays and ``dlx/kernels/mcc/search.py`` drives it.

Data structures
---------------
Option ``k`` is bit ``k`` of a *live set*, ``live[l]`` (``words`` uint64 words): the
options that may still be chosen at level ``l``. ``bound[l, p]`` is how many more
options may cover primary item ``p`` (``hi`` less those chosen; Knuth's BOUND), and
``slack[p] = hi - lo`` (SLACK), so ``p`` still *needs* ``bound - min(slack, bound)``
options. ``active[l]`` is the set of primary items still to be decided: an item
leaves it when it is full (``bound`` 0: its band is cleared from the live set) or when
it has no live option left and needs none. A child's rows are its parent's, changed;
going back up a level is ``level -= 1``.

Knuth's steps, as in SSMCC (his sparse-set program for multiplicities; the branching
here is d-way, as in DLX3, and the tried options are struck out of the level's own
live set, which is SSMCC's binary branching in another dress):

- *Choose* (``FORWARD``): for each active item ``p``, its live options ``n`` (popcount
  over its band) give SSMCC's score ``n + s - b + 1`` (``b = bound``, ``s = min(slack,
  b)``): the number of ways to go on with ``p``. An item with no option and no need
  leaves ``active``; a score of 0 or less is a dead end; the item of least score is
  chosen (ties to the smaller ``s``, then to the more options, SSMCC's rule), a score
  of 1 (a forced move) ending the scan. No active item: a solution.
- *Try* (``ADVANCE``): branch ``i`` of item ``p`` takes ``p``'s first live option
  ``o``: the child's live set is the level's less ``o``'s conflict mask; each primary
  item of ``o`` has its bound counted down, and one that reaches 0 has its band
  cleared. Branch ``score - 1`` of an item that needs nothing is the *null* choice: the
  child is the level as it is (every option of ``p`` struck out by then), ``p``
  retired. Every solution below the level is met once: in the branch of its first
  option of ``p``, or in the null branch when it has none.
- *Back down* (``BACKDOWN``): leave the level; the parent strikes the option it tried
  out of its own live set and tries the next branch.

Resuming: ``state`` holds ``level, step``; everything else lives in the arrays, so a
call stops after a budget of nodes (``PAUSED``) and the next goes on. Counts are
exact at any size: ``total`` holds ``limbs`` uint64 words; a carry out of the top
returns ``OVERFLOW`` and the caller starts again with twice as many.
"""

import numpy as np
from numba import njit

from dlx.driver.codes import (
    ADVANCE,
    BACKDOWN,
    DONE,
    FORWARD,
    LEAF,
    LIMIT,
    OVERFLOW,
    PAUSED,
    SOLUTION,
)
from dlx.kernels.bands import first_live as _first_live
from dlx.kernels.bands import live_options as _live_options
from dlx.kernels.bands import low as _low
from dlx.kernels.bits import popcount as _popcount
from dlx.kernels.shared import add_one as _add_one
from dlx.kernels.shared import at_least as _at_least
from dlx.kernels.shared import note_count as _note_count

# Nothing here allocates: compiled without numba's reference counting (see the links
# kernel).
PLAIN = {"cache": True, "_nrt": False}
# dlx/kernels/shared.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/shared.py changes, unless this file changes with it
MEMO_DIGEST = "04c8f20e446678d1"
# dlx/kernels/bits.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/bits.py changes, unless this file changes with it
BITS_DIGEST = "2ca1aca66e643eb6"
# dlx/kernels/bands.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/bands.py changes, unless this file changes with it
BANDS_DIGEST = "c07b239f6ce16d0f"

_u = np.uint64  # unsigned indices: no test for negative ones (see the links kernel)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_NONE = 1 << 62  # a score above any item's
NULL = -1  # the choice of a null branch


@njit(**PLAIN, inline="always")
def _strike(live, level, o):
    """Take option ``o`` out of the live set of ``level``."""
    live[_u(level), _u(o >> 6)] &= ~(_ONE << np.uint64(o & 63))


@njit(**PLAIN, inline="always")
def _choose(t, s, level):
    """Knuth's *choose* at ``level`` (see the essay): ``(item, score, need)``, item -1
    for a solution; a score of 0 or less is a dead end."""
    best = -1
    best_score = _NONE
    best_slack = 0
    best_n = 0
    best_need = 0
    active = s.active
    for w in range(active.shape[1]):
        items = active[_u(level), _u(w)]
        while items:
            p = w * 64 + _low(items)
            items &= items - _ONE
            n = _live_options(t, s.live, level, p)
            b = np.int64(s.bound[_u(level), _u(p)])
            slack = min(np.int64(t.slack[_u(p)]), b)
            need = b - slack
            if n == 0 and need == 0:  # nothing left to decide: retired
                active[_u(level), _u(w)] &= ~(_ONE << np.uint64(p & 63))
                continue
            score = n - need + 1
            if score <= 0:
                return p, score, need
            better = score < best_score or (
                score == best_score and (slack < best_slack or (slack == best_slack and n > best_n))
            )
            if better:
                best, best_score, best_slack, best_n, best_need = p, score, slack, n, need
                if score == 1:
                    return best, best_score, best_need
    if best < 0:
        return -1, 0, 0
    return best, best_score, best_need


@njit(**PLAIN, inline="always")
def _copy_row(s, level):
    """Make the rows of ``level + 1`` the rows of ``level``."""
    child = level + 1
    for w in range(s.live.shape[1]):
        s.live[_u(child), _u(w)] = s.live[_u(level), _u(w)]
    for w in range(s.active.shape[1]):
        s.active[_u(child), _u(w)] = s.active[_u(level), _u(w)]
    for p in range(s.bound.shape[1]):
        s.bound[_u(child), _u(p)] = s.bound[_u(level), _u(p)]


@njit(**PLAIN, inline="always")
def _take(t, s, level, o):
    """Make the rows of ``level + 1``: ``level``'s with option ``o`` chosen; return the
    options struck out."""
    child = level + 1
    updates = _ZERO
    for w in range(t.words):
        a = s.live[_u(level), _u(w)]
        m = t.conflict[_u(o), _u(w)]
        updates += _popcount(a & m)
        s.live[_u(child), _u(w)] = a & ~m
    for w in range(s.active.shape[1]):
        s.active[_u(child), _u(w)] = s.active[_u(level), _u(w)]
    for p in range(s.bound.shape[1]):
        s.bound[_u(child), _u(p)] = s.bound[_u(level), _u(p)]
    for j in range(t.option_primary_start[_u(o)], t.option_primary_start[_u(o + 1)]):
        p = t.option_primary[_u(j)]
        b = s.bound[_u(child), _u(p)] - 1
        s.bound[_u(child), _u(p)] = b
        if b == 0:  # full: its other options are out, and it is decided
            s.active[_u(child), _u(p >> 6)] &= ~(_ONE << np.uint64(p & 63))
            first = t.item_band_start[_u(p)]
            w = t.item_first_word[_u(p)] - first
            for k in range(first, t.item_band_start[_u(p + 1)]):
                bits = s.live[_u(child), _u(w + k)] & t.item_band[_u(k)]
                updates += _popcount(bits)
                s.live[_u(child), _u(w + k)] ^= bits
    return updates


@njit(**PLAIN, inline="always")
def _retire(s, level, p):
    """Make the rows of ``level + 1``: ``level``'s with item ``p`` decided (the null
    choice: its options were struck out by the branches before)."""
    _copy_row(s, level)
    s.active[_u(level + 1), _u(p >> 6)] &= ~(_ONE << np.uint64(p & 63))


@njit(**PLAIN, inline="always")
def _enter(t, s, level, forced):
    """*Choose* at ``level``: note the level's item, need and branches; return the
    branches (-1: a solution; 0: a dead end). A forced level has one branch, its
    option (none if it is not live at this level)."""
    if level < forced.shape[0]:
        o = forced[_u(level)]
        s.best[_u(level)] = -1
        s.need[_u(level)] = 1
        s.choice[_u(level)] = o
        if not (s.live[_u(level), _u(o >> 6)] >> np.uint64(o & 63)) & _ONE:
            return 0
        return 1
    p, score, need = _choose(t, s, level)
    if p < 0:
        return -1
    s.best[_u(level)] = p
    s.need[_u(level)] = need
    return max(score, 0)


@njit(**PLAIN, inline="always")
def _try(t, s, level):
    """*Try* the level's branch ``branch_index``: make the child's rows; return the
    updates."""
    p = s.best[_u(level)]
    if p < 0:  # a forced option
        return _take(t, s, level, s.choice[_u(level)])
    if s.need[_u(level)] == 0 and s.branch_index[_u(level)] == s.branch_degree[_u(level)] - 1:
        s.choice[_u(level)] = NULL
        _retire(s, level, p)
        return _ZERO
    o = _first_live(t, s.live, level, p)
    s.choice[_u(level)] = o
    return _take(t, s, level, o)


@njit(**PLAIN, inline="always")
def _skip(t, s, level, k):
    """Strike the first ``k`` live options of the level's item (a split's path jumps
    to branch ``k``)."""
    p = s.best[_u(level)]
    for _ in range(k):
        o = _first_live(t, s.live, level, p)
        if o < 0:
            break
        _strike(s.live, level, o)


@njit(**PLAIN)
def search(t, s, forced, prefix, split_depth, node_budget, max_solutions, stream):
    """Run (or resume) the search until done, a solution (if ``stream``), a leaf, a
    limit, an overflow or the budget.

    Parameters
    ----------
    t : dlx.kernels.mcc.layout.Tables
        The problem's arrays (``dlx.kernels.mcc.layout.MccLayout``, as a namedtuple).
    s : dlx.kernels.mcc.layout.State
        This search's arrays: ``live`` uint64[rows, words]; ``bound`` int32[rows,
        n_primary]; ``active`` uint64[rows, item_words]; ``best``, ``need``,
        ``choice`` (an option, or ``NULL``), ``branch_index``, ``branch_degree``
        int64[rows]; ``state`` int64[2] (level, step); ``stats`` int64[3]
        (solutions, capped; nodes entered; updates); ``total`` uint64[limbs].
    forced, prefix : int64[k], int64[m]
        Options taken at levels ``0..k-1``, branch numbers taken at levels
        ``k..k+m-1`` (a subproblem of a split).
    split_depth : int
        Stop at this level and report a LEAF (``NO_SPLIT`` for none).
    node_budget, max_solutions : int
        Nodes this call may enter; stop with LIMIT once the count reaches
        ``max_solutions`` (-1: no limit).
    stream : bool
        Return at each solution (its options are the ``choice`` of levels
        ``0..level-1`` that are not ``NULL``).

    Returns the code (``dlx.driver.codes``): DONE, SOLUTION, PAUSED, LEAF, LIMIT or OVERFLOW.
    """
    stats = s.stats
    total = s.total
    level = s.state[0]
    step = s.state[1]
    nodes = stats[1]
    node_stop = nodes + node_budget
    n_forced = forced.shape[0]
    n_fixed = n_forced + prefix.shape[0]
    code = DONE
    while True:
        if step == FORWARD:
            if nodes >= node_stop:
                code = PAUSED
                break
            nodes += 1
            n = _enter(t, s, level, forced)
            step = BACKDOWN
            if n < 0:
                if not _add_one(total):
                    code = OVERFLOW
                    break
                if stream:
                    code = SOLUTION
                    break
                if _at_least(total, max_solutions):
                    code = LIMIT
                    break
                continue
            if n == 0:
                continue
            if level == split_depth:
                code = LEAF
                break
            s.branch_degree[_u(level)] = n
            s.branch_index[_u(level)] = 0
            if n_forced <= level < n_fixed:
                k = prefix[_u(level - n_forced)]
                if k >= n:
                    continue
                _skip(t, s, level, k)
                s.branch_index[_u(level)] = k
            step = ADVANCE
        elif step == ADVANCE:
            if s.branch_index[_u(level)] >= s.branch_degree[_u(level)]:
                step = BACKDOWN
                continue
            stats[2] += np.int64(_try(t, s, level))
            level += 1
            step = FORWARD
        else:
            if level == 0:
                code = DONE
                break
            level -= 1
            if level < n_fixed:
                continue
            o = s.choice[_u(level)]
            if o >= 0:
                _strike(s.live, level, o)
            s.branch_index[_u(level)] += 1
            step = ADVANCE
    s.state[0] = level
    s.state[1] = step
    stats[1] = nodes
    _note_count(total, stats)
    return code


@njit(cache=True)
def sanity(t, s, root_live, hi):
    """Check the rows of levels ``0..level`` against the choices made, recomputed from
    scratch; return 0, or a code > 0 naming the first fault (level * 8 + kind: 1 an
    option live that should not be, 2 a bound, 3 an item active that is full, 4 a
    choice that was not live)."""
    level = s.state[0]
    live = root_live.copy()
    bound = hi.copy()
    for lev in range(level + 1):
        if lev > 0:
            o = s.choice[lev - 1]
            if o >= 0:
                if not (s.live[lev - 1, o >> 6] >> np.uint64(o & 63)) & _ONE:
                    return lev * 8 + 4
                for w in range(t.words):
                    live[w] &= ~t.conflict[o, w]
                for j in range(t.option_primary_start[o], t.option_primary_start[o + 1]):
                    bound[t.option_primary[j]] -= 1
        for w in range(t.words):  # the level strikes options out of its own set only
            if s.live[lev, w] & ~live[w]:
                return lev * 8 + 1
        for p in range(t.n_primary):
            if s.bound[lev, p] != bound[p]:
                return lev * 8 + 2
            if bound[p] == 0 and (s.active[lev, p >> 6] >> np.uint64(p & 63)) & _ONE:
                return lev * 8 + 3
    return 0
