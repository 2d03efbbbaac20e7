"""Rectangle tilings (``puzzles.rectangles``): Scott R. Shannon's OEIS counts, every
solution through the independent checker and ``faults``, a brute-force count from the
rules alone on small boards, the corner split, the command line."""

from __future__ import annotations

import json

import pytest

import dlx
from puzzles import rectangles
from puzzles.cli import main
from puzzles.common import PuzzleError

# The OEIS entries' terms for n = 1, 2, ... (https://oeis.org/A360498 and so on, by
# Scott R. Shannon, Feb 2023): every tiling of the n x n square counted.
KNOWN = {
    "oblongs": [0, 0, 4, 12, 256, 3620, 87216, 2444084, 87181220],  # A360498
    "oriented-oblongs": [0, 0, 4, 36, 1056, 31052, 1473944, 87469884],  # A360725
    "rectangles": [1, 1, 21, 269, 4489, 82981, 2995185, 118897973],  # A360499
    "oriented-rectangles": [1, 1, 33, 513, 14409, 693025, 50447161],  # A360256
    "areas": [1, 1, 21, 253, 2401, 36237, 815929, 18713197],  # A360804
}
FAST = {"oblongs": 7, "oriented-oblongs": 6, "rectangles": 6, "oriented-rectangles": 5, "areas": 6}
SLOW = {"oblongs": 8, "oriented-oblongs": 7, "rectangles": 7, "oriented-rectangles": 6, "areas": 7}


@pytest.mark.parametrize("rule", list(KNOWN))
def test_known_counts(rule):
    for n in range(1, FAST[rule] + 1):
        assert rectangles.count(n, rule) == KNOWN[rule][n - 1], (rule, n)


@pytest.mark.slow
@pytest.mark.parametrize("rule", list(KNOWN))
@pytest.mark.parametrize("symmetry", [False, True])
def test_known_counts_slow(rule, symmetry):
    n = SLOW[rule]
    assert rectangles.count(n, rule, engine="tight", symmetry=symmetry) == KNOWN[rule][n - 1]


@pytest.mark.parametrize("rule", list(KNOWN))
@pytest.mark.parametrize("engine", ["dlx", "tight", "bitset"])
def test_kernels_and_corner_split_agree(rule, engine):
    n = FAST[rule] - 1
    want = KNOWN[rule][n - 1]
    assert rectangles.count(n, rule, engine=engine) == want
    assert rectangles.count(n, rule, engine=engine, symmetry=True) == want


@pytest.mark.parametrize("rule", list(KNOWN))
def test_every_tiling_checked(rule):
    puzzle = rectangles.make_puzzle(4, rule)
    problem = rectangles.build(puzzle)
    seen = set()
    for solution in dlx.solutions(problem):
        dlx.check(problem, solution.options)
        tiling = rectangles.decode(puzzle, solution)
        assert rectangles.faults(puzzle, tiling) == []
        assert rules_hold(puzzle, tiling.pieces)
        seen.add(tuple(tiling.pieces))
    assert len(seen) == KNOWN[rule][3]


def rules_hold(puzzle, pieces) -> bool:
    """The rules read from the OEIS entries: the rectangles cover the board exactly,
    and no two have the same dimensions (the same height x width for the oriented
    rules, the same area for ``areas``); no squares for the oblongs."""
    covered = sorted(
        (i, j) for r, c, h, w in pieces for i in range(r, r + h) for j in range(c, c + w)
    )
    if covered != [(i, j) for i in range(puzzle.height) for j in range(puzzle.width)]:
        return False
    if "oblongs" in puzzle.rule and any(h == w for _, _, h, w in pieces):
        return False
    if puzzle.rule == "areas":
        keys = [h * w for _, _, h, w in pieces]
    elif puzzle.rule.startswith("oriented"):
        keys = [(h, w) for _, _, h, w in pieces]
    else:
        keys = [tuple(sorted((h, w))) for _, _, h, w in pieces]
    return len(keys) == len(set(keys))


def brute_force(puzzle) -> int:
    """Tilings of a small board from the rules alone: fill the first empty cell (row by
    row) with every rectangle that fits there, then check the whole tiling."""
    h_board, w_board = puzzle.height, puzzle.width

    def fill(grid, pieces):
        empty = next(
            ((i, j) for i in range(h_board) for j in range(w_board) if not grid[i][j]), None
        )
        if empty is None:
            return int(rules_hold(puzzle, pieces))
        r, c = empty
        total = 0
        for h in range(1, h_board - r + 1):
            for w in range(1, w_board - c + 1):
                cells = [(i, j) for i in range(r, r + h) for j in range(c, c + w)]
                if any(grid[i][j] for i, j in cells):
                    continue
                for i, j in cells:
                    grid[i][j] = True
                total += fill(grid, [*pieces, (r, c, h, w)])
                for i, j in cells:
                    grid[i][j] = False
        return total

    return fill([[False] * w_board for _ in range(h_board)], [])


# every board up to 4x3 and 3x4 (a few ms each), and 4x4 (a second of brute force) once
SMALL_BOARDS = [(w, h) for w in range(1, 5) for h in range(1, 5) if w * h <= 12]


@pytest.mark.parametrize("rule", list(rectangles.RULES))
def test_small_boards_against_brute_force(rule):
    boards = SMALL_BOARDS + ([(4, 4)] if rule == "rectangles" else [])
    for width, height in boards:
        assert_counts_as_brute_force(width, height, rule)


def assert_counts_as_brute_force(width: int, height: int, rule: str) -> None:
    """The counts (with and without symmetry) of a board are the brute force's, and its
    solutions the naive solver's (where it can take them)."""
    puzzle = rectangles.make_puzzle((width, height), rule)
    want = brute_force(puzzle)
    assert rectangles.count(puzzle) == want
    assert rectangles.count(puzzle, symmetry=True) == want
    problem = rectangles.build(puzzle)
    if problem.n_options <= 16:  # what the naive solver takes
        found = {frozenset(s.options) for s in dlx.solutions(problem)}
        assert found == dlx.naive_solutions(problem)


def test_faults_name_what_is_wrong():
    puzzle = rectangles.make_puzzle(3, "oblongs")
    assert rectangles.faults(puzzle, [(0, 0, 1, 3), (1, 0, 2, 3)]) == []
    assert rectangles.faults(puzzle, [(0, 0, 1, 3), (1, 0, 1, 3), (2, 0, 1, 3)]) == [
        "row 2, column 1: the kind 1x3 is used again (first at row 1, column 1)",
        "row 3, column 1: the kind 1x3 is used again (first at row 1, column 1)",
    ]
    assert rectangles.faults(puzzle, [(0, 0, 3, 3)]) == [
        "row 1, column 1: a 3x3 rectangle is not allowed (oblongs)"
    ] + [f"row {i + 1}, column {j + 1} is not covered" for i in range(3) for j in range(3)]
    assert "row 2, column 1 is covered twice" in rectangles.faults(
        puzzle, [(0, 0, 2, 1), (1, 0, 1, 3), (0, 1, 1, 2)]
    )
    assert "row 3, column 2: the 1x2 rectangle leaves the board" in rectangles.faults(
        rectangles.make_puzzle((2, 3), "oblongs"), [(2, 1, 1, 2)]
    )


def test_render_svg_and_json():
    puzzle = rectangles.make_puzzle(3, "oblongs")
    assert rectangles.faults(puzzle, rectangles.solve(3, "oblongs")) == []
    tiling = rectangles.Tiling(puzzle, [(1, 0, 2, 3), (0, 0, 1, 3)])
    assert rectangles.render(tiling) == "AAA\nBBB\nBBB\n"
    assert str(tiling) == rectangles.render(tiling)
    picture = rectangles.svg(tiling)
    assert picture.startswith("<svg") and picture.count("<rect") == 3  # background + 2
    assert tiling.to_json() == [list(p) for p in tiling.pieces]


def test_bad_sizes_and_rules():
    for size in ("0", "3x", "x3", "65", "axb"):
        with pytest.raises(PuzzleError, match="size"):
            rectangles.make_puzzle(size)
    with pytest.raises(PuzzleError, match="rule 'squares': not a rule"):
        rectangles.make_puzzle(3, "squares")
    assert rectangles.make_puzzle("5x3").height == 3


def test_command_line(capsys, tmp_path):
    assert main(["rectangles", "--size", "5", "--rule", "areas", "--no-progress"]) == 0
    assert capsys.readouterr().out == "2401\n"
    args = ["rectangles", "--size", "5", "--rule", "oriented-oblongs", "--count", "--symmetry"]
    assert main([*args, "--engine", "dlx", "--workers", "1", "--no-progress"]) == 0
    assert capsys.readouterr().out == "1056\n"
    problem_file = tmp_path / "r4.dlx"
    assert main(["rectangles", "--size", "4", "--dlx", str(problem_file), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["puzzles"][0]["count"] == 12
    assert dlx.count(dlx.read(problem_file)) == 12
    svg = tmp_path / "t.svg"
    assert (
        main(["rectangles", "--size", "3x2", "--rule", "rectangles", "--all", "--svg", str(svg)])
        == 0
    )
    out = capsys.readouterr().out
    assert out.count("\n\n") == 6 and svg.read_text().startswith("<svg")


def test_command_line_refusals(capsys, tmp_path):
    checkpoint = str(tmp_path / "c")
    assert main(["rectangles", "--size", "4", "--symmetry", "--checkpoint", checkpoint]) == 2
    assert "a count by corners (symmetry) takes no limit or checkpoint" in capsys.readouterr().err
    assert main(["rectangles", "--size", "3y3"]) == 2
    assert "--size '3y3': neither N nor WxH" in capsys.readouterr().err
    assert main(["rectangles", "board.txt"]) == 2
    assert "reads no FILE" in capsys.readouterr().err
