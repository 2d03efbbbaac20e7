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

>>> print(solve("1 -\\n- -\\n- -\\na a\\nb b\\nb b\\n"), end="")
1 2
3 4
1 2
"""

from __future__ import annotations

from dataclasses import dataclass

import dlx
from puzzles.command import Command
from puzzles.common import (
    Answers,
    PuzzleError,
    as_puzzle,
    dlx_search,
    only,
    refuse_larger,
    stream,
)
from puzzles.numbergrid import (
    SYMBOLS,
    Filled,
    NumberGrid,
    check_regions,
    parse_grids,
    render_values,
    svg_grid,
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

    @property
    def label(self) -> str:
        """Where the puzzle came from: ``line 7`` or ``puzzle 3``."""
        return self.grid.where.rstrip(": ") or f"line {self.grid.row_line[0]}"


class Answer(Filled):
    """A solved tectonic: ``values[r][c]`` (``puzzle``: the Tectonic)."""


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


def parse(text: str) -> Tectonic:
    """The one tectonic of a text (see ``parse_all``).

    >>> parse("1 -\\n- -\\na a\\nb b\\n").grid.height
    2
    """
    return only(parse_all(text))


def parse_all(text: str) -> list[Tectonic]:
    """Every tectonic of a text: grids each followed by its region ids, or puzzlekit
    JSON."""
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
    largest = max((len(m) for m in puzzle.cells), default=1)  # values a cell may take
    refuse_larger(11 * largest * h * w, f"the {h}x{w} grid")  # 2 items and 9 windows
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


def decode(puzzle: Tectonic, solution: dlx.Solution) -> Answer:
    """The filled grid of a solution (option names are ``r,c,v``)."""
    values = [[0] * puzzle.grid.width for _ in range(puzzle.grid.height)]
    for name in solution.names:
        r, c, v = (int(t) for t in name.split(","))
        values[r][c] = v
    return Answer(puzzle, values)


def render(answer: Answer) -> str:
    """A filled grid in its puzzle's own format, ending with a newline."""
    return render_values(answer.puzzle.grid, answer.values) + "\n"


def svg(answer: Answer, cell: int = 32) -> str:
    """A filled grid as SVG: regions outlined, givens in black."""
    grid = answer.puzzle.grid
    return svg_grid(grid, answer.values, grid.regions, cell)


def faults(puzzle: Tectonic, answer) -> list[str]:
    """What is wrong with ``answer`` (an Answer or rows of values) as a solution, from
    the rules alone: each region of p cells holds 1..p, every given kept, no equal
    numbers touch (sides or corners). An empty list: it is a solution."""
    values = getattr(answer, "values", answer)
    grid = puzzle.grid
    h, w = grid.height, grid.width
    if len(values) != h or any(len(row) != w for row in values):
        return [f"the grid is not {h}x{w}"]
    found = []
    for members in puzzle.cells:
        held = sorted(values[r][c] for r, c in members)
        if held != list(range(1, len(members) + 1)):
            r, c = members[0]
            found.append(
                f"the region of row {r + 1}, column {c + 1} holds {held}, not 1..{len(members)}"
            )
    for r in range(h):
        for c in range(w):
            if grid.values[r][c] and grid.values[r][c] != values[r][c]:
                found.append(
                    f"row {r + 1}, column {c + 1}: the given {grid.values[r][c]} became "
                    f"{values[r][c]}"
                )
            for a, b in touching(h, w, r, c):
                if (a, b) > (r, c) and values[a][b] == values[r][c]:
                    found.append(
                        f"row {r + 1}, column {c + 1}: {values[r][c]} touches the same at "
                        f"row {a + 1}, column {b + 1}"
                    )
    return found


def solutions(
    puzzle: Tectonic, limit: int | None = None, *, parallel: dlx.Parallel | None = None, **search
) -> Answers:
    """The answers of one tectonic, streamed; ``search``: ``time_limit``, ``node_limit``,
    ``progress`` (as for ``dlx.solutions``); ``parallel``: a ``dlx.Parallel`` to search
    on several processes (default: this one)."""
    return stream(build(puzzle), lambda s: decode(puzzle, s), limit, parallel=parallel, **search)


def solve(text_or_puzzle, **search) -> Answer | None:
    """The first answer of a tectonic (text or parsed), or None when it has none."""
    puzzle = as_puzzle(text_or_puzzle, parse)
    return next(iter(solutions(puzzle, 1, **search)), None)


def count(
    text_or_puzzle, limit: int | None = None, *, parallel: dlx.Parallel | None = None, **search
) -> dlx.Count:
    """The number of solutions of a tectonic (text or parsed), up to ``limit``;
    ``search`` and ``parallel`` as for ``solutions``."""
    puzzle = as_puzzle(text_or_puzzle, parse)
    return dlx.count(build(puzzle), limit=limit, **dlx_search({**search, "parallel": parallel}))


# -- command line (see puzzles.cli) -------------------------------------------------

COMMAND = Command(
    name="tectonic",
    help="solve tectonic / suguru",
    read=lambda text, request: parse_all(text),  # no flags of its own
    solutions=solutions,
    count=count,
)
