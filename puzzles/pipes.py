"""Pipes (placement): put a given set of tiles, unturned, on the free cells of a board so
that every pipe end meets a pipe end.

File format (UTF-8 text; ``#`` starts a comment line):

- the board: rows of cells, all of the same width, in either tile format of
  ``puzzles.tiles`` (numbers 0..15 separated by blanks, or box-drawing characters), with
  ``.`` for a free cell; any tile written on the board is fixed in advance;
- one or more lines ``tiles: T T T ...`` anywhere in the file: the tiles to place on the
  free cells, each ``T`` a number 0..15 or box-drawing characters (``┏┓`` is two tiles),
  optionally followed by ``*K`` for K copies (``━*3``, ``0*2`` for two empty tiles). The
  tiles must be exactly as many as the free cells; fixed tiles are not among them.

Example (a 3x4 board, one cell fixed; ``data/pipes/example.txt``)::

    ....
    .┫..
    ....
    tiles: ┏*2 ┓*2 ┗*2 ┛*2 ╺ 0*2

The answer is the board with every cell filled, in the board's format.

The model (MCC with colours):
- primary item ``r,c`` per cell, covered once;
- primary item ``tile m`` per kind of tile given, covered exactly as many times as
  there are copies (bounds lo = hi = count), so identical copies never multiply the
  solutions;
- option ``r,c=m``: free cell (r, c) gets tile m (with ``tile m``), or a fixed cell its
  own tile; with the edges around the cell coloured as in ``puzzles.loop``;
- secondary items ``h r,c`` / ``v r,c``: the edges, coloured ``1`` (pipe) or ``0``.

``connected=True`` keeps only the solutions whose pipes form one network. This is a
filter on the streamed solutions, not part of the model: it is exponential in the number
of solutions and meant for small boards.

Known counts (checked against a brute-force search in ``tests/test_pipes.py``): the
example above has 6 solutions, 2 of them connected.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

import dlx
from puzzles.command import Command, Request
from puzzles.common import (
    Answers,
    PuzzleError,
    as_puzzle,
    dlx_search,
    is_number,
    refuse_larger,
    stream,
)
from puzzles.tiles import (
    GLYPH_MASK,
    HEAVY,
    LIGHT,
    GridFormat,
    Tiled,
    cell_name,
    edge_names,
    fill,
    format_grid,
    grid_lines,
    is_connected,
    off_board,
    open_ends,
    option_name,
    parse_grid,
    sides,
    svg_tiles,
    tile_entries,
)

Grid = np.ndarray  # int64[rows, columns] of masks; -1 for a free cell

TILES_LINE = re.compile(r"^\s*tiles\s*:(.*)$", re.IGNORECASE)
TOKEN = re.compile(r"^(.+?)(?:\*([0-9]+))?$")


@dataclass(frozen=True)
class Puzzle:
    """The ``board`` (masks, -1 for free cells), how many of each tile to place
    (``counts[m]``), the format the board was written in, and whether only
    ``connected`` solutions (one network of pipes) count."""

    board: Grid
    counts: dict[int, int]
    format: GridFormat
    connected: bool = False

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns)."""
        return self.board.shape


def _parse_tiles(n: int, text: str, counts: Counter) -> None:
    """Add the tiles of one ``tiles:`` line (line ``n``) to ``counts``."""
    for k, token in enumerate(text.split(), start=1):
        match = TOKEN.match(token)
        body, times = match.group(1), int(match.group(2) or 1)
        where = f"line {n}, tile {k} ({token!r})"
        if is_number(body):
            if int(body) > 15:
                raise PuzzleError(f"{where}: {body} is not a tile (0..15)")
            masks = [int(body)]
        else:
            unknown = [ch for ch in body if ch not in GLYPH_MASK or ch == " "]
            if unknown:
                raise PuzzleError(f"{where}: {unknown[0]!r} is not a tile")
            masks = [GLYPH_MASK[ch] for ch in body]
            if match.group(2) and len(masks) > 1:
                raise PuzzleError(f"{where}: '*{times}' after more than one tile")
        for m in masks:
            counts[m] += times


class Answer(Tiled):
    """A solved placement puzzle: ``grid[r, c]``, the tile on each cell."""


def parse(text: str, connected: bool = False) -> Puzzle:
    """A placement puzzle from its text (see the module's docstring); ``connected``: only
    solutions with one network of pipes count.

    >>> p = parse("..\\n..\\ntiles: ┏┓┗┛")
    >>> p.board.tolist(), sorted(p.counts.items())
    ([[-1, -1], [-1, -1]], [(3, 1), (6, 1), (9, 1), (12, 1)])
    """
    board_lines, counts, seen = [], Counter(), []
    for n, line in grid_lines(text):
        match = TILES_LINE.match(line)
        if match:
            _parse_tiles(n, match.group(1), counts)
            seen.append(n)
        else:
            board_lines.append((n, line))
    if not seen:
        raise PuzzleError("no 'tiles:' line: give the tiles to place")
    board, fmt = parse_grid(board_lines, free=True)
    free = int((board < 0).sum())
    given = sum(counts.values())
    if given != free:
        raise PuzzleError(
            f"line {seen[0]}: {given} tiles to place, but the board has {free} free cells"
        )
    if not fmt.numbers:  # light glyphs out if the file (tiles lines too) used only those
        used = {ch for _, line in grid_lines(text) for ch in line}
        light = bool(used & set(LIGHT[1:])) and not used & set(HEAVY[1:])
        fmt = replace(fmt, light=light)
    return Puzzle(board, dict(sorted((m, k) for m, k in counts.items() if k)), fmt, connected)


def parse_all(text: str, connected: bool = False) -> list[Puzzle]:
    """Every puzzle of a text: a file holds one."""
    return [parse(text, connected)]


def build(puzzle: Puzzle) -> dlx.Problem:
    """The exact-cover problem (MCC with colours) of the placement puzzle.

    >>> p = build(parse(".╸\\ntiles: ╺"))
    >>> [p.option(k) for k in range(p.n_options)], p.bounds("tile 2")
    ([['0,0', 'tile 2', 'h 0,0:1'], ['0,1', 'h 0,0:1']], (1, 1))
    """
    rows, columns = puzzle.shape
    refuse_larger(6 * 16 * rows * columns, f"the {rows}x{columns} grid")  # 16 tiles a cell
    cells = [(r, c) for r in range(rows) for c in range(columns)]

    def inside(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < columns

    problem = dlx.Problem(secondary=edge_names(cells, inside))
    for r, c in cells:
        problem.add_primary(cell_name(r, c))
    for m, k in puzzle.counts.items():
        problem.add_primary(f"tile {m}", k, k)
    for r, c in cells:
        around = sides(r, c, inside)
        given = int(puzzle.board[r, c])
        for m in puzzle.counts if given < 0 else [given]:
            if off_board(m, r, c, rows, columns):
                continue
            kind = [f"tile {m}"] if given < 0 else []
            entries = [cell_name(r, c), *kind, *tile_entries(m, around)]
            problem.add_option(entries, name=option_name(r, c, m))
    return problem


def decode(puzzle: Puzzle, solution: dlx.Solution) -> Answer:
    """The filled board of one solution."""
    return Answer(puzzle, fill(puzzle.board.copy(), solution.names))


def parse_answer(text: str) -> Grid:
    """A filled board as written by ``render`` (either format), e.g. to check it."""
    return parse_grid(grid_lines(text))[0]


def render(answer: Answer) -> str:
    """The filled board as text, in its puzzle's format."""
    return format_grid(answer.grid, answer.puzzle.format)


def svg(answer: Answer) -> str:
    """The filled board as an SVG picture (networks coloured)."""
    return svg_tiles(answer.grid)


def solutions(
    puzzle: Puzzle,
    limit: int | None = None,
    connected=None,
    *,
    parallel: dlx.Parallel | None = None,
    **search,
) -> Answers:
    """The answers, streamed; ``connected`` (default: the puzzle's) keeps those with one
    network only; ``search``: ``time_limit``, ``node_limit``, ``progress``;
    ``parallel``: a ``dlx.Parallel`` to search on several processes (default: this one)."""
    connected = puzzle.connected if connected is None else connected
    search = {**search, "parallel": parallel}
    if not connected:
        return stream(build(puzzle), lambda s: decode(puzzle, s), limit, **search)
    found = dlx.solutions(build(puzzle), **dlx_search(search))
    return Answers(found, lambda s: decode(puzzle, s), lambda a: is_connected(a.grid), limit)


def solve(text_or_puzzle, **search) -> Answer | None:
    """The first answer of a puzzle (text or parsed), or None when it has none."""
    return next(iter(solutions(as_puzzle(text_or_puzzle, parse), 1, **search)), None)


def count(
    text_or_puzzle,
    limit: int | None = None,
    connected=None,
    *,
    parallel: dlx.Parallel | None = None,
    **search,
) -> dlx.Count:
    """The number of solutions of a puzzle (text or parsed), up to ``limit``; ``search``
    and ``parallel`` as for ``solutions``.

    >>> p = parse("....\\n.┫..\\n....\\ntiles: ┏*2 ┓*2 ┗*2 ┛*2 ╺ 0*2")
    >>> print(count(p), count(p, connected=True))
    6 2
    """
    puzzle = as_puzzle(text_or_puzzle, parse)
    if not (puzzle.connected if connected is None else connected):
        return dlx.count(build(puzzle), limit=limit, **dlx_search({**search, "parallel": parallel}))
    found = solutions(puzzle, limit, connected=True, parallel=parallel, **search)
    n = sum(1 for _ in found)
    stats = found.account.stats
    return dlx.Count(solutions=n, complete=found.complete, stats=stats, stopped_by=found.stopped_by)


def faults(puzzle: Puzzle, answer) -> list[str]:
    """What is wrong with ``answer`` (an Answer or a grid of masks) as a solution, from
    the rules alone: fixed cells kept, the free cells hold exactly the given tiles, every
    pipe end meets a pipe end."""
    grid = np.asarray(getattr(answer, "grid", answer))
    if grid.shape != puzzle.board.shape:
        return [f"the grid is {grid.shape}, the board {puzzle.board.shape}"]
    found = []
    free = puzzle.board < 0
    for r, c in zip(*np.nonzero(~free), strict=True):
        if grid[r, c] != puzzle.board[r, c]:
            found.append(f"cell {r},{c}: fixed tile {puzzle.board[r, c]} became {grid[r, c]}")
    placed = Counter(int(v) for v in grid[free])
    if placed != Counter(puzzle.counts):
        found.append(f"tiles placed {dict(placed)}, given {puzzle.counts}")
    found += [f"cell {r},{c}: open pipe end {side}" for r, c, side in open_ends(grid)]
    return found


# -- command line (see puzzles.cli) -------------------------------------------------


def add_arguments(parser) -> None:
    """The options of ``python -m puzzles pipes`` beyond the shared ones."""
    parser.add_argument(
        "--connected",
        action="store_true",
        help="only solutions whose pipes form one network (a filter: small boards)",
    )


def read(text: str, request: Request) -> list[Puzzle]:
    """The puzzle of an input file, with the command's flags."""
    return parse_all(text, request.options.connected)


COMMAND = Command(
    name="pipes",
    help="place a given set of pipe tiles on a board",
    read=read,
    solutions=solutions,
    count=count,
    add_arguments=add_arguments,
)
