"""The numba search kernel: Algorithm M of TAOCP 7.2.2.1 (Knuth's DLX3) on flat arrays.

Every ``@njit(cache=True)`` function of this kernel lives in this file: numba's cache
only notices edits to the file a function is defined in. The arrays are built by
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
``_next_branch``). The walks over an option's nodes are written once:
``_next_in_option`` and ``_prev_in_option`` step round an option past its spacer,
``_unlink`` and ``_relink``
take a node out of its item's list and put it back, ``_hide_option`` and
``_unhide_option`` do that for every other node of an option. ``sanity`` checks every
link and length (Knuth's ``sanity()``); the tests call it at every pause.

The prose of each part sits beside its code, Knuth's way: committing an option under
"Knuth's operations", and the optional parts (item domination, the memo, loop items)
each under its own heading below.
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
from dlx.kernels.links.layout import (
    BEST,
    BOUND,
    BRANCH_DEGREE,
    BRANCH_INDEX,
    CHOICE,
    COLOR,
    DEGREE,
    DLINK,
    DOMINATION_LENGTH,
    DOMINATION_MARK,
    DOMINATION_TOP,
    DOMINATION_TRAIL,
    EDGE_BAD,
    EDGE_CLOSING,
    EDGE_JOINED,
    EDGE_OFF,
    EDGE_SETTLED,
    FIRST_EDGE,
    FIRST_TWEAK,
    LENGTH,
    LEVEL,
    LOOP_BAD,
    LOOP_CLOSED,
    LOOP_FORBIDDEN,
    LOOP_MARK,
    LOOP_ON,
    LOOP_ON_EDGES,
    LOOP_SAVED,
    LOOP_STATE,
    LOOP_TRAIL,
    LOOP_U,
    LOOP_V,
    MATE,
    MEMO_NODES,
    MEMO_SOLUTIONS,
    NEXT,
    NODES,
    PREV,
    SINGLES_FLOOR,
    SINGLES_MARK,
    SLACK,
    SOLUTIONS,
    STEP,
    TOP,
    ULINK,
    UPDATES,
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
NO_SCORE = 1 << 30  # above any branching degree
SINGLES_SCAN = 8  # M3 looks at most this many entries of the singles stack

# what _enter_level found
GO_ON, DEAD_END, FOUND, AT_LEAF = 0, 1, 2, 3
SANE = 0  # what sanity() returns when every link holds

# -- the active list --------------------------------------------------------------------


@njit(inline="always", **PLAIN)
def _deactivate(item, i):
    """Remove primary item ``i`` from the active list."""
    left = item[PREV, _u(i)]
    right = item[NEXT, _u(i)]
    item[NEXT, _u(left)] = right
    item[PREV, _u(right)] = left


@njit(inline="always", **PLAIN)
def _reactivate(item, i):
    """Put primary item ``i`` back into the active list."""
    left = item[PREV, _u(i)]
    right = item[NEXT, _u(i)]
    item[NEXT, _u(left)] = i
    item[PREV, _u(right)] = i


@njit(inline="always", **PLAIN)
def _is_active(item, i):
    """Whether primary item ``i`` is in the active list."""
    return item[NEXT, _u(item[PREV, _u(i)])] == i


# -- the walks over an option's nodes ---------------------------------------------------


@njit(inline="always", **PLAIN)
def _next_in_option(node, x):
    """The node after ``x`` in its option, cyclically (past the spacer, the first)."""
    x += 1
    if node[TOP, _u(x)] <= 0:
        x = node[ULINK, _u(x)]
    return x


@njit(inline="always", **PLAIN)
def _prev_in_option(node, x):
    """The node before ``x`` in its option, cyclically (past the spacer, the last)."""
    x -= 1
    if node[TOP, _u(x)] <= 0:
        x = node[DLINK, _u(x)]
    return x


@njit(inline="always", **PLAIN)
def _unlink(node, x):
    """Take node ``x`` out of its item's list (it keeps its own links); return the
    item and the length of its list now."""
    uu = node[ULINK, _u(x)]
    dd = node[DLINK, _u(x)]
    node[DLINK, _u(uu)] = dd
    node[ULINK, _u(dd)] = uu
    cc = node[TOP, _u(x)]
    left = node[TOP, _u(cc)] - 1
    node[TOP, _u(cc)] = left
    return cc, left


@njit(inline="always", **PLAIN)
def _relink(node, x):
    """Put node ``x`` back into its item's list (the inverse of ``_unlink``)."""
    uu = node[ULINK, _u(x)]
    dd = node[DLINK, _u(x)]
    node[DLINK, _u(uu)] = x
    node[ULINK, _u(dd)] = x
    cc = node[TOP, _u(x)]
    node[TOP, _u(cc)] += 1


@njit(inline="always", **PLAIN)
def _starves(item, cc, left, second):
    """Whether item ``cc``, its list now ``left`` long, is an active primary item left
    with fewer options than it needs (``LEN < BOUND - SLACK``); tests ``LEN < BOUND``
    first: one load, rarely true."""
    if cc < second and left < item[BOUND, _u(cc)]:
        if left < item[BOUND, _u(cc)] - item[SLACK, _u(cc)]:
            return _is_active(item, cc)
    return False


@njit(inline="always", **PLAIN)
def _note(work, cc):
    """Push item ``cc`` on the domination's work stack, unless it is on it already."""
    n = work.shape[0] // 5
    if work[_u(n + cc)] == 0:
        work[_u(n + cc)] = 1
        top = work[_u(n)] + 1
        work[_u(n)] = top
        work[_u(top)] = cc


@njit(inline="always", **PLAIN)
def _hide_option(node, item, rr, second, work, cap):
    """Hide the option of node ``rr`` from every list but rr's own (nodes whose colour
    is settled, ``COLOR < 0``, are not in a list); return ``(updates, dead)``, dead
    when an item is starved (``_starves``). A primary item left with at most ``cap``
    options goes on the ``work`` stack (``cap = -1``: none)."""
    updates = 0
    dead = False
    nn = _next_in_option(node, rr)
    while nn != rr:
        if node[COLOR, _u(nn)] >= 0:
            cc, left = _unlink(node, nn)
            updates += 1
            if work is not None:  # None: the rule is off, and this is not compiled
                if left <= cap and cc < second:
                    _note(work, cc)
            dead |= _starves(item, cc, left, second)
        nn = _next_in_option(node, nn)
    return updates, dead


@njit(inline="always", **PLAIN)
def _unhide_option(node, rr):
    """The inverse of ``_hide_option`` (the nodes of one option are in distinct lists,
    so any order restores them)."""
    nn = _next_in_option(node, rr)
    while nn != rr:
        if node[COLOR, _u(nn)] >= 0:
            _relink(node, nn)
        nn = _next_in_option(node, nn)


# -- item domination ----------------------------------------------------------------------
#
# Optional (``propagate="domination"``; ``st.domination[DOMINATION_LENGTH]`` is 0 when
# off), the first reduction of Knuth's DLX-PRE, done during the search: if every option
# left to an active primary item p covers a primary item c, and both still need exactly
# one option (``BOUND = 1, SLACK = 0``), the option chosen for p will cover c, so the
# options of c without p are in no solution and are hidden, whole, onto a trail
# (``st.domination[DOMINATION_TRAIL:]``; a level's trail length before its option is
# ``level_data[level, DOMINATION_MARK]``), restored in the reverse order before the
# option is uncommitted. Only primary items are used, so colours, bounds on other items
# and loop items do not change the argument: what is hidden is in no exact cover at all.
# Counts and solutions stay the same (and the memo's counts, which are per set of covered
# items, stay exact); the tree shrinks. In sudoku words: locked candidates (pointing and
# claiming), and what a single (an item with one option left) eliminates, before a branch.
#
# It runs after each commit past the forced options (``_dominate``), until nothing
# changes, on a work stack (``st.work``, see ``dlx.kernels.links.layout``) of items to check, filled
# without a second pass over the lists: ``_hide_option`` notes each primary item whose
# list it leaves at most ``DOMINATION_LENGTH`` long (``cap``; -1 where nothing is to be
# noted: the cover of M4, tweaks, probes, the rule off), so the commit notes the items it
# shortened; ``_dominate`` adds the items of the other options of the item branched on
# (its cover shortened them), or, after the forced options, every active item short
# enough. An item whose list did not change cannot dominate anew: it dominated nothing
# before, and its list is the same. The stack is empty before each commit (a dead commit
# clears what it noted), so what is checked is a function of the path: a split's replay
# sees the same tree. Checking item p of length ``<= cap``: the items every option of p
# covers are found by stamps (``_common_items``: the first option's items stamped, each
# next option keeping only the stamped ones, stopping when none is left); for each such
# c, the options of c that are not p's are hidden. A hidden option that starves an item
# makes the child dead, undone as a dead commit is; an active item left with no option
# does too.
#
# Singles: an item found with one option left goes on a second stack (with a flag per
# item, cut back to its length before the option when the option is undone). M3 takes
# the topmost entry that is still active with one option (no scan of the active list);
# entries below the level's *floor* are known covered and not looked at again. With no
# such entry, past level 0, every item has at least two options (each single is on the
# stack, each starved item ended the commit), so the scan of M3 stops at the first item
# with two. Only without bounds and loop items (``_choose``).
#
# Without the rule ``st.work`` is None, and numba compiles the search without any of it:
# the noting in ``_hide_option`` and the calls ``_after_commit`` (M6),
# ``_undo_domination`` (M9) and ``_take_single`` (M3) test ``work is None``, an argument
# of theirs, which numba prunes as it does ``loop`` (the plain search keeps its speed).


@njit(inline="always", **PLAIN)
def _node_in(node, x, c):
    """The node of the option of node ``x`` in item ``c``, or ``-1`` if it has none."""
    if node[TOP, _u(x)] == c:
        return x
    nn = _next_in_option(node, x)
    while nn != x:
        if node[TOP, _u(nn)] == c:
            return nn
        nn = _next_in_option(node, nn)
    return -1


@njit(inline="always", **PLAIN)
def _exact_active(item, c):
    """Whether item ``c`` is an active exact-cover item (``BOUND = 1, SLACK = 0``)."""
    return item[BOUND, _u(c)] == 1 and item[SLACK, _u(c)] == 0 and _is_active(item, c)


@njit(inline="always", **PLAIN)
def _hide_dominated(st, p, c, q, q2, cap):
    """Hide, onto the trail, the options of item ``c`` that miss item ``p`` (every
    option of p covers c; ``q`` and ``q2`` are the nodes in c's list of p's first and
    last option). Return ``(updates, dead)``."""
    node, item, second, dom = st.node, st.item, st.second, st.domination
    short = node[TOP, _u(p)] <= 2  # then q and q2 are all the options of c with p
    updates = 0
    x = node[DLINK, _u(c)]
    while x != c:
        after = node[DLINK, _u(x)]
        if x != q and x != q2 and (short or _node_in(node, x, p) < 0):
            cc, left = _unlink(node, x)
            done, starved = _hide_option(node, item, x, second, st.work, cap)
            updates += done + 1
            top = dom[DOMINATION_TOP]
            dom[DOMINATION_TRAIL + top] = x
            dom[DOMINATION_TOP] = top + 1
            if starved or _starves(item, cc, left, second):
                return updates, True
        x = after
    if node[TOP, _u(c)] <= cap:
        _note(st.work, c)  # its options are p's now: it may be a single
    return updates, False


@njit(inline="always", **PLAIN)
def _common_items(st, p, first):
    """Stamp the items that every option of item ``p`` covers (its options intersected
    one by one, stopping when nothing is left): an item c of p's first option (the one
    of node ``first``) is one of them iff ``stamp[c]`` is the value returned, 0 if
    none."""
    node, work = st.node, st.work
    stamp = 2 * (work.shape[0] // 5)
    s = work[0] + 1
    nn = _next_in_option(node, first)
    while nn != first:
        work[_u(stamp + node[TOP, _u(nn)])] = s
        nn = _next_in_option(node, nn)
    r = node[DLINK, _u(first)]
    while r != p:
        left = 0
        nn = _next_in_option(node, r)
        while nn != r:
            k = _u(stamp + node[TOP, _u(nn)])
            if work[k] == s:
                work[k] = s + 1
                left += 1
            nn = _next_in_option(node, nn)
        s += 1
        if left == 0:
            work[0] = s
            return 0
        r = node[DLINK, _u(r)]
    work[0] = s
    return s


@njit(inline="always", **PLAIN)
def _dominate_item(st, p, cap):
    """Item domination from item ``p`` (see the essay): for each item c that every
    option of p covers too, hide c's options without p. Return ``(updates, dead)``."""
    node, item, second, work = st.node, st.item, st.second, st.work
    length = node[TOP, _u(p)]
    if length > cap or not _exact_active(item, p):
        return 0, False
    if length == 0:
        return 0, True  # starved (by the cover of the item branched on)
    first = node[DLINK, _u(p)]
    s = 0
    if length == 1:
        _push_single(work, p)
    else:
        s = _common_items(st, p, first)
        if s == 0:
            return 0, False
    stamp = 2 * (work.shape[0] // 5)
    updates = 0
    q = _next_in_option(node, first)
    while q != first:
        c = node[TOP, _u(q)]
        if (
            (s == 0 or work[_u(stamp + c)] == s)
            and c < second
            and node[TOP, _u(c)] > length
            and _exact_active(item, c)
        ):
            q2 = _node_in(node, node[ULINK, _u(p)], c) if length == 2 else 0
            done, dead = _hide_dominated(st, p, c, q, q2, cap)
            updates += done
            if dead:
                return updates, True
        q = _next_in_option(node, q)
    return updates, False


@njit(inline="always", **PLAIN)
def _push_single(work, p):
    """Push item ``p`` (one option left) on the singles stack, unless it is on it."""
    n = work.shape[0] // 5
    if work[_u(4 * n + p)] == 0:
        work[_u(4 * n + p)] = 1
        top = work[_u(3 * n)] + 1
        work[_u(3 * n)] = top
        work[_u(3 * n + top)] = p


@njit(inline="always", **PLAIN)
def _drop_singles(work, mark):
    """Cut the singles stack back to ``mark`` entries."""
    n = work.shape[0] // 5
    top = work[_u(3 * n)]
    while top > mark:
        work[_u(4 * n + work[_u(3 * n + top)])] = 0
        top -= 1
    work[_u(3 * n)] = top


@njit(inline="always", **PLAIN)
def _single(st, level):
    """``(p, least)``: an active item p with one option left from the singles stack
    (at most ``SINGLES_SCAN`` entries from its top, not below the floor of the level
    above), or ``p = 0`` and the fewest options an item may have: 2 when every entry
    above the floor is covered (the level's floor is then the whole stack), else 1."""
    work, node, item = st.work, st.node, st.item
    n = work.shape[0] // 5
    top = work[_u(3 * n)]
    floor = st.level_data[level - 1, SINGLES_FLOOR] if level > 0 else 0
    stop = max(floor, top - SINGLES_SCAN)
    st.level_data[level, SINGLES_FLOOR] = floor
    k = top
    while k > stop:
        p = work[_u(3 * n + k)]
        if node[TOP, _u(p)] == 1 and _is_active(item, p):
            return p, 1
        k -= 1
    if stop > floor:
        return 0, 1  # the scan stopped short: M3 scans the active items
    st.level_data[level, SINGLES_FLOOR] = top
    return 0, 2


@njit(inline="always", **PLAIN)
def _clear_work(work):
    """Empty the work stack."""
    n = work.shape[0] // 5
    top = work[_u(n)]
    while top > 0:
        work[_u(n + work[_u(top)])] = 0
        top -= 1
    work[_u(n)] = 0


@njit(inline="always", **PLAIN)
def _dominate(st, x, everything, cap):
    """Apply item domination until nothing changes, after the option of node ``x`` was
    committed (its commit put the items it left short on the work stack); return
    ``(updates, dead)``. Also checked: the items of the other options of x's item
    (its cover shortened them), or every active item if ``everything``."""
    node, item, second, work = st.node, st.item, st.second, st.work
    n = work.shape[0] // 5
    if everything:
        p = item[NEXT, 0]
        while p != 0:
            if node[TOP, _u(p)] <= cap:
                _note(work, p)
            p = item[NEXT, _u(p)]
    else:
        i = node[TOP, _u(x)]
        r = node[DLINK, _u(i)]
        while r != i:
            if r != x:
                nn = _next_in_option(node, r)
                while nn != r:
                    cc = node[TOP, _u(nn)]
                    if cc < second and node[TOP, _u(cc)] <= cap:
                        _note(work, cc)
                    nn = _next_in_option(node, nn)
            r = node[DLINK, _u(r)]
    updates = 0
    while work[_u(n)] > 0:
        top = work[_u(n)]
        p = work[_u(top)]
        work[_u(n)] = top - 1
        work[_u(n + p)] = 0
        done, dead = _dominate_item(st, p, cap)
        updates += done
        if dead:
            _clear_work(work)
            return updates, True
    return updates, False


@njit(inline="always", **PLAIN)
def _undominate(st, mark):
    """Restore the options item domination hid since the trail was ``mark`` long."""
    dom = st.domination
    top = dom[DOMINATION_TOP]
    while top > mark:
        top -= 1
        x = dom[DOMINATION_TRAIL + top]
        _unhide_option(st.node, x)
        _relink(st.node, x)
    dom[DOMINATION_TOP] = top


@njit(**PLAIN)
def _after_commit(st, work, level, x, go, everything):
    """M6 with the rule (``work`` None: off, and none of this is compiled): note the
    lengths of the trail and the singles stack, then apply the rule after the commit of
    node ``x`` if ``go`` (else drop what the commit noted). Return ``(updates, dead)``;
    a dead end is undone here."""
    if work is None:
        return 0, False
    mark = st.domination[DOMINATION_TOP]
    st.level_data[level, DOMINATION_MARK] = mark
    singles = work[_u(3 * (work.shape[0] // 5))]
    st.level_data[level, SINGLES_MARK] = singles
    if not go:
        _clear_work(work)  # what a dead commit noted
        return 0, False
    hidden, dead = _dominate(st, x, everything, st.domination[DOMINATION_LENGTH])
    if dead:
        _undominate(st, mark)
        _drop_singles(work, singles)
    return hidden, dead


@njit(**PLAIN)
def _undo_domination(st, work, level):
    """M9 with the rule: restore what it hid after the option of ``level``."""
    if work is not None:
        _undominate(st, st.level_data[level, DOMINATION_MARK])
        _drop_singles(work, st.level_data[level, SINGLES_MARK])


@njit(**PLAIN)
def _take_single(st, work, loop, level):
    """M3 with the rule: ``(p, least)`` from ``_single`` (``p = 0, least = 1`` without
    the rule, with bounds or loop items, or at level 0 where no domination ran yet)."""
    if work is None or loop is not None or st.has_bounds:
        return 0, 1
    p, least = _single(st, level)
    return p, (1 if level == 0 else least)


# -- Knuth's operations -------------------------------------------------------------------
#
# Committing an option (step M6) goes in two passes over its items: first every primary
# item's bound is counted down (and the item deactivated when it reaches zero), then the
# lists are hidden item by item. While hiding, the commit watches for an active primary
# item left with fewer options than it still needs (``LEN < BOUND - SLACK``: an item
# that step M3 of the next level would score ``<= 0``). Then the branch is dead: the
# commit stops after the option that did it, is undone from there leftwards, and the
# next option is tried at once, without entering the dead level (this saves updates).
# Splitting the passes matters: an item of the option itself is deactivated (or has its
# bound lowered) before any list is hidden, so it is never taken for a dead one.
# ``cover`` in M4 does not stop this way: an item it empties may still be covered by the
# option chosen next.


@njit(**PLAIN)
def _hide_all(node, item, first, n_items, second, work, cap):
    """Hide the options of the list that starts at ``first``, downwards, until one
    starves an item (``_starves``). Return ``(updates, dead_at)``: ``dead_at`` is the
    node of that option in this list (the options below it are left alone), or ``0``
    if none starved."""
    updates = 0
    rr = first
    while rr > n_items:
        hidden, dead = _hide_option(node, item, rr, second, work, cap)
        updates += hidden
        if dead:
            return updates, rr
        rr = node[DLINK, _u(rr)]
    return updates, 0


@njit(**PLAIN)
def _unhide_all(node, first, last, n_items):
    """Undo ``_hide_all`` for the list that starts at ``first``, down to the option of
    node ``last`` (a node not in the list, such as its header: the whole list)."""
    rr = first
    while rr > n_items:
        _unhide_option(node, rr)
        if rr == last:
            return
        rr = node[DLINK, _u(rr)]


@njit(**PLAIN)
def _cover(node, item, c, n_items, second, work, cap):
    """cover(c): deactivate primary item ``c`` and hide every option in its list.

    No dead end is taken here: an item left without options by this may still be
    covered by the option chosen for ``c``.
    """
    _deactivate(item, c)
    updates = 1
    rr = node[DLINK, _u(c)]
    while rr > n_items:
        hidden, dead_at = _hide_all(node, item, rr, n_items, second, work, cap)
        updates += hidden
        if dead_at == 0:
            break
        rr = node[DLINK, _u(dead_at)]
    return updates


@njit(**PLAIN)
def _uncover(node, item, c, n_items):
    """uncover(c): the inverse of ``_cover``."""
    _unhide_all(node, node[DLINK, _u(c)], c, n_items)
    _reactivate(item, c)


@njit(**PLAIN)
def _purify(node, item, p, n_items, second, work, cap):
    """purify(p): hide the options whose colour on p's item differs from p's colour
    (and mark the others settled, ``COLOR -1``); return ``(updates, dead)``."""
    cc = node[TOP, _u(p)]
    x = node[COLOR, _u(p)]
    updates = 1
    dead = False
    rr = node[DLINK, _u(cc)]
    while rr > n_items:
        if node[COLOR, _u(rr)] != x:
            hidden, dead_here = _hide_option(node, item, rr, second, work, cap)
            updates += hidden
            dead |= dead_here
        elif rr != p:
            node[COLOR, _u(rr)] = -1
        rr = node[DLINK, _u(rr)]
    return updates, dead


@njit(**PLAIN)
def _unpurify(node, p, n_items):
    """unpurify(p): the inverse of ``_purify`` (upwards)."""
    cc = node[TOP, _u(p)]
    x = node[COLOR, _u(p)]
    rr = node[ULINK, _u(cc)]
    while rr > n_items:
        if node[COLOR, _u(rr)] < 0:
            node[COLOR, _u(rr)] = x
        elif rr != p:
            _unhide_option(node, rr)
        rr = node[ULINK, _u(rr)]


@njit(**PLAIN)
def _tweak(node, item, n, second, work):
    """tweak(n): hide the option of node ``n``, ``n`` itself included (top of its list)."""
    updates, dead = _hide_option(node, item, n, second, work, -1)
    _unlink(node, n)
    return updates + 1


@njit(**PLAIN)
def _untweak_list(node, c, x, whole):
    """untweak(c, x) (``whole``: also unhide each option) or untweak'(c, x): put back
    every node tweaked out of c's list since node x was on top."""
    z = node[DLINK, _u(c)]
    node[DLINK, _u(c)] = x
    rr = x
    k = 0
    qq = c
    while rr != z:
        node[ULINK, _u(rr)] = qq
        k += 1
        if whole:
            _unhide_option(node, rr)
        qq = rr
        rr = node[DLINK, _u(rr)]
    node[ULINK, _u(rr)] = qq
    node[TOP, _u(c)] += k


@njit(**PLAIN)
def _restore_item(node, item, i, first, n_items):
    """M8: undo what M4 and M5 did to item i at this level (``first``: first tweaked)."""
    if item[BOUND, _u(i)] == 0:
        if item[SLACK, _u(i)] != 0:
            _untweak_list(node, i, first, False)
        _uncover(node, item, i, n_items)
    else:
        _untweak_list(node, i, first, True)
    item[BOUND, _u(i)] += 1


@njit(**PLAIN)
def _commit_option(node, item, x, second, n_items, loop, work, cap):
    """M6: commit the option of node ``x`` (all its items but x's own); return
    ``(updates, last, dead_at)``: ``last`` is ``x`` when done, or the node whose
    item's hiding left the branch dead, stopped after the option of ``dead_at`` in its
    list (undo with ``_uncommit_option(.., last, dead_at, ..)``).
    """
    # first pass: count the bounds down, deactivating the items that reach zero
    pp = _next_in_option(node, x)
    while pp != x:
        cc = node[TOP, _u(pp)]
        if cc < second:
            b = item[BOUND, _u(cc)] - 1
            item[BOUND, _u(cc)] = b
            if b == 0:
                _deactivate(item, cc)
        pp = _next_in_option(node, pp)
    # second pass: cover, hide or purify, stopping at a dead end
    updates = 0
    pp = _next_in_option(node, x)
    while pp != x:
        cc = node[TOP, _u(pp)]
        dead_at = 0
        colour = 0 if cc < second else node[COLOR, _u(pp)]
        if colour == 0:
            if cc >= second or item[BOUND, _u(cc)] == 0:
                hidden, dead_at = _hide_all(
                    node, item, node[DLINK, _u(cc)], n_items, second, work, cap
                )
                updates += 1 + hidden
        elif colour > 0:
            hidden, dead = _purify(node, item, pp, n_items, second, work, cap)
            updates += hidden
            if loop is not None:
                _loop_purified(node, loop, cc, colour)
            if dead:
                return updates, pp, 0
        if dead_at != 0:
            return updates, pp, dead_at
        pp = _next_in_option(node, pp)
    return updates, x, 0


@njit(**PLAIN)
def _uncommit_option(node, item, x, last, dead_at, second, n_items, loop):
    """The inverse of ``_commit_option``, leftwards from node ``last``, whose list was
    hidden down to ``dead_at`` (``x - 1`` and ``x`` when the commit went through)."""
    pp = last
    if node[TOP, _u(pp)] <= 0:
        pp = node[DLINK, _u(pp)]  # x - 1, the spacer before x's option: its last node
    while pp != x:
        cc = node[TOP, _u(pp)]
        colour = 0 if cc < second else node[COLOR, _u(pp)]
        if colour == 0:
            if cc >= second or item[BOUND, _u(cc)] == 0:
                _unhide_all(node, node[DLINK, _u(cc)], dead_at, n_items)
        elif colour > 0:
            if loop is not None:
                _loop_unpurified(node, loop, cc, colour)
            _unpurify(node, pp, n_items)
        dead_at = cc
        pp = _prev_in_option(node, pp)
    pp = _prev_in_option(node, x)
    while pp != x:
        cc = node[TOP, _u(pp)]
        if cc < second:
            if item[BOUND, _u(cc)] == 0:
                _reactivate(item, cc)
            item[BOUND, _u(cc)] += 1
        pp = _prev_in_option(node, pp)


@njit(**PLAIN)
def _choose_item(node, item, has_bounds, least):
    """M3: the active primary item of least branching degree; returns (item, degree).

    Plain exact cover: fewest options left, ties to the leftmost; an item with at most
    ``least`` options (no item has fewer) ends the scan. With bounds, Knuth's DLX3 rule: degree
    ``len + min(slack, bound) - bound + 1``; ties to the smaller slack, then to the
    longer list.
    """
    best = 0
    score = NO_SCORE
    k = item[NEXT, _u(0)]
    if not has_bounds:
        while k != 0:
            t = node[TOP, _u(k)]
            if t < score:
                score = t
                best = k
                if t <= least:
                    break
            k = item[NEXT, _u(k)]
        return best, score
    best_s = 0
    best_l = 0
    while k != 0:
        b = item[BOUND, _u(k)]
        s = min(item[SLACK, _u(k)], b)
        length = node[TOP, _u(k)]
        t = length + s - b + 1
        if t <= score:
            if t < score or s < best_s or (s == best_s and length > best_l):
                score = t
                best = k
                best_s = s
                best_l = length
                if t <= 0:
                    break
        k = item[NEXT, _u(k)]
    return best, score


# -- the memo ----------------------------------------------------------------------------
#
# For full counts of problems without colours, multiplicities or loop items, the
# problem left at a node (the active items and the options that avoid every covered
# item) depends only on the set of items covered so far, not on the path that covered
# them. So its count can be kept and reused, as in Nishino et al.'s DXZ ("Dancing with
# decision diagrams", AAAI 2017), without the diagram.
#
# ``level_key[l]`` is that set at level ``l``, one bit per item in ``uint64`` words: the
# key of level ``l + 1`` is made in M6 from level ``l``'s and the option tried
# (``_memo_push``). Before the commit, the child's key is looked up in a direct-mapped
# table (``memo_keys[slot]``; ``memo_counts[slot, 0]`` is 1 for a full slot, and
# ``memo_counts[slot, 1:]`` the count): a hit adds the count and goes on to the next
# option without committing. On leaving a level (M9) that was entered at or below the
# fixed levels and whose subtree took at least ``MEMO_MIN_NODES`` nodes, its count (the
# count now minus the count noted on entry) is stored, overwriting whatever held the
# slot.
#
# Counts of any size: the solutions met one by one are counted in ``progress[SOLUTIONS]``
# (an int64 that no search lives long enough to fill), and the counts that memo hits
# add in ``st.extra``, an unsigned number of K 64-bit limbs (least significant first),
# ``st.level_count[l]`` being its value on entry to level ``l``. The memo stores K
# limbs too. An addition that carries out of the top limb stops the search with
# OVERFLOW; the caller then starts it again with 2K limbs
# (``dlx.driver.driver.Driver.run``), so every
# count is exact, and the total is ``progress[SOLUTIONS] + extra`` as a Python int.
#
# Every stored count is that of a whole subtree, so the table stays exact whatever the
# order of stores and overwrites; it lives as long as the caller keeps it, and the
# subproblems of one parallel count share it within a worker.
#
# The search tree is the same, less the subtrees met before (the README gives the
# node counts measured). Sudoku trees hardly repeat, and their batch searches stop at a
# limit anyway. With no rows in ``memo_keys`` the memo is off (streams, solution limits,
# splits, batches).


@njit(**PLAIN)
def _memo_slot(level_key, level, memo_keys):
    """The table slot of the key of ``level``: a multiply-xorshift hash of its words."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(level_key.shape[1]):
        h = (h ^ level_key[_u(level), _u(w)]) * np.uint64(0xFF51AFD7ED558CCD)
        h ^= h >> np.uint64(29)
    return h & np.uint64(memo_keys.shape[0] - 1)


@njit(**PLAIN)
def _memo_matches(level_key, level, memo_keys, slot):
    """Whether the table's key at ``slot`` is the key of ``level``."""
    for w in range(level_key.shape[1]):
        if memo_keys[slot, _u(w)] != level_key[_u(level), _u(w)]:
            return False
    return True


@njit(**PLAIN)
def _memo_store(st, level, memo_keys, memo_counts, ones):
    """Keep the count of the subtree of ``level`` (``ones`` solutions met one by one, and
    ``st.extra`` minus ``st.level_count[level]``) under its key, in place of the slot's
    old entry; return True if the count does not fit the limbs (OVERFLOW).
    Explicit loops: slice assignments here compile much more slowly."""
    level_key = st.level_key
    slot = _memo_slot(level_key, level, memo_keys)
    for w in range(level_key.shape[1]):
        memo_keys[slot, _u(w)] = level_key[_u(level), _u(w)]
    memo_counts[slot, 0] = 1
    carry = np.uint64(ones)
    borrow = np.uint64(0)
    for w in range(st.extra.shape[0]):
        now = st.extra[w]
        before = st.level_count[level, w]
        difference = now - before - borrow
        borrow = np.uint64(1) if now < before or (now == before and borrow) else np.uint64(0)
        total = difference + carry
        carry = np.uint64(1) if total < carry else np.uint64(0)
        memo_counts[slot, w + 1] = total
    return carry != 0


@njit(inline="always", **PLAIN)
def _memo_add(st, memo_counts, slot):
    """Add the count of memo ``slot`` to ``st.extra``; return True on OVERFLOW."""
    carry = np.uint64(0)
    for w in range(st.extra.shape[0]):
        a = st.extra[w]
        total = a + memo_counts[slot, w + 1]
        high = total < a
        total += carry
        carry = np.uint64(1) if high or total < carry else np.uint64(0)
        st.extra[w] = total
    return carry != 0


@njit(**PLAIN)
def _memo_push(node, level_key, level, x):
    """The key of ``level + 1``: the key of ``level`` and the items of x's option."""
    for w in range(level_key.shape[1]):
        level_key[_u(level + 1), _u(w)] = level_key[_u(level), _u(w)]
    pp = x
    while True:
        cc = node[TOP, _u(pp)]
        word = _u(level + 1), _u(cc >> 6)
        level_key[word] |= np.uint64(1) << np.uint64(cc & 63)
        pp = _next_in_option(node, pp)
        if pp == x:
            break


@njit(inline="always", **PLAIN)
def _memo_seen(st, level, cur, n_fixed, memo_keys, memo_counts):
    """M6 with the memo: push the key of the child of option ``cur``; return the slot
    that holds its count, or -1."""
    _memo_push(st.node, st.level_key, level, cur)
    if level + 1 >= n_fixed:
        slot = _memo_slot(st.level_key, level + 1, memo_keys)
        if memo_counts[slot, 0] != 0 and _memo_matches(st.level_key, level + 1, memo_keys, slot):
            return np.int64(slot)
    return np.int64(-1)


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
                    _loop_unforbid(st.node, loop, 0)
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
        _loop_unforbid(st.node, loop, 0)
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


# -- sanity -------------------------------------------------------------------------------

# what sanity() finds: (SANE, 0) or (fault, item)
BAD_LINK, WRONG_TOP, BROKEN_UP, LIST_LOOPS, WRONG_LENGTH, BAD_ACTIVE = 1, 2, 3, 4, 5, 6


@njit(**PLAIN)
def sanity(node, item, second):
    """Knuth's sanity(): every item's list is a proper doubly linked ring of nodes of
    that item, as long as its header says, and the active list is a proper ring of
    primary items. Return ``(SANE, 0)``, or a fault code and the item at fault."""
    n_items = item.shape[1] - 1
    n_nodes = node.shape[1]
    for i in range(1, n_items + 1):
        previous = i
        x = node[DLINK, i]
        length = 0
        while x != i:
            if x <= n_items or x >= n_nodes:
                return BAD_LINK, i
            if node[TOP, x] != i:
                return WRONG_TOP, i
            if node[ULINK, x] != previous:
                return BROKEN_UP, i
            length += 1
            if length > n_nodes:
                return LIST_LOOPS, i
            previous = x
            x = node[DLINK, x]
        if node[ULINK, i] != previous:
            return BROKEN_UP, i
        if node[TOP, i] != length:
            return WRONG_LENGTH, i
    k = 0
    for _ in range(second + 1):
        after = item[NEXT, k]
        if after < 0 or after >= second or item[PREV, after] != k:
            return BAD_ACTIVE, k
        k = after
        if k == 0:
            return SANE, 0
    return BAD_ACTIVE, 0


# -- loop items ----------------------------------------------------------------------------
#
# An optional extension (for slitherlink and other single-loop puzzles): some secondary
# items are the edges of a graph, and a solution must also turn the edges that get their
# 'on' colour into exactly one cycle (with at least one edge), every other edge off.
# Purification happens exactly once per secondary item on a path of the search tree
# (later options of the same colour carry ``COLOR -1`` and are skipped), so the moment
# ``_commit_option`` purifies a loop item with its 'on' colour is the moment the edge
# joins the loop, and ``_uncommit_option`` takes it out again, in the reverse order.
#
# ``loop_edge[c, LOOP_U]``, ``loop_edge[c, LOOP_V]``, ``loop_edge[c, LOOP_ON]``
#     for item ``c``: its endpoints and its 'on' colour (``LOOP_ON = 0``: not an edge).
# ``loop_edge[c, LOOP_STATE]``, ``loop_edge[c, LOOP_SAVED]``, ``loop_edge[c, LOOP_MARK]``
#     how the edge went in (EDGE_OFF: not settled; EDGE_SETTLED: purified 'off';
#     EDGE_JOINED: it joined two paths, LOOP_SAVED is the length of the path on u's
#     side before and LOOP_MARK the trail's length before its forbidding; EDGE_CLOSING:
#     it closed the cycle; EDGE_BAD: it broke a rule and only counts in ``LOOP_BAD``).
# ``loop_edge[c, LOOP_FORBIDDEN]``
#     1 while the options that would turn ``c`` on are hidden (see below).
# ``loop_vertex[v, DEGREE]``; ``loop_vertex[v, MATE]``, ``loop_vertex[v, LENGTH]``
#     the on-edges at ``v``; for an end of a path, the other end and the path's edges
#     (Knuth's "mate" trick: interior vertices keep stale values, never read).
# ``loop_vertex[v, FIRST_EDGE]``, ``loop_incident``
#     the loop items at ``v`` are ``loop_incident[FIRST_EDGE of v : FIRST_EDGE of v+1]``.
# ``loop_total[LOOP_ON_EDGES]``, ``loop_total[LOOP_CLOSED]``, ``loop_total[LOOP_BAD]``
#     the on-edges, whether they form a cycle, and how many edges broke a rule;
#     ``loop_total[LOOP_TRAIL]`` is the length of the trail, ``loop_trail[:length]``.
#
# Rules: a third edge at a vertex, any edge once the cycle is closed, or closing a cycle
# that leaves some on-edge out, is *bad*. The search treats a node with ``LOOP_BAD > 0``
# as a dead end, and a node with every primary item covered as a solution only when
# ``LOOP_CLOSED``. Without loop items these arrays are None and numba prunes the code.
#
# Forbidding: when an edge joins two paths into one from ``a`` to ``b`` and some on-edge
# lies outside it, an unsettled edge from ``a`` to ``b`` can never be on; the options that
# would turn it on are hidden at once (whole, as ``tweak`` does; an unsettled item's list
# holds exactly the active options that use it) and pushed on the trail, to be restored
# in the reverse order when the joining edge leaves the loop.
#
# Settling: after each commit (when the item ``i`` branched on is covered, bounds 1:1),
# ``_loop_settle`` visits the active primary items that lost options; where all the
# options left to one give an unsettled secondary item the same colour, the options that
# give it another are hidden and pushed on the trail as forbidding does (then
# ``loop_edge[c, LOOP_FORBIDDEN]`` is 2 for a loop item so turned on, 1 otherwise), and a
# loop item turned on joins the loop at once (``_loop_add``; its trail entry takes it out
# again, and the commit that later purifies it leaves the loop alone). The items that
# lose options are visited in turn (a stack through ``loop_edge[k, LOOP_U]`` of the
# primary rows, ``LOOP_STATE`` marking those on it) until nothing changes or an item is
# left without options: a dead end. Unsettled items use ``LOOP_SAVED`` and ``LOOP_MARK``
# as scratch for the tally. The trail's length before the settling is kept in
# ``loop_edge[i, LOOP_MARK]`` (no deeper level branches on ``i``) and the settling is
# undone before the option is uncommitted. The same runs on every item before the first
# choice (without forced options), undone when the search ends.
#
# Probing (M3 with loop items and no bounds): an item with at most one option is taken
# at once (the leftmost); else each active item is probed (``_live_options``: each of its options
# committed and settled, then undone), round from the item branched on one level up
# (a function of the path, so the parallel replay of a prefix sees the same tree), and
# the first with at most one live option is taken: its dead options fail at once in M6.
# If none, the branch goes to the item of fewest live options, then the one whose weaker
# branch hid the most. Each probed option takes one node from the call's budget (it is
# not counted in the statistics). On slitherlink this leaves few search nodes per item
# (README). Without loop items none of this is compiled (the machine code of
# the plain search is the same as without the extension).


@njit(**PLAIN)
def _loop_purified(node, loop, cc, colour):
    """Secondary item ``cc`` was just purified with ``colour``: a loop item turned on
    joins the loop (unless settling put it there already), one turned off is settled."""
    on = loop.edge[cc, LOOP_ON]
    if on == colour:
        if loop.edge[cc, LOOP_FORBIDDEN] != 2:  # else it is on already
            _loop_add(node, loop, cc)
    elif on != 0:
        loop.edge[cc, LOOP_STATE] = EDGE_SETTLED


@njit(**PLAIN)
def _loop_unpurified(node, loop, cc, colour):
    """The inverse of ``_loop_purified`` (before the unpurify)."""
    on = loop.edge[cc, LOOP_ON]
    if on == colour:
        if loop.edge[cc, LOOP_FORBIDDEN] != 2:
            _loop_remove(node, loop, cc)
    elif on != 0:
        loop.edge[cc, LOOP_STATE] = EDGE_OFF


@njit(**PLAIN)
def _loop_add(node, loop, c):
    """Loop item ``c`` has turned on: join two paths, close the cycle, or count a bad edge."""
    loop_edge, loop_vertex, loop_total = loop.edge, loop.vertex, loop.total
    u = loop_edge[c, LOOP_U]
    v = loop_edge[c, LOOP_V]
    du = loop_vertex[u, DEGREE]
    dv = loop_vertex[v, DEGREE]
    if loop_total[LOOP_BAD] > 0 or loop_total[LOOP_CLOSED] != 0 or du == 2 or dv == 2:
        loop_edge[c, LOOP_STATE] = EDGE_BAD
        loop_total[LOOP_BAD] += 1
        return
    a = u if du == 0 else loop_vertex[u, MATE]
    if a == v:
        # u and v end the same path: the edge closes it into a cycle
        if loop_vertex[u, LENGTH] != loop_total[LOOP_ON_EDGES]:
            loop_edge[c, LOOP_STATE] = EDGE_BAD
            loop_total[LOOP_BAD] += 1
            return
        loop_edge[c, LOOP_STATE] = EDGE_CLOSING
        loop_total[LOOP_CLOSED] = 1
    else:
        b = v if dv == 0 else loop_vertex[v, MATE]
        length_a = 0 if du == 0 else loop_vertex[a, LENGTH]
        length_b = 0 if dv == 0 else loop_vertex[b, LENGTH]
        loop_edge[c, LOOP_STATE] = EDGE_JOINED
        loop_edge[c, LOOP_SAVED] = length_a
        loop_vertex[a, MATE] = b
        loop_vertex[b, MATE] = a
        loop_vertex[a, LENGTH] = length_a + length_b + 1
        loop_vertex[b, LENGTH] = length_a + length_b + 1
        loop_edge[c, LOOP_MARK] = loop_total[LOOP_TRAIL]
        if loop_total[LOOP_ON_EDGES] > length_a + length_b:
            # some on-edge lies outside this path: an edge from a to b must stay off
            for k in range(loop_vertex[a, FIRST_EDGE], loop_vertex[a + 1, FIRST_EDGE]):
                e = loop.incident[k]
                if loop_edge[e, LOOP_STATE] != EDGE_OFF or loop_edge[e, LOOP_FORBIDDEN] != 0:
                    continue
                if loop_edge[e, LOOP_U] + loop_edge[e, LOOP_V] - a == b:
                    _loop_forbid(node, loop, e)
    loop_vertex[u, DEGREE] = du + 1
    loop_vertex[v, DEGREE] = dv + 1
    loop_total[LOOP_ON_EDGES] += 1


@njit(**PLAIN)
def _loop_remove(node, loop, c):
    """The inverse of ``_loop_add`` (called in the reverse order of the adds)."""
    if loop.edge[c, LOOP_STATE] == EDGE_JOINED:
        _loop_unforbid(node, loop, loop.edge[c, LOOP_MARK])
    _loop_detach(loop, c)


@njit(**PLAIN)
def _loop_detach(loop, c):
    """``_loop_remove`` once the forbidding that ``c`` did is undone."""
    loop_edge, loop_vertex, loop_total = loop.edge, loop.vertex, loop.total
    state = loop_edge[c, LOOP_STATE]
    loop_edge[c, LOOP_STATE] = EDGE_OFF
    if state == EDGE_BAD:
        loop_total[LOOP_BAD] -= 1
        return
    u = loop_edge[c, LOOP_U]
    v = loop_edge[c, LOOP_V]
    du = loop_vertex[u, DEGREE] - 1
    dv = loop_vertex[v, DEGREE] - 1
    loop_vertex[u, DEGREE] = du
    loop_vertex[v, DEGREE] = dv
    loop_total[LOOP_ON_EDGES] -= 1
    if state == EDGE_CLOSING:
        loop_total[LOOP_CLOSED] = 0
        return
    a = u if du == 0 else loop_vertex[u, MATE]
    b = v if dv == 0 else loop_vertex[v, MATE]
    length_a = loop_edge[c, LOOP_SAVED]
    length_b = loop_vertex[a, LENGTH] - 1 - length_a
    loop_vertex[a, MATE] = u
    loop_vertex[b, MATE] = v
    loop_vertex[a, LENGTH] = length_a
    loop_vertex[b, LENGTH] = length_b


@njit(**PLAIN)
def _loop_forbid(node, loop, e):
    """Hide every option that would turn loop item ``e`` on (``e`` must be unsettled, so
    that the options in its list are exactly the active ones), pushing them on the trail.
    """
    on = loop.edge[e, LOOP_ON]
    loop.edge[e, LOOP_FORBIDDEN] = 1
    rr = node[DLINK, e]
    while rr != e:
        if node[COLOR, rr] == on:
            _trail_hide(node, None, 0, loop, rr, 0)
        rr = node[DLINK, rr]
    _trail_push(loop, -e)


@njit(inline="always", **PLAIN)
def _trail_push(loop, entry):
    """Push ``entry`` on the loop trail."""
    top = loop.total[LOOP_TRAIL]
    loop.trail[top] = entry
    loop.total[LOOP_TRAIL] = top + 1


@njit(inline="always", **PLAIN)
def _queue_item(loop, cc, head):
    """Push primary item ``cc`` on the settling stack that starts at ``head`` (unless it
    is on it); return the new head."""
    if loop.edge[cc, LOOP_STATE] == 0:
        loop.edge[cc, LOOP_STATE] = 1
        loop.edge[cc, LOOP_U] = head
        return cc
    return head


@njit(**PLAIN)
def _trail_hide(node, item, second, loop, rr, head):
    """Hide the option of node ``rr`` whole, ``rr`` included (as tweak does), and push
    ``rr`` on the trail. Given ``item`` (else None), also queue the option's active
    primary items on the settling stack that starts at ``head``; return
    ``(head, dead)``, dead when one of those items is left without options."""
    dead = False
    nn = rr
    while True:
        nn = _next_in_option(node, nn)
        if node[COLOR, nn] >= 0:
            cc, left = _unlink(node, nn)
            if item is not None:
                if cc < second and _is_active(item, cc):
                    dead |= left == 0
                    head = _queue_item(loop, cc, head)
        if nn == rr:
            break
    _trail_push(loop, rr)
    return head, dead


@njit(**PLAIN)
def _loop_unforbid(node, loop, mark):
    """Undo the ``_loop_forbid`` and settling hides since the trail was ``mark`` long,
    in reverse."""
    top = loop.total[LOOP_TRAIL]
    while top > mark:
        top -= 1
        rr = loop.trail[top]
        if rr < 0:
            if loop.edge[-rr, LOOP_FORBIDDEN] == 2 and loop.edge[-rr, LOOP_ON] != 0:
                # a loop item that _loop_settle turned on: take it out of the loop
                loop.total[LOOP_TRAIL] = top
                _loop_detach(loop, -rr)
            loop.edge[-rr, LOOP_FORBIDDEN] = 0
            continue
        _unhide_option(node, rr)
        if node[COLOR, rr] >= 0:
            _relink(node, rr)
    loop.total[LOOP_TRAIL] = top


@njit(**PLAIN)
def _loop_hide(node, item, second, loop, e, keep, head):
    """Hide the options that give unsettled item ``e`` a colour other than ``keep``,
    as ``_loop_forbid`` does, and queue their active primary items on the stack that
    starts at ``head``; return ``(head, dead)``, dead when one of those items is left
    without options."""
    loop.edge[e, LOOP_FORBIDDEN] = 2 if keep == loop.edge[e, LOOP_ON] else 1
    dead = False
    rr = node[DLINK, e]
    while rr != e:
        if node[COLOR, rr] != keep:
            head, dead_here = _trail_hide(node, item, second, loop, rr, head)
            dead |= dead_here
        rr = node[DLINK, rr]
    _trail_push(loop, -e)
    return head, dead


@njit(**PLAIN)
def _queue_option(node, item, second, loop, x, head):
    """Push the active primary items of the option of node ``x`` (not yet queued)."""
    nn = _next_in_option(node, x)
    while nn != x:
        cc = node[TOP, nn]
        if cc < second and _is_active(item, cc):
            head = _queue_item(loop, cc, head)
        nn = _next_in_option(node, nn)
    return head


@njit(**PLAIN)
def _loop_settle(node, item, second, has_bounds, loop, i, x, start):
    """After the option of node ``x`` was committed for item ``i``: where every option
    left to some active primary item colours an unsettled loop item alike, hide the
    options that colour it otherwise, until nothing changes (the trail keeps them; the
    mark is kept in row ``i`` of ``loop.edge``). Return False at a dead end."""
    if item[BOUND, i] != 0 or item[SLACK, i] != 0:
        return True
    mark = loop.total[LOOP_TRAIL]
    loop.edge[i, LOOP_MARK] = mark
    if has_bounds:
        return True
    # the items that lost options: through the committed option's lists ...
    head = 0
    pp = _next_in_option(node, x)
    while pp != x:
        cc = node[TOP, pp]
        if cc < second or node[COLOR, pp] >= 0:
            rr = node[DLINK, cc]
            while rr != cc:
                if rr != pp and (cc < second or node[COLOR, rr] >= 0):
                    head = _queue_option(node, item, second, loop, rr, head)
                rr = node[DLINK, rr]
        pp = _next_in_option(node, pp)
    # ... and through the options that closing rules hid during the commit
    for k in range(start, mark):
        rr = loop.trail[k]
        if rr > 0:
            head = _queue_option(node, item, second, loop, rr, head)
    if _loop_propagate(node, item, second, loop, head):
        return True
    _loop_unforbid(node, loop, mark)
    loop.edge[i, LOOP_MARK] = 0
    return False


@njit(**PLAIN)
def _tally(node, second, loop, k, n, tally, item, head):
    """One pass of ``_loop_propagate`` over the options of item ``k`` (``n`` of them):
    pass 0 clears the scratch of the unsettled loop items they colour, pass 1 counts
    how alike they colour each, pass 2 settles those all ``n`` colour alike. Return
    ``(head, dead)``."""
    loop_edge = loop.edge
    dead = False
    rr = node[DLINK, k]
    while rr != k:
        nn = _next_in_option(node, rr)
        while nn != rr:
            cc = node[TOP, nn]
            if cc >= second and node[COLOR, nn] > 0 and loop_edge[cc, LOOP_FORBIDDEN] == 0:
                if tally == 0:
                    loop_edge[cc, LOOP_SAVED] = 0
                    loop_edge[cc, LOOP_MARK] = 0
                elif tally == 1:
                    if loop_edge[cc, LOOP_MARK] == 0:
                        loop_edge[cc, LOOP_SAVED] = node[COLOR, nn]
                        loop_edge[cc, LOOP_MARK] = 1
                    elif loop_edge[cc, LOOP_SAVED] == node[COLOR, nn]:
                        loop_edge[cc, LOOP_MARK] += 1
                    else:
                        loop_edge[cc, LOOP_SAVED] = -1
                else:
                    keep = loop_edge[cc, LOOP_SAVED]
                    alike = keep > 0 and loop_edge[cc, LOOP_MARK] == n
                    loop_edge[cc, LOOP_SAVED] = 0
                    loop_edge[cc, LOOP_MARK] = 0
                    if alike:
                        head, dead_here = _loop_settle_item(
                            node, item, second, loop, cc, keep, head
                        )
                        dead |= dead_here
            nn = _next_in_option(node, nn)
        rr = node[DLINK, rr]
    return head, dead


@njit(**PLAIN)
def _loop_settle_item(node, item, second, loop, cc, keep, head):
    """Settle unsettled item ``cc`` to colour ``keep`` (``_loop_hide``); a loop item so
    turned on joins the loop, and the options its joining hid are queued too. Return
    ``(head, dead)``."""
    head, dead = _loop_hide(node, item, second, loop, cc, keep, head)
    if keep == loop.edge[cc, LOOP_ON]:
        before = loop.total[LOOP_TRAIL]
        _loop_add(node, loop, cc)
        dead |= loop.total[LOOP_BAD] > 0
        for t in range(before, loop.total[LOOP_TRAIL]):
            rr = loop.trail[t]
            if rr > 0:
                head = _queue_option(node, item, second, loop, rr, head)
    return head, dead


@njit(**PLAIN)
def _loop_propagate(node, item, second, loop, head):
    """Empty the stack of items that starts at ``head``: where all the options of an
    item colour an unsettled secondary item alike, hide its options of other colours
    (and put a loop item so turned on into the loop), queueing the items that lose
    options. Return False at a dead end (the trail then still needs undoing)."""
    dead = False
    while head != 0:
        k = head
        head = loop.edge[k, LOOP_U]
        loop.edge[k, LOOP_STATE] = 0
        loop.edge[k, LOOP_U] = 0
        if dead or not _is_active(item, k):
            continue
        n = node[TOP, k]
        if n == 0:
            dead = True
            continue
        for tally in range(3):
            head, dead_here = _tally(node, second, loop, k, n, tally, item, head)
            dead |= dead_here
    return not dead


@njit(**PLAIN)
def _loop_settle_root(node, item, second, loop):
    """``_loop_settle`` for every primary item, before the first choice (trail mark 0)."""
    head = 0
    k = item[NEXT, 0]
    while k != 0:
        loop.edge[k, LOOP_STATE] = 1
        loop.edge[k, LOOP_U] = head
        head = k
        k = item[NEXT, k]
    return _loop_propagate(node, item, second, loop, head)


@njit(**PLAIN)
def _loop_unsettle(node, item, loop, i):
    """Undo ``_loop_settle`` for item ``i`` (before its option is uncommitted)."""
    if item[BOUND, i] == 0 and item[SLACK, i] == 0:
        _loop_unforbid(node, loop, loop.edge[i, LOOP_MARK])
        loop.edge[i, LOOP_MARK] = 0


@njit(**PLAIN)
def _live_options(node, item, second, loop, i, work):
    """How many options of active item ``i`` survive their commit and ``_loop_settle``,
    and the fewest trail entries one of those left (a probe: every array is restored)."""
    n_items = item.shape[1] - 1
    item[BOUND, i] -= 1
    _deactivate(item, i)
    _cover(node, item, i, n_items, second, work, -1)
    live = 0
    impact = NO_SCORE
    x = node[DLINK, i]
    while x != i:
        start = loop.total[LOOP_TRAIL]
        done, last, dead_at = _commit_option(node, item, x, second, n_items, loop, work, -1)
        if last == x:
            if loop.total[LOOP_BAD] == 0 and _loop_settle(
                node, item, second, False, loop, i, x, start
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
