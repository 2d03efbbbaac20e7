"""Step-by-step logic (``dlx.logic``, issue 16): on random small exact-cover problems,
every option a rule takes is in every solution (the naive solver's) and every option a
step removes is in none; a stuck item's options are the only ways on; with a solution
to guess from, the reasoning ends at exactly that solution.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import problems

import dlx
from dlx.logic import RULES, Logic, explain
from dlx.verify import naive_solutions

# exact cover (1:1 items) with a few coloured secondary items: small enough for the naive
# solver, dense enough that every kind of step comes up
EXACT = problems(bounds=False, max_options=12, max_primary=6, max_secondary=2)


def check_steps(problem: dlx.Problem, forced, steps) -> None:
    """The invariant of every step, against the naive solver's solutions with
    ``forced``."""
    every = [s for s in naive_solutions(problem) if set(forced) <= s]
    taken = set(forced)
    for step in steps:
        assert step.kind in (*RULES, "stuck", "solved", "dead")
        if step.kind == "single":
            assert all(step.option in s for s in every)
            taken.add(step.option)
        for k in step.removed:
            assert all(k not in s for s in every)
        if step.kind == "stuck":
            assert len(step.options) >= 2
            item_options = {k for k in range(problem.n_options) if step.item in problem.option(k)}
            assert set(step.options) <= item_options
            for s in every:  # each solution goes on through exactly one of them
                assert len(s & set(step.options)) == 1
        if step.kind == "solved":
            assert every == [frozenset(taken)]
        if step.kind == "dead":
            assert every == []
    assert steps[-1].kind in ("stuck", "solved", "dead")


@pytest.mark.oracle
@settings(max_examples=150, deadline=None)
@given(EXACT, st.data())
def test_rules_take_what_every_solution_has_and_remove_what_none_has(problem, data):
    forced = []
    solutions = sorted(naive_solutions(problem), key=sorted)
    if solutions and data.draw(st.booleans()):
        chosen = sorted(data.draw(st.sampled_from(solutions)))
        forced = data.draw(st.lists(st.sampled_from(chosen), unique=True))
    check_steps(problem, forced, list(explain(problem, forced)))
    check_steps(problem, forced, list(explain(problem, forced, rules=("single",))))


@pytest.mark.oracle
@settings(max_examples=150, deadline=None)
@given(EXACT)
def test_guessing_from_a_solution_ends_at_that_solution(problem):
    for solution in naive_solutions(problem):
        steps = list(explain(problem, solution=sorted(solution)))
        assert steps[-1].kind == "solved"
        taken = {s.option for s in steps if s.kind in ("single", "guess")}
        assert taken == solution
        for step in steps:
            assert not set(step.removed) & solution


def test_domination_and_single_on_a_small_problem():
    # every option of a covers c, so c's option without a goes; then b has one option
    p = dlx.Problem(primary=["a", "b", "c", "d"])
    for option in (["a", "c"], ["a", "c", "d"], ["b", "c"], ["b"], ["d"]):
        p.add_option(option)
    logic = Logic(p)
    step = logic.step()
    assert (step.kind, step.item, step.other, step.removed) == ("domination", "a", "c", (2,))
    assert logic.options_left("b") == [3]
    step = logic.step()
    assert (step.kind, step.item, step.option) == ("single", "b", 3)
    assert logic.step().kind == "stuck"
    assert Logic(p).step(rules=("single",)).kind == "stuck"  # no single before domination


def test_colours_clash_when_an_option_is_taken():
    p = dlx.Problem(primary=["a", "b", "c"], secondary=["x"])
    for option in (["a", "x:red"], ["b", "x:blue"], ["b", "x:red"], ["c", "x"], ["c"]):
        p.add_option(option)
    steps = list(explain(p))
    assert [(s.kind, s.option, s.removed) for s in steps] == [
        ("single", 0, (1, 3)),  # a's only option: blue and uncoloured x clash with red
        ("single", 2, ()),
        ("single", 4, ()),
        ("solved", None, ()),
    ]


def test_refusals_name_the_fault():
    with pytest.raises(dlx.ProblemError, match="item 'a' has bounds 0:2"):
        Logic(dlx.Problem(primary=["a"], bounds={"a": (0, 2)}))
    loop = dlx.Problem(primary=["a"], secondary=["e"])
    loop.add_loop_edge("e", 0, 1, on="1")
    with pytest.raises(dlx.ProblemError, match="loop items"):
        Logic(loop)
    p = dlx.Problem(primary=["a", "b"])
    p.add_option(["a", "b"])
    p.add_option(["a"])
    with pytest.raises(dlx.ProblemError, match="forced options 0 and 1 clash"):
        Logic(p, forced=[0, 1])
    with pytest.raises(dlx.ProblemError, match="forced option 5 does not exist"):
        Logic(p, forced=[5])
    with pytest.raises(ValueError, match="unknown rule 'x-wing'"):
        Logic(p).step(rules=("x-wing",))
    with pytest.raises(TypeError, match="dlx.Problem"):
        Logic("a b")
