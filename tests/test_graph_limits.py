"""The solution graph's honest limits: an order of solutions fixed by the problem alone,
the memory cap that holds while the arrays grow, the size estimate of a refusal, and
what a tiling command's sample says it drew from.

Every solution a test sees goes through ``dlx.check``.
"""

from __future__ import annotations

import pytest
from shared import dominoes, load

import dlx
from dlx.solution_graph import layout as gl


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


# -- memory, estimates ---------------------------------------------------------------------


@pytest.mark.parametrize("cap_mb", [24, 48])
def test_the_memory_cap_holds_while_the_arrays_grow(cap_mb, monkeypatch):
    # numpy reports its arrays to tracemalloc: the build's peak, old and new arrays
    # together while they grow, stays under the cap (the 16 x 16 board needs about
    # 130 MB), and a graph that fits is built under it too
    import tracemalloc

    from dlx.solution_graph import graph as sg

    dlx.graph(dominoes(4))  # compiled before the measure
    monkeypatch.setattr(sg, "MAX_BYTES", cap_mb << 20)
    monkeypatch.setattr(sg, "DEAD_BYTES", 1 << 20)
    tracemalloc.start()
    try:
        with pytest.raises(dlx.GraphTooLarge, match="estimated in all"):
            dlx.graph(dominoes(16))
        assert tracemalloc.get_traced_memory()[1] <= 1.1 * (cap_mb << 20)
        tracemalloc.reset_peak()
        g = dlx.graph(dominoes(12))
        assert tracemalloc.get_traced_memory()[1] <= 1.1 * (cap_mb << 20)
    finally:
        tracemalloc.stop()
    assert g.count == 53_060_477_521_960_000  # OEIS A004003, n = 6
    assert g.stats.peak_bytes <= cap_mb << 20


@pytest.mark.parametrize(
    "make, share",
    [
        (lambda: dominoes(12), 0.5),
        (lambda: dominoes(12), 0.05),
        (lambda: load("pent6x10_sym"), 0.2),
        (lambda: load("pent5x12_all"), 0.05),
    ],
)
def test_the_estimate_of_a_refusal_is_within_ten_times(make, share):
    # the share of the search tree done gave 1e32 nodes for a graph of 1.2 million;
    # scripts/graph_estimate.py measures the domino boards to 18 x 18 and the files
    import re

    problem = make()
    true = len(dlx.graph(problem))
    with pytest.raises(dlx.GraphTooLarge) as caught:
        dlx.graph(problem, max_nodes=int(true * share))
    estimate = float(re.search(r"about (\S+) estimated in all", str(caught.value))[1])
    assert true / 10 <= estimate <= 10 * true


def test_a_huge_max_nodes_on_the_command_line_is_no_bound(capsys):
    from shared import DATA

    from dlx.cli import main

    path = str(DATA / "pent3x20_all.dlx")
    for bound in ("100000000000000", "1" + "0" * 30):
        assert main([path, "--sample", "1", "--max-graph-nodes", bound, "--no-progress"]) == 0
        assert "8 solutions in all" in capsys.readouterr()[1]
    with pytest.raises(SystemExit) as caught:  # argparse: one line, status 2
        main([path, "--sample", "３", "--no-progress"])
    assert caught.value.code == 2 and "invalid integer value" in capsys.readouterr()[1]
