"""A sudoku and its exact cover: the puzzle, its boxes, the empty grid's problem, the
options of its givens, and an answer decoded, written, drawn and checked.

The items and options are those of the glossary of ``puzzles.sudoku``, the adapter
users call; every public name here is one of its names too.

>>> box_shape(9), box_shape(6), box_shape(7)
((3, 3), (2, 3), None)
>>> empty_problem(4, box_regions(4))
Problem(64 primary, 0 secondary items, 64 options)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import dlx
from puzzles.common import PuzzleError
from puzzles.numbergrid import (
    Filled,
    NumberGrid,
    check_regions,
    render_values,
    svg_grid,
)

MAX_SIDE = 35  # values are written 1-9 then A-Z in one-character formats
PROPAGATE = "domination"  # the search's rule (dlx.count's propagate; README: measured)


@dataclass(slots=True)
class Sudoku:
    """A parsed sudoku: its grid (values, style) and the region of every cell."""

    grid: NumberGrid
    side: int
    region: tuple[tuple[int, ...], ...]  # region[r][c]: the box or jigsaw piece
    jigsaw: bool
    diagonals: bool = False  # sudoku X: both long diagonals hold 1..n too

    @property
    def shape(self) -> tuple:
        """What the empty grid's problem depends on: side, regions, diagonals."""
        return (self.side, self.region, self.diagonals)

    @property
    def label(self) -> str:
        """Where the puzzle came from: ``line 7`` or ``puzzle 3_9x9``."""
        return self.grid.where.rstrip(": ") or f"line {self.grid.row_line[0]}"


class Answer(Filled):
    """A solved sudoku: ``values[r][c]`` in 1..n (``puzzle``: the Sudoku)."""


def box_shape(side: int) -> tuple[int, int] | None:
    """(rows, columns) of a box for this side, or None when boxes would be 1 wide."""
    a = max(d for d in range(1, math.isqrt(side) + 1) if side % d == 0)
    if a == 1 and side > 1:
        return None
    return a, side // a


@lru_cache(maxsize=64)
def box_regions(side: int) -> tuple[tuple[int, ...], ...]:
    """The box number of each cell, boxes numbered in reading order."""
    shape = box_shape(side)
    assert shape is not None
    a, b = shape
    return tuple(tuple((r // a) * a + c // b for c in range(side)) for r in range(side))


def from_grid(grid: NumberGrid, diagonals: bool = False) -> Sudoku:
    """Check a parsed grid against the rules of sudoku; raise PuzzleError naming a cell."""
    side = grid.height
    if grid.width != side:
        raise PuzzleError(
            f"{grid.where}line {grid.row_line[0]}: a sudoku is square, not "
            f"{grid.height} rows of {grid.width}"
        )
    if side > MAX_SIDE:
        raise PuzzleError(f"{grid.where}line {grid.row_line[0]}: side {side} is above {MAX_SIDE}")
    givens = grid.givens()
    for r, c, v in givens:
        if v > side:
            raise PuzzleError(f"{grid.cell(r, c)}: value {v} is out of range 1..{side}")
    if grid.regions is not None:
        check_regions(grid, side)
        region = tuple(tuple(row) for row in grid.regions)
        jigsaw = True
    else:
        if box_shape(side) is None:
            raise PuzzleError(
                f"{grid.where}line {grid.row_line[0]}: a {side}x{side} sudoku has no box "
                f"shape; give a block of region ids after the grid (jigsaw)"
            )
        region = box_regions(side)
        jigsaw = False
    seen: dict[tuple, tuple[int, int]] = {}
    for r, c, v in givens:
        units = [
            (("row", r), "row"),
            (("column", c), "column"),
            (("region", region[r][c]), "region" if jigsaw else "box"),
        ]
        if diagonals and r == c:
            units.append((("diagonal", 0), "diagonal"))
        if diagonals and r + c == side - 1:
            units.append((("diagonal", 1), "anti-diagonal"))
        for unit, name in units:
            other = seen.setdefault((unit, v), (r, c))
            if other != (r, c):
                raise PuzzleError(
                    f"{grid.cell(r, c)}: value {v} is already given in the same {name} "
                    f"at row {other[0] + 1}, column {other[1] + 1}"
                )
    return Sudoku(grid, side, region, jigsaw, diagonals)


def cell_order(side: int, region) -> list[tuple[int, int]]:
    """The cells in the order their items are declared: transversal by transversal.

    The kernel branches on the item with the fewest options left, ties to the leftmost;
    among cells with as few candidates, it takes the first declared. In reading order
    it would take them along a row, then the next row; here consecutive cells lie in
    different rows, columns and boxes: first the places of 1 in the pattern grid
    ``(b (r mod a) + r div a + c) mod n`` (boxes of a x b), then the places of 2, and
    so on (for jigsaw regions, the broken diagonals ``(c - r) mod n``: as good as reading
    order on the puzzlekit jigsaws, which need hardly a guess). Measured with
    ``scripts/sudoku_item_order.py`` (nodes to solve and prove unique): forum-hardest
    4,807 -> 3,893 a puzzle, the first 20,000 of the 17-clue list 123 -> 111; each
    puzzle under a random symmetry, forum-hardest 5,258 -> 3,933 (random cell orders
    give 3,860 to 4,180; the option order does not change the nodes at all); top1465
    626 -> 488, top95 658 -> 612, the puzzlekit 16x16 378 -> 342.
    """
    shape = box_shape(side)
    if shape is not None and region == box_regions(side):
        a, b = shape
        place = [[(b * (r % a) + r // a + c) % side for c in range(side)] for r in range(side)]
    else:
        place = [[(c - r) % side for c in range(side)] for r in range(side)]
    cells = [(r, c) for r in range(side) for c in range(side)]
    return sorted(cells, key=lambda rc: (place[rc[0]][rc[1]], rc))


@lru_cache(maxsize=16)
def empty_problem(side: int, region, diagonals: bool = False) -> dlx.Problem:
    """The problem of the empty grid of this shape (shared, do not modify).

    With ``diagonals``, items ``d0v{v}`` and ``d1v{v}`` (the diagonal and the
    anti-diagonal hold v) join the options of the cells on them.
    """
    n = side
    cells = [f"p{r},{c}" for r, c in cell_order(n, region)]
    units = [f"{u}{k}v{v}" for u in "rcb" for k in range(n) for v in range(1, n + 1)]
    if diagonals:
        units += [f"d{k}v{v}" for k in range(2) for v in range(1, n + 1)]
    problem = dlx.Problem(primary=cells + units, propagate=PROPAGATE)
    for r in range(n):
        for c in range(n):
            k = region[r][c]
            for v in range(1, n + 1):
                items = [f"p{r},{c}", f"r{r}v{v}", f"c{c}v{v}", f"b{k}v{v}"]
                if diagonals and r == c:
                    items.append(f"d0v{v}")
                if diagonals and r + c == n - 1:
                    items.append(f"d1v{v}")
                problem.add_option(items)
    return problem


def build(sudoku: Sudoku) -> dlx.Problem:
    """The exact-cover problem of the empty grid (use with ``forced(sudoku)``)."""
    return empty_problem(sudoku.side, sudoku.region, sudoku.diagonals)


def option_of(side: int, r: int, c: int, v: int) -> int:
    """The option that puts value ``v`` in cell ``r, c``."""
    return (r * side + c) * side + v - 1


def forced(sudoku: Sudoku) -> list[int]:
    """The options of the givens, to force in the empty grid's problem."""
    return [option_of(sudoku.side, r, c, v) for r, c, v in sudoku.grid.givens()]


def decode(sudoku: Sudoku, solution) -> Answer:
    """The solved grid of a solution (``dlx.Solution`` or its options, forced included)."""
    n = sudoku.side
    flat = [0] * (n * n)
    for k in getattr(solution, "options", solution):
        flat[k // n] = k % n + 1
    return Answer(sudoku, [flat[r * n : (r + 1) * n] for r in range(n)])


def render(answer: Answer) -> str:
    """A solved grid in its puzzle's own format (one line, rows, or puzzlekit rows),
    ending with a newline."""
    return render_values(answer.puzzle.grid, Answer.values.raw(answer)) + "\n"


def svg(answer: Answer, cell: int = 32) -> str:
    """A solved grid as SVG: boxes or jigsaw regions outlined, givens in black."""
    sudoku = answer.puzzle
    return svg_grid(sudoku.grid, answer.values, sudoku.region, cell)


def faults(sudoku: Sudoku, answer) -> list[str]:
    """What is wrong with ``answer`` (an Answer or rows of values) as a solution, from the
    rules alone: every cell 1..n, every given kept, every row, column and region (and
    diagonal, for sudoku X) holds each value once. An empty list: it is a solution."""
    values = getattr(answer, "values", answer)
    n = sudoku.side
    if len(values) != n or any(len(row) != n for row in values):
        return [f"the grid is not {n}x{n}"]
    found = []
    units: dict[tuple, list[int]] = {}
    for r in range(n):
        for c in range(n):
            v = values[r][c]
            given = sudoku.grid.values[r][c]
            if not 1 <= v <= n:
                found.append(f"row {r + 1}, column {c + 1}: {v} is not in 1..{n}")
            if given and given != v:
                found.append(f"row {r + 1}, column {c + 1}: the given {given} became {v}")
            units.setdefault((f"row {r + 1}",), []).append(v)
            units.setdefault((f"column {c + 1}",), []).append(v)
            units.setdefault((f"region {sudoku.region[r][c] + 1}",), []).append(v)
            if sudoku.diagonals and r == c:
                units.setdefault(("the diagonal",), []).append(v)
            if sudoku.diagonals and r + c == n - 1:
                units.setdefault(("the anti-diagonal",), []).append(v)
    for (unit,), members in units.items():
        missing = sorted(set(range(1, n + 1)) - set(members))
        if missing:
            found.append(f"{unit}: {', '.join(map(str, missing))} missing")
    return found
