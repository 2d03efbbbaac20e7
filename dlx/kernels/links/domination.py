"""Item domination and the singles of the links kernel (``kernel.py``), jitted
steps inlined into its search; ``DOMINATION_DIGEST`` guards numba's cache as
``lists.py`` explains.
"""

import numpy as np
from numba import njit

from dlx.kernels.links.layout import (
    BOUND,
    DLINK,
    DOMINATION_LENGTH,
    DOMINATION_MARK,
    DOMINATION_TOP,
    DOMINATION_TRAIL,
    NEXT,
    SINGLES_FLOOR,
    SINGLES_MARK,
    SLACK,
    TOP,
    ULINK,
)
from dlx.kernels.links.lists import (
    _hide_option,
    _is_active,
    _next_in_option,
    _note,
    _relink,
    _starves,
    _unhide_option,
    _unlink,
)

# Compiled without numba's reference counting, unsigned indices: see kernel.py.
PLAIN = {"cache": True, "_nrt": False}
_u = np.uint64
# dlx/kernels/links/lists.py's sha256, checked by tests/test_structure.py: numba's cache
# of this file's functions goes stale when that file changes, unless this file changes too
LISTS_DIGEST = "4986ee787cfca4be"
SINGLES_SCAN = 8  # M3 looks at most this many entries of the singles stack


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
# with two. Only without bounds and loop items (``dlx.kernels.links.kernel._choose``).
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
