"""The sudoku kernel's batch call (``dlx.batch(..., engine="sudoku")``): every first
solution through the checker, counts against the tight kernel's batch and the
one-puzzle path, clashes and other problems refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sudoku_checks import check_solution, load_lines

import dlx
from dlx.errors import ProblemError
from dlx.kernels.sudoku.layout import why_not
from dlx.kernels.sudoku.search import sudoku_problem
from dlx.verify import check
from puzzles import sudoku

SOLVED = (  # a solved grid (top95's first answer), to cut puzzles from
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
)


def forced_sets(puzzles):
    """Each puzzle's givens as options of the empty grid's problem."""
    return [sudoku.forced(p) for p in puzzles]


def test_first_solutions_pass_the_checker_and_the_rules():
    """Forum-hardest (every puzzle one solution, tdoku's data README) and top95, as
    the command solves them: each first solution an exact cover and a sudoku."""
    for name, lines in (("forum_hardest_1106.txt", 120), ("top95.txt", 95)):
        puzzles = load_lines(name, lines)
        problem = sudoku.build(puzzles[0])
        result = dlx.batch(problem, forced_sets(puzzles), 2, engine="sudoku")
        assert result.counts.tolist() == [1] * len(puzzles)
        for puzzle, options in zip(puzzles, result.first, strict=True):
            check(problem, options)
            check_solution(puzzle, sudoku.decode(puzzle, options).values, exact_cover=False)


def test_counts_agree_with_the_tight_batch_and_the_one_puzzle_path():
    """Serg's benchmark puzzles have 2 or more solutions each (tdoku's benchmarks
    README): counted to 5 here as by the tight kernel, and a sample by ``sudoku.count``."""
    puzzles = load_lines("serg_benchmark_first200.txt", 20)
    problem = sudoku.build(puzzles[0])
    sets = forced_sets(puzzles)
    ours = dlx.batch(problem, sets, 5, engine="sudoku")
    tight = dlx.batch(problem, sets, 5, engine="tight")
    assert ours.counts.tolist() == tight.counts.tolist()
    assert all(c >= 2 for c in ours.counts.tolist())
    for k in range(0, 20, 5):
        assert sudoku.count(puzzles[k], limit=5).solutions == ours.counts[k]


def test_solve_all_takes_the_kernel_and_agrees_with_the_other_batches():
    puzzles = load_lines("17_clue_first1000.txt", 80)
    default = sudoku.solve_all(puzzles, 2)
    tight = sudoku.solve_all(puzzles, 2, engine="tight")
    assert [r.count for r in default] == [r.count for r in tight] == [1] * len(puzzles)
    assert [r.values for r in default] == [r.values for r in tight]
    for puzzle, r in zip(puzzles, default, strict=True):
        check_solution(puzzle, r.values)


@st.composite
def cut_grids(draw):
    """A 9x9 puzzle: some cells of a solved grid (relabelled), perhaps one given
    changed to another value that clashes with no other given."""
    digits = draw(st.permutations(range(1, 10)))
    grid = [digits[int(ch) - 1] for ch in SOLVED]
    keep = draw(st.lists(st.integers(0, 80), min_size=0, max_size=40, unique=True))
    values = [grid[i] if i in keep else 0 for i in range(81)]
    if keep and draw(st.booleans()):
        i, v = keep[0], draw(st.integers(1, 9))
        r, c = divmod(i, 9)
        peers = [j for j in range(81) if j != i and values[j] == v]
        if not any(j // 9 == r or j % 9 == c or (j // 27, j % 9 // 3) == (r // 3, c // 3)
                   for j in peers):  # fmt: skip
            values[i] = v
    return "".join(str(v) if v else "." for v in values)


@settings(max_examples=60, deadline=None)
@given(st.lists(cut_grids(), min_size=1, max_size=5))
def test_random_puzzles_count_as_the_tight_batch(lines):
    """Puzzles with no solution, one or many: counts to 3 as the tight kernel's, and
    every first solution through the checker."""
    puzzles = sudoku.parse_all("\n".join(lines) + "\n")
    problem = sudoku.build(puzzles[0])
    sets = forced_sets(puzzles)
    ours = dlx.batch(problem, sets, 3, engine="sudoku")
    tight = dlx.batch(problem, sets, 3, engine="tight")
    assert ours.counts.tolist() == tight.counts.tolist()
    for options, count in zip(ours.first, ours.counts.tolist(), strict=True):
        assert (options is None) == (count == 0)
        if options is not None:
            check(problem, options)


def test_no_solution_is_reported_as_before(tmp_path, capsys):
    """Row 1 needs 9 in its last cell, where column 9 has one: no solution, no clash."""
    from puzzles.cli import main

    grid = ["12345678.", "........9"] + ["." * 9] * 7
    f = tmp_path / "none.txt"
    f.write_text("".join(grid) + "\n" + SOLVED[:80] + ".\n")
    assert main(["sudoku", str(f)]) == 1
    out = capsys.readouterr()
    assert "no solution" in out.out + out.err
    assert SOLVED in out.out


def test_clashing_givens_and_other_problems_are_refused():
    problem = sudoku_problem()
    said = []
    for engine in ("sudoku", "tight"):  # two digits in cell 0: said as the tight batch says
        with pytest.raises(ProblemError) as error:
            dlx.batch(problem, [[5], [0, 1]], 1, engine=engine)
        said.append(str(error.value))
    assert said[0] == said[1]
    assert why_not(problem) is None
    four = sudoku.build(sudoku.parse("1...\n..1.\n.1..\n...1\n"))
    assert "not the 9x9 sudoku problem" in why_not(four)
    with pytest.raises(ProblemError, match="not the 9x9"):
        dlx.batch(four, [[]], 1, engine="sudoku")
    shuffled = dlx.Problem(primary=problem.primary)
    for k in np.random.default_rng(1).permutation(problem.n_options).tolist():
        shuffled.add_option(problem.option(k))
    assert "option 9 i + d" in why_not(shuffled)


def test_the_choice_of_a_two_option_cell_keeps_the_tree_small():
    """The first 60 forum-hardest puzzles, each solved and proved unique: 198 nodes a
    puzzle with the two-option cell whose digits reach the most, 468 with the first
    two-option cell by bands (the kernel's choice before, measured on the same 60)."""
    puzzles = load_lines("forum_hardest_1106.txt", 60)
    problem = sudoku.build(puzzles[0])
    result = dlx.batch(problem, forced_sets(puzzles), 2, engine="sudoku")
    assert result.counts.tolist() == [1] * len(puzzles)
    assert result.nodes.mean() < 300


def test_threads_give_the_same_results_as_one():
    puzzles = load_lines("forum_hardest_1106.txt", 40)
    problem = sudoku.build(puzzles[0])
    sets = forced_sets(puzzles)
    one = dlx.batch(problem, sets, 2, engine="sudoku")
    for workers in (2, 3, 0):
        many = dlx.batch(problem, sets, 2, engine="sudoku", workers=workers)
        assert many.counts.tolist() == one.counts.tolist()
        assert many.first == one.first
        assert many.nodes.tolist() == one.nodes.tolist()
    with pytest.raises(ValueError, match="workers"):
        dlx.batch(problem, sets, 2, engine="tight", workers=2)


def test_the_command_on_every_core_prints_what_one_core_does(tmp_path, capsys):
    from puzzles.cli import main

    f = tmp_path / "fh.txt"
    f.write_text("".join(line + "\n" for line in load_text_lines(60)))
    outs = []
    for workers in ("1", "0"):
        assert main(["sudoku", str(f), "--workers", workers]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]
    assert len(outs[0].split()) == 60


def load_text_lines(n: int) -> list[str]:
    """The first ``n`` forum-hardest puzzles as their lines."""
    path = Path(__file__).resolve().parent.parent / "data" / "sudoku" / "forum_hardest_1106.txt"
    return [line for line in path.read_text().splitlines() if line and line[0] != "#"][:n]
