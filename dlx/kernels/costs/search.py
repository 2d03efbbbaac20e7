"""The Python side of the branch-and-bound kernel (``kernel.py`` beside it): the taxes
and net costs of a problem, the kernel's arrays, and the loop that drives it in chunks
of nodes (see ``dlx.costs`` for the method, and the kernel's essay)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from dlx import compiling
from dlx.errors import ProblemError
from dlx.problem import Problem

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


def check_problem(problem: Problem) -> None:
    """Refuse what the kernel does not search: multiplicities and loop items."""
    if problem.loop_edges:
        raise ProblemError("best() does not take loop items")
    multiplicity = problem.first_multiplicity()
    if multiplicity is not None:
        name, lo, hi = multiplicity
        raise ProblemError(
            f"best() covers each primary item once: item {name!r} has bounds {lo}:{hi}"
        )


class Layout:
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

    def task_state(self, k: int, chosen, cutoff: int | None):
        """A state for the k best solutions that hold the options ``chosen`` (each
        with a primary item, none in conflict) and cost less than ``cutoff`` (a total
        cost; None: no cutoff)."""
        from dlx.kernels.costs.kernel import FILLED, TOP, force

        s = self.state(k)
        primary = (s.node[:, TOP] >= 1) & (s.node[:, TOP] <= self.n_primary)
        for o in chosen:
            force(s, int(np.flatnonzero(primary & (s.option == o))[0]))
        s.partial[0] = sum(int(self.net[o]) for o in chosen)
        if cutoff is not None:
            s.best_cost[:] = cutoff - self.total_tax
            s.best_size[:] = -1
            s.state[FILLED] = k
        return s


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


def search_best(layout: Layout, k: int, node_limit, time_limit, s=None, chosen=()) -> Best:
    """Drive the kernel in chunks of nodes until it is done or a limit stops it; ``s``:
    a state made by ``Layout.task_state`` with the options ``chosen`` (a fresh one
    when None)."""
    from dlx.kernels.costs.kernel import DONE, FILLED, NODES

    search = _kernel().search

    s = layout.state(k) if s is None else s
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
    rows = [j for j in range(int(s.state[FILLED])) if s.best_size[j] >= 0]  # (-1: a cutoff)
    solutions = tuple(
        tuple(sorted([*chosen, *(int(o) for o in s.best_option[j, : s.best_size[j]])]))
        for j in rows
    )
    costs = tuple(layout.total_tax + int(s.best_cost[j]) for j in rows)
    return Best(solutions, costs, stopped_by is None, stopped_by, int(s.state[NODES]))


def _kernel():
    """The branch-and-bound kernel, imported and compiled (or loaded from numba's cache)
    on first use, the compile said on stderr (``dlx.compiling``)."""
    module = compiling.kernel_module("dlx.kernels.costs.kernel")
    compiling.warm("costs", module.search, False, _warm_up)
    return module


def _warm_up() -> None:
    """The kernel run once: the best of a problem of one option, and that option forced
    (``force``, which a parallel search's tasks call)."""
    problem = Problem(primary=["a"])
    problem.add_option(["a"], cost=1)
    search_best(Layout(problem), 1, None, None)
    Layout(problem).task_state(1, [0], None)


compiling.register(_kernel)
