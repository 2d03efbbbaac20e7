"""Sums over a solution graph's paths: generating functions, option counts, the lightest
solutions. Exact Python integers throughout (no float).

Glossary
--------
weight
    An integer per option, added up along a solution: ``None`` is 1 per option (a
    solution's weight is its size), ``"cost"`` the problem's costs
    (``Problem.add_option(..., cost=)``), or a sequence of integers, one per option.
generating function
    The number of solutions of each weight: ``{weight: count}``, by increasing weight.
    A node's is the sum over its edges of the child's, shifted by the option's weight;
    the terminal's is ``{0: 1}``. (Knuth's ZDDREAD-gf prints the one by size.)
paths above a node
    ``above[n]``: the paths from the root down to node ``n``. The solutions through an
    edge from ``n`` to ``c`` are ``above[n] * count[c]``; an option's are the sum over
    its edges.
lightest solutions
    A node keeps its ``k`` lightest paths down to the terminal as ``(weight, edge,
    entry)``, the edge's position among the node's edges and the entry of the child's
    list it goes on with, in increasing order of ``(weight, edge, entry)``: by weight,
    ties in rank order. A node's list merges its edges' lists, shifted by the option's
    weight (children are numbered below their parents, so they are ready first).
weight order
    The solutions by increasing weight, ties in rank order: ``Graph.unrank(i,
    order="cost")`` is the ``i``-th of them, ``Graph.rank(s, order="cost")`` the place of
    ``s`` (``WeightOrder``).
"""

from __future__ import annotations

import bisect
import heapq
import itertools

from dlx.driver.results import Solution
from dlx.numbers import whole


def option_weights(problem, weight) -> list[int]:
    """The integer weight of each option (see the glossary); ValueError or TypeError
    naming the argument otherwise.

    >>> from dlx import Problem
    >>> p = Problem(primary=["a"])
    >>> _ = p.add_option(["a"], cost=5)
    >>> option_weights(p, None), option_weights(p, "cost"), option_weights(p, [-2])
    ([1], [5], [-2])
    """
    n = problem.n_options
    if weight is None:
        return [1] * n
    if isinstance(weight, str):
        if weight == "cost":
            return [problem.option_cost(k) for k in range(n)]
        raise ValueError(f'weight must be None, "cost" or one integer per option, not {weight!r}')
    if isinstance(weight, (bytes, bytearray)) or not hasattr(weight, "__len__"):
        raise TypeError(f"weight must be None, 'cost' or one integer per option, not {weight!r}")
    if len(weight) != n:
        raise ValueError(f"weight needs one integer per option ({n}), not {len(weight)}")
    return [whole(f"weight[{k}]", value, minimum=None) for k, value in enumerate(weight)]


def _lists(g):
    """The graph's edge arrays as Python lists (start, child, option)."""
    return g.node_edge.tolist(), g.edge_child.tolist(), g.edge_option.tolist()


def _node_functions(g, w: list[int]) -> list[dict[int, int]]:
    """Every node's generating function (``w``: each option's weight)."""
    start, child, option = _lists(g)
    gf: list[dict[int, int]] = [{0: 1}] + [{} for _ in range(len(g) - 1)]
    for n in range(1, len(g)):
        acc = gf[n]
        for e in range(start[n], start[n + 1]):
            shift = w[option[e]]
            for x, c in gf[child[e]].items():
                acc[x + shift] = acc.get(x + shift, 0) + c
    return gf


def generating_function(g, weight=None) -> dict[int, int]:
    """The number of solutions of each weight, ``{weight: count}`` by increasing weight
    (empty for no solution)."""
    w = option_weights(g.problem, weight)
    if g.root < 0:
        return {}
    return dict(sorted(_node_functions(g, w)[g.root].items()))


class WeightOrder:
    """The solutions in order of weight, ties in rank order (see the glossary): the
    ``i``-th is found by going down from the root with each node's generating function,
    taking at each node the first edge whose child's solutions of the weight left reach
    past what is left of ``i``."""

    def __init__(self, g, weight="cost"):
        self.g = g
        self.w = option_weights(g.problem, weight)
        self.start, self.child, self.option = _lists(g)
        self.functions = _node_functions(g, self.w) if g.root >= 0 else []
        root = self.functions[g.root] if g.root >= 0 else {}
        self.weights = sorted(root)  # the root's weights, and the solutions lighter
        self.lighter = list(itertools.accumulate((root[x] for x in self.weights), initial=0))

    def unrank(self, i: int) -> tuple[int, tuple[int, ...]]:
        """The weight and options of the ``i``-th solution (``0 <= i < count``)."""
        at = bisect.bisect_right(self.lighter, i) - 1
        total = self.weights[at]
        i -= self.lighter[at]
        n, left, options = self.g.root, total, []
        while n != 0:
            for e in range(self.start[n], self.start[n + 1]):
                below = self.functions[self.child[e]].get(left - self.w[self.option[e]], 0)
                if i < below:
                    break
                i -= below
            options.append(self.option[e])
            left -= self.w[self.option[e]]
            n = self.child[e]
        return total, tuple(options)

    def rank(self, chosen) -> int:
        """The place of the solution ``chosen`` (option indices, a path of the graph)."""
        left = sum(self.w[k] for k in chosen)
        rank = self.lighter[bisect.bisect_left(self.weights, left)]
        todo = set(chosen)
        n = self.g.root
        while n != 0:
            for e in range(self.start[n], self.start[n + 1]):
                if self.option[e] in todo:
                    break
                rank += self.functions[self.child[e]].get(left - self.w[self.option[e]], 0)
            todo.discard(self.option[e])
            left -= self.w[self.option[e]]
            n = self.child[e]
        return rank


def option_counts(g, counts: list[int]) -> list[int]:
    """How many solutions hold each option (``counts``: each node's solutions)."""
    through = [0] * g.problem.n_options
    if g.root < 0:
        return through
    start, child, option = _lists(g)
    above = [0] * len(g)
    above[g.root] = 1
    for n in range(len(g) - 1, 0, -1):  # parents before their children
        paths = above[n]
        if not paths:
            continue
        for e in range(start[n], start[n + 1]):
            c = child[e]
            above[c] += paths
            through[option[e]] += paths * counts[c]
    return through


def min_weight(g, weight="cost") -> int:
    """The least weight of a solution (ValueError when there is none)."""
    w = option_weights(g.problem, weight)
    if g.root < 0:
        raise ValueError("the problem has no solution")
    start, child, option = _lists(g)
    least = [0] * len(g)
    for n in range(1, len(g)):
        least[n] = min(w[option[e]] + least[child[e]] for e in range(start[n], start[n + 1]))
    return least[g.root]


def _shifted(entries, shift: int, position: int):
    """A child's list seen from its parent's edge ``position`` of weight ``shift``."""
    for j, entry in enumerate(entries):
        yield (entry[0] + shift, position, j)


def k_lightest(g, k: int, weight="cost") -> list[tuple[int, Solution]]:
    """The ``k`` lightest solutions (all of them when fewer), ``(weight, solution)`` by
    increasing weight, ties in rank order (see the glossary)."""
    k = whole("k", k)
    w = option_weights(g.problem, weight)
    if g.root < 0 or k == 0:
        return []
    start, child, option = _lists(g)
    best: list[list[tuple[int, int, int]]] = [[(0, -1, -1)]] + [[] for _ in range(len(g) - 1)]
    for n in range(1, len(g)):
        streams = [
            _shifted(best[child[e]], w[option[e]], e - start[n])
            for e in range(start[n], start[n + 1])
        ]
        best[n] = list(itertools.islice(heapq.merge(*streams), k))
    out = []
    for entry in best[g.root]:
        n, options = g.root, []
        total = entry[0]
        while n != 0:
            e = start[n] + entry[1]
            options.append(option[e])
            n = child[e]
            entry = best[n][entry[2]]
        out.append((total, Solution(tuple(options), g.problem)))
    return out
