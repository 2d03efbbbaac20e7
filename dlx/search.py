"""The dancing-links kernel's search class, and the ways to consume a search.

``Search`` is the ``dlx.driver.Driver`` of ``dlx/kernel.py``: each search works on
its own copy of the problem's arrays (``dlx.layout``). ``count_search`` and
``SolutionStream`` run any kernel's search to its end or a limit, with the progress
bar (``Progress``) and Ctrl-C; ``batch`` runs many small searches in one kernel call.
The kernel (and numba) is imported at the first search, not with this module.

``dlx.api`` builds ``count`` and ``solutions`` on these; another kernel plugs in
through ``dlx.engines`` with its own subclass of ``Driver``.
"""

from __future__ import annotations

import _thread
import time
import weakref
from dataclasses import dataclass, field

import numpy as np

from dlx import compiling, layout
from dlx.codes import LEAF, PAUSED, SOLUTION
from dlx.driver import Driver, Stats, forced_nodes, tiny_problem
from dlx.errors import ProblemError
from dlx.problem import Problem
from dlx.stopping import Interrupted
from dlx.words import plural


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
        details=None,
    ):
        self = super().__new__(cls, solutions)
        self.complete = bool(complete)
        self.stats = stats if stats is not None else Stats(solutions)
        self.stopped_by = stopped_by
        self.resumed = resumed  # tasks a checkpoint held
        self.tasks = tasks  # tasks of a parallel count
        # a parallel count's ``dlx.parallel.ParallelRun`` (its split and each task's
        # result, for benchmarks); not pickled with the count
        self.details = details
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
        at_least = plural(int(self), "solution")
        return f"at least {at_least} (search incomplete: {self.stopped_by})"


@dataclass(frozen=True)
class Solution:
    """A solution: the chosen options, by index, in the order the search chose them.

    ``print`` shows each option's items (after its name, if it has one), a line each.

    >>> from dlx import Problem, first
    >>> p = Problem(primary=["a", "b"])
    >>> _ = p.add_option(["a", "b"], name="both")
    >>> s = first(p)
    >>> s
    Solution(options=(0,))
    >>> print(s)
    both: a b
    """

    options: tuple[int, ...]
    problem: Problem = field(repr=False, compare=False)

    def __str__(self) -> str:
        rows = (" ".join(row) for row in self.rows)
        named = zip(self.names, rows, strict=True)
        return "\n".join(r if n is None else f"{n}: {r}" for n, r in named)

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
    ``sum_l k_l / (d_1 ... d_l)``: it only grows, and reaches 1 at the end. Where
    standard error is not a terminal (a log file), the bar is redrawn at most once every
    ``LOG_SECONDS``, or every ``DLX_PROGRESS_SECONDS`` seconds where that environment
    variable is set (0: at every pause).
    """

    LOG_SECONDS = 5.0

    def __init__(self, enabled: bool, desc: str = "search", initial: float = 0.0):
        """``initial``: the fraction done before this run (resumed from a checkpoint),
        left out of the rate, so the time left is that of this run's speed."""
        self.bar = None
        self.drawn = time.monotonic()
        if enabled:
            import os
            import sys

            from tqdm.auto import tqdm

            logged = float(os.environ.get("DLX_PROGRESS_SECONDS", self.LOG_SECONDS))
            self.interval = 0.0 if sys.stderr.isatty() else logged
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
            if time.monotonic() - self.drawn >= self.interval:
                self.drawn = time.monotonic()
                self.bar.refresh()

    def close(self, fraction: float | None, solutions: int) -> None:
        """Close the bar, showing the final count (and 100% if the search finished)."""
        if self.bar is not None:
            if fraction is not None:
                self.bar.n = fraction
            self.bar.set_postfix_str(f"{solutions} solutions", refresh=False)
            self.bar.refresh()
            self.bar.close()


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

    @property
    def table_bytes(self) -> int:
        """The table's size in bytes (keys and counts)."""
        return self.keys.nbytes + self.counts.nbytes

    @property
    def max_bytes(self) -> int:
        """What the table may grow to: it never grows (a wider one keeps ``nbytes``)."""
        return self.table_bytes

    def limit(self, nbytes: int) -> None:
        """Grow to no more than ``nbytes``: this table never grows."""


_NO_MEMO = (np.zeros((0, 1), np.uint64), np.zeros((0, 2), np.uint64))
NO_LIMIT = 1 << 62  # max_solutions of a kernel call without a solution limit


class Search(Driver):
    """One search of a problem by the dancing-links kernel, resumable; ``solutions``
    and ``count`` are built on it (parameters: see ``dlx.driver.Driver``; ``memo``: a
    ``Memo`` of this problem)."""

    kind = "search"
    kernel_module = "dlx.kernel"
    prefix_dtype = np.int32

    # -- the hooks of ``Driver`` ----------------------------------------------------------

    def _prepare(self, forced: list[int]) -> None:
        """The problem's arrays, and one node of each forced option."""
        self._arrays = self.problem.arrays()
        self.forced = forced_nodes(self.problem, forced, [0, len(forced)])

    def _memo_fits(self, memo) -> bool:
        return memo.arrays is self._arrays

    def _new_state(self, limbs: int) -> None:
        """The arrays of a search from the start (counting with the memo's limbs)."""
        arrays = self._arrays
        words = 1
        if self.memo is not None:
            while self.memo.limbs < limbs:  # a count outgrew the memo's: a wider one
                self.memo = self.memo.wider()
            words, limbs = self.memo.words, self.memo.limbs
        self.state = layout.new_state(
            arrays, arrays.max_level + self.n_fixed, words, limbs, self.problem.propagate
        )
        self.loop = layout.new_loop_state(arrays)
        # int64[3]: solutions, nodes and updates so far (a view of the kernel's)
        self.kernel_stats = self.state.progress[layout.SOLUTIONS : layout.UPDATES + 1]

    def _call(self, budget: int, stream: bool, max_solutions: int | None) -> int:
        memo = _NO_MEMO if self.memo is None else (self.memo.keys, self.memo.counts)
        limit = NO_LIMIT if max_solutions is None else max_solutions
        return self.kernel().search(
            self.state, self.loop, self.forced, self.prefix, *memo, self.split_depth,
            budget, limit, stream,
        )  # fmt: skip

    def _layout_bytes(self) -> int:
        return layout.array_bytes(self._arrays)

    def _search_bytes(self, limbs: int) -> int:
        words = 1 if self.memo is None else self.memo.words
        max_level = self._arrays.max_level + self.n_fixed
        on = self.problem.propagate == "domination"
        return layout.state_bytes(self._arrays, max_level, words, limbs, on)

    def _state_bytes(self) -> int:
        loop = 0  # the loop's incidence list is the layout's, not copied
        if self.loop is not None:
            loop = layout.array_bytes(self.loop) - self.loop.incident.nbytes
        return layout.array_bytes(self.state) + loop

    def _branches(self) -> tuple[np.ndarray, np.ndarray]:
        data = self.state.level_data
        return data[:, layout.BRANCH_INDEX], data[:, layout.BRANCH_DEGREE]

    def _variant(self) -> bool:
        return self._arrays.loop_edge is not None

    @classmethod
    def warm_up_every(cls) -> None:
        """Compile (or load) every kind of this kernel: plain, with loop items, batches."""
        for loop in (False, True):
            cls.warm_up(loop)
            _warm_up_batch(loop)

    @property
    def level(self) -> int:
        """The current depth of the search."""
        return int(self.state.progress[layout.LEVEL])

    @property
    def solutions(self) -> int:
        """The solutions so far, exact (those met one by one and those the memo added)."""
        return int(self.state.progress[layout.SOLUTIONS]) + layout.limbs_value(self.state.extra)

    @property
    def limbs(self) -> int:
        """The words of a count the memo adds."""
        return len(self.state.extra)

    def current_options(self) -> tuple[int, ...]:
        """The options chosen at levels 0..level-1 (null choices left out)."""
        nodes = self.state.level_data[: self.level, layout.CHOICE]
        options = self._arrays.option_of_node[nodes]
        return tuple(int(k) for k in options if k >= 0)

    def sanity(self) -> None:
        """Check every link and length of the search's arrays (Knuth's sanity(), in
        the kernel); raise AssertionError naming the fault. For tests, at any pause."""
        fault, where = self.kernel().sanity(self.state.node, self.state.item, self.state.second)
        if fault != 0:
            raise AssertionError(f"links broken: fault {fault} at item {where}")

    # -- what tests read ------------------------------------------------------------------

    @property
    def node(self) -> np.ndarray:
        """The search's node links (``dlx.layout``), as the kernel left them."""
        return self.state.node

    @property
    def item(self) -> np.ndarray:
        """The search's item links, as the kernel left them."""
        return self.state.item


def _warm_up_batch(loop: bool) -> None:
    """Make sure ``kernel.search_batch`` is compiled before a batch starts timing."""
    compiling.warm(
        "batch", Search.kernel().search_batch, loop, lambda: batch(tiny_problem(loop), [[]])
    )


compiling.register(Search.warm_up_every)


def found_so_far(search) -> int:
    """The solutions a search (of any engine) has found so far, exact."""
    return int(search.solutions)


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
        try:
            self.close()
        except KeyboardInterrupt:  # Python drops what __del__ raises: raise it again after
            _thread.interrupt_main()


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


def flat_sets(forced_sets, start=None) -> tuple[np.ndarray, np.ndarray]:
    """A batch's forced sets as (options, start): set ``k`` is
    ``options[start[k]:start[k + 1]]`` (``forced_sets`` a list of option lists, or
    already flat with its ``start``)."""
    if start is None:
        sets = [np.asarray(list(f), dtype=np.int64) for f in forced_sets]
        start = np.zeros(len(sets) + 1, dtype=np.int64)
        np.cumsum([len(f) for f in sets], out=start[1:])
        options = np.concatenate(sets) if sets else np.zeros(0, np.int64)
        return options, start
    return np.asarray(forced_sets, dtype=np.int64).ravel(), np.asarray(start, dtype=np.int64)


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
    options, start = flat_sets(forced_sets, start)
    nodes = forced_nodes(problem, options, start)
    n_sets = len(start) - 1
    max_forced = int(np.diff(start).max()) if n_sets else 0
    depth = arrays.max_level if depth is None else max(int(depth), 1)
    counts = np.zeros(n_sets, dtype=np.int64)
    first_nodes = np.zeros((n_sets, depth + 1), dtype=np.int32)  # a last column to see overflow
    stats = np.zeros((n_sets, 3), dtype=np.int64)
    _warm_up_batch(arrays.loop_edge is not None)
    if propagate is not None:
        problem = problem.with_propagation(propagate)
    state = layout.new_state(arrays, arrays.max_level + max_forced, 1, 1, problem.propagate)
    t0 = time.perf_counter()
    Search.kernel().search_batch(
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
