"""Stream, count, and check solutions: the Python loop around the resumable kernel.

Each search works on its own copy of the problem's arrays and calls the kernel with a
budget of nodes sized so that one call lasts about a tenth of a second. Between calls
it updates the progress bar, checks the node and time limits, and lets Ctrl-C through
(a KeyboardInterrupt leaves the problem untouched).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from dlx import compiling, kernel
from dlx.problem import Problem, ProblemError

CALL_SECONDS = 0.1  # target duration of one kernel call
FIRST_BUDGET = 20_000  # nodes in the first call, before the speed is known


@dataclass
class Stats:
    """Search statistics: solutions found, nodes entered, link updates, seconds."""

    solutions: int = 0
    nodes: int = 0
    updates: int = 0
    seconds: float = 0.0

    def __str__(self) -> str:
        rate = self.nodes / self.seconds if self.seconds > 0 else 0.0
        return (
            f"{self.solutions} solutions, {self.nodes} nodes, {self.updates} updates, "
            f"{self.seconds:.3f} s ({rate / 1e6:.2f} M nodes/s)"
        )


@dataclass(frozen=True)
class Count:
    """The result of ``count``: a number of solutions and whether the search finished.

    ``int(c)`` gives the number only when the search was complete; an incomplete one
    (stopped by a limit) says "at least N".
    """

    solutions: int
    complete: bool
    stats: Stats = field(compare=False)
    stopped_by: str | None = None

    def __int__(self) -> int:
        if not self.complete:
            raise ValueError(f"the count is not final: {self}")
        return self.solutions

    def __str__(self) -> str:
        if self.complete:
            return str(self.solutions)
        return f"at least {self.solutions} solutions (search incomplete: {self.stopped_by})"


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

    def __init__(self, enabled: bool, desc: str = "search"):
        self.bar = None
        if enabled:
            from tqdm.auto import tqdm

            self.bar = tqdm(
                total=1.0,
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


def _anchor_nodes(arrays) -> np.ndarray:
    """The first node of each option on a primary item with bounds 1:1 (-1 for none):
    the node through which the kernel forces the option."""
    begin = int(arrays.first_node[0]) if len(arrays.first_node) else arrays.node.shape[1]
    top = arrays.node[kernel.TOP, begin:].astype(np.int64)
    usable = (top > 0) & (top < arrays.second)
    checked = np.where(usable, top, 0)
    usable &= (arrays.item[kernel.BOUND, checked] == 1) & (arrays.item[kernel.SLACK, checked] == 0)
    position = np.where(usable, np.arange(begin, begin + len(top)), np.iinfo(np.int64).max)
    following = np.minimum.accumulate(position[::-1])[::-1]  # the next usable node
    first = arrays.first_node.astype(np.int64)
    spacer = np.append(first[1:] - 1, arrays.node.shape[1])
    anchor = following[first - begin] if len(first) else first
    return np.where(anchor < spacer, anchor, -1)


def _repeated_keys(key: np.ndarray, n_keys: int) -> bool:
    """Whether ``key`` (ints in ``0..n_keys-1``) holds a value twice."""
    if n_keys <= 8 * len(key) + (1 << 20):  # a mark per possible key: no sort
        mark = np.zeros(n_keys, dtype=bool)
        mark[key] = True
        return int(np.count_nonzero(mark)) < len(key)
    ordered = np.sort(key)
    return bool(np.any(ordered[1:] == ordered[:-1]))


def _forced_nodes_flat(problem: Problem, options, start) -> np.ndarray:
    """Check sets of forced options; return one exact-cover node of each option.

    Set ``k`` is ``options[start[k]:start[k + 1]]``. Within a set, no primary item may
    be covered more than its upper bound, and a secondary item used twice must have
    the same colour both times. Each option must have a primary item with bounds 1:1:
    the kernel forces the option through that item. All checks are vectorised; sets
    without a repeated item (the usual case) cost no sort.
    """
    arrays = problem.arrays()
    options = np.asarray(options, dtype=np.int64).ravel()
    start = np.asarray(start, dtype=np.int64)
    n_sets = len(start) - 1
    if n_sets < 0 or start[0] != 0 or start[-1] != len(options) or np.any(np.diff(start) < 0):
        raise ProblemError("forced sets: start must rise from 0 to the number of options")
    bad = (options < 0) | (options >= problem.n_options)
    if bad.any():
        raise ProblemError(f"forced option {int(options[bad][0])} does not exist")
    anchor = _anchor_nodes(arrays)[options]
    if np.any(anchor < 0):
        k = int(options[np.flatnonzero(anchor < 0)[0]])
        raise ProblemError(
            f"forced option {k} has no primary item with bounds 1:1 (cannot force it)"
        )
    first = arrays.first_node.astype(np.int64)
    length = (np.diff(np.append(first, arrays.node.shape[1])) - 1)[options]  # no spacer
    option_set = np.repeat(np.arange(n_sets), np.diff(start))
    # the item of each node of each forced option: a row per option, -1 past its end
    column = np.arange(int(length.max()) if len(options) else 0)
    inside = column < length[:, None]
    item_id = arrays.node[kernel.TOP, np.where(inside, first[options][:, None] + column, 0)]
    stride = arrays.item.shape[1] + 1
    key = option_set[:, None] * stride + item_id  # (set, item): at most once unless bounds
    if _repeated_keys(key.ravel() if inside.all() else key[inside], max(n_sets, 1) * stride):
        _check_repeated_items(problem, options, option_set, length)
    return anchor.astype(np.int32)


def _check_repeated_items(problem: Problem, options, option_set, length) -> None:
    """Raise ProblemError for an item that forced options of one set repeat beyond its
    bounds (primary) or with different colours (secondary)."""
    arrays = problem.arrays()
    entry_set = np.repeat(option_set, length)
    entry_option = np.repeat(options, length)
    offsets = np.arange(length.sum()) - np.repeat(np.cumsum(length) - length, length)
    entry_node = arrays.first_node[entry_option].astype(np.int64) + offsets
    item_id = arrays.node[kernel.TOP, entry_node].astype(np.int64)
    key = entry_set * (arrays.item.shape[1] + 1) + item_id
    colour = arrays.node[kernel.COLOR, entry_node]
    primary = item_id < arrays.second
    bound = arrays.item[kernel.BOUND, np.where(primary, item_id, 0)]
    names = problem.primary + problem.secondary
    order = np.argsort(key, kind="stable")
    groups, group_start, group_count = np.unique(key[order], return_index=True, return_counts=True)
    for g in np.flatnonzero(group_count > 1):
        j = order[group_start[g]]
        name = names[item_id[j] - 1]
        members = order[group_start[g] : group_start[g] + group_count[g]]
        if primary[j]:  # compare its count with the upper bound
            if group_count[g] > bound[j]:
                raise ProblemError(f"forced options cover item {name!r} more than {bound[j]} times")
        elif colour[members].min() <= 0 or colour[members].max() != colour[members].min():
            a, b = (int(entry_option[m]) for m in members[:2])
            raise ProblemError(f"forced options {a} and {b} clash on secondary item {name!r}")


def _forced_nodes(problem: Problem, forced) -> np.ndarray:
    """Check one set of forced options; return one exact-cover node of each."""
    forced = [int(k) for k in forced]
    return _forced_nodes_flat(problem, forced, [0, len(forced)])


def _loop_arrays(arrays) -> tuple:
    """Fresh ``loop_edge, loop_vertex, loop_incident, loop_total`` for one search (empty
    without loop items, so that numba compiles the search without the loop code)."""
    if arrays.loop_edge is None:
        return ()
    loop_vertex = np.zeros((arrays.n_vertices + 1, 4), dtype=np.int32)
    loop_vertex[:, kernel.FIRST_EDGE] = arrays.loop_first_edge
    # counters, then a trail of at most one entry per option and one per secondary item
    trail = len(arrays.first_node) + arrays.item.shape[1]
    loop_total = np.zeros(kernel.LOOP_TRAIL + 1 + trail, dtype=np.int32)
    return arrays.loop_edge.copy(), loop_vertex, arrays.loop_incident, loop_total


MEMO_BYTES = 1 << 23  # the memo table, at most: 32x more saves 0.9% of 8x8's nodes
MEMO_MAX_ITEMS = 4095  # no memo beyond: each child's key (64 words here) is copied, hashed


class Memo:
    """A table of subtree counts for full counts of one problem (see "Memo" in
    ``dlx/kernel.py``); the searches of one problem's subproblems may share it.

    Only for problems without colours, multiplicities or loop items, whose residual
    problem is a function of the items covered: ``Memo.of(problem)`` is None otherwise.
    """

    def __init__(self, arrays, nbytes: int = MEMO_BYTES):
        self.arrays = arrays  # the problem's arrays as compiled: a memo fits no other
        self.words = (arrays.item.shape[1] + 63) // 64
        slots = max(nbytes // (8 * (self.words + 1)), 16)
        slots = 1 << (slots.bit_length() - 1)  # a power of two: the hash is masked
        self.keys = np.zeros((slots, self.words), np.uint64)
        self.counts = np.zeros(slots, np.int64)

    @classmethod
    def of(cls, problem: Problem, nbytes: int = MEMO_BYTES) -> Memo | None:
        """A fresh memo for ``problem``, or None where a memo would not be exact."""
        arrays = problem.arrays()
        if (
            arrays.has_bounds
            or arrays.loop_edge is not None
            or arrays.item.shape[1] > MEMO_MAX_ITEMS + 1
            or np.any(arrays.node[kernel.COLOR] != 0)
        ):
            return None
        return cls(arrays, nbytes)


_NO_MEMO = (np.zeros((0, 1), np.uint64), np.zeros(0, np.int64))


class Search:
    """One search of a problem, resumable; ``solutions`` and ``count`` are built on it.

    Parameters
    ----------
    problem : Problem
    forced : option indices that every solution must contain (each must have a
        primary item with bounds 1:1); they are part of the solutions reported.
    prefix : branch numbers to follow at the first levels (a subproblem of a split).
    split_depth : stop at this depth and report leaves (see ``dlx.parallel``).
    node_limit, time_limit : stop early (the result then says it is incomplete).
    progress : show a tqdm progress bar on stderr.
    memo : a ``Memo`` of this problem, used by full counts only (``run`` with
        ``stream=False`` and no ``max_solutions``, no ``split_depth``): a subtree whose
        covered items were met before adds its count without being searched again.
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
    ):
        self.problem = problem
        arrays = problem.arrays()
        self._arrays = arrays
        self.forced = _forced_nodes(problem, forced)
        self.prefix = np.asarray(list(prefix), dtype=np.int32)
        if self.prefix.size and self.prefix.min() < 0:
            raise ProblemError("a subproblem's branch numbers must be >= 0")
        self.n_fixed = len(self.forced) + len(self.prefix)
        max_level = arrays.max_level + self.n_fixed
        self.node = arrays.node.copy()
        self.item = arrays.item.copy()
        self.loop = _loop_arrays(arrays)
        compiling.warm_up(bool(self.loop))  # before any clock starts
        self.choice = np.zeros(max_level, np.int64)
        self.best = np.zeros(max_level, np.int64)
        self.first_tweak = np.zeros(max_level, np.int64)
        self.branch_index = np.zeros(max_level, np.int64)
        self.branch_degree = np.zeros(max_level, np.int64)
        self.state = np.zeros(2, np.int64)
        self.kernel_stats = np.zeros(3, np.int64)
        if memo is not None and memo.arrays is not arrays:
            raise ProblemError("this memo was made for another problem (or before a change)")
        words = 1 if memo is None else memo.words
        self.memo = memo
        self.level_key = np.zeros((max_level + 1, words), np.uint64)
        self.level_memo = np.zeros((max_level, 2), np.int64)
        self.split_depth = kernel.NO_SPLIT if split_depth is None else int(split_depth)
        if split_depth is not None and self.split_depth < self.n_fixed:
            raise ProblemError(f"split depth {split_depth} is above the fixed levels")
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.progress_enabled = progress
        self.desc = desc
        self.seconds = 0.0
        self.done = False
        self.stopped_by: str | None = None
        self._budget = FIRST_BUDGET

    @property
    def stats(self) -> Stats:
        """Statistics so far."""
        s, n, u = (int(v) for v in self.kernel_stats)
        return Stats(s, n, u, self.seconds)

    @property
    def level(self) -> int:
        """The current depth of the search."""
        return int(self.state[0])

    def fraction(self) -> float:
        """Estimated fraction of this search's tree done so far."""
        if self.done:
            return 1.0
        return tree_fraction(self.branch_index, self.branch_degree, self.n_fixed, self.level)

    def path(self) -> list[int]:
        """Branch numbers from the first free level to the current one."""
        return [int(k) for k in self.branch_index[len(self.forced) : self.level]]

    def path_weight(self) -> float:
        """The share of the whole tree below the current node (1 / product of degrees)."""
        weight = 1.0
        for d in self.branch_degree[len(self.forced) : self.level]:
            weight /= max(int(d), 1)
        return weight

    def current_options(self) -> tuple[int, ...]:
        """The options chosen at levels 0..level-1 (null choices left out)."""
        nodes = self.choice[: self.level]
        options = self._arrays.option_of_node[nodes]
        return tuple(int(k) for k in options if k >= 0)

    def run(self, stream: bool = False, max_solutions: int | None = None) -> int:
        """Run until a stopping event; return the kernel's code (or kernel.LIMIT)."""
        if self.done:
            return kernel.DONE
        max_solutions = (1 << 62) if max_solutions is None else int(max_solutions)
        while True:
            budget = self._budget
            if self.node_limit is not None:
                left = self.node_limit - int(self.kernel_stats[1])
                if left <= 0:
                    self.stopped_by = f"node limit {self.node_limit}"
                    return kernel.LIMIT
                budget = min(budget, left)
            if self.time_limit is not None and self.seconds >= self.time_limit:
                self.stopped_by = f"time limit {self.time_limit} s"
                return kernel.LIMIT
            if int(self.kernel_stats[0]) >= max_solutions:
                self.stopped_by = f"solution limit {max_solutions}"
                return kernel.LIMIT
            if self.memo is not None and (
                stream or max_solutions < (1 << 62) or self.split_depth != kernel.NO_SPLIT
            ):
                self.memo = None  # the memo holds full counts only; off for good
            memo = _NO_MEMO if self.memo is None else (self.memo.keys, self.memo.counts)
            t0 = time.perf_counter()
            nodes_before = int(self.kernel_stats[1])
            code = kernel.search(
                self.node,
                self.item,
                self._arrays.second,
                self._arrays.has_bounds,
                self.choice,
                self.best,
                self.first_tweak,
                self.branch_index,
                self.branch_degree,
                self.state,
                self.kernel_stats,
                self.forced,
                self.prefix,
                self.split_depth,
                budget,
                max_solutions,
                stream,
                *memo,
                self.level_key,
                self.level_memo,
                *self.loop,
            )
            dt = time.perf_counter() - t0
            self.seconds += dt
            if code == kernel.PAUSED:
                done_nodes = int(self.kernel_stats[1]) - nodes_before
                if dt > 0 and done_nodes > 0:
                    rate = done_nodes / dt
                    self._budget = int(min(max(rate * CALL_SECONDS, 1000), 1 << 40))
                return code
            if code == kernel.LIMIT:
                self.stopped_by = f"solution limit {max_solutions}"
            if code == kernel.DONE:
                self.done = True
            return code


def _finish_progress(progress: Progress, search: Search) -> None:
    """Close a progress bar at the search's final fraction and count."""
    progress.close(1.0 if search.done else None, int(search.kernel_stats[0]))


class GeneratorStream:
    """An iterator over the solutions that ``self._run()`` yields; ``close`` stops it."""

    def _run(self):
        raise NotImplementedError

    def __iter__(self):
        return self

    def __next__(self) -> Solution:
        if not hasattr(self, "_generator"):
            self._generator = self._run()
        return next(self._generator)

    def close(self) -> None:
        """Stop the search early."""
        if hasattr(self, "_generator"):
            self._generator.close()


class SolutionStream(GeneratorStream):
    """An iterator over solutions; ``.stats``, ``.complete`` and ``.stopped_by`` tell
    how the search went once it stops."""

    def __init__(self, search: Search, limit: int | None):
        self._search = search
        self._limit = limit
        self._found = 0

    @property
    def stats(self) -> Stats:
        """Statistics so far."""
        return self._search.stats

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
                if code == kernel.SOLUTION:
                    self._found += 1
                    progress.update(search.fraction(), self._found)
                    yield Solution(search.current_options(), search.problem)
                elif code == kernel.PAUSED:
                    progress.update(search.fraction(), self._found)
                elif code == kernel.LEAF:
                    raise RuntimeError("solutions() does not take a split depth")
                else:
                    return
        finally:
            _finish_progress(progress, search)


def solutions(
    problem: Problem,
    limit: int | None = None,
    *,
    forced=(),
    node_limit: int | None = None,
    time_limit: float | None = None,
    progress: bool = False,
    workers: int | None = 1,
    **parallel_options,
):
    """Stream the solutions of ``problem``, stopping after ``limit`` of them.

    ``workers`` > 1 (or None for all cores) searches in parallel: the solutions then
    come a subproblem at a time, in no fixed order (see ``dlx.parallel``).

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for k in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(k)
    >>> [s.options for s in solutions(p)]
    [(0, 1), (2,)]
    """
    if workers != 1 or parallel_options:
        from dlx.parallel import parallel_solutions

        if node_limit is not None or time_limit is not None:
            raise ValueError("solutions(workers=...) takes no node or time limit")
        return parallel_solutions(
            problem, limit, workers=workers, forced=forced, progress=progress, **parallel_options
        )
    search = Search(
        problem, forced=forced, node_limit=node_limit, time_limit=time_limit, progress=progress
    )
    return SolutionStream(search, limit)


def count(
    problem: Problem,
    limit: int | None = None,
    *,
    forced=(),
    node_limit: int | None = None,
    time_limit: float | None = None,
    progress: bool = False,
    workers: int | None = 1,
    **parallel_options,
) -> Count:
    """Count the solutions of ``problem`` with no Python work per solution.

    ``limit`` stops at that many solutions; ``node_limit``/``time_limit`` stop the
    search early; the result then has ``complete=False``. ``workers`` > 1 (or None
    for all cores) counts in parallel (see ``dlx.parallel``).

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for k in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(k)
    >>> print(count(p))
    2
    """
    if workers != 1 or parallel_options:
        from dlx.parallel import parallel_count

        return parallel_count(
            problem,
            workers=workers,
            progress=progress,
            forced=forced,
            limit=limit,
            node_limit=node_limit,
            time_limit=time_limit,
            **parallel_options,
        )
    search = Search(
        problem,
        forced=forced,
        node_limit=node_limit,
        time_limit=time_limit,
        progress=progress,
        memo=Memo.of(problem) if limit is None else None,
    )
    progress_bar = Progress(progress, "count")
    try:
        while True:
            code = search.run(stream=False, max_solutions=limit)
            if code == kernel.PAUSED:
                progress_bar.update(search.fraction(), int(search.kernel_stats[0]))
                continue
            break
    finally:
        _finish_progress(progress_bar, search)
    stats = search.stats
    return Count(stats.solutions, search.done, stats, search.stopped_by)


def first(problem: Problem, **options) -> Solution | None:
    """The first solution, or None if there is none."""
    stream = solutions(problem, limit=1, **options)
    for solution in stream:
        return solution
    if not stream.complete:
        raise TimeoutError(f"no solution found before the {stream.stopped_by}")
    return None


def is_unique(problem: Problem, **options) -> bool:
    """True when ``problem`` has exactly one solution (stops at the second)."""
    result = count(problem, limit=2, **options)
    if result.solutions < 2 and not result.complete:
        raise TimeoutError(f"uniqueness undecided: {result}")
    return result.solutions == 1


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


def batch(problem: Problem, forced_sets, limit: int = 2, *, start=None, depth=None):
    """Search ``problem`` once per set of forced options, all in one kernel call.

    Meant for many small searches on one problem (e.g. sudoku givens): the problem is
    laid out once and each search forces its own options. Counts stop at ``limit``.
    ``forced_sets`` is a list of option lists, or a flat array of options with
    ``start`` offsets (set ``k`` is ``forced_sets[start[k]:start[k+1]]``); ``depth``
    bounds the options a solution adds beyond the forced ones (default: the problem's
    level bound).

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
    nodes = _forced_nodes_flat(problem, options, start)
    n_sets = len(start) - 1
    max_forced = int(np.diff(start).max()) if n_sets else 0
    depth = arrays.max_level if depth is None else max(int(depth), 1)
    counts = np.zeros(n_sets, dtype=np.int64)
    first_nodes = np.zeros((n_sets, depth + 1), dtype=np.int32)  # a last column to see overflow
    stats = np.zeros((n_sets, 3), dtype=np.int64)
    compiling.warm_up_batch(arrays.loop_edge is not None)
    t0 = time.perf_counter()
    kernel.search_batch(
        arrays.node.copy(),
        arrays.item.copy(),
        arrays.second,
        arrays.has_bounds,
        nodes,
        start,
        arrays.max_level + max_forced,
        max(int(limit), 1),
        counts,
        first_nodes,
        stats,
        *_loop_arrays(arrays),
    )
    seconds = time.perf_counter() - t0
    if np.any(first_nodes[:, -1] >= 0):
        raise ProblemError(f"depth {depth} is too small for a first solution")
    first_nodes = first_nodes[:, :-1]
    chosen = np.where(first_nodes >= 0, arrays.option_of_node[first_nodes], -1)
    nodes_searched, updates = stats[:, 1].copy(), stats[:, 2].copy()
    return BatchResult(counts, chosen, nodes_searched, updates, seconds, options, start)
