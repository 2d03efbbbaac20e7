"""The tight kernel: exact cover with colours, branching on the tightest primary item.

The search lives in this file, its reads of the bit sets in ``dlx/kernels/bands.py`` and the batch
call in ``batch.py`` (numba's cache only notices edits to the file a function is
defined in: each file records the digests of the files whose jitted code it calls,
checked by ``tests/test_structure.py``); ``dlx/kernels/tight/layout.py`` builds its
arrays and ``dlx/kernels/tight/search.py`` drives it.

Data structures
---------------
Option ``k`` is bit ``k`` of a *live set*, ``live[l]`` (``words`` uint64 words): the
options compatible with the ``l`` chosen at levels ``0..l-1``; ``uncovered[l]`` is the
set of primary items not yet covered. An item's live options are counted when needed,
by popcount over its *band* (the words of the live set where it has options, padded
to a multiple of ``BAND_WORDS`` on wide sets (``dlx/kernels/tight/layout.py``), with its own
dense mask beside them: contiguous loads, no per-option work). Counting this way
costs a few words per item instead of an update per option killed for each of its
items, which is what made decremented counts (and dancing links) slow. ``key[l]``
(for the memo) is the OR of the chosen options' key bits (``dlx/kernels/tight/layout.py``), and
``key_hash[l]`` the sum of a random word per key bit set. A child's rows are its
parent's, changed: nothing is ever undone, and going back up a level is ``level -= 1``.

Knuth's steps, as in DLX1/SSXCC:

- *Choose* (entering a level, ``FORWARD``): the uncovered primary item with the fewest
  live options (minimum remaining values; the first such item in the order, stopping
  at the first with one option, a forced move: sudoku's singles). None uncovered: a
  solution. Its live options are written to ``cand[cand_start[l]:]``, their number to
  ``branch_degree[l]``.
- *Try* (``ADVANCE``): option ``o = cand[cand_start[l] + branch_index[l]]``. *Cover*:
  copy the level's rows to the child, mark ``o``'s primary items covered, and clear
  ``o``'s conflicts from the live set (the options killed are the *updates*): in one
  pass, ``live & ~conflict[o]``, with ``o``'s dense conflict mask (the OR of its
  conflict groups) where the layout has those masks, else group by group. A child
  left with an uncovered item without options is found dead when it is entered (its
  *choose* meets a count of 0).
- *Back down* (``BACKDOWN``): leave the level; the parent tries its next option.

The loop's steps have the links kernel's names (``dlx/kernels/links/kernel.py``), each
for the same step of Knuth's: ``_enter_level`` (M2), ``_choose`` (M3), ``_prepare``
(M4), ``_try_option`` (M5-M6), ``_next_branch`` (M7), ``_memo_keep`` (M9 with the
memo). Nothing undoes a choice (the links kernel's M9): a child's rows are new.

Leaves counted at their parent: in a count (not a stream), *try* first asks whether
the child's solutions are known without making it (``_child_count``). A live
option covers uncovered items only, so one with as many primary items as are left
completes a solution: 1. Without a solution limit and with dense conflict masks, a
child with one item ``q`` left has one solution per option of ``q`` live in it: the
popcount of ``q``'s band of ``live & ~conflict[o]`` (unless the child is at the depth
of a split: every node there is a leaf, a subproblem). Either is added to the count and
the child is skipped, not entered (not a node): where solutions are many, most nodes
were such leaves and their parents. Branch numbers, paths and estimates stay those
of the whole tree.

The branch numbers are those of Knuth's estimate (``dlx.driver.driver.tree_fraction``) and
the paths of a parallel split.

Memo: for full counts, the solutions below a node depend only on its key (the options
chosen so far determine the live set and the items left through their key bits).
The table (``memo``) holds two rows a bucket: the key's words, the nodes its subtree
took (0: an empty row), then its count in limbs. A child is looked up before it is
made (its hash is its parent's plus the words of its new key bits); a hit adds the
count and skips it. On leaving a level between the fixed ones and ``memo_levels``
whose subtree took at least ``MEMO_MIN_NODES`` nodes, its count (``total`` less
``level_entry[l]``) is stored in its bucket's first row if that row's took no more
nodes (that entry moves to the second row), else in the second. Every stored count
is a whole subtree's, so the table stays exact whatever it forgets.

Counts are exact at any size: ``total``, ``level_entry`` and the memo's counts hold
``limbs`` uint64 words, least significant first. A carry out of the top limb returns
``OVERFLOW``; the caller starts again with twice the limbs.

Compiling: numba copies the IR of an ``inline="always"`` helper into each caller (at a
cost that grows with the square of its size): the small steps. *Try* and the memo's
steps are ``FORCED``: numba compiles each once, LLVM inlines it where it is called
(*try* twice, in a frame and out, each with ``framed`` a constant). Opening a frame
(``frames.open_frame``, once a frame) is a call.

Resuming: ``state`` holds ``level, step``; everything else lives in the arrays, so a
call stops after a budget of nodes (``PAUSED``) and the next goes on.
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
from dlx.kernels.bands import gather as _gather
from dlx.kernels.bands import has_bit as _has_bit
from dlx.kernels.bands import live_options as _live_options
from dlx.kernels.bands import low as _low
from dlx.kernels.bits import popcount as _popcount
from dlx.kernels.shared import add_count as _add
from dlx.kernels.shared import add_one as _add_one
from dlx.kernels.shared import at_least as _at_least
from dlx.kernels.shared import find as _memo_find
from dlx.kernels.shared import note_count as _note_count
from dlx.kernels.shared import store as _memo_store
from dlx.kernels.tight import frames, leaves
from dlx.kernels.tight.batch import (
    search_batch,  # noqa: F401 (the batch kernel, here for its callers)
)

# Nothing here allocates: compiled without numba's reference counting (see bitset.py).
PLAIN = {"cache": True, "_nrt": False}
# compiled once by numba, inlined into each caller by LLVM ("Compiling" in the essay)
FORCED = {**PLAIN, "forceinline": True}
# Each *_DIGEST is the sha256 of the file named beside it, checked by tests/test_structure.py:
# numba's cache of this file goes stale when that file changes, unless this file changes too.
MEMO_DIGEST = "04c8f20e446678d1"  # dlx/kernels/shared.py
BITS_DIGEST = "2ca1aca66e643eb6"  # dlx/kernels/bits.py
BANDS_DIGEST = "c07b239f6ce16d0f"  # dlx/kernels/bands.py
TIGHT_BATCH_DIGEST = "fd8702e57c1ff445"  # dlx/kernels/tight/batch.py
TIGHT_FRAMES_DIGEST = "7c2a1617be6d5609"  # dlx/kernels/tight/frames.py
TIGHT_LEAVES_DIGEST = "ebb55f8f80918f1b"  # dlx/kernels/tight/leaves.py
NO_STOP = -1  # what _found returns when the search goes on
ALL, MANY = -2, -1  # what _one_left says when an option leaves no item, or two or more
ENTER, KNOWN = 1, 0  # what _try_option did (or OVERFLOW)
MEMO_MIN_NODES = 2  # a subtree of fewer nodes is not worth a slot

_u = np.uint64  # unsigned indices: no test for negative ones (see dlx/kernels/links/kernel.py)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_NONE = 1 << 62  # more options than any item has


@njit(**PLAIN, inline="always")
def _choose_item(t, f, live, uncovered, level, framed):
    """The uncovered primary item with the fewest live options (counted in the frame if
    ``framed``, else by bands; the first of ties; the first with at most one, with 0 in
    a frame if an item after it has none) and that number; (-1, 0): every item covered."""
    best = -1
    best_n = _NONE
    for w in range(uncovered.shape[1]):
        items = uncovered[_u(level), _u(w)]
        while items:
            p = w * 64 + _low(items)
            items &= items - _ONE
            if framed:
                n = frames.count_in(f, level, p)
            else:
                n = _live_options(t, live, level, p)
            if n < best_n:
                best = p
                best_n = n
                if n <= 1:
                    if n == 1 and framed and frames.dead_after(f, uncovered, level, w, items):
                        return best, 0
                    return best, best_n
    if best < 0:
        return -1, 0
    return best, best_n


@njit(**PLAIN, inline="always")
def _child_key(option_key_start, option_key, group_hash, key, key_hash, level, o):
    """Make ``key[level + 1]`` and its hash: ``level``'s with option ``o``'s key bits."""
    h = key_hash[_u(level)]
    child = level + 1
    for w in range(key.shape[1]):
        key[_u(child), _u(w)] = key[_u(level), _u(w)]
    for j in range(option_key_start[_u(o)], option_key_start[_u(o + 1)]):
        b = option_key[_u(j)]
        if not _has_bit(key, level, b):
            h += group_hash[_u(b)]
            key[_u(child), _u(b >> 6)] |= _ONE << np.uint64(b & 63)
    key_hash[_u(child)] = h


@njit(**PLAIN, inline="always")
def _clear_dense(t, live, level, o):
    """Row ``level + 1`` of ``live``: row ``level`` less option ``o``'s conflict mask,
    in one pass; return the options cleared."""
    updates = _ZERO
    for w in range(t.words):
        a = live[_u(level), _u(w)]
        m = t.conflict[_u(o), _u(w)]
        updates += _popcount(a & m)
        live[_u(level + 1), _u(w)] = a & ~m
    return updates


@njit(**PLAIN, inline="always")
def _clear_groups(t, live, level, o):
    """Row ``level + 1`` of ``live``: row ``level`` less the options of option ``o``'s
    conflict groups, group by group; return the options cleared."""
    child = level + 1
    for w in range(t.words):
        live[_u(child), _u(w)] = live[_u(level), _u(w)]
    updates = _ZERO
    for j in range(t.option_group_start[_u(o)], t.option_group_start[_u(o + 1)]):
        g = t.option_group[_u(j)]
        for k in range(t.group_start[_u(g)], t.group_start[_u(g + 1)]):
            w = t.group_word[_u(k)]
            bits = live[_u(child), _u(w)] & t.group_bits[_u(k)]
            updates += _popcount(bits)
            live[_u(child), _u(w)] ^= bits
    return updates


@njit(**PLAIN, inline="always")
def _cover_items(t, s, f, level, o):
    """Row ``level + 1`` of ``uncovered``: row ``level`` less option ``o``'s items (its
    mask ``f.items[o]`` where the search has those, else item by item)."""
    uncovered = s.uncovered
    child = level + 1
    if f.items.shape[0] > 0:
        for w in range(uncovered.shape[1]):
            uncovered[_u(child), _u(w)] = uncovered[_u(level), _u(w)] & ~f.items[_u(o), _u(w)]
        return
    for w in range(uncovered.shape[1]):
        uncovered[_u(child), _u(w)] = uncovered[_u(level), _u(w)]
    for j in range(t.option_primary_start[_u(o)], t.option_primary_start[_u(o + 1)]):
        p = t.option_primary[_u(j)]
        uncovered[_u(child), _u(p >> 6)] &= ~(_ONE << np.uint64(p & 63))


@njit(**PLAIN, inline="always")
def _cover(t, s, level, o):
    """Make the live set of ``level + 1``: ``level``'s with option ``o`` taken (its
    items' row is ``_cover_items``'); return the options cleared."""
    if t.conflict.shape[0] > 0:
        return _clear_dense(t, s.live, level, o)
    return _clear_groups(t, s.live, level, o)


@njit(**PLAIN, inline="always")
def _one_left(s, level):
    """What the option taken at ``level`` leaves uncovered (row ``level + 1`` of
    ``uncovered``, made): ``ALL`` when it covers every primary item, the item ``q``
    when it leaves one, ``MANY`` when it leaves more."""
    uncovered = s.uncovered
    child = level + 1
    left = _ZERO
    for w in range(uncovered.shape[1]):
        left += _popcount(uncovered[_u(child), _u(w)])
    if left == _ZERO:
        return ALL
    if left > _ONE:
        return MANY
    for w in range(uncovered.shape[1]):
        rest = uncovered[_u(child), _u(w)]
        if rest:
            return w * 64 + _low(rest)
    return MANY


@njit(**PLAIN, inline="always")
def _child_count(t, s, f, level, o, framed, alive, whole):
    """The solutions below ``level``'s child by option ``o`` (live, its items' row made),
    when they are known without its live set: 1 when ``o`` covers every primary item
    left; 0 in a frame when the child's frame row is empty (``not alive``); if
    ``whole``, when one item ``q`` is left after ``o``, the options of ``q`` live in the
    child (each a solution), counted in its frame row, or by ``q``'s band of ``live &
    ~conflict[o]`` with dense conflict masks; else -1."""
    q = _one_left(s, level)
    if q == ALL:
        return 1
    if framed and not alive:
        return 0
    if q == MANY or not whole:
        return -1
    if framed:
        return frames.count_in(f, level + 1, q)
    if t.conflict.shape[0] == 0:
        return -1
    n = _ZERO
    band = t.item_band_start[_u(q)]
    w = t.item_first_word[_u(q)] - band
    for k in range(band, t.item_band_start[_u(q + 1)]):
        live = s.live[_u(level), _u(w + k)] & ~t.conflict[_u(o), _u(w + k)]
        n += _popcount(live & t.item_band[_u(k)])
    return np.int64(n)


@njit(**PLAIN, inline="always")
def _add_small(total, n):
    """``total += n`` (limbs; ``n >= 0``); return False on a carry out of the top."""
    carry = np.uint64(n)
    for k in range(total.shape[0]):
        a = total[_u(k)] + carry
        carry = _ONE if a < carry else _ZERO
        total[_u(k)] = a
        if carry == _ZERO:
            return True
    return False


@njit(**FORCED)
def _memo_lookup(
    option_key_start, option_key, group_hash, key, key_hash, memo, memo_stats, level, o, look
):
    """Make the key of ``level``'s child by option ``o``; if ``look``, return the memo's
    row for it (-1: none), noting the lookup and the nodes a hit saves."""
    _child_key(option_key_start, option_key, group_hash, key, key_hash, level, o)
    if not look:
        return -1
    row = _memo_find(key, level + 1, key_hash[_u(level + 1)], memo)
    memo_stats[0] += 1
    if row >= 0:
        memo_stats[1] += np.int64(memo[_u(row), _u(key.shape[1])])
    return row


@njit(**PLAIN, inline="always")
def _memo_child(t, s, level, o, look):
    """The memo's part of *try*: make the key of ``level``'s child by option ``o`` and,
    if ``look``, add its count when the memo holds it: 1 if it did, 0 if not, -1 on an
    overflow."""
    row = _memo_lookup(
        t.option_key_start, t.option_key, t.group_hash, s.key, s.key_hash, s.memo,
        s.memo_stats, level, o, look,
    )  # fmt: skip
    if row < 0:
        return 0
    return 1 if _add(s.total, s.memo, row, s.key.shape[1] + 1) else -1


@njit(**FORCED)
def _memo_keep(key, key_hash, memo, total, level_entry, level_nodes, level, nodes):
    """M9 with the memo, "leave level": keep its subtree's count if it took enough
    nodes."""
    weight = nodes - level_nodes[_u(level)]
    if weight >= MEMO_MIN_NODES:
        h = key_hash[_u(level)]
        _memo_store(key, level, h, memo, total, level_entry, _u(weight))


@njit(**PLAIN, inline="always")
def _enter_level(s, level, nodes, memo_on, memo_levels):
    """M2, "enter level": note where the level's count and nodes start, for the memo
    (the node is counted by the caller)."""
    if memo_on and level <= memo_levels:
        for k in range(s.total.shape[0]):
            s.level_entry[_u(level), _u(k)] = s.total[_u(k)]
        s.level_nodes[_u(level)] = nodes


@njit(**PLAIN, inline="always")
def _choose(t, s, f, level, forced, start, split_depth):
    """M3, Knuth's *choose*: write the options to try at ``level`` to ``cand[start:]``
    (frame bits in a frame, ``frames.py``, which opens here when it should); return how
    many (-1 when every primary item is covered: a solution)."""
    if level < forced.shape[0]:
        o = forced[_u(level)]
        if not _has_bit(s.live, level, o):
            return 0
        s.cand[_u(start)] = o
        return 1
    framed = frames.in_frame(f, level)
    p, n = _choose_item(t, f, s.live, s.uncovered, level, framed)
    if p < 0:
        return -1
    if n == 0:
        return 0
    if not framed:
        if level == split_depth or not frames.opens(t, f, s, level, n):
            return _gather(t, s.live, level, p, s.cand, start)
        frames.open_frame(f, s.live, level, t.words)
    return frames.gather(f, level, p, s.cand, start)


@njit(**PLAIN, inline="always")
def _found(s, stream, max_solutions):
    """Every primary item covered: a solution. Return the code to stop with (OVERFLOW,
    SOLUTION or LIMIT), else NO_STOP."""
    if not _add_one(s.total):
        return OVERFLOW
    if stream:
        return SOLUTION
    if _at_least(s.total, max_solutions):
        return LIMIT
    return NO_STOP


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


@njit(**FORCED)
def _try_option(t, s, f, level, o, framed, stream, max_solutions, split_depth, look):
    """M5-M6, "try x_l": the child's uncovered items (a row or two), and in a frame
    (``framed``) its frame row (a few words); count the child of option ``o`` when its
    solutions are known without its live set (``_child_count``, unless ``stream``: a
    stream, or a child whose level is forced or replayed, entered to check it; then
    the memo's, when ``look``), else make it (out of a frame, ``_cover``). Return ENTER
    to go down to it, KNOWN when it was counted, or OVERFLOW when that count did not fit
    the limbs."""
    updates = _ZERO
    alive = True
    if framed:
        updates, alive = frames.clear(t, f, level, o)
    _cover_items(t, s, f, level, o)
    if not stream:
        whole = max_solutions < 0 and level + 1 != split_depth
        known = _child_count(t, s, f, level, o, framed, alive, whole)
        if known >= 0:
            return KNOWN if _add_small(s.total, known) else OVERFLOW
    if s.memo.shape[0] > 0:
        counted = _memo_child(t, s, level, o, look)
        if counted != 0:
            return KNOWN if counted > 0 else OVERFLOW
    if not framed:
        updates = _cover(t, s, level, o)
    s.stats[2] += np.int64(updates)
    if (
        not framed
        and leaves.forced_out(t, s, level + 1, stream or max_solutions >= 0, split_depth) > 0
    ):
        return KNOWN if _add_small(s.total, 1) else OVERFLOW
    s.choice[_u(level)] = o
    return ENTER


@njit(**PLAIN, inline="always")
def _next_branch(s, level, i):
    """M7, "try again": the level's branch after its ``i``-th."""
    s.branch_index[_u(level)] = i + 1


@njit(**PLAIN)
def search(t, s, f, forced, prefix, split_depth, node_budget, max_solutions, stream, memo_levels):
    """Run (or resume) the search until done, a solution (if ``stream``), a leaf, a
    limit, an overflow or the budget.

    Parameters
    ----------
    t : dlx.kernels.tight.layout.Tables
        The problem's arrays (``dlx.kernels.tight.layout.TightLayout``, as a namedtuple).
    s : dlx.kernels.tight.layout.State
        This search's arrays: ``live`` uint64[rows, words]; ``uncovered``
        uint64[rows, item_words]; ``key`` uint64[rows, key_words]; ``key_hash`` uint64[rows];
        ``cand`` int64[rows * max_branches]; ``cand_start``, ``choice``,
        ``branch_index``, ``branch_degree``, ``level_nodes`` int64[rows]; ``state``
        int64[2] (level, step); ``stats`` int64[3] (solutions, capped; nodes entered;
        updates); ``total`` uint64[limbs]; ``level_entry`` uint64[rows, limbs];
        ``memo`` uint64[2 * buckets, width] (no rows: no memo); ``memo_stats``
        int64[2]: the memo's lookups, and the nodes its hits saved (their subtrees').
    f : dlx.kernels.tight.search.Frame
        ``items`` uint64[n_options, item_words]: each option's primary items (no rows:
        none, they are read from ``option_primary``); the frame's arrays
        (``dlx/kernels/tight/frames.py``; no ``member_start``: no frames).
    forced, prefix : int64[k], int64[m]
        Options taken at levels ``0..k-1``, branch numbers taken at levels
        ``k..k+m-1`` (a subproblem of a split).
    split_depth, memo_levels : int
        Stop at this level and report a LEAF (``NO_SPLIT`` for none); the deepest
        level whose count the memo keeps.
    node_budget, max_solutions : int
        Nodes this call may enter; stop with LIMIT once the count reaches
        ``max_solutions`` (-1: no limit).
    stream : bool
        Return at each solution (the options chosen are ``choice[:level]``); else the
        children whose solutions are known are counted, not entered (see the essay).

    Returns the code (``dlx.driver.codes``): DONE, SOLUTION, PAUSED, LEAF, LIMIT or OVERFLOW.
    """
    stats, total = s.stats, s.total
    memo_on = s.memo.shape[0] > 0
    level, step = s.state[0], s.state[1]
    limit = max_solutions
    nodes = stats[1]
    node_stop = nodes + node_budget
    n_forced = forced.shape[0]
    n_fixed = n_forced + prefix.shape[0]
    code = DONE
    while True:
        if step == FORWARD:
            # M2-M4, enter the level: a solution, a dead end (no option to try), a leaf
            # (the split's depth), or its branches noted for M5
            if nodes >= node_stop:
                code = PAUSED
                break
            nodes += 1
            _enter_level(s, level, nodes, memo_on, memo_levels)
            start = s.cand_start[_u(level)]
            n = _choose(t, s, f, level, forced, start, split_depth)
            step = BACKDOWN
            if n < 0:
                found = _found(s, stream, max_solutions)
                if found != NO_STOP:
                    code = found
                    break
                continue
            if n == 0:
                continue
            if level == split_depth:
                code = LEAF
                break
            if _prepare(s, prefix, level, start, n, n_forced, n_fixed):
                step = ADVANCE
        elif step == ADVANCE:
            # M5-M7, "try x_l": down to the next branch's child, unless its solutions are
            # known without it (counted, then the next branch)
            i = s.branch_index[_u(level)]
            if i >= s.branch_degree[_u(level)]:
                step = BACKDOWN
                continue
            o = s.cand[_u(s.cand_start[_u(level)] + i)]
            look, enter = n_fixed <= level + 1 <= memo_levels, stream or level + 1 < n_fixed
            if frames.in_frame(f, level):
                o = f.map[_u(o)]
                tried = _try_option(t, s, f, level, o, True, enter, limit, split_depth, look)
            else:
                tried = _try_option(t, s, f, level, o, False, enter, limit, split_depth, look)
            if tried == ENTER:
                level += 1
                step = FORWARD
                continue
            if tried == OVERFLOW:
                code = OVERFLOW
                break
            if level < n_fixed:  # KNOWN at a fixed level: its one branch is done
                step = BACKDOWN
            else:
                _next_branch(s, level, i)
            if _at_least(total, max_solutions):
                code = LIMIT
                break
        else:
            # M9, "leave level" (the memo keeps the subtree's count; undoing the choice is
            # ``level -= 1``: nothing else), then M7 one level up: the next branch
            if memo_on and n_fixed <= level <= memo_levels:
                _memo_keep(
                    s.key, s.key_hash, s.memo, total, s.level_entry, s.level_nodes, level, nodes
                )
            if level == f.level[0]:
                f.level[0] = frames.NO_FRAME
            if level == 0:
                code = DONE
                break
            level -= 1
            if level < n_fixed:
                continue
            _next_branch(s, level, s.branch_index[_u(level)])
            step = ADVANCE
    s.state[0] = level
    s.state[1] = step
    stats[1] = nodes
    _note_count(total, stats)
    return code


@njit(cache=True)
def sanity(t, s, f, root_live, check_key):
    """Check the rows of levels ``0..level`` against the options chosen, recomputed from
    scratch (the keys too when ``check_key``: a search with a memo keeps them; in a
    frame, its rows); return 0, or a code > 0 naming the first fault (level * 8 + kind:
    1 a live set, 2 the uncovered items, 3 a key, 4 a choice that was not live)."""
    level = s.state[0]
    live = root_live.copy()
    uncovered = np.zeros(s.uncovered.shape[1], np.uint64)
    for p in range(t.n_primary):
        uncovered[p >> 6] |= _ONE << np.uint64(p & 63)
    key = np.zeros(s.key.shape[1], np.uint64)
    for lev in range(level + 1):
        if lev > 0:
            o = s.choice[lev - 1]
            if not (live[o >> 6] >> np.uint64(o & 63)) & _ONE:
                return lev * 8 + 4
            for j in range(t.option_primary_start[o], t.option_primary_start[o + 1]):
                p = t.option_primary[j]
                uncovered[p >> 6] &= ~(_ONE << np.uint64(p & 63))
            for j in range(t.option_group_start[o], t.option_group_start[o + 1]):
                g = t.option_group[j]
                key[g >> 6] |= _ONE << np.uint64(g & 63)
                for k in range(t.group_start[g], t.group_start[g + 1]):
                    live[t.group_word[k]] &= ~t.group_bits[k]
        if not frames.live_agrees(t, s, f, lev, live):
            return lev * 8 + 1
        for w in range(uncovered.shape[0]):
            if s.uncovered[lev, w] != uncovered[w]:
                return lev * 8 + 2
        if check_key and lev > 0:
            for w in range(key.shape[0]):
                if s.key[lev, w] != key[w]:
                    return lev * 8 + 3
    return 0
