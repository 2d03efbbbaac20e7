"""The multiplicity kernel against the naive solver, the dancing-links kernel and known
counts.

Random small problems with bounds ``lo:hi`` are compared with the naive solver as sets
of solutions (every one checked by ``dlx.verify.check``), searches paused every few
nodes check their rows with the kernel's ``sanity()`` at each pause, splits replayed
count every solution once, and the files of ``data/mcc`` (written by Knuth's
generators) have the counts his SSMCC gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx
from dlx import engines
from dlx.driver.codes import DONE, LEAF, PAUSED
from dlx.kernels.mcc.layout import layout, refuses, why_not
from dlx.kernels.mcc.search import MccSearch
from dlx.verify import naive_solutions
from tests.shared import as_set, checked_solutions, examples
from tests.strategies import problems

DATA = Path(__file__).resolve().parent.parent / "data" / "mcc"
# data/mcc/EXPECTED.tsv: counts from Knuth's SSMCC (see data/mcc/SOURCES.md)
EXPECTED = dict(
    (name, int(n)) for name, n in (line.split() for line in (DATA / "EXPECTED.tsv").open())
)


def mcc_count(problem, budget=None, **choices) -> int:
    """The kernel's full count, its rows checked at every pause."""
    search = MccSearch(problem, budget=budget, **choices)
    while search.run() == PAUSED:
        search.sanity()
    search.sanity()
    assert search.done
    return search.solutions


# -- against the naive solver --------------------------------------------------------


@pytest.mark.oracle
@settings(max_examples=examples(500), deadline=None)
@given(problems())
def test_random_mcc_matches_naive(p):
    expected = naive_solutions(p)
    assert as_set(checked_solutions(MccSearch(p, budget=2))) == expected
    assert mcc_count(p, budget=3) == len(expected)
    assert dlx.count(p, engine="mcc").solutions == len(expected)


@pytest.mark.oracle
@settings(max_examples=examples(300), deadline=None)
@given(problems(bounds=False))
def test_random_xcc_matches_naive(p):
    expected = naive_solutions(p)
    assert as_set(checked_solutions(MccSearch(p))) == expected


@pytest.mark.oracle
@settings(max_examples=examples(200), deadline=None)
@given(problems(max_options=10), st.integers(0, 4))
def test_split_and_replay_partition_the_tree(p, depth):
    """The leaves of a split at ``depth``, each replayed from its path, count every
    solution once."""
    split = MccSearch(p, split_depth=depth)
    paths = []
    while True:
        code = split.run()
        split.sanity()
        if code == LEAF:
            paths.append(split.path())
        elif code == DONE:
            break
    found = split.solutions + sum(mcc_count(p, prefix=path) for path in paths)
    assert found == len(naive_solutions(p))


@pytest.mark.oracle
@settings(max_examples=examples(200), deadline=None)
@given(problems(), st.data())
def test_forced_options_and_limits(p, data):
    """Forced options (each with a 1:1 item) and a solution limit count what the naive
    solver says."""
    every = naive_solutions(p)
    forcible = [
        k
        for k in range(p.n_options)
        if any(n in p.primary and p.bounds(n) == (1, 1) for n, _ in p.option_entries(k))
    ]
    forced = data.draw(st.lists(st.sampled_from(forcible), max_size=1)) if forcible else []
    expected = {s for s in every if set(forced) <= s}
    assert mcc_count(p, forced=forced) == len(expected)
    limit = data.draw(st.integers(1, 3))
    search = MccSearch(p)
    search.run(max_solutions=limit)
    assert search.solutions == min(limit, len(every))


# -- known counts, and the dancing-links kernel agrees -----------------------------------


@pytest.mark.parametrize("name", [n for n in EXPECTED if n != "queendom_8_5"])
def test_known_counts_of_knuths_generators(name):
    """Counts of Knuth's SSMCC on his generators' files (data/mcc/EXPECTED.tsv); the
    dancing-links kernel agrees."""
    p = dlx.read(DATA / f"{name}.dlx")
    assert mcc_count(p) == EXPECTED[name]
    assert dlx.count(p, engine="dlx").solutions == EXPECTED[name]


@pytest.mark.slow
def test_queendom_8_5():
    """4,860 ways for five queens to attack every cell of 8x8 (Knuth's SSMCC)."""
    p = dlx.read(DATA / "queendom_8_5.dlx")
    assert dlx.count(p, engine="mcc").solutions == EXPECTED["queendom_8_5"]


def test_queendom_solutions_are_checked():
    p = dlx.read(DATA / "queendom_6_3.dlx")
    found = checked_solutions(MccSearch(p, budget=50))
    assert len(found) == EXPECTED["queendom_6_3"]


# -- what it takes, and auto --------------------------------------------------------------


def test_why_not_and_refuses_name_the_reason():
    loop = dlx.Problem(primary=["go"], secondary=["ab", "bc", "ca"])
    for u, v, e in ((0, 1, "ab"), (1, 2, "bc"), (2, 0, "ca")):
        loop.add_loop_edge(e, u, v, on="1")
    loop.add_option(["go", "ab:1", "bc:1", "ca:1"])
    assert why_not(loop) == "it has loop items"
    with pytest.raises(dlx.ProblemError, match="mcc kernel cannot search this problem: it has"):
        dlx.count(loop, engine="mcc")
    exact = dlx.Problem(primary=["a"])
    exact.add_option(["a"])
    assert why_not(exact) is None
    assert refuses(exact) == "every primary item has bounds 1:1 (the tight kernel's)"


def test_auto_takes_the_mcc_kernel_for_multiplicities():
    p = dlx.read(DATA / "queendom_7_4.dlx")
    assert engines.resolve("auto", p) == "mcc"
    assert engines.resolve("auto", dlx.read(DATA / "motley_5_5.dlx")) == "mcc"


@settings(max_examples=150, deadline=None)
@given(problems(max_options=12))
def test_layout_conflicts_follow_their_definition(p):
    """Each option's conflict mask, read bit by bit, is the glossary's, worked out
    option by option: itself, the options that share a primary item of ``hi`` 1 with
    it, and those that share a secondary item without agreeing on its colour (no colour
    agrees with none)."""
    if why_not(p) is not None:
        return
    lay = layout(p)
    bit = {int(k): b for b, k in enumerate(lay.option)}
    items = [dict((*e.split(":"), "")[:2] for e in p.option(k)) for k in range(p.n_options)]
    hi = {name: p.bounds(name)[1] for name in p.primary}
    for i in range(p.n_options):
        for j in range(p.n_options):
            shared = items[i].keys() & items[j].keys()
            clash = i == j or any(
                hi[x] == 1 if x in hi else not (items[i][x] and items[i][x] == items[j][x])
                for x in shared
            )
            found = bool(int(lay.conflict[bit[i], bit[j] >> 6]) >> (bit[j] & 63) & 1)
            assert found == clash, (i, j, items[i], items[j])


def test_layout_conflicts_leave_shared_multiplicities_alone():
    p = dlx.Problem(primary=["a", "b"], secondary=["s"], bounds={"a": (0, 2)})
    for option in (["a", "s:x"], ["a", "s:y"], ["a", "b"], ["b", "s:x"]):
        p.add_option(option)
    lay = layout(p)
    bit = {int(k): b for b, k in enumerate(lay.option)}
    clash = [[bool(lay.conflict[bit[i], 0] >> bit[j] & 1) for j in range(4)] for i in range(4)]
    assert clash == [
        [True, True, False, False],
        [True, True, False, True],
        [False, False, True, True],
        [False, True, True, True],
    ]


def test_tables_past_the_cap_leave_the_problem_to_dancing_links(monkeypatch):
    """A problem whose search arrays would pass the cap is refused before any array is
    made, and ``auto`` gives it to dancing links."""
    from dlx.kernels.mcc import layout as mcclayout

    p = dlx.read(DATA / "queendom_6_3.dlx")
    monkeypatch.setattr(mcclayout, "MAX_BYTES", 1000)
    assert why_not(p).startswith("its search arrays would take ")
    assert engines.resolve("auto", p) == "dlx"


@pytest.mark.parametrize("n", [1, 5, 63, 64, 65, 130])
def test_every_primary_item_is_active_at_the_root(n):
    """The root's active items (set by words, not an item at a time): bits 0 to n - 1,
    none past them; and the count of a chain of n items of bounds 0:2 is the naive one."""
    from dlx.kernels.mcc.search import MccSearch

    problem = dlx.Problem(
        primary=[f"i{k}" for k in range(n)], bounds={f"i{k}": (0, 2) for k in range(n)}
    )
    for k in range(n):
        problem.add_option([f"i{k}"] + ([f"i{k + 1}"] if k + 1 < n else []))
    search = MccSearch(problem)
    active = search._state.active[0]
    bits = [p for p in range(64 * len(active)) if int(active[p >> 6]) >> (p & 63) & 1]
    assert bits == list(range(n))
    if n <= 12:
        assert dlx.count(problem, engine="mcc").solutions == len(dlx.naive_solutions(problem))
