"""Polyomino tiling: known counts, exact symmetry breaking, an independent tiling checker."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import pytest

import dlx
from dlx.verify import check
from puzzles import polyomino as pm
from puzzles.cli import main
from puzzles.common import PuzzleError

DATA = Path(__file__).resolve().parent.parent / "data" / "polyomino"
SCOTT = str(DATA / "scott.txt")

# The 12 pentominoes as drawn in Golomb's book, typed here independently of the module.
GOLOMB = {
    "F": [".##", "##.", ".#."],
    "I": ["#####"],
    "L": ["#.", "#.", "#.", "##"],
    "N": [".#", ".#", "##", "#."],
    "P": ["##", "##", "#."],
    "T": ["###", ".#.", ".#."],
    "U": ["#.#", "###"],
    "V": ["#..", "#..", "###"],
    "W": ["#..", "##.", ".##"],
    "X": [".#.", "###", ".#."],
    "Y": ["..#.", "####"],
    "Z": ["##.", ".#.", ".##"],
}


# -- the independent checker: grids as lists of strings, turned with zip -----------------


def turn(rows: list[str]) -> list[str]:
    """A picture turned a quarter clockwise."""
    return ["".join(col) for col in zip(*rows[::-1], strict=True)]


def mirror(rows: list[str]) -> list[str]:
    """A picture mirrored left to right."""
    return [row[::-1] for row in rows]


def views(rows: list[str], one_sided: bool = False) -> list[list[str]]:
    """The 8 (or 4) turned and mirrored copies of a picture."""
    out = []
    for start in [rows] if one_sided else [rows, mirror(rows)]:
        for _ in range(4):
            out.append(start)
            start = turn(start)
    return out


def picture(cells) -> list[str]:
    """The cells as a tight picture of '#' and '.'."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return [
        "".join("#" if (r, c) in cells else "." for c in range(min(cols), max(cols) + 1))
        for r in range(min(rows), max(rows) + 1)
    ]


def congruent(a, b, one_sided: bool = False) -> bool:
    """True when two cell sets are the same shape up to turning (and mirroring)."""
    return picture(a) in _views_of(frozenset(b), one_sided)


@cache
def _views_of(cells: frozenset, one_sided: bool) -> list[list[str]]:
    """The views of a shape's picture (cached: pieces are checked many times)."""
    return views(picture(cells), one_sided)


def check_tiling(puzzle: pm.Puzzle, tiling) -> None:
    """Every board cell covered once, each piece used its number of times, in its shape."""
    covered = Counter(cell for _, cells in tiling for cell in cells)
    assert set(covered) == set(puzzle.board), "cells outside the board or left empty"
    assert max(covered.values()) == 1, "a cell covered twice"
    used = Counter(name for name, _ in tiling)
    assert used == Counter({p.name: p.copies for p in puzzle.pieces})
    shapes = {p.name: p.shape for p in puzzle.pieces}
    for name, cells in tiling:
        assert congruent(cells, shapes[name], puzzle.one_sided), f"{name} is misshapen"


def cell_maps(puzzle: pm.Puzzle) -> list[dict]:
    """The board's symmetries as cell maps, found by turning a grid of coordinates."""
    height = max(r for r, _ in puzzle.board) + 1
    width = max(c for _, c in puzzle.board) + 1
    coords = [[(r, c) for c in range(width)] for r in range(height)]
    maps = []
    for view in grid_views(coords, puzzle.one_sided):
        moved = {old: (r, c) for r, row in enumerate(view) for c, old in enumerate(row)}
        if {moved[cell] for cell in puzzle.board} == set(puzzle.board):
            maps.append(moved)
    return maps


def grid_views(rows: list[list], one_sided: bool = False) -> list[list[list]]:
    """The 8 (or 4) turned and mirrored copies of a grid of any values."""
    out = []
    for start in [rows] if one_sided else [rows, [row[::-1] for row in rows]]:
        for _ in range(4):
            out.append(start)
            start = [list(col) for col in zip(*start[::-1], strict=True)]
    return out


def images(puzzle: pm.Puzzle, tiling) -> list[frozenset]:
    """The tiling moved by each board symmetry, as sets of (piece, cells)."""
    return [
        frozenset((name, frozenset(m[c] for c in cells)) for name, cells in tiling)
        for m in cell_maps(puzzle)
    ]


def canonical_solution(puzzle: pm.Puzzle, tiling) -> tuple:
    """The least image of a tiling under the board's symmetries."""
    return min(tuple(sorted((n, tuple(sorted(c))) for n, c in im)) for im in images(puzzle, tiling))


def board_order(puzzle: pm.Puzzle) -> int:
    """How many turns and mirrors map the board onto itself."""
    return len(cell_maps(puzzle))


def solve_all(puzzle, plan=None):
    """Every solution of the problem, each checked at both levels; the tilings."""
    problem = pm.build(puzzle, plan)
    tilings = []
    for s in dlx.solutions(problem):
        check(problem, s.options)
        tiling = pm.decode(puzzle, s)
        check_tiling(puzzle, tiling)
        tilings.append(tiling)
    return tilings


def assert_exact(puzzle, expected_distinct=None, expected_all=None):
    """The distinct tilings are pairwise inequivalent, one per class of all tilings, and
    the counts (all, distinct, symmetric classes) agree with a plain enumeration."""
    plan = pm.plan_symmetry(puzzle, fallback=True)
    found = solve_all(puzzle, plan)
    distinct = [t for t in found if not plan.filter or pm.is_class_representative(plan, t)[0]]
    every = solve_all(puzzle)
    forms = [canonical_solution(puzzle, t) for t in distinct]
    assert len(set(forms)) == len(forms), "two distinct solutions are equivalent"
    assert set(forms) == {canonical_solution(puzzle, t) for t in every}
    order = board_order(puzzle)
    symmetric = sum(1 for t in distinct if len(set(images(puzzle, t))) < order)
    counts = pm.count_tilings(puzzle)
    assert (counts.all, counts.distinct, counts.symmetric) == (
        len(every),
        len(distinct),
        symmetric,
    )
    assert len(every) == sum(order // (order // len(set(images(puzzle, t)))) for t in distinct)
    if not plan.filter:
        assert symmetric == 0 and len(every) == len(distinct) * order
    if expected_distinct is not None:
        assert len(distinct) == expected_distinct
    if expected_all is not None:
        assert len(every) == expected_all
    return distinct


# -- pieces -----------------------------------------------------------------------------


def test_named_pentominoes_match_golomb_and_enumeration():
    for name, rows in GOLOMB.items():
        cells = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
        assert congruent(pm.NAMED[name], cells), name
    enumerated = {pm.canonical(s) for s in pm.free_polyominoes(5)}
    assert enumerated == {pm.canonical(pm.NAMED[n]) for n in GOLOMB}


def test_enumeration_counts_and_hexomino_names():
    assert [len(pm.free_polyominoes(n)) for n in range(1, 8)] == [1, 1, 2, 5, 12, 35, 108]
    hexominoes = [pm.NAMED[n] for n in pm.SETS["hexominoes"]]
    assert len({pm.canonical(s) for s in hexominoes}) == 35
    assert all(len(s) == 6 and pm.is_connected(s) for s in hexominoes)
    assert {pm.canonical(pm.NAMED[n]) for n in pm.SETS["tetrominoes"]} == {
        pm.canonical(s) for s in pm.free_polyominoes(4)
    }


def test_orientations_deduplicated():
    counts = {n: len(pm.orientations(pm.NAMED[n])) for n in GOLOMB}
    assert counts == dict(F=8, I=2, L=8, N=8, P=8, T=4, U=4, V=4, W=4, X=1, Y=8, Z=4)
    assert len(pm.orientations(pm.NAMED["F"], one_sided=True)) == 4
    assert len(pm.orientations(pm.NAMED["Z"], one_sided=True)) == 2


def test_piece_specs():
    names = [p.name for p in pm.parse_pieces("FILNPTUVWXYZ")]
    assert names == list("FILNPTUVWXYZ")
    pieces = pm.parse_pieces("pentominoes, O, I4*2, T4:3, L4 L4")
    copies = {p.name: p.copies for p in pieces}
    assert copies["O4"] == 1 and copies["I4"] == 2 and copies["T4"] == 3 and copies["L4"] == 2
    custom = pm.parse_pieces("AA.B\nA..B\n....\nCC.C\n...C\n")
    shapes = {p.name: (len(p.shape), p.copies) for p in custom}
    assert shapes == {"A": (3, 1), "B": (2, 1), "C": (2, 2)}


# -- boards and bad input ---------------------------------------------------------------


def test_boards():
    assert len(pm.parse_board("8x8")) == 64
    scott = pm.parse_board(SCOTT)
    assert len(scott) == 60 and (3, 3) not in scott and (0, 0) in scott
    assert len(pm.board_symmetries(scott)) == 8
    assert len(pm.board_symmetries(pm.parse_board("6x10"))) == 4


def test_ragged_board_names_the_line():
    with pytest.raises(PuzzleError, match="line 3"):
        pm.parse_board("####\n####\n###\n####")


def test_unknown_piece_names_its_position():
    with pytest.raises(PuzzleError, match=r"^pieces, item 2 'FQ'.*character 2"):
        pm.parse_pieces("pentominoes, FQ")
    with pytest.raises(PuzzleError, match=r"^extra, item 1 'Q'"):
        pm.make_puzzle("8x8", "pentominoes", ["Q"])


def test_area_mismatch():
    with pytest.raises(PuzzleError, match="cover 65 cells but the board has 64"):
        pm.make_puzzle("8x8", "pentominoes", ["O", "I1"])


def test_disconnected_and_clashing_pieces():
    with pytest.raises(PuzzleError, match="different shapes"):
        pm.parse_pieces("AA.A\n")
    with pytest.raises(PuzzleError, match="two different pieces"):
        pm.make_puzzle("1x7", "F", ["FF\n"])


# -- symmetry breaking ------------------------------------------------------------------


def test_3x20_exact():
    distinct = assert_exact(pm.make_puzzle("3x20"), 2, 8)
    assert len(distinct) == 2


def test_scott_exact():
    puzzle = pm.make_puzzle(SCOTT)
    assert_exact(puzzle, 65, 520)
    counts = pm.count_tilings(puzzle)
    assert (counts.all, counts.distinct) == (520, 65)


def test_small_boards_exact_against_enumeration():
    """Cross-check on boards with other symmetry groups and piece sets."""
    checked = 0
    for board, pieces in [
        ("4x5", "L, P, Y, O4, I1"),
        ("##....\n######\n######\n######\n######\n....##", "F, L, N, P, Y, I3"),
        ("5x5", "X, F, L, N, P"),
        ("4x4", "L4, T4, O4, I4"),
        ("6x6", "X, F, L, N, P, Y, I4, I2"),
    ]:
        puzzle = pm.make_puzzle(board, pieces)
        checked += len(assert_exact(puzzle)) > 0
    assert checked >= 3


def test_general_rule_counts_symmetric_solutions():
    """Sets with no asymmetric single piece: solutions are reduced one by one."""
    puzzle = pm.make_puzzle("4x2", "I2*4")
    assert pm.plan_symmetry(puzzle, fallback=True).filter
    assert_exact(puzzle, 4, 5)  # 5 tilings by dominoes, 4 up to symmetry, all symmetric
    assert pm.count_tilings(puzzle).symmetric == 4  # (the row flip fixes each)
    puzzle = pm.make_puzzle("5x5", "X, I, U, T, V")
    plan = pm.plan_symmetry(puzzle, fallback=True)
    assert plan.filter and plan.restricted == "X"
    assert_exact(puzzle)
    puzzle = pm.make_puzzle("6x6", "I3*12")
    counts = pm.count_tilings(puzzle)
    assert counts.symmetric > 0
    assert_exact(puzzle)


def test_custom_pieces_with_copies_from_a_file():
    """Two sets of tetrominoes drawn in a file, in a 5x8 box: 783 distinct tilings."""
    puzzle = pm.make_puzzle("5x8", str(DATA / "tetrominoes_twice.txt"))
    assert {p.name: p.copies for p in puzzle.pieces} == dict(I=2, O=2, T=2, S=2, L=2)
    counts = pm.count_tilings(puzzle)
    assert (counts.all, counts.distinct, counts.symmetric) == (3106, 783, 13)
    assert dlx.count(pm.build(puzzle)).solutions == 3106


@pytest.mark.slow
def test_custom_pieces_exact():
    assert_exact(pm.make_puzzle("5x8", str(DATA / "tetrominoes_twice.txt")), 783, 3106)


def test_one_sided_group_keeps_rotations_only():
    puzzle = pm.make_puzzle("5x5", "F, L, N, P, Y", one_sided=True)
    assert len(pm.symmetry_group(puzzle)) == 4
    puzzle = pm.make_puzzle("5x5", "X, I, U, T, V", one_sided=True)
    assert len(pm.symmetry_group(puzzle)) == 8


def test_copies_are_not_multiplied():
    puzzle = pm.make_puzzle("4x2", "I2*4")
    tilings = solve_all(puzzle)
    assert len(tilings) == 5
    with pytest.raises(pm.NoSymmetryBreaking, match="single copy"):
        pm.plan_symmetry(puzzle)


def test_no_asymmetric_breaker_is_refused():
    puzzle = pm.make_puzzle("5x5", "X, I, U, T, V")
    with pytest.raises(pm.NoSymmetryBreaking, match="no symmetry"):
        pm.plan_symmetry(puzzle, restrict="X")


def test_8x8_with_square_plan():
    puzzle = pm.make_puzzle("8x8", "pentominoes", ["O"])
    plan = pm.plan_symmetry(puzzle)
    assert plan.group_order == 8
    assert len(plan.kept) == 6  # X's centre in the 6x6 middle, one per D4 orbit
    assert plan.restricted == "X" and plan.breaker == "P"
    assert sum(len(s) > 1 for s in plan.stabilizers) == 3  # X on the diagonal


@pytest.mark.slow
@pytest.mark.parametrize(
    "board, distinct, every", [("6x10", 2339, 9356), ("5x12", 1010, 4040), ("4x15", 368, 1472)]
)
def test_rectangles(board, distinct, every):
    puzzle = pm.make_puzzle(board)
    tilings = solve_all(puzzle, pm.plan_symmetry(puzzle))
    forms = {canonical_solution(puzzle, t) for t in tilings}
    assert len(tilings) == len(forms) == distinct
    counts = pm.count_tilings(puzzle)
    assert (counts.all, counts.distinct) == (every, distinct)
    assert pm.count_tilings(puzzle, symmetry=False).all == every


@pytest.mark.slow
def test_cross_with_square():
    puzzle = pm.make_puzzle(str(DATA / "cross.txt"), "pentominoes", ["O"])
    assert_exact(puzzle, 177, 1416)


@pytest.mark.slow
def test_8x8_with_square():
    puzzle = pm.make_puzzle("8x8", "pentominoes", ["O"])
    tilings = solve_all(puzzle, pm.plan_symmetry(puzzle))
    forms = {canonical_solution(puzzle, t) for t in tilings}
    assert len(tilings) == len(forms) == 16146
    assert pm.count_tilings(puzzle, symmetry=False).all == 129168


# -- output and command line ------------------------------------------------------------


def test_render_and_svg():
    puzzle = pm.make_puzzle("3x20")
    tiling = next(pm.distinct_tilings(puzzle))
    text = pm.render(puzzle, tiling)
    rows = text.splitlines()
    assert len(rows) == 20 and all(len(r) == 3 for r in rows)  # W x H
    assert Counter(text.replace("\n", "")) == Counter({ch: 5 for ch in "FILNPTUVWXYZ"})
    drawing = pm.svg(puzzle, [tiling, tiling])
    assert drawing.startswith("<svg") and drawing.count("<rect") == 1  # the background
    assert drawing.count("<path") == drawing.count("<text") == 2 * 12  # one per piece


def test_cli_counts(capsys):
    assert main(["pentomino", "--board", "3x20", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "all solutions: 8" in out and "distinct solutions: 2" in out


def test_cli_lists_and_draws(tmp_path, capsys):
    out_file = tmp_path / "s.txt"
    svg_file = tmp_path / "s.svg"
    argv = ["pentomino", "--board", SCOTT, "--out", str(out_file), "--svg", str(svg_file)]
    assert main([*argv, "--no-progress"]) == 0
    blocks = out_file.read_text().strip().split("\n\n")
    assert len(blocks) == 65
    puzzle = pm.make_puzzle(SCOTT)
    assert len({canonical_solution(puzzle, _parse_picture(b)) for b in blocks}) == 65
    assert svg_file.read_text().count("<g ") == 65
    captured = capsys.readouterr()  # the solutions went to --out, their number to stderr
    assert captured.out == "" and captured.err.startswith("65 solutions, ")


def _parse_picture(block: str):
    """A tiling from a text picture (letters are names of one-copy pieces)."""
    cells: dict[str, set] = {}
    for r, row in enumerate(block.splitlines()):
        for c, ch in enumerate(row):
            if ch != ".":
                cells.setdefault(ch, set()).add((r, c))
    return [(name, frozenset(v)) for name, v in cells.items()]


def test_cli_general_rule(capsys):
    argv = ["pentomino", "--board", "4x2", "--pieces", "I2*4", "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "all solutions: 5" in out and "distinct solutions: 4" in out
    assert "symmetric classes: 4" in out


def test_cli_choices_and_no_symmetry(capsys):
    argv = ["pentomino", "--board", "3x20", "--no-progress"]
    assert main([*argv, "--restrict", "X", "--breaker", "F"]) == 0
    assert "distinct solutions: 2" in capsys.readouterr().out
    assert main([*argv, "--no-symmetry"]) == 0
    out = capsys.readouterr().out
    assert "all solutions: 8" in out and "distinct solutions: ?" in out
    assert main([*argv, "--restrict", "O"]) == 2
    assert "no piece 'O4'" in capsys.readouterr().err


def test_cli_bad_input(capsys):
    assert main(["pentomino", "--board", "8x8", "--no-progress"]) == 2
    assert "cover 60 cells but the board has 64" in capsys.readouterr().err
    assert main(["pentomino", "--pieces", "FILNQ", "--no-progress"]) == 2
    assert "unknown piece" in capsys.readouterr().err


def test_one_sided_pentominoes(capsys):
    """The 18 one-sided pentominoes on 3x30: 46 distinct (Polyform Puzzler,
    puzzler/puzzles/pentominoes.py, OneSidedPentominoes3x30). The board's mirror images
    swap F and F' (etc.), so they stay in G: all 184 = 46 x 4."""
    puzzle = pm.make_puzzle("3x30", "one-sided-pentominoes")
    assert puzzle.one_sided and len(puzzle.pieces) == 18
    assert sorted(p.name for p in puzzle.pieces if p.name.endswith("'")) == [
        "F'", "L'", "N'", "P'", "Y'", "Z'"
    ]  # fmt: skip
    for name in "FLNPYZ":  # F' is F turned over, and no rotation of F
        rows = mirror(picture(pm.NAMED[name]))
        flipped = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
        assert congruent(flipped, puzzle.piece(name + "'").shape, one_sided=True)
        assert not congruent(pm.NAMED[name], puzzle.piece(name + "'").shape, one_sided=True)
    assert len(pm.symmetry_group(puzzle)) == 4
    assert (
        main(["pentomino", "--board", "3x30", "--pieces", "one-sided-pentominoes", "--no-progress"])
        == 0
    )
    out = capsys.readouterr().out
    assert "all solutions: 184" in out and "distinct solutions: 46" in out
