"""The bitset kernel: exact cover over a few hundred items, filling the first empty item.

The search lives in this file and its region pruning in ``regions.py`` (numba's cache
only notices edits to the file a function is defined in: this file records the digest
of each file whose jitted code it calls, checked by ``tests/test_structure.py``);
``dlx/kernels/bitset/layout.py`` builds its arrays and ``dlx/kernels/bitset/search.py``
drives it.

Data structures
---------------
The items that must be covered exactly once, and the secondary items, are *bits* of a
mask of ``words`` uint64 words; the other primary items are *counters* (see the
glossary of ``dlx/kernels/bitset/layout.py``). The state of the search at level ``l`` is one row
``key[l]``: the bits covered so far, then one word per counter, the number of options
chosen that hold it. The child's row is the parent's with the option's mask or-ed in
and its counters raised, so nothing is ever undone: going back up a level is
``level -= 1``.

Options are numbered in *list order*: sorted by their lowest primary bit, so the
options that can cover bit ``b`` when every primary bit before ``b`` is covered are
``list_start[b]:list_start[b + 1]``, and an option fits when ``mask & covered == 0``
word by word and none of its counters is at its upper bound.

Branching (entering a level, ``FORWARD``): if every primary bit is covered, the node is
a solution when every counter has reached its lower bound, and a dead end otherwise.
Else the kernel branches on an *urgent* item not yet covered (an item with a handful
of options in all, such as the piece that symmetry breaking restricts), the one with
the fewest options that fit (none: a dead end); if there is none, on the first
uncovered primary bit in the order. The options that fit are written to
``cand[cand_start[l]:...]`` (``cand_start[l + 1]`` is the end), their number to
``branch_degree[l]``; ``branch_index[l]`` is the one being tried (``ADVANCE``), and
``choice[l]`` the option of the child (``BACKDOWN`` goes back to it). The branch
numbers are those of Knuth's estimate (``dlx.driver.driver.tree_fraction``) and the paths of
a parallel split.

The loop's steps have the links kernel's names (``dlx/kernels/links/kernel.py``), each
for the same step of Knuth's: ``_enter_level`` (M2), ``_choose`` (M3), ``_prepare``
(M4), ``_try_option`` (M5-M6), ``_next_branch`` (M7), ``_memo_keep`` (M9 with the
memo). Nothing undoes a choice (the links kernel's M9): a child's key is new.

Resuming: ``state`` holds ``level, step``; everything else lives in the arrays, so a
call stops after a budget of nodes (``PAUSED``) and the next goes on.

Region pruning, the memo and counts of any size are told beside their code, below.
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
from dlx.kernels.bits import prefetch_row as _prefetch_row
from dlx.kernels.bitset.regions import (
    _dead_region,
    _is_set,
    _lone_cell,
    _low,
)
from dlx.kernels.shared import add_count as _add
from dlx.kernels.shared import add_one as _add_one
from dlx.kernels.shared import at_least as _at_least
from dlx.kernels.shared import bucket as _bucket
from dlx.kernels.shared import find as _memo_find
from dlx.kernels.shared import note_count as _note_count
from dlx.kernels.shared import store as _memo_store

# Nothing here allocates: compiled without numba's reference counting (``_nrt=False``),
# which would incref and decref every array handed to an inlined helper (as in
# ``dlx/kernels/links/kernel.py``).
PLAIN = {"cache": True, "_nrt": False}
# dlx/kernels/shared.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/shared.py changes, unless this file changes with it
MEMO_DIGEST = "04c8f20e446678d1"
# dlx/kernels/bits.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/bits.py changes, unless this file changes with it
BITS_DIGEST = "2ca1aca66e643eb6"
# dlx/kernels/bitset/regions.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/bitset/regions.py changes, unless this file changes with it
BITSET_REGIONS_DIGEST = "aa4e572048ad1877"
MEMO_MIN_NODES = 2  # a subtree of fewer nodes is not worth a slot
NO_STOP = -1  # what _found returns when the search goes on
ENTER, KNOWN = 1, 0  # what _try_option did (or OVERFLOW)

_u = np.uint64  # unsigned indices: no test for negative ones (see dlx/kernels/links/kernel.py)
_ONE = np.uint64(1)


@njit(**PLAIN)
def _fits(mask, option_counter_start, option_counter, counter_hi, key, level, o, words):
    """Whether option ``o`` fits the node of ``level``."""
    for w in range(words):
        if mask[_u(o), _u(w)] & key[_u(level), _u(w)]:
            return False
    if counter_hi.shape[0]:
        for j in range(option_counter_start[_u(o)], option_counter_start[_u(o + 1)]):
            c = option_counter[_u(j)]
            if key[_u(level), _u(words + c)] >= counter_hi[_u(c)]:
                return False
    return True


@njit(**PLAIN, inline="always")
def _fits_listed(t, key, level, o):
    """``_fits`` for an option of a list whose group's piece is known to be free: only
    the words of ``test_mask`` that hold bits."""
    for w in range(t.test_mask.shape[1]):
        if t.test_mask[_u(o), _u(w)] & key[_u(level), _u(w)]:
            return False
    if t.counter_hi.shape[0]:
        for j in range(t.option_counter_start[_u(o)], t.option_counter_start[_u(o + 1)]):
            c = t.option_counter[_u(j)]
            if key[_u(level), _u(t.words + c)] >= t.counter_hi[_u(c)]:
                return False
    return True


@njit(**PLAIN, inline="always")
def _push(mask, option_counter_start, option_counter, key, level, o, words):
    """The child's key: level's key with option ``o`` taken."""
    for w in range(key.shape[1]):
        key[_u(level + 1), _u(w)] = key[_u(level), _u(w)]
    for w in range(words):
        key[_u(level + 1), _u(w)] |= mask[_u(o), _u(w)]
    if key.shape[1] > words:
        for j in range(option_counter_start[_u(o)], option_counter_start[_u(o + 1)]):
            key[_u(level + 1), _u(words + option_counter[_u(j)])] += _ONE


@njit(**PLAIN, inline="always")
def _use_piece(free, level, p):
    """The child's free pieces: level's, less piece ``p`` (none if ``p`` < 0)."""
    for w in range(free.shape[1]):
        free[_u(level + 1), _u(w)] = free[_u(level), _u(w)]
    if p >= 0:
        free[_u(level + 1), _u(p >> 6)] &= ~(_ONE << np.uint64(p & 63))


@njit(**PLAIN, inline="always")
def _first_free(key, level, primary_mask):
    """The first primary bit not covered at ``level`` (-1 if none)."""
    for w in range(primary_mask.shape[0]):
        free = ~key[_u(level), _u(w)] & primary_mask[_u(w)]
        if free:
            return w * 64 + _low(free)
    return -1


@njit(**PLAIN, inline="always")
def _counters_done(key, level, words, counter_lo):
    """Whether every counter has reached its lower bound."""
    for c in range(counter_lo.shape[0]):
        if key[_u(level), _u(words + c)] < counter_lo[_u(c)]:
            return False
    return True


# -- the memo, and counts of any size -------------------------------------------------
#
# Memo: for full counts, the number of solutions below a node depends only on its key
# (the residual problem is the options that fit, the counters' bounds left, and the bits
# still to cover). A key hashes to the sum of a fixed random word per bit covered and per
# use of each counter, so a child's hash is its parent's plus the option's
# (``option_hash``, ``key_hash[l]``): when a level's options are known, the table's rows
# of all its children are prefetched at once, and the lookups that follow find them in
# the cache. The table (``memo``) holds two rows a bucket: the key's words, the nodes its
# subtree took (0: an empty row), then its count. Before entering a child, its key is
# looked up in its bucket; a hit adds the count and the child is skipped. On leaving a
# level between the fixed ones and ``memo_levels`` whose subtree took at least
# ``MEMO_MIN_NODES`` nodes, its count (``total`` now minus ``level_entry[l]``, kept at
# entry) is stored in the bucket's first row if that row's subtree took no more nodes
# (its entry moves to the second row), else in the second. Every stored count is that
# of a whole subtree, so the table stays exact whatever it forgets.
#
# Counts are exact at any size: ``total``, ``level_entry`` and the memo's counts hold each
# count as ``limbs`` uint64 words, least significant first, added with carry. A carry out
# of the top limb returns ``OVERFLOW``; the caller starts again with twice the limbs.
# The table's find and store and the limb sums are the tight kernel's too:
# ``dlx/kernels/shared.py``.


@njit(**PLAIN, inline="always")
def _branches(t, key, free, level, cand, start, urgent_mode, stats):
    """Write the options that fit at ``level`` to ``cand[start:]``; return how many
    (-1 when every primary bit is covered)."""
    words = t.words
    n = 0
    if urgent_mode:
        best = -1
        best_n = 1 << 62
        for u in range(t.urgent_bit.shape[0]):
            if _is_set(key, level, t.urgent_bit[_u(u)]):
                continue
            k = 0
            for j in range(t.urgent_start[_u(u)], t.urgent_start[_u(u + 1)]):
                o = t.urgent_option[_u(j)]
                stats[2] += 1
                if _fits(t.mask, t.option_counter_start, t.option_counter, t.counter_hi,
                         key, level, o, words):  # fmt: skip
                    k += 1
            if k < best_n:
                best = u
                best_n = k
                if k == 0:
                    return 0
        if best >= 0:
            for j in range(t.urgent_start[_u(best)], t.urgent_start[_u(best + 1)]):
                o = t.urgent_option[_u(j)]
                if _fits(t.mask, t.option_counter_start, t.option_counter, t.counter_hi,
                         key, level, o, words):  # fmt: skip
                    cand[_u(start + n)] = o
                    n += 1
            return n
    b = _first_free(key, level, t.primary_mask)
    if b < 0:
        return -1
    for w in range(free.shape[1]):
        pieces = t.bit_slots[_u(b), _u(w)] & free[_u(level), _u(w)]  # listed and not used
        while pieces:
            g = t.slot_group[_u(b), _u(w * 64 + _low(pieces))]
            pieces &= pieces - _ONE
            first = t.group_start[_u(g)]
            last = t.group_start[_u(g + 1)]
            stats[2] += last - first
            for o in range(first, last):
                if _fits_listed(t, key, level, o):
                    cand[_u(start + n)] = o
                    n += 1
    return n


# -- the level loop's steps, after Knuth's names (see the essay) --------------------------


@njit(**PLAIN, inline="always")
def _enter_level(s, level, nodes, memo_on, memo_levels):
    """M2, "enter level": note where the level's count and nodes start, for the memo
    (the node is counted by the caller)."""
    if memo_on and level <= memo_levels:
        for k in range(s.total.shape[0]):
            s.level_entry[_u(level), _u(k)] = s.total[_u(k)]
        s.level_nodes[_u(level)] = nodes


@njit(**PLAIN, inline="always")
def _choose(t, s, forced, level, urgent_mode):
    """M3, "choose": write the options to try at ``level`` (the forced option, or
    those that fit ``_branches``' item) to ``cand[cand_start[level]:]``; return how
    many (-1 when every primary bit is covered)."""
    start = s.cand_start[_u(level)]
    if level < forced.shape[0]:  # a forced option: the one branch
        o = forced[_u(level)]
        if _first_free(s.key, level, t.primary_mask) < 0:
            return -1
        if _fits(t.mask, t.option_counter_start, t.option_counter, t.counter_hi,
                 s.key, level, o, t.words):  # fmt: skip
            s.cand[_u(start)] = o
            return 1
        return 0
    return _branches(t, s.key, s.free, level, s.cand, start, urgent_mode, s.stats)


@njit(**PLAIN, inline="always")
def _found(t, s, level, stream, max_solutions):
    """Every primary bit covered: a solution when every counter has reached its lower
    bound. Return the code to stop with (OVERFLOW, SOLUTION or LIMIT), else NO_STOP."""
    if not _counters_done(s.key, level, t.words, t.counter_lo):
        return NO_STOP
    if not _add_one(s.total):
        return OVERFLOW
    if stream:
        return SOLUTION
    if _at_least(s.total, max_solutions):
        return LIMIT
    return NO_STOP


@njit(**PLAIN, inline="always")
def _prefetch_children(t, s, level, start, n):
    """Ask for the memo buckets of the level's ``n`` children (from ``start``) ahead of
    their lookups: a child's hash is its parent's plus its option's."""
    for j in range(start, start + n):
        h = s.key_hash[_u(level)] + t.option_hash[_u(s.cand[_u(j)])]
        _prefetch_row(s.memo, _bucket(h, s.memo))


@njit(**PLAIN, inline="always")
def _prepare(s, prefix, level, start, n, n_forced, n_fixed):
    """M4: record the level's ``n`` branches (from ``start``) and the first to try (at a
    level the prefix replays, its branch); False when the prefix's branch is not there."""
    s.cand_start[_u(level + 1)] = start + n
    s.branch_degree[_u(level)] = n
    s.branch_index[_u(level)] = 0
    if n_forced <= level < n_fixed:
        k = prefix[_u(level - n_forced)]
        if k >= n:
            return False
        s.branch_index[_u(level)] = k
    return True


@njit(**PLAIN, inline="always")
def _try_option(t, s, level, o, memo_on, n_fixed, memo_levels):
    """M5-M6, "try x_l": make the child of option ``o`` (its key, hash and free
    pieces). Return ENTER to go down to it, KNOWN when the memo held its count (added
    to ``total``), or OVERFLOW when that count did not fit the limbs."""
    key = s.key
    _push(t.mask, t.option_counter_start, t.option_counter, key, level, o, t.words)
    s.key_hash[_u(level + 1)] = s.key_hash[_u(level)] + t.option_hash[_u(o)]
    _use_piece(s.free, level, t.option_slot[_u(o)])
    if memo_on and n_fixed <= level + 1 <= memo_levels:
        row = _memo_find(key, level + 1, s.key_hash[_u(level + 1)], s.memo)
        if row >= 0:
            if not _add(s.total, s.memo, row, key.shape[1] + 1):
                return OVERFLOW
            return KNOWN
    s.choice[_u(level)] = o
    return ENTER


@njit(**PLAIN, inline="always")
def _next_branch(s, level, i):
    """M7, "try again": the level's branch after its ``i``-th."""
    s.branch_index[_u(level)] = i + 1


@njit(**PLAIN, inline="always")
def _memo_keep(s, level, nodes, memo_on, n_fixed, memo_levels):
    """M9 with the memo, "leave level": keep the subtree's count, when the level is one
    the memo keeps and its subtree took at least ``MEMO_MIN_NODES`` nodes."""
    if memo_on and n_fixed <= level <= memo_levels:
        weight = nodes - s.level_nodes[_u(level)]
        if weight >= MEMO_MIN_NODES:
            h = s.key_hash[_u(level)]
            _memo_store(s.key, level, h, s.memo, s.total, s.level_entry, _u(weight))


@njit(**PLAIN, inline="always")
def _pause(s, level, step, nodes):
    """Keep where the search stands for the next call, and the counters."""
    s.state[0] = level
    s.state[1] = step
    s.stats[1] = nodes
    _note_count(s.total, s.stats)


@njit(**PLAIN)
def search(t, s, regions, forced, prefix, split_depth, node_budget, max_solutions, stream, options):
    """Run (or resume) the search until done, a solution (if ``stream``), a leaf, a
    limit, an overflow or the budget.

    Parameters
    ----------
    t : dlx.kernels.bitset.layout.Tables
        The problem's arrays (``dlx.kernels.bitset.layout.BitLayout``, as a namedtuple).
    s : dlx.kernels.bitset.layout.State
        This search's arrays: ``key`` uint64[max_level + 1, key_words]; ``cand``
        int64[(max_level + 1) * max_branches]; ``cand_start``, ``choice``,
        ``branch_index``, ``branch_degree``, ``level_nodes`` int64[max_level + 1];
        ``state`` int64[2] (level, step); ``stats`` int64[3] (solutions, capped;
        nodes entered; options tested); ``total`` uint64[limbs]; ``level_entry``
        uint64[max_level + 1, limbs]; ``key_hash`` uint64[max_level + 1]; ``memo``
        uint64[2 * buckets, width] (no rows: no memo); ``reach`` and ``spare``
        uint64 scratch for region pruning.
    regions : None, or (``marks`` uint64[3, words], ``stack`` int64[n_bits]), the
        scratch of a fill: None for ``prune_cap`` 0 or 1 (lone cells only), a
        specialisation compiled without the fill.
    forced : int64[k]
        Options (list order) taken at levels ``0..k-1``.
    prefix : int64[m]
        Branch numbers taken at levels ``k..k+m-1`` (a subproblem of a split).
    split_depth : int
        Stop at this level and report a LEAF (``NO_SPLIT`` for none).
    node_budget, max_solutions : int
        Nodes this call may enter; stop with LIMIT once the count reaches
        ``max_solutions`` (-1: no limit).
    stream : bool
        Return at each solution (the options chosen are ``choice[:level]``).
    options : int64[3]
        ``urgent_mode`` (0: never branch on urgent items first), ``prune_cap`` (the
        largest region judged; 0: no region pruning), ``memo_levels`` (the deepest
        level whose count the memo keeps).

    Returns
    -------
    int: DONE, SOLUTION, PAUSED, LEAF, LIMIT or OVERFLOW.
    """
    memo_on = s.memo.shape[0] > 0
    urgent_mode = options[0]
    prune_cap = options[1] if t.n_cells > 0 else 0
    memo_levels = options[2]
    level = s.state[0]
    step = s.state[1]
    nodes = s.stats[1]
    node_stop = nodes + node_budget
    n_forced = forced.shape[0]
    n_fixed = n_forced + prefix.shape[0]
    code = DONE
    while True:
        if step == FORWARD:
            # M2-M4, enter the level: a solution, a dead end (no option fits, or a dead
            # region), a leaf (the split's depth), or its branches noted for M5
            if nodes >= node_stop:
                code = PAUSED
                break
            nodes += 1
            _enter_level(s, level, nodes, memo_on, memo_levels)
            n = _choose(t, s, forced, level, urgent_mode)
            if n <= 0:  # a solution (every primary bit covered) or a dead end
                step = BACKDOWN
                found = _found(t, s, level, stream, max_solutions) if n < 0 else NO_STOP
                if found != NO_STOP:
                    code = found
                    break
                continue
            if prune_cap > 0 and level > 0:  # region pruning (see its heading)
                o = s.choice[_u(level - 1)]
                if regions is None:  # compiled without the fill: see ``regions``
                    dead = _lone_cell(t, s.key, level, o, s.reach, s.spare)
                else:
                    marks, stack = regions
                    dead = _dead_region(
                        t, s.key, level, o, prune_cap, marks, stack, s.reach, s.spare
                    )
                if dead:
                    step = BACKDOWN
                    continue
            start = s.cand_start[_u(level)]
            if memo_on and n_fixed <= level + 1 <= memo_levels:
                _prefetch_children(t, s, level, start, n)
            if level == split_depth:
                code = LEAF
                step = BACKDOWN
                break
            step = ADVANCE if _prepare(s, prefix, level, start, n, n_forced, n_fixed) else BACKDOWN
        elif step == ADVANCE:
            # M5-M7, "try x_l": down to the next branch's child, unless the memo knows it
            i = s.branch_index[_u(level)]
            if i >= s.branch_degree[_u(level)]:
                step = BACKDOWN
                continue
            o = s.cand[_u(s.cand_start[_u(level)] + i)]
            tried = _try_option(t, s, level, o, memo_on, n_fixed, memo_levels)
            if tried == ENTER:
                level += 1
                step = FORWARD
            elif tried == OVERFLOW:
                code = OVERFLOW
                break
            elif level < n_fixed:  # KNOWN at a fixed level: its one branch is done
                step = BACKDOWN
            else:
                _next_branch(s, level, i)
        else:
            # M9, "leave level" (the memo keeps the subtree's count; undoing the choice is
            # ``level -= 1``: nothing else), then M7 one level up: the next branch
            _memo_keep(s, level, nodes, memo_on, n_fixed, memo_levels)
            if level == 0:
                code = DONE
                break
            level -= 1
            if level < n_fixed:
                continue
            _next_branch(s, level, s.branch_index[_u(level)])
            step = ADVANCE
    _pause(s, level, step, nodes)
    return code
