"""The solution graph's arguments, streams, weights and ZDDs read back: generating
functions, option counts, the lightest solutions and exact conditional and weighted
samples, each against brute force (``dlx.naive_solutions``) on small random problems.

Every solution a test sees goes through ``dlx.check``.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import DATA, EXPECTED, examples, load
from strategies import problems

import dlx
from dlx.solution_graph.sample import Descent, option_weights, randbelow


def _abc() -> dlx.Problem:
    """The module docstring's problem: solutions {0, 1}, {2, 3, 1}, {2, 4}."""
    p = dlx.Problem(primary=["a", "b", "c"])
    for option in (["a", "b"], ["c"], ["a"], ["b"], ["b", "c"]):
        p.add_option(option)
    return p


def _solutions(problem: dlx.Problem) -> list[frozenset[int]]:
    """The naive solver's solutions that ``dlx.count`` counts (no option without a
    primary item: such an option is in no solution, as in Knuth's DLX6)."""
    primary = set(problem.primary)
    useless = {
        k
        for k in range(problem.n_options)
        if not {name for name, _ in problem.option_entries(k)} & primary
    }
    return sorted(
        (s for s in dlx.naive_solutions(problem) if not s & useless), key=lambda s: sorted(s)
    )


@st.composite
def costed(draw, max_options: int = 9):
    """A small random exact-cover problem (options without primary items too) with a
    random cost per option."""
    base = draw(problems(bounds=False, colours=False, max_options=max_options))
    p = dlx.Problem(primary=base.primary, secondary=base.secondary)
    for k in range(base.n_options):
        p.add_option(base.option(k), cost=draw(st.integers(0, 6)))
    for _ in range(draw(st.integers(0, 2)) if base.secondary else 0):
        p.add_option(draw(st.lists(st.sampled_from(base.secondary), min_size=1, unique=True)))
    return p


# -- arguments (issue #42, point 4) ------------------------------------------------------


def test_sample_sizes_of_any_size_are_lazy():
    g = dlx.graph(_abc())
    first = next(iter(g.sample(2**70, seed=1)))
    dlx.check(g.problem, first.options)
    assert len(list(itertools.islice(g.sample(10**30, seed=2), 5))) == 5
    for bad in (2.5, "3", b"3", True, None):
        with pytest.raises(TypeError, match="sample size"):
            g.sample(bad)
    with pytest.raises(ValueError, match="sample size"):
        g.sample(-1)


@pytest.mark.parametrize("huge", [2**63, 10**30, math.inf])
def test_max_nodes_past_what_fits_is_no_bound(huge):
    g = dlx.graph(_abc(), max_nodes=huge)
    assert g.count == 3


@pytest.mark.parametrize(
    "keywords, error, message",
    [
        ({"max_nodes": 2.5}, TypeError, "max_nodes must be an integer"),
        ({"max_nodes": "10"}, TypeError, "max_nodes must be an integer"),
        ({"max_nodes": True}, TypeError, "max_nodes must be an integer"),
        ({"max_nodes": 0}, ValueError, "max_nodes must be an integer >= 1"),
        ({"max_nodes": -math.inf}, TypeError, "max_nodes"),
        ({"time_limit": math.nan}, ValueError, "time_limit"),
        ({"time_limit": "1"}, TypeError, "time_limit"),
    ],
)
def test_bad_bounds_are_refused_naming_the_argument(keywords, error, message):
    with pytest.raises(error, match=message):
        dlx.graph(_abc(), **keywords)


@pytest.mark.parametrize("problem", [None, "x.dlx", 3])
def test_what_is_not_a_problem_is_a_type_error(problem):
    with pytest.raises(TypeError, match="problem must be a dlx.Problem"):
        dlx.graph(problem)


@pytest.mark.parametrize("solution", [[0.7, 1], [0, 1.0], b"\x00\x01", "01", "０１", ["0", "1"]])
def test_rank_refuses_what_is_not_option_indices(solution):
    with pytest.raises(TypeError, match="option indices"):
        dlx.graph(_abc()).rank(solution)


def test_rank_and_unrank_take_numpy_integers():
    g = dlx.graph(_abc())
    assert g.rank(np.array([0, 1])) == 0 and g.unrank(np.int64(2)).options == (2, 4)
    with pytest.raises(TypeError):
        g.unrank(1.0)


def test_a_numpy_integer_seed_is_the_same_seed():
    g = dlx.graph(load("pent3x20_all"))
    assert list(g.sample(6, seed=np.int64(9))) == list(g.sample(6, seed=9))
    for bad in (1.5, "9", b"9"):
        with pytest.raises(TypeError, match="seed"):
            g.sample(2, seed=bad)


HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**80), 2**80),
    st.text(max_size=3),
    st.binary(max_size=3),
    st.sampled_from(
        ["３", "1_0", "cost", np.int64(2), np.float64(1.0), np.uint8(1), Fraction(1, 2)]
    ),
)
CALLS = {
    "sample size": lambda g, v: list(itertools.islice(g.sample(v, seed=1), 3)),
    "seed": lambda g, v: list(g.sample(2, seed=v)),
    "unrank": lambda g, v: g.unrank(v),
    "rank": lambda g, v: g.rank(v),
    "rank of one": lambda g, v: g.rank([v]),
    "max_nodes": lambda g, v: dlx.graph(g.problem, max_nodes=v),
    "time_limit": lambda g, v: dlx.graph(g.problem, time_limit=v),
    "k_lightest": lambda g, v: g.k_lightest(v),
    "weight": lambda g, v: g.generating_function(v),
    "given": lambda g, v: list(g.sample(1, given=v)),
    "forbid": lambda g, v: list(g.sample(1, forbid=v)),
    "weights": lambda g, v: list(g.sample(1, weights=v)),
}


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(sorted(CALLS)), HOSTILE)
def test_hostile_values_get_an_answer_or_a_documented_error(call, value):
    """Every argument of the graph's API, given None, bools, floats (NaN, infinities),
    huge ints, strings, bytes, fullwidth digits, numpy scalars: an answer, or TypeError,
    ValueError or IndexError naming what is wrong; never a hang, an AttributeError, an
    OverflowError or numba's errors."""
    g = _hostile_graph()
    try:
        CALLS[call](g, value)
    except (TypeError, ValueError, IndexError) as e:
        assert str(e) and "\n" not in str(e)


@functools.cache
def _hostile_graph() -> dlx.Graph:
    """The graph the hostile values are tried on (built once)."""
    return dlx.graph(_abc())


# -- options without a primary item (issue #42, point 5) ---------------------------------


@settings(max_examples=examples(150), deadline=None)
@given(costed())
def test_options_without_primary_items_are_ignored_as_count_does(problem):
    g = dlx.graph(problem)
    naive = _solutions(problem)
    assert g.count == len(naive) == dlx.count(problem)
    assert {frozenset(s.options) for s in g.solutions()} == set(naive)


# -- samples that stream, and the caller's generator --------------------------------------


class _Stop(Exception):
    """Raised by ``_FirstLine`` once a solution is out."""


class _FirstLine:
    """A stdout that stops the command at its first flush after a solution's line."""

    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text
        return len(text)

    def flush(self):
        if self.text:
            raise _Stop


def test_the_dlx_command_prints_its_first_sample_before_drawing_the_rest(monkeypatch):
    from dlx.cli import main
    from dlx.solution_graph.graph import Graph

    drawn = []
    unrank_many = Graph._unrank_many

    def counted(self, ranks):
        drawn.append(len(ranks))
        return unrank_many(self, ranks)

    monkeypatch.setattr(Graph, "_unrank_many", counted)
    monkeypatch.setattr("sys.stdout", _FirstLine())
    with pytest.raises(_Stop):
        main([str(DATA / "pent3x20_all.dlx"), "--sample", "30000000", "--no-progress"])
    assert sum(drawn) <= 16  # one small batch drawn, not 30 million


def test_a_callers_random_generator():
    g = dlx.graph(load("pent3x20_all"))
    assert list(g.sample(5, rng=random.Random(4))) == list(g.sample(5, seed=4))
    drawn = list(g.sample(40, rng=np.random.default_rng(4)))
    assert list(g.sample(40, rng=np.random.default_rng(4))) == drawn
    for s in drawn:
        dlx.check(g.problem, s.options)
    with pytest.raises(TypeError, match="not both"):
        g.sample(1, seed=1, rng=random.Random(1))
    with pytest.raises(TypeError, match="rng must be"):
        g.sample(1, rng=np.random.RandomState(1))


@pytest.mark.parametrize("n", [1, 2, 7, 2**63, 2**63 + 1, 2**64 + 3, 3**50])
def test_randbelow_stays_below_for_both_generators(n):
    for rng in (random.Random(n), np.random.default_rng(n)):
        draws = [randbelow(rng, n) for _ in range(200)]
        assert all(isinstance(x, int) and 0 <= x < n for x in draws)
        assert n < 3 or len(set(draws)) > 1


def test_randbelow_is_uniform_on_a_range_past_two_to_the_64_with_numpy():
    # the top bit of a draw below n = 3 * 2**63 is set for a third of the range
    n, rng = 3 << 63, np.random.default_rng(2026)
    top = sum(randbelow(rng, n) >= 2 << 63 for _ in range(30_000))
    assert abs(top - 10_000) < 4.5 * math.sqrt(30_000 * (1 / 3) * (2 / 3))


# -- weights, against brute force ------------------------------------------------------------


def _total(problem, solution, weight) -> int:
    """A solution's weight: its size, its cost, or the sum of ``weight``."""
    if weight is None:
        return len(solution)
    if weight == "cost":
        return sum(problem.option_cost(k) for k in solution)
    return sum(weight[k] for k in solution)


@settings(max_examples=examples(150), deadline=None)
@given(costed(), st.data())
def test_generating_functions_and_option_counts_agree_with_brute_force(problem, data):
    g = dlx.graph(problem)
    naive = _solutions(problem)
    free = data.draw(st.lists(st.integers(-5, 9), min_size=problem.n_options,
                              max_size=problem.n_options))  # fmt: skip
    for weight in (None, "cost", free):
        expected: dict[int, int] = {}
        for s in naive:
            w = _total(problem, s, weight)
            expected[w] = expected.get(w, 0) + 1
        gf = g.generating_function(weight)
        assert gf == expected and list(gf) == sorted(gf)
        assert all(type(c) is int for c in gf.values())
    assert g.option_counts() == [sum(k in s for s in naive) for k in range(problem.n_options)]


@settings(max_examples=examples(150), deadline=None)
@given(costed(), st.integers(0, 12))
def test_the_k_lightest_are_the_first_k_by_cost_then_rank(problem, k):
    g = dlx.graph(problem)
    ranked = sorted((_total(problem, s.options, "cost"), g.rank(s), s) for s in g.solutions())
    lightest = g.k_lightest(k)
    assert [(c, s.options) for c, s in lightest] == [(c, s.options) for c, _, s in ranked[:k]]
    for cost, s in lightest:
        dlx.check(problem, s.options)
        assert cost == _total(problem, s.options, "cost")
    if ranked:
        assert g.min_cost() == ranked[0][0]
        assert g.min_cost(None) == min(len(s.options) for _, _, s in ranked)
    else:
        with pytest.raises(ValueError, match="no solution"):
            g.min_cost()


@settings(max_examples=examples(150), deadline=None)
@given(costed())
def test_unrank_in_cost_order_is_every_solution_by_cost_then_rank(problem):
    g = dlx.graph(problem)
    ranked = sorted((_total(problem, s.options, "cost"), g.rank(s), s) for s in g.solutions())
    assert {frozenset(s.options) for _, _, s in ranked} == set(_solutions(problem))
    by_cost = [g.unrank(i, order="cost") for i in range(g.count)]
    assert [s.options for s in by_cost] == [s.options for _, _, s in ranked]
    for i, s in enumerate(by_cost):
        dlx.check(problem, s.options)
        assert g.rank(s, order="cost") == g.rank(s.options[::-1], order="cost") == i
    with pytest.raises(IndexError, match="no solution"):
        g.unrank(g.count, order="cost")


@pytest.mark.slow
def test_unrank_in_cost_order_past_two_to_the_64():
    """The domino tilings of 14 x 14 (OEIS A004003: 112202208776036178000000), the
    horizontal dominoes costing 1: the first and last tilings in cost order are the
    cheapest and the dearest, and rank gives their places back."""
    from shared import dominoes

    base = dominoes(14, 14)
    p = dlx.Problem(primary=base.primary)
    for k in range(base.n_options):
        cells = base.option(k)
        p.add_option(cells, cost=int(cells[0].split(",")[0] == cells[1].split(",")[0]))
    g = dlx.graph(p)
    gf = g.generating_function("cost")
    for i in (0, 12345, g.count // 3, g.count - 1):
        s = g.unrank(i, order="cost")
        dlx.check(p, s.options)
        assert g.rank(s, order="cost") == i
    assert _total(p, g.unrank(0, order="cost").options, "cost") == min(gf)
    assert _total(p, g.unrank(g.count - 1, order="cost").options, "cost") == max(gf)
    with pytest.raises(ValueError, match='order must be "rank" or "cost"'):
        g.unrank(0, order="weight")


def _conditions(problem, data):
    """Random ``given``, ``forbid`` and ``weights`` (ints and Fractions, zeros too)."""
    n = problem.n_options
    chosen = data.draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))
    forbid = data.draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))
    weight = st.one_of(st.integers(0, 4), st.fractions(0, 3, max_denominator=5))
    weights = data.draw(st.one_of(st.none(), st.lists(weight, min_size=n, max_size=n)))
    return chosen, forbid, weights


@settings(max_examples=examples(200), deadline=None)
@given(costed(max_options=8), st.data())
def test_conditional_and_weighted_samples_are_exact(problem, data):
    """The descent's probability of every solution, multiplied out exactly, is its weight
    over the total weight of the solutions that meet the conditions."""
    g = dlx.graph(problem)
    chosen, forbid, weights = _conditions(problem, data)
    try:
        per_option = option_weights(problem, weights, chosen, forbid)
    except ValueError:  # given options that share an item, or one without a primary
        return
    descent = Descent(g, per_option)
    wanted = {}
    for s in _solutions(problem):
        if set(chosen) <= s and not s & set(forbid):
            w = math.prod(Fraction(1) if weights is None else Fraction(weights[k]) for k in s)
            wanted[s] = w
    total = sum(wanted.values())
    assert descent.total == total
    for s in _solutions(problem):
        expected = wanted.get(s, 0) / total if total else 0
        assert descent.probability(s) == expected
    if total:
        for s in itertools.islice(
            g.sample(30, seed=1, given=chosen, forbid=forbid, weights=weights), 30
        ):
            dlx.check(problem, s.options)
            assert wanted.get(frozenset(s.options), 0) > 0
    else:
        with pytest.raises(ValueError, match="weight above 0"):
            g.sample(1, given=chosen, forbid=forbid, weights=weights)


def test_conditions_and_weights_are_checked():
    g = dlx.graph(_abc())
    with pytest.raises(ValueError, match="share item 'a'"):
        g.sample(1, given=[0, 2])
    with pytest.raises(ValueError, match="no option 9"):
        g.sample(1, forbid=[9])
    with pytest.raises(TypeError, match="weights"):
        g.sample(1, weights=[1.5, 1, 1, 1, 1])
    with pytest.raises(ValueError, match="one per option"):
        g.sample(1, weights=[1, 1])
    with pytest.raises(ValueError, match=">= 0"):
        g.sample(1, weights=[Fraction(-1, 2), 1, 1, 1, 1])
    assert {s.options for s in g.sample(20, seed=3, given=[4])} == {(2, 4)}
    assert {s.options for s in g.sample(20, seed=3, forbid=[0, 4])} == {(2, 3, 1)}
    with pytest.raises(ValueError, match="weight"):
        g.generating_function("size")
    with pytest.raises(TypeError, match="weight"):
        g.k_lightest(2, weight=[0.5] * 5)


def test_a_weighted_sample_follows_its_weights():
    # solutions {0, 1}, {2, 3, 1}, {2, 4}: weights 2*1, 1*1*1, 1*3: odds 2:1:3
    g = dlx.graph(_abc())
    drawn = [s.options for s in g.sample(6000, seed=5, weights=[2, 1, 1, 1, 3])]
    seen = {s: drawn.count(s) / 6000 for s in set(drawn)}
    assert set(seen) == {(0, 1), (2, 3, 1), (2, 4)}
    for s, p in (((0, 1), 2 / 6), ((2, 3, 1), 1 / 6), ((2, 4), 3 / 6)):
        assert abs(seen[s] - p) < 4.5 * math.sqrt(p * (1 - p) / 6000)


def test_generating_function_past_two_to_the_64():
    # the domino tilings of 14 x 14, 112202208776036178000000 (OEIS A004003), each of
    # 98 dominoes
    from shared import dominoes

    g = dlx.graph(dominoes(14, 14))
    assert g.generating_function() == {98: 112_202_208_776_036_178_000_000}
    counts = g.option_counts()
    # each of the 196 cells is covered once by every tiling: the options through a cell
    # add up to the count
    assert sum(counts) == 98 * g.count
    assert counts[0] + counts[1] == g.count  # the two dominoes at the corner cell


# -- ZDDs read back ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["pent3x20_all", "pent6x10_sym"])
def test_read_zdd_gives_the_graph_back(name, tmp_path):
    problem = load(name)
    g = dlx.graph(problem)
    g.write_zdd(tmp_path / "g.zdd")
    h = dlx.read_zdd(tmp_path / "g.zdd", problem)
    assert h.count == g.count == EXPECTED[name]
    for a, b in ((h.node_edge, g.node_edge), (h.edge_child, g.edge_child),
                 (h.edge_option, g.edge_option), (h.node_count, g.node_count)):  # fmt: skip
        assert np.array_equal(a, b)
    assert [s.options for s in h.sample(5, seed=1)] == [s.options for s in g.sample(5, seed=1)]


def test_read_zdd_reads_what_knuths_dlx6_writes():
    # tests/data/pent3x20_all.dlx6.zdd: Knuth's DLX6 with option m1 on
    # data/dlx/pent3x20_all.dlx (see tests/data/ZDD_SOURCES.md)
    problem = load("pent3x20_all")
    h = dlx.read_zdd(DATA.parent.parent / "tests" / "data" / "pent3x20_all.dlx6.zdd", problem)
    assert h.count == EXPECTED["pent3x20_all"] == 8
    found = {frozenset(s.options) for s in h.solutions()}
    assert found == {frozenset(s.options) for s in dlx.graph(problem).solutions()}
    for s in h.solutions():
        dlx.check(problem, s.options)


@pytest.mark.parametrize(
    "text, message",
    [
        ("2: (~1?0:1)\n3: (~0?0:2)\n", "uncovered"),  # {a, b} alone: c left open
        ("2: (~1?0:1)\n3: (~5?2:1)\n4: (~0?0:3)\n", "different items"),
        ("2: (~1?0:3)\n3: (~0?0:2)\n", "bottom-up"),
        ("2: (~9?0:1)\n3: (~0?0:2)\n", "no option 9"),
        ("2: (~1?0:1)\nnonsense\n", ":2: not a ZDD line"),
        ("2: (~1?0:1)\n", "dummy root"),
        ("2: (~2?0:1)\n3: (~5?0:2)\n4: (~0?0:3)\n", "does not fit"),
    ],
)
def test_read_zdd_refuses_what_is_not_a_solution_graph(text, message, tmp_path):
    path = tmp_path / "bad.zdd"
    path.write_text(text)
    with pytest.raises(dlx.ProblemError, match=message):
        dlx.read_zdd(path, _abc())
