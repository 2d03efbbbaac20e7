"""The resumable search of the dancing-links kernel: the Python loop around it.

Each search works on its own copy of the problem's arrays and calls the kernel with a
budget of nodes sized so that one call lasts about a tenth of a second. Between calls
the caller updates the progress bar, checks the node and time limits, and lets Ctrl-C
through (a KeyboardInterrupt leaves the problem untouched). The kernel (and numba) is
imported at the first call, not with this module.

``dlx.api`` builds ``count`` and ``solutions`` on ``Search``; another kernel plugs in
through ``dlx.engines`` with a class of the same shape.
"""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass, field

import numpy as np

from dlx import compiling, layout
from dlx.errors import ProblemError
from dlx.layout import DONE, LEAF, LIMIT, NO_SPLIT, OVERFLOW, PAUSED, SOLUTION
from dlx.problem import Problem
from dlx.stopping import Interrupted

CALL_SECONDS = 0.1  # target duration of one kernel call
FIRST_BUDGET = 20_000  # nodes in the first call, before the speed is known
MIN_BUDGET = 1000  # nodes per call, at least, once the speed is known
MAX_BUDGET = 1 << 40
NO_LIMIT = 1 << 62  # max_solutions of a search without a solution limit


def _kernel():
    """The numba kernel, imported (and compiled or loaded from numba's cache) on first use."""
    from dlx import kernel

    return kernel


@dataclass
class Stats:
    """Search statistics: solutions found, nodes entered, link updates, seconds, and the
    kernel that ran with why (``engine``, set by ``count`` and ``solutions``)."""

    solutions: int = 0
    nodes: int = 0
    updates: int = 0
    seconds: float = 0.0
    engine: str = ""

    def __str__(self) -> str:
        rate = self.nodes / self.seconds if self.seconds > 0 else 0.0
        return (
            f"{self.solutions} solutions, {self.nodes} nodes, {self.updates} updates, "
            f"{self.seconds:.3f} s ({rate / 1e6:.2f} M nodes/s)"
        )


class Count(int):
    """The result of ``count``: an int (the solutions found) that also says whether the
    search finished (``complete``) and, if not, what stopped it (``stopped_by``).

    It compares, orders, hashes, adds and formats as its number does; an incomplete
    count (stopped by a limit) is "at least" that many, which ``str`` says.

    >>> from dlx import Problem, count
    >>> p = Problem(primary=["a"])
    >>> for _ in range(3):
    ...     _ = p.add_option(["a"])
    >>> c = count(p)
    >>> c == 3, c + 1, f"{c:>3}", c.complete
    (True, 4, '  3', True)
    >>> print(count(p, limit=2))
    at least 2 solutions (search incomplete: solution limit 2)
    """

    def __new__(
        cls,
        solutions: int,
        complete: bool,
        stats: Stats | None = None,
        stopped_by: str | None = None,
        resumed: int | None = None,
        tasks: int | None = None,
    ):
        self = super().__new__(cls, solutions)
        self.complete = bool(complete)
        self.stats = stats if stats is not None else Stats(solutions)
        self.stopped_by = stopped_by
        self.resumed = resumed  # tasks a checkpoint held
        self.tasks = tasks  # tasks of a parallel count
        return self

    @property
    def solutions(self) -> int:
        """The number of solutions found (all of them when ``complete``)."""
        return int(self)

    def __reduce__(self):
        fields = (int(self), self.complete, self.stats, self.stopped_by, self.resumed, self.tasks)
        return (Count, fields)

    def __repr__(self) -> str:
        extra = "" if self.complete else f", stopped_by={self.stopped_by!r}"
        return f"Count({int(self)}, complete={self.complete}{extra})"

    def __str__(self) -> str:
        if self.complete:
            return str(int(self))
        return f"at least {int(self)} solutions (search incomplete: {self.stopped_by})"


@dataclass(frozen=True)
class Solution:
    """A solution: the chosen options, by index, in the order the search chose them."""

    options: tuple[int, ...]
    problem: Problem = field(repr=False, compare=False)

    @property
    def names(self) -> list[str | None]:
        """The options' names (None where an option has none)."""
        return [self.problem.option_name(k) for k in self.options]

    @property
    def rows(self) -> list[list[str]]:
        """The options as lists of item names."""
        return [self.problem.option(k) for k in self.options]


class Progress:
    """Knuth's estimate of the fraction of the tree done, shown with tqdm on stderr.

    If the choice at level l is branch k_l (from 0) of d_l, the fraction done is
    ``sum_l k_l / (d_1 ... d_l)``: it only grows, and reaches 1 at the end.
    """

    def __init__(self, enabled: bool, desc: str = "search", initial: float = 0.0):
        """``initial``: the fraction done before this run (resumed from a checkpoint),
        left out of the rate, so the time left is that of this run's speed."""
        self.bar = None
        if enabled:
            from tqdm.auto import tqdm

            self.bar = tqdm(
                total=1.0,
                initial=initial,
                desc=desc,
                bar_format="{desc}: {percentage:5.1f}%|{bar}| {elapsed}<{remaining} {postfix}",
                smoothing=0.05,
            )

    def update(self, fraction: float, solutions: int) -> None:
        """Show the fraction done and the solutions so far."""
        if self.bar is not None:
            self.bar.n = min(max(fraction, self.bar.n), 1.0)
            self.bar.set_postfix_str(f"{solutions} solutions", refresh=False)
            self.bar.refresh()

    def close(self, fraction: float | None, solutions: int) -> None:
        """Close the bar, showing the final count (and 100% if the search finished)."""
        if self.bar is not None:
            if fraction is not None:
                self.bar.n = fraction
            self.bar.set_postfix_str(f"{solutions} solutions", refresh=False)
            self.bar.refresh()
            self.bar.close()


def tree_fraction(branch_index, branch_degree, start: int, stop: int) -> float:
    """Knuth's estimate of the fraction done, from levels ``start..stop-1``."""
    fraction = 0.0
    scale = 1.0
    for level in range(start, stop):
        d = max(int(branch_degree[level]), 1)
        k = min(int(branch_index[level]), d - 1)
        scale /= d
        fraction += k * scale
    return fraction + 0.5 * scale if stop > start else fraction


def _option_indices(argument: str, options) -> list[int]:
    """``options`` as a list of option indices (ProblemError naming ``argument``)."""
    if isinstance(options, (str, bytes)) or not hasattr(options, "__iter__"):
        raise ProblemError(f"{argument} must be a list of option indices, not {options!r}")
    indices = []
    for k in options:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise ProblemError(
                f"{argument} must be a list of option indices (ints, as add_option returns), "
                f"not one holding {k!r}"
            )
        indices.append(int(k))
    return indices


def forced_nodes(problem: Problem, options, start) -> np.ndarray:
    """Check sets of forced options (``dlx.layout.forced_nodes``); one node of each."""
    return layout.forced_nodes(
        problem.arrays(), options, start, lambda: problem.primary + problem.secondary
    )


class Memo:
    """A table of subtree counts for full counts of one problem (see "Memo" in
    ``dlx/kernel.py``); the searches of one problem's subproblems may share it.

    Only for problems without colours, multiplicities or loop items, whose residual
    problem is a function of the items covered: ``Memo.of(problem)`` is None otherwise.
    """

    def __init__(self, arrays, nbytes: int = layout.MEMO_BYTES, limbs: int = 1):
        self.arrays = arrays  # the problem's arrays as compiled: a memo fits no other
        self.nbytes = nbytes
        self.limbs = limbs  # 64-bit limbs per count (see "Counts of any size" in the kernel)
        slots, self.words = layout.memo_shape(arrays, nbytes, limbs)
        self.keys = np.zeros((slots, self.words), np.uint64)
        self.counts = np.zeros((slots, limbs + 1), np.uint64)  # a full-slot flag, the count

    @classmethod
    def of(cls, problem: Problem, nbytes: int = layout.MEMO_BYTES) -> Memo | None:
        """A fresh memo for ``problem``, or None where a memo would not be exact."""
        arrays = problem.arrays()
        return cls(arrays, nbytes) if layout.memo_allowed(arrays) else None

    def wider(self) -> Memo:
        """A fresh, empty memo of the same problem with twice the limbs per count."""
        return Memo(self.arrays, self.nbytes, 2 * self.limbs)


_NO_MEMO = (np.zeros((0, 1), np.uint64), np.zeros((0, 2), np.uint64))


def next_budget(search, solutions: int, max_solutions: int | None) -> int | None:
    """The node budget of ``search``'s next kernel call, or None (``stopped_by`` set)
    when its node, time or solution limit says stop; shared by every engine's search."""
    budget = search._budget
    if search.node_limit is not None:
        left = search.node_limit - int(search.kernel_stats[1])
        if left <= 0:
            search.stopped_by = f"node limit {search.node_limit}"
            return None
        budget = min(budget, left)
    if search.time_limit is not None and time.perf_counter() - search.started >= search.time_limit:
        search.stopped_by = f"time limit {search.time_limit} s"
        return None
    if max_solutions is not None and solutions >= max_solutions:
        search.stopped_by = f"solution limit {max_solutions}"
        return None
    return budget


def adapt_budget(search, done_nodes: int, seconds: float) -> None:
    """Set the next budget to about ``CALL_SECONDS`` of work at the speed just measured
    (unless the search was given a fixed budget)."""
    if search.fixed_budget is None and seconds > 0 and done_nodes > 0:
        rate = done_nodes / seconds
        search._budget = int(min(max(rate * CALL_SECONDS, MIN_BUDGET), MAX_BUDGET))


class Search:
    """One search of a problem, resumable; ``solutions`` and ``count`` are built on it.

    Parameters
    ----------
    problem : Problem
    forced : option indices that every solution must contain (each must have a
        primary item with bounds 1:1); they are part of the solutions reported.
    prefix : branch numbers to follow at the first levels (a subproblem of a split).
    split_depth : stop at this depth and report leaves (see ``dlx.split``).
    node_limit, time_limit : stop early (the result then says it is incomplete); the
        time limit is wall time from the search's creation (the call of ``count`` or
        ``solutions``), checked between kernel calls (a tenth of a second each).
    progress : show a tqdm progress bar on stderr.
    memo : a ``Memo`` of this problem, used by full counts only (``run`` with
        ``stream=False`` and no ``max_solutions``, no ``split_depth``): a subtree whose
        covered items were met before adds its count without being searched again.
    budget : nodes per kernel call (None: about ``CALL_SECONDS`` of work, adapted to the
        measured speed); a small budget makes many pauses (tests use it).
    """

    def __init__(
        self,
        problem: Problem,
        *,
        forced=(),
        prefix=(),
        split_depth: int | None = None,
        node_limit: int | None = None,
        time_limit: float | None = None,
        progress: bool = False,
        desc: str = "search",
        memo: Memo | None = None,
        budget: int | None = None,
    ):
        self.problem = problem
        arrays = problem.arrays()
        self._arrays = arrays
        forced = _option_indices("forced", forced)
        self.forced = forced_nodes(problem, forced, [0, len(forced)])
        self.prefix = np.asarray(list(prefix), dtype=np.int32)
        if self.prefix.size and self.prefix.min() < 0:
            raise ProblemError("a subproblem's branch numbers must be >= 0")
        self.n_fixed = len(self.forced) + len(self.prefix)
        if memo is not None and memo.arrays is not arrays:
            raise ProblemError("this memo was made for another problem (or before a change)")
        self.memo = memo
        self._fresh_state()
        compiling.warm_up(arrays.loop_edge is not None)  # before any clock starts
        self.split_depth = NO_SPLIT if split_depth is None else int(split_depth)
        if split_depth is not None and self.split_depth < self.n_fixed:
            raise ProblemError(f"split depth {split_depth} is above the fixed levels")
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.progress_enabled = progress
        self.desc = desc
        self.seconds = 0.0  # in the kernel
        self.started = time.perf_counter()  # the time limit is wall time from here
        self.done = False
        self.stopped_by: str | None = None
        self.fixed_budget = None if budget is None else max(int(budget), 1)
        self._budget = FIRST_BUDGET if budget is None else self.fixed_budget

    def _fresh_state(self) -> None:
        """The arrays of a search from the start (counting with the memo's limbs)."""
        arrays = self._arrays
        words, limbs = (1, 1) if self.memo is None else (self.memo.words, self.memo.limbs)
        self.state = layout.new_state(
            arrays, arrays.max_level + self.n_fixed, words, limbs, self.problem.propagate
        )
        self.loop = layout.new_loop_state(arrays)

    @staticmethod
    def cache_misses() -> int:
        """How many times this process looked for the kernel in numba's cache and missed."""
        return sum(_kernel().search.stats.cache_misses.values())

    @property
    def node(self) -> np.ndarray:
        """The search's node links (``dlx.layout``), as the kernel left them."""
        return self.state.node

    @property
    def item(self) -> np.ndarray:
        """The search's item links, as the kernel left them."""
        return self.state.item

    @property
    def kernel_stats(self) -> np.ndarray:
        """int64[3]: solutions, nodes and updates so far (a view of the kernel's)."""
        return self.state.progress[layout.SOLUTIONS : layout.UPDATES + 1]

    @property
    def solutions(self) -> int:
        """The solutions so far, exact (those met one by one and those the memo added)."""
        return int(self.state.progress[layout.SOLUTIONS]) + layout.limbs_value(self.state.extra)

    @property
    def stats(self) -> Stats:
        """Statistics so far (after a restart with wider counts, of the last attempt)."""
        _, n, u = (int(v) for v in self.kernel_stats)
        return Stats(self.solutions, n, u, self.seconds)

    @property
    def level(self) -> int:
        """The current depth of the search."""
        return int(self.state.progress[layout.LEVEL])

    def _column(self, field: int) -> np.ndarray:
        """One column of the per-level array, levels ``0..level-1``."""
        return self.state.level_data[: self.level, field]

    def fraction(self) -> float:
        """Estimated fraction of this search's tree done so far."""
        if self.done:
            return 1.0
        data = self.state.level_data
        index, degree = data[:, layout.BRANCH_INDEX], data[:, layout.BRANCH_DEGREE]
        return tree_fraction(index, degree, self.n_fixed, self.level)

    def path(self) -> list[int]:
        """Branch numbers from the first free level to the current one."""
        return [int(k) for k in self._column(layout.BRANCH_INDEX)[len(self.forced) :]]

    def path_weight(self) -> float:
        """The share of the whole tree below the current node (1 / product of degrees)."""
        weight = 1.0
        for d in self._column(layout.BRANCH_DEGREE)[len(self.forced) :]:
            weight /= max(int(d), 1)
        return weight

    def sanity(self) -> None:
        """Check every link and length of the search's arrays (Knuth's sanity(), in
        the kernel); raise AssertionError naming the fault. For tests, at any pause."""
        fault, where = _kernel().sanity(self.state.node, self.state.item, self.state.second)
        if fault != 0:
            raise AssertionError(f"links broken: fault {fault} at item {where}")

    def current_options(self) -> tuple[int, ...]:
        """The options chosen at levels 0..level-1 (null choices left out)."""
        nodes = self._column(layout.CHOICE)
        options = self._arrays.option_of_node[nodes]
        return tuple(int(k) for k in options if k >= 0)

    def run(self, stream: bool = False, max_solutions: int | None = None) -> int:
        """Run until a stopping event; return the kernel's code (DONE, SOLUTION,
        PAUSED, LEAF, or LIMIT for a node, time or solution limit)."""
        if self.done:
            return DONE
        max_solutions = NO_LIMIT if max_solutions is None else int(max_solutions)
        budget = next_budget(self, int(self.kernel_stats[0]), max_solutions)
        if budget is None:
            return LIMIT
        if self.memo is not None and (
            stream or max_solutions < NO_LIMIT or self.split_depth != NO_SPLIT
        ):
            self.memo = None  # the memo holds full counts only; off for good
        memo = _NO_MEMO if self.memo is None else (self.memo.keys, self.memo.counts)
        kernel = _kernel()
        t0 = time.perf_counter()
        nodes_before = int(self.kernel_stats[1])
        code = kernel.search(
            self.state, self.loop, self.forced, self.prefix, *memo, self.split_depth,
            budget, max_solutions, stream,
        )  # fmt: skip
        dt = time.perf_counter() - t0
        self.seconds += dt
        if code == PAUSED:
            adapt_budget(self, int(self.kernel_stats[1]) - nodes_before, dt)
        elif code == LIMIT:
            self.stopped_by = f"solution limit {max_solutions}"
        elif code == DONE:
            self.done = True
        elif code == OVERFLOW:
            # a count outgrew its limbs: start again with twice as many (only full counts
            # with a memo add counts big enough)
            self.memo = self.memo.wider()
            self._fresh_state()
            return PAUSED
        return code


def found_so_far(search) -> int:
    """The solutions a search (of any engine) has found so far, exact: its
    ``solutions`` if it has one, else its statistics'."""
    solutions = getattr(search, "solutions", None)
    return int(solutions) if solutions is not None else search.stats.solutions


def _finish_progress(progress: Progress, search) -> None:
    """Close a progress bar at the search's final fraction and count."""
    progress.close(1.0 if search.done else None, found_so_far(search))


def count_search(search, limit: int | None, progress: bool) -> Count:
    """Run a search (``Search`` or another engine's) to its end or a limit, counting."""
    progress_bar = Progress(progress, "count")
    try:
        while True:
            code = search.run(stream=False, max_solutions=limit)
            if code != PAUSED:
                break
            progress_bar.update(search.fraction(), found_so_far(search))
    except KeyboardInterrupt:
        raise Interrupted(found_so_far(search)) from None
    finally:
        _finish_progress(progress_bar, search)
    stats = search.stats
    return Count(stats.solutions, search.done, stats, search.stopped_by)


class GeneratorStream:
    """An iterator over the solutions that ``self._run()`` yields; ``close`` stops it."""

    def _run(self):
        raise NotImplementedError

    def __iter__(self):
        return self

    def __next__(self) -> Solution:
        if not hasattr(self, "_generator"):
            # the generator sees the stream through a weak proxy: no reference cycle, so
            # a stream dropped unfinished is closed at once (stopping a parallel one's
            # workers), not whenever the cyclic garbage collector runs
            self._generator = type(self)._run(weakref.proxy(self))
        return next(self._generator)

    def close(self) -> None:
        """Stop the search early (and the workers of a parallel one)."""
        if hasattr(self, "_generator"):
            self._generator.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


class SolutionStream(GeneratorStream):
    """An iterator over solutions; ``.stats``, ``.complete`` and ``.stopped_by`` tell
    how the search went once it stops."""

    def __init__(self, search, limit: int | None, engine: str = ""):
        self._search = search
        self._limit = limit
        self._found = 0
        self.engine = engine  # the kernel and why (``Stats.engine``)

    @property
    def stats(self) -> Stats:
        """Statistics so far."""
        stats = self._search.stats
        stats.engine = self.engine
        return stats

    @property
    def complete(self) -> bool:
        """True when the whole tree was searched."""
        return self._search.done

    @property
    def stopped_by(self) -> str | None:
        """The limit that stopped the search, if one did."""
        return self._search.stopped_by

    def _run(self):
        search = self._search
        progress = Progress(search.progress_enabled, search.desc)
        try:
            while True:
                if self._limit is not None and self._found >= self._limit:
                    search.stopped_by = f"solution limit {self._limit}"
                    return
                code = search.run(stream=True)
                if code == SOLUTION:
                    self._found += 1
                    progress.update(search.fraction(), self._found)
                    yield Solution(search.current_options(), search.problem)
                elif code == PAUSED:
                    progress.update(search.fraction(), self._found)
                elif code == LEAF:
                    raise RuntimeError("solutions() does not take a split depth")
                else:
                    return
        finally:
            _finish_progress(progress, search)


@dataclass
class BatchResult:
    """One search per forced set: ``counts[k]`` (capped at the limit); ``chosen[k]``,
    the options the first solution adds to the forced ones (-1 padded, all -1 when
    there is none); ``nodes[k]`` and ``updates[k]`` per search; the kernel's seconds;
    the forced sets, flat: set ``k`` is ``forced_options[forced_start[k]:forced_start[k
    + 1]]``."""

    counts: np.ndarray
    chosen: np.ndarray
    nodes: np.ndarray
    updates: np.ndarray
    seconds: float
    forced_options: np.ndarray = field(repr=False)
    forced_start: np.ndarray = field(repr=False)

    @property
    def forced(self) -> list[np.ndarray]:
        """Each search's forced options."""
        edges = self.forced_start.tolist()
        return [self.forced_options[a:b] for a, b in zip(edges[:-1], edges[1:], strict=True)]

    @property
    def first(self) -> list[tuple[int, ...] | None]:
        """Each search's first solution (forced options first), or None."""
        out: list[tuple[int, ...] | None] = []
        for k, forced in enumerate(self.forced):
            row = self.chosen[k]
            found = self.counts[k] > 0
            out.append(tuple(int(o) for o in (*forced, *row[row >= 0])) if found else None)
        return out


def batch(problem: Problem, forced_sets, limit: int = 2, *, start=None, depth=None, propagate=None):
    """Search ``problem`` once per set of forced options, all in one kernel call.

    Meant for many small searches on one problem (e.g. sudoku givens): the problem is
    laid out once and each search forces its own options. Counts stop at ``limit``.
    ``forced_sets`` is a list of option lists, or a flat array of options with
    ``start`` offsets (set ``k`` is ``forced_sets[start[k]:start[k+1]]``); ``depth``
    bounds the options a solution adds beyond the forced ones (default: the problem's
    level bound); ``propagate`` as for ``count``.

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for option in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(option)
    >>> result = batch(p, [[0], [2], []])
    >>> result.counts.tolist(), result.first
    ([1, 1, 2], [(0, 1), (2,), (0, 1)])
    """
    arrays = problem.arrays()
    if start is None:
        sets = [np.asarray(list(f), dtype=np.int64) for f in forced_sets]
        start = np.zeros(len(sets) + 1, dtype=np.int64)
        np.cumsum([len(f) for f in sets], out=start[1:])
        options = np.concatenate(sets) if sets else np.zeros(0, np.int64)
    else:
        options = np.asarray(forced_sets, dtype=np.int64).ravel()
        start = np.asarray(start, dtype=np.int64)
    nodes = forced_nodes(problem, options, start)
    n_sets = len(start) - 1
    max_forced = int(np.diff(start).max()) if n_sets else 0
    depth = arrays.max_level if depth is None else max(int(depth), 1)
    counts = np.zeros(n_sets, dtype=np.int64)
    first_nodes = np.zeros((n_sets, depth + 1), dtype=np.int32)  # a last column to see overflow
    stats = np.zeros((n_sets, 3), dtype=np.int64)
    compiling.warm_up_batch(arrays.loop_edge is not None)
    if propagate is not None:
        problem = problem.with_propagation(propagate)
    state = layout.new_state(arrays, arrays.max_level + max_forced, 1, 1, problem.propagate)
    t0 = time.perf_counter()
    _kernel().search_batch(
        state,
        layout.new_loop_state(arrays),
        nodes,
        start,
        max(int(limit), 1),
        counts,
        first_nodes,
        stats,
    )
    seconds = time.perf_counter() - t0
    if np.any(first_nodes[:, -1] >= 0):
        raise ProblemError(f"depth {depth} is too small for a first solution")
    first_nodes = first_nodes[:, :-1]
    chosen = np.where(first_nodes >= 0, arrays.option_of_node[first_nodes], -1)
    nodes_searched, updates = stats[:, 1].copy(), stats[:, 2].copy()
    return BatchResult(counts, chosen, nodes_searched, updates, seconds, options, start)
