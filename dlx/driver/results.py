"""What a search gives back, whichever kernel ran it: ``Count``, ``Solution``, the
solution streams, ``BatchResult``; and ``count_search``, which runs any kernel's search
(a ``Driver``) to its end or a limit, with the progress bar (``Progress``) and Ctrl-C.
"""

from __future__ import annotations

import _thread
import time
import weakref
from dataclasses import dataclass, field

import numpy as np

from dlx.driver.codes import LEAF, PAUSED, SOLUTION
from dlx.driver.driver import Stats
from dlx.problem import Problem
from dlx.stopping import Interrupted, interrupts_deferred
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
        # a parallel count's ``dlx.parallel.run.ParallelRun`` (its split and each task's
        # result, for benchmarks); not pickled with the count
        self.details = details
        # Knuth's estimate of the fraction of the tree done, where a search on this
        # process stopped (``count_search``); None where not known
        self.fraction = 1.0 if complete else None
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
            # a stop while tqdm draws its first line waits until the bar is ours, so
            # that it can be closed (``dlx.stopping.close_open_bars``)
            with interrupts_deferred():
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


def found_so_far(search) -> int:
    """The solutions a search (of any engine) has found so far, exact."""
    return int(search.solutions)


def _finish_progress(progress: Progress, search) -> None:
    """Close a progress bar at the search's final fraction and count."""
    progress.close(1.0 if search.done else None, found_so_far(search))


def count_search(search, limit: int | None, progress: bool) -> Count:
    """Run a search (``Search`` or another engine's) to its end or a limit, counting."""
    progress_bar = None
    try:
        progress_bar = Progress(progress, "count")
        while True:
            code = search.run(stream=False, max_solutions=limit)
            if code != PAUSED:
                break
            progress_bar.update(search.fraction(), found_so_far(search))
    except KeyboardInterrupt:
        raise Interrupted(found_so_far(search)) from None
    finally:
        if progress_bar is not None:
            _finish_progress(progress_bar, search)
    stats = search.stats
    counted = Count(stats.solutions, search.done, stats, search.stopped_by)
    if not search.done:
        counted.fraction = search.fraction()
    return counted


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
