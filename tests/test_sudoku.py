"""Sudoku: real puzzles against their known answers, counts, generation, errors, CLI.

Every solution goes through ``check_solution``: the exact-cover checker of the engine
and ``sudoku.faults``; the latter is checked here against ``rules_hold``, written
from the rules alone.
"""

import json
import random

import numpy as np
import pytest
from sudoku_checks import (
    DATA,
    DIAGONAL_JIGSAWS,
    check_solution,
    load_lines,
    one_line,
    puzzlekit_pairs,
    rules_hold,
    singles_fill,
)

import dlx
from puzzles import sudoku
from puzzles.cli import main
from puzzles.common import PuzzleError
from puzzles.numbergrid import parse_solution_text

# -- the independent checker -------------------------------------------------------


def test_checker_rejects_broken_grids():
    puzzle = load_lines("top95.txt", 1)[0]
    answer = (DATA / "top95_solns.txt").read_text().split()[0]
    values = [[int(answer[9 * r + c]) for c in range(9)] for r in range(9)]
    check_solution(puzzle, values)
    swapped = [row[:] for row in values]
    swapped[0][0], swapped[0][1] = swapped[0][1], swapped[0][0]
    assert sudoku.faults(puzzle, swapped)
    assert not rules_hold(swapped, 9, (3, 3))
    with pytest.raises(dlx.InvalidSolution):
        check_solution(puzzle, swapped)
    relabelled = [[v % 9 + 1 for v in row] for row in values]  # valid grid, givens lost
    assert rules_hold(relabelled, 9, (3, 3))
    assert sudoku.faults(puzzle, relabelled)


# -- known answers and counts ------------------------------------------------------


def test_empty_4x4_has_288_solutions():
    puzzle = sudoku.parse_all("....\n....\n....\n....\n")[0]
    problem = sudoku.build(puzzle)
    assert dlx.count(problem).solutions == 288
    seen = set()
    for s in dlx.solutions(problem):
        values = sudoku.decode(puzzle, s).values
        check_solution(puzzle, values)
        seen.add(one_line(values))
    assert len(seen) == 288


def test_top95_matches_known_solutions():
    puzzles = load_lines("top95.txt")
    answers = (DATA / "top95_solns.txt").read_text().split()
    results = sudoku.solve_all(puzzles)
    assert len(results) == len(answers) == 95
    for puzzle, res, answer in zip(puzzles, results, answers, strict=True):
        assert res.count == 1
        check_solution(puzzle, res.values)
        assert one_line(res.values) == answer


def check_unique_sample(puzzles):
    results = sudoku.solve_all(puzzles)
    for puzzle, res in zip(puzzles, results, strict=True):
        assert res.count == 1, res.label
        check_solution(puzzle, res.values)
    return results


def test_forum_hardest_sample_unique():
    results = check_unique_sample(load_lines("forum_hardest_1106.txt")[::5])
    # hard: much search (the sudoku kernel, the default, proving uniqueness: 247 nodes
    # a puzzle on all 375)
    assert sum(r.nodes for r in results) / len(results) > 150


@pytest.mark.parametrize("limit", [1, 2])
def test_tally_answers_keep_the_batch_array_and_render_as_lists_do(limit):
    """The command's batch (``tally``): its answers keep the kernel's array until read;
    rendered from it, each is the text of its values as lists, and a solution."""
    puzzles = load_lines("forum_hardest_1106.txt")[::25]
    for puzzle, (count, answer, nodes) in zip(puzzles, sudoku.tally(puzzles, limit), strict=True):
        assert count == 1 and nodes > 0
        assert isinstance(sudoku.Answer.values.raw(answer), np.ndarray)
        text = sudoku.render(answer)  # from the array
        assert isinstance(answer.values, list) and isinstance(answer.values[0], list)
        assert text == one_line(answer.values) + "\n"
        check_solution(puzzle, answer.values)


@pytest.mark.slow
def test_forum_hardest_all_unique():
    puzzles = load_lines("forum_hardest_1106.txt")
    assert len(puzzles) == 375
    check_unique_sample(puzzles)


def test_17_clue_sample_unique():
    puzzles = load_lines("17_clue_first1000.txt")[::4]
    assert all(len(p.grid.givens()) == 17 for p in puzzles)
    check_unique_sample(puzzles)


@pytest.mark.slow
def test_17_clue_sample_all_unique():
    puzzles = load_lines("17_clue_first1000.txt")
    assert len(puzzles) == 1000
    check_unique_sample(puzzles)


def test_serg_benchmark_has_two_or_more_solutions():
    puzzles = load_lines("serg_benchmark_first200.txt")
    assert len(puzzles) == 200
    results = sudoku.solve_all(puzzles, limit=2)
    for puzzle, res in zip(puzzles, results, strict=True):
        assert res.count == 2, res.label
        check_solution(puzzle, res.values)
    # two distinct, valid solutions of the first one, through the streaming API
    first = puzzles[0]
    found = list(dlx.solutions(sudoku.build(first), limit=2, forced=sudoku.forced(first)))
    grids = [sudoku.decode(first, s).values for s in found]
    for values in grids:
        check_solution(first, values)
    assert len(grids) == 2 and grids[0] != grids[1]


def test_puzzlekit_16x16_and_9x9_match_answers():
    pairs = puzzlekit_pairs("Sudoku")
    assert sorted({p.side for p, _ in pairs}) == [9, 16]
    results = sudoku.solve_all([p for p, _ in pairs])
    for k, ((puzzle, answer), res) in enumerate(zip(pairs, results, strict=True)):
        assert res.count == 1, res.label
        check_solution(puzzle, res.values, exact_cover=k % 10 == 0)
        assert res.values == answer, res.label


def check_jigsaws(step: int):
    pairs = puzzlekit_pairs("JigsawSudoku")
    assert len(pairs) == 680
    plain = [(p, a) for p, a in pairs if p.grid.style.id not in DIAGONAL_JIGSAWS][::step]
    results = sudoku.solve_all([p for p, _ in plain])
    for (puzzle, answer), res in zip(plain, results, strict=True):
        assert res.count == 1, res.label
        check_solution(puzzle, res.values)
        assert res.values == answer, res.label


def test_puzzlekit_jigsaw_sample_match_answers():
    check_jigsaws(step=8)


@pytest.mark.slow
def test_puzzlekit_jigsaw_all_match_answers():
    check_jigsaws(step=1)


def test_diagonal_jigsaws_need_the_diagonal_rule():
    pairs = puzzlekit_pairs("JigsawSudoku", sorted(DIAGONAL_JIGSAWS), diagonals=True)
    assert len(pairs) == 15
    results = sudoku.solve_all([p for p, _ in pairs])
    for (puzzle, answer), res in zip(pairs, results, strict=True):
        assert res.count == 1, res.label
        check_solution(puzzle, res.values)
        assert res.values == answer
    # without diagonals: several solutions, each valid, the answer among them
    plain = {p.grid.style.id: (p, a) for p, a in puzzlekit_pairs("JigsawSudoku")}
    puzzle, answer = plain["671_6x6"]
    found = [sudoku.decode(puzzle, s).values for s in dlx.solutions(
        sudoku.build(puzzle), forced=sudoku.forced(puzzle))]  # fmt: skip
    for values in found:
        check_solution(puzzle, values)
    assert len(found) == 3 and answer in found
    assert sudoku.count(plain["661_6x6"][0]).solutions == 4


def full_grid(side: int) -> list[list[int]]:
    """A valid sudoku grid of any box shape (the classic shifted-rows pattern)."""
    a, b = sudoku.box_shape(side)
    return [[(b * (r % a) + r // a + c) % side + 1 for c in range(side)] for r in range(side)]


@pytest.mark.parametrize("side", [4, 6, 16, 25])
def test_other_sizes_in_one_line_format(side):
    values = full_grid(side)
    assert rules_hold(values, side, sudoku.box_shape(side))
    rng = random.Random(side)
    blanked = [[v if rng.random() < 0.6 else 0 for v in row] for row in values]
    line = one_line(blanked)
    puzzle = sudoku.parse_all(line + "\n")[0]
    assert puzzle.side == side and puzzle.grid.values == blanked
    res = sudoku.solve_all([puzzle], limit=1)[0]
    check_solution(puzzle, res.values)
    assert len(sudoku.render(sudoku.Answer(puzzle, res.values))) == side * side + 1


@pytest.mark.parametrize("side", [4, 6, 9, 12, 16])
def test_cell_order_runs_are_transversals(side):
    """Every cell once; each run of ``side`` cells holds one of each row, column and box
    (for other regions: of each row and column)."""
    a, b = sudoku.box_shape(side)
    rows_as_regions = tuple(tuple([r] * side) for r in range(side))
    units = [lambda r, c: r, lambda r, c: c]
    for region, kinds in ((sudoku.box_regions(side), 3), (rows_as_regions, 2)):
        order = sudoku.cell_order(side, region)
        assert sorted(order) == [(r, c) for r in range(side) for c in range(side)]
        for k in range(0, side * side, side):
            run = order[k : k + side]
            for unit in [*units, lambda r, c: (r // a, c // b)][:kinds]:
                assert len({unit(r, c) for r, c in run}) == side


def test_grid_formats_round_trip():
    text = (DATA / "top95.txt").read_text().split()[0]
    rows = [text[9 * r : 9 * r + 9] for r in range(9)]
    spaced = "\n".join(" ".join("-" if ch == "." else ch for ch in row) for row in rows)
    for grid_text in ("\n".join(rows), spaced):
        puzzle = sudoku.parse_all(grid_text + "\n")[0]
        res = sudoku.solve_all([puzzle])[0]
        check_solution(puzzle, res.values)
        rendered = sudoku.render(sudoku.Answer(puzzle, res.values))
        assert len(rendered.splitlines()) == 9
        assert sudoku.parse_all(rendered)[0].grid.values == res.values


# -- generation --------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_generated_puzzles_unique_reproducible_and_of_their_level(level):

    made = sudoku.generate(1, seed=11, level=level)  # (a second one can take 50 tries)
    again = sudoku.generate(1, seed=11, level=level)
    assert [p.grid.values for p in made] == [p.grid.values for p in again]
    for puzzle in made:
        assert sudoku.count(puzzle).solutions == 1
        res = sudoku.solve_all([puzzle])[0]
        check_solution(puzzle, res.values)
        grade = sudoku.grade(puzzle)
        assert grade.level == level
        assert (singles_fill(puzzle) == res.values) == (level == "easy")
        assert grade.guesses == (level == "hard")
        # minimal: removing any given makes it ambiguous
        givens = sudoku.forced(puzzle)
        for k in range(len(givens)):
            rest = givens[:k] + givens[k + 1 :]
            assert dlx.count(sudoku.build(puzzle), limit=2, forced=rest).solutions == 2


def test_generate_jigsaw_from_template():
    template = puzzlekit_pairs("JigsawSudoku")[0][0]
    made = sudoku.generate(1, seed=3, template=template)[0]
    assert made.jigsaw and made.region == template.region
    assert sudoku.count(made).solutions == 1


# -- bad input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("1" * 80 + "\n", "line 1: 80 characters is not a square number"),
        ("12345\n" * 5, "a 5x5 sudoku has no box shape"),
        ("#c\n" + "." * 40 + "x" + "." * 40 + "\n", "line 2, row 5, column 5: 'x' is not a value"),
        ("5...\n....\n....\n....\n", "line 1, row 1, column 1: '5' is not a value (1..4 here)"),
        ("1 - - -\n- - - -\n- - - -\n- - - 7\n", "row 4, column 4: value 7 is out of range 1..4"),
        ("1..1\n....\n....\n....\n", "column 4: value 1 is already given in the same row"),
        (".2..\n....\n....\n.2..\n", "line 4, row 4, column 2: value 2 is already given"),
        ("3...\n.3..\n....\n....\n", "column 2: value 3 is already given in the same box at row 1"),
        ("12\n3\n", "line 2: 1 cells, but the first row has 2"),
        ("1 2 3\n- - -\n", "a sudoku is square, not 2 rows of 3"),
        ("...\n...\n...\n112\n112\n333\n", "line 4, row 1, column 1: its region has 4 cells"),
        ("...\n...\n...\n121\n122\n333\n", "row 1, column 3: its region is not connected"),
        ("1..\n...\n..1\n112\n122\n..\n", "line 6: 2 cells, but the first row has 3"),
        (".1.\n...\n.1.\n111\n222\n333\n", "column 2: value 1 is already given in the same column"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_with_its_place(text, message):
    with pytest.raises(PuzzleError) as info:
        sudoku.parse_all(text)
    assert message in str(info.value)


def test_bad_puzzlekit_names_the_puzzle():
    text = json.dumps({"puzzles": {"p7": {"problem": "4 4\n1 - - 1\n- - - -\n- - - -\n- - - -"}}})
    with pytest.raises(PuzzleError, match=r"puzzle p7: line 2, row 1, column 4: value 1"):
        sudoku.parse_all(text)


def test_jigsaw_region_duplicate():
    text = "1..\n...\n.1.\n112\n122\n333\n"  # cells (1,1) and (3,2): rows 1/3, regions 1/3
    assert sudoku.parse_all(text)[0].jigsaw
    with pytest.raises(
        PuzzleError, match="row 2, column 2: value 1 is already given in the same region"
    ):
        sudoku.parse_all("..1\n.1.\n...\n112\n122\n333\n")


# -- command line ------------------------------------------------------------------


def test_cli_solves_one_line_file(capsys):
    assert main(["sudoku", str(DATA / "top95.txt")]) == 0
    out = capsys.readouterr().out
    assert out.split() == (DATA / "top95_solns.txt").read_text().split()


def test_cli_sets_up_while_reading_and_says_so(monkeypatch, capsys):
    """The empty grid's problem and the sudoku kernel's check of it are done while the
    puzzles are read (``sudoku.prepare``), once: the search uses them; the summary line
    gives the reading and set-up seconds apart from the search's."""
    import dlx.kernels.sudoku.layout

    built = []
    kit = dlx.kernels.sudoku.layout._why_not
    monkeypatch.setattr(
        dlx.kernels.sudoku.layout, "_why_not", lambda p: built.append(p.primary[0]) or kit(p)
    )  # (the adapter's problem: its first item a cell's, ``p0,0``; the kernel's warm-up, ``0``)
    sudoku.empty_problem.cache_clear()  # (no layout kept from other tests)
    cell = sudoku.empty_problem(9, sudoku.box_regions(9)).primary[0]
    sudoku.empty_problem.cache_clear()
    puzzles = sudoku.parse_all((DATA / "top95.txt").read_text())
    sudoku.prepare(puzzles)
    assert built.count(cell) == 1
    for puzzle, result in zip(puzzles, sudoku.solve_all(puzzles, 1), strict=True):
        check_solution(puzzle, result.values)
    assert built.count(cell) == 1  # solving built nothing more
    sudoku.empty_problem.cache_clear()
    assert main(["sudoku", str(DATA / "top95.txt")]) == 0
    summary = capsys.readouterr().err.splitlines()[-1]
    assert built.count(cell) == 2
    assert summary.startswith("95 puzzles, 95 solutions, ")
    assert " puzzles/s; reading and set-up " in summary


def test_cli_count_unique_and_stats(tmp_path, capsys):
    f = tmp_path / "two.txt"
    f.write_text("....\n....\n....\n....\n")
    assert main(["sudoku", str(f), "--count"]) == 0
    assert capsys.readouterr().out == "288\n"
    assert main(["sudoku", str(f), "--count", "--limit", "100"]) == 0
    assert capsys.readouterr().out == "at least 100\n"
    assert main(["sudoku", str(f)]) == 0
    captured = capsys.readouterr()
    assert sudoku.faults(sudoku.parse(f.read_text()), sudoku.parse(captured.out).grid.values) == []
    assert main(["sudoku", str(f), "--unique", "--stats"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "not unique\n"
    assert "nodes" in captured.err
    serg = tmp_path / "serg.txt"
    serg.write_text("\n".join((DATA / "serg_benchmark_first200.txt").read_text().splitlines()[:5]))
    assert main(["sudoku", str(serg), "--unique"]) == 1
    assert capsys.readouterr().out.count("not unique") == 3


def test_cli_json_gives_grids_as_numbers(tmp_path, capsys):
    table = json.loads((DATA / "JigsawSudoku_puzzles.json").read_text())["puzzles"]
    keys = ["1_4x4", "5_5x5"]
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"puzzles": {k: table[k] for k in keys}}))
    assert main(["sudoku", str(f), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["puzzles"]
    answers = json.loads((DATA / "JigsawSudoku_solutions.json").read_text())["solutions"]
    assert [entry["label"] for entry in got] == [f"puzzle {k}" for k in keys]
    for k, entry in zip(keys, got, strict=True):
        assert entry["solutions"] == [parse_solution_text(answers[k]["solution"])]
        assert entry["complete"] is False and entry["stopped_by"] == "solution limit 1"
    assert main(["sudoku", str(f), "--count", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["puzzles"]
    assert [(e["count"], e["complete"]) for e in got] == [(1, True), (1, True)]


def test_cli_unsolvable_and_bad_input(tmp_path, capsys):
    f = tmp_path / "bad.txt"
    f.write_text("12..\n..3.\n....\n....\n")  # cell 1,3 must be 3 or 4; 4 -> 1,4 = 3 clashes
    assert sudoku.count(sudoku.parse_all(f.read_text())[0]).solutions == 0
    assert main(["sudoku", str(f)]) == 1
    assert "no solution" in capsys.readouterr().err
    f.write_text("12.1\n....\n....\n....\n")
    assert main(["sudoku", str(f)]) == 2
    assert "line 1, row 1, column 4" in capsys.readouterr().err


def test_cli_generate(capsys):
    assert main(["sudoku", "--generate", "2", "--seed", "5", "--size", "4"]) == 0
    out = capsys.readouterr().out
    again = main(["sudoku", "--generate", "2", "--seed", "5", "--size", "4"])
    assert again == 0 and capsys.readouterr().out == out
    puzzles = sudoku.parse_all(out)
    assert len(puzzles) == 2
    assert all(sudoku.count(p).solutions == 1 for p in puzzles)


def test_many_lines_clash_is_found_and_named():
    good = (DATA / "top95.txt").read_text().split()[:3]
    bad = "11" + good[0][2:]  # two 1s in row 1
    with pytest.raises(PuzzleError, match="line 3, row 1, column 2: value 1 is already given"):
        sudoku.parse_all("\n".join([good[1], good[2], bad, good[0]]) + "\n")
    diagonal = "1" + "." * 9 + "1" + "." * 70  # cells 1,1 and 2,2: box clash
    with pytest.raises(PuzzleError, match="line 2, row 2, column 2: value 1 is already given"):
        sudoku.parse_all(good[0] + "\n" + diagonal + "\n")
    x = "1" + "." * 29 + "1" + "." * 50  # cells 1,1 and 4,4: only the diagonal
    assert len(sudoku.parse_all(good[0] + "\n" + x + "\n")) == 2
    with pytest.raises(PuzzleError, match="row 4, column 4: value 1 .* same diagonal"):
        sudoku.parse_all(good[0] + "\n" + x + "\n", diagonals=True)


def test_cli_many_lines_in_one_step_as_one_by_one(tmp_path, capsys):
    """A plain solve (and ``--unique``) of a file of one-line puzzles writes all answers
    in one step (``sudoku.lines``): the same bytes, stderr lines and exit status as one
    puzzle at a time (``--time-limit`` takes that path), every answer checked."""
    good = (DATA / "top95.txt").read_text().split()[:3]
    none = "12345678." + "........9" + "." * 63  # r1c9 must be 9: column 9 has it
    f = tmp_path / "many.txt"
    f.write_text("\n".join([good[0], good[1], none, "# a comment", good[2]]) + "\n")
    puzzles = sudoku.parse_all(f.read_text())
    assert isinstance(puzzles, sudoku.LinePuzzles) and len(puzzles) == 4
    assert main(["sudoku", str(f)]) == 1
    fast = capsys.readouterr()
    assert main(["sudoku", str(f), "--time-limit", "600"]) == 1
    slow = capsys.readouterr()
    assert fast.out == slow.out and fast.out.count("\n") == 3
    assert "line 3: no solution" in fast.err and "line 3: no solution" in slow.err
    for puzzle, line in zip([puzzles[k] for k in (0, 1, 3)], fast.out.split(), strict=True):
        values = [[int(ch) for ch in line[r * 9 : r * 9 + 9]] for r in range(9)]
        check_solution(puzzle, values)
    several = sudoku.parse_all((DATA / "serg_benchmark_first200.txt").read_text())[0]
    several = one_line(several.grid.values)  # 2 solutions or more
    f.write_text("\n".join([good[0], none, several]) + "\n")
    assert main(["sudoku", str(f), "--unique"]) == 1
    fast = capsys.readouterr()
    assert main(["sudoku", str(f), "--unique", "--time-limit", "600"]) == 1
    slow = capsys.readouterr()
    assert fast.out == slow.out == "line 1: unique\nline 2: no solution\nline 3: not unique\n"


def test_line_puzzles_read_lazily_and_slice():
    """``LinePuzzles``: a puzzle is made when read (the same object when read again),
    a slice is a ``LinePuzzles`` of the same rows, and the batch solves them all."""
    text = (DATA / "top95.txt").read_text()
    puzzles = sudoku.parse_all(text)
    assert puzzles[5] is puzzles[5] and puzzles[-1].label == f"line {len(puzzles)}"
    part = puzzles[10:20]
    assert isinstance(part, sudoku.LinePuzzles) and len(part) == 10
    assert part[0].grid.values == puzzles[10].grid.values and part[0].label == "line 11"
    for puzzle, result in zip(part, sudoku.solve_all(part, 1), strict=True):
        check_solution(puzzle, result.values)
