"""A partial 9x9 sudoku as an exact-cover problem, counted by the sudoku kernel.

Knuth's SUDOKU-DLX writes a puzzle as what is left of the 9x9 sudoku problem once its
givens are covered: the items not covered yet and the options whose four items are
all among them. ``embed`` recognises such a problem and maps it onto the kernel's
canonical numbering (``layout.canonical_items``): each item onto a distinct canonical
item, found from Knuth's names (``p``\\ *rc* the cell in row *r* and column *c*,
``r``\\ *rd*, ``c``\\ *cd*, ``b``\\ *bd* digit *d* (1 to 9) in row, column and box), and
each option onto the canonical option whose four items are its own, checked exactly.
The items the problem lacks are covered by givens: a set of canonical options that
covers exactly those items, taken from a whole grid of the problem's options and the
options of missing items only (``_first_grid``: its options on the problem's cells
cover the problem's items, the others the missing ones). Then the problem's
exact covers are the grid's completions with those givens that use only its options,
which is what ``kernel.count_from`` counts; the names only suggest the map, the checks
decide, so a problem that passes them is counted exactly whatever its names meant.
"""

from __future__ import annotations

import re
import threading
import time

import numpy as np

from dlx import compiling
from dlx.driver.codes import DONE, LIMIT
from dlx.driver.driver import Stats
from dlx.kernels.sudoku.layout import N_ITEMS, N_OPTIONS, canonical_items
from dlx.problem import Problem

NAME = re.compile(r"([prcb])([0-8])([0-9])\Z")
FIRST = {"p": 0, "r": 81, "c": 162, "b": 243}  # where each kind starts, canonically


def embed(problem: Problem) -> tuple[np.ndarray, np.ndarray] | None:
    """The givens (canonical options, int64) and the live canonical options (bool[729])
    that make ``problem`` a partial 9x9 sudoku (see the module), or None.

    >>> p = Problem(primary=["p00", "r01", "c01", "b01"])
    >>> _ = p.add_option(["p00", "r01", "c01", "b01"])
    >>> givens, live = embed(p)  # a grid with 80 givens, the last cell open
    >>> len(givens), int(live.sum())
    (80, 1)
    """
    return problem.layout_of(_embed)[0]


def _embed(problem: Problem) -> tuple:
    """``embed``, worked out once a problem (a tuple: ``layout_of`` keeps no None)."""
    names = problem.primary
    if not 0 < problem.n_options <= N_OPTIONS or not 0 < len(names) <= N_ITEMS:
        return (None,)
    if NAME.match(names[0]) is None or problem.first_multiplicity() is not None:
        return (None,)
    entries = problem.entries()
    counts = np.bincount(entries.option, minlength=problem.n_options)
    if entries.n_secondary or np.any(counts != 4) or np.any(entries.colour != 0):
        return (None,)
    canonical = _canonical_names(problem.primary)
    if canonical is None:
        return (None,)
    items = np.sort(canonical[entries.item.reshape(-1, 4) - 1], axis=1)
    table = np.sort(canonical_items(), axis=1)
    key = {tuple(row): k for k, row in enumerate(table.tolist())}
    option = np.array([key.get(tuple(row), -1) for row in items.tolist()], np.int64)
    if np.any(option < 0) or len(np.unique(option)) != len(option):
        return (None,)
    present = np.zeros(N_ITEMS, np.bool_)
    present[canonical] = True
    live = np.zeros(N_OPTIONS, np.bool_)
    live[option] = True
    fits = ~present[canonical_items()].any(axis=1)  # options of missing items only
    grid = _first_grid(live | fits)
    if grid is None:  # (then no grid, and no completion either)
        return (None,)
    givens = grid[~present[grid // 9]]  # those of the cells whose items are missing
    return ((np.asarray(givens, np.int64), live),)


def _canonical_names(names) -> np.ndarray | None:
    """Each of ``names``' canonical item (Knuth's names, see the module), or None
    where a name is not one or two names say the same item."""
    canonical = np.empty(len(names), np.int64)
    for j, name in enumerate(names):
        m = NAME.match(name)
        if m is None:
            return None
        kind, a, b = m.group(1), int(m.group(2)), int(m.group(3))
        if kind == "p" and b > 8 or kind != "p" and b == 0:
            return None
        canonical[j] = FIRST[kind] + 9 * a + (b if kind == "p" else b - 1)
    return canonical if len(np.unique(canonical)) == len(canonical) else None


def _first_grid(live: np.ndarray) -> np.ndarray | None:
    """A whole grid (81 canonical options, one a cell) of options ``live`` (bool[729]),
    or None when there is none."""
    stats = np.zeros((1, 2), np.int64)
    first = np.zeros((1, 81), np.int64)
    none = np.zeros(0, np.int64)
    _warm_up()
    found = _kernel().count_from(none, live, 1, stats, np.zeros(1, np.int64), first)
    return first[0] if found > 0 else None


def count(problem: Problem, limit: int | None = None, stop=None) -> tuple[int, int, int]:
    """The solutions of ``problem`` (a partial sudoku: ``embed``), up to ``limit`` or
    until ``stop[0]`` is set (int64[1], from another thread), with the kernel's nodes
    and updates; ValueError when it is not one.

    >>> p = Problem(primary=["p00", "r01", "c01", "b01"])
    >>> _ = p.add_option(["p00", "r01", "c01", "b01"])
    >>> count(p)[0]
    1
    >>> count(Problem(primary=["a"]))
    Traceback (most recent call last):
    ...
    ValueError: not a partial 9x9 sudoku
    """
    embedding = embed(problem)
    if embedding is None:
        raise ValueError("not a partial 9x9 sudoku")
    givens, live = embedding
    _warm_up()
    stats = np.zeros((1, 2), np.int64)
    top = np.iinfo(np.int64).max if limit is None else max(int(limit), 1)
    stop = np.zeros(1, np.int64) if stop is None else stop
    first = np.zeros((1, 81), np.int64)
    found = int(_kernel().count_from(givens, live, top, stats, stop, first))
    return max(found, 0), int(stats[0, 0]), int(stats[0, 1])


class PartialCount:
    """A whole count of a partial sudoku (``count``) with what ``dlx.count`` reads of a
    search (``run``, ``solutions``, ``done``, ``stats``, ...): one kernel call, made in
    a thread (the kernel holds no GIL) so that Ctrl-C or ``time_limit`` (seconds) in
    this one stops it."""

    def __init__(self, problem: Problem, time_limit: float | None = None):
        self.problem = problem
        self.time_limit = time_limit
        self.solutions = 0
        self.done = False
        self.stopped_by = None
        self._counts = (0, 0, 0.0)  # nodes, updates, seconds

    def run(self, stream: bool = False, max_solutions: int | None = None) -> int:
        """Count to the end, ``max_solutions`` or the time limit: ``DONE`` or ``LIMIT``
        (KeyboardInterrupt with the solutions found so far kept)."""
        _warm_up()  # (compiled here, so that the thread only searches)
        stop = np.zeros(1, np.int64)
        out: list = []
        t0 = time.perf_counter()

        ended = threading.Event()  # waited on, not the thread: a join that Ctrl-C
        # interrupts leaves the thread marked as ended while it still runs

        def work() -> None:
            try:
                out.append(count(self.problem, max_solutions, stop))
            except BaseException as e:  # handed to the calling thread
                out.append(e)
            finally:
                ended.set()

        threading.Thread(target=work, daemon=True).start()
        try:
            ended.wait(self.time_limit)
        finally:  # Ctrl-C, or the time limit: the kernel stops at its next node
            stop[0] = 0 if ended.is_set() else 1
            while not ended.wait(0.05):
                pass
            self._take(out[0], t0)
        if stop[0]:
            self.stopped_by = f"time limit {self.time_limit} s"
            return LIMIT
        self.done = True
        return DONE

    def _take(self, result, t0: float) -> None:
        """Keep a count's result (or raise the error it ended with)."""
        if isinstance(result, BaseException):
            raise result
        self.solutions = result[0]
        self._counts = (result[1], result[2], time.perf_counter() - t0)

    @property
    def nodes(self) -> int:
        """Nodes searched."""
        return self._counts[0]

    @property
    def stats(self) -> Stats:
        """Solutions, nodes, updates and seconds."""
        return Stats(self.solutions, *self._counts)

    def fraction(self) -> float:
        """1 when done, else 0 (the kernel reports no progress)."""
        return 1.0 if self.done else 0.0


def _kernel():
    """The kernel's module (numba with it), imported on first use."""
    return compiling.kernel_module("dlx.kernels.sudoku.kernel")


def _warm_up() -> None:
    """Make sure ``kernel.count_from`` is compiled (a grid of 80 givens counted)."""
    tiny = Problem(primary=["p00", "r01", "c01", "b01"])
    tiny.add_option(["p00", "r01", "c01", "b01"])
    compiling.warm(
        "sudoku count",
        _kernel().count_from,
        False,
        lambda: count(tiny),
    )


compiling.register(_warm_up)
