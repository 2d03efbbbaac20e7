"""The cubic lattice (polycubes).

Cell ``(x, y, z)``: the unit cube [x, x+1] x [y, y+1] x [z, z+1]. Centre
(2x+1, 2y+1, 2z+1); point group of the cube, 48 with reflections. Pieces move by the
24 rotations only (a mirror image is another piece). Text: layers z = 0, 1, ... each
drawn as a square picture (bottom line y = 0), separated by blank lines; a drawing
shows the layers side by side.
"""

from __future__ import annotations

from puzzles.common import PuzzleError
from puzzles.lattices import square
from puzzles.lattices.base import Lattice


def neighbours(cell):
    """The 6 cubes sharing a face."""
    x, y, z = cell
    return [
        (x + 1, y, z),
        (x - 1, y, z),
        (x, y + 1, z),
        (x, y - 1, z),
        (x, y, z + 1),
        (x, y, z - 1),
    ]


def read_picture(text: str, where: str = "picture") -> dict:
    """``{cell: character}`` of layers separated by blank lines (z = 0 first)."""
    layers, block = [], []
    for line in text.replace("\r", "").split("\n") + [""]:
        if line.strip():
            block.append(line)
        elif block:
            layers.append(block)
            block = []
    if not layers:
        raise PuzzleError(f"{where}: no layer drawn")
    drawn = {}
    for z, block in enumerate(layers):
        for (x, y), ch in square.read_picture("\n".join(block), f"{where}, layer {z + 1}").items():
            drawn[(x, y, z)] = ch
    return drawn


def write_picture(chars: dict) -> str:
    """Layers of ``{cell: character}`` separated by blank lines, in one common box."""
    x0 = min(c[0] for c in chars)
    y0 = min(c[1] for c in chars)
    x1 = max(c[0] for c in chars)
    y1 = max(c[1] for c in chars)
    out = []
    for z in range(min(c[2] for c in chars), max(c[2] for c in chars) + 1):
        rows = [
            "".join(chars.get((x, y, z), ".") for x in range(x0, x1 + 1))
            for y in range(y1, y0 - 1, -1)
        ]
        out.append("\n".join(rows))
    return "\n\n".join(out)


LATTICE = Lattice(
    name="cubic",
    dimension=3,
    translate=3,
    centre=lambda c: (2 * c[0] + 1, 2 * c[1] + 1, 2 * c[2] + 1),
    cell_at=lambda p: ((p[0] - 1) // 2, (p[1] - 1) // 2, (p[2] - 1) // 2),
    generators=[
        ((0, -1, 0), (1, 0, 0), (0, 0, 1)),  # quarter turn about z
        ((1, 0, 0), (0, 0, -1), (0, 1, 0)),  # quarter turn about x
        ((-1, 0, 0), (0, 1, 0), (0, 0, 1)),  # mirror
    ],
    neighbours=neighbours,
    polygon=lambda c: [(c[0], c[1]), (c[0] + 1, c[1]), (c[0] + 1, c[1] + 1), (c[0], c[1] + 1)],
    to_screen=lambda v: (float(v[0]), float(v[1])),
    layer=lambda c: c[2],
    pieces_turn_over=False,
    read_picture=read_picture,
    write_picture=write_picture,
)
