"""Many sudokus at once: one-line puzzles kept as one array, and the batch search.

A file of one-line puzzles with boxes is read as ``LinePuzzles`` (one int array; a
puzzle's ``Sudoku`` is made only when it is read); ``solve_all`` searches every puzzle
of one shape in one kernel call (``dlx.batch``); the command's hooks ``tally``,
``threaded``, ``lines`` and ``prepare`` (see ``puzzles.command``) are built on it.
Every public name here is also a name of ``puzzles.sudoku``.

>>> from puzzles.sudoku import parse_all
>>> puzzles = parse_all("1.....1..1.....1\\n" + "." * 16)  # two 4x4 lines
>>> type(puzzles).__name__, [r.count for r in solve_all(puzzles, limit=300)]
('LinePuzzles', [18, 288])
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

import dlx
from puzzles.numbergrid import LINE_BYTES, NumberGrid, Result, Style
from puzzles.sudoku_cover import PROPAGATE, Answer, Sudoku, box_regions, build

BATCH_TIGHT_MIN = 16  # solve_all's default kernel: tight for shapes of this many puzzles
BATCH_DOMINATION = 1  # the tight batch's domination: singles only (pairs cost more than they save)


class LinePuzzles(Sequence):
    """One-line boxed sudokus of one side, as read from a file: their values stay one
    int array [puzzles, n, n] (``array``; ``lines``: each one's line), and a puzzle's
    ``Sudoku`` is made only when it is read; a batch searches the array itself."""

    def __init__(self, array: np.ndarray, lines: np.ndarray, diagonals: bool = False):
        self.array, self.lines, self.diagonals = array, lines, diagonals
        self.side = array.shape[1]
        self.style = Style("line")
        self._made: list[Sudoku | None] = [None] * len(array)

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return LinePuzzles(self.array[k], self.lines[k], self.diagonals)
        made = self._made[k]
        if made is None:
            n = self.side
            grid = NumberGrid(self.array[k], None, self.style, [int(self.lines[k])] * n)
            made = self._made[k] = Sudoku(grid, n, box_regions(n), False, self.diagonals)
        return made

    @property
    def shape(self) -> tuple:
        """The shape of every puzzle (``Sudoku.shape``)."""
        return (self.side, box_regions(self.side), self.diagonals)


@lru_cache(maxsize=16)
def _unit_cells(side: int, diagonals: bool) -> np.ndarray:
    """int[units, side]: the cells (r n + c) of each row, column and box, then of the
    two diagonals with ``diagonals``."""
    cells = np.arange(side * side).reshape(side, side)
    region = np.array(box_regions(side)).ravel()
    boxes = np.argsort(region, kind="stable").reshape(side, side)
    units = [cells, cells.T, boxes]
    if diagonals:
        units.append(np.stack([np.diagonal(cells), np.diagonal(cells[:, ::-1])]))
    return np.concatenate(units)


def clashing(array: np.ndarray, side: int, diagonals: bool) -> np.ndarray:
    """bool[puzzles]: whether a boxed puzzle of ``array`` [puzzles, n, n] gives a value
    twice in a row, column or box (or diagonal): value v is bit v, and a unit's bits
    add up to more than their union exactly when one repeats."""
    flat = array.reshape(len(array), -1)
    bits = np.where(flat > 0, np.left_shift(np.int64(1), flat), 0)[:, _unit_cells(side, diagonals)]
    return np.any(bits.sum(axis=2) != np.bitwise_or.reduce(bits, axis=2), axis=1)


def tally(puzzles: list[Sudoku], limit: int, workers: int = 1) -> list[tuple]:
    """For each puzzle: solutions (up to ``limit``), the first answer and search nodes,
    all puzzles of one shape in one kernel call (``solve_all``; 9x9 boxed puzzles on
    ``workers`` threads, 0: one a core)."""
    out = []
    for p, r in zip(puzzles, solve_all(puzzles, limit, workers=workers), strict=True):
        values = Result.values.raw(r)  # the batch's array: not made into lists
        out.append((r.count, None if values is None else Answer(p, values), r.nodes))
    return out


def threaded(puzzles: list[Sudoku]) -> bool:
    """Whether ``tally`` runs every one of ``puzzles`` on threads (the sudoku kernel
    takes 9x9 puzzles with boxes only)."""
    if isinstance(puzzles, LinePuzzles):
        return puzzles.shape == (9, box_regions(9), False)
    return all(p.shape == (9, box_regions(9), False) for p in puzzles)


def solve_all(
    puzzles: list[Sudoku],
    limit: int = 2,
    propagate: str | None = PROPAGATE,
    engine: str | None = None,
    workers: int = 1,
) -> list[Result]:
    """Search every puzzle (counting up to ``limit``), one batch kernel call per shape.

    Everything per puzzle is done on arrays: the givens' options, the kernel's batch
    search, and writing each first solution into its grid. ``propagate``: as for
    ``dlx.count`` ("domination", the default: for the dancing-links kernel locked
    candidates and more, for the tight kernel singles taken as they appear, a smaller
    tree; None: the plain search); ``engine``: ``dlx.batch``'s ("sudoku", "tight" or
    "dlx"; by default "sudoku" for 9x9 boxed puzzles (its own forced moves, whatever
    ``propagate`` says), else "tight" for shapes of ``BATCH_TIGHT_MIN`` puzzles or more,
    "dlx" for fewer: a jigsaw list has a shape a puzzle, and dancing links need no
    layout of their own; that default runs the plain search, whatever ``propagate``
    says: the rule's search is a second compile for a few puzzles' worth of nodes).
    ``workers``: threads for the "sudoku" engine (0: one a core).
    """
    results: list[Result | None] = [None] * len(puzzles)
    for indices in _by_shape(puzzles).values():
        group = puzzles if isinstance(puzzles, LinePuzzles) else [puzzles[k] for k in indices]
        counts, grids, nodes = _solve_group(group, limit, propagate, engine, workers)
        for k, p, count, values, n in zip(
            indices, group, counts.tolist(), grids, nodes.tolist(), strict=True
        ):
            results[k] = Result(p.grid, count, values if count else None, n)
    return results  # type: ignore[return-value]


def _solve_group(group: list[Sudoku], limit, propagate, engine, workers):
    """``solve_all`` for puzzles of one shape: their counts, first solutions (int array
    [puzzles, n, n], the givens alone where none) and nodes, in one kernel call."""
    m, n = len(group), group[0].side
    grid = _stacked(group).reshape(m, n * n)
    rows, cells = np.nonzero(grid)  # the givens, puzzle by puzzle, in reading order
    options = cells * n + grid[rows, cells] - 1
    start = np.zeros(m + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=m), out=start[1:])
    problem, how = _batch_setting(group, propagate, engine)
    depth = n * n - int(np.diff(start).min())  # the most cells a solution fills
    if how["engine"] == "sudoku":
        how = {**how, "workers": workers}
    result = dlx.batch(problem, options, limit, start=start, depth=depth, **how)
    chosen = result.chosen  # [m, depth]: option (r n + c) n + v - 1, or -1
    solved = np.append(grid.ravel(), 0)  # every cell, then one that takes the -1s
    cell = chosen // n + np.arange(0, m * n * n, n * n)[:, None]
    solved[np.where(chosen >= 0, cell, m * n * n)] = chosen % n + 1
    return result.counts, solved[:-1].reshape(m, n, n), result.nodes


def _stacked(group) -> np.ndarray:
    """The values of puzzles of one side as one int array [puzzles, n, n]."""
    if isinstance(group, LinePuzzles):
        return group.array
    return np.concatenate([p.grid.array for p in group])


def lines(puzzles, workers: int = 1, limit: int = 1):
    """What the command prints for one-line puzzles (``LinePuzzles``), searched up to
    ``limit`` solutions each, made in one step: the text of every first solution (a
    line each, in order; none for a puzzle without one), the counts (int array), the
    search nodes of all and each puzzle's label; None for other puzzles (the layer
    prints them one by one)."""
    if not isinstance(puzzles, LinePuzzles) or not len(puzzles):
        return None
    counts, grids, nodes = _solve_group(puzzles, limit, PROPAGATE, None, workers)
    rows = LINE_BYTES[grids[counts > 0].reshape(-1, puzzles.side**2)]
    newline = np.full((len(rows), 1), ord("\n"), dtype=np.uint8)
    text = np.hstack([rows, newline]).tobytes().decode()
    return text, counts, int(nodes.sum()), [f"line {n}" for n in puzzles.lines.tolist()]


def _by_shape(puzzles: list[Sudoku]) -> dict[tuple, list[int]]:
    """The puzzles' indices, grouped by shape (``Sudoku.shape``)."""
    if isinstance(puzzles, LinePuzzles):
        return {puzzles.shape: range(len(puzzles))} if len(puzzles) else {}
    by_shape: dict[tuple, list[int]] = {}
    for k, s in enumerate(puzzles):  # regions are shared tuples: group by id, then merge
        by_shape.setdefault((s.side, id(s.region), s.diagonals), []).append(k)
    merged: dict[tuple, list[int]] = {}
    for indices in by_shape.values():
        merged.setdefault(puzzles[indices[0]].shape, []).extend(indices)
    return merged


def _batch_setting(group: list[Sudoku], propagate: str | None, engine: str | None):
    """The problem that ``solve_all`` searches for a group of one shape, and the keywords
    of its ``dlx.batch`` call (engine, domination)."""
    if engine is None and group[0].shape == (9, box_regions(9), False):
        return build(group[0]), {"engine": "sudoku"}  # (its forced moves are its own)
    kernel = engine or ("tight" if len(group) >= BATCH_TIGHT_MIN else "dlx")
    if engine is None and kernel == "dlx":  # a few puzzles: the plain search, the one
        propagate = None  # the batch's warm-up compiles (the rule's is a second compile)
    problem = build(group[0]).with_propagation(propagate)
    tight = {"domination": BATCH_DOMINATION} if kernel == "tight" and propagate else {}
    return problem, {"engine": kernel, **tight}


def prepare(puzzles: list[Sudoku]) -> None:
    """Do ahead what ``solve_all`` would do first for these puzzles with the default
    kernel: build each shape's empty-grid problem and the tight kernel's batch layout
    of it (kept with the problem), and load the kernel; the command does it while
    reading, and says its seconds apart from the search's."""
    for indices in _by_shape(puzzles).values():
        group = puzzles if isinstance(puzzles, LinePuzzles) else [puzzles[k] for k in indices]
        problem, how = _batch_setting(group, PROPAGATE, None)
        if how["engine"] != "dlx":
            dlx.batch(problem, [], 1, **how)  # no search: the layout and the kernel
