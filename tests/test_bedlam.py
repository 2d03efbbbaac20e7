"""The Bedlam cube: 12 pentacubes and one tetracube in the 4x4x4 cube
(``data/polyform/bedlam_pieces.txt``). 19,186 solutions up to the cube's 24 rotations:
Simon Tatham's ``bedlam.c`` ("produces all 19186 solutions", with the F piece held in one
of its 24 orientations; mirrored in github.com/rdebath/sgt, ``puzzles/bedlam.c``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import dlx
from puzzles.lattices import LATTICES
from puzzles.polyform import tiling

PIECES = str(Path(__file__).resolve().parent.parent / "data" / "polyform" / "bedlam_pieces.txt")


def bedlam() -> tiling.Puzzle:
    """The Bedlam cube puzzle."""
    return tiling.make_puzzle("4x4x4", PIECES, lattice="cubic")


def test_the_pieces_are_the_bedlam_set():
    """13 pieces, one of 4 cells and 12 of 5, filling the 64 cells, no two alike under
    the 24 rotations (the only moves of the cubic lattice's pieces)."""
    puzzle = bedlam()
    sizes = sorted(p.size for p in puzzle.pieces)
    assert sizes == [4] + [5] * 12 and sum(sizes) == len(puzzle.board) == 64
    cubic = LATTICES["cubic"]
    assert len({cubic.canonical(p.shape) for p in puzzle.pieces}) == 13


def test_first_solutions_are_tilings():
    """The first solutions the tight kernel finds are checked exact covers and tilings."""
    puzzle = bedlam()
    problem = tiling.build(puzzle, tiling.plan_symmetry(puzzle, fallback=True))
    found = list(dlx.solutions(problem, limit=3, engine="tight"))
    assert len(found) == 3
    for s in found:
        dlx.check(problem, s.options)
        assert tiling.faults(puzzle, tiling.decode(puzzle, s)) == []


@pytest.mark.slow
def test_bedlam_cube_count():
    """19,186 distinct solutions (Tatham's count), 24 times as many tilings in all."""
    c = tiling.count_tilings(bedlam(), engine="tight")
    assert (c.all, c.distinct) == (19186 * 24, 19186)
