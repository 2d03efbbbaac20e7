"""Polysticks: unit segments of the square grid.

Cell ``(x, y, 0)``: the segment (x,y)-(x+1,y); ``(x, y, 1)``: the segment (x,y)-(x,y+1)
(Polyform Puzzler's coordinates). Centre: the midpoint doubled, (2x+1, 2y) or
(2x, 2y+1); point group D4 (8). Two segments are neighbours when they share an end.
Pieces may not cross: a piece *runs straight through* a point when it holds both
segments on one line at that point, and at most one piece may do so at each point
(``crossings``: one secondary item per such point; touching is allowed).

Text: the point (x, y) stands at column 2x of line 2y (lines counted from the bottom),
the segment (x, y, 0) at column 2x+1 of line 2y, and (x, y, 1) at column 2x of line
2y+1; any character but ``.`` and blank at a segment's place is that segment, and the
characters at points are ignored::

    +-+          (0,1,0)
    |            (0,0,1)
    +-+-+        (0,0,0) (1,0,0)
"""

from __future__ import annotations

from puzzles.lattices.base import D4, Lattice
from puzzles.lattices.pictures import read_positions, write_positions


def ends(cell):
    """The two end points of a segment."""
    x, y, d = cell
    return [(x, y), (x + 1, y) if d == 0 else (x, y + 1)]


def at_point(p):
    """The 4 segments that end at a point."""
    x, y = p
    return [(x, y, 0), (x - 1, y, 0), (x, y, 1), (x, y - 1, 1)]


def neighbours(cell):
    """The segments sharing an end with this one."""
    return [s for p in ends(cell) for s in at_point(p) if s != cell]


def crossings(cells) -> list[str]:
    """The items ``+x,y`` of the points that these segments run straight through."""
    out = []
    for x, y, d in cells:
        if d == 0 and (x + 1, y, 0) in cells:
            out.append(f"+{x + 1},{y}")
        if d == 1 and (x, y + 1, 1) in cells:
            out.append(f"+{x},{y + 1}")
    return sorted(set(out))


def _cell_at(row: int, col: int):
    """The segment at a text position, None at a point, or why no segment fits."""
    if row % 2 == 0:
        return (col // 2, row // 2, 0) if col % 2 else None
    if col % 2 == 0:
        return (col // 2, row // 2, 1)
    return "only blanks or '.' between segments (see the lattice's docs)"


def read_picture(text: str, where: str = "picture") -> dict:
    """``{cell: character}`` of a picture (see the module docstring)."""
    return read_positions(text, _cell_at, where)


def write_picture(chars: dict) -> str:
    """A picture of ``{cell: character}`` with ``+`` at the points."""
    points = {p: "+" for c in chars for p in ends(c)}
    return write_positions(
        {**{("p", *p): ch for p, ch in points.items()}, **chars},
        lambda c: (2 * c[2], 2 * c[1]) if c[0] == "p" else _position(c),
        filler=" ",
        parity=2,
    )


def _position(cell):
    """(row, column) of a segment's character."""
    x, y, d = cell
    return (2 * y, 2 * x + 1) if d == 0 else (2 * y + 1, 2 * x)


LATTICE = Lattice(
    name="sticks",
    dimension=3,
    translate=2,
    centre=lambda c: (2 * c[0] + 1 - c[2], 2 * c[1] + c[2]),
    cell_at=lambda p: (
        ((p[0] - 1) // 2, p[1] // 2, 0) if p[0] % 2 else (p[0] // 2, (p[1] - 1) // 2, 1)
    ),
    generators=D4,
    neighbours=neighbours,
    polygon=ends,
    to_screen=lambda v: (float(v[0]), float(v[1])),
    read_picture=read_picture,
    write_picture=write_picture,
    crossings=crossings,
)
