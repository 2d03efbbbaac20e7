"""Boards on every lattice: named shapes, text pictures and cell-list files.

Shapes (``--board``): ``WxH`` (a rectangle; on the triangular and hexagonal lattices
the W x H parallelogram of x < W, y < H; for sticks the segments of a W x H grid of
squares), ``WxHxD`` (a box of cubes), ``triangle:N`` and ``hexagon:N`` (side N, on the
triangular and hexagonal lattices), or a file: a picture in the lattice's text (see
``puzzles.lattices``) or a cell list::

    lattice: triangular      # square, triangular, hexagonal, cubic or sticks
    0 0 0                    # one cell per line in Polyform Puzzler's coordinates
    0 0 1

(``#`` starts a comment). A text with a newline is itself a picture.
"""

from __future__ import annotations

import re
from pathlib import Path

from puzzles.common import PuzzleError, number, read_text
from puzzles.lattices import LATTICES

ARITY = {"square": 2, "triangular": 3, "hexagonal": 2, "cubic": 3, "sticks": 3}


def read_cell_list(text: str, where: str, named: bool = False):
    """(lattice, cells) of a cell-list file; with ``named``, (lattice, {name: cells})
    from ``NAME x y [z]`` lines. Errors name the line."""
    lattice = None
    cells: dict = {}
    seen: dict = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if lattice is None:
            m = re.fullmatch(r"lattice\s*:\s*(\w+)", line, re.IGNORECASE)
            if not m or m.group(1).lower() not in LATTICES:
                raise PuzzleError(
                    f"{where}: line {n}: expected 'lattice: {'|'.join(LATTICES)}' first"
                )
            lattice = m.group(1).lower()
            continue
        fields = line.split()
        name = fields.pop(0) if named and fields else ""
        arity = ARITY[lattice]
        try:
            cell = tuple(number(v) for v in fields)
        except ValueError:
            cell = ()
        if len(cell) != arity:
            what = "NAME and " if named else ""
            raise PuzzleError(
                f"{where}: line {n}: expected {what}{arity} whole numbers, got {line!r}"
            )
        if arity == 3 and lattice != "cubic" and cell[2] not in (0, 1):
            raise PuzzleError(f"{where}: line {n}: the third number must be 0 or 1")
        if cell in seen.get(name, {}):
            raise PuzzleError(f"{where}: line {n}: cell {line!r} also on line {seen[name][cell]}")
        seen.setdefault(name, {})[cell] = n
        cells.setdefault(name, set()).add(cell)
    if lattice is None:
        raise PuzzleError(f"{where}: empty (expected a line 'lattice: ...')")
    if not cells:
        raise PuzzleError(f"{where}: no cell listed")
    if named:
        return lattice, cells
    return lattice, frozenset(cells[""])


MAX_BOARD_CELLS = 1_000_000  # a named shape larger than this is refused, not built


def shape(spec: str, lattice: str):
    """The cells of a named shape, or None when ``spec`` is not one."""
    s = spec.strip().lower()
    m = re.fullmatch(r"(?:rectangle:|parallelogram:|box:)?([0-9]+)x([0-9]+)(?:x([0-9]+))?", s)
    if m:
        w, h = int(m.group(1)), int(m.group(2))
        d = m.group(3)
        if (d is None) != (lattice != "cubic"):
            need = "WxHxD" if lattice == "cubic" else "WxH"
            raise PuzzleError(f"board {spec!r}: the {lattice} lattice takes {need}")
        if min(w, h, int(d or 1)) < 1:
            raise PuzzleError(f"board {spec!r}: the board is empty")
        if w * h * int(d or 1) > MAX_BOARD_CELLS:
            raise PuzzleError(f"board {spec!r}: more than {MAX_BOARD_CELLS} cells")
        if lattice == "cubic":
            return {(x, y, z) for x in range(w) for y in range(h) for z in range(int(d))}
        if lattice == "triangular":
            return {(x, y, z) for x in range(w) for y in range(h) for z in (0, 1)}
        if lattice == "sticks":
            return {(x, y, 0) for x in range(w) for y in range(h + 1)} | {
                (x, y, 1) for x in range(w + 1) for y in range(h)
            }
        return {(x, y) for x in range(w) for y in range(h)}
    m = re.fullmatch(r"(triangle|hexagon):([0-9]+)", s)
    if not m:
        return None
    kind, n = m.group(1), int(m.group(2))
    if n < 1:
        raise PuzzleError(f"board {spec!r}: the side must be at least 1")
    if 8 * n * n > MAX_BOARD_CELLS:
        raise PuzzleError(f"board {spec!r}: more than {MAX_BOARD_CELLS} cells")
    if lattice == "triangular":
        if kind == "triangle":
            return {(x, y, z) for x in range(n) for y in range(n) for z in (0, 1) if x + y + z < n}
        # centroids (3x+1+z, 3y+1+z) strictly inside the hexagon of radius 3n around P(n, n)
        return {
            (x, y, z)
            for x in range(2 * n)
            for y in range(2 * n)
            for z in (0, 1)
            if _hex_norm(3 * x + 1 + z - 3 * n, 3 * y + 1 + z - 3 * n) < 3 * n
        }
    if lattice == "hexagonal":
        if kind == "triangle":
            return {(x, y) for x in range(n) for y in range(n) if x + y < n}
        return {(x, y) for x in range(2 * n - 1) for y in range(2 * n - 1)
                if _hex_norm(x - n + 1, y - n + 1) < n}  # fmt: skip
    raise PuzzleError(f"board {spec!r}: {kind}s are boards of the triangular or hexagonal lattice")


def _hex_norm(i: int, j: int) -> int:
    """The hexagonal distance of i a + j b from the origin."""
    return max(abs(i), abs(j), abs(i + j))


def parse_board(spec: str, lattice: str | None = None) -> tuple[str, frozenset]:
    """(lattice, board cells) from a shape, a picture, a picture file or a cell list.

    Parameters
    ----------
    spec : str
        A shape (see the module), a picture (a text with a newline), or the path of a
        picture or cell-list file.
    lattice : str, optional
        A cell-list file names its own lattice (it must agree with ``lattice`` when
        that is given); shapes and pictures need ``lattice`` (default square).

    Raises
    ------
    PuzzleError
        Naming ``board`` (or the file) and the line at fault.

    Examples
    --------
    >>> lattice, cells = parse_board("6x6", "triangular")
    >>> lattice, len(cells)
    ('triangular', 72)
    """
    where = "board"
    text = spec
    if "\n" not in spec:
        cells = shape(spec, lattice or "square")
        if cells is not None:
            return lattice or "square", LATTICES[lattice or "square"].normalise(cells)
        if not Path(spec).is_file():
            raise PuzzleError(f"board {spec!r}: neither a shape (WxH, WxHxD, triangle:N, "
                              "hexagon:N) nor a board file")  # fmt: skip
        where = spec
        text = read_text(spec)
    if text.lstrip().lower().startswith("lattice"):
        listed, cells = read_cell_list(text, where)
        if lattice is not None and listed != lattice:
            raise PuzzleError(f"{where}: a board of the {listed} lattice, but the pieces "
                              f"are on the {lattice} lattice")  # fmt: skip
        return listed, frozenset(cells)
    lattice = lattice or "square"
    cells = LATTICES[lattice].read_picture(text, where)
    if not cells:
        raise PuzzleError(f"{where}: the board has no cells")
    return lattice, LATTICES[lattice].normalise(cells)
