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

Memo
----
For full counts of problems without colours, multiplicities or loop items, the
problem left at a node (the active items and the options that avoid every covered
item) depends only on the set of items covered so far, not on the path that covered
them. So its count can be kept and reused, as in Nishino et al.'s DXZ ("Dancing with
decision diagrams", AAAI 2017), without the diagram.

``level_key[l]`` is that set at level ``l``, one bit per item in ``uint64`` words: the
key of level ``l + 1`` is made in M6 from level ``l``'s and the option tried
(``_memo_push``). Before the commit, the child's key is looked up in a direct-mapped
table (``memo_keys[slot]``, ``memo_counts[slot]`` = the count + 1, 0 for an empty slot):
a hit adds the count and goes on to the next option without committing. On leaving a
level (M9) that was entered at or below the fixed levels and whose subtree took at
least ``MEMO_MIN_NODES`` nodes, its count (``solutions`` now minus
``level_memo[l, MEMO_SOLUTIONS]``, noted on entry) is stored, overwriting whatever
held the slot. Every stored count is that of a whole subtree, so the table stays exact
whatever the order of stores and overwrites; it lives as long as the caller keeps it,
and the subproblems of one parallel count share it within a worker.

The search tree is the same, less the subtrees met before: on the pentomino counts
about a quarter of the nodes (6x10: 302,477 nodes to 221,057; 8x8 with the 2x2 square,
symmetry broken: 1,423,359 to 1,027,363 with the default table, 262,144 slots in
6 MiB there), and the domino tilings of 8x8 (12,988,816) take 1,862 nodes. On 8x8,
32,768 slots give 1,065,862 nodes and 8,388,608 slots 1,018,241. Sudoku trees
hardly repeat (1% fewer nodes on forum-hardest), and their batch searches stop at a
limit anyway. With no rows in ``memo_keys`` the memo is off (streams, solution
limits, splits, batches).

Loop items
----------
An optional extension (for slitherlink and other single-loop puzzles): some secondary
items are the edges of a graph, and a solution must also turn the edges that get their
'on' colour into exactly one cycle (with at least one edge), every other edge off.
Purification happens exactly once per secondary item on a path of the search tree
(later options of the same colour carry ``COLOR -1`` and are skipped), so the moment
``_commit_option`` purifies a loop item with its 'on' colour is the moment the edge
joins the loop, and ``_uncommit_option`` takes it out again, in the reverse order.

``loop_edge[c, LOOP_U]``, ``loop_edge[c, LOOP_V]``, ``loop_edge[c, LOOP_ON]``
    for item ``c``: its endpoints and its 'on' colour (``LOOP_ON = 0``: not an edge).
``loop_edge[c, LOOP_STATE]``, ``loop_edge[c, LOOP_SAVED]``, ``loop_edge[c, LOOP_MARK]``
    how the edge went in (EDGE_OFF: not settled; EDGE_SETTLED: purified 'off';
    EDGE_JOINED: it joined two paths, LOOP_SAVED is the length of the path on u's
    side before and LOOP_MARK the trail's length before its forbidding; EDGE_CLOSING:
    it closed the cycle; EDGE_BAD: it broke a rule and only counts in ``LOOP_BAD``).
``loop_edge[c, LOOP_FORBIDDEN]``
    1 while the options that would turn ``c`` on are hidden (see below).
``loop_vertex[v, DEGREE]``; ``loop_vertex[v, MATE]``, ``loop_vertex[v, LENGTH]``
    the on-edges at ``v``; for an end of a path, the other end and the path's edges
    (Knuth's "mate" trick: interior vertices keep stale values, never read).
``loop_vertex[v, FIRST_EDGE]``, ``loop_incident``
    the loop items at ``v`` are ``loop_incident[FIRST_EDGE of v : FIRST_EDGE of v+1]``.
``loop_total[LOOP_ON_EDGES]``, ``loop_total[LOOP_CLOSED]``, ``loop_total[LOOP_BAD]``
    the on-edges, whether they form a cycle, and how many edges broke a rule;
    ``loop_total[LOOP_TRAIL]`` is the length of the trail that follows it.

Rules: a third edge at a vertex, any edge once the cycle is closed, or closing a cycle
that leaves some on-edge out, is *bad*. The search treats a node with ``LOOP_BAD > 0``
as a dead end, and a node with every primary item covered as a solution only when
``LOOP_CLOSED``. Without loop items these arrays are None and numba prunes the code.

Forbidding: when an edge joins two paths into one from ``a`` to ``b`` and some on-edge
lies outside it, an unsettled edge from ``a`` to ``b`` can never be on; the options that
would turn it on are hidden at once (whole, as ``tweak`` does; an unsettled item's list
holds exactly the active options that use it) and pushed on the trail, to be restored
in the reverse order when the joining edge leaves the loop.

Settling: after each commit (when the item ``i`` branched on is covered, bounds 1:1),
``_loop_settle`` visits the active primary items that lost options; where all the
options left to one give an unsettled secondary item the same colour, the options that
give it another are hidden and pushed on the trail as forbidding does (then
``loop_edge[c, LOOP_FORBIDDEN]`` is 2 for a loop item so turned on, 1 otherwise), and a
loop item turned on joins the loop at once (``_loop_add``; its trail entry takes it out
again, and the commit that later purifies it leaves the loop alone). The items that
lose options are visited in turn (a stack through ``loop_edge[k, LOOP_U]`` of the
primary rows, ``LOOP_STATE`` marking those on it) until nothing changes or an item is
left without options: a dead end. Unsettled items use ``LOOP_SAVED`` and ``LOOP_MARK``
as scratch for the tally. The trail's length before the settling is kept in
``loop_edge[i, LOOP_MARK]`` (no deeper level branches on ``i``) and the settling is
undone before the option is uncommitted. The same runs on every item before the first
choice (without forced options), undone when the search ends.

Probing (M3 with loop items and no bounds): an item with at most one option is taken
at once (the leftmost); else each active item is probed (``_live_options``: each of its options
committed and settled, then undone), round from the item branched on one level up
(a function of the path, so the parallel replay of a prefix sees the same tree), and
the first with at most one live option is taken: its dead options fail at once in M6.
If none, the branch goes to the item of fewest live options, then the one whose weaker
branch hid the most. Each probed option takes one node from the call's budget (it is
not counted in the statistics). On slitherlink this leaves about one search node per
item: 30x40 puzzles took more than 10 s each with plain MRV and take about 0.05 s of
search with probing. Without loop items none of this is compiled (the machine code of
the plain search is the same as without the extension).
"""

import numpy as np
from numba import njit

from dlx.layout import (  # noqa: F401 (the codes are the kernel's too)
    ADVANCE,
    BACKDOWN,
    BACKUP,
    BOUND,
    COLOR,
    DEGREE,
    DLINK,
    DONE,
    EDGE_BAD,
    EDGE_CLOSING,
    EDGE_JOINED,
    EDGE_OFF,
    EDGE_SETTLED,
    FIRST_EDGE,
    FORWARD,
    LEAF,
    LENGTH,
    LIMIT,
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
    NO_SPLIT,
    PAUSED,
    PREV,
    SLACK,
    SOLUTION,
    TOP,
    ULINK,
)

# Every array index in the hot loops goes through ``_u``: numba reads a negative signed
# index from the end of the array, at the price of a test and an add on each access,
# while an unsigned index is a plain load. The kernel's indices are never negative.
_u = np.uint64

MEMO_SOLUTIONS, MEMO_NODES = 0, 1  # the columns of ``level_memo``
MEMO_MIN_NODES = 2  # a subtree of fewer nodes is not worth a slot


@njit(cache=True, inline="always")
def _deactivate(item, i):
    """Remove primary item ``i`` from the active list."""
    left = item[PREV, _u(i)]
    right = item[NEXT, _u(i)]
    item[NEXT, _u(left)] = right
    item[PREV, _u(right)] = left


@njit(cache=True, inline="always")
def _reactivate(item, i):
    """Put primary item ``i`` back into the active list."""
    left = item[PREV, _u(i)]
    right = item[NEXT, _u(i)]
    item[NEXT, _u(left)] = i
    item[PREV, _u(right)] = i


@njit(cache=True, inline="always")
def _is_active(item, i):
    """Whether primary item ``i`` is in the active list."""
    return item[NEXT, _u(item[PREV, _u(i)])] == i


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
            if node[COLOR, _u(nn)] >= 0:
                cc = node[TOP, _u(nn)]
                if cc <= 0:
                    nn = node[ULINK, _u(nn)]
                    continue
                uu = node[ULINK, _u(nn)]
                dd = node[DLINK, _u(nn)]
                node[DLINK, _u(uu)] = dd
                node[ULINK, _u(dd)] = uu
                left = node[TOP, _u(cc)] - 1
                node[TOP, _u(cc)] = left
                updates += 1
                # dead: an active primary item left with fewer options than it needs
                # (LEN < BOUND - SLACK); test LEN < BOUND first, one load, rarely true
                if cc < second and left < item[BOUND, _u(cc)]:
                    if left < item[BOUND, _u(cc)] - item[SLACK, _u(cc)]:
                        dead |= _is_active(item, cc)
            nn += 1
        if dead:
            return updates, rr
        rr = node[DLINK, _u(rr)]
    return updates, 0


@njit(cache=True)
def _unhide_all(node, first, last, n_items):
    """Undo ``_hide_all`` for the list that starts at ``first``, down to the option of
    node ``last`` (a node not in the list, such as its header: the whole list)."""
    rr = first
    while rr > n_items:
        nn = rr + 1
        while nn != rr:
            if node[COLOR, _u(nn)] >= 0:
                cc = node[TOP, _u(nn)]
                if cc <= 0:
                    nn = node[ULINK, _u(nn)]
                    continue
                uu = node[ULINK, _u(nn)]
                dd = node[DLINK, _u(nn)]
                node[DLINK, _u(uu)] = nn
                node[ULINK, _u(dd)] = nn
                node[TOP, _u(cc)] += 1
            nn += 1
        if rr == last:
            return
        rr = node[DLINK, _u(rr)]


@njit(cache=True)
def _cover(node, item, c, n_items, second):
    """cover(c): deactivate primary item ``c`` and hide every option in its list.

    No dead end is taken here: an item left without options by this may still be
    covered by the option chosen for ``c``.
    """
    _deactivate(item, c)
    updates = 1
    rr = node[DLINK, _u(c)]
    while rr > n_items:
        hidden, dead_at = _hide_all(node, item, rr, n_items, second)
        updates += hidden
        if dead_at == 0:
            break
        rr = node[DLINK, _u(dead_at)]
    return updates


@njit(cache=True)
def _uncover(node, item, c, n_items):
    """uncover(c): the inverse of ``_cover``."""
    _unhide_all(node, node[DLINK, _u(c)], c, n_items)
    _reactivate(item, c)


@njit(cache=True)
def _purify(node, item, p, n_items, second):
    """purify(p): hide the options whose colour on p's item differs from p's colour;
    return ``(updates, dead)`` as ``_hide_all`` does."""
    cc = node[TOP, _u(p)]
    x = node[COLOR, _u(p)]
    updates = 1
    dead = False
    rr = node[DLINK, _u(cc)]
    while rr > n_items:
        if node[COLOR, _u(rr)] != x:
            nn = rr + 1
            while nn != rr:
                c2 = node[TOP, _u(nn)]
                if c2 <= 0:
                    nn = node[ULINK, _u(nn)]
                    continue
                if node[COLOR, _u(nn)] >= 0:
                    uu = node[ULINK, _u(nn)]
                    dd = node[DLINK, _u(nn)]
                    node[DLINK, _u(uu)] = dd
                    node[ULINK, _u(dd)] = uu
                    left = node[TOP, _u(c2)] - 1
                    node[TOP, _u(c2)] = left
                    updates += 1
                    if c2 < second and left < item[BOUND, _u(c2)] - item[SLACK, _u(c2)]:
                        dead |= _is_active(item, c2)
                nn += 1
        elif rr != p:
            node[COLOR, _u(rr)] = -1
        rr = node[DLINK, _u(rr)]
    return updates, dead


@njit(cache=True)
def _unpurify(node, p, n_items):
    """unpurify(p): the inverse of ``_purify`` (upwards, leftwards)."""
    cc = node[TOP, _u(p)]
    x = node[COLOR, _u(p)]
    rr = node[ULINK, _u(cc)]
    while rr > n_items:
        if node[COLOR, _u(rr)] < 0:
            node[COLOR, _u(rr)] = x
        elif rr != p:
            nn = rr - 1
            while nn != rr:
                c2 = node[TOP, _u(nn)]
                if c2 <= 0:
                    nn = node[DLINK, _u(nn)]
                    continue
                if node[COLOR, _u(nn)] >= 0:
                    uu = node[ULINK, _u(nn)]
                    dd = node[DLINK, _u(nn)]
                    node[DLINK, _u(uu)] = nn
                    node[ULINK, _u(dd)] = nn
                    node[TOP, _u(c2)] += 1
                nn -= 1
        rr = node[ULINK, _u(rr)]


@njit(cache=True)
def _tweak(node, n):
    """tweak(n): hide the option of node ``n``, ``n`` itself included (top of its list)."""
    updates = 0
    nn = n + 1
    while True:
        if node[COLOR, _u(nn)] >= 0:
            cc = node[TOP, _u(nn)]
            if cc <= 0:
                nn = node[ULINK, _u(nn)]
                continue
            uu = node[ULINK, _u(nn)]
            dd = node[DLINK, _u(nn)]
            node[DLINK, _u(uu)] = dd
            node[ULINK, _u(dd)] = uu
            node[TOP, _u(cc)] -= 1
            updates += 1
        if nn == n:
            break
        nn += 1
    return updates


@njit(cache=True)
def _untweak(node, c, x):
    """untweak(c, x): restore every option tweaked away from item c since node x was top."""
    z = node[DLINK, _u(c)]
    node[DLINK, _u(c)] = x
    rr = x
    k = 0
    qq = c
    while rr != z:
        node[ULINK, _u(rr)] = qq
        k += 1
        nn = rr + 1
        while nn != rr:
            if node[COLOR, _u(nn)] >= 0:
                cc = node[TOP, _u(nn)]
                if cc <= 0:
                    nn = node[ULINK, _u(nn)]
                    continue
                uu = node[ULINK, _u(nn)]
                dd = node[DLINK, _u(nn)]
                node[DLINK, _u(uu)] = nn
                node[ULINK, _u(dd)] = nn
                node[TOP, _u(cc)] += 1
            nn += 1
        qq = rr
        rr = node[DLINK, _u(rr)]
    node[ULINK, _u(rr)] = qq
    node[TOP, _u(c)] += k


@njit(cache=True)
def _tweak_special(node, n):
    """tweak'(n): take node ``n`` out of its (covered) item's list; its option is hidden."""
    uu = node[ULINK, _u(n)]
    dd = node[DLINK, _u(n)]
    node[DLINK, _u(uu)] = dd
    node[ULINK, _u(dd)] = uu
    node[TOP, _u(node[TOP, _u(n)])] -= 1


@njit(cache=True)
def _untweak_special(node, c, x):
    """untweak'(c, x): put back the nodes tweak'ed out of c's list since x was on top."""
    z = node[DLINK, _u(c)]
    node[DLINK, _u(c)] = x
    rr = x
    k = 0
    qq = c
    while rr != z:
        node[ULINK, _u(rr)] = qq
        k += 1
        qq = rr
        rr = node[DLINK, _u(rr)]
    node[ULINK, _u(rr)] = qq
    node[TOP, _u(c)] += k


@njit(cache=True)
def _restore_item(node, item, i, first, n_items):
    """M8: undo what M4 and M5 did to item i at this level (``first``: first tweaked)."""
    if item[BOUND, _u(i)] == 0:
        if item[SLACK, _u(i)] != 0:
            _untweak_special(node, i, first)
        _uncover(node, item, i, n_items)
    else:
        _untweak(node, i, first)
    item[BOUND, _u(i)] += 1


@njit(cache=True)
def _commit_option(
    node,
    item,
    x,
    second,
    n_items,
    loop_edge=None,
    loop_vertex=None,
    loop_incident=None,
    loop_total=None,
):
    """M6: commit the option of node ``x`` (all its items but x's own); return
    ``(updates, last, dead_at)``: ``last`` is ``x`` when done, or the node whose
    item's hiding left the branch dead, stopped after the option of ``dead_at`` in its
    list (undo with ``_uncommit_option(.., last, dead_at, ..)``).
    """
    # first pass: count the bounds down, deactivating the items that reach zero
    pp = x + 1
    while pp != x:
        cc = node[TOP, _u(pp)]
        if cc <= 0:
            pp = node[ULINK, _u(pp)]
            continue
        if cc < second:
            b = item[BOUND, _u(cc)] - 1
            item[BOUND, _u(cc)] = b
            if b == 0:
                _deactivate(item, cc)
        pp += 1
    # second pass: cover, hide or purify, stopping at a dead end
    updates = 0
    pp = x + 1
    while pp != x:
        cc = node[TOP, _u(pp)]
        if cc <= 0:
            pp = node[ULINK, _u(pp)]
            continue
        dead_at = 0
        if cc < second:
            if item[BOUND, _u(cc)] == 0:
                hidden, dead_at = _hide_all(node, item, node[DLINK, _u(cc)], n_items, second)
                updates += 1 + hidden
        else:
            colour = node[COLOR, _u(pp)]
            if colour == 0:
                hidden, dead_at = _hide_all(node, item, node[DLINK, _u(cc)], n_items, second)
                updates += 1 + hidden
            elif colour > 0:
                hidden, dead = _purify(node, item, pp, n_items, second)
                updates += hidden
                if loop_edge is not None:
                    if loop_edge[cc, LOOP_ON] == colour:
                        if loop_edge[cc, LOOP_FORBIDDEN] != 2:  # else it is on already
                            _loop_add(node, loop_edge, loop_vertex, loop_incident, loop_total, cc)
                    elif loop_edge[cc, LOOP_ON] != 0:
                        loop_edge[cc, LOOP_STATE] = EDGE_SETTLED
                if dead:
                    return updates, pp, 0
        if dead_at != 0:
            return updates, pp, dead_at
        pp += 1
    return updates, x, 0


@njit(cache=True)
def _uncommit_option(
    node,
    item,
    x,
    last,
    dead_at,
    second,
    n_items,
    loop_edge=None,
    loop_vertex=None,
    loop_incident=None,
    loop_total=None,
):
    """The inverse of ``_commit_option``, leftwards from node ``last``, whose list was
    hidden down to ``dead_at`` (``x - 1`` and ``x`` when the commit went through)."""
    pp = last
    while pp != x:
        cc = node[TOP, _u(pp)]
        if cc <= 0:
            pp = node[DLINK, _u(pp)]
            continue
        if cc < second:
            if item[BOUND, _u(cc)] == 0:
                _unhide_all(node, node[DLINK, _u(cc)], dead_at, n_items)
        else:
            colour = node[COLOR, _u(pp)]
            if colour == 0:
                _unhide_all(node, node[DLINK, _u(cc)], dead_at, n_items)
            elif colour > 0:
                if loop_edge is not None:
                    if loop_edge[cc, LOOP_ON] == colour:
                        if loop_edge[cc, LOOP_FORBIDDEN] != 2:
                            _loop_remove(
                                node, loop_edge, loop_vertex, loop_incident, loop_total, cc
                            )
                    elif loop_edge[cc, LOOP_ON] != 0:
                        loop_edge[cc, LOOP_STATE] = EDGE_OFF
                _unpurify(node, pp, n_items)
        dead_at = cc
        pp -= 1
    pp = x - 1
    while pp != x:
        cc = node[TOP, _u(pp)]
        if cc <= 0:
            pp = node[DLINK, _u(pp)]
            continue
        if cc < second:
            if item[BOUND, _u(cc)] == 0:
                _reactivate(item, cc)
            item[BOUND, _u(cc)] += 1
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
    k = item[NEXT, _u(0)]
    if not has_bounds:
        while k != 0:
            t = node[TOP, _u(k)]
            if t < score:
                score = t
                best = k
                if t <= 1:
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


@njit(cache=True)
def _live_options(node, item, second, loop_edge, loop_vertex, loop_incident, loop_total, i):
    """How many options of active item ``i`` survive their commit and ``_loop_settle``,
    and the fewest trail entries one of those left (a probe: every array is restored)."""
    n_items = item.shape[1] - 1
    item[BOUND, i] -= 1
    _deactivate(item, i)
    _cover(node, item, i, n_items, second)
    live = 0
    impact = 1 << 30
    x = node[DLINK, i]
    while x != i:
        start = loop_total[LOOP_TRAIL]
        done, last, dead_at = _commit_option(
            node, item, x, second, n_items, loop_edge, loop_vertex, loop_incident, loop_total
        )
        if last == x:
            if loop_total[LOOP_BAD] == 0 and _loop_settle(
                node, item, second, False,
                loop_edge, loop_vertex, loop_incident, loop_total, i, x, start,
            ):  # fmt: skip
                live += 1
                impact = min(impact, loop_total[LOOP_TRAIL] - start)
                _loop_unsettle(node, item, loop_edge, loop_vertex, loop_total, i)
            last = x - 1
            dead_at = x
        _uncommit_option(
            node, item, x, last, dead_at, second, n_items,
            loop_edge, loop_vertex, loop_incident, loop_total,
        )  # fmt: skip
        x = node[DLINK, x]
    _uncover(node, item, i, n_items)
    item[BOUND, i] += 1
    return live, impact


@njit(cache=True)
def _choose_loop_item(node, item, second, loop_edge, loop_vertex, loop_incident, loop_total, after):
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
    fewest = 1 << 30
    most = -1
    for sweep in range(2):
        k = item[NEXT, 0]
        while k != 0:
            if (k > after) == (sweep == 0):
                probes += node[TOP, k]
                live, impact = _live_options(
                    node, item, second, loop_edge, loop_vertex, loop_incident, loop_total, k
                )
                if live <= 1:
                    return k, live if live == 0 else node[TOP, k], probes
                if live < fewest or (live == fewest and impact > most):
                    fewest = live
                    most = impact
                    best = k
                    score = node[TOP, k]
            k = item[NEXT, k]
    return best, score, probes


@njit(cache=True)
def _memo_slot(level_key, level, memo_keys):
    """The table slot of the key of ``level``: a multiply-xorshift hash of its words."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(level_key.shape[1]):
        h = (h ^ level_key[_u(level), _u(w)]) * np.uint64(0xFF51AFD7ED558CCD)
        h ^= h >> np.uint64(29)
    return h & np.uint64(memo_keys.shape[0] - 1)


@njit(cache=True)
def _memo_matches(level_key, level, memo_keys, slot):
    """Whether the table's key at ``slot`` is the key of ``level``."""
    for w in range(level_key.shape[1]):
        if memo_keys[slot, _u(w)] != level_key[_u(level), _u(w)]:
            return False
    return True


@njit(cache=True)
def _memo_store(level_key, level, memo_keys, memo_counts, count):
    """Keep ``count`` under the key of ``level`` (in place of the slot's old entry).
    An explicit loop: a slice assignment here made the first compile 3.5 s longer."""
    slot = _memo_slot(level_key, level, memo_keys)
    for w in range(level_key.shape[1]):
        memo_keys[slot, _u(w)] = level_key[_u(level), _u(w)]
    memo_counts[slot] = count + 1


@njit(cache=True)
def _memo_push(node, level_key, level, x):
    """The key of ``level + 1``: the key of ``level`` and the items of x's option."""
    for w in range(level_key.shape[1]):
        level_key[_u(level + 1), _u(w)] = level_key[_u(level), _u(w)]
    pp = x
    while True:
        cc = node[TOP, _u(pp)]
        word = _u(level + 1), _u(cc >> 6)
        level_key[word] |= np.uint64(1) << np.uint64(cc & 63)
        pp += 1
        if node[TOP, _u(pp)] <= 0:
            pp = node[ULINK, _u(pp)]
        if pp == x:
            break


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
    memo_keys,
    memo_counts,
    level_key,
    level_memo,
    loop_edge=None,
    loop_vertex=None,
    loop_incident=None,
    loop_total=None,
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
    memo_keys, memo_counts, level_key, level_memo : arrays
        The memo of subtree counts (see "Memo" in the module essay); ``memo_keys``
        with no rows turns it off.
    loop_edge, loop_vertex, loop_incident, loop_total : optional
        Loop items (see "Loop items" in the module essay); None for none, and then
        numba compiles the search without any loop code.

    Returns
    -------
    int: DONE, SOLUTION, PAUSED, LEAF or LIMIT. On SOLUTION and LEAF the current
    ``level`` is ``state[0]``, and the next call goes on from there.
    """
    n_items = item.shape[1] - 1
    memo_on = memo_keys.shape[0] > 0
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
            if memo_on:
                level_memo[level, MEMO_SOLUTIONS] = solutions
                level_memo[level, MEMO_NODES] = nodes
            if level == 0 and loop_total is not None and not has_bounds and n_forced == 0:
                if not _loop_settle_root(
                    node, item, second, loop_edge, loop_vertex, loop_incident, loop_total
                ):
                    step = BACKDOWN
                    continue
            if item[NEXT, _u(0)] == 0:
                if loop_total is not None and loop_total[LOOP_CLOSED] == 0:
                    step = BACKDOWN  # every item covered, but the on-edges are no cycle
                    continue
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
                i = node[TOP, _u(cur)]
                score = 1
            else:
                if loop_edge is not None and not has_bounds:
                    i, score, probes = _choose_loop_item(
                        node, item, second, loop_edge, loop_vertex, loop_incident, loop_total,
                        best[level - 1] if level > 0 else 0,
                    )  # fmt: skip
                    node_stop -= probes  # a probe takes from the budget as a node does
                else:
                    i, score = _choose_item(node, item, has_bounds)
                if score <= 0:
                    step = BACKDOWN
                    continue
                cur = node[DLINK, _u(i)]
            # M4: prepare to branch on i
            best[level] = i
            choice[level] = cur
            branch_index[level] = 0
            branch_degree[level] = score
            b = item[BOUND, _u(i)] - 1
            item[BOUND, _u(i)] = b
            first_tweak[level] = 0 if b == 0 and item[SLACK, _u(i)] == 0 else cur
            if b == 0:
                updates += _cover(node, item, i, n_items, second)
            step = ADVANCE
        elif step == ADVANCE:
            # M5: possibly tweak x_l
            if item[BOUND, _u(i)] == 0 and item[SLACK, _u(i)] == 0:
                if cur == i:
                    step = BACKUP
                    continue
            elif node[TOP, _u(i)] <= item[BOUND, _u(i)] - item[SLACK, _u(i)]:
                step = BACKUP
                continue
            elif cur != i:
                if item[BOUND, _u(i)] == 0:
                    _tweak_special(node, cur)
                    updates += 1
                else:
                    updates += _tweak(node, cur)
            elif item[BOUND, _u(i)] != 0:
                _deactivate(item, i)
            if n_forced <= level < n_fixed and branch_index[level] < prefix[level - n_forced]:
                # replaying a subproblem: this branch belongs to another one
                if cur == i:
                    _reactivate(item, i)
                    step = BACKUP
                    continue
                branch_index[level] += 1
                cur = node[DLINK, _u(cur)]
                choice[level] = cur
                continue
            # M6: try x_l
            skip = False  # the child is not entered: its count was seen before, or it is dead
            if memo_on and cur > n_items:
                _memo_push(node, level_key, level, cur)
                if level + 1 >= n_fixed:
                    slot = _memo_slot(level_key, level + 1, memo_keys)
                    if memo_counts[slot] > 0 and _memo_matches(
                        level_key, level + 1, memo_keys, slot
                    ):
                        solutions += memo_counts[slot] - 1
                        skip = True
            if cur > n_items and not skip:
                start = 0 if loop_total is None else loop_total[LOOP_TRAIL]
                done, last, dead_at = _commit_option(
                    node, item, cur, second, n_items,
                    loop_edge, loop_vertex, loop_incident, loop_total,
                )  # fmt: skip
                updates += done
                if last == cur and loop_total is not None:
                    if loop_total[LOOP_BAD] > 0 or not _loop_settle(
                        node, item, second, has_bounds,
                        loop_edge, loop_vertex, loop_incident, loop_total, i, cur, start,
                    ):  # fmt: skip
                        last = cur - 1  # the option breaks the loop rules: undo all of it
                        dead_at = cur
                if last != cur:
                    # the child is dead: undo
                    _uncommit_option(
                        node, item, cur, last, dead_at, second, n_items,
                        loop_edge, loop_vertex, loop_incident, loop_total,
                    )  # fmt: skip
                    skip = True
            if skip:
                # go on as M7 would
                if level < n_fixed:
                    step = BACKUP
                    continue
                cur = node[DLINK, _u(cur)]
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
            if memo_on and level >= n_fixed:
                if nodes - level_memo[level, MEMO_NODES] >= MEMO_MIN_NODES:
                    count = solutions - level_memo[level, MEMO_SOLUTIONS]
                    _memo_store(level_key, level, memo_keys, memo_counts, count)
            if level == 0:
                if loop_total is not None:
                    _loop_unforbid(node, loop_edge, loop_vertex, loop_total, 0)
                code = DONE
                break
            level -= 1
            cur = choice[level]
            i = best[level]
            if cur <= n_items:
                _reactivate(item, i)
                step = BACKUP
                continue
            if loop_total is not None:
                _loop_unsettle(node, item, loop_edge, loop_vertex, loop_total, i)
            _uncommit_option(
                node, item, cur, cur - 1, cur, second, n_items,
                loop_edge, loop_vertex, loop_incident, loop_total,
            )  # fmt: skip
            if level < n_fixed:
                step = BACKUP
                continue
            cur = node[DLINK, _u(cur)]
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
    loop_edge=None,
    loop_vertex=None,
    loop_incident=None,
    loop_total=None,
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
    memo_keys = np.zeros((0, 1), np.uint64)  # no memo: each search stops at a limit
    memo_counts = np.zeros(0, np.int64)
    level_key = np.zeros((max_level + 1, 1), np.uint64)
    level_memo = np.zeros((max_level, 2), np.int64)
    budget = 1 << 62
    n_items = item.shape[1] - 1
    for k in range(counts.shape[0]):
        forced = forced_nodes[forced_start[k] : forced_start[k + 1]]
        n_forced = forced.shape[0]
        state[0] = 0
        state[1] = FORWARD
        for j in range(stats.shape[0]):  # loops, not slices: slices compile slowly
            stats[j] = 0
        for j in range(first_solution.shape[1]):
            first_solution[k, j] = -1
        while True:
            code = search(
                node, item, second, has_bounds, choice, best, first_tweak,
                branch_index, branch_degree, state, stats, forced, prefix,
                NO_SPLIT, budget, max_solutions, True,
                memo_keys, memo_counts, level_key, level_memo,
                loop_edge, loop_vertex, loop_incident, loop_total,
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
                _unwind(
                    node, item, second, choice, best, first_tweak, state, stats,
                    loop_edge, loop_vertex, loop_incident, loop_total,
                )  # fmt: skip
                break
        counts[k] = stats[0]
        for j in range(stats.shape[0]):
            batch_stats[k, j] = stats[j]


@njit(cache=True)
def _unwind(
    node, item, second, choice, best, first_tweak, state, stats,
    loop_edge=None, loop_vertex=None, loop_incident=None, loop_total=None,
):  # fmt: skip
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
            if loop_total is not None:
                _loop_unsettle(node, item, loop_edge, loop_vertex, loop_total, i)
            _uncommit_option(
                node, item, cur, cur - 1, cur, second, n_items,
                loop_edge, loop_vertex, loop_incident, loop_total,
            )  # fmt: skip
        _restore_item(node, item, i, first_tweak[level], n_items)
    if loop_total is not None:
        _loop_unforbid(node, loop_edge, loop_vertex, loop_total, 0)
    state[0] = 0
    state[1] = FORWARD


@njit(cache=True)
def _loop_add(node, loop_edge, loop_vertex, loop_incident, loop_total, c):
    """Loop item ``c`` has turned on: join two paths, close the cycle, or count a bad edge."""
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
                e = loop_incident[k]
                if loop_edge[e, LOOP_STATE] != EDGE_OFF or loop_edge[e, LOOP_FORBIDDEN] != 0:
                    continue
                if loop_edge[e, LOOP_U] + loop_edge[e, LOOP_V] - a == b:
                    _loop_forbid(node, loop_edge, loop_total, e)
    loop_vertex[u, DEGREE] = du + 1
    loop_vertex[v, DEGREE] = dv + 1
    loop_total[LOOP_ON_EDGES] += 1


@njit(cache=True)
def _loop_remove(node, loop_edge, loop_vertex, loop_incident, loop_total, c):
    """The inverse of ``_loop_add`` (called in the reverse order of the adds)."""
    if loop_edge[c, LOOP_STATE] == EDGE_JOINED:
        _loop_unforbid(node, loop_edge, loop_vertex, loop_total, loop_edge[c, LOOP_MARK])
    _loop_detach(loop_edge, loop_vertex, loop_total, c)


@njit(cache=True)
def _loop_detach(loop_edge, loop_vertex, loop_total, c):
    """``_loop_remove`` once the forbidding that ``c`` did is undone."""
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


@njit(cache=True)
def _loop_forbid(node, loop_edge, loop_total, e):
    """Hide every option that would turn loop item ``e`` on (``e`` must be unsettled, so
    that the options in its list are exactly the active ones), pushing them on the trail.
    """
    on = loop_edge[e, LOOP_ON]
    loop_edge[e, LOOP_FORBIDDEN] = 1
    rr = node[DLINK, e]
    while rr != e:
        if node[COLOR, rr] == on:
            _trail_hide(node, None, 0, loop_edge, loop_total, rr, 0)
        rr = node[DLINK, rr]
    _trail_push(loop_total, -e)


@njit(cache=True, inline="always")
def _trail_push(loop_total, entry):
    """Push ``entry`` on the loop trail."""
    top = loop_total[LOOP_TRAIL]
    loop_total[LOOP_TRAIL + 1 + top] = entry
    loop_total[LOOP_TRAIL] = top + 1


@njit(cache=True)
def _trail_hide(node, item, second, loop_edge, loop_total, rr, head):
    """Hide the option of node ``rr`` whole, ``rr`` included (as tweak does), and push
    ``rr`` on the trail. Given ``item`` (else None), also push the option's active
    primary items not yet on the settling stack that starts at ``head``; return
    ``(head, dead)``, dead when one of those items is left without options."""
    dead = False
    nn = rr
    while True:
        nn += 1
        if node[TOP, nn] <= 0:
            nn = node[ULINK, nn]
        if node[COLOR, nn] >= 0:
            uu = node[ULINK, nn]
            dd = node[DLINK, nn]
            node[DLINK, uu] = dd
            node[ULINK, dd] = uu
            cc = node[TOP, nn]
            node[TOP, cc] -= 1
            if item is not None:
                if cc < second and _is_active(item, cc):
                    if node[TOP, cc] == 0:
                        dead = True
                    if loop_edge[cc, LOOP_STATE] == 0:
                        loop_edge[cc, LOOP_STATE] = 1
                        loop_edge[cc, LOOP_U] = head
                        head = cc
        if nn == rr:
            break
    _trail_push(loop_total, rr)
    return head, dead


@njit(cache=True)
def _loop_unforbid(node, loop_edge, loop_vertex, loop_total, mark):
    """Undo the ``_loop_forbid`` calls since the trail was ``mark`` long, in reverse."""
    top = loop_total[LOOP_TRAIL]
    while top > mark:
        top -= 1
        rr = loop_total[LOOP_TRAIL + 1 + top]
        if rr < 0:
            if loop_edge[-rr, LOOP_FORBIDDEN] == 2 and loop_edge[-rr, LOOP_ON] != 0:
                # a loop item that _loop_settle turned on: take it out of the loop
                loop_total[LOOP_TRAIL] = top
                _loop_detach(loop_edge, loop_vertex, loop_total, -rr)
            loop_edge[-rr, LOOP_FORBIDDEN] = 0
            continue
        nn = rr
        while True:
            if node[COLOR, nn] >= 0:
                uu = node[ULINK, nn]
                dd = node[DLINK, nn]
                node[DLINK, uu] = nn
                node[ULINK, dd] = nn
                node[TOP, node[TOP, nn]] += 1
            nn -= 1
            if node[TOP, nn] <= 0:
                nn = node[DLINK, nn]
            if nn == rr:
                break
    loop_total[LOOP_TRAIL] = top


@njit(cache=True)
def _loop_hide(node, item, second, loop_edge, loop_total, e, keep, head):
    """Hide the options that give unsettled item ``e`` a colour other than ``keep``,
    as ``_loop_forbid`` does, and queue their active primary items on the stack that
    starts at ``head``; return ``(head, dead)``, dead when one of those items is left
    without options."""
    loop_edge[e, LOOP_FORBIDDEN] = 2 if keep == loop_edge[e, LOOP_ON] else 1
    dead = False
    rr = node[DLINK, e]
    while rr != e:
        if node[COLOR, rr] != keep:
            head, dead_here = _trail_hide(node, item, second, loop_edge, loop_total, rr, head)
            dead |= dead_here
        rr = node[DLINK, rr]
    _trail_push(loop_total, -e)
    return head, dead


@njit(cache=True)
def _queue_option(node, item, second, loop_edge, x, head):
    """Push the active primary items of the option of node ``x`` (not yet queued)."""
    nn = x + 1
    while nn != x:
        cc = node[TOP, nn]
        if cc <= 0:
            nn = node[ULINK, nn]
            continue
        if cc < second and _is_active(item, cc) and loop_edge[cc, LOOP_STATE] == 0:
            loop_edge[cc, LOOP_STATE] = 1
            loop_edge[cc, LOOP_U] = head
            head = cc
        nn += 1
    return head


@njit(cache=True)
def _loop_settle(
    node, item, second, has_bounds, loop_edge, loop_vertex, loop_incident, loop_total, i, x, start
):
    """After the option of node ``x`` was committed for item ``i``: where every option
    left to some active primary item colours an unsettled loop item alike, hide the
    options that colour it otherwise, until nothing changes (the trail keeps them; the
    mark is kept in row ``i`` of ``loop_edge``). Return False at a dead end."""
    if item[BOUND, i] != 0 or item[SLACK, i] != 0:
        return True
    mark = loop_total[LOOP_TRAIL]
    loop_edge[i, LOOP_MARK] = mark
    if has_bounds:
        return True
    # the items that lost options: through the committed option's lists ...
    head = 0
    pp = x + 1
    while pp != x:
        cc = node[TOP, pp]
        if cc <= 0:
            pp = node[ULINK, pp]
            continue
        if cc < second or node[COLOR, pp] >= 0:
            rr = node[DLINK, cc]
            while rr != cc:
                if rr != pp and (cc < second or node[COLOR, rr] >= 0):
                    head = _queue_option(node, item, second, loop_edge, rr, head)
                rr = node[DLINK, rr]
        pp += 1
    # ... and through the options that closing rules hid during the commit
    for k in range(start, mark):
        rr = loop_total[LOOP_TRAIL + 1 + k]
        if rr > 0:
            head = _queue_option(node, item, second, loop_edge, rr, head)
    if _loop_propagate(node, item, second, loop_edge, loop_vertex, loop_incident, loop_total, head):
        return True
    _loop_unforbid(node, loop_edge, loop_vertex, loop_total, mark)
    loop_edge[i, LOOP_MARK] = 0
    return False


@njit(cache=True)
def _loop_propagate(node, item, second, loop_edge, loop_vertex, loop_incident, loop_total, head):
    """Empty the stack of items that starts at ``head``: where all the options of an
    item colour an unsettled secondary item alike, hide its options of other colours
    (and put a loop item so turned on into the loop), queueing the items that lose
    options. Return False at a dead end (the trail then still needs undoing)."""
    dead = False
    while head != 0:
        k = head
        head = loop_edge[k, LOOP_U]
        loop_edge[k, LOOP_STATE] = 0
        loop_edge[k, LOOP_U] = 0
        if dead or not _is_active(item, k):
            continue
        n = node[TOP, k]
        if n == 0:
            dead = True
            continue
        # tally how the options of k colour each unsettled loop item
        for tally in range(3):
            rr = node[DLINK, k]
            while rr != k:
                nn = rr + 1
                while nn != rr:
                    cc = node[TOP, nn]
                    if cc <= 0:
                        nn = node[ULINK, nn]
                        continue
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
                                head, dead_here = _loop_hide(
                                    node, item, second, loop_edge, loop_total, cc, keep, head
                                )
                                dead |= dead_here
                                if keep == loop_edge[cc, LOOP_ON]:
                                    before = loop_total[LOOP_TRAIL]
                                    _loop_add(
                                        node, loop_edge, loop_vertex, loop_incident, loop_total, cc
                                    )
                                    dead |= loop_total[LOOP_BAD] > 0
                                    for t in range(before, loop_total[LOOP_TRAIL]):
                                        rr2 = loop_total[LOOP_TRAIL + 1 + t]
                                        if rr2 > 0:
                                            head = _queue_option(
                                                node, item, second, loop_edge, rr2, head
                                            )
                    nn += 1
                rr = node[DLINK, rr]
    return not dead


@njit(cache=True)
def _loop_settle_root(node, item, second, loop_edge, loop_vertex, loop_incident, loop_total):
    """``_loop_settle`` for every primary item, before the first choice (trail mark 0)."""
    head = 0
    k = item[NEXT, 0]
    while k != 0:
        loop_edge[k, LOOP_STATE] = 1
        loop_edge[k, LOOP_U] = head
        head = k
        k = item[NEXT, k]
    return _loop_propagate(
        node, item, second, loop_edge, loop_vertex, loop_incident, loop_total, head
    )


@njit(cache=True)
def _loop_unsettle(node, item, loop_edge, loop_vertex, loop_total, i):
    """Undo ``_loop_settle`` for item ``i`` (before its option is uncommitted)."""
    if item[BOUND, i] == 0 and item[SLACK, i] == 0:
        _loop_unforbid(node, loop_edge, loop_vertex, loop_total, loop_edge[i, LOOP_MARK])
        loop_edge[i, LOOP_MARK] = 0
