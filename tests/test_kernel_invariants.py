"""The kernel's own invariants: known counts, the naive solver, and links put back.

Quick checks for work on ``dlx/kernels/links/kernel.py``: every search here runs to its end (or is
unwound by ``batch``) and must leave the link arrays exactly as ``dlx.kernels.links.layout.arrays``
built them; early stops of a commit (a dead branch) must undo exactly what they did.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import DATA, EXPECTED, assert_links_restored, examples, run_to_end
from strategies import problems

import dlx
from dlx.kernels.links import kernel, layout
from dlx.verify import check, naive_solutions

QUICK = [name for name in EXPECTED if not name.startswith(("pent5", "pent6", "scott_all"))]
SLOW = [name for name in EXPECTED if name not in QUICK]


def count_and_check(paused_search, name: str) -> None:
    """Count a benchmark file with small node budgets (many pauses) and check it."""
    p = dlx.read(DATA / f"{name}.dlx")
    search = paused_search(p)  # resume often: the state must survive every pause
    while True:
        code = search.run()
        if code == kernel.DONE:
            break
        assert code == kernel.PAUSED
        search.sanity()
    assert search.stats.solutions == EXPECTED[name]
    assert_links_restored(search, p)


@pytest.mark.parametrize("name", QUICK)
def test_known_counts_and_links_restored(paused_search, name):
    count_and_check(paused_search, name)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_known_counts_and_links_restored_slow(paused_search, name):
    count_and_check(paused_search, name)


def test_stream_of_a_benchmark_is_checked_and_distinct():
    p = dlx.read(DATA / "pent4x15_sym.dlx")
    found = set()
    for s in dlx.solutions(p):
        check(p, s.options)
        found.add(frozenset(s.options))
    assert len(found) == EXPECTED["pent4x15_sym"]


@pytest.mark.oracle
@settings(max_examples=examples(300), deadline=None)
@given(problems(max_options=9))
def test_random_problems_match_naive_and_restore_links(p):
    expected = naive_solutions(p)
    search = dlx.Search(p)
    found = set()
    while True:
        code = search.run(stream=True)
        search.sanity()
        if code == kernel.DONE:
            break
        if code == kernel.SOLUTION:
            options = search.current_options()
            check(p, options)
            found.add(frozenset(options))
    assert found == expected
    assert search.stats.solutions == len(expected)
    assert_links_restored(search, p)


@pytest.mark.oracle
@settings(max_examples=examples(100), deadline=None)
@given(problems(), st.integers(0, 3))
def test_split_leaves_and_replays_restore_links(p, depth):
    total = len(naive_solutions(p))
    split = dlx.Search(p, split_depth=depth)
    found = 0
    while True:
        code = split.run()
        split.sanity()
        if code == kernel.DONE:
            break
        if code == kernel.LEAF:
            sub = dlx.Search(p, prefix=split.path())
            run_to_end(sub)
            found += sub.stats.solutions
            assert_links_restored(sub, p)
    assert_links_restored(split, p)
    assert found + split.stats.solutions == total


def test_batch_restores_links_and_matches_forced_counts():
    p = dlx.read(DATA / "pent3x20_sym.dlx")
    before = layout.arrays(p)
    node, item = before.node.copy(), before.item.copy()
    solution = dlx.first(p).options
    forced_sets = [[], [solution[0]], [solution[1], solution[2]], [0]]
    result = dlx.batch(p, forced_sets, limit=1000)
    for forced, n in zip(forced_sets, result.counts, strict=True):
        solutions = list(dlx.solutions(p, forced=forced))
        for s in solutions:
            check(p, s.options)
        assert n == len(solutions)
    # batch works on copies; the problem's own arrays are untouched
    assert np.array_equal(before.node, node) and np.array_equal(before.item, item)
    # a batch stopped early by its limit unwinds: the next set still counts right
    limited = dlx.batch(p, [[], []], limit=1)
    assert list(limited.counts) == [1, 1]


def test_batch_kernel_leaves_links_as_found():
    p = dlx.read(DATA / "pent3x20_sym.dlx")
    arrays = layout.arrays(p)
    state = layout.new_state(arrays, arrays.max_level)
    counts = np.zeros(2, np.int64)
    first = np.zeros((2, arrays.max_level), np.int32)
    stats = np.zeros((2, 3), np.int64)
    forced, start = np.zeros(0, np.int32), np.zeros(3, np.int64)
    kernel.search_batch(state, None, forced, start, 1, counts, first, stats)
    assert list(counts) == [1, 1]
    assert np.array_equal(state.node, arrays.node) and np.array_equal(state.item, arrays.item)
    assert kernel.sanity(state.node, state.item, arrays.second) == (kernel.SANE, 0)


def test_sanity_finds_a_broken_link():
    p = dlx.read(DATA / "pent3x20_sym.dlx")
    search = dlx.Search(p)
    search.sanity()
    x = int(search.node[layout.DLINK, 1])
    search.node[layout.ULINK, x] = 0  # the first node of item 1 no longer points up
    with pytest.raises(AssertionError, match="fault 3 at item 1"):
        search.sanity()
    search.node[layout.ULINK, x] = 1
    search.node[layout.TOP, 1] += 1  # item 1's length is wrong
    with pytest.raises(AssertionError, match="fault 5 at item 1"):
        search.sanity()
