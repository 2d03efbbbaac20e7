"""The engine against the naive solver, known counts, and its own invariants."""

from __future__ import annotations

import math
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from boards import dominoes
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import problems

import dlx
from dlx import kernel
from dlx.verify import check, naive_solutions

DATA = Path(__file__).resolve().parent.parent / "data" / "dlx"
EXPECTED = dict(
    (name, int(n)) for name, n in (line.split() for line in (DATA / "EXPECTED.tsv").open())
)


def option_sets(stream) -> set[frozenset[int]]:
    """The solutions of a stream as sets of option indices, each one checked."""
    found = set()
    for s in stream:
        check(s.problem, s.options)
        key = frozenset(s.options)
        assert key not in found, "a solution was reported twice"
        found.add(key)
    return found


# -- the memo of subtree counts ------------------------------------------------------


def run_to_end(search: dlx.Search) -> dlx.Search:
    while search.run() != kernel.DONE:
        pass
    return search


# domino tilings of rectangles (OEIS A099390): 8x8 has 12,988,816
DOMINO_TILINGS = {(2, 12): 233, (3, 12): 2131, (6, 6): 6728, (8, 8): 12988816}


@pytest.mark.parametrize("shape", sorted(DOMINO_TILINGS))
def test_memo_counts_domino_tilings(shape):
    """Full counts reuse the counts of subtrees met before: 8x8 takes a few thousand
    nodes, where the plain search would enter one per tiling at least."""
    result = dlx.count(dominoes(*shape))
    assert result.complete and result.solutions == DOMINO_TILINGS[shape]
    assert result.stats.nodes < 5000


def test_memo_agrees_with_the_plain_search_and_restores_links():
    p = dominoes(6, 6)
    assert len(option_sets(dlx.solutions(p))) == 6728  # streams take no memo
    plain = run_to_end(dlx.Search(p))
    memo = run_to_end(dlx.Search(p, memo=dlx.Memo.of(p)))
    assert plain.stats.solutions == memo.stats.solutions == 6728
    assert memo.stats.nodes < plain.stats.nodes / 10
    assert np.array_equal(memo.node, p.arrays().node)
    assert np.array_equal(memo.item, p.arrays().item)


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


@settings(max_examples=300, deadline=None)
@given(problems(bounds=False, colours=False, max_primary=6, max_options=11))
def test_random_memo_counts_match_naive(p):
    """A 16-slot table (colliding keys overwrite each other) still counts exactly."""
    search = run_to_end(dlx.Search(p, memo=dlx.Memo.of(p, nbytes=256)))
    assert search.memo.keys.shape[0] == 16
    assert search.stats.solutions == len(naive_solutions(p))


@settings(max_examples=200, deadline=None)
@given(problems(bounds=False, colours=False, max_primary=10, max_options=40))
def test_random_memo_counts_match_the_plain_search(p):
    plain = run_to_end(dlx.Search(p))
    memo = run_to_end(dlx.Search(p, memo=dlx.Memo.of(p, nbytes=1024)))
    assert memo.stats.solutions == plain.stats.solutions
    assert memo.stats.nodes <= plain.stats.nodes


# -- random problems against the naive solver ----------------------------------------


def assert_matches_naive(p: dlx.Problem) -> None:
    """Streamed, counted and naive solutions agree; links come back to their start."""
    expected = naive_solutions(p)
    search = dlx.Search(p)
    while search.run() != kernel.DONE:
        pass
    assert search.stats.solutions == len(expected)
    arrays = p.arrays()
    assert np.array_equal(search.node, arrays.node)
    assert np.array_equal(search.item, arrays.item)
    assert option_sets(dlx.solutions(p)) == expected
    assert dlx.count(p).solutions == len(expected)


@settings(max_examples=1000, deadline=None)
@given(problems(bounds=False))
def test_random_xcc_matches_naive(p):
    assert_matches_naive(p)


@settings(max_examples=1000, deadline=None)
@given(problems())
def test_random_mcc_matches_naive(p):
    assert_matches_naive(p)


@settings(max_examples=300, deadline=None)
@given(problems(), st.data())
def test_split_and_replay_partition_the_tree(p, data):
    """The leaves of a split, replayed, count every solution exactly once."""
    total = dlx.count(p).solutions
    depth = data.draw(st.integers(0, 3))
    split = dlx.Search(p, split_depth=depth)
    paths = []
    while True:
        code = split.run()
        if code == kernel.LEAF:
            paths.append(split.path())
        elif code == kernel.DONE:
            break
    found = split.stats.solutions
    for path in paths:
        sub = dlx.Search(p, prefix=path)
        while sub.run() != kernel.DONE:
            pass
        found += sub.stats.solutions
        assert np.array_equal(sub.node, p.arrays().node)
    assert found == total


@settings(max_examples=300, deadline=None)
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


@settings(max_examples=300, deadline=None)
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


# -- known counts -----------------------------------------------------------------------


def queens(n: int) -> dlx.Problem:
    """n queens: ranks and files primary, both diagonals secondary."""
    p = dlx.Problem(
        primary=[f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)],
        secondary=[f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)],
    )
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"], name=f"{i},{j}")
    return p


def queens_ok(n: int, names) -> bool:
    """The queens of a solution attack nothing (independent of the encoding)."""
    cells = [tuple(map(int, name.split(","))) for name in names]
    return (
        len(cells) == n
        and len({i for i, _ in cells}) == n
        and len({j for _, j in cells}) == n
        and len({i + j for i, j in cells}) == n
        and len({i - j for i, j in cells}) == n
    )


@pytest.mark.parametrize("n, expected", [(1, 1), (4, 2), (6, 4), (8, 92), (10, 724)])
def test_queens(n, expected):
    p = queens(n)
    stream = dlx.solutions(p)
    found = 0
    for s in stream:
        check(p, s.options)
        assert queens_ok(n, s.names)
        found += 1
    assert found == expected
    assert stream.complete
    assert dlx.count(p).solutions == expected


FAST_FILES = sorted(
    name for name in EXPECTED if not name.startswith(("pent6x10", "pent5x12", "pent4x15_all"))
)


@pytest.mark.parametrize("name", FAST_FILES)
def test_dlx_files_stream_equals_count(name):
    p = dlx.read(DATA / f"{name}.dlx")
    found = option_sets(dlx.solutions(p))
    assert len(found) == EXPECTED[name]
    result = dlx.count(p)
    assert result.complete and result.solutions == EXPECTED[name]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(EXPECTED) - set(FAST_FILES)))
def test_dlx_files_stream_equals_count_slow(name):
    test_dlx_files_stream_equals_count(name)


def test_pent6x10_sym_count_and_links_restored():
    p = dlx.read(DATA / "pent6x10_sym.dlx")
    search = dlx.Search(p)
    while search.run() != kernel.DONE:
        pass
    assert search.stats.solutions == 2339
    assert np.array_equal(search.node, p.arrays().node)
    assert np.array_equal(search.item, p.arrays().item)


def rooks(n: int) -> dlx.Problem:
    """n non-attacking rooks on an n x n board."""
    p = dlx.Problem(primary=[f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)])
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}"])
    return p


def test_rooks_is_n_factorial():
    assert dlx.count(rooks(8)).solutions == math.factorial(8)


@pytest.mark.parametrize("n, k", [(5, 1), (5, 2), (7, 3), (9, 9), (12, 5)])
def test_choose_k_of_n(n, k):
    """One item needing exactly k of n identical options: C(n, k) solutions."""
    p = dlx.Problem(primary=["x"], bounds={"x": (k, k)})
    for _ in range(n):
        p.add_option(["x"])
    found = option_sets(dlx.solutions(p))
    assert len(found) == math.comb(n, k)
    assert dlx.count(p).solutions == math.comb(n, k)


def test_between_bounds_counts_every_subset_size():
    """An item covered 2..4 times by 6 options: C(6,2)+C(6,3)+C(6,4)."""
    p = dlx.Problem(primary=["x"], bounds={"x": (2, 4)})
    for _ in range(6):
        p.add_option(["x"])
    assert dlx.count(p).solutions == 15 + 20 + 15


def dominoes_and_monominoes(copies: bool) -> dlx.Problem:
    """Tile a 2x4 board with 2 dominoes and 4 monominoes, as copies or distinct pieces."""
    cells = [f"{r}{c}" for r in range(2) for c in range(4)]
    pieces = {"D": 2, "M": 4}
    if copies:
        p = dlx.Problem(primary=list(pieces) + cells, bounds={k: (v, v) for k, v in pieces.items()})
        names = {k: [k] for k in pieces}
    else:
        names = {k: [f"{k}{i}" for i in range(v)] for k, v in pieces.items()}
        p = dlx.Problem(primary=[n for group in names.values() for n in group] + cells)
    for r in range(2):
        for c in range(4):
            for name in names["M"]:
                p.add_option([name, f"{r}{c}"])
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < 2 and c + dc < 4:
                    for name in names["D"]:
                        p.add_option([name, f"{r}{c}", f"{r + dr}{c + dc}"])
    return p


def test_multiset_count_equals_distinct_copies_over_factorials():
    distinct = dlx.count(dominoes_and_monominoes(copies=False)).solutions
    multiset = option_sets(dlx.solutions(dominoes_and_monominoes(copies=True)))
    assert distinct > 0
    assert len(multiset) * math.factorial(2) * math.factorial(4) == distinct


# -- limits, progress, interruption ---------------------------------------------------


def test_node_limit_is_reported_incomplete():
    p = dlx.read(DATA / "pent6x10_sym.dlx")
    result = dlx.count(p, node_limit=5000)
    assert not result.complete
    assert "at least" in str(result) and "node limit" in str(result)
    with pytest.raises(ValueError, match="not final"):
        int(result)
    stream = dlx.solutions(p, node_limit=5000)
    list(stream)
    assert not stream.complete and stream.stats.nodes <= 5000


def test_time_limit_stops_early():
    p = dlx.read(DATA / "pent6x10_all.dlx")
    result = dlx.count(p, time_limit=0.2)
    assert not result.complete and "time limit" in result.stopped_by
    assert result.stats.seconds < 2


def test_limit_and_uniqueness():
    p = queens(8)
    assert len(list(dlx.solutions(p, limit=5))) == 5
    limited = dlx.count(p, limit=10)
    assert limited.solutions == 10 and not limited.complete
    assert not dlx.is_unique(p)
    assert dlx.is_unique(queens(1))
    assert dlx.first(queens(3)) is None
    assert queens_ok(8, dlx.first(p).names)


def test_progress_grows_to_one(capsys):
    p = dlx.read(DATA / "pent4x15_sym.dlx")
    search = dlx.Search(p)
    search._budget = 2000
    fractions = []
    while search.run() == kernel.PAUSED:
        search._budget = 2000
        fractions.append(search.fraction())
    assert len(fractions) > 5
    assert all(0 <= a <= b <= 1 for a, b in zip(fractions, fractions[1:], strict=False))
    assert search.fraction() == 1.0
    dlx.count(p, progress=True)
    err = capsys.readouterr().err
    assert "100.0%" in err and "368 solutions" in err


def test_ctrl_c_stops_quickly_and_problem_survives():
    import _thread
    import threading
    import time

    p = dlx.read(DATA / "pent6x10_all.dlx")
    dlx.count(p, node_limit=1000)  # compile first
    timer = threading.Timer(0.3, _thread.interrupt_main)
    t0 = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        dlx.count(p)
    assert time.perf_counter() - t0 < 1.3
    assert dlx.count(dlx.read(DATA / "pent3x20_sym.dlx")).solutions == 2
    assert dlx.count(p, node_limit=100).stats.nodes == 100


def test_no_jit_pure_python_agrees(tmp_path):
    """The kernel's Python source gives the same answers with numba switched off."""
    import os
    import subprocess
    import sys

    code = (
        "import sys; sys.path.insert(0, 'tests'); import dlx; from test_engine import queens;"
        "print(dlx.count(queens(6)).solutions, len(list(dlx.solutions(queens(5)))))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["4", "10"]


# -- building problems and errors -----------------------------------------------------


def test_from_matrix():
    p = dlx.Problem.from_matrix([[1, 0, 0], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    assert option_sets(dlx.solutions(p)) == {frozenset({0, 1}), frozenset({2, 3})}
    with pytest.raises(dlx.ProblemError, match="only 0 and 1"):
        dlx.Problem.from_matrix([[2]])
    with pytest.raises(dlx.ProblemError, match="row 1 of the matrix is empty"):
        dlx.Problem.from_matrix([[1], [0]])


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda p: p.add_option(["a", "zz"]), "option 0: unknown item 'zz'"),
        (lambda p: p.add_option(["a", "a"]), "item 'a' appears twice"),
        (lambda p: p.add_option(["a:red"]), "primary item 'a' cannot have a colour"),
        (lambda p: p.add_option(["a", "x:"]), "item 'x' has an empty colour"),
        (lambda p: p.add_option([]), "option 0 is empty"),
        (lambda p: p.add_option("ab"), "give a list of item names"),
        (lambda p: p.add_primary("a"), "item 'a' is declared twice"),
        (lambda p: p.add_primary("q", 3, 2), "bounds must satisfy"),
        (lambda p: p.add_primary("q", 0, 0), "bounds must satisfy"),
        (lambda p: p.add_secondary("q:r"), "contains ':'"),
    ],
)
def test_problem_errors(build, message):
    p = dlx.Problem(primary=["a", "b"], secondary=["x"])
    with pytest.raises(dlx.ProblemError, match=message.replace("(", r"\(")):
        build(p)


def test_forced_errors():
    p = queens(4)
    with pytest.raises(dlx.ProblemError, match="more than 1 times"):
        list(dlx.solutions(p, forced=[0, 1]))
    with pytest.raises(dlx.ProblemError, match="does not exist"):
        dlx.count(p, forced=[99])
    q = dlx.Problem(primary=["a"], secondary=["x"], bounds={"a": (0, 2)})
    q.add_option(["a", "x:1"])
    q.add_option(["a", "x:2"])
    with pytest.raises(dlx.ProblemError, match="no primary item with bounds 1:1"):
        dlx.count(q, forced=[0])
    r = dlx.Problem(primary=["a", "b"], secondary=["x"])
    r.add_option(["a", "x:1"])
    r.add_option(["b", "x:2"])
    with pytest.raises(dlx.ProblemError, match="clash on secondary item 'x'"):
        dlx.count(r, forced=[0, 1])


# -- the .dlx format ------------------------------------------------------------------

KNUTH_EXAMPLE = """\
| A simple example of color controls (Knuth, DLX3)
A B 2:3|C | X Y
A B X:0 Y:0
A C X:1 Y:1
C X:0
B X:1
C Y:1
"""


def test_knuth_dlx3_example():
    p = dlx.parse(KNUTH_EXAMPLE)
    assert p.bounds("C") == (2, 3)
    found = option_sets(dlx.solutions(p))
    assert found == {frozenset({1, 3, 4})}
    assert found == naive_solutions(p)


def test_write_parse_round_trip():
    p = dlx.parse(KNUTH_EXAMPLE)
    q = dlx.parse(dlx.write(p, comment="round trip"))
    assert q.primary == p.primary and q.secondary == p.secondary
    assert [q.option(k) for k in range(q.n_options)] == [p.option(k) for k in range(p.n_options)]
    assert q.bounds("C") == (2, 3)
    exact = dlx.Problem(primary=["a"], bounds={"a": (2, 2)})
    assert dlx.write(exact).splitlines()[0] == "2|a"


@pytest.mark.parametrize(
    "text, message",
    [
        ("a b\na c\n", "line 2: unknown item 'c'"),
        ("a b\n\n| comment\na a\n", "line 4: item 'a' appears twice in one option"),
        ("a | x\na:1 x\n", "line 2: primary item 'a' cannot have a colour"),
        ("a | x | y\n", "line 1: the item line contains '|' twice"),
        ("a | 2|x\n", "line 1: secondary item 'x' cannot have bounds"),
        ("3:2|a\n", "line 1: item 'a': lower bound 3 exceeds upper bound 2"),
        ("0|a\n", "line 1: item 'a' has upper bound 0"),
        ("a a\n", "line 1: item 'a' is declared twice"),
        ("| only comments\n\n", "no item line"),
        ("| x\n", "no item line"),
        ("a | x\na x:\n", "line 2: item 'x' has an empty colour"),
        ("a b:c\n", "line 1: illegal ':' in item name 'b:c'"),
    ],
)
def test_malformed_dlx(text, message):
    with pytest.raises(dlx.DlxFormatError, match=message.replace("|", r"\|")):
        dlx.parse(text)


def test_permutations_of_options_do_not_change_counts():
    p = queens(6)
    rows = [p.option(k) for k in range(p.n_options)]
    for perm in list(permutations(range(3))):
        q = dlx.Problem(primary=p.primary, secondary=p.secondary)
        order = list(range(len(rows)))
        order[:3] = perm
        q.add_options([rows[k] for k in order])
        assert dlx.count(q).solutions == 4
