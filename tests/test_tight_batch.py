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
from sudoku_checks import DIAGONAL_JIGSAWS, check_solution, load_lines, puzzlekit_pairs

import dlx
from dlx.kernels.tight import layout as tightlayout
from dlx.kernels.tight.layout import batch_layout, fits
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
@settings(max_examples=150, deadline=None)
@given(batches(), st.sampled_from([None, 1, 2, 3]), st.integers(1, 4))
def test_random_problems_against_the_naive_solver(case, domination, limit):
    """Plain, and with item domination of items of up to 1, 2 or 3 live options."""
    problem, sets = case
    assert fits(problem)
    every = naive_solutions(problem)
    rule = {} if domination is None else {"propagate": "domination", "domination": domination}
    result = dlx.batch(problem, sets, limit, engine="tight", **rule)
    for forced, found, first in zip(sets, result.counts.tolist(), result.first, strict=True):
        expected = [s for s in every if s >= set(forced)]
        assert found == min(len(expected), limit)
        assert (first is None) == (not expected)
        if first is not None:
            assert len(set(first)) == len(first)
            check(problem, first)
            assert set(forced) <= set(first)


@settings(max_examples=60, deadline=None)
@given(batches(), st.sampled_from([None, 1, 2]))
def test_conflict_groups_alone_agree_with_the_masks(case, domination):
    """Past ``CONFLICT_BYTES`` a batch clears group by group instead of with the dense
    conflict masks: the same counts, each first solution checked."""
    problem, sets = case
    rule = {} if domination is None else {"propagate": "domination", "domination": domination}
    dense = dlx.batch(problem, sets, 4, engine="tight", **rule)
    original = tightlayout.CONFLICT_BYTES
    tightlayout.CONFLICT_BYTES = 0
    try:
        alone = dlx.parse(dlx.write(problem))  # the same problem, no layout kept yet
        assert batch_layout(alone).conflict.shape[0] == 0
        result = dlx.batch(alone, sets, 4, engine="tight", **rule)
    finally:
        tightlayout.CONFLICT_BYTES = original
    assert result.counts.tolist() == dense.counts.tolist()
    for first in result.first:
        if first is not None:
            check(alone, first)


def test_conflict_masks_past_64_words_agree_with_the_groups(monkeypatch):
    """A Latin square of order 17 (4,913 options: 77 words, so the masks are visited
    in two runs of 64 words) with a few cells given: the masks and the groups alone
    find the same counts, each first solution checked."""
    n = 17
    problem = dlx.Problem()
    for kind in ("cell", "row", "column"):
        for a in range(n):
            for b in range(n):
                problem.add_primary(f"{kind}{a}_{b}")
    for r in range(n):
        for c in range(n):
            for v in range(n):
                problem.add_option([f"cell{r}_{c}", f"row{r}_{v}", f"column{c}_{v}"])
    cyclic = [((r * n + c) * n + (r + c) % n) for r in range(n) for c in range(n)]
    sets = [[], cyclic[::40], cyclic[-3:], [cyclic[-1], cyclic[-2] + 2]]
    rule = {"propagate": "domination", "domination": 1}
    dense = dlx.batch(problem, sets, 2, engine="tight", **rule)
    assert batch_layout(problem).conflict.shape[1] > 64
    monkeypatch.setattr(tightlayout, "CONFLICT_BYTES", 0)
    alone = dlx.parse(dlx.write(problem))
    assert batch_layout(alone).conflict.shape[0] == 0
    result = dlx.batch(alone, sets, 2, engine="tight", **rule)
    assert result.counts.tolist() == dense.counts.tolist()
    for found in (dense, result):
        for forced, first in zip(sets, found.first, strict=True):
            if first is not None:
                check(problem, first)
                assert set(forced) <= set(first)


def test_limit_depth_and_engine_are_checked():
    problem = dlx.Problem(primary=["a", "b"])
    for option in (["a"], ["b"], ["a", "b"]):
        problem.add_option(option)
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        dlx.batch(problem, [[]], engine="fast")
    two = dlx.Problem(primary=["a", "b"])  # every solution takes two options
    for option in (["a"], ["b"]):
        two.add_option(option)
    with pytest.raises(dlx.ProblemError, match="depth 1 is too small"):
        dlx.batch(two, [[]], depth=1, engine="tight")
    for engine in ("dlx", "tight"):  # the same errors from both kernels
        with pytest.raises(dlx.ProblemError, match="forced option 5 does not exist"):
            dlx.batch(problem, [[0], [5]], engine=engine)
        with pytest.raises(dlx.ProblemError, match="cover item 'a' more than once"):
            dlx.batch(problem, [[1], [0, 1, 2]], engine=engine)
        with pytest.raises(dlx.ProblemError, match="start must rise"):
            dlx.batch(problem, [0, 1], start=[0, 3], engine=engine)
    with pytest.raises(ValueError, match="domination must be an integer >= 1"):
        dlx.batch(problem, [[]], engine="tight", propagate="domination", domination=0)
    with pytest.raises(ValueError, match="goes with propagate='domination'"):
        dlx.batch(problem, [[]], engine="tight", domination=2)
    with pytest.raises(ValueError, match="a setting of the tight engine"):
        dlx.batch(problem, [[]], propagate="domination", domination=2)


def test_an_item_of_too_many_options_is_refused(monkeypatch):
    """A covered item's count must stay above any item's options (``_UNCOVERED_MAX``):
    a batch refuses an item of more, in one line (the limit lowered to see it)."""
    from dlx.kernels.tight import search as tightsearch

    problem = dlx.Problem(primary=["a", "b"])
    for option in (["a"], ["a", "b"], ["b"]):
        problem.add_option(option)
    monkeypatch.setattr(tightsearch, "BATCH_MAX_OPTIONS", 1)
    with pytest.raises(dlx.ProblemError, match="an item has more than 1 options"):
        dlx.batch(problem, [[]], engine="tight")


@pytest.mark.parametrize("domination", [None, 1, 2])
def test_sudoku_answers_agree_with_the_dancing_links_batch(domination):
    puzzles = sudoku.parse_all((DATA / "forum_hardest_1106.txt").read_text())[:40]
    problem = sudoku.build(puzzles[0]).with_propagation(domination and "domination")
    sets = [sudoku.forced(p) for p in puzzles]
    tight = dlx.batch(problem, sets, 2, engine="tight", domination=domination)
    links = dlx.batch(problem, sets, 2, engine="dlx")
    assert tight.counts.tolist() == [1] * len(puzzles)  # forum-hardest: one solution each
    assert np.array_equal(tight.counts, links.counts)
    for p, a, b in zip(puzzles, tight.first, links.first, strict=True):
        assert sorted(a) == sorted(b)
        assert sudoku.faults(p, sudoku.decode(p, a)) == []


def test_domination_shrinks_sudoku_trees():
    """Singles taken in place, then pairs too (pointing and claiming): fewer nodes each."""
    puzzles = sudoku.parse_all((DATA / "forum_hardest_1106.txt").read_text())[:40]
    problem = sudoku.build(puzzles[0])
    sets = [sudoku.forced(p) for p in puzzles]
    plain = dlx.batch(problem.with_propagation(None), sets, 2, engine="tight")
    nodes = [plain.nodes.sum()]
    for cap in (1, 2):
        result = dlx.batch(problem, sets, 2, engine="tight", domination=cap)
        assert np.array_equal(result.counts, plain.counts)
        nodes.append(result.nodes.sum())
    assert nodes[0] > nodes[1] > nodes[2]


def sudoku_lists() -> dict[str, list]:
    """Lists of every shape the adapter takes: 9x9 and 16x16 boxes, jigsaws, jigsaws
    with diagonals, and puzzles with several solutions."""
    pairs = puzzlekit_pairs("Sudoku")
    return {
        "16x16 and 9x9": [p for p, _ in pairs if p.side == 16] + [p for p, _ in pairs][:10],
        "jigsaw": [p for p, _ in puzzlekit_pairs("JigsawSudoku")][::40],
        "jigsaw X": [
            p for p, _ in puzzlekit_pairs("JigsawSudoku", sorted(DIAGONAL_JIGSAWS), diagonals=True)
        ],
        "two or more": load_lines("serg_benchmark_first200.txt", 20),
    }


@pytest.mark.parametrize("name", ["16x16 and 9x9", "jigsaw", "jigsaw X", "two or more"])
def test_solve_all_on_the_tight_batch_every_shape(name):
    """``sudoku.solve_all`` forced onto the tight batch: the counts of the dancing-links
    batch, every first answer through the checker."""
    puzzles = sudoku_lists()[name]
    tight = sudoku.solve_all(puzzles, limit=3, engine="tight")
    links = sudoku.solve_all(puzzles, limit=3, engine="dlx")
    assert [r.count for r in tight] == [r.count for r in links]
    assert all(r.count >= 1 for r in tight)
    for puzzle, result in zip(puzzles, tight, strict=True):
        check_solution(puzzle, result.values)
