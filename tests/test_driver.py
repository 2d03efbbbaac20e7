"""The driver under every kernel (``dlx.driver.driver``): one budget, limit and restart loop
for all of them; each kernel's layout built from the problem alone, once; and the
bitset kernel's ``sanity()`` at every pause."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from shared import as_set, checked_solutions, stream_to_end

import dlx
from dlx.driver.codes import DONE, LEAF, PAUSED
from dlx.driver.driver import Driver
from dlx.engines import ENGINES
from dlx.kernels.bitset import layout as bitlayout
from dlx.kernels.bitset.search import BitMemo, BitsetSearch
from dlx.kernels.links import layout as linkslayout
from dlx.verify import check
from tests.boards import dominoes, fibonacci, queens

DATA = Path(__file__).resolve().parent.parent / "data" / "dlx"
with open(DATA / "EXPECTED.tsv") as f:
    EXPECTED = {name: int(n) for name, n in csv.reader(f, delimiter="\t")}

SHARED = ("run", "next_budget", "adapt_budget", "fraction", "path", "path_weight", "stats")


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_every_kernel_runs_under_the_one_driver(engine):
    """The loop, limits, budget and progress are the driver's, not copied per kernel."""
    search_class = ENGINES[engine].search
    assert issubclass(search_class, Driver)
    for name in SHARED:
        assert getattr(search_class, name) is getattr(Driver, name), name


def test_the_bitset_layout_reads_the_problem_not_the_dancing_links_arrays(monkeypatch):
    problem = dlx.read(DATA / "pent3x20_sym.dlx")

    def refused(*args, **kwargs):
        raise AssertionError("the bitset kernel read the dancing-links arrays")

    monkeypatch.setattr(linkslayout, "compile_options", refused)
    before = set(vars(problem))
    assert dlx.count(problem, engine="bitset") == EXPECTED["pent3x20_sym"]
    assert set(vars(problem)) == before  # nothing stored on the problem by another module


def test_a_layout_is_built_once_and_forgotten_when_the_problem_changes():
    problem = dominoes(2, 3)
    lay = bitlayout.layout(problem)
    assert bitlayout.layout(problem) is lay
    assert bitlayout.layout(problem.with_propagation("domination")) is lay  # a copy shares it
    problem.add_option(["0,0"])
    assert bitlayout.layout(problem) is not lay
    assert len(bitlayout.layout(problem).option) == len(lay.option) + 1
    assert dlx.count(problem, engine="bitset") == dlx.count(problem) == 3


def paused_to_the_end(search) -> None:
    """Count with ``search`` to its end, checking its arrays at every pause."""
    while search.run() == PAUSED:
        search.sanity()
    search.sanity()
    assert search.done


@pytest.mark.parametrize("name", ["pent3x20_sym", "scott_sym", "pent4x15_sym"])
def test_bitset_sanity_holds_at_every_pause(name):
    problem = dlx.read(DATA / f"{name}.dlx")
    search = BitsetSearch(problem, budget=997)
    paused_to_the_end(search)
    assert search.solutions == EXPECTED[name]
    with_memo = BitsetSearch(problem, budget=997, memo=BitMemo.of(problem))
    paused_to_the_end(with_memo)
    assert with_memo.solutions == EXPECTED[name]


def test_bitset_sanity_holds_in_streams_with_counters():
    problem = dlx.Problem(primary=["a", "b", "c", "d"], bounds={"d": (1, 2)})
    for option in (["a", "d"], ["b", "d"], ["c", "d"], ["a", "b"], ["c"], ["b"], ["a"]):
        problem.add_option(option)
    found = stream_to_end(BitsetSearch(problem, budget=1))
    for options in found:
        check(problem, options)
    assert {frozenset(s) for s in found} == dlx.naive_solutions(problem)


def test_bitset_sanity_catches_a_broken_state():
    problem = dlx.read(DATA / "pent3x20_sym.dlx")
    search = BitsetSearch(problem, budget=50)
    while search.level < 3:
        assert search.run() == PAUSED
    search.sanity()
    state = search._state
    for array, row in ((state.key, 2), (state.free, 1), (state.key_hash, 3)):
        saved = array.copy()
        array[row] ^= np.uint64(1) if array.ndim == 1 else np.uint64(1) << np.uint64(0)
        with pytest.raises(AssertionError):
            search.sanity()
        array[...] = saved
    search.sanity()


def test_overflow_restarts_with_wider_counts_for_every_kernel():
    """Domino tilings of a 2 x 100 strip: F(101) > 2**64 (every kernel with a memo)."""
    problem = dominoes(100, 2)
    expected = 573147844013817084101  # F(101)
    for engine in sorted(ENGINES):
        if ENGINES[engine].memo(problem) is None:
            continue  # a kernel without a memo (mcc) would meet its 10**20 leaves one by one
        count = dlx.count(problem, engine=engine)
        assert count == expected and count.complete, engine


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_split_paths_replay_the_tree(engine):
    """The leaves of a split at depths 1 to 3, run as prefixes (sharing one memo),
    count what the whole search counts, and their weights sum to at most 1."""
    problem = dlx.read(DATA / "scott_sym.dlx")
    row = ENGINES[engine]
    for depth in (1, 2, 3):
        search = row.search(problem, split_depth=depth)
        leaves, weights = [], 0.0
        while (code := search.run()) != DONE:
            if code == LEAF:
                leaves.append(tuple(search.path()))
                weights += search.path_weight()
        assert weights <= 1.0 + 1e-9
        counted = search.solutions
        memo = row.memo(problem)
        for path in leaves:
            sub = row.search(problem, prefix=path, memo=memo)
            while sub.run() == PAUSED:
                sub.sanity()
            counted += sub.solutions
        assert counted == EXPECTED["scott_sym"]


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_limits_and_streams(engine):
    """A solution limit, a node limit and a limited stream stop every kernel where
    asked (each solution checked); unlimited, its stream lists every solution once."""
    problem = dlx.read(DATA / "scott_sym.dlx")
    assert dlx.count(problem, limit=10, engine=engine).solutions == 10
    assert not dlx.count(problem, limit=10, engine=engine).complete
    stopped = dlx.count(problem, node_limit=50, engine=engine)
    assert not stopped.complete and stopped.stats.nodes == 50
    assert "node limit 50" in stopped.stopped_by
    stream = dlx.solutions(problem, limit=3, engine=engine)
    assert len([check(problem, s.options) for s in stream]) == 3
    assert stream.stopped_by == "solution limit 3" and not stream.complete
    full = checked_solutions(ENGINES[engine].search(problem))
    assert len(full) == len(as_set(full)) == EXPECTED["scott_sym"]  # 65


@pytest.mark.parametrize(
    ("engine", "problem", "budget", "expected"),
    [
        ("bitset", lambda: dlx.read(DATA / "scott_sym.dlx"), 31, EXPECTED["scott_sym"]),
        ("tight", lambda: queens(7), 3, 40),  # OEIS A000170
    ],
)
def test_small_budgets_resume_to_the_same_answer(engine, problem, budget, expected):
    """A search paused every few nodes (its state sane at each pause) streams every
    solution once, each checked, and ends with its progress fraction at 1."""
    search = ENGINES[engine].search(problem(), budget=budget)
    found = checked_solutions(search)
    assert len(as_set(found)) == len(found) == expected
    assert search.fraction() == 1.0


@pytest.mark.parametrize(
    ("engine", "n"),
    [*[(e, n) for e in ("bitset", "tight") for n in (10, 92, 93, 200)], ("bitset", 400)],
)
def test_domino_strips_are_exact(engine, n):
    """The n x 2 strip has F(n + 1) domino tilings, F(93) < 2**64 < F(94): the count
    (with the kernel's memo, its state sane at every pause) starts with one limb and
    doubles them as it grows."""
    problem = dominoes(n, 2)
    row = ENGINES[engine]
    search = row.search(problem, memo=row.memo(problem))
    while search.run() == PAUSED:
        search.sanity()
    expected = fibonacci(n + 1)
    assert search.solutions == expected
    limbs = 1
    while expected >= 1 << (64 * limbs):
        limbs *= 2
    assert search.limbs == limbs  # started with one limb, doubled as the count grew
    assert dlx.count(problem, engine=engine).solutions == expected


@pytest.mark.parametrize("engine", ["bitset", "tight"])
def test_a_memo_shared_with_wider_counts_stays_exact(engine):
    """Two subproblems of 66 items with two identical options each share a memo (as a
    worker's tasks do): the first outgrows one limb (2**65) and stores two-limb counts
    under keys that the second, starting with one limb, meets at once. Reading only the
    low limb would add 0; the kernel starts again with more limbs instead."""
    n = 66
    problem = dlx.Problem(primary=[f"i{k}" for k in range(n)])
    for k in range(n):
        problem.add_option([f"i{k}"])
        problem.add_option([f"i{k}"])
    row = ENGINES[engine]
    memo = row.memo(problem)
    counts = []
    for path in ([0], [1]):
        search = row.search(problem, prefix=path, memo=memo)
        while search.run() == PAUSED:
            pass
        counts.append(search.solutions)
    assert counts == [2**65, 2**65]
