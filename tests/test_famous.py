"""The levers of issue 41's long counts: the frontier count (``scripts/frontier_count.py``)
against published counts and the plain search, and the sampler of
``scripts/famous_levers.py`` (its subproblems are the tree's, and their counts add up)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dlx
from puzzles.polyform import tiling
from puzzles.polyform.pieces import parse_pieces

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def script(name: str):
    """A module of ``scripts/``, imported from its file."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba finds a jitted function's module by its name
    spec.loader.exec_module(module)
    return module


frontier = script("frontier_count")
levers = script("famous_levers")


def quiet(_line: str) -> None:
    """A report that prints nothing."""


# Published counts: the 12 pentominoes on 6x10 (2,339 distinct, 9,356 in all; Haselgrove
# and Haselgrove 1960), on 3x20 (2 distinct) and on 5x12 (1,010 distinct; both Golomb,
# "Polyominoes", 1965); the 18 one-sided pentominoes on 3x30 (46 distinct: the figure of
# docs/performance.md's kernel table, on which every kernel and Knuth's DLX1 agree).
@pytest.mark.parametrize(
    "board, pieces, symmetry, expected",
    [
        pytest.param("6x10", "pentominoes", True, 2339, marks=pytest.mark.slow),
        pytest.param("6x10", "pentominoes", False, 9356, marks=pytest.mark.slow),
        ("3x20", "pentominoes", True, 2),
        ("5x12", "pentominoes", True, 1010),
        ("3x30", "one-sided-pentominoes", True, 46),
    ],
)
def test_frontier_count_gives_the_published_counts(board, pieces, symmetry, expected):
    puzzle = tiling.make_puzzle(board, pieces)
    problem = tiling.build(puzzle, tiling.plan_symmetry(puzzle) if symmetry else None)
    total, states, alive = frontier.frontier_count(problem, puzzle, quiet)
    assert total == expected
    assert 0 < alive <= states


SMALL_PIECES = ["I2", "I3", "L3", "I4", "O4", "T4", "S4", "L4", "F", "P", "V", "X"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    chosen=st.sets(st.sampled_from(SMALL_PIECES), min_size=1, max_size=5),
    width=st.integers(2, 6),
    symmetry=st.booleans(),
    data=st.data(),
)
def test_frontier_count_agrees_with_the_plain_search(chosen, width, symmetry, data):
    """Random small boards (a rectangle less random holes) and pieces: the same count as
    the plain search, every one of whose tilings the checker accepts."""
    names = ",".join(sorted(chosen))
    area = sum(p.size for p in parse_pieces(names).pieces)
    height = -(-area // width) + data.draw(st.integers(0, 1))
    cells = [(x, y) for x in range(width) for y in range(height)]
    holes = data.draw(st.permutations(cells))[: len(cells) - area]
    puzzle = tiling.make_puzzle(set(cells) - set(holes), names)
    plan = tiling.plan_symmetry(puzzle, fallback=True) if symmetry else None
    if plan is not None and plan.filter:
        plan = None  # no exact breaking here: the plain problem
    problem = tiling.build(puzzle, plan)
    found = list(dlx.solutions(problem, engine="dlx"))
    for solution in found:
        dlx.check(problem, solution.options)
    total, _, _ = frontier.frontier_count(problem, puzzle, quiet)
    assert total == len(found)


def test_the_sampled_subproblems_are_the_tree_and_their_counts_add_up():
    """The 3x20 tree cut two options down: the subproblems' counts add up to the whole
    count (2 distinct, as above), and each is the plain search's count of it."""
    puzzle = tiling.make_puzzle("3x20", "pentominoes")
    problem = tiling.build(puzzle, tiling.plan_symmetry(puzzle))
    tree = levers.Tree(problem, puzzle)
    tasks = tree.level(2)
    assert tasks and all(len(t) == 2 for t in tasks)
    found = 0
    for forced in tasks:
        n, nodes, _ = levers.run_lever(problem, "bitset", forced)
        assert n == dlx.count(problem, forced=forced, engine="dlx").solutions
        assert nodes > 0
        found += n
    assert found == 2


regions = script("region_nodes")


@pytest.mark.parametrize("board, expected", [("6x10", 2339), ("5x12", 1010), ("3x20", 2)])
def test_the_region_model_counts_the_published_tilings_under_every_test(board, expected):
    """``scripts/region_nodes.py``: its model of the tight kernel's tree counts the
    published tilings (see above) with each dead-region test and without, and each test
    skips children and nodes (none on 3x20, whose tree is small) but never a tiling."""
    puzzle = tiling.make_puzzle(board, "pentominoes")
    problem = tiling.build(puzzle, tiling.plan_symmetry(puzzle))
    assert dlx.count(problem).solutions == expected
    items, mask, neighbours, n_cells, n_primary = regions.arrays(problem)
    none = np.zeros(0, np.int64)
    plain = regions.search(items, mask, neighbours, n_cells, n_primary, none, regions.NONE, 99)
    assert plain[1] == expected and plain[2] == 0
    for test, cap in ((regions.GRID, 99), (regions.GRID, 4), (regions.LIVE, 0), (regions.HALO, 0)):
        nodes, solutions, skipped = regions.search(
            items, mask, neighbours, n_cells, n_primary, none, test, cap
        )
        assert solutions == expected, (test, cap)
        assert nodes <= plain[0] and (skipped > 0) == (nodes < plain[0]), (test, cap)
        if board != "3x20":
            assert skipped > 0, (test, cap)
