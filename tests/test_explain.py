"""Sudoku that explains itself (issue 16): ``--explain``, ``--hint`` and the grades of
``--difficulty``, checked against the engine's solution (itself checked by the sudoku
checker) and against candidates computed here by brute force, from the rules alone.
"""

from __future__ import annotations

import re

import pytest
from sudoku_checks import (
    DATA,
    DIAGONAL_JIGSAWS,
    candidates,
    check_solution,
    load_lines,
    puzzlekit_pairs,
    singles_fill,
    units,
)

import dlx
from dlx.logic import Logic
from puzzles import sudoku
from puzzles.cli import main

PLACED = re.compile(r"^\d+\. r(\d+)c(\d+) = (\d+) \((.*)\)$")
REMOVED = re.compile(r"^\d+\. (\w+): (\d+) in (.+) lies in (.+) -> removed \d+ from (.+)$")
CELL = re.compile(r"r(\d+)c(\d+)")


def the_solution(puzzle: sudoku.Sudoku):
    """The engine's one solution, checked."""
    found = list(sudoku.solutions(puzzle, 2))
    assert len(found) == 1
    check_solution(puzzle, found[0].values)
    return found[0].values


# -- explanations against the solution -------------------------------------------------


def check_explanation(puzzle: sudoku.Sudoku) -> list[str]:
    """Every placement of the explanation is the solution's, every removed candidate is
    not, every empty cell is placed once, and the grid shown at the end is the solution.
    Return the step lines."""
    solution = the_solution(puzzle)
    lines = sudoku.explanation(puzzle).splitlines()
    steps = [line for line in lines if re.match(r"^\d+\. ", line)]
    placed = set()
    unit_names = units(puzzle)
    for line in steps:
        if m := PLACED.match(line):
            r, c, v = (int(x) for x in m.groups()[:3])
            assert solution[r - 1][c - 1] == v, line
            assert puzzle.grid.values[r - 1][c - 1] == 0 and (r, c) not in placed, line
            placed.add((r, c))
            why = m.group(4)
            if why.startswith("hidden single in "):
                assert (r - 1, c - 1) in unit_names[why.removeprefix("hidden single in ")]
        else:
            m = REMOVED.match(line)
            assert m is not None, line
            rule, v, where, line_unit, cells = m.groups()
            assert rule in ("pointing", "claiming"), line
            for r, c in CELL.findall(cells):
                cell = (int(r) - 1, int(c) - 1)
                assert solution[cell[0]][cell[1]] != int(v), line
                assert cell in unit_names[line_unit] and cell not in unit_names[where], line
    empty = sum(v == 0 for row in puzzle.grid.values for v in row)
    assert len(placed) == empty
    assert lines[: len(steps)] == steps and lines[len(steps)].startswith("solved: ")
    grid = "\n".join(lines[len(steps) + 1 :]) + "\n"
    assert grid == sudoku.render(sudoku.Answer(puzzle, solution))
    n = puzzle.side
    options = {sudoku.option_of(n, r, c, solution[r][c]) for r in range(n) for c in range(n)}
    for step in sudoku.reasoning(puzzle)[0]:  # the engine's records, to the same solution
        if step.option is not None:
            assert step.option in options
        assert not set(step.removed) & options
    return steps


SHIPPED = [
    *load_lines("top95.txt", 12),
    *load_lines("forum_hardest_1106.txt", 4),
    *load_lines("17_clue_first1000.txt", 12),
    *(p for p, _ in puzzlekit_pairs("Sudoku")[:4]),
    *[p for p, _ in puzzlekit_pairs("JigsawSudoku") if p.label[7:] not in DIAGONAL_JIGSAWS][::60],
    *(p for p, _ in puzzlekit_pairs("JigsawSudoku", sorted(DIAGONAL_JIGSAWS)[::3], diagonals=True)),
]


@pytest.mark.parametrize("puzzle", SHIPPED, ids=lambda p: f"{p.side}-{p.label}")
def test_explained_steps_agree_with_the_solution(puzzle):
    steps = check_explanation(puzzle)
    words = " ".join(steps)
    if puzzle.jigsaw:
        assert " box " not in words
    guesses = sum("(a guess" in line for line in steps)
    assert guesses == sudoku.grade(puzzle).guesses


def test_every_rule_and_a_guess_come_up_in_the_shipped_puzzles():
    words = " ".join(" ".join(sudoku.explanation(p).splitlines()) for p in SHIPPED[:16])
    for phrase in ("naked single", "hidden single in row", "hidden single in column"):
        assert phrase in words
    for phrase in ("hidden single in box", "pointing:", "claiming:", "(a guess"):
        assert phrase in words


def test_a_singles_puzzle_is_solved_with_no_guess(capsys, tmp_path):
    puzzle = next(
        p
        for p in load_lines("17_clue_first1000.txt", 50)
        if all(all(row) for row in singles_fill(p))
    )
    assert singles_fill(puzzle) == the_solution(puzzle)
    assert sudoku.grade(puzzle) == sudoku.Grade("single", 0)
    path = tmp_path / "one.txt"
    path.write_text(sudoku.render(sudoku.Answer(puzzle, puzzle.grid.values)))
    assert main(["sudoku", str(path), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "guess" not in out.replace("0 guesses", "") and "pointing:" not in out
    assert "claiming:" not in out
    check_explanation(puzzle)


# A hand-made grid: box 1's rows 2 and 3 are full, so box 1's 1 lies in row 1. No single
# applies (the test checks it), so the first step is a pointing one.
POINTING = """\
.........
234......
567......
.........
.........
.........
.........
.........
.........
"""


def test_the_hint_of_a_hand_made_grid_is_a_pointing_step_checked_by_brute_force(capsys, tmp_path):
    puzzle = sudoku.parse(POINTING)
    assert singles_fill(puzzle) == puzzle.grid.values  # no single at all
    path = tmp_path / "pointing.txt"
    path.write_text(POINTING)
    assert main(["sudoku", str(path), "--hint"]) == 0
    line = capsys.readouterr().out
    m = REMOVED.match("1. " + line.strip())
    assert m is not None and m.group(1) == "pointing", line
    _, v, box, row, cells = m.groups()
    left = candidates(puzzle, puzzle.grid.values)
    where = units(puzzle)
    places = [cell for cell in where[box] if int(v) in left.get(cell, ())]
    assert places and set(places) <= set(where[row])
    lost = [cell for cell in where[row] if int(v) in left.get(cell, ()) and cell not in places]
    assert [(int(r) - 1, int(c) - 1) for r, c in CELL.findall(cells)] == lost
    assert lost
    assert line.strip() == "pointing: 1 in box 1 lies in row 1 -> removed 1 from " + ", ".join(
        f"r1c{c}" for c in range(4, 10)
    )


def test_hint_prints_exactly_the_first_step(capsys, tmp_path):
    puzzles = load_lines("forum_hardest_1106.txt", 3)
    one = tmp_path / "one.txt"
    one.write_text(sudoku.render(sudoku.Answer(puzzles[0], puzzles[0].grid.values)))
    assert main(["sudoku", str(one), "--hint"]) == 0
    hint = capsys.readouterr().out
    assert hint.count("\n") == 1
    first = sudoku.explanation(puzzles[0]).splitlines()[0]
    assert hint.strip() == first.split(". ", 1)[1]
    many = tmp_path / "many.txt"
    many.write_text("".join(sudoku.render(sudoku.Answer(p, p.grid.values)) for p in puzzles))
    assert main(["sudoku", str(many), "--hint"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == ["line 1", "line 2", "line 3"]
    full = sudoku.Answer(puzzles[0], the_solution(puzzles[0]))
    assert sudoku.hint(sudoku.parse(sudoku.render(full))) == "solved"


def test_a_puzzle_without_solution_ends_in_a_contradiction(capsys, tmp_path):
    puzzle = sudoku.parse("31.....2..1..3..\n")
    assert dlx.count(sudoku.build(puzzle), forced=sudoku.forced(puzzle)).solutions == 0
    text = sudoku.explanation(puzzle)
    assert text.endswith("no solution (the engine's search found none)\n")
    assert "contradiction: 2 has no place left in row 1" in text
    with pytest.raises(sudoku.PuzzleError, match="no solution to grade"):
        sudoku.grade(puzzle)
    path = tmp_path / "none.txt"
    path.write_text("31.....2..1..3..\n")
    for flag in ("--explain", "--hint"):  # exit status 1, as solving it gives
        assert main(["sudoku", str(path), flag]) == 1
        assert "contradiction" in capsys.readouterr().out
    assert main(["sudoku", str(path)]) == 1


def test_a_stuck_hint_says_where_to_guess():
    puzzle = load_lines("forum_hardest_1106.txt", 1)[0]
    logic = Logic(sudoku.build(puzzle), sudoku.forced(puzzle))
    while (step := logic.step()).kind != "stuck":
        pass
    words = sudoku.describe(puzzle, step)
    assert words.startswith("no rule applies; guess where candidates are fewest: ")
    (r, c), values = CELL.search(words).groups(), re.findall(r"is (.*)$", words)[0].split(" or ")
    cell = (int(r) - 1, int(c) - 1)
    assert cell == sudoku._place(9, step.options[0])[:2]
    assert len(values) == len(step.options) >= 2


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--explain", "--count"], "--explain prints steps; it does not go with --count"),
        (["--hint", "--json"], "--hint prints steps; it does not go with --json"),
        (["--explain", "--hint"], "give --explain or --hint, not both"),
    ],
)
def test_explain_refuses_flags_it_cannot_honour(capsys, flags, message):
    assert main(["sudoku", str(DATA / "top95.txt"), *flags]) == 2
    assert message in capsys.readouterr().err


def test_explain_needs_a_file(capsys):
    assert main(["sudoku", "--explain"]) == 2
    assert "--explain needs a puzzle FILE" in capsys.readouterr().err


def test_help_states_the_difficulty_levels(capsys):
    with pytest.raises(SystemExit):
        main(["sudoku", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for words in ("easy: singles only", "medium: pointing or claiming", "hard: one guess"):
        assert words in out


def test_explain_names_the_file_and_cell_of_a_bad_puzzle(capsys, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("11" + "." * 14 + "\n")
    assert main(["sudoku", str(path), "--explain"]) == 2
    err = capsys.readouterr().err
    assert f"{path}: line 1, row 1, column 2: value 1 is already given" in err
