"""Tectonic (suguru): fill each region of p cells with 1..p; equal numbers never touch,
not even diagonally.

Glossary:
- primary items: ``p{r},{c}`` (cell r,c is filled) and ``g{k}v{v}`` (region k holds
  v), for v = 1..size of region k.
- secondary items: ``w{r},{c}v{v}``: the 2x2 *window* whose top-left cell is r,c holds
  v. Two cells touch (side or corner) exactly when some 2x2 window holds both, so "at
  most one v a window" is exactly "no two equal numbers touch": one secondary item a
  window and value instead of one a touching pair, and each option names at most 4.
- option ``(r, c, v)``: v in cell r,c: its cell item, its region's v item, and the v
  item of each window that contains the cell. A given cell has only its given's option.

Known counts: every puzzle of the puzzlekit set (200, 6x6 to 10x10) has one solution.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import dlx
from puzzles.common import PuzzleError, read_text
from puzzles.numbergrid import (
    SYMBOLS,
    NumberGrid,
    Result,
    check_regions,
    parse_grids,
    report,
    summary,
)


@dataclass
class Tectonic:
    """A parsed tectonic: its grid (values, regions, style) and each region's cells."""

    grid: NumberGrid
    cells: list[list[tuple[int, int]]]  # cells[k]: the cells of region k

    def size(self, r: int, c: int) -> int:
        """The size of the region of cell r,c: its cell holds 1..size."""
        assert self.grid.regions is not None
        return len(self.cells[self.grid.regions[r][c]])


def touching(height: int, width: int, r: int, c: int):
    """The cells that touch r,c (side or corner), inside a height x width grid."""
    for a in range(max(r - 1, 0), min(r + 2, height)):
        for b in range(max(c - 1, 0), min(c + 2, width)):
            if (a, b) != (r, c):
                yield a, b


def windows(height: int, width: int, r: int, c: int):
    """Top-left corners of the 2x2 windows (clipped in a 1-wide grid) holding r,c."""
    for a in range(max(r - 1, 0), min(r, max(height - 2, 0)) + 1):
        for b in range(max(c - 1, 0), min(c, max(width - 2, 0)) + 1):
            yield a, b


def from_grid(grid: NumberGrid) -> Tectonic:
    """Check a parsed grid against the rules; raise PuzzleError naming the cell."""
    if grid.regions is None:
        raise PuzzleError(
            f"{grid.where}line {grid.row_line[0]}: a tectonic needs a block of region ids "
            f"after the grid of values ({grid.height} more lines)"
        )
    cells = check_regions(grid)
    puzzle = Tectonic(grid, cells)
    h, w = grid.height, grid.width
    for r, c, v in grid.givens():
        size = puzzle.size(r, c)
        if v > size:
            raise PuzzleError(
                f"{grid.cell(r, c)}: value {v} is out of range 1..{size} (its region has "
                f"{size} cells)"
            )
        for a, b in cells[grid.regions[r][c]]:
            if (a, b) < (r, c) and grid.values[a][b] == v:
                raise PuzzleError(
                    f"{grid.cell(r, c)}: value {v} is already given in the same region at "
                    f"row {a + 1}, column {b + 1}"
                )
        for a, b in touching(h, w, r, c):
            if (a, b) < (r, c) and grid.values[a][b] == v:
                raise PuzzleError(
                    f"{grid.cell(r, c)}: value {v} touches the same value given at "
                    f"row {a + 1}, column {b + 1}"
                )
    return puzzle


def parse(text: str) -> list[Tectonic]:
    """Every tectonic of a text: a grid then its region ids, or puzzlekit JSON.

    >>> [t.grid.height for t in parse("1 -\\n- -\\na a\\nb b\\n")]
    [2]
    """
    return [
        from_grid(g)
        for g in parse_grids(text, allow_lines=False, regions=True, max_value=len(SYMBOLS))
    ]


def build(puzzle: Tectonic) -> dlx.Problem:
    """The exact-cover problem (givens by leaving out the other options of their cell)."""
    grid = puzzle.grid
    h, w = grid.height, grid.width
    regions = grid.regions
    assert regions is not None
    primary = [f"p{r},{c}" for r in range(h) for c in range(w)]
    primary += [f"g{k}v{v}" for k, m in enumerate(puzzle.cells) for v in range(1, len(m) + 1)]
    secondary = {}
    options = []
    for r in range(h):
        for c in range(w):
            given = grid.values[r][c]
            for v in [given] if given else range(1, puzzle.size(r, c) + 1):
                items = [f"p{r},{c}", f"g{regions[r][c]}v{v}"]
                for a, b in windows(h, w, r, c):
                    name = f"w{a},{b}v{v}"
                    secondary[name] = None
                    items.append(name)
                options.append((f"{r},{c},{v}", items))
    problem = dlx.Problem(primary=primary, secondary=list(secondary))
    problem.add_options(options)
    return problem


def decode(puzzle: Tectonic, solution: dlx.Solution) -> list[list[int]]:
    """The filled grid from a solution (option names are ``r,c,v``)."""
    values = [[0] * puzzle.grid.width for _ in range(puzzle.grid.height)]
    for name in solution.names:
        r, c, v = (int(t) for t in name.split(","))
        values[r][c] = v
    return values


def is_solved(puzzle: Tectonic, values) -> bool:
    """Independent check: each region holds 1..p once, no equal numbers touch (sides or
    corners), every given kept."""
    grid = puzzle.grid
    h, w = grid.height, grid.width
    if len(values) != h or any(len(row) != w for row in values):
        return False
    for members in puzzle.cells:
        if sorted(values[r][c] for r, c in members) != list(range(1, len(members) + 1)):
            return False
    for r in range(h):
        for c in range(w):
            if grid.values[r][c] and grid.values[r][c] != values[r][c]:
                return False
            if any(values[a][b] == values[r][c] for a, b in touching(h, w, r, c)):
                return False
    return True


def solve(puzzle: Tectonic, limit: int | None = 2) -> Result:
    """Search one puzzle, counting up to ``limit`` solutions; keep the first."""
    problem = build(puzzle)
    stream = dlx.solutions(problem, limit=limit)
    first = None
    found = 0
    for solution in stream:
        found += 1
        if first is None:
            first = decode(puzzle, solution)
    return Result(puzzle.grid, found, first, stream.stats.nodes)


def count(puzzle: Tectonic, limit: int | None = None) -> dlx.Count:
    """The number of solutions (up to ``limit``)."""
    return dlx.count(build(puzzle), limit=limit)


def add_arguments(parser) -> None:
    """Options of ``python -m puzzles tectonic``."""
    parser.add_argument("file", help="puzzle file (grid + regions, or puzzlekit JSON); - stdin")
    parser.add_argument("--count", action="store_true", help="count each puzzle's solutions")
    parser.add_argument("--unique", action="store_true", help="say whether each is unique")
    parser.add_argument("--stats", action="store_true", help="print nodes per puzzle (stderr)")


def run(args) -> int:
    """Solve, count or check every puzzle of a file."""
    puzzles = parse(read_text(args.file))
    mode = "count" if args.count else "unique" if args.unique else "solve"
    t0 = time.perf_counter()
    results = []
    for puzzle in puzzles:
        if args.count:
            n = count(puzzle)
            first = solve(puzzle, limit=1)
            results.append(Result(puzzle.grid, n.solutions, first.values, n.stats.nodes))
        else:
            results.append(solve(puzzle, limit=2))
    seconds = time.perf_counter() - t0
    out, err, status = report(results, mode, args.stats)
    sys.stdout.write(out)
    sys.stderr.write(err + summary(results, seconds))
    return status
