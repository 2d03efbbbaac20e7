"""The hexagonal lattice (polyhexes).

Cell ``(x, y)``: the hexagon centred at x a + y b, a = (1, 0), b = (1/2, sqrt(3)/2)
(Polyform Puzzler's coordinates); neighbours (x+-1, y), (x, y+-1), (x+1, y-1),
(x-1, y+1). The centre is (x, y) itself; point group D6 (12) as for triangles.

Text: each line is a row of hexagons (the bottom line is y = 0); in the line of row y,
the hexagon (x, y) stands at column 2x + y, so hexagons are two columns apart and each
row starts one column further right than the row below::

     B B B       row 1: (0,1) (1,1) (2,1)
    A A A        row 0: (0,0) (1,0) (2,0)
"""

from __future__ import annotations

from puzzles.lattices.base import D6, Lattice, oblique
from puzzles.lattices.pictures import read_positions, write_positions

# The corners around a centre, in thirds of a and b, counter-clockwise.
CORNERS = [(1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2), (2, -1)]


def neighbours(cell):
    """The 6 hexagons sharing an edge."""
    x, y = cell
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1), (x + 1, y - 1), (x - 1, y + 1)]


def _cell_at(row: int, col: int):
    """The hexagon at a text position, or why none may stand there."""
    if (col - row) % 2:
        return "a hexagon in this row stands at every other column (see the lattice's docs)"
    return ((col - row) // 2, row)


def read_picture(text: str, where: str = "picture") -> dict:
    """``{cell: character}`` of a picture (see the module docstring)."""
    return read_positions(text, _cell_at, where)


def write_picture(chars: dict) -> str:
    """A picture of ``{cell: character}``, blank between hexagons."""
    return write_positions(chars, lambda c: (c[1], 2 * c[0] + c[1]), filler=" ", parity=1)


LATTICE = Lattice(
    name="hexagonal",
    dimension=2,
    translate=2,
    centre=lambda c: c,
    cell_at=lambda p: p,
    generators=D6,
    neighbours=neighbours,
    polygon=lambda c: [(3 * c[0] + i, 3 * c[1] + j) for i, j in CORNERS],
    to_screen=lambda v: tuple(t / 3 for t in oblique(v)),
    read_picture=read_picture,
    write_picture=write_picture,
)
