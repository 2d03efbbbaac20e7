"""The tight kernel's batch call (``dlx.batch(..., engine="tight")``): random XCC
problems against the naive solver, with item domination on and off, every first
solution through the checker; sudoku answers as the dancing-links batch finds them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import problems

import dlx
from dlx.tightlayout import fits
from dlx.verify import check, naive_solutions
from puzzles import sudoku

DATA = Path(__file__).resolve().parent.parent / "data" / "sudoku"


@st.composite
def batches(draw):
    """A problem the tight kernel takes (1:1 primary items, colours) and a few forced
    sets that do not clash: one option, or part of a solution."""
    problem = draw(problems(bounds=False, max_options=10, max_primary=5))
    solutions = sorted(sorted(s) for s in naive_solutions(problem))
    one = st.integers(0, problem.n_options - 1).map(lambda o: [o])
    part = st.sampled_from(solutions or [[]]).flatmap(
        lambda s: st.lists(st.sampled_from(s), unique=True) if s else st.just([])
    )
    sets = draw(st.lists(one | part, min_size=1, max_size=4))
    return problem, sets


@pytest.mark.oracle  # CI runs these again without the JIT
@settings(max_examples=300, deadline=None)
@given(batches(), st.sampled_from([None, "domination"]), st.integers(1, 4))
def test_random_problems_against_the_naive_solver(case, propagate, limit):
    problem, sets = case
    assert fits(problem)
    every = naive_solutions(problem)
    result = dlx.batch(problem, sets, limit, propagate=propagate, engine="tight")
    for forced, found, first in zip(sets, result.counts.tolist(), result.first, strict=True):
        expected = [s for s in every if s >= set(forced)]
        assert found == min(len(expected), limit)
        assert (first is None) == (not expected)
        if first is not None:
            assert len(set(first)) == len(first)
            check(problem, first)
            assert set(forced) <= set(first)


def test_limit_depth_and_engine_are_checked():
    problem = dlx.Problem(primary=["a", "b"])
    for option in (["a"], ["b"], ["a", "b"]):
        problem.add_option(option)
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        dlx.batch(problem, [[]], engine="fast")
    with pytest.raises(dlx.ProblemError, match="depth 1 is too small"):
        dlx.batch(problem, [[]], depth=1, engine="tight")
    with pytest.raises(dlx.ProblemError):
        dlx.batch(problem, [[5]], engine="tight")  # no option 5


@pytest.mark.parametrize("propagate", [None, "domination"])
def test_sudoku_answers_agree_with_the_dancing_links_batch(propagate):
    puzzles = sudoku.parse_all((DATA / "forum_hardest_1106.txt").read_text())[:40]
    problem = sudoku.build(puzzles[0]).with_propagation(propagate)
    sets = [sudoku.forced(p) for p in puzzles]
    tight = dlx.batch(problem, sets, 2, engine="tight")
    links = dlx.batch(problem, sets, 2, engine="dlx")
    assert tight.counts.tolist() == [1] * len(puzzles)  # forum-hardest: one solution each
    assert np.array_equal(tight.counts, links.counts)
    for p, a, b in zip(puzzles, tight.first, links.first, strict=True):
        assert sorted(a) == sorted(b)
        assert sudoku.faults(p, sudoku.decode(p, a)) == []
