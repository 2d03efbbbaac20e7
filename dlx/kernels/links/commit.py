"""Knuth's operations of the links kernel (``kernel.py``): covering, purifying,
tweaking, committing an option, and choosing the item to branch on;
``COMMIT_DIGEST`` guards numba's cache as ``lists.py`` explains.
"""

import numpy as np
from numba import njit

from dlx.kernels.links.layout import (
    BOUND,
    COLOR,
    DLINK,
    NEXT,
    SLACK,
    TOP,
    ULINK,
)
from dlx.kernels.links.lists import (
    _deactivate,
    _hide_option,
    _next_in_option,
    _prev_in_option,
    _reactivate,
    _unhide_option,
    _unlink,
)
from dlx.kernels.links.loops import (
    _loop_purified,
    _loop_unpurified,
)

# Compiled without numba's reference counting, unsigned indices: see kernel.py.
PLAIN = {"cache": True, "_nrt": False}
_u = np.uint64
# dlx/kernels/links/lists.py's sha256, checked by tests/test_structure.py: numba's cache
# of this file's functions goes stale when that file changes, unless this file changes too
LISTS_DIGEST = "4986ee787cfca4be"
# dlx/kernels/links/loops.py's sha256, checked by tests/test_structure.py: numba's cache
# of this file's functions goes stale when that file changes, unless this file changes too
LOOPS_DIGEST = "429da9ff34a6d6aa"
NO_SCORE = 1 << 30  # above any branching degree


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
    starves an item (``dlx.kernels.links.lists._starves``). Return
    ``(updates, dead_at)``: ``dead_at`` is the node of that option in this list (the
    options below it are left alone), or ``0`` if none starved."""
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
