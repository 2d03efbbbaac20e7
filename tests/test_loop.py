"""The rotation puzzle (infinity loop): known counts, checked solutions, formats, errors."""

import csv
import itertools
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pipe_grids import solved_grids

import dlx
from puzzles import loop, tiles
from puzzles.cli import main
from puzzles.common import PuzzleError

DATA = Path(__file__).resolve().parent.parent / "data" / "infinity_loop"
ANSWERS = DATA / "derived_answers"


def answers() -> list[dict]:
    """The rows of answers.tsv."""
    with open(ANSWERS / "answers.tsv", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


KNOWN = {
    row["file"]: int(row["solution_count"]) for row in answers() if row["solution_count"].isdigit()
}
SOLUTION_FILES = {row["file"]: row["one_solution_file"] for row in answers()}


def load(name: str) -> loop.Puzzle:
    """A puzzle of the data folder."""
    return loop.parse((DATA / name).read_text(encoding="utf-8"))


def numbers(text: str) -> np.ndarray:
    """A grid of numbers written one row a line."""
    return np.array([[int(v) for v in line.split()] for line in text.split("\n") if line.strip()])


def assert_solution(puzzle: loop.Puzzle, grid) -> None:
    """The independent check: rotations of the given tiles, every pipe end matched."""
    assert loop.faults(puzzle, grid) == []


# -- tiles ---------------------------------------------------------------------------


WORDS = {"UP": tiles.UP, "RIGHT": tiles.RIGHT, "DOWN": tiles.DOWN, "LEFT": tiles.LEFT}


def glyph_mask(glyph: str) -> int:
    """The pipe ends of a box-drawing character, read from its Unicode name."""
    if glyph == " ":
        return 0
    words = unicodedata.name(glyph).replace("BOX DRAWINGS ", "").split()
    mask = 0
    for word in words:
        mask |= WORDS.get(word, 0)
        if word == "HORIZONTAL":
            mask |= tiles.LEFT | tiles.RIGHT
        if word == "VERTICAL":
            mask |= tiles.UP | tiles.DOWN
    return mask


def test_glyph_tables_follow_unicode_names():
    for m in range(16):
        assert glyph_mask(tiles.HEAVY[m]) == m
        assert glyph_mask(tiles.LIGHT[m]) == m
        if m:
            assert "HEAVY" in unicodedata.name(tiles.HEAVY[m])
            assert "LIGHT" in unicodedata.name(tiles.LIGHT[m])


def test_issue_string_is_indexed_by_reversed_bits():
    """' ╸╻┓╺━┏┳╹┛┃┫┗┻┣╋' lists the tiles by the bit order 1 left, 2 down, 4 right, 8 up."""
    issue = " ╸╻┓╺━┏┳╹┛┃┫┗┻┣╋"
    for i, glyph in enumerate(issue):
        reversed_bits = int(f"{i:04b}"[::-1], 2)
        assert tiles.GLYPH_MASK[glyph] == reversed_bits
    assert tiles.GLYPH_MASK[issue[1]] == tiles.LEFT


def test_bit_order_matches_the_shared_solutions():
    """In every shipped solution no pipe leaves the board: bit 1 is up, 2 right..."""
    for row in answers():
        if row["one_solution_file"] != "-":
            grid = numbers((ANSWERS / row["one_solution_file"]).read_text(encoding="utf-8"))
            assert not (grid[0] & tiles.UP).any() and not (grid[-1] & tiles.DOWN).any()
            assert not (grid[:, 0] & tiles.LEFT).any()
            assert not (grid[:, -1] & tiles.RIGHT).any()
            assert tiles.open_ends(grid) == []


def test_rotations():
    for m in range(16):
        assert tiles.rotate(m, 4) == m
        turns = tiles.rotations(m)
        assert len(turns) == len(set(turns)) and turns[0] == m
        assert all(bin(t).count("1") == bin(m).count("1") for t in turns)
        assert set(turns) == {tiles.rotate(m, k) for k in range(4)}
    assert tiles.rotate(tiles.UP) == tiles.RIGHT
    assert [len(tiles.rotations(m)) for m in (0, 15, 5, 10, 1, 3, 7)] == [1, 1, 2, 2, 4, 4, 4]


# -- known counts and solutions ------------------------------------------------------


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_known_counts(name):
    puzzle = load(name)
    plan = loop.plan(puzzle)
    assert loop.count(plan).solutions == KNOWN[name]
    assert loop.is_unique(plan) == (KNOWN[name] == 1)
    assert_solution(puzzle, loop.first(plan))


SMALL = sorted(name for name, n in KNOWN.items() if n <= 1000)


@pytest.mark.parametrize("name", SMALL)
def test_every_solution_checked(name):
    puzzle = load(name)
    found = list(loop.solutions(puzzle))
    assert len(found) == KNOWN[name]
    assert len({g.grid.tobytes() for g in found}) == len(found)
    for grid in found:
        assert_solution(puzzle, grid)


@pytest.mark.parametrize("name", sorted(name for name, n in KNOWN.items() if n > 1000))
def test_large_counts_checked_part_by_part(name):
    """Too many solutions to list: each solution of each part is checked in the whole
    grid (the other parts at their first solution), and at the exact-cover level. As
    parts meet only at decided edges, every combination is then a solution."""
    puzzle = load(name)
    plan = loop.plan(puzzle)
    per_part = [list(dlx.solutions(plan.problem(k))) for k in range(len(plan.parts))]
    assert np.prod([len(s) for s in per_part], dtype=object) == KNOWN[name]
    base = [found[0] for found in per_part]
    for k, found in enumerate(per_part):
        for solution in found:
            dlx.check(plan.problem(k), solution.options)
            combination = base[:k] + [solution] + base[k + 1 :]
            assert_solution(puzzle, loop.decode(puzzle, combination, plan.fixed))


@pytest.mark.parametrize("name", ["infinity_loop_sample1.txt", "infinity_loop_bearific1.txt"])
def test_unique_answer_is_the_shipped_one(name):
    puzzle = load(name)
    expected = numbers((ANSWERS / SOLUTION_FILES[name]).read_text(encoding="utf-8"))
    assert np.array_equal(loop.first(puzzle).grid, expected)


@pytest.mark.parametrize(
    "name",
    [
        "infinity_loop_test10x10.txt",
        "infinity_loop_bearific2.txt",
        pytest.param("infinity_loop_test20x20.txt", marks=pytest.mark.slow),
    ],
)
def test_whole_grid_model_agrees(name):
    """One search of the whole grid (no reduction, no parts) gives the same solutions."""
    puzzle = load(name)
    whole = loop.plan(puzzle, reduce_first=False)
    assert len(whole.parts) == 1
    problem = whole.problem(0)
    found = set()
    for solution in dlx.solutions(problem):
        dlx.check(problem, solution.options)
        grid = loop.decode(puzzle, solution)
        assert_solution(puzzle, grid)
        found.add(grid.grid.tobytes())
    assert found == {g.grid.tobytes() for g in loop.solutions(puzzle)}
    assert len(found) == KNOWN[name]


@pytest.mark.parametrize(
    "name",
    [
        "infinity_loop_bearific5.txt",
        pytest.param("infinity_loop_test40x40.txt", marks=pytest.mark.slow),
    ],
)
def test_whole_grid_count_agrees(name):
    """Counting over the whole grid (no reduction, no parts) gives the known count too."""
    assert loop.count(loop.plan(load(name), reduce_first=False)).solutions == KNOWN[name]


@pytest.mark.parametrize(
    "name",
    [
        "infinity_loop_test50x50_1.txt",
        "infinity_loop_test100x100_1.txt",
        "infinity_loop_test100x100_2.txt",
    ],
)
def test_big_puzzles_solved(name):
    puzzle = load(name)
    assert_solution(puzzle, loop.first(puzzle))


@pytest.mark.slow
def test_500x500_solved():
    puzzle = load("infinity_loop_test500x500.txt")
    assert puzzle.shape == (500, 500)
    assert_solution(puzzle, loop.first(puzzle))


# -- random puzzles against brute force ----------------------------------------------


def brute_force(puzzle: loop.Puzzle) -> set[bytes]:
    """Every solution, by trying every rotation of every tile."""
    choices = [tiles.rotations(int(m)) for m in puzzle.tiles.ravel()]
    found = set()
    for pick in itertools.product(*choices):
        grid = np.array(pick, dtype=np.int64).reshape(puzzle.shape)
        if not tiles.open_ends(grid):
            found.add(grid.tobytes())
    return found


@settings(max_examples=60, deadline=None)
@given(solved_grids(max_rows=3, max_columns=3, max_cells=6), st.randoms(use_true_random=False))
def test_random_puzzles_against_brute_force(grid, rng):
    turned = [[tiles.rotate(m, rng.randrange(4)) for m in row] for row in grid]
    puzzle = loop.parse("\n".join(" ".join(map(str, row)) for row in turned))
    expected = brute_force(puzzle)
    assert np.asarray(grid, dtype=np.int64).tobytes() in expected  # drawn solved
    for reduce_first in (True, False):
        plan = loop.plan(puzzle, reduce_first=reduce_first)
        found = set()
        for g in loop.solutions(plan):
            assert_solution(puzzle, g)
            found.add(g.grid.tobytes())
        assert found == expected
        assert loop.count(plan).solutions == len(expected)


def test_no_solution():
    puzzle = loop.parse("╺")
    assert loop.count(puzzle).solutions == 0 and loop.first(puzzle) is None
    assert loop.count(loop.plan(puzzle, reduce_first=False)).solutions == 0
    assert not loop.is_unique(puzzle)


# -- formats -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "2\n3\n0\n6 10 12\n3 10 9\n",
        "6 10 12\n3 10 9\n",
        "┏━┓\n┗━┛\n",
        "┌─┐\n└─┘\n",
        "2\n3\n0\n┏━┓\n┗━┛\n",
        "╻ ╻\n┃ ┃\n╹ ╹\n",
    ],
)
def test_round_trip(text):
    puzzle = loop.parse(text)
    assert loop.render(loop.Answer(puzzle, puzzle.tiles)) == text


def test_formats_agree():
    grids = [
        loop.parse(t).tiles
        for t in (
            "6 10 12\n3 10 9",
            "┏━┓\n┗━┛",
            "┌─┐\n└─┘",
            "# a comment\n2\n3\n0\n6 10 12\n3 10 9\n",
        )
    ]
    assert all(np.array_equal(g, grids[0]) for g in grids)


def test_header_with_short_glyph_rows():
    puzzle = loop.parse("3\n3\n0\n╻\n┃\n")
    assert puzzle.tiles.tolist() == [[4, 0, 0], [5, 0, 0], [0, 0, 0]]


def test_solution_written_in_input_format():
    puzzle = load("infinity_loop_sample1.txt")
    text = loop.render(loop.first(puzzle))
    assert text.splitlines()[:3] == ["3", "4", "0"]
    assert_solution(puzzle, loop.parse(text).tiles)
    light = loop.parse("┐┌\n┘└")
    assert str(loop.first(light)) == "┌┐\n└┘\n"


@pytest.mark.parametrize(
    "text, where",
    [
        ("┏━x\n┗━┛", "line 1, column 3"),
        ("6 10 12\n3 10 9 1", "line 2"),
        ("6 10 12\n3 16 9", "line 2, column 2"),
        ("┏━┓\n┗━", "line 2"),
        ("2\n3\n1\n6 10 12\n3 10 9", "line 3"),
        ("3\n3\n0\n┏━┓\n┗━┛\n┃┃┃\n┃┃┃", "line 7"),
        ("", "empty"),
    ],
)
def test_bad_input(text, where):
    with pytest.raises(PuzzleError, match=where):
        loop.parse(text)


# -- command line and pictures -------------------------------------------------------


def test_cli_solve_count_unique(capsys, tmp_path):
    path = str(DATA / "infinity_loop_test10x10.txt")
    assert main(["loop", path]) == 0
    out = capsys.readouterr().out
    assert_solution(load("infinity_loop_test10x10.txt"), loop.parse(out).tiles)
    assert out.startswith("10\n10\n0\n")
    assert main(["loop", path, "--count"]) == 0
    assert capsys.readouterr().out == "6\n"
    assert main(["loop", path, "--unique"]) == 1
    assert capsys.readouterr().out == "not unique\n"
    assert main(["loop", str(DATA / "infinity_loop_bearific1.txt"), "--unique"]) == 0
    assert capsys.readouterr().out == "unique\n"
    assert main(["loop", path, "--all", "--no-reduce"]) == 0
    grids = capsys.readouterr().out.strip().split("\n\n")
    assert len(grids) == 6
    svg = tmp_path / "a.svg"
    assert main(["loop", path, "--svg", str(svg)]) == 0
    assert svg.read_text().startswith("<svg")


def test_cli_errors(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("┏━┓\n┗━?\n", encoding="utf-8")
    assert main(["loop", str(bad)]) == 2
    assert "line 2, column 3" in capsys.readouterr().err
    none = tmp_path / "none.txt"
    none.write_text("╺\n", encoding="utf-8")
    assert main(["loop", str(none)]) == 1
    assert main(["loop", str(tmp_path / "missing.txt")]) == 2


def test_svg_draws_every_pipe_end():
    answer = loop.first(load("infinity_loop_bearific1.txt"))
    picture, grid = loop.svg(answer), answer.grid
    assert answer._repr_svg_() == picture
    ends = sum(bin(int(m)).count("1") for m in grid.ravel())
    assert picture.count("<line") == ends
    assert picture.count("<circle") == sum(int(m) in (1, 2, 4, 8) for m in grid.ravel())
