"""The numba search kernel: Algorithm M of TAOCP 7.2.2.1 (Knuth's DLX3) on flat arrays.

Every ``@njit(cache=True)`` function of the project lives in this file, and nothing else
does: numba's cache only notices edits to the file a function is defined in.

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
costs one load (on pentomino counts this measured about a fifth faster than keeping
a node's four fields side by side, ``node[x, field]``). Nodes ``0..n_items`` are the
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

Committing an option (step M6) goes in two passes over its items: first every primary
item's bound is counted down (and the item deactivated when it reaches zero), then the
lists are hidden item by item. While hiding, the commit watches for an active primary
item left with fewer options than it still needs (``LEN < BOUND - SLACK``: an item
that step M3 of the next level would score ``<= 0``). Then the branch is dead: the
commit stops after the option that did it, is undone from there leftwards, and the
next option is tried at once, without entering the dead level (on the pentomino
benchmarks this saves about a sixth of the updates). Splitting the passes matters: an
item of the option itself is deactivated (or has its bound lowered) before any list is
hidden, so it is never taken for a dead one. ``cover`` in M4 does not stop this way:
an item it empties may still be covered by the option chosen next.

The search is iterative: ``level`` and the int64 arrays ``choice``, ``best``,
``first_tweak``, ``branch_index`` and ``branch_degree`` (one entry a level; int64 so
that every helper is compiled for one signature only) hold everything, so a call can
stop after a budget of nodes and a later call resumes where it stopped (``state``).
The step names follow Knuth: FORWARD is "enter level" (M2-M4), ADVANCE "try x_l"
(M5-M6), BACKUP "restore i" (M8) and BACKDOWN "leave level" (M9 then M7).
"""

import numpy as np
from numba import njit

TOP, ULINK, DLINK, COLOR = 0, 1, 2, 3
PREV, NEXT, BOUND, SLACK = 0, 1, 2, 3

FORWARD, ADVANCE, BACKUP, BACKDOWN = 0, 1, 2, 3

DONE, SOLUTION, PAUSED, LEAF, LIMIT = 0, 1, 2, 3, 4

NO_SPLIT = -1


@njit(cache=True, inline="always")
def _deactivate(item, i):
    """Remove primary item ``i`` from the active list."""
    left = item[PREV, i]
    right = item[NEXT, i]
    item[NEXT, left] = right
    item[PREV, right] = left


@njit(cache=True, inline="always")
def _reactivate(item, i):
    """Put primary item ``i`` back into the active list."""
    left = item[PREV, i]
    right = item[NEXT, i]
    item[NEXT, left] = i
    item[PREV, right] = i


@njit(cache=True)
def _hide_all(node, item, first, n_items, second):
    """Hide the options of the list that starts at ``first``, downwards, until one
    leaves an active primary item with fewer options than it needs (``LEN < BOUND -
    SLACK``). Return ``(updates, dead_at)``: ``dead_at`` is the node of that option
    in this list (the options below it are left alone), or ``0`` if none starved."""
    updates = 0
    dead = False
    rr = first
    while rr > n_items:
        nn = rr + 1
        while nn != rr:
            if node[COLOR, nn] >= 0:
                cc = node[TOP, nn]
                if cc <= 0:
                    nn = node[ULINK, nn]
                    continue
                uu = node[ULINK, nn]
                dd = node[DLINK, nn]
                node[DLINK, uu] = dd
                node[ULINK, dd] = uu
                left = node[TOP, cc] - 1
                node[TOP, cc] = left
                updates += 1
                if cc < second and left < item[BOUND, cc] - item[SLACK, cc]:
                    dead |= item[NEXT, item[PREV, cc]] == cc
            nn += 1
        if dead:
            return updates, rr
        rr = node[DLINK, rr]
    return updates, 0


@njit(cache=True)
def _unhide_all(node, first, last, n_items):
    """Undo ``_hide_all`` for the list that starts at ``first``, down to the option of
    node ``last`` (a node not in the list, such as its header: the whole list)."""
    rr = first
    while rr > n_items:
        nn = rr + 1
        while nn != rr:
            if node[COLOR, nn] >= 0:
                cc = node[TOP, nn]
                if cc <= 0:
                    nn = node[ULINK, nn]
                    continue
                uu = node[ULINK, nn]
                dd = node[DLINK, nn]
                node[DLINK, uu] = nn
                node[ULINK, dd] = nn
                node[TOP, cc] += 1
            nn += 1
        if rr == last:
            return
        rr = node[DLINK, rr]


@njit(cache=True)
def _cover(node, item, c, n_items, second):
    """cover(c): deactivate primary item ``c`` and hide every option in its list.

    No dead end is taken here: an item left without options by this may still be
    covered by the option chosen for ``c``.
    """
    _deactivate(item, c)
    updates = 1
    rr = node[DLINK, c]
    while rr > n_items:
        hidden, dead_at = _hide_all(node, item, rr, n_items, second)
        updates += hidden
        if dead_at == 0:
            break
        rr = node[DLINK, dead_at]
    return updates


@njit(cache=True)
def _uncover(node, item, c, n_items):
    """uncover(c): the inverse of ``_cover``."""
    _unhide_all(node, node[DLINK, c], c, n_items)
    _reactivate(item, c)


@njit(cache=True)
def _purify(node, item, p, n_items, second):
    """purify(p): hide the options whose colour on p's item differs from p's colour;
    return ``(updates, dead)`` as ``_hide_all`` does."""
    cc = node[TOP, p]
    x = node[COLOR, p]
    updates = 1
    dead = False
    rr = node[DLINK, cc]
    while rr > n_items:
        if node[COLOR, rr] != x:
            nn = rr + 1
            while nn != rr:
                c2 = node[TOP, nn]
                if c2 <= 0:
                    nn = node[ULINK, nn]
                    continue
                if node[COLOR, nn] >= 0:
                    uu = node[ULINK, nn]
                    dd = node[DLINK, nn]
                    node[DLINK, uu] = dd
                    node[ULINK, dd] = uu
                    left = node[TOP, c2] - 1
                    node[TOP, c2] = left
                    updates += 1
                    if c2 < second and left < item[BOUND, c2] - item[SLACK, c2]:
                        dead |= item[NEXT, item[PREV, c2]] == c2
                nn += 1
        elif rr != p:
            node[COLOR, rr] = -1
        rr = node[DLINK, rr]
    return updates, dead


@njit(cache=True)
def _unpurify(node, p, n_items):
    """unpurify(p): the inverse of ``_purify`` (upwards, leftwards)."""
    cc = node[TOP, p]
    x = node[COLOR, p]
    rr = node[ULINK, cc]
    while rr > n_items:
        if node[COLOR, rr] < 0:
            node[COLOR, rr] = x
        elif rr != p:
            nn = rr - 1
            while nn != rr:
                c2 = node[TOP, nn]
                if c2 <= 0:
                    nn = node[DLINK, nn]
                    continue
                if node[COLOR, nn] >= 0:
                    uu = node[ULINK, nn]
                    dd = node[DLINK, nn]
                    node[DLINK, uu] = nn
                    node[ULINK, dd] = nn
                    node[TOP, c2] += 1
                nn -= 1
        rr = node[ULINK, rr]


@njit(cache=True)
def _tweak(node, n):
    """tweak(n): hide the option of node ``n``, ``n`` itself included (top of its list)."""
    updates = 0
    nn = n + 1
    while True:
        if node[COLOR, nn] >= 0:
            cc = node[TOP, nn]
            if cc <= 0:
                nn = node[ULINK, nn]
                continue
            uu = node[ULINK, nn]
            dd = node[DLINK, nn]
            node[DLINK, uu] = dd
            node[ULINK, dd] = uu
            node[TOP, cc] -= 1
            updates += 1
        if nn == n:
            break
        nn += 1
    return updates


@njit(cache=True)
def _untweak(node, c, x):
    """untweak(c, x): restore every option tweaked away from item c since node x was top."""
    z = node[DLINK, c]
    node[DLINK, c] = x
    rr = x
    k = 0
    qq = c
    while rr != z:
        node[ULINK, rr] = qq
        k += 1
        nn = rr + 1
        while nn != rr:
            if node[COLOR, nn] >= 0:
                cc = node[TOP, nn]
                if cc <= 0:
                    nn = node[ULINK, nn]
                    continue
                uu = node[ULINK, nn]
                dd = node[DLINK, nn]
                node[DLINK, uu] = nn
                node[ULINK, dd] = nn
                node[TOP, cc] += 1
            nn += 1
        qq = rr
        rr = node[DLINK, rr]
    node[ULINK, rr] = qq
    node[TOP, c] += k


@njit(cache=True)
def _tweak_special(node, n):
    """tweak'(n): take node ``n`` out of its (covered) item's list; its option is hidden."""
    uu = node[ULINK, n]
    dd = node[DLINK, n]
    node[DLINK, uu] = dd
    node[ULINK, dd] = uu
    node[TOP, node[TOP, n]] -= 1


@njit(cache=True)
def _untweak_special(node, c, x):
    """untweak'(c, x): put back the nodes tweak'ed out of c's list since x was on top."""
    z = node[DLINK, c]
    node[DLINK, c] = x
    rr = x
    k = 0
    qq = c
    while rr != z:
        node[ULINK, rr] = qq
        k += 1
        qq = rr
        rr = node[DLINK, rr]
    node[ULINK, rr] = qq
    node[TOP, c] += k


@njit(cache=True)
def _restore_item(node, item, i, first, n_items):
    """M8: undo what M4 and M5 did to item i at this level (``first``: first tweaked)."""
    if item[BOUND, i] == 0:
        if item[SLACK, i] != 0:
            _untweak_special(node, i, first)
        _uncover(node, item, i, n_items)
    else:
        _untweak(node, i, first)
    item[BOUND, i] += 1


@njit(cache=True)
def _commit_option(node, item, x, second, n_items):
    """M6: commit the option of node ``x`` (all its items but x's own); return
    ``(updates, last, dead_at)``: ``last`` is ``x`` when done, or the node whose
    item's hiding left the branch dead, stopped after the option of ``dead_at`` in its
    list (undo with ``_uncommit_option(.., last, dead_at, ..)``).
    """
    # first pass: count the bounds down, deactivating the items that reach zero
    pp = x + 1
    while pp != x:
        cc = node[TOP, pp]
        if cc <= 0:
            pp = node[ULINK, pp]
            continue
        if cc < second:
            b = item[BOUND, cc] - 1
            item[BOUND, cc] = b
            if b == 0:
                _deactivate(item, cc)
        pp += 1
    # second pass: cover, hide or purify, stopping at a dead end
    updates = 0
    pp = x + 1
    while pp != x:
        cc = node[TOP, pp]
        if cc <= 0:
            pp = node[ULINK, pp]
            continue
        dead_at = 0
        if cc < second:
            if item[BOUND, cc] == 0:
                hidden, dead_at = _hide_all(node, item, node[DLINK, cc], n_items, second)
                updates += 1 + hidden
        else:
            colour = node[COLOR, pp]
            if colour == 0:
                hidden, dead_at = _hide_all(node, item, node[DLINK, cc], n_items, second)
                updates += 1 + hidden
            elif colour > 0:
                hidden, dead = _purify(node, item, pp, n_items, second)
                updates += hidden
                if dead:
                    return updates, pp, 0
        if dead_at != 0:
            return updates, pp, dead_at
        pp += 1
    return updates, x, 0


@njit(cache=True)
def _uncommit_option(node, item, x, last, dead_at, second, n_items):
    """The inverse of ``_commit_option``, leftwards from node ``last``, whose list was
    hidden down to ``dead_at`` (``x - 1`` and ``x`` when the commit went through)."""
    pp = last
    while pp != x:
        cc = node[TOP, pp]
        if cc <= 0:
            pp = node[DLINK, pp]
            continue
        if cc < second:
            if item[BOUND, cc] == 0:
                _unhide_all(node, node[DLINK, cc], dead_at, n_items)
        else:
            colour = node[COLOR, pp]
            if colour == 0:
                _unhide_all(node, node[DLINK, cc], dead_at, n_items)
            elif colour > 0:
                _unpurify(node, pp, n_items)
        dead_at = cc
        pp -= 1
    pp = x - 1
    while pp != x:
        cc = node[TOP, pp]
        if cc <= 0:
            pp = node[DLINK, pp]
            continue
        if cc < second:
            if item[BOUND, cc] == 0:
                _reactivate(item, cc)
            item[BOUND, cc] += 1
        pp -= 1


@njit(cache=True)
def _choose_item(node, item, has_bounds):
    """M3: the active primary item of least branching degree; returns (item, degree).

    Plain exact cover: fewest options left, ties to the leftmost; an item with at most
    one option ends the scan. With bounds, Knuth's DLX3 rule: degree
    ``len + min(slack, bound) - bound + 1``; ties to the smaller slack, then to the
    longer list.
    """
    best = 0
    score = 1 << 30
    k = item[NEXT, 0]
    if not has_bounds:
        while k != 0:
            t = node[TOP, k]
            if t < score:
                score = t
                best = k
                if t <= 1:
                    break
            k = item[NEXT, k]
        return best, score
    best_s = 0
    best_l = 0
    while k != 0:
        b = item[BOUND, k]
        s = min(item[SLACK, k], b)
        length = node[TOP, k]
        t = length + s - b + 1
        if t <= score:
            if t < score or s < best_s or (s == best_s and length > best_l):
                score = t
                best = k
                best_s = s
                best_l = length
                if t <= 0:
                    break
        k = item[NEXT, k]
    return best, score


@njit(cache=True)
def search(
    node,
    item,
    second,
    has_bounds,
    choice,
    best,
    first_tweak,
    branch_index,
    branch_degree,
    state,
    stats,
    forced,
    prefix,
    split_depth,
    node_budget,
    max_solutions,
    stream,
):
    """Run (or resume) Algorithm M until done, a solution (if ``stream``), a leaf, or
    the budget.

    Parameters
    ----------
    node : int32[4, n_nodes], item : int32[4, n_items + 1]
        The links (see the module essay); changed in place, restored when done.
    second : int
        The first secondary item (``n_primary + 1``).
    has_bounds : bool
        True when some primary item has ``BOUND != 1`` or ``SLACK != 0``.
    choice, best, first_tweak, branch_index, branch_degree : int64[max_level]
        Per level: the node tried (a header means the null choice), the item branched
        on, the first tweaked node (0 if the item was covered), which branch (from 0)
        and how many branches.
    state : int64[2]
        ``level, step``; ``0, FORWARD`` to start, then as the last call left it.
    stats : int64[3]
        ``solutions, nodes, updates``, accumulated; ``nodes`` counts the levels
        entered (M2), not the children that a commit found dead.
    forced : int32[k]
        Nodes of options forced at levels ``0..k-1``, each in an exact-cover item
        (``lo = hi = 1``); the options must be compatible with each other.
    prefix : int32[m]
        Branch numbers taken at levels ``k..k+m-1`` (a subproblem of a split).
    split_depth : int
        Stop at this level and report a LEAF (``NO_SPLIT`` for none). A child that
        the commit finds dead is not reported: it holds no solution.
    node_budget : int
        Nodes this call may enter before it pauses.
    max_solutions : int
        Stop with LIMIT once ``stats[0]`` reaches it.
    stream : bool
        Return at each solution (with the path in ``choice[:level]``).

    Returns
    -------
    int: DONE, SOLUTION, PAUSED, LEAF or LIMIT. On SOLUTION and LEAF the current
    ``level`` is ``state[0]``, and the next call goes on from there.
    """
    n_items = item.shape[1] - 1
    level = state[0]
    step = state[1]
    solutions = stats[0]
    nodes = stats[1]
    updates = stats[2]
    n_forced = forced.shape[0]
    n_fixed = n_forced + prefix.shape[0]
    node_stop = nodes + node_budget
    code = DONE
    cur = 0
    i = 0
    if step != FORWARD:
        cur = choice[level]
        i = best[level]
    while True:
        if step == FORWARD:
            # M2: enter level
            if nodes >= node_stop:
                code = PAUSED
                break
            nodes += 1
            if item[NEXT, 0] == 0:
                solutions += 1
                step = BACKDOWN
                if stream:
                    code = SOLUTION
                    break
                if solutions >= max_solutions:
                    code = LIMIT
                    break
                continue
            if level == split_depth:
                code = LEAF
                step = BACKDOWN
                break
            # M3: choose i
            if level < n_forced:
                cur = forced[level]
                i = node[TOP, cur]
                score = 1
            else:
                i, score = _choose_item(node, item, has_bounds)
                if score <= 0:
                    step = BACKDOWN
                    continue
                cur = node[DLINK, i]
            # M4: prepare to branch on i
            best[level] = i
            choice[level] = cur
            branch_index[level] = 0
            branch_degree[level] = score
            b = item[BOUND, i] - 1
            item[BOUND, i] = b
            first_tweak[level] = 0 if b == 0 and item[SLACK, i] == 0 else cur
            if b == 0:
                updates += _cover(node, item, i, n_items, second)
            step = ADVANCE
        elif step == ADVANCE:
            # M5: possibly tweak x_l
            if item[BOUND, i] == 0 and item[SLACK, i] == 0:
                if cur == i:
                    step = BACKUP
                    continue
            elif node[TOP, i] <= item[BOUND, i] - item[SLACK, i]:
                step = BACKUP
                continue
            elif cur != i:
                if item[BOUND, i] == 0:
                    _tweak_special(node, cur)
                    updates += 1
                else:
                    updates += _tweak(node, cur)
            elif item[BOUND, i] != 0:
                _deactivate(item, i)
            if n_forced <= level < n_fixed and branch_index[level] < prefix[level - n_forced]:
                # replaying a subproblem: this branch belongs to another one
                if cur == i:
                    _reactivate(item, i)
                    step = BACKUP
                    continue
                branch_index[level] += 1
                cur = node[DLINK, cur]
                choice[level] = cur
                continue
            # M6: try x_l
            if cur > n_items:
                done, last, dead_at = _commit_option(node, item, cur, second, n_items)
                updates += done
                if last != cur:
                    # the child is dead (and not entered): undo, go on as M7 would
                    _uncommit_option(node, item, cur, last, dead_at, second, n_items)
                    if level < n_fixed:
                        step = BACKUP
                        continue
                    cur = node[DLINK, cur]
                    choice[level] = cur
                    branch_index[level] += 1
                    continue
            level += 1
            step = FORWARD
        elif step == BACKUP:
            # M8: restore i
            _restore_item(node, item, i, first_tweak[level], n_items)
            step = BACKDOWN
        else:
            # M9: leave level, then M7: try again
            if level == 0:
                code = DONE
                break
            level -= 1
            cur = choice[level]
            i = best[level]
            if cur <= n_items:
                _reactivate(item, i)
                step = BACKUP
                continue
            _uncommit_option(node, item, cur, cur - 1, cur, second, n_items)
            if level < n_fixed:
                step = BACKUP
                continue
            cur = node[DLINK, cur]
            choice[level] = cur
            branch_index[level] += 1
            step = ADVANCE
    state[0] = level
    state[1] = step
    stats[0] = solutions
    stats[1] = nodes
    stats[2] = updates
    return code


@njit(cache=True)
def search_batch(
    node,
    item,
    second,
    has_bounds,
    forced_nodes,
    forced_start,
    max_level,
    max_solutions,
    counts,
    first_solution,
    batch_stats,
):
    """Search once per forced set: set ``k`` forces ``forced_nodes[forced_start[k]:
    forced_start[k+1]]``. Counts up to ``max_solutions`` each into ``counts[k]``, the
    first solution's option nodes (past the forced ones, null choices left out, ``-1``
    padded, cut at its width) into ``first_solution[k]``, and ``solutions, nodes,
    updates`` into ``batch_stats[k]``.
    Each search runs to its end or its limit; the links are restored after each.
    """
    choice = np.zeros(max_level, np.int64)
    best = np.zeros(max_level, np.int64)
    first_tweak = np.zeros(max_level, np.int64)
    branch_index = np.zeros(max_level, np.int64)
    branch_degree = np.zeros(max_level, np.int64)
    prefix = np.zeros(0, np.int32)
    state = np.zeros(2, np.int64)
    stats = np.zeros(3, np.int64)
    budget = 1 << 62
    n_items = item.shape[1] - 1
    for k in range(counts.shape[0]):
        forced = forced_nodes[forced_start[k] : forced_start[k + 1]]
        n_forced = forced.shape[0]
        state[0] = 0
        state[1] = FORWARD
        stats[:] = 0
        first_solution[k, :] = -1
        while True:
            code = search(
                node, item, second, has_bounds, choice, best, first_tweak,
                branch_index, branch_degree, state, stats, forced, prefix,
                NO_SPLIT, budget, max_solutions, True,
            )  # fmt: skip
            if code != SOLUTION:
                break
            if stats[0] == 1:
                j = 0
                for level in range(n_forced, state[0]):
                    if choice[level] > n_items and j < first_solution.shape[1]:
                        first_solution[k, j] = choice[level]
                        j += 1
            if stats[0] >= max_solutions:
                _unwind(node, item, second, choice, best, first_tweak, state, stats)
                break
        counts[k] = stats[0]
        batch_stats[k, :] = stats


@njit(cache=True)
def _unwind(node, item, second, choice, best, first_tweak, state, stats):
    """Undo every level of a search stopped early, restoring the links."""
    n_items = item.shape[1] - 1
    level = state[0]
    while level > 0:
        level -= 1
        cur = choice[level]
        i = best[level]
        if cur <= n_items:
            _reactivate(item, i)
        else:
            _uncommit_option(node, item, cur, cur - 1, cur, second, n_items)
        _restore_item(node, item, i, first_tweak[level], n_items)
    state[0] = 0
    state[1] = FORWARD
