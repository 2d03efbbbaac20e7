"""The solution graph of an exact-cover problem: count, sample, rank and unrank.

``graph(problem)`` builds the DAG of the problem's subproblems (``dlx/solution_graph/kernel.py``):
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

import math
import time
from dataclasses import dataclass

import numpy as np

from dlx import compiling
from dlx.driver.driver import tiny_problem, tree_fraction
from dlx.driver.results import Solution
from dlx.errors import ProblemError
from dlx.numbers import cap, seconds, whole
from dlx.outputs import Watched
from dlx.problem import Problem
from dlx.solution_graph import layout as gl
from dlx.solution_graph import sample as graphsample
from dlx.solution_graph import weights as graphweights
from dlx.solution_graph import zdd as graphzdd
from dlx.verify import InvalidSolution, check
from dlx.words import plural

MAX_BYTES = 2 << 30  # the build's arrays, at most, unless max_nodes is given
# the cache of subproblems with no solution (see dlx/solution_graph/kernel.py)
DEAD_BYTES = 32 << 20
FIRST_BUDGET = 100_000  # subproblems entered in a kernel call, at first
CALL_SECONDS = 0.2  # ... then about this long a call
BATCH = 4096  # solutions unranked at a time by a stream
_LIMB = (1 << 64) - 1
NO_BOUND = 1 << 62  # max_nodes past this is no bound at all
TOP_LEVELS = 3  # the levels of the search tree whose share done estimates the graph's


class GraphTooLarge(ProblemError):
    """The solution graph would pass its bound (``max_nodes``, or 2 GB)."""


class GraphTimeLimit(ProblemError):
    """The solution graph was not finished within the time limit (``seconds``), with
    ``nodes`` made so far."""

    def __init__(self, seconds: float, nodes: int):
        super().__init__(
            f"the solution graph was not finished within the time limit of {seconds:g} s "
            f"({nodes} nodes so far)"
        )
        self.seconds, self.nodes = seconds, nodes

    def __reduce__(self):  # (from a worker process: made again from its fields)
        return type(self), (self.seconds, self.nodes)

    def given(self, seconds: float | None) -> GraphTimeLimit:
        """The same, quoting the limit ``seconds`` (a command's ``--time-limit`` as the
        user gave it, where the graph got what reading the file left of it)."""
        return self if seconds is None else GraphTimeLimit(seconds, self.nodes)


def _kernel():
    """The numba kernel, imported and compiled (or loaded from numba's cache) on first
    use, the compile said on stderr and kept out of the build's time (``dlx.compiling``)."""
    graphkernel = compiling.kernel_module("dlx.solution_graph.kernel")
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
    branching: str = "cell",
) -> Graph:
    """Build the solution graph of ``problem`` (plain exact cover: no colours or
    multiplicities; ProblemError otherwise). Options without a primary item are in no
    solution, as for ``dlx.count`` and Knuth's DLX6: the graph leaves them out.

    ``max_nodes`` bounds the graph's nodes (an integer >= 1; ``math.inf`` or one past
    2**62: no bound; default: as many as keep the build's arrays under 2 GB): past it,
    or past ``time_limit`` seconds, it raises ``GraphTooLarge`` or ``GraphTimeLimit``,
    one line each. Ctrl-C stops it (KeyboardInterrupt) between two kernel calls.
    ``branching``: ``"cell"`` (urgent pieces, then the first uncovered cell: the order of
    ``ORDER_VERSION``) or ``"fewest"`` (urgent pieces, then the item with the fewest
    options left: the same count, another graph and order; see
    ``dlx/solution_graph/layout.py``).

    >>> from dlx import Problem
    >>> graph(Problem(primary=["a"]), max_nodes=2.5)
    Traceback (most recent call last):
    ...
    dlx.numbers.NumberError: max_nodes must be an integer >= 1, not 2.5
    """
    if not isinstance(problem, Problem):
        raise TypeError(
            f"problem must be a dlx.Problem (dlx.read reads a file), not {problem!r:.60}"
        )
    bound = max_nodes if max_nodes is None else cap("max_nodes", max_nodes, NO_BOUND, minimum=1)
    unbounded = max_nodes is not None and bound is None
    time_limit = seconds("time_limit", time_limit)
    lay = gl.layout(problem, branching)
    state, stats = _build(lay, NO_BOUND if unbounded else bound, time_limit, progress)
    root, nodes, edges = int(state.state[gl.ROOT]), stats.nodes, stats.edges
    count, node_edge = state.node_count, state.node_edge
    edge_child, edge_option = state.edge_child, state.edge_option
    del state  # the key table and the dead cache go before the graph's arrays are copied
    return Graph(
        problem,
        (count[:nodes].copy(), node_edge[: nodes + 1].copy(), edge_child[:edges].copy(),
         edge_option[:edges].copy(), root),
        stats,
    )  # fmt: skip


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


def _growth_bytes(state: gl.State, code: int) -> int:
    """The bytes the build holds while ``_grown`` makes its arrays for ``code``: the old
    arrays and the new ones that replace some of them, both at once."""
    nodes, limbs = state.node_count.shape
    if code == gl.FULL:
        edges = state.edge_child.nbytes + state.edge_option.nbytes
        new = 2 * (nodes * limbs * 8 + 8 * nodes + edges) + 8
    elif code == gl.GROW:
        new = 2 * state.table.nbytes
    else:  # OVERFLOW: one more limb
        new = nodes * (limbs + 1) * 8 + (limbs + 1) * 8
    return _nbytes(state) + new


def _estimate(state: gl.State, lay: gl.GraphLayout) -> int:
    """The graph's nodes in all, estimated from a build stopped early: the geometric
    mean of two estimates that err on opposite sides. One is the largest *layer* so far
    (the nodes that cover as many primary items) times the layers a solution passes
    (the primary items over the mean an option covers, and one): the build finishes
    deep layers first, so this is low while the middle layers fill. The other is the
    nodes so far over the share done of the search tree's top ``TOP_LEVELS`` levels,
    where paths rarely meet yet (deeper, the tree's share is far below the graph's):
    high when the first branches hold most of the graph. Measured in docs/graph.md."""
    n_primary, words = lay.n_primary, lay.words
    pw = (n_primary + 63) // 64
    rest = n_primary - 64 * (pw - 1)
    last = np.uint64((1 << rest) - 1 if rest < 64 else _LIMB)
    per_option = np.bitwise_count(lay.mask[:, :pw].copy()).sum(axis=1)
    if pw:
        per_option -= np.bitwise_count(lay.mask[:, pw - 1] & ~last).astype(per_option.dtype)
    mean = per_option[per_option > 0].mean() if (per_option > 0).any() else 1.0
    sizes = np.zeros(n_primary + 1, np.int64)
    for lo in range(0, len(state.table), 1 << 16):
        chunk = state.table[lo : lo + (1 << 16)]
        keys = chunk[chunk[:, words].astype(np.int64) >= 0, :pw]
        keys[:, pw - 1] &= last
        sizes += np.bincount(np.bitwise_count(keys).sum(axis=1), minlength=n_primary + 1)
    layers = n_primary / mean + 1
    entries = int(state.state[gl.ENTRIES])
    level = int(state.state[gl.LEVEL])
    done = tree_fraction(state.branch_index, state.branch_degree, 0, min(level + 1, TOP_LEVELS))
    return max(entries, round(math.sqrt(float(sizes.max()) * layers * entries / done)))


def _refusal(state, lay, max_nodes: int | None, during: int | None) -> str | None:
    """Why the build must stop here (a bound passed), with what it would need;
    ``during``: the bytes that growing the arrays would hold (None: no growth)."""
    entries = int(state.state[gl.ENTRIES])
    if max_nodes is not None and entries >= max_nodes:
        return (
            f"the solution graph needs more than max_nodes={max_nodes} (--max-graph-nodes) nodes "
            f"({_nbytes(state) / 1e6:.0f} MB so far; about {_estimate(state, lay):.3g} "
            f"estimated in all)"
        )
    if max_nodes is None and during is not None and during > MAX_BYTES:
        return (
            f"the solution graph needs more than {MAX_BYTES / 1e9:.3g} GB ({entries} nodes "
            f"so far; about {_estimate(state, lay):.3g} estimated in all): give a larger "
            f"max_nodes (--max-graph-nodes) to allow more"
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
    bound = NO_BOUND if max_nodes is None else max_nodes
    bar = _bar(progress)
    try:
        while True:
            if time_limit is not None and time.perf_counter() - started >= time_limit:
                raise GraphTimeLimit(time_limit, int(state.state[gl.NODES]))
            t0 = time.perf_counter()
            before = int(state.state[gl.VISITED])
            code = kernel.build(tables, state, budget, bound)
            dt = time.perf_counter() - t0
            if code == gl.DONE:
                break
            grows = code not in (gl.PAUSED, gl.BOUND)
            during = _growth_bytes(state, code) if grows else None
            reason = _refusal(state, lay, max_nodes, during)
            if reason is not None:
                raise GraphTooLarge(reason)
            if grows:
                state = _grown(state, code)
                peak = max(peak, during)
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
    """A problem's solution graph (see the module's docstring); made by ``graph`` or
    ``read_zdd``.

    ``count``: the number of solutions (an int, exact); ``len(g)``: its nodes, the
    terminal included; ``stats``: its size (``GraphStats``). Node ``n``'s edges are
    ``node_edge[n]:node_edge[n + 1]`` of ``edge_child`` and ``edge_option`` (the
    problem's option indices); ``node_count``: uint64[nodes, limbs]; node 0 is the
    terminal and ``root`` the whole problem (-2: none, for no solution).
    """

    def __init__(self, problem: Problem, arrays, stats: GraphStats):
        self.problem = problem
        self.node_count, self.node_edge, self.edge_child, self.edge_option, self.root = arrays
        self.stats = stats
        self.count = self._node_count(self.root) if self.root >= 0 else 0
        self._depth = max(len(problem.primary), 1)  # the most options a solution holds
        self._by_cost: graphweights.WeightOrder | None = None  # (``unrank(order="cost")``)

    def __len__(self) -> int:
        return self.stats.nodes

    def __repr__(self) -> str:
        edges = self.stats.edges
        return f"Graph({plural(self.count, 'solution')}, {len(self)} nodes, {edges} edges)"

    def _node_count(self, node: int) -> int:
        """The count of ``node`` as a Python int."""
        return sum(int(limb) << (64 * k) for k, limb in enumerate(self.node_count[node]))

    def _counts(self) -> list[int]:
        """Every node's count as a Python int."""
        limbs = self.node_count.shape[1]
        columns = [self.node_count[:, k].tolist() for k in range(limbs)]
        if limbs == 1:
            return columns[0]
        return [sum(x << (64 * k) for k, x in enumerate(row)) for row in zip(*columns, strict=True)]

    def _unrank_many(self, ranks) -> list[Solution]:
        """The solutions of ``ranks`` (ints, each checked to be in range)."""
        limbs = self.node_count.shape[1]
        if limbs == 1:
            table = np.array(ranks, np.uint64).reshape(-1, 1)
        else:
            table = np.array(
                [[(r >> (64 * k)) & _LIMB for k in range(limbs)] for r in ranks], np.uint64
            ).reshape(-1, limbs)
        out = np.empty((len(table), self._depth), np.int64)
        _kernel().unrank(
            self.node_edge, self.edge_child, self.edge_option, self.node_count, self.root,
            table, out,
        )  # fmt: skip
        problem = self.problem
        return [Solution(tuple(k for k in row if k >= 0), problem) for row in out.tolist()]

    def _check_rank(self, i) -> int:
        """``i`` as an int in ``range(count)`` (IndexError or TypeError otherwise)."""
        i = whole("a solution's rank", i, minimum=None)
        if not 0 <= i < self.count:
            raise IndexError(f"no solution {i}: the problem has {self.count} (from 0)")
        return i

    def unrank(self, i: int, order: str = "rank") -> Solution:
        """The solution of rank ``i`` (``0 <= i < count``), in the graph's fixed order;
        with ``order="cost"``, the ``i``-th in order of cost (the problem's costs),
        ties in rank order, so ``unrank(0, order="cost")`` is a cheapest solution.

        >>> from dlx import Problem
        >>> p = Problem(primary=["a", "b"])
        >>> for option, cost in ((["a"], 1), (["b"], 1), (["a", "b"], 1)):
        ...     _ = p.add_option(option, cost=cost)
        >>> g = graph(p)
        >>> [g.unrank(i).options for i in range(2)]
        [(0, 1), (2,)]
        >>> [g.unrank(i, order="cost").options for i in range(2)]
        [(2,), (0, 1)]
        """
        i = self._check_rank(i)
        if self._order(order) == "rank":
            return self._unrank_many([i])[0]
        return Solution(self._cost_order().unrank(i)[1], self.problem)

    def _order(self, order: str) -> str:
        """``order`` checked: "rank" or "cost" (ValueError otherwise)."""
        if order not in ("rank", "cost"):
            raise ValueError(f'order must be "rank" or "cost", not {order!r}')
        return order

    def _cost_order(self) -> graphweights.WeightOrder:
        """The solutions in order of cost (each node's generating function by cost),
        made at the first call and kept."""
        if self._by_cost is None:
            self._by_cost = graphweights.WeightOrder(self, "cost")
        return self._by_cost

    def sample(self, k: int, seed=None, *, given=None, forbid=None, weights=None, rng=None):
        """``k`` solutions drawn independently (with repeats), as a lazy iterator of
        bounded memory (any ``k``: ``itertools.islice`` takes what it needs).

        Uniform by default: ``unrank`` of ``random.Random(seed).randrange(count)``, so
        the same seed gives the same sample on every machine. ``rng``: a caller's own
        ``random.Random`` or ``numpy.random.Generator`` instead of ``seed``. ``given``
        and ``forbid`` (option indices): uniform over the solutions that hold every
        given option and no forbidden one; ``weights`` (one integer or ``Fraction`` >= 0
        per option): a solution with probability the product of its options' weights
        over their sum over all solutions. Exact in every case (see
        ``dlx/solution_graph/sample.py``). ValueError when no solution qualifies.

        >>> from dlx import Problem
        >>> p = Problem(primary=["a", "b"])
        >>> for option in (["a"], ["b"], ["a", "b"]):
        ...     _ = p.add_option(option)
        >>> g = graph(p)
        >>> [s.options for s in g.sample(3, seed=5, given=[2])]
        [(2,), (2,), (2,)]
        """
        k = whole("the sample size", k)
        rng = graphsample.generator(seed, rng)
        if given is None and forbid is None and weights is None:
            if k and not self.count:
                raise ValueError("the problem has no solution to sample")
            return self._uniform(k, rng)
        descent = graphsample.Descent(
            self, graphsample.option_weights(self.problem, weights, given, forbid)
        )
        if k and not descent.total:
            raise ValueError("no solution has a weight above 0 under these conditions")
        problem = self.problem
        return (Solution(descent.draw(rng), problem) for _ in range(k))

    def _uniform(self, k: int, rng):
        """``k`` uniform draws, unranked a batch at a time (growing to ``BATCH``)."""
        done, batch = 0, 16
        while done < k:
            size = min(batch, k - done)
            yield from self._unrank_many(
                [graphsample.randbelow(rng, self.count) for _ in range(size)]
            )
            done += size
            batch = min(2 * batch, BATCH)

    def solutions(self):
        """Every solution, in rank order (a generator)."""
        for start in range(0, self.count, BATCH):
            yield from self._unrank_many(range(start, min(start + BATCH, self.count)))

    def rank(self, solution, order: str = "rank") -> int:
        """The rank of ``solution`` (a ``Solution`` or option indices, in any order);
        ValueError, naming the item at fault (``dlx.check``'s reason), when it is not a
        solution; TypeError for what is not option indices (floats, strings, bytes).
        ``order="cost"``: its place in order of cost (the inverse of
        ``unrank(i, order="cost")``)."""
        self._order(order)
        options = getattr(solution, "options", solution)
        if isinstance(options, (str, bytes, bytearray)):
            raise TypeError(f"a solution is a set of option indices, not {solution!r}")
        try:
            chosen = [whole("an option of the solution", k) for k in options]
        except TypeError:
            raise TypeError(f"a solution is a set of option indices, not {solution!r}") from None
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
                raise ValueError(f"not a solution of the graph: {sorted(chosen)}")
            left.discard(int(self.edge_option[e]))
            node = int(self.edge_child[e])
        return rank if order == "rank" else self._cost_order().rank(chosen)

    # -- weights (``dlx/solution_graph/weights.py``) ---------------------------------------------

    def generating_function(self, weight=None) -> dict[int, int]:
        """The number of solutions of each weight, ``{weight: count}`` by increasing
        weight: by size (``weight=None``), by cost (``"cost"``), or by any integer per
        option (a sequence); exact integers.

        >>> from dlx import Problem
        >>> p = Problem(primary=["a", "b"])
        >>> for option, cost in ((["a"], 1), (["b"], 1), (["a", "b"], 5)):
        ...     _ = p.add_option(option, cost=cost)
        >>> g = graph(p)
        >>> g.generating_function(), g.generating_function("cost")
        ({1: 1, 2: 1}, {2: 1, 5: 1})
        """
        return graphweights.generating_function(self, weight)

    def option_counts(self) -> list[int]:
        """How many solutions hold each option (a list, one int per option).

        >>> from dlx import Problem
        >>> p = Problem(primary=["a", "b"])
        >>> for option in (["a"], ["b"], ["a", "b"]):
        ...     _ = p.add_option(option)
        >>> graph(p).option_counts()
        [1, 1, 1]
        """
        return graphweights.option_counts(self, self._counts())

    def min_cost(self, weight="cost") -> int:
        """The least cost of a solution (``weight`` as for ``generating_function``);
        ValueError when there is no solution."""
        return graphweights.min_weight(self, weight)

    def k_lightest(self, k: int, weight="cost") -> list[tuple[int, Solution]]:
        """The ``k`` cheapest solutions (all when fewer) as ``(cost, solution)``, by
        increasing cost, ties in rank order (``weight`` as for
        ``generating_function``, the costs by default).

        >>> from dlx import Problem
        >>> p = Problem(primary=["a", "b"])
        >>> for option, cost in ((["a"], 1), (["b"], 1), (["a", "b"], 5)):
        ...     _ = p.add_option(option, cost=cost)
        >>> [(c, s.options) for c, s in graph(p).k_lightest(5)]
        [(2, (0, 1)), (5, (2,))]
        """
        return graphweights.k_lightest(self, k, weight)

    # -- Knuth's ZDD format (``dlx/solution_graph/zdd.py``) ---------------------------------------

    def write_zdd(self, path) -> None:
        """Write the graph as a ZDD in the text format of Knuth's DLX6 (its ``m``
        option), which his ZDDREAD programs read and ``read_zdd`` reads back: a line
        ``x: (~v?lo:hi)`` per edge (hexadecimal node numbers, ``v`` the option's number
        from 1, the nodes 0 and 1 the sinks), the edges of a node chained by ``lo`` from
        its last to its first, and last a dummy root ``(~0?0:r)``."""
        with Watched(open(path, "w"), path) as out:
            for line in self.zdd_lines():
                out.write(line)

    def zdd_lines(self):
        """The lines of ``write_zdd``, in chunks (strings of many lines)."""
        return graphzdd.zdd_lines(self)


def read_zdd(path, problem: Problem) -> Graph:
    """The solution graph of ``problem`` read from a ZDD in DLX6's text format (what
    ``Graph.write_zdd`` or DLX6's ``m`` option writes); ProblemError, naming the line or
    node at fault, for what is not a ZDD or holds a set that is not a solution.

    >>> import os, tempfile
    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for option in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(option)
    >>> path = os.path.join(tempfile.mkdtemp(), "p.zdd")
    >>> graph(p).write_zdd(path)
    >>> read_zdd(path, p).count
    2
    """
    if not isinstance(problem, Problem):
        raise TypeError(f"problem must be a dlx.Problem, not {problem!r:.60}")
    started = time.perf_counter()
    where = str(path)
    with open(path) as text:
        nodes, root = graphzdd.parse(text, problem.n_options, where)
    counts, node_edge, edge_child, edge_option, root = graphzdd.arrays(nodes, root, where)
    graphzdd.check_paths(problem, node_edge, edge_child, edge_option, root, where)
    limbs = max(1, (max(counts).bit_length() + 63) // 64)
    node_count = np.array(
        [[(c >> (64 * k)) & _LIMB for k in range(limbs)] for c in counts], np.uint64
    ).reshape(-1, limbs)
    arrays = (node_count, np.array(node_edge, np.int64), np.array(edge_child, np.int32),
              np.array(edge_option, np.int32), root)  # fmt: skip
    nbytes = sum(a.nbytes for a in arrays[:4])
    stats = GraphStats(len(counts), len(edge_child), 0, nbytes, nbytes,
                       time.perf_counter() - started)  # fmt: skip
    return Graph(problem, arrays, stats)
