"""Polyforms on every lattice: enumeration against OEIS, the catalogue against it, boards,
exact symmetry breaking checked by an independent geometry, and published counts.

The independent checker works in the plane (or space) with floating-point centres and
rotations by angle, never with the lattices' integer matrices: two cell sets are
congruent when a rotation (and, if allowed, a mirror) and a translation map one set of
centres onto the other.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

import dlx
from puzzles.cli import main
from puzzles.common import PuzzleError
from puzzles.lattices import LATTICES
from puzzles.polyform import cli, tiling
from puzzles.polyform import pieces as pc
from puzzles.polyform.boards import parse_board

DATA = Path(__file__).resolve().parent.parent / "data" / "polyform"
H = math.sqrt(3) / 2

# -- the independent geometry -------------------------------------------------------------


def centre(lattice: str, cell) -> tuple:
    """The centre of a cell in the plane or in space (Polyform Puzzler's coordinates)."""
    if lattice == "square":
        x, y = cell
        return (x + 0.5, y + 0.5)
    if lattice == "triangular":
        x, y, z = cell  # centroid of P(x,y) P(x+1,y) P(x,y+1), or of the down triangle
        i, j = (x + 1 / 3, y + 1 / 3) if z == 0 else (x + 2 / 3, y + 2 / 3)
        return (i + j / 2, j * H)
    if lattice == "hexagonal":
        x, y = cell
        return (x + y / 2, y * H)
    if lattice == "cubic":
        return tuple(v + 0.5 for v in cell)
    x, y, d = cell  # sticks: the midpoint
    return (x + 0.5, y) if d == 0 else (x, y + 0.5)


@cache
def isometries(lattice: str, mirrors: bool) -> list:
    """Functions point -> point: the rotations (and mirror images) of the lattice."""
    if lattice == "cubic":
        out = []
        for perm in itertools.permutations(range(3)):
            for signs in itertools.product((1, -1), repeat=3):
                m = [[signs[i] * (perm[i] == j) for j in range(3)] for i in range(3)]
                det = round(
                    sum(
                        m[0][a] * m[1][b] * m[2][c] * _sign((a, b, c))
                        for a, b, c in itertools.permutations(range(3))
                    )
                )
                if det == 1 or mirrors:
                    out.append(
                        lambda p, m=m: tuple(
                            sum(m[i][k] * p[k] for k in range(3)) for i in range(3)
                        )
                    )
        return out
    step = 60 if lattice in ("triangular", "hexagonal") else 90
    out = []
    for angle in range(0, 360, step):
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        for flip in (1, -1) if mirrors else (1,):
            out.append(
                lambda p, c=c, s=s, f=flip: (c * f * p[0] - s * p[1], s * f * p[0] + c * p[1])
            )
    return out


def _sign(perm) -> int:
    """The sign of a permutation of 0..n-1."""
    inversions = sum(1 for i in range(len(perm)) for j in range(i) if perm[j] > perm[i])
    return -1 if inversions % 2 else 1


def _points(pts) -> frozenset:
    """Points translated so that the least is the origin, rounded."""
    pts = list(pts)
    low = _least(pts)
    return frozenset(_rounded(v - w for v, w in zip(p, low, strict=True)) for p in pts)


def congruent(lattice: str, a, b, mirrors: bool) -> bool:
    """True when the cell sets a and b are the same shape up to the allowed motions."""
    target = _points(centre(lattice, c) for c in b)
    return any(
        _points(f(centre(lattice, c)) for c in a) == target for f in isometries(lattice, mirrors)
    )


def mirrors_allowed(puzzle) -> bool:
    """Whether pieces may turn over: 2-D pieces unless one-sided; 3-D pieces never."""
    return puzzle.lattice.name != "cubic" and not puzzle.one_sided


def check_tiling(puzzle, found) -> None:
    """Every cell covered once, each piece used its number of times in its own shape,
    and (sticks) no two pieces running straight through one point."""
    lattice = puzzle.lattice.name
    covered = Counter(c for _, cells in found for c in cells)
    assert set(covered) == set(puzzle.board) and max(covered.values()) == 1
    assert Counter(n for n, _ in found) == Counter({p.name: p.copies for p in puzzle.pieces})
    shapes = {p.name: p.shape for p in puzzle.pieces}
    for name, cells in found:
        assert congruent(lattice, shapes[name], cells, mirrors_allowed(puzzle)), name
    if lattice == "sticks":
        through = Counter()
        for _, cells in found:
            points = set()
            for x, y, d in cells:
                if (x + 1 - d, y + d, d) in cells:
                    points.add((x + 1 - d, y + d))
            through.update(points)
        assert not through or max(through.values()) == 1, "two pieces cross"


def board_maps(puzzle) -> list[dict]:
    """The isometries (all, mirrors included) that map the board onto itself, as cell
    maps, found with centres."""
    lattice = puzzle.lattice.name
    at = {_rounded(centre(lattice, c)): c for c in puzzle.board}
    low = _least(centre(lattice, c) for c in puzzle.board)
    maps = []
    for f in isometries(lattice, True):
        moved = {c: f(centre(lattice, c)) for c in puzzle.board}
        least = _least(moved.values())
        shift = [a - b for a, b in zip(low, least, strict=True)]
        image = {}
        for c, p in moved.items():
            key = _rounded(v + s for v, s in zip(p, shift, strict=True))
            if key not in at:
                break
            image[c] = at[key]
        else:
            maps.append(image)
    return maps


def _rounded(p) -> tuple:
    """A point rounded to 4 decimals (for lookups)."""
    return tuple(round(v, 4) + 0.0 for v in p)


def _least(points):
    """The least point in the order of rounded coordinates (itself unrounded)."""
    return min(points, key=_rounded)


def name_of(puzzle, cells):
    """The piece whose shape these cells have, or None."""
    mirrors = mirrors_allowed(puzzle)
    for p in puzzle.pieces:
        if len(p.shape) == len(cells) and congruent(puzzle.lattice.name, p.shape, cells, mirrors):
            return p.name
    return None


def solution_maps(puzzle) -> list[dict]:
    """The board maps that send every piece to a piece of the set (each placed shape's
    image is again a piece), found by congruence."""
    out = []
    for g in board_maps(puzzle):
        if all(
            name_of(puzzle, [g[c] for c in cells]) is not None
            for p in puzzle.pieces
            for cells in puzzle.placements[p.name][:1]
        ):
            out.append(g)
    return out


def images(puzzle, found, maps) -> list:
    """The tiling moved by each map: pieces renamed by their new shape."""
    out = []
    for g in maps:
        moved = [
            (name_of(puzzle, [g[c] for c in cells]), [g[c] for c in cells]) for _, cells in found
        ]
        out.append(tuple(sorted((n, tuple(sorted(c))) for n, c in moved)))
    return out


def solve_all(puzzle, plan=None) -> list:
    """Every solution of the problem, checked at both levels; the tilings."""
    problem = tiling.build(puzzle, plan)
    out = []
    for s in dlx.solutions(problem):
        dlx.check(problem, s.options)
        found = tiling.decode(puzzle, s)
        check_tiling(puzzle, found)
        assert tiling.faults(puzzle, found) == []
        out.append(found)
    return out


def assert_exact(puzzle, expected_distinct=None, expected_all=None) -> list:
    """The distinct tilings are pairwise inequivalent and meet every class of all tilings,
    and the counts (all, distinct, symmetric) agree with a plain enumeration."""
    maps = solution_maps(puzzle)
    plan = tiling.plan_symmetry(puzzle, fallback=True)
    assert plan.group_order == len(maps)
    found = solve_all(puzzle, plan)
    distinct = [t for t in found if not plan.filter or _kept(plan, t)]
    every = solve_all(puzzle)
    forms = [min(images(puzzle, t, maps)) for t in distinct]
    assert len(set(forms)) == len(forms), "two distinct solutions are equivalent"
    assert set(forms) == {min(images(puzzle, t, maps)) for t in every}
    symmetric = sum(1 for t in distinct if len(set(images(puzzle, t, maps))) < len(maps))
    counts = tiling.count_tilings(puzzle)
    assert (counts.all, counts.distinct, counts.symmetric) == (len(every), len(distinct), symmetric)
    if not plan.filter:
        assert symmetric == 0 and len(every) == len(distinct) * len(maps)
    if expected_distinct is not None:
        assert len(distinct) == expected_distinct
    if expected_all is not None:
        assert len(every) == expected_all
    return distinct


def _kept(plan, found) -> bool:
    """Whether a filtering plan keeps this tiling."""
    from puzzles.polyform.symmetry import is_class_representative

    return is_class_representative(plan, found)[0]


# -- enumeration and the catalogue ----------------------------------------------------------


@pytest.mark.parametrize(
    "lattice, one_sided, counts",
    [
        ("square", False, [1, 1, 2, 5, 12, 35]),  # OEIS A000105
        ("square", True, [1, 1, 2, 7, 18, 60]),  # OEIS A000988
        ("triangular", False, [1, 1, 1, 3, 4, 12, 24]),  # OEIS A000577
        ("triangular", True, [1, 1, 1, 4, 6, 19, 43]),  # OEIS A006534
        ("hexagonal", False, [1, 1, 3, 7, 22]),  # OEIS A000228
        ("hexagonal", True, [1, 1, 3, 10, 33]),  # OEIS A006535
        ("cubic", False, [1, 1, 2, 8, 29]),  # OEIS A038119 (mirror images differ)
        ("sticks", False, [1, 2, 5, 16, 55]),  # OEIS A019988
    ],
)
def test_enumeration_matches_oeis(lattice, one_sided, counts):
    lat = LATTICES[lattice]
    assert [len(lat.polyforms(n, one_sided)) for n in range(1, len(counts) + 1)] == counts


def test_polycubes_up_to_mirror_images():
    """Reducing the rotation classes by the mirror too: OEIS A000162, 1 1 2 7 23."""
    cubic = LATTICES["cubic"]

    def full(shape):
        return min(
            tuple(sorted(cubic.normalise(cubic.transform(m, c) for c in shape)))
            for m in cubic.group
        )

    assert [len({full(s) for s in cubic.polyforms(n)}) for n in range(1, 6)] == [1, 1, 2, 7, 23]


@pytest.mark.parametrize(
    "family, sizes",
    [
        ("polyominoes", range(1, 7)),
        ("polyiamonds", range(1, 8)),
        ("polyhexes", range(1, 6)),
        ("polycubes", range(1, 6)),
        ("polysticks", range(1, 5)),
    ],
)
def test_named_sets_are_the_enumerated_polyforms(family, sizes):
    """Each named set (Polyform Puzzler's shapes) is exactly one of each polyform."""
    lat = LATTICES[pc.FAMILIES[family].lattice]
    for n in sizes:
        named = pc.named_sets()[pc.FAMILIES[family].sets[n]].shapes
        forms = [lat.canonical(s) for s in named.values()]
        assert len(set(forms)) == len(forms), f"{family} {n}: a shape twice"
        assert set(forms) == {tuple(sorted(s)) for s in lat.polyforms(n)}, f"{family} {n}"


def test_soma_and_solid_pentominoes():
    cubic = LATTICES["cubic"]
    sets = pc.named_sets()
    tetracubes = sets["tetracubes"].shapes
    soma = {cubic.canonical(s) for s in sets["soma"].shapes.values()}
    # the Soma pieces: the V tricube and the 6 tetracubes that are not a bar or a square
    expected = {cubic.canonical(sets["tricubes"].shapes["V3"])} | {
        cubic.canonical(s) for n, s in tetracubes.items() if n not in ("I4", "O4")
    }
    assert soma == expected
    flat = {cubic.canonical(s) for s in sets["solid-pentominoes"].shapes.values()}
    assert len(flat) == 12 and all(any(len({c[i] for c in s}) == 1 for i in range(3)) for s in flat)
    assert flat < {cubic.canonical(s) for s in sets["pentacubes"].shapes.values()}


def test_piece_specs():
    s = pc.parse_pieces("tetrasticks,-H")
    assert s.lattice == "sticks" and len(s.pieces) == 15
    assert "H" not in [p.name for p in s.pieces]
    assert [p.name for p in pc.parse_pieces("polyiamonds:1-4").pieces] == [
        "T1", "D2", "I3", "I4", "C4", "T4"
    ]  # fmt: skip
    one = pc.parse_pieces("one-sided-pentominoes")
    assert one.one_sided and len(one.pieces) == 18
    assert {p.name for p in one.pieces} - set("FILNPTUVWXYZ") == {
        "F'",
        "L'",
        "N'",
        "P'",
        "Y'",
        "Z'",
    }
    assert len(pc.parse_pieces("one-sided-polyominoes:2-4").pieces) == 1 + 2 + 7
    assert len(pc.parse_pieces("polyhexes:5").pieces) == 22
    copies = {p.name: p.copies for p in pc.parse_pieces("soma,V*2").pieces}
    assert copies["V"] == 2 and copies["A"] == 1  # K copies in all
    assert len(pc.parse_pieces("polyominoes:7").pieces) == 108  # OEIS A000105
    assert [p.name for p in pc.parse_pieces("I4,O4", lattice="cubic").pieces] == ["I4", "O4"]


def test_bad_piece_specs_name_the_item():
    with pytest.raises(PuzzleError, match=r"item 2 'hexiamonds'.*triangular lattice"):
        pc.parse_pieces("tetrahexes,hexiamonds")
    with pytest.raises(PuzzleError, match=r"item 2 '-Q': no piece 'Q'"):
        pc.parse_pieces("tetrasticks,-Q")
    with pytest.raises(PuzzleError, match=r"item 2 'Q9'.*unknown"):
        pc.parse_pieces("hexiamonds,Q9")
    with pytest.raises(PuzzleError, match="always one-sided"):
        pc.parse_pieces("one-sided-soma")


def test_piece_files(tmp_path):
    cells = tmp_path / "pieces.txt"
    cells.write_text("lattice: hexagonal\nA 0 0\nA 1 0\nB 0 0\nB 1 0\nB 2 0\n")
    found = pc.parse_pieces(str(cells), lattice="hexagonal").pieces
    assert [(p.name, p.size) for p in found] == [("A", 2), ("B", 3)]
    picture = tmp_path / "iamonds.txt"
    picture.write_text("AAB.AA\n")  # two diamonds A, one triangle B
    found = pc.parse_pieces(str(picture), lattice="triangular").pieces
    assert {(p.name, p.size, p.copies) for p in found} == {("A", 2, 2), ("B", 1, 1)}


# -- boards -------------------------------------------------------------------------------


def test_shapes():
    sizes = {
        ("6x6", "triangular"): 72,
        ("triangle:4", "triangular"): 16,
        ("hexagon:2", "triangular"): 24,
        ("hexagon:3", "hexagonal"): 19,
        ("triangle:4", "hexagonal"): 10,
        ("3x4x5", "cubic"): 60,
        ("5x5", "sticks"): 60,
        ("6x10", "square"): 60,
    }
    for (spec, lattice), n in sizes.items():
        assert len(parse_board(spec, lattice)[1]) == n, spec
    with pytest.raises(PuzzleError, match="takes WxHxD"):
        parse_board("3x4", "cubic")


def test_pictures_round_trip():
    """Each lattice's text picture reads back as the cells it was written from."""
    for spec, lattice in [
        ("hexagon:2", "triangular"),
        ("hexagon:3", "hexagonal"),
        ("2x3x2", "cubic"),
        ("3x2", "sticks"),
        ("4x3", "square"),
    ]:
        lat = LATTICES[lattice]
        cells = parse_board(spec, lattice)[1]
        text = lat.write_picture({c: "#" for c in cells})
        assert parse_board(text + "\n", lattice)[1] == lat.normalise(cells), spec


def test_triangle_picture_orientation():
    """In a picture the triangle's direction follows from its place (see triangular.py)."""
    cells = LATTICES["triangular"].read_picture(" ab\nxyz\n")
    assert cells == {(0, 0, 0): "x", (0, 0, 1): "y", (1, 0, 0): "z", (0, 1, 0): "a", (0, 1, 1): "b"}


def test_cell_list_errors_name_the_line(tmp_path):
    bad = tmp_path / "b.txt"
    for text, message in [
        ("lattice: hexagon\n0 0\n", "line 1: expected 'lattice:"),
        ("lattice: hexagonal\n0 0\n1 x\n", "line 3: expected 2 whole numbers"),
        ("lattice: triangular\n0 0 2\n", "line 2: the third number must be 0 or 1"),
        ("lattice: square\n0 0\n# c\n0 0\n", "line 4: cell '0 0' also on line 2"),
    ]:
        bad.write_text(text)
        with pytest.raises(PuzzleError, match=message):
            parse_board(str(bad))
    bad.write_text("lattice: cubic\n0 0 0\n")
    with pytest.raises(PuzzleError, match="cubic lattice, but the pieces are on the hexagonal"):
        parse_board(str(bad), "hexagonal")


# -- exact symmetry breaking on every lattice ------------------------------------------------


@pytest.mark.parametrize(
    "board, pieces, lattice",
    [
        ("4x5", "L,P,Y,O4,I1", None),
        ("triangle:3", "polyiamonds:1-3,T1*4", None),
        ("3x2", "tetriamonds", None),
        ("hexagon:1", "polyiamonds:1-3", None),
        ("7x4", "tetrahexes", None),
        ("3x3x1", "polycubes:1-3", None),
        ("2x2x2", "soma,-V,-L,-T,-Z,-P", None),  # A and B: mirror images of each other
        ("2x2x3", "soma,-V,-L,-T,-Z,-P,O4", None),
        (str(DATA / "sticks_clipped2.txt"), "polysticks:1-3", None),
        ("2x1", "polysticks:1-2,I1*3", None),
        ("4x2", "one-sided-tetrominoes,-I4,-O4,-T4,-S4,-S4'", None),
    ],
)
def test_exact_on_every_lattice(board, pieces, lattice):
    puzzle = tiling.make_puzzle(board, pieces, lattice=lattice)
    assert_exact(puzzle)


def test_one_sided_set_not_mirror_closed_loses_reflections():
    closed = tiling.make_puzzle("4x4", "one-sided-tetrominoes,-I4,-S4,-S4'")
    group = tiling.symmetry_group(closed)
    assert len(group) == 8  # the reflections swap L4 and L4'
    assert sorted(g.names["L4"] for g in group) == ["L4"] * 4 + ["L4'"] * 4
    lone = tiling.make_puzzle("4x2", "L4,T4", one_sided=True)
    assert len(tiling.symmetry_group(lone)) == 2  # rotations only
    assert_exact(lone)


def test_partial_breaking_when_every_breaker_has_symmetric_places():
    """Flat pieces in a box of odd side all lie in some mirror plane (step 6 of the plan)."""
    puzzle = tiling.make_puzzle("3x3x2", "I3,V3,L4,T4,S4", lattice="cubic")
    plan = tiling.plan_symmetry(puzzle, fallback=True)
    assert plan.partial and plan.filter and plan.breaker is not None
    assert all(plan.forbid.values())  # something is forbidden next to each symmetric place
    assert_exact(puzzle)


def test_checkpoint_refused_where_solutions_are_reduced_in_python(tmp_path):
    puzzle = tiling.make_puzzle("3x3x2", "I3,V3,L4,T4,S4", lattice="cubic")
    with pytest.raises(PuzzleError, match="a checkpoint needs a count"):
        tiling.count_tilings(puzzle, parallel=dlx.Parallel(checkpoint=tmp_path / "c.ckpt"))
    assert not (tmp_path / "c.ckpt").exists()


def test_soma_mirror_swaps_a_and_b():
    puzzle = tiling.make_puzzle("3x3x3", "soma")
    group = tiling.symmetry_group(puzzle)
    assert len(group) == 48
    assert sum(g.names["A"] == "B" for g in group) == 24  # the 24 reflections


# -- published counts (source named in each case) -------------------------------------------


def test_soma_cube():
    """240 distinct (11,520 in all): Polyform Puzzler, puzzler/puzzles/somacubes.py
    (SomaCube3x3x3, "240 solutions"); Conway and Guy's count."""
    c = tiling.count_tilings(tiling.make_puzzle("3x3x3", "soma"))
    assert (c.all, c.distinct, c.symmetric) == (11520, 240, 0)


def test_hexiamond_rhombus():
    """156 distinct: Polyform Puzzler, puzzler/puzzles/hexiamonds.py (Hexiamonds6x6)."""
    c = tiling.count_tilings(tiling.make_puzzle("6x6", "hexiamonds"))
    assert (c.all, c.distinct) == (624, 156)


def test_more_hexiamond_boards():
    """Polyform Puzzler, puzzler/puzzles/hexiamonds.py: Hexiamonds4x9 "74 solutions",
    Hexiamonds3x12 "0 solutions", Hexiamonds4x11Trapezoid "76 solutions"."""
    for board, distinct in [
        ("4x9", 74),
        ("3x12", 0),
        (str(DATA / "hexiamonds_trapezoid4x11.txt"), 76),
    ]:
        c = tiling.count_tilings(tiling.make_puzzle(board, "hexiamonds"))
        assert c.distinct == distinct and c.symmetric == 0, board


def test_one_sided_pentominoes_3x30():
    """46 distinct: Polyform Puzzler, puzzler/puzzles/pentominoes.py
    (OneSidedPentominoes3x30, "46 solutions"; its duplicates are the board's mirror
    images, which swap each chiral piece with its mirror image)."""
    puzzle = tiling.make_puzzle("3x30", "one-sided-pentominoes")
    assert len(tiling.symmetry_group(puzzle)) == 4
    c = tiling.count_tilings(puzzle)
    assert (c.all, c.distinct) == (184, 46)


def test_tetrahexes_and_polysticks():
    """Polyform Puzzler: tetrahexes.py Tetrahexes4x7 "9 solutions"; polysticks123.py
    Polysticks123_4x4ClippedCorners1 "21", ClippedCorners2 "132"; tetrasticks.py
    Tetrasticks6x6 "72 solutions omitting H" (6x6 points = 5x5 squares)."""
    for board, pieces, distinct in [
        ("7x4", "tetrahexes", 9),
        (str(DATA / "sticks_clipped1.txt"), "polysticks:1-3", 21),
        (str(DATA / "sticks_clipped2.txt"), "polysticks:1-3", 132),
        ("5x5", "tetrasticks,-H", 72),
    ]:
        c = tiling.count_tilings(tiling.make_puzzle(board, pieces))
        assert c.distinct == distinct and c.symmetric == 0, board


def test_tetracubes():
    """Polyform Puzzler, tetracubes.py: Tetracubes2x4x4 "1390", Tetracubes2x2x8 "224",
    counted with its P4 in one orientation: up to the box's 8 rotations. The tetracubes
    are mirror-closed (A4 and B4), so the 16 symmetries with reflections halve that."""
    for board, published in [("2x4x4", 1390), ("2x2x8", 224)]:
        c = tiling.count_tilings(tiling.make_puzzle(board, "tetracubes"))
        assert c.all == published * 8 and c.distinct * 2 == published and c.symmetric == 0


@pytest.mark.slow
def test_solid_pentominoes_box():
    """3,940 distinct: Polyform Puzzler, puzzler/puzzles/solid_pentominoes.py
    (SolidPentominoes3x4x5, "3940 solutions")."""
    c = tiling.count_tilings(tiling.make_puzzle("3x4x5", "solid-pentominoes"))
    assert (c.all, c.distinct) == (31520, 3940)


# -- problems, pictures and the command line ----------------------------------------------


def test_small_problems_against_the_naive_solver():
    line = "  |\n+-+-+-+\n"  # three segments in a row and one standing on the middle
    for board, pieces, lattice in [
        ("triangle:2", "polyiamonds:1-2,T1", "triangular"),
        (line, "I2,I1*2", "sticks"),
        (line, "T3,I1", "sticks"),
        ("hexagon:1", "D2*3", "triangular"),
    ]:
        problem = tiling.build(tiling.make_puzzle(board, pieces, lattice=lattice))
        assert len(dlx.naive_solutions(problem)) == dlx.count(problem).solutions


def test_cells_along_the_short_side():
    order = tiling.cell_order(parse_board("3x4x5", "cubic")[1])
    assert order[:4] == [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)]


def test_adjacency_counts_shared_edges():
    for board, pieces, pairs in [
        ("2x1", "D2*2", 3),  # a parallelogram of four triangles in a row
        ("2x2", "I2*2", 5),  # two hexagons by two: 5 shared edges
        ("2x2x2", "O4*2", 12),  # the edges of a cube
        ("1x1", "I1*4", 4),  # the 4 sides of a square: a cycle through its corners
    ]:
        lattice = {"D2*2": "triangular", "I2*2": "hexagonal", "O4*2": "cubic", "I1*4": "sticks"}
        puzzle = tiling.make_puzzle(board, pieces, lattice=lattice[pieces])
        assert len(tiling.adjacency(puzzle)) == pairs, board


def test_bad_boards_and_pieces_are_refused_in_one_line(tmp_path):
    """A fixed corpus of bad input: each gives a PuzzleError, never a traceback."""
    bad = tmp_path / "bad.txt"
    for board, pieces, lattice, text in [
        ("triangle:3", "soma", None, None),
        ("3x3x3", "hexiamonds", None, None),
        ("hexagon:0", "hexiamonds", None, None),
        ("0x4", "tetrahexes", None, None),
        ("6x6", "polyiamonds:0-3", None, None),
        ("6x6", "", None, None),
        ("6x6", "hexiamonds,hexiamonds*0", None, None),
        (str(bad), "tetrasticks", None, " .\n. x\n+-+\n"),
        (str(bad), "hexiamonds", None, "lattice: triangular\n0 0\n"),
        (str(bad), "hexiamonds", None, "...\n...\n"),
        (str(bad), "tetrahexes", None, "A.A\nAA\n"),
        ("4x4", str(bad), "triangular", "lattice: cubic\nA 0 0 0\n"),
        ("4x4", str(bad), "square", "A.A\n"),
    ]:
        if text is not None:
            bad.write_text(text)
        with pytest.raises(PuzzleError) as error:
            tiling.make_puzzle(board, pieces, lattice=lattice)
        assert "\n" not in str(error.value)


def test_svg_one_path_per_piece():
    for board, pieces in [("6x6", "hexiamonds"), ("3x3x3", "soma"), ("5x5", "tetrasticks,-H")]:
        puzzle = tiling.make_puzzle(board, pieces)
        found = next(tiling.distinct_tilings(puzzle))
        drawing = tiling.svg(puzzle, [found, found])
        assert drawing.count("<path") == 2 * len(puzzle.pieces)
        assert drawing.count("<text") >= 2 * len(puzzle.pieces)


def test_cli_counts_and_writes_dlx(tmp_path, capsys):
    out = tmp_path / "soma.dlx"
    assert (
        main(
            ["polyform", "--board", "3x3x3", "--pieces", "soma", "--no-progress", "--dlx", str(out)]
            + ["--count"]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "all solutions: 11520" in text and "distinct solutions: 240" in text
    assert dlx.count(dlx.read(out)).solutions == 240


def test_cli_lists_and_draws(tmp_path, capsys):
    pictures = tmp_path / "s.txt"
    drawing = tmp_path / "s.svg"
    argv = ["polyform", "--board", "7x4", "--pieces", "tetrahexes", "--out", str(pictures)]
    assert main([*argv, "--svg", str(drawing), "--no-progress"]) == 0
    captured = capsys.readouterr()  # the solutions went to --out, their number to stderr
    assert captured.out == "" and captured.err.startswith("9 solutions, ")
    blocks = pictures.read_text().strip("\n").split("\n\n")
    assert len(blocks) == 9 and drawing.read_text().count("<g ") == 9
    puzzle = tiling.make_puzzle("7x4", "tetrahexes")
    for block in blocks:  # each picture reads back as a tiling
        cells: dict = {}
        for cell, ch in LATTICES["hexagonal"].read_picture(block).items():
            cells.setdefault(ch, set()).add(cell)
        check_tiling(
            puzzle,
            [
                (next(n for n in puzzle.names if n[0] == ch), frozenset(c))
                for ch, c in cells.items()
            ],
        )


def test_cli_bad_input(capsys):
    assert main(["polyform", "--board", "7x7", "--pieces", "tetrahexes", "--no-progress"]) == 2
    assert "cover 28 cells but the board has 49" in capsys.readouterr().err
    assert main(["polyform", "--board", "7x4", "--pieces", "tetrahex", "--no-progress"]) == 2
    assert "unknown piece or set" in capsys.readouterr().err


# -- the tiling commands on the shared command layer ------------------------------------


def _tilings_of_json(text: str) -> list:
    """The solutions of a ``--json`` answer as tilings: (piece, frozenset of cells)."""
    (entry,) = json.loads(text)["puzzles"]
    return [
        [(p["piece"], frozenset(tuple(c) for c in p["cells"])) for p in solution]
        for solution in entry["solutions"]
    ]


def test_cli_json_lists_and_counts(capsys):
    """--json: solutions as lists of pieces with their cells, counts as numbers (the
    Soma cube: 11520 all, 240 distinct, Polyform Puzzler's soma 3x3x3)."""
    argv = ["polyform", "--board", "3x3x3", "--pieces", "soma", "--no-progress", "--json"]
    assert main([*argv, "--limit", "3"]) == 0
    found = _tilings_of_json(capsys.readouterr().out)
    puzzle = tiling.make_puzzle("3x3x3", "soma")
    assert len(found) == 3 and len({frozenset(t) for t in found}) == 3
    for t in found:
        check_tiling(puzzle, t)
    assert main(argv) == 0
    (entry,) = json.loads(capsys.readouterr().out)["puzzles"]
    assert (entry["all"], entry["distinct"], entry["count"]) == (11520, 240, 240)
    assert entry["complete"] is True


def test_cli_out_3d_reads_back(tmp_path, capsys):
    """A 3-D --out file (layers split by blank lines) has a header per solution and
    reads back as the solutions listed in JSON."""
    out = tmp_path / "soma.txt"
    argv = ["polyform", "--board", "3x3x3", "--pieces", "soma", "--limit", "4", "--no-progress"]
    assert main([*argv, "--out", str(out)]) == 0
    assert main([*argv, "--json"]) == 0
    listed = _tilings_of_json(capsys.readouterr().out)
    text = out.read_text()
    assert text.count("# solution ") == 4 and "\n\n\n" not in text
    pictures = cli.read_solutions(text)
    assert len(pictures) == 4
    puzzle = tiling.make_puzzle("3x3x3", "soma")
    show = tiling.letters(puzzle)
    name_of = {ch: name for name, ch in show.items()}
    read_back = []
    for picture in pictures:
        cells: dict = {}
        for cell, ch in LATTICES["cubic"].read_picture(picture).items():
            cells.setdefault(name_of[ch], set()).add(cell)
        found = [(name, frozenset(c)) for name, c in cells.items()]
        check_tiling(puzzle, found)
        read_back.append(frozenset(found))
    assert read_back == [frozenset(t) for t in listed]


def test_cli_out_2d_has_no_header(tmp_path):
    """On a one-layer board the file is pictures split by blank lines, as before."""
    out = tmp_path / "th.txt"
    argv = ["polyform", "--board", "7x4", "--pieces", "tetrahexes", "--no-progress"]
    assert main([*argv, "--limit", "2", "--out", str(out)]) == 0
    text = out.read_text()
    assert "#" not in text and len(cli.read_solutions(text)) == 2


def test_cli_unique_up_to_symmetry(capsys):
    """--unique: one distinct tiling (the 4x4 square by four I tetrominoes; the 3x20
    rectangle has 2 distinct pentomino tilings, Polyform Puzzler's Pentominoes3x20)."""
    assert main(["pentomino", "--board", "3x20", "--unique", "--no-progress"]) == 1
    assert capsys.readouterr().out == "not unique\n"
    assert main(["pentomino", "--board", "4x2", "--pieces", "I2*4", "--unique"]) == 1
    assert capsys.readouterr().out == "not unique\n"  # 5 tilings in 4 classes
    assert main(["pentomino", "--board", "4x4", "--pieces", "I4*4", "--unique"]) == 0
    assert capsys.readouterr().out == "unique\n"  # all across, or all down: one class
    assert main(["pentomino", "--board", "4x4", "--pieces", "I4*4", "--no-symmetry"]) == 0
    assert capsys.readouterr().out.startswith("all solutions: 2\n")


def test_cli_time_limit_counts_at_least(capsys):
    """An unfinished count prints "at least" on both lines, and the note says why."""
    argv = ["pentomino", "--board", "8x8", "--extra", "O", "--no-progress", "--workers", "1"]
    assert main([*argv, "--time-limit", "0.3"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith("all solutions: at least ")
    assert lines[1].startswith("distinct solutions: at least ")
    all_, distinct = (int(line.rsplit(" ", 1)[1]) for line in lines[:2])
    assert all_ == 8 * distinct and distinct < 16146  # G of the square: 8
    assert "search stopped by the time limit" in captured.err


@pytest.mark.parametrize("engine", dlx.ENGINE_CHOICES)
def test_cli_engine(engine, capsys):
    """--engine reaches dlx: the same counts from every kernel it has, a one-line
    refusal naming --engine for one it lacks."""
    status = main(["pentomino", "--board", "3x20", "--no-progress", "--engine", engine])
    captured = capsys.readouterr()
    if status == 0:
        assert captured.out == "all solutions: 8\ndistinct solutions: 2\n"
    else:
        assert status == 2 and captured.err.startswith(f"error: --engine {engine}: ")
        assert len(captured.err.splitlines()) == 1
    assert main(["pentomino", "--board", "3x20", "--engine", cli.ENGINE, "--no-progress"]) == 0


def _as_options(puzzle, found) -> list[int]:
    """The options of ``tiling.build(puzzle)`` that place the pieces of ``found``."""
    problem = tiling.build(puzzle)
    index = {}
    for k in range(problem.n_options):
        row = problem.option(k)
        index[(row[0], frozenset(item for item in row[1:] if item[0] not in "!+"))] = k
    return [index[(name, frozenset(tiling.cell_item(c) for c in cells))] for name, cells in found]


def test_random_tilings_are_tilings_and_the_seed_repeats_them():
    """Each drawn tiling is a solution (``dlx.verify``) and a tiling of the puzzle; the
    same seed draws the same tilings; with symmetry, each is its class's representative
    (one of ``distinct_tilings``); 8 tilings of 3x20 in 2 classes (Polyform Puzzler's
    pentominoes3x20: 2 solutions)."""
    from puzzles.polyform import random_tiling, random_tilings

    puzzle = tiling.make_puzzle("3x20", "pentominoes")
    drawn = random_tilings(puzzle, 12, seed=5, symmetry=False)
    for found in drawn:
        dlx.verify.check(tiling.build(puzzle), _as_options(puzzle, found))
        check_tiling(puzzle, found)
    assert drawn == random_tilings(puzzle, 12, seed=5, symmetry=False)
    assert 1 < len({tuple(t) for t in drawn}) <= 8
    classes = {tuple(t) for t in tiling.distinct_tilings(puzzle)}
    assert len(classes) == 2
    for found in random_tilings(puzzle, 6, seed=2):
        assert tuple(found) in classes
        dlx.verify.check(tiling.build(puzzle), _as_options(puzzle, found))
    one = random_tiling(puzzle, seed=9)
    assert one == random_tiling(puzzle, seed=9) and tuple(one) in classes
    assert random_tiling(tiling.make_puzzle("2x3", "T4,I2")) is None
    with pytest.raises(ValueError, match="size must be an integer >= 1"):
        random_tilings(puzzle, 0)
