"""Random small problems against the naive solver (tests marked ``oracle`` also run
with ``NUMBA_DISABLE_JIT=1`` in CI, so the kernel's Python reading is checked too)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import examples, option_sets, run_to_end
from strategies import problems

import dlx
from dlx.kernels.links import kernel, layout
from dlx.verify import naive_solutions

pytestmark = pytest.mark.oracle


def assert_matches_naive(p: dlx.Problem) -> None:
    """Streamed, counted and naive solutions agree; links come back to their start."""
    expected = naive_solutions(p)
    search = run_to_end(dlx.Search(p, budget=3))  # a pause every 3 nodes, each checked
    assert search.stats.solutions == len(expected)
    arrays = layout.arrays(p)
    assert np.array_equal(search.node, arrays.node)
    assert np.array_equal(search.item, arrays.item)
    assert option_sets(dlx.solutions(p)) == expected
    assert dlx.count(p).solutions == len(expected)


@settings(max_examples=examples(400), deadline=None)
@given(problems(bounds=False))
def test_random_xcc_matches_naive(p):
    assert_matches_naive(p)


@settings(max_examples=examples(400), deadline=None)
@given(problems())
def test_random_mcc_matches_naive(p):
    assert_matches_naive(p)


@settings(max_examples=examples(300), deadline=None)
@given(problems(), st.data())
def test_split_and_replay_partition_the_tree(p, data):
    """The leaves of a split, replayed, count every solution exactly once."""
    total = dlx.count(p).solutions
    depth = data.draw(st.integers(0, 3))
    split = dlx.Search(p, split_depth=depth)
    paths = []
    while True:
        code = split.run()
        split.sanity()
        if code == kernel.LEAF:
            paths.append(split.path())
        elif code == kernel.DONE:
            break
    found = split.stats.solutions
    for path in paths:
        sub = run_to_end(dlx.Search(p, prefix=path))
        found += sub.stats.solutions
        assert np.array_equal(sub.node, layout.arrays(p).node)
    assert found == total


@settings(max_examples=examples(300), deadline=None)
@given(problems(bounds=False), st.data())
def test_forced_options(p, data):
    """Forcing options keeps exactly the solutions that contain them."""
    everything = naive_solutions(p)
    base = data.draw(st.sampled_from(sorted(everything, key=sorted))) if everything else set()
    forced = data.draw(st.lists(st.sampled_from(sorted(base)), unique=True)) if base else []
    expected = {s for s in everything if set(forced) <= s}
    assert option_sets(dlx.solutions(p, forced=forced)) == expected
    result = dlx.batch(p, [forced, []], limit=1000)
    assert list(result.counts) == [len(expected), len(everything)]
    if expected:
        assert frozenset(result.first[0]) in expected


def forced_set_error(p: dlx.Problem, forced: list[int]) -> bool:
    """Whether forcing ``forced`` is refused, from the rules: an option without a
    primary item of bounds 1:1, a primary item above its upper bound, or a secondary
    item used twice without one shared colour."""
    uses: dict[str, list[str | None]] = {}
    for k in forced:
        entries = p.option_entries(k)
        if not any(name in p.primary and p.bounds(name) == (1, 1) for name, _ in entries):
            return True
        for name, colour in entries:
            uses.setdefault(name, []).append(colour)
    for name, colours in uses.items():
        if name in p.primary and len(colours) > p.bounds(name)[1]:
            return True
        if name in p.secondary and len(colours) > 1:
            if None in colours or len(set(colours)) > 1:
                return True
    return False


@settings(max_examples=examples(300), deadline=None)
@given(problems(), st.data())
def test_batch_refuses_exactly_the_bad_forced_sets(p, data):
    """Any options, in several sets: ``batch`` refuses them iff one set breaks a rule."""
    option = st.integers(0, p.n_options - 1)
    sets = data.draw(st.lists(st.lists(option, max_size=4), min_size=1, max_size=4))
    bad = any(forced_set_error(p, forced) for forced in sets)
    if bad:
        with pytest.raises(dlx.ProblemError):
            dlx.batch(p, sets, limit=1)
    else:
        result = dlx.batch(p, sets, limit=1)
        assert [list(f) for f in result.forced] == sets
