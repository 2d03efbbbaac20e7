"""The lists of the links kernel (``kernel.py``): the active list, the walks over an
option's nodes, hiding and unhiding an option, and Knuth's ``sanity()``.

numba's cache keys a function on its own file: each file of this kernel that calls
code of this one records its digest (``LISTS_DIGEST``), checked by
``tests/test_structure.py``, so that an edit here makes numba compile them afresh.
"""

import numpy as np
from numba import njit

from dlx.kernels.links.layout import (
    BOUND,
    COLOR,
    DLINK,
    NEXT,
    PREV,
    SLACK,
    TOP,
    ULINK,
)

# Compiled without numba's reference counting, unsigned indices: see kernel.py.
PLAIN = {"cache": True, "_nrt": False}
_u = np.uint64
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
