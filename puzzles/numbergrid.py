"""Grids of numbers with regions, shared by the sudoku and tectonic adapters.

Glossary:
- *value*: a cell's number, ``1..n``; ``0`` is an empty cell. A *given* is a value
  printed in the puzzle.
- *region*: a set of cells sharing a region id (a jigsaw piece, a tectonic block);
  ``regions[r][c]`` numbers them from 0 in reading order of their first cell.
- *style*: how the puzzle was written, so that an answer is printed the same way:
  ``line`` (one puzzle a line, one character a cell: ``4.....8.5.3...``), ``grid``
  (one row a line, characters or blank-separated tokens, then optionally a second block
  of region ids) or ``puzzlekit`` (JSON, see ``puzzles.common.load_puzzlekit``).

Cells are reported 1-based as ``row R, column C``, with the line they come from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from puzzles.common import (
    Answer,
    PuzzleError,
    content_lines,
    is_number,
    number,
    puzzlekit_entries,
    puzzlekit_grids,
    split_grid,
    svg_document,
)

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # value v is SYMBOLS[v - 1]
_LINE_SYMBOLS = "." + SYMBOLS  # value v is _LINE_SYMBOLS[v], 0 (empty) is "."
LINE_BYTES = np.frombuffer(_LINE_SYMBOLS.encode(), np.uint8)  # the same, as bytes
EMPTY = {".", "0", "-", "_", "*"}


@dataclass
class Style:
    """How a grid was written: ``kind`` (line, grid, puzzlekit), blank-separated tokens
    or one character a cell, and the puzzlekit entry's id."""

    kind: str
    separated: bool = False
    id: str = ""


class ArrayRows:
    """The ``values`` field of a slotted dataclass (see ``array_rows``): rows of values
    (or None), read as lists of lists but kept as the int array it was given (for example
    a view into the array of a whole file) until first read, so that a batch of puzzles
    is parsed and solved without a Python list per row and an int per cell."""

    def __init__(self, slot):
        self.slot = slot  # the member descriptor that stores the value

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        raw = self.slot.__get__(obj)
        if isinstance(raw, np.ndarray):
            raw = raw.tolist()
            self.slot.__set__(obj, raw)
        return raw

    def __set__(self, obj, value) -> None:
        self.slot.__set__(obj, value)

    def raw(self, obj):
        """What was stored: an int array, rows of lists or None."""
        return self.slot.__get__(obj)


def array_rows(cls):
    """Make the ``values`` field of a ``@dataclass(slots=True)`` an ``ArrayRows``."""
    cls.values = ArrayRows(cls.__dict__["values"])
    return cls


@array_rows
@dataclass(slots=True)
class NumberGrid:
    """A square or rectangular grid of values (0 empty) with optional regions.

    ``values`` may be given as an int array [height, width]: it turns into lists when
    first read (``array`` reads it without that). ``row_line[r]``: the line of the input
    that row ``r`` came from (for messages); ``where``: a prefix for messages
    (``"puzzle 3_9x9: "`` for puzzlekit entries).
    """

    values: list[list[int]]
    regions: list[list[int]] | None
    style: Style
    row_line: list[int]
    where: str = ""
    region_line: list[int] = field(default_factory=list)

    @property
    def height(self) -> int:
        """Number of rows."""
        return len(NumberGrid.values.raw(self))

    @property
    def width(self) -> int:
        """Number of columns."""
        return len(NumberGrid.values.raw(self)[0])

    @property
    def array(self) -> np.ndarray:
        """The values as an int array [height, width] (not a copy when given as one)."""
        raw = NumberGrid.values.raw(self)
        return raw if isinstance(raw, np.ndarray) else np.array(raw, dtype=np.int64)

    def cell(self, r: int, c: int, regions: bool = False) -> str:
        """``line L, row R, column C`` for messages (the region block's line if asked)."""
        lines = self.region_line if regions and self.region_line else self.row_line
        return f"{self.where}line {lines[r]}, row {r + 1}, column {c + 1}"

    def givens(self) -> list[tuple[int, int, int]]:
        """(row, column, value) of every given, in reading order."""
        return [(r, c, v) for r, row in enumerate(self.values) for c, v in enumerate(row) if v]


def _token_value(token: str, separated: bool) -> int | None:
    """The value of a token: 0 for empty, None when it is not a value at all."""
    if token in EMPTY:
        return 0
    if separated:
        return int(token) if is_number(token) else None
    k = SYMBOLS.find(token.upper())
    return k + 1 if k >= 0 else None


VALUE_OF = {ch: k + 1 for k, ch in enumerate(SYMBOLS)}
VALUE_OF.update({ch.lower(): k + 1 for k, ch in enumerate(SYMBOLS) if ch.isalpha()})
VALUE_OF.update(dict.fromkeys(EMPTY, 0))


def _values(rows, lines, separated, where, max_value) -> list[list[int]]:
    """Rows of tokens to values, refusing bad tokens and values above ``max_value``."""
    if not separated:  # fast path: one dictionary look-up a cell
        fast = [[VALUE_OF.get(t, -1) for t in row] for row in rows]
        if all(0 <= v <= max_value for row in fast for v in row):
            return fast
    out = []
    for r, (row, n) in enumerate(zip(rows, lines, strict=True)):
        values = []
        for c, token in enumerate(row):
            v = _token_value(token, separated)
            place = f"{where}line {n}, row {r + 1}, column {c + 1}"
            if v is None:
                raise PuzzleError(f"{place}: {token!r} is not a value")
            if v > max_value and not separated:
                raise PuzzleError(
                    f"{place}: {token!r} is not a value (1..{SYMBOLS[max_value - 1]} here)"
                )
            if v > max_value:
                raise PuzzleError(f"{place}: value {v} is out of range 1..{max_value}")
            values.append(v)
        out.append(values)
    return out


def region_grid(rows: list[list[str]]) -> list[list[int]]:
    """Region ids (any tokens) to region numbers from 0, in reading order."""
    number: dict[str, int] = {}
    return [[number.setdefault(t, len(number)) for t in row] for row in rows]


def _grid_of(lines, where, max_value, separated=None, regions=None) -> NumberGrid:
    """A value block, optionally followed by a region block of the same height.

    ``regions``: True: the second half of the lines are region ids; None: only when the
    block is twice as high as wide (a square puzzle with its regions).
    """
    rows = split_grid(lines, separated)
    sep = separated if separated is not None else len(rows[0]) < len(lines[0][1].strip())
    height = len(rows)
    found = None
    region_line: list[int] = []
    if height == 2 * len(rows[0]) if regions is None else regions and height % 2 == 0:
        height //= 2
        found = region_grid(rows[height:])
        region_line = [n for n, _ in lines[height:]]
    values = _values(rows[:height], [n for n, _ in lines[:height]], sep, where, max_value)
    style = Style("grid", sep)
    return NumberGrid(values, found, style, [n for n, _ in lines[:height]], where, region_line)


def parse_puzzlekit(text: str, max_value=None) -> list[NumberGrid]:
    """Every puzzle of a puzzlekit JSON text (``{"puzzles": {id: {"problem": ...}}}``)."""
    out = []
    for key, problem in ((e.id, e.text) for e in puzzlekit_entries(text)):
        where = f"puzzle {key}: "
        try:
            height, width, blocks = puzzlekit_grids(problem)
        except PuzzleError as e:
            raise PuzzleError(f"{where}{e}") from None
        lines = list(range(2, 2 + height))
        limit = max_value or max(height, width)
        values = _values(blocks[0], lines, True, where, limit)
        regions = region_grid(blocks[1]) if len(blocks) > 1 else None
        style = Style("puzzlekit", True, key)
        out.append(NumberGrid(values, regions, style, lines, where, [n + height for n in lines]))
    return out


def blocks(text: str) -> list[list[tuple[int, str]]]:
    """Numbered content lines, split into blocks at blank lines (comments do not split)."""
    out: list[list[tuple[int, str]]] = [[]]
    for n, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            if out[-1]:
                out.append([])
        elif not stripped.startswith("#"):
            out[-1].append((n, line))
    return [b for b in out if b]


def parse_grids(
    text: str, allow_lines: bool = True, regions: bool | None = None, max_value=None
) -> list[NumberGrid]:
    """Every puzzle in ``text`` (see ``parse_grids_array``)."""
    return parse_grids_array(text, allow_lines, regions, max_value)[0]


def parse_grids_array(
    text: str, allow_lines: bool = True, regions: bool | None = None, max_value=None
) -> tuple[list[NumberGrid], np.ndarray | None]:
    """Every puzzle in ``text``: puzzlekit JSON, one-line puzzles, or grids.

    Grids are separated by blank lines; each is a block of values followed by a block
    of region ids as high as it (when ``regions`` is True: always, with or without a
    blank line between: a block after a blank line is a region block when it is as high
    as the value block before it and holds no empty-cell token; when None: only if the
    block is twice as high as wide). A text
    whose first line has blanks, or is shorter than 16 characters, or as long as the
    text is high (or half as high), is read as grids; otherwise each line is a puzzle of
    n*n characters. Values above ``max_value`` (default: the width) are refused.

    Also returns, for a text of one-line puzzles of one size, their values as an
    int64 array [puzzles, n, n] (None otherwise).
    """
    if text.lstrip().startswith("{"):
        return parse_puzzlekit(text, max_value), None
    lines = content_lines(text)
    if not lines:
        raise PuzzleError("no puzzle found (the input is empty)")
    first = lines[0][1].strip()
    separated = " " in first or "\t" in first
    width = len(first.split()) if separated else len(first)
    if not allow_lines or not _one_a_line(lines):
        found = blocks(text)
        if regions:  # a region block after a blank line joins its value block
            joined: list[list[tuple[int, str]]] = []
            alone = True  # the last block of ``joined`` is one block, not yet joined
            for block in found:
                previous = joined[-1] if joined else None
                ids = not any(t in EMPTY for _, line in block for t in line.split())
                if previous is not None and alone and len(previous) == len(block) and ids:
                    joined[-1], alone = previous + block, False
                else:
                    joined.append(block)
                    alone = True
            found = joined
        limit = max_value or max(width, 1)
        return [_grid_of(block, "", limit, separated, regions) for block in found], None
    array = _line_array(lines)
    if array is not None:
        style = Style("line")
        size = array.shape[1]
        grids = [
            NumberGrid(v, None, style, [n] * size) for (n, _), v in zip(lines, array, strict=True)
        ]
        return grids, array
    out = []
    for n, line in lines:
        chars = line.strip()
        size = math.isqrt(len(chars))
        if size * size != len(chars) or size < 1:
            raise PuzzleError(f"line {n}: {len(chars)} characters is not a square number")
        rows = [list(chars[r * size : (r + 1) * size]) for r in range(size)]
        values = _values(rows, [n] * size, False, "", size)
        out.append(NumberGrid(values, None, Style("line"), [n] * size))
    return out, None


def _one_a_line(lines: list[tuple[int, str]]) -> bool:
    """Whether numbered content lines hold one puzzle a line (see ``parse_grids_array``)."""
    first = lines[0][1].strip()
    if " " in first or "\t" in first:
        return False
    return len(first) >= 16 and len(lines) not in (len(first), 2 * len(first))


def line_array(text: str) -> tuple[np.ndarray, np.ndarray] | None:
    """For a text of valid one-line puzzles of one size, as ``parse_grids_array`` reads
    them: their values, int64 [puzzles, n, n], and the line of each, int64 [puzzles];
    None for any other text (``parse_grids_array`` reads it, or names what is wrong).

    >>> values, lines = line_array("# two\\n" + "1" + "." * 15 + "\\n" + "." * 16 + "\\n")
    >>> values.shape, lines.tolist()
    ((2, 4, 4), [2, 3])
    """
    if text.lstrip().startswith("{"):
        return None
    lines = content_lines(text)
    if not lines or not _one_a_line(lines):
        return None
    array = _line_array(lines)
    return None if array is None else (array, np.array([n for n, _ in lines], dtype=np.int64))


_VALUE_TABLE = np.full(256, -1, dtype=np.int64)
for _ch, _v in VALUE_OF.items():
    _VALUE_TABLE[ord(_ch)] = _v


def _line_array(lines: list[tuple[int, str]]) -> np.ndarray | None:
    """One-line puzzles of one size, all valid, read with one table look-up, as an
    array [puzzles, n, n]; None when the slow path must run (to read odd lines or to
    name the first bad cell)."""
    texts = [line.strip() for _, line in lines]
    length = len(texts[0])
    size = math.isqrt(length)
    if size * size != length or any(len(t) != length for t in texts):
        return None
    raw = np.frombuffer("".join(texts).encode("ascii", errors="replace"), dtype=np.uint8)
    values = _VALUE_TABLE[raw].reshape(len(texts), size, size)
    if values.min() < 0 or values.max() > size:
        return None
    return values


def region_cells(regions: list[list[int]]) -> list[list[tuple[int, int]]]:
    """The cells of each region, in reading order."""
    cells: list[list[tuple[int, int]]] = [[] for _ in range(1 + max(map(max, regions)))]
    for r, row in enumerate(regions):
        for c, k in enumerate(row):
            cells[k].append((r, c))
    return cells


def check_regions(grid: NumberGrid, size: int | None = None) -> list[list[tuple[int, int]]]:
    """Refuse regions that are not connected (or not of ``size`` cells); return the cells."""
    assert grid.regions is not None
    cells = region_cells(grid.regions)
    for members in cells:
        r, c = members[0]
        if size is not None and len(members) != size:
            raise PuzzleError(
                f"{grid.cell(r, c, True)}: its region has {len(members)} cells, not {size}"
            )
        inside = set(members)
        seen = {members[0]}
        todo = [members[0]]
        while todo:
            a, b = todo.pop()
            for nb in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                if nb in inside and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        if len(seen) != len(members):
            apart = min(inside - seen)
            raise PuzzleError(
                f"{grid.cell(*apart, True)}: its region is not connected to the cell at "
                f"row {r + 1}, column {c + 1}"
            )
    return cells


def symbol(v: int) -> str:
    """The one-character symbol of a value (``.`` for empty)."""
    return SYMBOLS[v - 1] if v else "."


def render_values(grid: NumberGrid, values) -> str:
    """Values (rows of lists, or an int array) in the grid's own style (a line, rows,
    or a puzzlekit solution text)."""
    if isinstance(values, np.ndarray):
        if grid.style.kind == "line":  # a batch's answer: no list per row, no int per cell
            return LINE_BYTES[values].tobytes().decode()
        values = values.tolist()
    if grid.style.kind == "line":
        return "".join([_LINE_SYMBOLS[v] for row in values for v in row])
    if grid.style.separated:
        body = "\n".join(" ".join(str(v) if v else "-" for v in row) for row in values)
        if grid.style.kind == "puzzlekit":
            return f"{grid.height} {grid.width}\n{body}"
        return body
    return "\n".join("".join(symbol(v) for v in row) for row in values)


def render_grid(grid: NumberGrid) -> str:
    """A puzzle as a grid of values (and its region ids, if any) that parses back."""
    style = Style("grid", grid.style.kind != "line" and grid.style.separated)
    text = render_values(NumberGrid(grid.values, None, style, grid.row_line), grid.values)
    if grid.regions is None:
        return text
    if style.separated:
        rows = [" ".join(str(k + 1) for k in row) for row in grid.regions]
    else:
        rows = [
            "".join(SYMBOLS[k] if k < len(SYMBOLS) else "?" for k in row) for row in grid.regions
        ]
    return text + "\n" + "\n".join(rows)


def parse_solution_text(text: str) -> list[list[int]]:
    """A puzzlekit solution text (``R C`` then rows of numbers) as rows of values; what
    follows the first R rows (some entries repeat the grid after ``[solution]``) is
    ignored."""
    lines = content_lines(text)
    height = number(lines[0][1].split()[0])
    return [[number(t) for t in line.split()] for _, line in lines[1 : 1 + height]]


# -- results and answers ----------------------------------------------------------------


@array_rows
@dataclass(slots=True)
class Result:
    """One puzzle's outcome: solutions found (capped at the search's limit), the first
    one's values (None if none; lists when read, see ``ArrayRows``) and the search nodes
    (a difficulty measure)."""

    grid: NumberGrid
    count: int
    values: list[list[int]] | None
    nodes: int

    @property
    def label(self) -> str:
        """Where the puzzle came from, for messages (``line 7: `` or ``puzzle 3_9x9: ``)."""
        return self.grid.where or f"line {self.grid.row_line[0]}: "


@array_rows
@dataclass(frozen=True, slots=True)
class Filled(Answer):
    """A solved grid of numbers: the puzzle (with its ``grid``) and every cell's value
    (``values``: lists when read; it may be given as an int array, see ``ArrayRows``)."""

    puzzle: object = field(compare=False, repr=False)
    values: list[list[int]]

    def to_json(self) -> list[list[int]]:
        """The values as rows of numbers."""
        return [[int(v) for v in row] for row in self.values]


def svg_grid(grid: NumberGrid, values, regions, cell: int = 32) -> str:
    """A grid of numbers as SVG: thick lines between ``regions`` (``regions[r][c]``),
    the givens of ``grid`` in black, the other ``values`` in blue."""
    height, width = len(values), len(values[0])
    m = cell // 4  # margin
    body = []
    for r in range(height):
        for c in range(width):
            v = values[r][c]
            if not v:
                continue
            ink = 'fill="black" font-weight="bold"' if grid.values[r][c] else 'fill="#1f5fbf"'
            body.append(
                f'<text x="{m + (c + 0.5) * cell:g}" y="{m + (r + 0.5) * cell:g}" '
                f'font-size="{cell * 0.6:g}" text-anchor="middle" dominant-baseline="central" '
                f'font-family="sans-serif" {ink}>{symbol(v)}</text>'
            )
    for r in range(height + 1):  # horizontal lines, thick between regions
        for c in range(width):
            thick = r in (0, height) or regions[r - 1][c] != regions[r][c]
            body.append(_line(m + c * cell, m + r * cell, m + (c + 1) * cell, m + r * cell, thick))
    for r in range(height):
        for c in range(width + 1):
            thick = c in (0, width) or regions[r][c - 1] != regions[r][c]
            body.append(_line(m + c * cell, m + r * cell, m + c * cell, m + (r + 1) * cell, thick))
    return svg_document(width * cell + 2 * m, height * cell + 2 * m, body)


def _line(x1, y1, x2, y2, thick: bool) -> str:
    """An SVG grid line, thick (a region's border) or thin."""
    style = 'stroke="black" stroke-width="3"' if thick else 'stroke="#999999" stroke-width="1"'
    ends = f'x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}"'
    return f'<line {ends} {style} stroke-linecap="square"/>'
