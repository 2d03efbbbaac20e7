"""The numba search kernel: Algorithm M of TAOCP 7.2.2.1 (Knuth's DLX3) on flat arrays.

The search loop lives in this file and its parts in the files beside it: ``lists.py``
(the active list, the walks over an option's nodes, ``sanity``), ``commit.py`` (Knuth's
operations), ``domination.py``, ``memo.py`` and ``loops.py`` (the optional parts).
numba's cache only notices edits to the file a function is defined in, so each file
records the digests of the files whose jitted code it calls (``LISTS_DIGEST`` and the
like, checked by ``tests/test_structure.py``). The arrays are built by
``dlx/kernels/links/layout.py`` (numpy only), which also owns the field numbers used here.

Data structures
---------------
Items are numbered ``1..n_items``; primary items come first, ``1..second-1``, and
secondary items after them, ``second..n_items``. Item ``0`` is the root of the circular
doubly linked list of *active* primary items.

``item[PREV, i]``, ``item[NEXT, i]``
    the active-list links (primary items only).
``item[BOUND, i]``, ``item[SLACK, i]``
    for primary items: how many more options may still cover ``i`` (``hi`` minus the
    options chosen so far), and ``hi - lo``. Exact cover is ``BOUND = 1, SLACK = 0``.

Nodes live in one ``int32`` array ``node[field, x]`` of four rows, one per field: each
row is a contiguous array of its own, so ``node[TOP, x]`` is Knuth's ``TOP(x)`` and
costs one load (faster, on the pentomino counts, than keeping a node's four fields
side by side, ``node[x, field]``). Nodes ``0..n_items`` are the
item headers; then come the options, each followed by a *spacer* node. Knuth's layout:

``node[TOP, x]``
    for an option node, its item; for a header, the length of the item's list (LEN);
    for a spacer, ``-k`` where ``k`` is the number of the option before it.
``node[ULINK, x]``, ``node[DLINK, x]``
    the vertical links of the item's list. A spacer's ULINK is the first node of the
    option before it and its DLINK the last node of the option after it, so an
    option's nodes are reached cyclically by ``x + 1`` and a jump at the spacer.
``node[COLOR, x]``
    ``0``: no colour; ``> 0``: the colour number; ``-1``: a node whose colour is
    already settled by a purification (Knuth's trick to skip it).

Invariants: a node is in its item's list unless its option was hidden (or tweaked);
``node[TOP, i]`` counts the nodes in item ``i``'s list; a removed node keeps its own
links, so restoring in the reverse order puts every link back exactly. After a complete
search every array equals its initial state.

The search is iterative: ``level`` and the rows of ``level_data`` (one row a level:
``CHOICE``, ``BEST``, ``FIRST_TWEAK``, ``BRANCH_INDEX``, ``BRANCH_DEGREE``, and the
memo's two columns) hold everything, with ``progress`` (level, step and the counters),
so a call can stop after a budget of nodes and a later call resumes where it stopped.
These arrays travel together as one ``SearchState`` (``dlx.kernels.links.layout``), the loop items'
as one ``LoopState`` (or None). The step names follow Knuth, one function each:
FORWARD is "enter level" (M2, ``_enter_level``; M3, ``_choose``; M4, ``_prepare``),
ADVANCE "try x_l" (M5-M6, ``_try_option``), BACKUP "restore i" (M8,
``_restore_item``) and BACKDOWN "leave level" (M9 then M7, ``_undo_choice`` and
``_next_branch``). The walks over an option's nodes are written once, in
``dlx.kernels.links.lists``: stepping round an option past its spacer, taking a node out
of its item's list and putting it back, and doing that for every other node of an
option (hiding and unhiding it). ``sanity`` checks every
link and length (Knuth's ``sanity()``); the tests call it at every pause.

The prose of each part sits beside its code, Knuth's way: committing an option under
"Knuth's operations" in ``commit.py``, and the optional parts (item domination, the
memo, loop items) each under its own heading in its own file.
"""

import numpy as np
from numba import njit

from dlx.driver.codes import (  # noqa: F401 (the codes are the kernel's too)
    ADVANCE,
    BACKDOWN,
    BACKUP,
    DONE,
    FORWARD,
    LEAF,
    LIMIT,
    NO_SPLIT,
    OVERFLOW,
    PAUSED,
    SOLUTION,
)
from dlx.kernels.links.commit import (
    NO_SCORE,
    _choose_item,
    _commit_option,
    _cover,
    _restore_item,
    _tweak,
    _uncommit_option,
    _uncover,
)
from dlx.kernels.links.domination import (
    _after_commit,
    _take_single,
    _undo_domination,
)
from dlx.kernels.links.layout import (
    BEST,
    BOUND,
    BRANCH_DEGREE,
    BRANCH_INDEX,
    CHOICE,
    DLINK,
    DOMINATION_LENGTH,
    FIRST_TWEAK,
    LEVEL,
    LOOP_BAD,
    LOOP_CLOSED,
    LOOP_TRAIL,
    MEMO_NODES,
    MEMO_SOLUTIONS,
    NEXT,
    NODES,
    SINGLES_FLOOR,
    SLACK,
    SOLUTIONS,
    STEP,
    TOP,
    UPDATES,
)
from dlx.kernels.links.lists import (
    SANE,  # noqa: F401 (what sanity returns, for its callers)
    _deactivate,
    _reactivate,
    _unlink,
    sanity,  # noqa: F401 (Knuth's sanity(), for the driver and the tests)
)
from dlx.kernels.links.loops import (
    _loop_settle,
    _loop_settle_root,
    _loop_unforbid,
    _loop_unsettle,
)
from dlx.kernels.links.memo import (
    _memo_add,
    _memo_seen,
    _memo_store,
)

# The functions that allocate nothing are compiled without numba's reference counting
# (``_nrt=False``): with it, every inlined helper increfs and decrefs the arrays it is
# handed, atomically, in the innermost loops (see "Measured speed" in the README).
PLAIN = {"cache": True, "_nrt": False}

# Every array index in the hot loops goes through ``_u``: numba reads a negative signed
# index from the end of the array, at the price of a test and an add on each access,
# while an unsigned index is a plain load. The kernel's indices are never negative.
_u = np.uint64

MEMO_MIN_NODES = 2  # a subtree of fewer nodes is not worth a slot
# what _enter_level found
GO_ON, DEAD_END, FOUND, AT_LEAF = 0, 1, 2, 3
# dlx/kernels/links/lists.py's sha256, checked by tests/test_structure.py: numba's cache
# of this file's functions goes stale when that file changes, unless this file changes too
LISTS_DIGEST = "4986ee787cfca4be"
# dlx/kernels/links/domination.py's sha256, checked by tests/test_structure.py: numba's cache
# of this file's functions goes stale when that file changes, unless this file changes too
DOMINATION_DIGEST = "3f0c66d3d286a029"
# dlx/kernels/links/loops.py's sha256, checked by tests/test_structure.py: numba's cache
# of this file's functions goes stale when that file changes, unless this file changes too
LOOPS_DIGEST = "429da9ff34a6d6aa"
# dlx/kernels/links/commit.py's sha256, checked by tests/test_structure.py: numba's cache
# of this file's functions goes stale when that file changes, unless this file changes too
COMMIT_DIGEST = "afee608fc1c7e42f"
# dlx/kernels/links/memo.py's sha256, checked by tests/test_structure.py: numba's cache
# of this file's functions goes stale when that file changes, unless this file changes too
LINKS_MEMO_DIGEST = "dd8027fd7475e20e"


# -- Knuth's steps ---------------------------------------------------------------------------


@njit(inline="always", **PLAIN)
def _enter_level(st, loop, level, solutions, nodes, memo_on, n_forced, split_depth):
    """M2 (the node is counted by the caller): GO_ON to choose an item, FOUND (every
    primary item covered), AT_LEAF (the split's depth) or DEAD_END."""
    if memo_on:
        st.level_data[level, MEMO_SOLUTIONS] = solutions
        st.level_data[level, MEMO_NODES] = nodes
        for w in range(st.extra.shape[0]):
            st.level_count[level, w] = st.extra[w]
    if level == 0 and loop is not None and not st.has_bounds and n_forced == 0:
        if not _loop_settle_root(st.node, st.item, st.second, loop):
            return DEAD_END
    if st.item[NEXT, _u(0)] == 0:
        if loop is not None and loop.total[LOOP_CLOSED] == 0:
            return DEAD_END  # every item covered, but the on-edges are no cycle
        return FOUND
    if level == split_depth:
        return AT_LEAF
    return GO_ON


@njit(inline="always", **PLAIN)
def _choose(st, loop, level, forced):
    """M3: ``(i, first option node, degree, probes)``: the forced option's item at a
    forced level, else the item of least degree (probing with loop items)."""
    node = st.node
    if level < forced.shape[0]:
        cur = forced[level]
        st.level_data[level, SINGLES_FLOOR] = 0
        return node[TOP, _u(cur)], cur, 1, 0
    probes = 0
    i, least = _take_single(st, st.work, loop, level)
    if i != 0:
        return i, node[DLINK, _u(i)], 1, 0
    if loop is not None and not st.has_bounds:
        after = st.level_data[level - 1, BEST] if level > 0 else 0
        i, score, probes = _choose_loop_item(node, st.item, st.second, loop, after, st.work)
    else:
        i, score = _choose_item(node, st.item, st.has_bounds, least)
    return i, node[DLINK, _u(i)], score, probes


@njit(inline="always", **PLAIN)
def _prepare(st, level, i, cur, score):
    """M4: note the level's branching and count item i's bound down (covering it when it
    reaches zero); return the updates."""
    item = st.item
    row = st.level_data[level]
    row[BEST] = i
    row[CHOICE] = cur
    row[BRANCH_INDEX] = 0
    row[BRANCH_DEGREE] = score
    b = item[BOUND, _u(i)] - 1
    item[BOUND, _u(i)] = b
    row[FIRST_TWEAK] = 0 if b == 0 and item[SLACK, _u(i)] == 0 else cur
    if b == 0:
        return _cover(st.node, item, i, item.shape[1] - 1, st.second, st.work, -1)
    return 0


@njit(inline="always", **PLAIN)
def _tweak_choice(st, i, cur):
    """M5: ``(go_on, updates)``: go_on False when item i has no branch left here;
    else tweak the choice ``cur`` (or, for the null choice, take i out of play)."""
    node, item = st.node, st.item
    bound = item[BOUND, _u(i)]
    slack = item[SLACK, _u(i)]
    if bound == 0 and slack == 0:
        return cur != i, 0
    if node[TOP, _u(i)] <= bound - slack:
        return False, 0
    if cur != i:
        if bound == 0:
            _unlink(node, cur)  # tweak'(cur)
            return True, 1
        return True, _tweak(node, item, cur, st.second, st.work)
    if bound != 0:
        _deactivate(item, i)
    return True, 0


@njit(inline="always", **PLAIN)
def _try_option(st, loop, level, i, cur, n_forced, n_fixed, memo_keys, memo_counts):
    """M6: ``(entered, overflow, updates)``: commit the option of node ``cur``
    (``entered``), or add the count the memo holds for its child (``overflow`` if it
    does not fit), or undo a commit that left the child dead (then ``entered`` is
    False)."""
    node, item, second = st.node, st.item, st.second
    n_items = item.shape[1] - 1
    if cur <= n_items:
        return True, False, 0  # the null choice
    if memo_keys.shape[0] > 0:
        slot = _memo_seen(st, level, cur, n_fixed, memo_keys, memo_counts)
        if slot >= 0:
            return False, _memo_add(st, memo_counts, slot), 0
    start = 0 if loop is None else loop.total[LOOP_TRAIL]
    cap = st.domination[DOMINATION_LENGTH]
    dominating = cap > 0 and level + 1 >= n_forced
    done, last, dead_at = _commit_option(
        node, item, cur, second, n_items, loop, st.work, cap if dominating else -1
    )
    if last == cur and loop is not None:
        if loop.total[LOOP_BAD] > 0 or not _loop_settle(
            node, item, second, st.has_bounds, loop, i, cur, start
        ):
            last = cur - 1  # the option breaks the loop rules: undo all of it
            dead_at = cur
    everything = level + 1 == n_forced or (n_forced == 0 and level == 0)
    hidden, dead = _after_commit(st, st.work, level, cur, last == cur and dominating, everything)
    done += hidden
    if dead:
        if loop is not None:
            _loop_unsettle(node, item, loop, i)
        last = cur - 1
        dead_at = cur
    if last != cur:
        _uncommit_option(node, item, cur, last, dead_at, second, n_items, loop)
        return False, False, done
    return True, False, done


@njit(inline="always", **PLAIN)
def _next_branch(st, level, cur):
    """M7: the next option of the level's item (``cur``'s successor in its list)."""
    cur = st.node[DLINK, _u(cur)]
    st.level_data[level, CHOICE] = cur
    st.level_data[level, BRANCH_INDEX] += 1
    return cur


@njit(inline="always", **PLAIN)
def _memo_keep(st, level, solutions, nodes, memo_keys, memo_counts):
    """M9 with the memo: keep the count of the subtree just left, if it was worth it;
    return True on OVERFLOW."""
    row = st.level_data[level]
    if nodes - row[MEMO_NODES] < MEMO_MIN_NODES:
        return False
    return _memo_store(st, level, memo_keys, memo_counts, solutions - row[MEMO_SOLUTIONS])


@njit(inline="always", **PLAIN)
def _undo_choice(st, loop, level):
    """M9 one level up: undo the choice made at ``level``; return True for an option
    (uncommitted), False for the null choice (i back in play)."""
    node, item = st.node, st.item
    cur = st.level_data[level, CHOICE]
    i = st.level_data[level, BEST]
    if cur <= item.shape[1] - 1:
        _reactivate(item, i)
        return False
    _undo_domination(st, st.work, level)
    if loop is not None:
        _loop_unsettle(node, item, loop, i)
    _uncommit_option(node, item, cur, cur - 1, cur, st.second, item.shape[1] - 1, loop)
    return True


@njit(**PLAIN)
def search(st, loop, forced, prefix, memo_keys, memo_counts, split_depth, budget, limit, stream):
    """Run (or resume) Algorithm M until done, a solution (if ``stream``), a leaf, or
    the budget.

    Parameters
    ----------
    st : SearchState (``dlx.kernels.links.layout``)
        Links (changed in place, restored when done), a row per level, and
        ``progress``: ``0, FORWARD, 0, 0, 0`` to start, then as the last call left
        it (``nodes`` counts the levels entered, not the children found dead).
    loop : LoopState or None
        Loop items (see "Loop items" in the essay); None: no loop code is compiled.
    forced : int32[k]
        Nodes of options forced at levels ``0..k-1``, each in an exact-cover item
        (``lo = hi = 1``); the options must be compatible with each other.
    prefix : int32[m]
        Branch numbers taken at levels ``k..k+m-1`` (a subproblem of a split).
    memo_keys, memo_counts : arrays
        The memo of subtree counts (see "Memo"); ``memo_keys`` with no rows: off.
    split_depth, budget, limit : int
        Stop at this level with a LEAF (``NO_SPLIT``: none; dead children are not
        leaves); pause after this many nodes; stop with LIMIT at this many solutions.
    stream : bool
        Return at each solution (with the path in the ``CHOICE`` column).

    Returns DONE, SOLUTION, PAUSED, LEAF, LIMIT or OVERFLOW (a count that does not fit
    the limbs: start again with more); on SOLUTION and LEAF the current level is
    ``progress[LEVEL]``, and the next call goes on from there.
    """
    progress = st.progress
    level, step = progress[LEVEL], progress[STEP]
    solutions, nodes, updates = progress[SOLUTIONS], progress[NODES], progress[UPDATES]
    n_forced = forced.shape[0]
    n_fixed = n_forced + prefix.shape[0]
    node_stop = nodes + budget
    memo_on = memo_keys.shape[0] > 0
    code = DONE
    cur = 0
    i = 0
    if step != FORWARD:
        cur = st.level_data[level, CHOICE]
        i = st.level_data[level, BEST]
    while True:
        if step == FORWARD:
            if nodes >= node_stop:
                code = PAUSED
                break
            nodes += 1
            found = _enter_level(st, loop, level, solutions, nodes, memo_on, n_forced, split_depth)
            step = BACKDOWN
            if found == FOUND:
                solutions += 1
                if stream or solutions >= limit:
                    code = SOLUTION if stream else LIMIT
                    break
            elif found == AT_LEAF:
                code = LEAF
                break
            elif found == GO_ON:
                i, cur, score, probes = _choose(st, loop, level, forced)
                node_stop -= probes  # a probe takes from the budget as a node does
                if score > 0:
                    updates += _prepare(st, level, i, cur, score)
                    step = ADVANCE
        elif step == ADVANCE:
            go_on, done = _tweak_choice(st, i, cur)
            updates += done
            if not go_on:
                step = BACKUP
            elif n_forced <= level < n_fixed and (
                st.level_data[level, BRANCH_INDEX] < prefix[level - n_forced]
            ):
                # replaying a subproblem: this branch belongs to another one
                if cur == i:
                    _reactivate(st.item, i)
                    step = BACKUP
                else:
                    cur = _next_branch(st, level, cur)
            else:
                entered, overflow, done = _try_option(
                    st, loop, level, i, cur, n_forced, n_fixed, memo_keys, memo_counts
                )
                updates += done
                if overflow:
                    code = OVERFLOW
                    break
                if entered:
                    level += 1
                    step = FORWARD
                elif level < n_fixed:
                    step = BACKUP
                else:
                    cur = _next_branch(st, level, cur)
        elif step == BACKUP:
            # M8: restore i
            n_items = st.item.shape[1] - 1
            _restore_item(st.node, st.item, i, st.level_data[level, FIRST_TWEAK], n_items)
            step = BACKDOWN
        else:
            # M9: leave level, then M7: try again
            if memo_on and level >= n_fixed:
                if _memo_keep(st, level, solutions, nodes, memo_keys, memo_counts):
                    code = OVERFLOW
                    break
            if level == 0:
                if loop is not None:
                    _loop_unforbid(st.node, loop, np.int32(0))  # int32: as the trail marks
                code = DONE
                break
            level -= 1
            cur = st.level_data[level, CHOICE]
            i = st.level_data[level, BEST]
            if not _undo_choice(st, loop, level) or level < n_fixed:
                step = BACKUP
            else:
                cur = _next_branch(st, level, cur)
                step = ADVANCE
    progress[LEVEL], progress[STEP] = level, step
    progress[SOLUTIONS], progress[NODES], progress[UPDATES] = solutions, nodes, updates
    return code


@njit(**PLAIN)
def _unwind(st, loop):
    """Undo every level of a search stopped early, restoring the links."""
    progress = st.progress
    level = progress[LEVEL]
    n_items = st.item.shape[1] - 1
    while level > 0:
        level -= 1
        _undo_choice(st, loop, level)
        row = st.level_data[level]
        _restore_item(st.node, st.item, row[BEST], row[FIRST_TWEAK], n_items)
    if loop is not None:
        _loop_unforbid(st.node, loop, np.int32(0))  # int32: as the trail marks
    progress[LEVEL] = 0
    progress[STEP] = FORWARD


@njit(cache=True)
def search_batch(st, loop, forced_nodes, forced_start, limit, counts, first_solution, batch_stats):
    """Search once per forced set: set ``k`` forces ``forced_nodes[forced_start[k]:
    forced_start[k+1]]``. Counts up to ``limit`` each into ``counts[k]``, the first
    solution's option nodes (past the forced ones, null choices left out, ``-1``
    padded, cut at its width) into ``first_solution[k]``, and ``solutions, nodes,
    updates`` into ``batch_stats[k]``. ``st.level_data`` must have room for the
    deepest set. Each search runs to its end or its limit; the links are restored
    after each.
    """
    prefix = np.zeros(0, np.int32)
    memo_keys = np.zeros((0, 1), np.uint64)  # no memo: each search stops at a limit
    memo_counts = np.zeros((0, 2), np.uint64)
    budget = 1 << 62
    n_items = st.item.shape[1] - 1
    progress = st.progress
    for k in range(counts.shape[0]):
        forced = forced_nodes[forced_start[k] : forced_start[k + 1]]
        for j in range(progress.shape[0]):  # loops, not slices: slices compile slowly
            progress[j] = 0  # level 0, FORWARD, no solutions, nodes or updates
        for j in range(first_solution.shape[1]):
            first_solution[k, j] = -1
        while True:
            code = search(
                st, loop, forced, prefix, memo_keys, memo_counts, NO_SPLIT, budget, limit, True
            )
            if code != SOLUTION:
                break
            if progress[SOLUTIONS] == 1:
                j = 0
                for level in range(forced.shape[0], progress[LEVEL]):
                    chosen = st.level_data[level, CHOICE]
                    if chosen > n_items and j < first_solution.shape[1]:
                        first_solution[k, j] = chosen
                        j += 1
            if progress[SOLUTIONS] >= limit:
                _unwind(st, loop)
                break
        counts[k] = progress[SOLUTIONS]
        batch_stats[k, 0] = progress[SOLUTIONS]
        batch_stats[k, 1] = progress[NODES]
        batch_stats[k, 2] = progress[UPDATES]


@njit(**PLAIN)
def _live_options(node, item, second, loop, i, work):
    """How many options of active item ``i`` survive their commit and ``_loop_settle``,
    and the fewest trail entries one of those left (a probe: every array is restored)."""
    # the arguments typed as search types them, so that the helpers compiled for it serve
    # here too (an int32 index or trail mark, a literal -1 or False would compile copies)
    i = np.int64(i)
    no_cap = np.int64(-1)
    no_bounds = np.bool_(False)
    n_items = item.shape[1] - 1
    item[BOUND, i] -= 1
    _deactivate(item, i)
    _cover(node, item, i, n_items, second, work, -1)
    live = 0
    impact = NO_SCORE
    x = np.int64(node[DLINK, i])
    while x != i:
        start = np.int64(loop.total[LOOP_TRAIL])
        done, last, dead_at = _commit_option(node, item, x, second, n_items, loop, work, no_cap)
        if last == x:
            if loop.total[LOOP_BAD] == 0 and _loop_settle(
                node, item, second, no_bounds, loop, i, x, start
            ):
                live += 1
                impact = min(impact, loop.total[LOOP_TRAIL] - start)
                _loop_unsettle(node, item, loop, i)
            last = x - 1
            dead_at = x
        _uncommit_option(node, item, x, last, dead_at, second, n_items, loop)
        x = node[DLINK, x]
    _uncover(node, item, i, n_items)
    item[BOUND, i] += 1
    return live, impact


@njit(**PLAIN)
def _choose_loop_item(node, item, second, loop, after, work):
    """M3 with loop items: ``(item, degree, probes)``. The leftmost item with at most
    one option ends the scan; else the items are probed from the one after ``after``
    round to it (see "Probing" in the essay): the first with at most one live option
    is taken (none live: a dead end, degree 0), and failing that the item of fewest
    live options, ties to the one whose weaker live option left the longer trail.
    ``probes`` counts the options probed."""
    k = item[NEXT, 0]
    while k != 0:
        if node[TOP, k] <= 1:
            return k, node[TOP, k], 0
        k = item[NEXT, k]
    best = 0
    score = 0
    probes = 0
    fewest = NO_SCORE
    most = -1
    for sweep in range(2):
        k = item[NEXT, 0]
        while k != 0:
            if (k > after) == (sweep == 0):
                probes += node[TOP, k]
                live, impact = _live_options(node, item, second, loop, k, work)
                if live <= 1:
                    return k, live if live == 0 else node[TOP, k], probes
                if live < fewest or (live == fewest and impact > most):
                    fewest = live
                    most = impact
                    best = k
                    score = node[TOP, k]
            k = item[NEXT, k]
    return best, score, probes
