"""Tilings as answers: build a puzzle from a board and pieces, count, stream, draw.

Polyforms on every lattice (polyominoes, polyiamonds, polyhexes, polycubes,
polysticks; the lattices are in ``puzzles.lattices``). A *puzzle* is a board and the
pieces that must cover it; a *tiling* is one way they do, as a list of (piece name,
cells); *distinct* tilings are one per class of the board's symmetries.

Examples
--------
>>> from puzzles.polyform import count_tilings, distinct_tilings, make_puzzle, svg
>>> puzzle = make_puzzle("5x3", "F,P,U")
>>> counts = count_tilings(puzzle)
>>> counts.all, counts.distinct
(4, 1)
>>> tiling = next(distinct_tilings(puzzle))
>>> print(tiling)
PPFUU
PPFFU
PFFUU
>>> picture = svg(puzzle, tiling)  # Jupyter draws a tiling itself (``Tiling._repr_svg_``)

Notes
-----
A tiling drawn uniformly at random (over the classes; ``symmetry=False``: over all
tilings), the same for the same seed:

>>> from puzzles.polyform import random_tiling
>>> random_tiling(puzzle, seed=1) == tiling
True

The modules: ``tiling`` (build, decode, render, count), ``counts`` (the count's
result), ``drawing`` (SVG pictures), ``sampling`` (random tilings), ``pieces`` (the
catalogue, piece-set specs), ``boards`` (shapes, pictures, cell lists), ``symmetry``
(the exact symmetry-breaking plan and its proof), ``orbits`` (all tilings counted by a
piece's orbits) and ``cli`` (``python -m puzzles polyform``).
"""

from puzzles.polyform.boards import parse_board
from puzzles.polyform.pieces import Piece, Selection, parse_pieces
from puzzles.polyform.sampling import random_tiling, random_tilings
from puzzles.polyform.tiling import (
    Counts,
    Puzzle,
    Tiling,
    build,
    count_tilings,
    decode,
    distinct_tilings,
    faults,
    make_puzzle,
    plan_symmetry,
    render,
    svg,
    symmetry_group,
)

__all__ = [
    "Counts",
    "Piece",
    "Puzzle",
    "Selection",
    "Tiling",
    "build",
    "count_tilings",
    "decode",
    "distinct_tilings",
    "faults",
    "make_puzzle",
    "parse_board",
    "parse_pieces",
    "plan_symmetry",
    "random_tiling",
    "random_tilings",
    "render",
    "svg",
    "symmetry_group",
]
