"""The memo of subtree counts: exact whatever the table size, off where it would not be."""

from __future__ import annotations

import numpy as np
import pytest
from boards import dominoes
from hypothesis import given, settings
from shared import examples, option_sets, run_to_end
from strategies import problems

import dlx
from dlx.kernels.links import kernel, layout
from dlx.verify import naive_solutions

# -- the memo of subtree counts ------------------------------------------------------


# domino tilings of rectangles (OEIS A099390): 8x8 has 12,988,816
DOMINO_TILINGS = {(2, 12): 233, (3, 12): 2131, (6, 6): 6728, (8, 8): 12988816}


@pytest.mark.parametrize("shape", sorted(DOMINO_TILINGS))
def test_memo_counts_domino_tilings(shape):
    """Full counts reuse the counts of subtrees met before: 8x8 takes a few thousand
    nodes, where the plain search would enter one per tiling at least (dancing links:
    ``auto`` may count a small one by a probe, which has no memo)."""
    result = dlx.count(dominoes(*shape), engine="dlx")
    assert result.complete and result.solutions == DOMINO_TILINGS[shape]
    assert result.stats.nodes < 5000


def test_memo_agrees_with_the_plain_search_and_restores_links():
    p = dominoes(6, 6)
    assert len(option_sets(dlx.solutions(p))) == 6728  # streams take no memo
    plain = run_to_end(dlx.Search(p))
    memo = run_to_end(dlx.Search(p, memo=dlx.Memo.of(p)))
    assert plain.stats.solutions == memo.stats.solutions == 6728
    assert memo.stats.nodes < plain.stats.nodes / 10
    assert np.array_equal(memo.node, layout.arrays(p).node)
    assert np.array_equal(memo.item, layout.arrays(p).item)


def test_memo_only_where_the_covered_items_tell_the_rest():
    assert dlx.Memo.of(dominoes(2, 2)) is not None
    coloured = dlx.Problem(primary=["a"], secondary=["s"])
    coloured.add_option(["a", "s:x"])
    assert dlx.Memo.of(coloured) is None
    bounded = dlx.Problem(primary=["a"], bounds={"a": (1, 2)})
    bounded.add_option(["a"])
    assert dlx.Memo.of(bounded) is None


def test_memo_of_another_problem_refused():
    p, q = dominoes(2, 2), dominoes(2, 3)
    with pytest.raises(dlx.ProblemError, match="another problem"):
        dlx.Search(p, memo=dlx.Memo.of(q))
    memo = dlx.Memo.of(p)
    p.add_option(["0,0"])  # the arrays are built again: the memo no longer fits
    with pytest.raises(dlx.ProblemError, match="another problem"):
        dlx.Search(p, memo=memo)


def test_memo_is_off_for_streams_and_limits():
    p = dominoes(4, 4)
    search = dlx.Search(p, memo=dlx.Memo.of(p))
    assert search.run(stream=True) == kernel.SOLUTION
    assert search.memo is None  # a stream must meet every solution: off for good
    assert dlx.count(p, limit=7).solutions == 7


@pytest.mark.oracle
@settings(max_examples=examples(300), deadline=None)
@given(problems(bounds=False, colours=False, max_primary=6, max_options=11))
def test_random_memo_counts_match_naive(p):
    """A 16-slot table (colliding keys overwrite each other) still counts exactly."""
    search = run_to_end(dlx.Search(p, memo=dlx.Memo.of(p, nbytes=256)))
    assert search.memo.keys.shape[0] == 16
    assert search.stats.solutions == len(naive_solutions(p))


@pytest.mark.oracle
@settings(max_examples=examples(200), deadline=None)
@given(problems(bounds=False, colours=False, max_primary=10, max_options=40))
def test_random_memo_counts_match_the_plain_search(p):
    plain = run_to_end(dlx.Search(p))
    memo = run_to_end(dlx.Search(p, memo=dlx.Memo.of(p, nbytes=1024)))
    assert memo.stats.solutions == plain.stats.solutions
    assert memo.stats.nodes <= plain.stats.nodes
