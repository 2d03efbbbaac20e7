"""The solution graph (``dlx.graph``): counts, unrank/rank, uniform samples, ZDD output.

Every solution a test sees goes through ``dlx.check``; counts are compared with the
naive solver, the dlx kernel, data/dlx/EXPECTED.tsv (Knuth's programs) and, for the
domino tilings, an independent transfer-matrix count.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict

import pytest
from hypothesis import given, settings
from shared import DATA, EXPECTED, dominoes, examples, load, option_sets
from strategies import problems

import dlx


def _abc() -> dlx.Problem:
    """A small problem with a shared subproblem (the docstring's example)."""
    p = dlx.Problem(primary=["a", "b", "c"])
    for option in (["a", "b"], ["c"], ["a"], ["b"], ["b", "c"]):
        p.add_option(option)
    return p


def _domino_count(rows: int, columns: int) -> int:
    """The domino tilings of a board, by a broken-profile transfer matrix (Python ints):
    an independent check of the graph's count."""
    profiles = {0: 1}  # bit j: the cell of column j in this row is already covered
    for _ in range(rows):
        for j in range(columns):
            bit = 1 << j
            following: dict[int, int] = defaultdict(int)
            for mask, n in profiles.items():
                if mask & bit:
                    following[mask & ~bit] += n
                else:
                    following[mask | bit] += n  # a vertical domino down from here
                    if j + 1 < columns and not mask & (bit << 1):
                        following[mask | (bit << 1)] += n  # a horizontal one
            profiles = following
    return profiles.get(0, 0)


def zdd_count(text: str) -> int:
    """The number of paths to the sink 1 in a ZDD in DLX6's text format (a small reader,
    independent of ``dlx``): ``x: (~v?lo:hi)`` a line, the root last."""
    count = {0: 0, 1: 1}
    last = None
    for line in text.splitlines():
        m = re.fullmatch(r"([0-9a-f]+): \(~(\d+)\?([0-9a-f]+):([0-9a-f]+)\)", line)
        assert m, f"not a ZDD line: {line!r}"
        x, lo, hi = int(m[1], 16), int(m[3], 16), int(m[4], 16)
        assert x not in count and lo in count and hi in count, "not bottom-up"
        count[x] = count[lo] + count[hi]
        last = x
    return count[last]


def _all_ranks_agree(problem: dlx.Problem) -> None:
    """unrank over every rank is the set of all solutions (the naive solver's), each one
    a solution, and rank inverts it."""
    g = dlx.graph(problem)
    naive = {frozenset(s) for s in dlx.naive_solutions(problem)}
    assert g.count == len(naive)
    found = []
    for i in range(g.count):
        solution = g.unrank(i)
        dlx.check(problem, solution.options)
        assert g.rank(solution) == i
        assert g.rank(list(reversed(solution.options))) == i  # any order
        found.append(frozenset(solution.options))
    assert set(found) == naive and len(found) == len(naive)
    assert [s.options for s in g.solutions()] == [g.unrank(i).options for i in range(g.count)]


def test_the_docstring_example_shares_a_node():
    g = dlx.graph(_abc())
    assert (g.count, len(g), g.stats.edges) == (3, 4, 5)
    _all_ranks_agree(_abc())


@pytest.mark.parametrize("name", ["pent3x20_all", "scott_sym"])
def test_every_rank_round_trips_on_data_files(name):
    problem = load(name)
    g = dlx.graph(problem)
    assert g.count == EXPECTED[name]
    ranks = [g.rank(g.unrank(i)) for i in range(g.count)]
    assert ranks == list(range(g.count))
    assert {frozenset(s.options) for s in g.solutions()} == option_sets(dlx.solutions(problem))


@settings(max_examples=examples(150), deadline=None)
@given(problems(bounds=False, colours=False, max_options=10))
def test_random_problems_agree_with_the_naive_solver(problem):
    _all_ranks_agree(problem)
    g = dlx.graph(problem)
    for solution in g.sample(5, seed=1) if g.count else []:
        dlx.check(problem, solution.options)


def _chi_square(draws: list, n: int) -> float:
    """Pearson's statistic of ``draws`` against the uniform law on ``n`` outcomes."""
    expected = len(draws) / n
    seen = Counter(draws)
    return sum((seen.get(i, 0) - expected) ** 2 / expected for i in range(n))


def _fair_coin_descent(g, rng) -> frozenset:
    """A biased sampler for contrast: at each node an edge chosen with equal odds (not
    weighted by the counts below); returns the solution's options."""
    node = g.root
    options = []
    while node != 0:
        e = rng.randrange(int(g.node_edge[node]), int(g.node_edge[node + 1]))
        options.append(int(g.edge_option[e]))
        node = int(g.edge_child[e])
    return frozenset(options)


def test_samples_pass_a_chi_square_test_and_a_fair_coin_descent_fails_it():
    import random

    g = dlx.graph(load("pent5x12_sym"))
    n = g.count
    assert n == EXPECTED["pent5x12_sym"] == 1010
    samples = list(g.sample(20 * n, seed=2026))
    for s in samples[:50]:
        dlx.check(g.problem, s.options)
    # chi-square with n - 1 degrees of freedom, about normal for large n: a statistic
    # past the mean by 4.5 standard deviations has odds of a few in a million
    bound = (n - 1) + 4.5 * math.sqrt(2 * (n - 1))
    index = {frozenset(s.options): i for i, s in enumerate(g.solutions())}
    assert len(index) == n and g.rank(samples[0]) == index[frozenset(samples[0].options)]
    assert _chi_square([index[frozenset(s.options)] for s in samples], n) < bound
    rng = random.Random(2026)
    biased = [index[_fair_coin_descent(g, rng)] for _ in range(20 * n)]
    assert _chi_square(biased, n) > bound
    assert list(g.sample(10, seed=7)) == list(g.sample(10, seed=7))  # a seed repeats its sample


@pytest.mark.parametrize("name", ["pent6x10_sym", "pent6x10_all"])
def test_write_zdd_reads_back_to_the_known_count(name, tmp_path):
    g = dlx.graph(load(name))
    path = tmp_path / f"{name}.zdd"
    g.write_zdd(path)
    text = path.read_text()
    assert zdd_count(text) == g.count == EXPECTED[name]  # 2339 and 9356
    assert len(text.splitlines()) == g.stats.edges + 1


def test_write_zdd_numbers_options_from_one_as_dlx6_does(tmp_path):
    g = dlx.graph(_abc())
    g.write_zdd(tmp_path / "abc.zdd")
    lines = (tmp_path / "abc.zdd").read_text().splitlines()
    assert lines[-1] == f"{len(lines) + 1:x}: (~0?0:{len(lines):x})"
    used = {int(re.search(r"~(\d+)", line)[1]) for line in lines[:-1]}
    assert used == {1, 2, 3, 4, 5}  # options 0..4


def test_no_solution_gives_an_empty_graph(tmp_path):
    p = dlx.Problem(primary=["a", "b"])
    p.add_option(["a"])
    g = dlx.graph(p)
    assert (g.count, list(g.solutions()), list(g.sample(0))) == (0, [], [])
    with pytest.raises(ValueError, match="no solution"):
        g.sample(1)
    with pytest.raises(IndexError):
        g.unrank(0)
    g.write_zdd(tmp_path / "none.zdd")
    assert zdd_count((tmp_path / "none.zdd").read_text()) == 0


def test_counts_past_two_to_the_64_are_exact():
    # OEIS A004003: domino tilings of the 2n x 2n board; n = 7: 112202208776036178000000
    # (the text drops the last three zeros), checked by a transfer matrix here
    g = dlx.graph(dominoes(14, 14))
    assert g.count == _domino_count(14, 14) == 112_202_208_776_036_178_000_000
    assert g.count > 2**64 and g.node_count.shape[1] >= 2
    samples = list(g.sample(20, seed=3))
    for s in samples:
        dlx.check(g.problem, s.options)
        assert g.unrank(g.rank(s)) == s
    top = g.count - 1
    assert g.rank(g.unrank(top)) == top and g.rank(g.unrank(2**64 + 5)) == 2**64 + 5


def test_rank_refuses_what_is_not_a_solution():
    g = dlx.graph(_abc())
    with pytest.raises(ValueError, match="item 'c'"):
        g.rank([0])  # a, b covered; c not
    with pytest.raises(ValueError, match="item 'b' covered 2 times"):
        g.rank([0, 1, 3])
    with pytest.raises(ValueError, match="twice"):
        g.rank([0, 0, 1])
    with pytest.raises(ValueError, match="item 'a' covered 0 times"):
        g.rank([1, 3])
    with pytest.raises(ValueError, match="no option 9"):
        g.rank([0, 9])
    with pytest.raises(IndexError):
        g.unrank(3)
    with pytest.raises(TypeError):
        g.unrank("1")


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p.add_primary("m", 0, 2), "bounds 0:2"),
        (lambda p: (p.add_secondary("x"), p.add_option(["a", "x:red"])), "colour"),
    ],
)
def test_problems_it_cannot_take_are_refused_in_one_line(make, message):
    p = _abc()
    make(p)
    with pytest.raises(dlx.ProblemError, match=message) as caught:
        dlx.graph(p)
    assert "\n" not in str(caught.value)


def test_bounds_refuse_cleanly():
    with pytest.raises(dlx.GraphTooLarge, match="max_nodes=10 ") as caught:
        dlx.graph(dominoes(6, 6), max_nodes=10)
    assert "\n" not in str(caught.value)
    with pytest.raises(dlx.GraphTimeLimit, match="time limit of 0 s"):
        dlx.graph(dominoes(6, 6), time_limit=0)
    with pytest.raises(ValueError, match="max_nodes"):
        dlx.graph(_abc(), max_nodes=0)


def test_graph_agrees_with_the_kernels_count_on_small_tilings():
    for rows, columns in ((2, 8), (4, 5), (6, 6)):
        g = dlx.graph(dominoes(rows, columns))
        assert g.count == _domino_count(rows, columns) == dlx.count(dominoes(rows, columns))


# -- the commands -----------------------------------------------------------------------


def _blocks(text: str) -> list[list[str]]:
    """The solutions printed by ``python -m dlx``: blocks of option lines."""
    return [b.splitlines() for b in text.strip("\n").split("\n\n") if b.strip()]


def test_dlx_command_samples_and_picks_the_nth(capsys):
    from dlx.cli import main
    from dlx.dlxfile import format_option

    path = str(DATA / "pent3x20_all.dlx")
    problem = load("pent3x20_all")
    option_of = {format_option(problem, k): k for k in range(problem.n_options)}
    assert main([path, "--sample", "5", "--seed", "11", "--no-progress"]) == 0
    out, err = capsys.readouterr()
    blocks = _blocks(out)
    assert len(blocks) == 5 and "8 solutions in all; graph:" in err
    for block in blocks:
        dlx.check(problem, [option_of[line] for line in block])
    assert main([path, "--sample", "5", "--seed", "11", "--no-progress"]) == 0
    assert capsys.readouterr()[0] == out  # a seed repeats its sample
    g = dlx.graph(problem)
    assert main([path, "--nth", "6", "--no-progress"]) == 0
    (block,) = _blocks(capsys.readouterr()[0])
    assert [option_of[line] for line in block] == list(g.unrank(6).options)


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--nth", "8"], "no solution 8: the problem has 8"),
        (["--sample", "2", "--count"], "no --count"),
        (["--sample", "2", "--nth", "1"], "one at a time"),
        (["--seed", "2"], "--seed goes with --sample"),
        (["--sample", "-1"], "--sample must be >= 0"),
        (["--sample", "1", "--max-graph-nodes", "5"], "max_nodes=5 (--max-graph-nodes) nodes"),
    ],
)
def test_dlx_command_refuses_in_one_line(flags, message, capsys):
    from dlx.cli import main

    assert main([str(DATA / "pent3x20_all.dlx"), "--no-progress", *flags]) == 2
    out, err = capsys.readouterr()
    assert message in err and err.count("\n") == 1 and out == ""


def _pictures(puzzle, plan) -> set[str]:
    """Every tiling of a pentomino puzzle as the command draws it (one per class with a
    plan, each checked)."""
    from puzzles import polyomino
    from puzzles.polyform import tiling

    found = set()
    for s in dlx.solutions(tiling.build(puzzle, plan)):
        pieces = tiling.decode(puzzle, s)
        assert not tiling.faults(puzzle, pieces)
        found.add(polyomino.render(puzzle, pieces).strip("\n"))
    return found


@pytest.mark.parametrize("symmetry", [True, False])
def test_tiling_command_samples_to_out_and_svg(symmetry, tmp_path, capsys):
    from puzzles import polyomino
    from puzzles.cli import main
    from puzzles.polyform.cli import read_solutions

    out, svg = tmp_path / "s.txt", tmp_path / "s.svg"
    flags = ["pentomino", "--board", "3x20", "--sample", "6", "--seed", "4", "--stats"]
    flags += ["--out", str(out), "--svg", str(svg), "--no-progress"]
    assert main(flags + ([] if symmetry else ["--no-symmetry"])) == 0
    err = capsys.readouterr()[1]
    drawn = "from 2 classes of tilings under" if symmetry else "from 8 tilings"
    assert f"drawn uniformly {drawn}" in err and "; graph:" in err
    assert f"6 solutions drawn uniformly {drawn}" in err  # the summary line
    puzzle = polyomino.make_puzzle("3x20")
    plan = polyomino.plan_symmetry(puzzle) if symmetry else None
    drawn = read_solutions(out.read_text())
    assert len(drawn) == 6 and set(drawn) <= _pictures(puzzle, plan)
    assert svg.read_text().startswith("<svg")


def test_tiling_command_refuses_sample_with_a_count(capsys):
    from puzzles.cli import main

    assert main(["pentomino", "--board", "3x20", "--sample", "2", "--count"]) == 2
    assert "--sample draws K tilings: it takes no --count" in capsys.readouterr()[1]
    assert main(["pentomino", "--board", "3x20", "--seed", "2"]) == 2
    assert "--seed goes with --sample" in capsys.readouterr()[1]


def test_ctrl_c_stops_a_build_between_two_kernel_calls(monkeypatch):
    """A Ctrl-C (raised as the second kernel call starts, whatever the machine's speed)
    stops the build at once, not at its end."""
    import _thread
    import importlib
    import types

    module = importlib.import_module("dlx.solution_graph.graph")
    kernel = module._kernel()  # compiled first
    calls = []

    def build(*args):
        calls.append(1)
        if len(calls) == 2:
            _thread.interrupt_main()  # as Ctrl-C does
        return kernel.build(*args)

    monkeypatch.setattr(module, "_kernel", lambda: types.SimpleNamespace(build=build))
    with pytest.raises(KeyboardInterrupt):
        dlx.graph(load("pent6x10_all"))
    assert 2 <= len(calls) <= 3  # the call under way at most


def test_the_dlx_command_prints_one_line_when_interrupted(capsys, monkeypatch):
    from dlx.cli import main

    def interrupted(*args, **keywords):
        raise KeyboardInterrupt

    monkeypatch.setattr("dlx.solution_graph.cli.graph", interrupted)
    assert main([str(DATA / "pent3x20_all.dlx"), "--sample", "1", "--no-progress"]) == 130
    assert capsys.readouterr()[1] == "interrupted\n"


def test_sampling_rejects_what_is_not_a_class_representative(monkeypatch):
    from types import SimpleNamespace

    from puzzles import polyomino
    from puzzles.common import PuzzleError
    from puzzles.polyform import sampling, tiling

    puzzle = polyomino.make_puzzle("3x20")
    g = dlx.graph(tiling.build(puzzle))
    kept = tiling.decode(puzzle, g.unrank(3))
    plan = SimpleNamespace(filter=True)  # a plan that still reduces solutions one by one
    monkeypatch.setattr(
        sampling.sym, "is_class_representative", lambda plan, pieces: (pieces == kept, 1)
    )
    sample = sampling.Sample(5, seed=9)
    assert list(sampling._draws(g, puzzle, plan, sample, lambda p: p)) == [kept] * 5
    monkeypatch.setattr(sampling.sym, "is_class_representative", lambda plan, pieces: (0, 1))
    with pytest.raises(PuzzleError, match="give --no-symmetry"):
        list(sampling._draws(g, puzzle, plan, sample, lambda p: p))
