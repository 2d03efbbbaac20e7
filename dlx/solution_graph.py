"""The solution graph of an exact-cover problem: count, sample, rank and unrank.

``graph(problem)`` builds the DAG of the problem's subproblems (``dlx/graphkernel.py``):
a node per distinct subproblem that has a solution, an edge per option taken, and the
exact number of solutions below every node. Its solutions are the paths from the root
to the terminal node, in a fixed order (the first edge first, at every node), so that
solution ``i`` is found by going down the edge whose range of ranks holds ``i``
(``unrank``), ``rank`` adds up the ranges passed on the way down, and a uniformly
random solution is ``unrank`` of a uniformly random integer below the count: exactly
uniform at any size, the integer being drawn by Python's ``random.Random.randrange``.

>>> from dlx import Problem, graph
>>> p = Problem(primary=["a", "b", "c"])
>>> for option in (["a", "b"], ["c"], ["a"], ["b"], ["b", "c"]):
...     _ = p.add_option(option)
>>> g = graph(p)
>>> g.count, len(g)
(3, 4)
>>> [s.options for s in g.solutions()]
[(0, 1), (2, 3, 1), (2, 4)]
>>> g.rank([4, 2]), g.unrank(1).options
(2, (2, 3, 1))
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np

from dlx import compiling
from dlx import graphlayout as gl
from dlx.driver import tiny_problem, tree_fraction
from dlx.errors import ProblemError
from dlx.problem import Problem
from dlx.search import Solution
from dlx.verify import InvalidSolution, check
from dlx.words import plural

MAX_BYTES = 2 << 30  # the build's arrays, at most, unless max_nodes is given
DEAD_BYTES = 32 << 20  # the cache of subproblems with no solution (see dlx/graphkernel.py)
FIRST_BUDGET = 100_000  # subproblems entered in a kernel call, at first
CALL_SECONDS = 0.2  # ... then about this long a call
BATCH = 4096  # solutions unranked at a time by a stream
_LIMB = (1 << 64) - 1


class GraphTooLarge(ProblemError):
    """The solution graph would pass its bound (``max_nodes``, or 2 GB)."""


class GraphTimeLimit(ProblemError):
    """The solution graph was not finished within the time limit."""


def _kernel():
    """The numba kernel, imported and compiled (or loaded from numba's cache) on first
    use, the compile said on stderr and kept out of the build's time (``dlx.compiling``)."""
    graphkernel = compiling.kernel_module("dlx.graphkernel")
    compiling.warm("graph", graphkernel.build, False, _warm_up)
    return graphkernel


def _warm_up() -> None:
    """Every entry point of the kernel run once: a tiny graph built and unranked, a key
    table rehashed."""
    graph(tiny_problem(False)).unrank(0)
    _kernel().rehash(gl.empty_table(4, 1), gl.empty_table(8, 1))


compiling.register(_kernel)


@dataclass(frozen=True)
class GraphStats:
    """The size of a solution graph: ``nodes`` (with the terminal), ``edges``,
    ``visited`` (the subproblems the build entered, with those of no solution and those
    entered again), ``nbytes`` (the graph's arrays), ``peak_bytes`` (the build's, key
    table and dead cache included), ``seconds`` (the build's)."""

    nodes: int
    edges: int
    visited: int
    nbytes: int
    peak_bytes: int
    seconds: float

    def __str__(self) -> str:
        return (
            f"graph: {self.nodes} nodes, {self.edges} edges ({self.visited} subproblems entered), "
            f"{self.nbytes / 1e6:.1f} MB ({self.peak_bytes / 1e6:.1f} MB to build), "
            f"{self.seconds:.3f} s"
        )


def graph(
    problem: Problem,
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    progress: bool = False,
) -> Graph:
    """Build the solution graph of ``problem`` (plain exact cover: no colours or
    multiplicities; ProblemError otherwise).

    ``max_nodes`` bounds the graph's nodes (default: as many as keep the build's arrays
    under 2 GB): past it, or past
    ``time_limit`` seconds, it raises ``GraphTooLarge`` or ``GraphTimeLimit``, one line
    each. Ctrl-C stops it (KeyboardInterrupt) between two kernel calls.
    """
    if max_nodes is not None and (isinstance(max_nodes, bool) or int(max_nodes) < 1):
        raise ProblemError(f"max_nodes must be a positive integer, not {max_nodes!r}")
    lay = gl.layout(problem)
    return Graph(problem, lay, _build(lay, max_nodes, time_limit, progress))


def _nbytes(state: gl.State) -> int:
    """The bytes of the build's arrays."""
    return sum(a.nbytes for a in state)


def _grown(state: gl.State, code: int) -> gl.State:
    """The build's arrays after ``code`` (FULL, GROW, OVERFLOW): twice as large."""
    fields = state._asdict()
    if code == gl.FULL:
        nodes = state.node_count.shape[0] * 2
        count = np.zeros((nodes, state.node_count.shape[1]), np.uint64)
        count[: state.node_count.shape[0]] = state.node_count
        fields["node_count"] = count
        fields["node_edge"] = np.resize(state.node_edge, nodes + 1)
        fields["edge_child"] = np.resize(state.edge_child, 2 * len(state.edge_child))
        fields["edge_option"] = np.resize(state.edge_option, 2 * len(state.edge_option))
    elif code == gl.GROW:
        fields["table"] = gl.empty_table(2 * len(state.table), state.table.shape[1] - 1)
        _kernel().rehash(state.table, fields["table"])
    else:  # OVERFLOW: one more limb (the counts so far are still right)
        count = np.zeros((state.node_count.shape[0], state.node_count.shape[1] + 1), np.uint64)
        count[:, :-1] = state.node_count
        fields["node_count"] = count
        fields["acc"] = np.zeros(count.shape[1], np.uint64)
    return gl.State(**fields)


def _refusal(state: gl.State, max_nodes: int | None, grown: gl.State | None) -> str | None:
    """Why the build must stop here (a bound passed), with what it would need."""
    st = state.state
    entries = int(st[gl.ENTRIES])
    level = int(st[gl.LEVEL])
    done = tree_fraction(state.branch_index, state.branch_degree, 0, level + 1)
    guess = f"; about {entries / done:.3g} estimated in all" if 0 < done < 1 else ""
    if max_nodes is not None and entries >= max_nodes:
        return (
            f"the solution graph needs more than max_nodes={max_nodes} nodes "
            f"({_nbytes(state) / 1e6:.0f} MB so far{guess})"
        )
    if max_nodes is None and grown is not None and _nbytes(grown) > MAX_BYTES:
        return (
            f"the solution graph needs more than {MAX_BYTES / 1e9:.1f} GB ({entries} nodes "
            f"so far{guess}): give a larger max_nodes (--max-graph-nodes) to allow more"
        )
    return None


def _build(lay, max_nodes, time_limit, progress) -> tuple[gl.State, GraphStats]:
    """Run the kernel to the end; the final arrays and the graph's statistics."""
    kernel = _kernel()
    tables = lay.tables()
    state = gl.new_state(lay, 1 << 12, 1 << 13, 1 << 13, 1, DEAD_BYTES)
    peak = _nbytes(state)
    started = time.perf_counter()
    budget = FIRST_BUDGET
    bound = 1 << 62 if max_nodes is None else int(max_nodes)
    bar = _bar(progress)
    try:
        while True:
            if time_limit is not None and time.perf_counter() - started >= time_limit:
                raise GraphTimeLimit(
                    f"the solution graph was not finished within the time limit of "
                    f"{time_limit:g} s ({int(state.state[gl.NODES])} nodes so far)"
                )
            t0 = time.perf_counter()
            before = int(state.state[gl.VISITED])
            code = kernel.build(tables, state, budget, bound)
            dt = time.perf_counter() - t0
            if code == gl.DONE:
                break
            grown = None if code in (gl.PAUSED, gl.BOUND) else _grown(state, code)
            reason = _refusal(state, max_nodes, grown)
            if reason is not None:
                raise GraphTooLarge(reason)
            if grown is not None:
                state = grown
                peak = max(peak, _nbytes(state))
            elif dt > 0:
                rate = (int(state.state[gl.VISITED]) - before) / dt
                budget = int(min(max(rate * CALL_SECONDS, 1000), 1 << 40))
            if bar is not None:
                level = int(state.state[gl.LEVEL])
                bar.n = tree_fraction(state.branch_index, state.branch_degree, 0, level + 1)
                bar.set_postfix_str(f"{int(state.state[gl.NODES])} nodes", refresh=True)
    finally:
        if bar is not None:
            bar.close()
    st = state.state
    nodes, edges = int(st[gl.NODES]), int(st[gl.EDGES])
    kept = state.node_count[:nodes].nbytes + 8 * (nodes + 1) + 8 * edges
    stats = GraphStats(nodes, edges, int(st[gl.VISITED]), kept, peak, time.perf_counter() - started)
    return state, stats


def _bar(progress: bool):
    """A progress bar on stderr (the fraction of the search tree done), or None."""
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=1.0, desc="graph", bar_format="{desc}: {percentage:5.1f}%|{bar}| {elapsed}")


class Graph:
    """A problem's solution graph (see the module's docstring); made by ``graph``.

    ``count``: the number of solutions (an int, exact); ``len(g)``: its nodes, the
    terminal included; ``stats``: its size (``GraphStats``). Node ``n``'s edges are
    ``node_edge[n]:node_edge[n + 1]`` of ``edge_child`` and ``edge_option`` (the
    problem's option indices); ``node_count``: uint64[nodes, limbs]; node 0 is the
    terminal and ``root`` the whole problem (-2: none, for no solution).
    """

    def __init__(self, problem: Problem, lay: gl.GraphLayout, built):
        state, self.stats = built
        nodes, edges = self.stats.nodes, self.stats.edges
        self.problem = problem
        self._layout = lay
        self.node_count = state.node_count[:nodes].copy()
        self.node_edge = state.node_edge[: nodes + 1].copy()
        self.edge_child = state.edge_child[:edges].copy()
        self.edge_option = state.edge_option[:edges].copy()
        self.root = int(state.state[gl.ROOT])
        self.count = self._node_count(self.root) if self.root >= 0 else 0

    def __len__(self) -> int:
        return self.stats.nodes

    def __repr__(self) -> str:
        edges = self.stats.edges
        return f"Graph({plural(self.count, 'solution')}, {len(self)} nodes, {edges} edges)"

    def _node_count(self, node: int) -> int:
        """The count of ``node`` as a Python int."""
        return sum(int(limb) << (64 * k) for k, limb in enumerate(self.node_count[node]))

    def _unrank_many(self, ranks) -> list[Solution]:
        """The solutions of ``ranks`` (ints, each checked to be in range)."""
        limbs = self.node_count.shape[1]
        if limbs == 1:
            table = np.array(ranks, np.uint64).reshape(-1, 1)
        else:
            table = np.array(
                [[(r >> (64 * k)) & _LIMB for k in range(limbs)] for r in ranks], np.uint64
            ).reshape(-1, limbs)
        out = np.empty((len(table), max(self._layout.n_primary, 1)), np.int64)
        _kernel().unrank(
            self.node_edge, self.edge_child, self.edge_option, self.node_count, self.root,
            table, out,
        )  # fmt: skip
        problem = self.problem
        return [Solution(tuple(k for k in row if k >= 0), problem) for row in out.tolist()]

    def _check_rank(self, i) -> int:
        """``i`` as an int in ``range(count)`` (IndexError or TypeError otherwise)."""
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"a solution's rank must be an integer, not {i!r}")
        if not 0 <= i < self.count:
            raise IndexError(f"no solution {i}: the problem has {self.count} (from 0)")
        return int(i)

    def unrank(self, i: int) -> Solution:
        """The solution of rank ``i`` (``0 <= i < count``), in the graph's fixed order."""
        return self._unrank_many([self._check_rank(i)])[0]

    def sample(self, k: int, seed=None) -> list[Solution]:
        """``k`` solutions drawn independently and exactly uniformly (with repeats):
        ``unrank`` of ``random.Random(seed).randrange(count)``, so the same seed
        gives the same sample on every machine."""
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 0:
            raise ValueError(f"the sample size must be an integer >= 0, not {k!r}")
        if k and not self.count:
            raise ValueError("the problem has no solution to sample")
        draw = random.Random(seed).randrange
        return self._unrank_many([draw(self.count) for _ in range(int(k))]) if k else []

    def solutions(self):
        """Every solution, in rank order (a generator)."""
        for start in range(0, self.count, BATCH):
            yield from self._unrank_many(range(start, min(start + BATCH, self.count)))

    def rank(self, solution) -> int:
        """The rank of ``solution`` (a ``Solution`` or option indices, in any order);
        ValueError, naming the item at fault (``dlx.check``'s reason), when it is not a
        solution."""
        options = getattr(solution, "options", solution)
        try:
            chosen = [int(k) for k in options]
        except (TypeError, ValueError):
            raise ValueError(f"a solution is a set of option indices, not {solution!r}") from None
        if len(set(chosen)) != len(chosen):
            raise ValueError(f"not a solution: an option is chosen twice in {chosen}")
        try:
            check(self.problem, chosen)
        except InvalidSolution as e:
            raise ValueError(f"not a solution: {e}") from None
        left = set(chosen)
        node, rank = self.root, 0
        while node != gl.TERMINAL:  # a solution's path exists: one option a node
            for e in range(self.node_edge[node], self.node_edge[node + 1]):
                if int(self.edge_option[e]) in left:
                    break
                rank += self._node_count(int(self.edge_child[e]))
            else:
                raise RuntimeError(f"the graph lost solution {sorted(chosen)}")  # a bug
            left.discard(int(self.edge_option[e]))
            node = int(self.edge_child[e])
        return rank

    def write_zdd(self, path) -> None:
        """Write the graph as a ZDD in the text format of Knuth's DLX6 (its ``m``
        option), which his ZDDREAD programs read: a line ``x: (~v?lo:hi)`` per edge
        (hexadecimal node numbers, ``v`` the option's number from 1, the nodes 0 and 1
        the sinks), the edges of a node chained by ``lo`` from its last to its first,
        and last a dummy root ``(~0?0:r)``."""
        with open(path, "w") as out:
            for line in self.zdd_lines():
                out.write(line)

    def zdd_lines(self):
        """The lines of ``write_zdd``, in chunks (strings of many lines)."""
        edge_start, child = self.node_edge, self.edge_child.astype(np.int64)
        top = edge_start[1:] + 1  # the ZDD number of a node's last edge (+2, -1)
        top[gl.TERMINAL] = 1
        n_edges = len(child)
        owner = np.repeat(np.arange(len(edge_start) - 1), np.diff(edge_start))
        for lo in range(0, n_edges, 1 << 16):
            hi = min(lo + (1 << 16), n_edges)
            e = np.arange(lo, hi)
            low = np.where(e == edge_start[owner[lo:hi]], 0, e + 1)
            rows = zip((e + 2).tolist(), (self.edge_option[lo:hi] + 1).tolist(),
                       low.tolist(), top[child[lo:hi]].tolist(), strict=True)  # fmt: skip
            yield "".join(f"{x:x}: (~{v}?{a:x}:{b:x})\n" for x, v, a, b in rows)
        root = int(top[self.root]) if self.root >= 0 else 0
        yield f"{n_edges + 2:x}: (~0?0:{root:x})\n"
