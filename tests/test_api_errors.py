"""Errors of the public calls name the argument at fault (issue 18.6); ``Count``
behaves as an int (18.2); one problem counted from several threads (19.10)."""

from __future__ import annotations

import threading

import pytest
from boards import queens
from shared import EXPECTED, load

import dlx


def test_count_is_an_int_that_knows_if_it_is_exact():
    c = dlx.count(queens(8))
    assert c == 92 and 91 < c <= 92 and c + 1 == 93 and int(c) == 92 and hash(c) == hash(92)
    assert f"{c:5d}" == "   92" and str(c) == "92" and c.complete and c.solutions == 92
    assert sorted([dlx.count(queens(6)), 3, c]) == [3, 4, 92]
    partial = dlx.count(queens(8), limit=10)
    assert partial == 10 and not partial.complete
    assert str(partial).startswith("at least 10")


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda p: dlx.count(p, timelimit=3), TypeError, "unexpected keyword argument 'timelimit'"),
        (lambda p: dlx.count([["a"]]), TypeError, r"count\(\) takes a dlx.Problem, not list"),
        (lambda p: dlx.solutions("a b"), TypeError, r"solutions\(\) takes a dlx.Problem"),
        (lambda p: dlx.count(p, forced=[["a", "b"]]), dlx.ProblemError, "forced must be a list"),
        (lambda p: dlx.count(p, forced="ab"), dlx.ProblemError, "forced must be a list"),
        (lambda p: dlx.count(p, limit=-1), ValueError, "limit must be an integer >= 0, not -1"),
        (lambda p: dlx.count(p, limit="3"), ValueError, "limit must be an integer >= 0"),
        (lambda p: dlx.count(p, node_limit=-5), ValueError, "node_limit must be an integer"),
        (lambda p: dlx.solutions(p, time_limit=-1), ValueError, "time_limit must be seconds"),
        (lambda p: dlx.Problem(primary="abc"), dlx.ProblemError, "not the string 'abc'"),
        (lambda p: dlx.Problem(["a"], secondary="xy"), dlx.ProblemError, "secondary must be"),
    ],
)
def test_errors_name_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call(queens(4))


def test_an_option_of_secondary_items_only_is_never_chosen():
    """Documented meaning: the search branches on primary items only, so an option
    without one can never be part of a solution (it is kept, and harmless)."""
    p = dlx.Problem(primary=["a"], secondary=["x"])
    p.add_option(["x"])
    p.add_option(["a"])
    assert [s.options for s in dlx.solutions(p)] == [(1,)]


def test_threads_count_one_problem():
    text = dlx.write(load("scott_sym"))
    for _ in range(5):
        p = dlx.parse(text)  # fresh: its arrays are built by whichever thread comes first
        results, errors = [], []

        def work(p=p, results=results, errors=errors):
            try:
                results.append(dlx.count(p))
            except Exception as e:  # noqa: BLE001 - collected for the assertion
                errors.append(e)

        threads = [threading.Thread(target=work) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [] and results == [EXPECTED["scott_sym"]] * 3
