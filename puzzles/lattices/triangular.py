"""The triangular lattice (polyiamonds).

With a = (1, 0), b = (1/2, sqrt(3)/2) and P(i, j) = i a + j b, the cell ``(x, y, 0)`` is
the up-pointing triangle P(x,y) P(x+1,y) P(x,y+1) and ``(x, y, 1)`` the down-pointing
triangle P(x+1,y) P(x+1,y+1) P(x,y+1) (Polyform Puzzler's coordinates). The centre is
the centroid times 3 in the basis (a, b): (3x+1+z, 3y+1+z). Point group D6 (12):
turning by 60 degrees maps P(i, j) to P(-j, i+j), the mirror P(i, j) to P(i+j, -j).

Text: each line is a row of triangles (the bottom line is y = 0); in the line of row y,
column c is the triangle with 2x + z = c - y, so up and down triangles alternate and
each row starts one column further right than the row below::

     ^v^v        row 1: (0,1,0) (0,1,1) (1,1,0) (1,1,1)
    ^v^v         row 0: (0,0,0) (0,0,1) (1,0,0) (1,0,1)

(any character but ``.`` and blank is a triangle; which way it points follows from
where it stands).
"""

from __future__ import annotations

from puzzles.lattices.base import D6, Lattice, oblique
from puzzles.lattices.pictures import read_positions, write_positions


def cell_at(p):
    """The triangle of a centre (3x+1+z, 3y+1+z)."""
    z = p[0] % 3 - 1
    return ((p[0] - 1 - z) // 3, (p[1] - 1 - z) // 3, z)


def neighbours(cell):
    """The 3 triangles sharing an edge."""
    x, y, z = cell
    if z == 0:
        return [(x, y, 1), (x, y - 1, 1), (x - 1, y, 1)]
    return [(x, y, 0), (x, y + 1, 0), (x + 1, y, 0)]


def polygon(cell):
    """The corners P(i, j), counter-clockwise."""
    x, y, z = cell
    if z == 0:
        return [(x, y), (x + 1, y), (x, y + 1)]
    return [(x + 1, y), (x + 1, y + 1), (x, y + 1)]


def read_picture(text: str, where: str = "picture") -> dict:
    """``{cell: character}`` of a picture (see the module docstring)."""
    return read_positions(text, lambda row, col: ((col - row) // 2, row, (col - row) % 2), where)


def write_picture(chars: dict) -> str:
    """A picture of ``{cell: character}``, ``.`` where no triangle is."""
    return write_positions(chars, lambda c: (c[1], 2 * c[0] + c[1] + c[2]), parity=1)


LATTICE = Lattice(
    name="triangular",
    dimension=3,
    translate=2,
    centre=lambda c: (3 * c[0] + 1 + c[2], 3 * c[1] + 1 + c[2]),
    cell_at=cell_at,
    generators=D6,
    neighbours=neighbours,
    polygon=polygon,
    to_screen=oblique,
    read_picture=read_picture,
    write_picture=write_picture,
)
