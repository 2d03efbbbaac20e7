"""Pipe tiles, shared by the rotation puzzle (``loop``) and the placement puzzle (``pipes``).

Glossary:
- a *tile* is a set of pipe ends among up, right, down, left, written as a *mask*:
  ``1`` up, ``2`` right, ``4`` down, ``8`` left (the bit order of HoustonWeHaveABug's
  solver and of r/dailyprogrammer challenge 274), so 16 tiles, ``0`` the empty one.
- a *grid* is an int array ``[rows, columns]`` of masks (``-1``: a cell left free).
- an *edge* joins two neighbouring cells: ``h r,c`` joins (r, c) and (r, c+1), ``v r,c``
  joins (r, c) and (r+1, c). In an exact-cover model an edge is a secondary item
  coloured ``1`` (a pipe crosses it) or ``0`` (none), so the two cells must agree.
- a grid is *solved* when every pipe end meets a pipe end of its neighbour and no pipe
  points off the board.

Text formats (both puzzles): rows of numbers 0..15 separated by blanks, or rows of
box-drawing characters, one per cell (heavy ``╹╺┗╻┃┏┣╸┛━┻┓┫┳╋`` or light ``╵╶└╷│┌├╴┘─┴┐┤┬┼``,
a space for the empty tile). Either may start with the three lines ``ROWS``, ``COLUMNS``,
``0`` of HoustonWeHaveABug's files (``0``: "solve", where ``1`` asks that program to
generate). Lines starting with ``#`` are comments. (A one-column grid of numbers whose
first three rows read R, 1, 0, with R rows after them, is read as header and grid.)
Output is written in the input's format (light glyphs only if the input used no heavy
ones). Glyph rows must all have the same length
(write the spaces of empty tiles); with the header, short rows are padded with empty
tiles and missing rows are empty.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

import numpy as np

from puzzles.common import Answer, PuzzleError, colour, is_number, svg_document

UP, RIGHT, DOWN, LEFT = 1, 2, 4, 8
DIRECTIONS = (UP, RIGHT, DOWN, LEFT)
STEP = {UP: (-1, 0), RIGHT: (0, 1), DOWN: (1, 0), LEFT: (0, -1)}
OPPOSITE = {UP: DOWN, RIGHT: LEFT, DOWN: UP, LEFT: RIGHT}

# Indexed by mask. (The string ' ╸╻┓╺━┏┳╹┛┃┫┗┻┣╋' is the same set indexed by the reversed
# bit order 1 left, 2 down, 4 right, 8 up; tests check both against the Unicode names.)
HEAVY = " ╹╺┗╻┃┏┣╸┛━┻┓┫┳╋"
LIGHT = " ╵╶└╷│┌├╴┘─┴┐┤┬┼"
GLYPH_MASK = {g: m for table in (LIGHT, HEAVY) for m, g in enumerate(table)}
FREE = "."  # a free cell of a placement puzzle


def rotate(mask: int, quarters: int = 1) -> int:
    """The tile turned clockwise by ``quarters`` quarter turns (up goes right).

    >>> rotate(UP | RIGHT), rotate(UP, 3)
    (6, 8)
    """
    for _ in range(quarters % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


def rotations(mask: int) -> tuple[int, ...]:
    """The distinct tiles a tile can be turned into, itself first.

    >>> rotations(5), rotations(15), rotations(3)
    ((5, 10), (15,), (3, 6, 12, 9))
    """
    out: list[int] = []
    for k in range(4):
        m = rotate(mask, k)
        if m not in out:
            out.append(m)
    return tuple(out)


def off_board(mask: int, r: int, c: int, rows: int, columns: int) -> bool:
    """True when tile ``mask`` at (r, c) has a pipe pointing off the board."""
    return bool(
        (mask & UP and r == 0)
        or (mask & DOWN and r == rows - 1)
        or (mask & LEFT and c == 0)
        or (mask & RIGHT and c == columns - 1)
    )


def edge(r: int, c: int, direction: int) -> tuple[str, int, int]:
    """The edge leaving (r, c) in ``direction``, and the neighbour across it."""
    dr, dc = STEP[direction]
    if direction in (RIGHT, DOWN):
        return f"{'h' if direction == RIGHT else 'v'} {r},{c}", r + dr, c + dc
    r2, c2 = r + dr, c + dc
    return f"{'h' if direction == LEFT else 'v'} {r2},{c2}", r2, c2


def cell_name(r: int, c: int) -> str:
    """The primary item of cell (r, c)."""
    return f"{r},{c}"


def sides(r: int, c: int, inside) -> list[tuple[str, int]]:
    """The edges around (r, c) that take part in a model, with the direction of each.

    ``inside(r2, c2)`` says whether the neighbour across an edge takes part in the model
    (off-board edges and edges to cells outside it are left out).

    >>> sides(0, 0, lambda r, c: r >= 0 and c >= 0)
    [('h 0,0', 2), ('v 0,0', 4)]
    """
    out = []
    for d in DIRECTIONS:
        name, r2, c2 = edge(r, c, d)
        if inside(r2, c2):
            out.append((name, d))
    return out


def tile_entries(mask: int, around: list[tuple[str, int]]) -> list[str]:
    """The coloured edge items of tile ``mask`` in a cell with edges ``around`` (from
    ``sides``): ``"h r,c:1"`` where a pipe crosses, ``":0"`` where none does.

    >>> tile_entries(2, [("h 0,0", 2), ("v 0,0", 4)])
    ['h 0,0:1', 'v 0,0:0']
    """
    return [f"{name}:{1 if mask & d else 0}" for name, d in around]


def option_name(r: int, c: int, mask: int) -> str:
    """The name of the option "cell (r, c) shows tile ``mask``": ``"r,c=mask"``."""
    return f"{r},{c}={mask}"


def fill(grid: np.ndarray, names) -> np.ndarray:
    """Write the tiles named by options (``option_name``) into ``grid``; return it."""
    for name in names:
        where, mask = name.split("=")
        r, c = where.split(",")
        grid[int(r), int(c)] = int(mask)
    return grid


def edge_names(cells, inside) -> list[str]:
    """Every edge between two cells of ``cells`` (each once) for which ``inside`` holds."""
    names = []
    for r, c in cells:
        for d in (RIGHT, DOWN):
            name, r2, c2 = edge(r, c, d)
            if inside(r2, c2):
                names.append(name)
    return names


# -- the independent checker -------------------------------------------------------


def open_ends(grid) -> list[tuple[int, int, str]]:
    """Every pipe end that meets no pipe end (or the board's edge): (row, column, side).

    Written from the rules alone, for tests: an empty list means the grid is solved.

    >>> open_ends([[2, 8]]), open_ends([[2, 0]])
    ([], [(0, 0, 'right')])
    """
    grid = [[int(v) for v in row] for row in grid]
    rows, columns = len(grid), len(grid[0]) if grid else 0
    sides = (
        ("up", -1, 0, 1, 4),
        ("right", 0, 1, 2, 8),
        ("down", 1, 0, 4, 1),
        ("left", 0, -1, 8, 2),
    )
    found = []
    for r in range(rows):
        for c in range(columns):
            for side, dr, dc, bit, back in sides:
                if grid[r][c] & bit:
                    r2, c2 = r + dr, c + dc
                    if not (0 <= r2 < rows and 0 <= c2 < columns) or not grid[r2][c2] & back:
                        found.append((r, c, side))
    return found


def networks(grid) -> np.ndarray:
    """Label each non-empty cell with the number of its network (cells joined by pipes
    that meet), from 0 in reading order; empty cells get -1."""
    grid = np.asarray(grid)
    rows, columns = grid.shape
    label = np.full(grid.shape, -1, dtype=np.int64)
    count = 0
    for r0 in range(rows):
        for c0 in range(columns):
            if grid[r0, c0] == 0 or label[r0, c0] >= 0:
                continue
            label[r0, c0] = count
            stack = [(r0, c0)]
            while stack:
                r, c = stack.pop()
                for d in DIRECTIONS:
                    dr, dc = STEP[d]
                    r2, c2 = r + dr, c + dc
                    if (
                        grid[r, c] & d
                        and 0 <= r2 < rows
                        and 0 <= c2 < columns
                        and grid[r2, c2] & OPPOSITE[d]
                        and label[r2, c2] < 0
                    ):
                        label[r2, c2] = count
                        stack.append((r2, c2))
            count += 1
    return label


def is_connected(grid) -> bool:
    """True when all the pipes form at most one network."""
    return int(networks(grid).max(initial=-1)) <= 0


# -- text formats -------------------------------------------------------------------


@dataclass(frozen=True)
class GridFormat:
    """How a grid was written: ``numbers`` (else box-drawing glyphs), whether it had
    the three-line ``header``, and ``light`` glyphs (else heavy)."""

    numbers: bool
    header: bool = False
    light: bool = False


def _is_int(text: str) -> bool:
    """True for a line holding one non-negative integer."""
    return is_number(text.strip())


def grid_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of the text, comment lines (``#`` first) left out."""
    return [
        (n, line.rstrip("\r"))
        for n, line in enumerate(text.split("\n"), start=1)
        if not line.lstrip().startswith("#")
    ]


def _trim_blank(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines without blank lines at the start and at the end."""
    start, stop = 0, len(lines)
    while start < stop and not lines[start][1].strip():
        start += 1
    while stop > start and not lines[stop - 1][1].strip():
        stop -= 1
    return lines[start:stop]


def parse_grid(lines: list[tuple[int, str]], free: bool = False) -> tuple[np.ndarray, GridFormat]:
    """A grid of masks (``-1`` for ``.`` when ``free``) and the format it was written in.

    >>> grid, fmt = parse_grid(grid_lines("┏┓\\n┗┛"))
    >>> grid.tolist(), fmt.numbers
    ([[6, 12], [3, 9]], False)
    """
    lines = _trim_blank(lines)
    if not lines:
        raise PuzzleError("no grid found (the input is empty)")
    header_size = None
    content = [(n, s) for n, s in lines if s.strip()]
    if len(content) >= 3 and all(_is_int(s) for _, s in content[:3]):
        first_rows = content[3:]
        tokens = len(first_rows[0][1].split()) if first_rows else 0
        rows, columns, flag = (int(s) for _, s in content[:3])
        numeric_body = any(is_number(ch) for _, s in first_rows for ch in s)
        # rows of one number could be a one-column grid: then the shape must match
        one_column = numeric_body and tokens == 1
        if first_rows and (not one_column or (rows == len(first_rows) and columns == 1)):
            header_size = (rows, columns)
            if flag != 0:
                raise PuzzleError(
                    f"line {content[2][0]}: the third header line is {flag}; only 0 "
                    "(a puzzle to solve) is understood"
                )
            if rows <= 0 or columns <= 0:
                raise PuzzleError(f"line {content[0][0]}: the size {rows}x{columns} is empty")
            after = content[2][0]
            lines = _trim_blank([(n, s) for n, s in lines if n > after])
    body = [(n, s) for n, s in lines if s.strip()]
    numbers = any(is_number(ch) for _, s in body for ch in s)
    if free and not numbers and any(" " in s.strip() for _, s in body):
        # only free cells and blanks: ". . ." is read as numbers, ".. ." as glyphs
        numbers = all(re.fullmatch(r"\.(\s+\.)*", s.strip()) for _, s in body)
    if numbers:
        grid = _parse_numbers(body, free)
        fmt = GridFormat(numbers=True, header=header_size is not None)
    else:
        grid, light = _parse_glyphs(lines, free, header_size)
        fmt = GridFormat(numbers=False, header=header_size is not None, light=light)
    if header_size is not None and grid.shape != header_size:
        raise PuzzleError(
            f"the header says {header_size[0]}x{header_size[1]}, "
            f"the grid is {grid.shape[0]}x{grid.shape[1]}"
        )
    return grid, fmt


def _parse_numbers(lines: list[tuple[int, str]], free: bool) -> np.ndarray:
    """Rows of numbers 0..15 (and ``.`` when ``free``); refuse ragged rows."""
    if not lines:
        raise PuzzleError("no grid found after the header")
    rows = []
    for n, line in lines:
        row = []
        for k, token in enumerate(line.split(), start=1):
            if free and token == FREE:
                row.append(-1)
            elif is_number(token) and int(token) < 16:
                row.append(int(token))
            else:
                raise PuzzleError(f"line {n}, column {k}: {token!r} is not a tile (0..15)")
        if row and len(row) != len(rows[0] if rows else row):
            raise PuzzleError(f"line {n}: {len(row)} cells, but the first row has {len(rows[0])}")
        rows.append(row)
    return np.asarray(rows, dtype=np.int64)


def _parse_glyphs(lines, free: bool, size) -> tuple[np.ndarray, bool]:
    """Rows of box-drawing characters; ``size`` (from a header) allows short rows."""
    if size is None:
        width = len(lines[0][1])
        for n, line in lines:
            if len(line) != width:
                raise PuzzleError(
                    f"line {n}: {len(line)} cells, but the first row has {width} "
                    "(write the spaces of empty tiles)"
                )
    else:
        rows, width = size
        if len(lines) > rows:
            raise PuzzleError(f"line {lines[rows][0]}: more than the {rows} rows of the header")
        for n, line in lines:
            if len(line.rstrip()) > width:
                raise PuzzleError(f"line {n}: more than the {width} columns of the header")
        lines = [(n, line.ljust(width)[:width]) for n, line in lines]
        lines += [(0, " " * width)] * (rows - len(lines))
    grid = np.zeros((len(lines), width), dtype=np.int64)
    light = heavy = False
    for r, (n, line) in enumerate(lines):
        for c, ch in enumerate(line):
            if free and ch == FREE:
                grid[r, c] = -1
            elif ch in GLYPH_MASK:
                grid[r, c] = GLYPH_MASK[ch]
                light |= ch in LIGHT[1:]
                heavy |= ch in HEAVY[1:]
            else:
                name = unicodedata.name(ch, "unknown")
                raise PuzzleError(f"line {n}, column {c + 1}: {ch!r} ({name}) is not a tile")
    return grid, light and not heavy


def format_grid(grid, fmt: GridFormat) -> str:
    """The grid written in ``fmt`` (free cells as ``.``), ending with a newline.

    >>> print(format_grid([[6, 12], [3, 9]], GridFormat(numbers=True, header=True)), end="")
    2
    2
    0
    6 12
    3 9
    """
    grid = np.asarray(grid)
    out = [str(grid.shape[0]), str(grid.shape[1]), "0"] if fmt.header else []
    table = LIGHT if fmt.light else HEAVY
    for row in grid:
        if fmt.numbers:
            out.append(" ".join(FREE if v < 0 else str(int(v)) for v in row))
        else:
            out.append("".join(FREE if v < 0 else table[v] for v in row))
    return "\n".join(out) + "\n"


# -- answers and pictures --------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Tiled(Answer):
    """A solved grid of tiles: the puzzle (with its ``format``) and the ``grid`` of masks."""

    puzzle: object = field(repr=False)
    grid: np.ndarray

    def __eq__(self, other) -> bool:
        return isinstance(other, Tiled) and np.array_equal(self.grid, other.grid)

    def __hash__(self) -> int:
        return hash(self.grid.tobytes())

    def to_json(self) -> list[list[int]]:
        """The grid as rows of masks."""
        return self.grid.tolist()


def svg_tiles(grid, cell: int = 24, by_network: bool = True) -> str:
    """An SVG picture of the grid: each pipe end a thick line from the cell's centre to
    its side, dead ends drawn as a dot, each network in its own colour (or all dark
    grey when ``by_network`` is False); free cells (``-1``) are shaded."""
    grid = np.asarray(grid)
    rows, columns = grid.shape
    label = networks(np.where(grid < 0, 0, grid)) if by_network else None
    half, width = cell / 2, cell / 4
    body = []
    for r in range(rows):
        for c in range(columns):
            x, y = c * cell, r * cell
            shade = "#dddddd" if grid[r, c] < 0 else "none"
            body.append(
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{shade}" '
                'stroke="#eeeeee"/>'
            )
            mask = int(grid[r, c])
            if mask <= 0:
                continue
            ink = colour(int(label[r, c])) if by_network else "#333333"
            cx, cy = x + half, y + half
            for d in DIRECTIONS:
                if mask & d:
                    dr, dc = STEP[d]
                    body.append(
                        f'<line x1="{cx:g}" y1="{cy:g}" x2="{cx + dc * half:g}" '
                        f'y2="{cy + dr * half:g}" stroke="{ink}" stroke-width="{width:g}" '
                        'stroke-linecap="round"/>'
                    )
            if mask in (UP, RIGHT, DOWN, LEFT):
                body.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{width:g}" fill="{ink}"/>')
    return svg_document(columns * cell, rows * cell, body)
