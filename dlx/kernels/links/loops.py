"""Loop items of the links kernel (``kernel.py``): the loop's edges, forbidding and
settling; ``LOOPS_DIGEST`` guards numba's cache as ``lists.py`` explains.
"""

import numpy as np
from numba import njit

from dlx.kernels.links.layout import (
    BOUND,
    COLOR,
    DEGREE,
    DLINK,
    EDGE_BAD,
    EDGE_CLOSING,
    EDGE_JOINED,
    EDGE_OFF,
    EDGE_SETTLED,
    FIRST_EDGE,
    LENGTH,
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
    NEXT,
    SLACK,
    TOP,
)
from dlx.kernels.links.lists import (
    _is_active,
    _next_in_option,
    _relink,
    _unhide_option,
    _unlink,
)

# Compiled without numba's reference counting, unsigned indices: see kernel.py.
PLAIN = {"cache": True, "_nrt": False}
_u = np.uint64
# dlx/kernels/links/lists.py's sha256, checked by tests/test_structure.py: numba's cache
# of this file's functions goes stale when that file changes, unless this file changes too
LISTS_DIGEST = "4986ee787cfca4be"


# -- loop items ----------------------------------------------------------------------------
#
# An optional extension (for slitherlink and other single-loop puzzles): some secondary
# items are the edges of a graph, and a solution must also turn the edges that get their
# 'on' colour into exactly one cycle (with at least one edge), every other edge off.
# Purification happens exactly once per secondary item on a path of the search tree
# (later options of the same colour carry ``COLOR -1`` and are skipped), so the moment
# ``dlx.kernels.links.commit._commit_option`` purifies a loop item with its 'on'
# colour is the moment the edge joins the loop, and
# ``dlx.kernels.links.commit._uncommit_option`` takes it out again, in the reverse order.
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
# at once (the leftmost); else each active item is probed
# (``dlx.kernels.links.kernel._live_options``: each of its options committed and
# settled, then undone), round from the item branched on one level up
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
                _loop_detach(loop, np.int32(-rr))  # int32 as _loop_remove's item
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
    head = np.int32(0)  # int32 as loop.edge is: one compiled _queue_option for every caller
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
    head = np.int32(0)  # int32 as in _loop_settle: one compiled _loop_propagate for both
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
