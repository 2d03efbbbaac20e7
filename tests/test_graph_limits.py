"""The solution graph's honest limits: an order of solutions fixed by the problem alone,
the memory cap that holds while the arrays grow, the size estimate of a refusal, and
what a tiling command's sample says it drew from.

Every solution a test sees goes through ``dlx.check``.
"""

from __future__ import annotations

import pytest
from shared import load

import dlx
from dlx import graphlayout as gl


def _cells(problem: dlx.Problem) -> list[str]:
    """The primary items in the graph layout's bit order (cells, then pieces)."""
    lay = gl.layout(problem)
    return [problem.primary[i] for i in lay.bit_item[: lay.n_primary]]


def test_queens_keep_their_declared_order():
    # the rows and columns of queens join no two cells in any option (an all-zero
    # matrix): no eigenvector may choose their order, so it stays as declared
    from puzzles import queens

    problem = queens.queens(8)
    assert _cells(problem)[:8] == [f"c{i}" for i in range(8)]  # the cells: columns
    g = dlx.graph(problem)
    assert g.count == 92  # OEIS A000170
    # the order of ORDER_VERSION 2: the same on every machine
    first = [s.options for s in dlx.graph(queens.queens(6)).solutions()]
    assert first == [
        (1, 9, 17, 18, 34, 26),
        (2, 11, 13, 22, 24, 33),
        (3, 6, 16, 19, 29, 32),
        (4, 8, 12, 23, 31, 27),
    ]
    for options in first:
        dlx.check(queens.queens(6), options)
    assert gl.ORDER_VERSION == 2


def test_a_sweep_is_kept_where_it_is_fixed_and_shorter():
    # the 3 x 20 rectangle's cells, declared along the short side, are swept along the
    # long one (a simple eigenvalue, spans much shorter)
    problem = load("pent3x20_all")
    declared = problem.primary[12:]  # F I L ... Z, then the cells row by row
    order = _cells(problem)[:60]
    assert sorted(order) == sorted(declared) and order != declared
    assert set(order[:3]) == {"00", "10", "20"}  # a column of 3 at a time


@pytest.mark.parametrize("name", ["pent3x20_all", "pent6x10_sym"])
def test_a_seed_gives_the_same_sample_as_unrank_of_randrange(name):
    import random

    g = dlx.graph(load(name))
    rng = random.Random(17)
    expected = [g.unrank(rng.randrange(g.count)).options for _ in range(40)]
    assert [s.options for s in g.sample(40, seed=17)] == expected
