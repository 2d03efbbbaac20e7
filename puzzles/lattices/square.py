"""The square lattice (polyominoes).

Cell ``(x, y)``: the unit square [x, x+1] x [y, y+1] (Polyform Puzzler's coordinates,
y up). Centre (2x+1, 2y+1); point group D4 (8). Text: one character per square, the
bottom line is y = 0.
"""

from __future__ import annotations

from puzzles.lattices.base import D4, Lattice
from puzzles.lattices.pictures import read_positions, write_positions


def neighbours(cell):
    """The 4 squares sharing an edge."""
    x, y = cell
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def read_picture(text: str, where: str = "picture") -> dict:
    """``{cell: character}`` of a picture (``.`` and blank are no cell)."""
    return read_positions(text, lambda row, col: (col, row), where)


def write_picture(chars: dict) -> str:
    """A picture of ``{cell: character}``, ``.`` where no cell is."""
    return write_positions(chars, lambda c: (c[1], c[0]))


LATTICE = Lattice(
    name="square",
    dimension=2,
    translate=2,
    centre=lambda c: (2 * c[0] + 1, 2 * c[1] + 1),
    cell_at=lambda p: ((p[0] - 1) // 2, (p[1] - 1) // 2),
    generators=D4,
    neighbours=neighbours,
    polygon=lambda c: [(c[0], c[1]), (c[0] + 1, c[1]), (c[0] + 1, c[1] + 1), (c[0], c[1] + 1)],
    to_screen=lambda v: (float(v[0]), float(v[1])),
    read_picture=read_picture,
    write_picture=write_picture,
)
