"""The k cheapest solutions of a problem whose options have costs (Knuth's DLX5).

A solution costs the sum of its options' costs (``Problem.add_option(..., cost=c)``,
or ``|c`` in a ``.dlx`` file). ``best(problem, k)`` finds the k cheapest solutions by
branch and bound (``dlx/kernels/costs/kernel.py``): before the search each primary item gets a
*tax*, and each option's cost becomes its *net cost*, its cost less the taxes of its
primary items. The taxes are chosen so that no net cost is negative; then every
solution costs the total tax plus the net costs of its options, so the cheapest option
of every open item bounds the cost of what is left from below, and an option whose net
cost alone reaches the cutoff is never tried; so does the sum over the open items of
their cheapest option's share (see the kernel's essay).

The taxes: first each item gets the least *share* (an option's cost divided by its
number of primary items, rounded down) among its options; then, item by item in order,
the least net cost left among its options, as DLX5 assesses them (so each item has an
option of net cost 0). Both steps keep every net cost at 0 or more.

Options without primary items are never chosen (DLX5 ignores them too).
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass

import numpy as np

from dlx.numbers import seconds, whole
from dlx.problem import Problem, ProblemError

__all__ = ["Best", "best"]

INT64_ROOM = 2**62  # net costs summed over a path stay under this in the kernel
CHUNK = 1 << 16  # nodes between two looks at the clock (and chances for Ctrl-C)
MAX_ROWS = 10_000_000  # k times the deepest level: the most the table of the best may hold


@dataclass(frozen=True)
class Best:
    """The cheapest solutions found, in increasing order of cost.

    ``solutions[j]`` (option indices, in increasing order) costs ``costs[j]``.
    ``proven``: the search ran to its end, so these are the k cheapest solutions (all
    of them when there are fewer than k); otherwise ``stopped_by`` says which limit
    stopped it, and these are the cheapest it had met. ``nodes``: search nodes.
    """

    solutions: tuple[tuple[int, ...], ...]
    costs: tuple[int, ...]
    proven: bool
    stopped_by: str | None
    nodes: int

    def __len__(self) -> int:
        return len(self.costs)

    def __iter__(self):
        """(cost, solution) pairs, cheapest first."""
        return iter(zip(self.costs, self.solutions, strict=True))

    def __str__(self) -> str:
        if not self.costs:
            found = "no solution"
        else:
            found = f"costs {', '.join(str(c) for c in self.costs)}"
        status = "proven" if self.proven else f"not proven: {self.stopped_by}"
        return f"{found} ({status}; {self.nodes} nodes)"


def best(
    problem: Problem,
    k: int = 1,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> Best:
    """The ``k`` cheapest solutions of ``problem``, in increasing order of cost.

    Among solutions of equal cost, which ones come back depends on the search order (the
    same for the same problem). ``node_limit``/``time_limit`` stop the search early:
    the result then says ``proven=False``. Colours are supported; multiplicities and
    loop items are not (``ProblemError``).

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for items, cost in ((["a"], 3), (["b"], 4), (["a", "b"], 5)):
    ...     _ = p.add_option(items, cost=cost)
    >>> result = best(p, k=2)
    >>> result.costs, result.solutions, result.proven
    ((5, 7), ((2,), (0, 1)), True)
    """
    if not isinstance(problem, Problem):
        raise TypeError(f"best() takes a dlx.Problem, not {type(problem).__name__}")
    k = whole("k", k, minimum=1)
    node_limit = None if node_limit is None else whole("node_limit", node_limit)
    time_limit = seconds("time_limit", time_limit)
    _check_problem(problem)
    layout = _Layout(problem)
    if layout.infeasible:
        return Best((), (), True, None, 0)
    if layout.too_large:
        return _best_python(problem, set(layout.kept.tolist()), k, node_limit, time_limit)
    return _run(layout, k, node_limit, time_limit)


def _check_problem(problem: Problem) -> None:
    """Refuse what the kernel does not search: multiplicities and loop items."""
    if problem.loop_edges:
        raise ProblemError("best() does not take loop items")
    multiplicity = problem.first_multiplicity()
    if multiplicity is not None:
        name, lo, hi = multiplicity
        raise ProblemError(
            f"best() covers each primary item once: item {name!r} has bounds {lo}:{hi}"
        )


class _Layout:
    """The net costs, the total tax and the kernel's links of a problem."""

    def __init__(self, problem: Problem):
        entries = problem.entries()
        self.problem = problem
        self.n_primary = len(entries.lo)
        n_items = self.n_primary + entries.n_secondary
        self.n_items = n_items
        n_options = problem.n_options
        primary = entries.item <= self.n_primary
        size = np.bincount(entries.option[primary], minlength=n_options)
        self.kept = np.flatnonzero(size > 0)  # options with a primary item
        self.size = size
        costs = [problem.option_cost(o) for o in range(n_options)]
        largest = max((costs[o] for o in self.kept), default=0)
        self.infeasible = bool(
            np.setdiff1d(np.arange(1, self.n_primary + 1), entries.item[primary]).size
        )
        self.too_large = largest * max(self.n_primary, 1) >= INT64_ROOM
        if self.infeasible or self.too_large:
            return
        cost = np.array(costs, dtype=np.int64)
        self.net, self.total_tax = _taxes(
            cost, size, entries.option[primary], entries.item[primary], self.n_primary
        )
        self.entries = entries

    def state(self, k: int):
        """A fresh ``costkernel.State`` for the k best."""
        from dlx.kernels.costs.kernel import (
            COLOUR,
            COST,
            DLINK,
            NO_CUTOFF,
            NODE_FIELDS,
            STEP_ENTER,
            TOP,
            ULINK,
            State,
        )

        e = self.entries
        n_items = self.n_items
        keep = np.isin(e.option, self.kept)
        order = np.lexsort((e.option[keep], self.net[e.option[keep]]))  # cheapest first
        option_of = e.option[keep]
        item, colour = e.item[keep], e.colour[keep]
        n_entries = int(keep.sum())
        n_options = len(self.kept)
        n_nodes = n_items + 2 + n_entries + n_options
        top = np.zeros(n_nodes, np.int64)
        ulink = np.zeros(n_nodes, np.int64)
        dlink = np.zeros(n_nodes, np.int64)
        node_colour = np.zeros(n_nodes, np.int64)
        node_cost = np.zeros(n_nodes, np.int64)
        node_option = np.full(n_nodes, -1, np.int64)
        # the nodes of option j (in the problem's order) follow the spacer before it
        starts = np.flatnonzero(np.r_[True, option_of[1:] != option_of[:-1]])
        group = np.cumsum(np.r_[False, option_of[1:] != option_of[:-1]])  # option rank
        node = n_items + 2 + np.arange(n_entries) + group  # one spacer per option more
        top[node] = item
        node_colour[node] = colour
        node_cost[node] = self.net[option_of]
        node_option[node] = option_of
        spacers = n_items + 1 + starts + np.arange(n_options)
        ends = np.r_[starts[1:], n_entries] - 1
        spacers = np.r_[spacers, node[-1] + 1]
        top[spacers] = -np.arange(n_options + 1)
        ulink[spacers[1:]] = node[starts]  # the first node of the option before
        dlink[spacers[:-1]] = node[ends]  # the last node of the option after
        # the item lists, each in order of net cost (ties in the problem's order)
        ulink[: n_items + 1] = np.arange(n_items + 1)
        dlink[: n_items + 1] = np.arange(n_items + 1)
        chain = node[order][np.argsort(item[order], kind="stable")]  # item by item
        owner = top[chain]
        first = np.r_[True, owner[1:] != owner[:-1]]
        last = np.r_[owner[1:] != owner[:-1], True]
        ulink[chain] = np.where(first, owner, np.roll(chain, 1))
        dlink[chain] = np.where(last, owner, np.roll(chain, -1))
        dlink[owner[first]] = chain[first]
        ulink[owner[last]] = chain[last]
        length = np.bincount(owner, minlength=n_items + 1).astype(np.int64)
        widest = np.ones(n_items + 1, np.int64)
        np.maximum.at(widest, item, self.size[option_of])
        rows = np.zeros((n_nodes, NODE_FIELDS), np.int64)
        for field, values in ((TOP, top), (ULINK, ulink), (DLINK, dlink)):
            rows[:, field] = values
        rows[:, COLOUR] = node_colour
        rows[:, COST] = node_cost
        llink = np.zeros(n_items + 2, np.int64)
        rlink = np.zeros(n_items + 2, np.int64)
        rings = ((0, 1, self.n_primary), (n_items + 1, self.n_primary + 1, n_items))
        for root, first, last in rings:
            ring = [root, *range(first, last + 1)]
            for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
                rlink[a], llink[b] = b, a
        depth = max(self.n_primary, 1)
        if k * depth > MAX_ROWS:
            raise ValueError(f"k={k} is too many: the best table would hold {k * depth} options")
        state = np.array([0, STEP_ENTER, 0, 0], np.int64)
        best_cost = np.full(k, NO_CUTOFF, np.int64)
        return State(
            llink,
            rlink,
            length,
            widest,
            rows,
            node_option,
            np.zeros(depth + 1, np.int64),
            np.zeros(depth + 1, np.int64),
            np.zeros(depth + 2, np.int64),
            np.zeros(depth + 1, np.int64),
            np.zeros(depth + 1, np.int64),
            best_cost,
            np.zeros(k, np.int64),
            np.zeros((k, depth), np.int64),
            state,
        )


def _taxes(cost, size, option, item, n_primary):
    """The net cost of each option and the total tax (see the module's docstring);
    ``option``/``item``: the primary entries."""
    share = cost // np.maximum(size, 1)
    tax = np.full(n_primary + 1, np.iinfo(np.int64).max, np.int64)
    np.minimum.at(tax, item, share[option])
    tax[0] = 0
    net = cost.copy()
    np.subtract.at(net, option, tax[item])
    by_item = np.argsort(item, kind="stable")
    bounds = np.searchsorted(item[by_item], np.arange(1, n_primary + 2))
    for i in range(1, n_primary + 1):
        options = option[by_item[bounds[i - 1] : bounds[i]]]
        least = net[options].min()
        if least:
            tax[i] += least
            net[options] -= least
    return net, int(tax.sum())


def _run(layout: _Layout, k: int, node_limit, time_limit) -> Best:
    """Drive the kernel in chunks of nodes until it is done or a limit stops it."""
    from dlx.kernels.costs.kernel import DONE, FILLED, NODES, search

    s = layout.state(k)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    stopped_by = None
    while True:
        stop_at = s.state[NODES] + CHUNK
        if node_limit is not None:
            stop_at = min(stop_at, node_limit)
        if search(s, stop_at) == DONE:
            break
        if node_limit is not None and s.state[NODES] >= node_limit:
            stopped_by = f"node limit {node_limit}"
            break
        if deadline is not None and time.monotonic() >= deadline:
            stopped_by = f"time limit {time_limit:g} s"
            break
    filled = int(s.state[FILLED])
    solutions = tuple(
        tuple(sorted(int(o) for o in s.best_option[j, : s.best_size[j]])) for j in range(filled)
    )
    costs = tuple(layout.total_tax + int(c) for c in s.best_cost[:filled])
    return Best(solutions, costs, stopped_by is None, stopped_by, int(s.state[NODES]))


def _best_python(problem: Problem, kept: set[int], k: int, node_limit, time_limit) -> Best:
    """The k best by streaming every solution (exact for costs of any size; used when
    the costs are too large for the kernel's 64-bit sums); solutions with an option
    outside ``kept`` (one without primary items) are passed over, as the kernel does."""
    from dlx.api import solutions

    stream = solutions(problem, node_limit=node_limit, time_limit=time_limit)
    heap: list[tuple[int, int, tuple[int, ...]]] = []  # (-cost, -order, options)
    for order, solution in enumerate(stream):
        options = tuple(sorted(solution.options))
        if not kept.issuperset(options):
            continue
        cost = sum(problem.option_cost(o) for o in options)
        entry = (-cost, -order, options)
        if len(heap) < k:
            heapq.heappush(heap, entry)
        elif entry > heap[0]:
            heapq.heapreplace(heap, entry)
    ranked = sorted(heap, reverse=True)
    return Best(
        tuple(e[2] for e in ranked),
        tuple(-e[0] for e in ranked),
        stream.complete,
        None if stream.complete else stream.stopped_by,
        int(stream.stats.nodes),
    )
