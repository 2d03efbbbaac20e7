"""Every tiling counted by the orbits of one piece's placements (``puzzles.polyform.orbits``)
against the whole tree: published counts, small cases tiling by tiling, random boards."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dlx
from puzzles.common import PuzzleError
from puzzles.polyform import orbits, tiling
from puzzles.polyform import symmetry as sym


def whole_tree(puzzle) -> list:
    """Every tiling, from the problem with no restriction, each checked by ``dlx.check``."""
    problem = tiling.build(puzzle)
    out = []
    for s in dlx.solutions(problem, engine="dlx"):
        dlx.check(problem, s.options)
        out.append(s)
    return [tiling.decode(puzzle, s) for s in out]


def by_orbits(puzzle) -> int:
    """The orbit count, on one core."""
    c = tiling.count_tilings(puzzle, symmetry=False)
    assert c.complete and c.how.startswith("all counted by the orbits of")
    return c.all


def as_set(tilings) -> set:
    """Tilings as comparable values."""
    return {frozenset(t) for t in tilings}


# -- published counts (source named in each case) -------------------------------------------


@pytest.mark.parametrize(
    "board, pieces, every",
    [
        # Haselgrove and Haselgrove (1960): 2339 distinct pentomino tilings of 6x10 (x 4)
        ("6x10", "pentominoes", 9356),
        # Polyform Puzzler, pentominoes.py Pentominoes3x20: "2 solutions" (x 4)
        ("3x20", "pentominoes", 8),
        # Polyform Puzzler, hexiamonds.py Hexiamonds6x6: "156 solutions" (x 4)
        ("6x6", "hexiamonds", 624),
        # Polyform Puzzler, pentominoes.py OneSidedPentominoes3x30: "46 solutions" (x 4)
        ("3x30", "one-sided-pentominoes", 184),
        # Polyform Puzzler, somacubes.py SomaCube3x3x3: "240 solutions" (x 48 / 2: the
        # rotations and mirror images of the cube, mirror images of the set being the set)
        ("3x3x3", "soma", 11520),
    ],
)
def test_published_counts(board, pieces, every):
    assert by_orbits(tiling.make_puzzle(board, pieces)) == every


@pytest.mark.slow
def test_the_8x8_board_with_the_square():
    """129,168 = 16,146 x 8: Dana Scott (1958) found the 65 tilings with the square in
    the centre; de Bruijn, 16,146 distinct with the square anywhere."""
    puzzle = tiling.make_puzzle("8x8", "pentominoes,O")
    assert by_orbits(puzzle) == 129168


# -- the orbits against the whole tree, tiling by tiling --------------------------------------


@pytest.mark.parametrize(
    "board, pieces",
    [
        ("4x4", "L3*2,T4,I2,O4"),
        ("4x4", "I1,I3,L4,T4,O4"),
        ("5x4", "L4,T4,S4,I4,O4"),
        ("3x3", "L3,T4,I2"),
        ("4x4", "I4,L4,T4,O4"),
    ],
)
def test_images_of_the_anchored_tilings_are_every_tiling(board, pieces):
    """The tilings with the anchor at a class's representatives, moved by G, are every
    tiling, each orbit class of size k giving k tilings per anchored one."""
    puzzle = tiling.make_puzzle(board, pieces)
    every = whole_tree(puzzle)
    for t in every:
        assert tiling.faults(puzzle, t) == []
    found = orbits.plan_orbits(tiling.symmetry_group(puzzle), puzzle.pieces, puzzle.placements)
    assert found is not None
    images: list = []
    weighted = 0
    for k, plan in found.plans():
        problem = tiling.build(puzzle, plan)
        anchored = []
        for s in dlx.solutions(problem):
            dlx.check(problem, s.options)
            anchored.append(tiling.decode(puzzle, s))
        moved = {frozenset(sym.image(g, t)) for t in anchored for g in found.group}
        assert len(moved) == k * len(anchored)
        images += moved
        weighted += k * len(anchored)
    assert len(images) == len(set(images)) == weighted == len(every) == by_orbits(puzzle)
    assert set(images) == as_set(every)


def test_no_anchor_or_no_symmetry_searches_the_whole_tree():
    """Dominoes only (no piece with one copy), or a board with no symmetry: the count
    is the plain one."""
    ell = {(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (0, 2)}
    for board, pieces in [("2x6", "I2*6"), (ell, "L4,I2")]:
        puzzle = tiling.make_puzzle(board, pieces)
        group = tiling.symmetry_group(puzzle)
        assert orbits.plan_orbits(group, puzzle.pieces, puzzle.placements) is None
        c = tiling.count_tilings(puzzle, symmetry=False)
        assert c.how == "all counted without symmetry breaking"
        assert c.all == len(whole_tree(puzzle)) > 0


def test_anchor_named_and_refused():
    puzzle = tiling.make_puzzle("6x10", "pentominoes")
    c = tiling.count_tilings(puzzle, symmetry=False, restrict="I")
    assert c.all == 9356 and "I at" in c.how
    with pytest.raises(PuzzleError, match="cannot anchor the count at I2"):
        tiling.count_tilings(tiling.make_puzzle("2x4", "I2*4"), symmetry=False, restrict="I2")


def test_a_limit_stops_the_first_class_and_says_at_least():
    puzzle = tiling.make_puzzle("6x10", "pentominoes")
    c = tiling.count_tilings(puzzle, symmetry=False, node_limit=2000)
    assert not c.complete and c.stopped_by is not None and c.all < 9356


def test_the_command_counts_by_orbits_unless_told(capsys):
    from puzzles.cli import main

    argv = ["pentomino", "--board", "6x10", "--no-symmetry", "--workers", "1", "--no-progress"]
    for extra in ([], ["--whole-tree"], ["--restrict", "I"]):
        assert main([*argv, "--count", *extra]) == 0
        assert "all solutions: 9356\n" in capsys.readouterr().out


# -- random boards ----------------------------------------------------------------------------

SMALL = ["I1", "I2", "I3", "L3", "I4", "O4", "T4", "S4", "L4"]
SIZE = {"I1": 1, "I2": 2, "I3": 3, "L3": 3, "I4": 4, "O4": 4, "T4": 4, "S4": 4, "L4": 4}


@st.composite
def symmetric_puzzles(draw):
    """A rectangle (a square half the time), its centre cell cut out when both sides are
    odd, and a few small polyominoes (copies allowed) that cover it."""
    width = draw(st.integers(2, 5))
    height = width if draw(st.booleans()) else draw(st.integers(2, 5))
    cells = {(x, y) for x in range(width) if width * height <= 20 for y in range(height)}
    if width % 2 and height % 2 and draw(st.booleans()):
        cells.discard((width // 2, height // 2))
    cells = cells or {(x, y) for x in range(2) for y in range(2)}
    names: Counter = Counter()
    left = len(cells)
    while left:
        name = draw(st.sampled_from([n for n in SMALL if SIZE[n] <= left]))
        names[name] += 1
        left -= SIZE[name]
    spec = ",".join(n if k == 1 else f"{n}*{k}" for n, k in names.items())
    return tiling.make_puzzle(frozenset(cells), spec)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symmetric_puzzles())
def test_random_boards_against_the_whole_tree(puzzle):
    every = whole_tree(puzzle)
    c = tiling.count_tilings(puzzle, symmetry=False)
    assert c.complete and c.all == len(every) == len(as_set(every))
    plain = tiling.count_tilings(puzzle, symmetry=False, orbits=False)
    assert plain.all == c.all
