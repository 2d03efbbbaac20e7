"""The lattices polyforms live on: one small module each, all of one shape (``LATTICE``).

Adding a lattice is one file here and one line in ``LATTICES``.
"""

from __future__ import annotations

from puzzles.lattices import cubic, hexagonal, square, sticks, triangular
from puzzles.lattices.base import Lattice

LATTICES: dict[str, Lattice] = {
    m.LATTICE.name: m.LATTICE for m in (square, triangular, hexagonal, cubic, sticks)
}

__all__ = ["LATTICES", "Lattice"]
