"""The branch-and-bound kernel: the k cheapest solutions of an exact-cover problem with
colours whose options have costs.

Every ``@njit(**PLAIN)`` function this kernel calls lives in this file;
``search.py`` beside it builds its arrays and drives it.

Data structures
---------------
Knuth's DLX2 layout in flat arrays (every link an array index). Items are ``1..n_items``
(the primary ones first); ``llink``/``rlink`` chain the open primary items around the
root 0 and the secondary ones around ``n_items + 1``. Node ``x`` is the row
``node[x]``, its fields side by side as in Knuth's node struct (what one visit reads is
one cache line): ``TOP`` (its item), ``ULINK``, ``DLINK``, ``COLOUR`` and ``COST``.
Node ``i`` (``1 <= i <= n_items``) heads item ``i``'s list; the option nodes follow, a
*spacer* (``TOP <= 0``) before and after each option: a spacer's ``ULINK`` is the first
node of the option before it, its ``DLINK`` the last node of the option after it.
``COLOUR`` is 0 (none), the colour (> 0), or -1 once the colour is known to fit (a
purified item's node, left in place).

``COST`` is the *net cost* of the node's option (the same on all its nodes): its cost
less the *taxes* of its primary items (``search.py``), so every net
cost is ``>= 0`` and a solution costs the total tax plus its net costs. Each item's
list runs in order of net cost, so the options of an item that fit under a bound are a
prefix of its list.

The search
----------
Algorithm X with Knuth's steps, iterative over ``level``: ``partial[level]`` is the net
cost of the options chosen above ``level``; ``choice[level]`` the node being tried,
``item[level]`` its item. The *cutoff* is the k-th best net cost found so far (no
cutoff until k solutions are known): an option whose net cost would bring the partial
cost to the cutoff or beyond is never tried, so the first options of each list are
all that count, and covering an item hides only those (``room``: the cutoff less the
partial cost, kept in ``item_room``/``option_room`` for the uncovering, as the cutoff
moves meanwhile); the item chosen is the open one with the fewest options under the
cutoff, and one with none ends the branch (the cheapest option of every open item is
a lower bound, as DLX5's taxes make it). A second bound ends a branch too: every open
item must be covered by one option, so the sum over the open items of their cheapest
net cost divided by ``widest[i]`` (the most primary items an option of item ``i`` has),
rounded down, is at most what is left to pay (each option's net cost shared among its
primary items).

The best solutions found so far: ``best_cost[0:filled]`` in increasing order (a tie
after the earlier one), ``best_size``, and their options in the rows of
``best_option``.

A task of a parallel search starts with options chosen (``force``: their items
covered, ``partial[0]`` their net cost) and with a cutoff known (``best_cost`` filled
with it, ``best_size`` -1 in those rows: rows that hold no solution).

Resuming: ``state`` holds the level, the step, the node count and ``filled``; a call
stops (``PAUSED``) when the node count reaches ``stop_at``, at the start of a level,
and the next call goes on from there.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

DONE = 0  # the search is over: the best solutions are proven
PAUSED = 1  # stopped at stop_at nodes; call again to go on
NO_CUTOFF = np.iinfo(np.int64).max

STEP_ENTER, STEP_TRY, STEP_NEXT, STEP_LEAVE = 2, 5, 6, 8  # Knuth's X2, X5, X6, X8
LEVEL, STEP, NODES, FILLED = 0, 1, 2, 3  # the slots of ``state``
TOP, ULINK, DLINK, COLOUR, COST = 0, 1, 2, 3, 4  # the fields of a node
NODE_FIELDS = 6  # a row of ``node`` (one spare): what one visit reads, in one cache line


# Nothing here allocates, so numba's reference counting is left out (``_nrt=False``):
# with it, each call of a helper would incref and decref every array of the state.
PLAIN = {"cache": True, "_nrt": False}

# The node indices go through ``_u``: numba reads a negative signed index from the end
# of the array, at the price of a test and an add on each access; an unsigned index is
# a plain load. Node indices are never negative.
_u = np.uint64


class State(NamedTuple):
    """The arrays of one search (int64 each; shapes in the module's docstring)."""

    llink: np.ndarray  # (n_items + 2,)
    rlink: np.ndarray  # (n_items + 2,)
    length: np.ndarray  # (n_items + 1,): the options left in each item's list
    widest: np.ndarray  # (n_items + 1,): the most primary items of an option of the item
    node: np.ndarray  # (n_nodes, NODE_FIELDS): top, ulink, dlink, colour, cost a row
    option: np.ndarray  # (n_nodes,): the problem's index of the node's option
    choice: np.ndarray  # (max_level + 1,)
    item: np.ndarray  # (max_level + 1,)
    partial: np.ndarray  # (max_level + 2,)
    item_room: np.ndarray  # (max_level + 1,): the room item[level] was covered with
    option_room: np.ndarray  # (max_level + 1,): the room of choice[level]'s commits
    best_cost: np.ndarray  # (k,)
    best_size: np.ndarray  # (k,)
    best_option: np.ndarray  # (k, max_level)
    state: np.ndarray  # (4,): level, step, nodes, filled


@njit(**PLAIN, inline="always")
def _hide(s, p):
    """Take the other nodes of ``p``'s option out of their items' lists."""
    q = p + 1
    while q != p:
        x = s.node[_u(q), TOP]
        if x <= 0:
            q = s.node[_u(q), ULINK]
        else:
            if s.node[_u(q), COLOUR] >= 0:
                u = s.node[_u(q), ULINK]
                d = s.node[_u(q), DLINK]
                s.node[_u(u), DLINK] = d
                s.node[_u(d), ULINK] = u
                s.length[x] -= 1
            q += 1


@njit(**PLAIN, inline="always")
def _unhide(s, p):
    """Undo ``_hide(s, p)``."""
    q = p - 1
    while q != p:
        x = s.node[_u(q), TOP]
        if x <= 0:
            q = s.node[_u(q), DLINK]
        else:
            if s.node[_u(q), COLOUR] >= 0:
                u = s.node[_u(q), ULINK]
                d = s.node[_u(q), DLINK]
                s.node[_u(u), DLINK] = q
                s.node[_u(d), ULINK] = q
                s.length[x] += 1
            q -= 1


@njit(**PLAIN)
def _cover(s, i, room):
    """Take item ``i`` out of its item list and hide its options of net cost under
    ``room`` (the others can be chosen nowhere below: the room only shrinks)."""
    left = s.llink[i]
    right = s.rlink[i]
    s.rlink[left] = right
    s.llink[right] = left
    p = s.node[_u(i), DLINK]
    while p != i and s.node[_u(p), COST] < room:
        _hide(s, p)
        p = s.node[_u(p), DLINK]


@njit(**PLAIN)
def _uncover(s, i, room):
    """Undo ``_cover(s, i, room)`` (the same room; the options unhidden in the order
    they were hidden, which restores the links as well as the reverse order, as Knuth
    observes in DLX5)."""
    p = s.node[_u(i), DLINK]
    while p != i and s.node[_u(p), COST] < room:
        _unhide(s, p)
        p = s.node[_u(p), DLINK]
    left = s.llink[i]
    right = s.rlink[i]
    s.rlink[left] = i
    s.llink[right] = i


@njit(**PLAIN)
def _purify(s, p, room):
    """Keep only the options under ``room`` that give ``p``'s item ``p``'s colour."""
    c = s.node[_u(p), COLOUR]
    i = s.node[_u(p), TOP]
    r = s.node[_u(i), DLINK]
    while r != i and s.node[_u(r), COST] < room:
        if s.node[_u(r), COLOUR] != c:
            _hide(s, r)
        elif r != p:
            s.node[_u(r), COLOUR] = -1
        r = s.node[_u(r), DLINK]


@njit(**PLAIN)
def _unpurify(s, p, room):
    """Undo ``_purify(s, p, room)``."""
    c = s.node[_u(p), COLOUR]
    i = s.node[_u(p), TOP]
    r = s.node[_u(i), DLINK]
    while r != i and s.node[_u(r), COST] < room:
        if s.node[_u(r), COLOUR] < 0:
            s.node[_u(r), COLOUR] = c
        elif r != p:
            _unhide(s, r)
        r = s.node[_u(r), DLINK]


@njit(**PLAIN, inline="always")
def _commit(s, q, room):
    """Cover node ``q``'s item, or purify it when ``q`` has a colour."""
    if s.node[_u(q), COLOUR] == 0:
        _cover(s, s.node[_u(q), TOP], room)
    elif s.node[_u(q), COLOUR] > 0:
        _purify(s, q, room)


@njit(**PLAIN, inline="always")
def _uncommit(s, q, room):
    """Undo ``_commit(s, q, room)``."""
    if s.node[_u(q), COLOUR] == 0:
        _uncover(s, s.node[_u(q), TOP], room)
    elif s.node[_u(q), COLOUR] > 0:
        _unpurify(s, q, room)


@njit(**PLAIN, inline="always")
def _cutoff(s):
    """The net cost a new solution must beat."""
    k = s.best_cost.shape[0]
    filled = s.state[FILLED]
    return s.best_cost[k - 1] if filled == k else NO_CUTOFF


@njit(**PLAIN)
def _record(s, level):
    """Keep the solution of the options ``choice[0:level]`` among the best (its net cost
    is under the cutoff)."""
    k = s.best_cost.shape[0]
    net = s.partial[level]
    filled = s.state[FILLED]
    at = filled if filled < k else k - 1
    while at > 0 and s.best_cost[at - 1] > net:
        s.best_cost[at] = s.best_cost[at - 1]
        s.best_size[at] = s.best_size[at - 1]
        for j in range(s.best_size[at]):
            s.best_option[at, j] = s.best_option[at - 1, j]
        at -= 1
    s.best_cost[at] = net
    s.best_size[at] = level
    for j in range(level):
        s.best_option[at, j] = s.option[s.choice[j]]
    if filled < k:
        s.state[FILLED] = filled + 1


@njit(**PLAIN)
def _choose(s, room):
    """The open primary item with the fewest options of net cost under ``room``, how
    many (0 when some item has none: the branch is dead), and a lower bound on the net
    cost still to pay: each open item's cheapest option, shared among its primary items
    (``widest``), summed over the items."""
    fewest = NO_CUTOFF
    chosen = 0
    bound = 0
    p = s.rlink[0]
    while p != 0:
        n = 0
        x = s.node[_u(p), DLINK]
        bound += s.node[_u(x), COST] // s.widest[p]
        while x != p and s.node[_u(x), COST] < room and n < fewest:
            n += 1
            x = s.node[_u(x), DLINK]
        if n < fewest:
            fewest = n
            chosen = p
            if n == 0:
                break
        p = s.rlink[p]
    return chosen, fewest, bound


@njit(**PLAIN)
def force(s, x):
    """Choose node ``x``'s option before the search starts (a task's prefix): cover
    ``x``'s item and commit the option's other nodes, every option of them hidden (no
    room: they are never uncovered). ``x``'s item is primary."""
    _cover(s, s.node[_u(x), TOP], NO_CUTOFF)
    q = x + 1
    while q != x:
        if s.node[_u(q), TOP] <= 0:
            q = s.node[_u(q), ULINK]
        else:
            _commit(s, q, NO_CUTOFF)
            q += 1


@njit(**PLAIN)
def search(s, stop_at):
    """Run the search until it is over (``DONE``) or ``stop_at`` nodes are counted
    (``PAUSED``); ``s`` is a ``State``."""
    level = s.state[LEVEL]
    step = s.state[STEP]
    while True:
        if step == STEP_ENTER:  # X2: a new level; a solution when no item is open
            if s.state[NODES] >= stop_at:
                s.state[LEVEL] = level
                s.state[STEP] = step
                return PAUSED
            s.state[NODES] += 1
            if s.rlink[0] == 0:
                _record(s, level)
                step = STEP_LEAVE
                continue
            room = _cutoff(s) - s.partial[level]
            i, n, bound = _choose(s, room)  # X3
            if n == 0 or bound >= room:
                step = STEP_LEAVE
                continue
            s.item_room[level] = room
            _cover(s, i, room)  # X4
            s.item[level] = i
            s.choice[level] = s.node[_u(i), DLINK]
            step = STEP_TRY
        elif step == STEP_TRY:  # X5: try choice[level], unless too dear or none left
            x = s.choice[level]
            i = s.item[level]
            if x == i or s.partial[level] + s.node[_u(x), COST] >= _cutoff(s):
                _uncover(s, i, s.item_room[level])  # X7
                step = STEP_LEAVE
                continue
            s.partial[level + 1] = s.partial[level] + s.node[_u(x), COST]
            room = _cutoff(s) - s.partial[level + 1]
            s.option_room[level] = room
            q = x + 1
            while q != x:
                if s.node[_u(q), TOP] <= 0:
                    q = s.node[_u(q), ULINK]
                else:
                    _commit(s, q, room)
                    q += 1
            level += 1
            step = STEP_ENTER
        elif step == STEP_NEXT:  # X6: undo choice[level], then try the next option
            x = s.choice[level]
            q = x - 1
            while q != x:
                if s.node[_u(q), TOP] <= 0:
                    q = s.node[_u(q), DLINK]
                else:
                    _uncommit(s, q, s.option_room[level])
                    q -= 1
            s.choice[level] = s.node[_u(x), DLINK]
            step = STEP_TRY
        else:  # X8: leave the level
            if level == 0:
                s.state[LEVEL] = 0
                s.state[STEP] = STEP_LEAVE
                return DONE
            level -= 1
            step = STEP_NEXT


@njit(**PLAIN)
def sanity(s):
    """The number of broken links and wrong lengths in the item lists (0 when sound)."""
    faults = 0
    n_items = s.length.shape[0] - 1
    for i in range(1, n_items + 1):
        n = 0
        x = s.node[_u(i), DLINK]
        while x != i and n <= s.node.shape[0]:
            if s.node[s.node[_u(x), DLINK], ULINK] != x or s.node[_u(x), TOP] != i:
                faults += 1
            n += 1
            x = s.node[_u(x), DLINK]
        if n != s.length[i]:
            faults += 1
    return faults
