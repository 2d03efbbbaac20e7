"""Sudoku of any size, with boxes or jigsaw regions, as exact cover.

Glossary (n = the side, e.g. 9):
- primary items: ``p{r},{c}`` (cell r,c is filled), ``r{r}v{v}`` (row r holds v),
  ``c{c}v{v}`` (column c holds v), ``b{k}v{v}`` (box or jigsaw region k holds v):
  ``4 n^2`` items.
- option ``(r, c, v)``: put v in cell r,c; it covers its cell, row, column and box
  items. Option number ``(r n + c) n + v - 1``, so ``n^3`` options.
- a puzzle is the empty grid's problem with the givens' options *forced*; the empty
  grid is built once per shape and shared by every puzzle of that shape.

Boxes: a side n = a b with a the largest divisor of n up to sqrt(n) has boxes of a rows
and b columns (4: 2x2, 6: 2x3, 9: 3x3, 16: 4x4, 25: 5x5); other sides need regions.

Known counts: the empty 4x4 grid has 288 solutions; every puzzle of the 17-clue list,
top95 and forum-hardest has exactly one; Serg's benchmark puzzles have 2 or more.
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

import dlx
from dlx import kernel
from puzzles.common import PuzzleError, read_text
from puzzles.numbergrid import (
    NumberGrid,
    check_regions,
    parse_grids,
    render_puzzlekit,
    render_values,
)

MAX_SIDE = 35  # values are written 1-9 then A-Z in one-character formats


@dataclass
class Sudoku:
    """A parsed sudoku: its grid (values, style) and the region of every cell."""

    grid: NumberGrid
    side: int
    region: tuple[tuple[int, ...], ...]  # region[r][c]: the box or jigsaw piece
    jigsaw: bool

    @property
    def shape(self) -> tuple:
        """What the empty grid's problem depends on: the side and the regions."""
        return (self.side, self.region)


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


def from_grid(grid: NumberGrid) -> Sudoku:
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
        for unit, name in (
            (("row", r), "row"),
            (("column", c), "column"),
            (("region", region[r][c]), "region" if jigsaw else "box"),
        ):
            other = seen.setdefault((unit, v), (r, c))
            if other != (r, c):
                raise PuzzleError(
                    f"{grid.cell(r, c)}: value {v} is already given in the same {name} "
                    f"at row {other[0] + 1}, column {other[1] + 1}"
                )
    return Sudoku(grid, side, region, jigsaw)


def parse(text: str) -> list[Sudoku]:
    """Every sudoku of a text: one-line puzzles, one grid (+ regions), or puzzlekit JSON.

    >>> [s.side for s in parse("1.3.\\n..1.\\n.1..\\n3..1\\n")]
    [4]
    """
    return [from_grid(g) for g in parse_grids(text)]


@lru_cache(maxsize=16)
def empty_problem(side: int, region: tuple[tuple[int, ...], ...]) -> dlx.Problem:
    """The problem of the empty grid of this shape (shared, do not modify)."""
    n = side
    cells = [f"p{r},{c}" for r in range(n) for c in range(n)]
    units = [f"{u}{k}v{v}" for u in "rcb" for k in range(n) for v in range(1, n + 1)]
    problem = dlx.Problem(primary=cells + units)
    for r in range(n):
        for c in range(n):
            k = region[r][c]
            for v in range(1, n + 1):
                problem.add_option([f"p{r},{c}", f"r{r}v{v}", f"c{c}v{v}", f"b{k}v{v}"])
    problem.arrays()
    return problem


def build(sudoku: Sudoku) -> dlx.Problem:
    """The exact-cover problem of the empty grid (use with ``forced(sudoku)``)."""
    return empty_problem(sudoku.side, sudoku.region)


def option_of(side: int, r: int, c: int, v: int) -> int:
    """The option that puts value ``v`` in cell ``r, c``."""
    return (r * side + c) * side + v - 1


def forced(sudoku: Sudoku) -> list[int]:
    """The options of the givens, to force in the empty grid's problem."""
    return [option_of(sudoku.side, r, c, v) for r, c, v in sudoku.grid.givens()]


def decode(sudoku: Sudoku, options) -> list[list[int]]:
    """The solved grid from a solution's options (forced ones included)."""
    n = sudoku.side
    flat = [0] * (n * n)
    for k in options:
        flat[k // n] = k % n + 1
    return [flat[r * n : (r + 1) * n] for r in range(n)]


def render(sudoku: Sudoku, values) -> str:
    """A solved grid in the puzzle's own format (not for puzzlekit: see render_all)."""
    return render_values(sudoku.grid, values)


def is_solved(sudoku: Sudoku, values) -> bool:
    """Independent check: a full grid, every row, column and region a permutation of
    1..n, and every given kept."""
    n = sudoku.side
    full = set(range(1, n + 1))
    if len(values) != n or any(len(row) != n for row in values):
        return False
    units: dict[tuple, list[int]] = {}
    for r in range(n):
        for c in range(n):
            v = values[r][c]
            given = sudoku.grid.values[r][c]
            if given and given != v:
                return False
            for key in (("r", r), ("c", c), ("b", sudoku.region[r][c])):
                units.setdefault(key, []).append(v)
    return len(units) == 3 * n and all(len(u) == n and set(u) == full for u in units.values())


# -- solving many ------------------------------------------------------------------


@dataclass
class Result:
    """One puzzle's outcome: solutions found (capped at the limit), the first one's
    grid (None if none) and the search nodes (a difficulty measure)."""

    sudoku: Sudoku
    count: int
    values: list[list[int]] | None
    nodes: int


def solve_all(puzzles: list[Sudoku], limit: int = 2) -> list[Result]:
    """Search every puzzle (counting up to ``limit``), one batch call per shape."""
    results: list[Result | None] = [None] * len(puzzles)
    by_shape: dict[tuple, list[int]] = {}
    for k, s in enumerate(puzzles):
        by_shape.setdefault(s.shape, []).append(k)
    for indices in by_shape.values():
        problem = build(puzzles[indices[0]])
        counts, first, nodes = batch_first_items(
            problem, [forced(puzzles[k]) for k in indices], limit
        )
        for j, k in enumerate(indices):
            values = None if first[j] is None else decode(puzzles[k], first[j])
            results[k] = Result(puzzles[k], int(counts[j]), values, int(nodes[j]))
    return results  # type: ignore[return-value]


def batch_first_items(problem: dlx.Problem, forced_sets, limit: int):
    """``dlx.batch`` for options whose first item is primary with bounds 1:1.

    A workaround for speed: ``dlx.batch`` finds each forced option's node by a Python
    loop over its items (about 20 us an option, more than the search of a 17-clue
    puzzle); here every option is forced by its first node, found by one numpy
    look-up for the whole batch. Returns counts, the first solutions' options (forced
    ones first, None where there is none) and the nodes of each search.
    """
    arrays = problem.arrays()
    lengths = np.fromiter((len(f) for f in forced_sets), dtype=np.int64, count=len(forced_sets))
    start = np.zeros(len(forced_sets) + 1, dtype=np.int64)
    np.cumsum(lengths, out=start[1:])
    flat = np.fromiter((k for f in forced_sets for k in f), dtype=np.int64, count=int(start[-1]))
    forced_nodes = arrays.first_node[flat].astype(np.int32)
    n = len(forced_sets)
    counts = np.zeros(n, dtype=np.int64)
    first_nodes = np.zeros((n, arrays.max_level), dtype=np.int32)
    stats = np.zeros((n, 3), dtype=np.int64)
    max_forced = int(lengths.max()) if n else 0
    kernel.search_batch(
        arrays.node.copy(),
        arrays.item.copy(),
        arrays.second,
        arrays.has_bounds,
        forced_nodes,
        start,
        arrays.max_level + max_forced,
        max(int(limit), 1),
        counts,
        first_nodes,
        stats,
    )
    chosen = np.where(first_nodes >= 0, arrays.option_of_node[first_nodes], -1)
    first: list[list[int] | None] = []
    for j in range(n):
        if counts[j] == 0:
            first.append(None)
        else:
            row = chosen[j]
            first.append(list(forced_sets[j]) + row[row >= 0].tolist())
    return counts, first, stats[:, 1]


def count(sudoku: Sudoku, limit: int | None = None) -> dlx.Count:
    """The number of solutions (up to ``limit``)."""
    return dlx.count(build(sudoku), limit=limit, forced=forced(sudoku))


def difficulty(sudoku: Sudoku) -> int:
    """Search nodes to solve and prove uniqueness: the engine's measure of difficulty."""
    return solve_all([sudoku], limit=2)[0].nodes


# -- generating --------------------------------------------------------------------

DIFFICULTY = {  # nodes per cell for the 2-solution search, as a band [lo, hi)
    "easy": (0.0, 1.4),
    "medium": (1.4, 2.0),
    "hard": (2.0, 1e9),
    "any": (0.0, 1e9),
}


def random_solution(side: int, region, rng: random.Random) -> list[list[int]]:
    """A random full grid: the first solution of the empty grid with shuffled options."""
    n = side
    base = empty_problem(side, region)
    order = list(range(base.n_options))
    rng.shuffle(order)
    problem = dlx.Problem(primary=base.primary)
    for k in order:
        problem.add_option(base.option(k), name=str(k))
    solution = dlx.first(problem)
    assert solution is not None
    values = [[0] * n for _ in range(n)]
    for name in solution.names:
        cell, v = divmod(int(name), n)
        values[cell // n][cell % n] = v + 1
    return values


def generate_one(template: Sudoku, rng: random.Random) -> Sudoku:
    """A puzzle with one solution: remove givens of a random full grid in random order
    while the solution stays unique (the result is minimal)."""
    n = template.side
    values = random_solution(n, template.region, rng)
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    problem = build(template)
    for r, c in cells:
        v = values[r][c]
        values[r][c] = 0
        givens = [option_of(n, a, b, w) for a in range(n) for b in range(n) if (w := values[a][b])]
        if dlx.count(problem, limit=2, forced=givens).solutions != 1:
            values[r][c] = v
    grid = NumberGrid(values, template.grid.regions, template.grid.style, template.grid.row_line)
    return Sudoku(grid, n, template.region, template.jigsaw)


def generate(
    count_: int,
    seed: int,
    level: str = "any",
    side: int = 9,
    template: Sudoku | None = None,
    max_tries: int = 200,
) -> list[Sudoku]:
    """``count_`` unique puzzles whose nodes per cell fall in the ``level`` band.

    Reproducible: the same seed, level and shape give the same puzzles.
    """
    lo, hi = DIFFICULTY[level]
    if template is None:
        if box_shape(side) is None:
            raise PuzzleError(f"a {side}x{side} sudoku has no box shape")
        empty = "\n".join("." * side for _ in range(side))
        template = from_grid(parse_grids(empty)[0])
    rng = random.Random(seed)
    out: list[Sudoku] = []
    tries = 0
    while len(out) < count_:
        tries += 1
        if tries > max_tries * count_:
            raise PuzzleError(f"no {level} puzzle found in {tries - 1} tries")
        puzzle = generate_one(template, rng)
        per_cell = difficulty(puzzle) / (template.side**2)
        if lo <= per_cell < hi:
            out.append(puzzle)
    return out


# -- command line --------------------------------------------------------------------


def add_arguments(parser) -> None:
    """Options of ``python -m puzzles sudoku``."""
    parser.add_argument("file", nargs="?", help="puzzle file (one-line, grid or JSON); - stdin")
    parser.add_argument("--count", action="store_true", help="count each puzzle's solutions")
    parser.add_argument("--unique", action="store_true", help="say whether each is unique")
    parser.add_argument("--stats", action="store_true", help="print nodes per puzzle (stderr)")
    parser.add_argument("--generate", type=int, metavar="N", help="generate N puzzles")
    parser.add_argument("--seed", type=int, default=0, help="random seed for --generate")
    parser.add_argument(
        "--difficulty", choices=sorted(DIFFICULTY), default="any", help="for --generate"
    )
    parser.add_argument("--size", type=int, default=9, help="side for --generate (4, 9, 16)")


def _run_generate(args) -> int:
    """Print generated puzzles, one line each, with their nodes as a comment."""
    template = None
    if args.file:
        puzzles = parse(read_text(args.file))
        template = puzzles[0]
    out = generate(args.generate, args.seed, args.difficulty, args.size, template)
    for s in out:
        nodes = difficulty(s)
        if s.jigsaw or s.side > MAX_SIDE:
            print(render_values(s.grid, s.grid.values))
            print()
        else:
            print(f"# nodes {nodes}")
            print(
                "".join(
                    str(v) if v < 10 else chr(55 + v) for row in s.grid.values for v in row
                ).replace("0", ".")
            )
    return 0


def run(args) -> int:
    """Solve, count or check every puzzle of a file, or generate puzzles."""
    if args.generate is not None:
        return _run_generate(args)
    if not args.file:
        raise PuzzleError("give a puzzle FILE (or --generate N)")
    puzzles = parse(read_text(args.file))
    limit = None if args.count else 2
    results = solve_all(puzzles, limit=limit or (1 << 40))
    status = 0
    solved = []
    for k, res in enumerate(results):
        label = res.sudoku.grid.where or f"line {res.sudoku.grid.row_line[0]}: "
        if args.stats:
            print(f"{label}{res.nodes} nodes", file=sys.stderr)
        if args.count:
            print(f"{label}{res.count} solutions")
            continue
        if args.unique:
            word = {0: "no solution", 1: "unique"}.get(res.count, "not unique")
            print(f"{label}{word}")
            status = status or (0 if res.count == 1 else 1)
            continue
        if res.values is None:
            print(f"error: {label}no solution", file=sys.stderr)
            status = 1
            continue
        if res.sudoku.grid.style.kind == "puzzlekit":
            solved.append((res.sudoku.grid, res.values))
        else:
            print(render(res.sudoku, res.values))
            if res.sudoku.grid.style.kind == "grid" and k + 1 < len(results):
                print()
    if solved:
        print(render_puzzlekit(solved))
    return status
