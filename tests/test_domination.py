"""Item domination (issue 16): ``propagate="domination"`` prunes the tree, never the
answers. Random problems (bounds, colours, loop items) against the naive solver, every
solution through the checker; the links are whole again after every search; sudoku
trees get smaller.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import problems
from test_loop_items import on_edges, one_cycle, random_problem

import dlx
from dlx.kernels.links import layout
from dlx.kernels.links.search import Search
from dlx.verify import check, naive_solutions
from puzzles import polyomino, sudoku

ON = "domination"


def dominated(problem: dlx.Problem) -> dlx.Problem:
    return problem.with_propagation(ON)


def assert_same_answers(problem: dlx.Problem, expected: set) -> None:
    """Stream, count, first and is_unique with the rule, against ``expected``."""
    found = [frozenset(s.options) for s in dlx.solutions(problem, propagate=ON)]
    assert len(found) == len(set(found))
    assert set(found) == expected
    for s in found:
        check(problem, s)
    assert dlx.count(problem, propagate=ON).solutions == len(expected)
    assert dlx.is_unique(problem, propagate=ON) == (len(expected) == 1)


@pytest.mark.oracle  # CI runs these again without the JIT
@settings(max_examples=300, deadline=None)
@given(problems(max_options=12, max_primary=6))
def test_random_problems_with_bounds_and_colours(problem):
    assert_same_answers(problem, naive_solutions(problem))


@st.composite
def exact_problems(draw):
    """Exact-cover problems (1:1 items), dense enough that items dominate each other."""
    n = draw(st.integers(2, 7))
    primary = [f"p{i}" for i in range(n)]
    p = dlx.Problem(primary=primary)
    for _ in range(draw(st.integers(1, 14))):
        p.add_option(draw(st.lists(st.sampled_from(primary), min_size=1, max_size=3, unique=True)))
    return p


@pytest.mark.oracle  # CI runs these again without the JIT
@settings(max_examples=300, deadline=None)
@given(exact_problems())
def test_random_exact_cover_problems(problem):
    assert_same_answers(problem, naive_solutions(problem))


@pytest.mark.oracle  # CI runs these again without the JIT
@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9))
def test_random_problems_with_loop_items(seed):
    plain, edges = random_problem(seed, with_loop=False)
    looped, _ = random_problem(seed, with_loop=True)
    expected = {s for s in naive_solutions(plain) if one_cycle(on_edges(plain, s, edges))}
    assert_same_answers(looped, expected)


@pytest.mark.oracle  # CI runs these again without the JIT
@settings(max_examples=100, deadline=None)
@given(exact_problems(), st.integers(1, 3))
def test_links_restored_at_every_pause(problem, budget):
    """A search paused every ``budget`` nodes is whole again once done, and each pause
    leaves consistent links (Knuth's sanity check)."""
    from dlx.kernels.links import kernel

    search = Search(dominated(problem), budget=budget)
    arrays = layout.arrays(problem)
    while search.run(stream=True) != kernel.DONE:
        assert kernel.sanity(search.node, search.item, arrays.second)[0] == 0
    assert np.array_equal(search.node, arrays.node)
    assert np.array_equal(search.item, arrays.item)
    work = search.state.work
    n = len(work) // 5  # the work stack and its flags, the stamps, the singles and flags
    assert search.state.domination[1] == 0  # no trail
    assert not work[n : 2 * n].any() and not work[3 * n] and not work[4 * n :].any()  # stacks empty


def test_forced_options_and_batch():
    text = (dlx.__file__.rsplit("/", 2)[0]) + "/data/sudoku/forum_hardest_1106.txt"
    puzzles = sudoku.parse_all(open(text, encoding="utf-8").read())[:30]
    problem = sudoku.build(puzzles[0]).with_propagation(None)  # the plain search
    forced = [sudoku.forced(s) for s in puzzles]
    plain = dlx.batch(problem, forced)
    pruned = dlx.batch(problem, forced, propagate=ON)
    assert plain.counts.tolist() == pruned.counts.tolist() == [1] * 30
    assert [set(s) for s in plain.first] == [set(s) for s in pruned.first]
    for options in pruned.first:
        check(problem, options)
    # the rule is locked candidates (and more): the trees of these puzzles shrink
    assert pruned.nodes.sum() * 2 < plain.nodes.sum()
    # one by one (Search with forced options) as in the batch
    k = 3
    one = dlx.count(problem, forced=forced[k], propagate=ON)
    assert one.solutions == 1 and one.stats.nodes == pruned.nodes[k]


def test_parallel_split_agrees():
    rng = random.Random(7)
    p = dlx.Problem(primary=[f"p{i}" for i in range(12)])
    for _ in range(60):
        p.add_option(rng.sample(p.primary, rng.randint(1, 3)))
    expected = dlx.count(p).solutions
    split = dlx.count(p, propagate=ON, parallel=dlx.Parallel(workers=1, tasks=16))
    assert split.solutions == expected and split.complete


def test_bad_setting_refused():
    p = dlx.Problem(primary=["a"])
    p.add_option(["a"])
    with pytest.raises(dlx.ProblemError, match="propagate='dominance'"):
        dlx.count(p, propagate="dominance")
    q = dominated(p)
    assert q.propagate == ON and p.propagate is None
    q.add_option(["a"])  # the copy is a problem of its own
    assert (p.n_options, q.n_options) == (1, 2)
    assert dlx.count(p).solutions == 1 and dlx.count(q).solutions == 2


def test_command_line(tmp_path, capsys):
    from dlx.cli import main

    path = tmp_path / "p.dlx"
    path.write_text("a b c d\na b\nc d\na c\nb d\na d\nb c\n", encoding="utf-8")
    assert main([str(path), "--count", "--workers", "1"]) == 0
    plain = capsys.readouterr().out
    assert main([str(path), "--count", "--workers", "1", "--propagate", "domination"]) == 0
    assert capsys.readouterr().out == plain == "3\n"


def test_bitset_engine_refuses_the_rule_and_auto_takes_dlx():
    p = dlx.Problem(primary=["a", "b"])
    for option in (["a"], ["b"], ["a", "b"]):
        p.add_option(option)
    with pytest.raises(ValueError, match="rule of the dlx engine"):
        dlx.count(p, engine="bitset", propagate=ON)
    assert dlx.count(p, engine="auto", propagate=ON).solutions == 2
    tiling = polyomino.build(polyomino.make_puzzle("3x20"))  # a race would pick another
    expected = dlx.count(tiling, engine="dlx").solutions
    ruled = dlx.count(tiling, engine="auto", propagate=ON)
    assert ruled.solutions == expected and ruled.stats.engine.startswith("dlx (auto: the only")
