"""The solution graph's two rules of branching: ``"cell"`` (urgent pieces, then the first
free cell) and ``"fewest"`` (the item with the fewest options left). Both count the same
solutions (the naive solver's), every rank of either round-trips, and the certificates
written with either are accepted by the independent checker, byte for byte the same with
``workers=2``."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from shared import EXPECTED, dominoes, examples, load
from strategies import problems

import dlx
from dlx import certify
from dlx.solution_graph import certificate
from puzzles import rectangles


def _ranks_round_trip(problem: dlx.Problem, branching: str) -> set:
    """The solutions of the graph built with ``branching``, each checked, every rank
    round-tripping through unrank."""
    g = dlx.graph(problem, branching=branching)
    found = []
    for i in range(g.count):
        solution = g.unrank(i)
        dlx.check(problem, solution.options)
        assert g.rank(solution) == i
        found.append(frozenset(solution.options))
    assert len(set(found)) == len(found) == g.count
    return set(found)


@settings(max_examples=examples(150), deadline=None)
@given(problems(bounds=False, colours=False, max_options=10, max_primary=5))
def test_random_problems_the_same_solutions_with_either_rule(problem):
    naive = {frozenset(s) for s in dlx.naive_solutions(problem)}
    assert _ranks_round_trip(problem, "cell") == naive
    assert _ranks_round_trip(problem, "fewest") == naive


@settings(max_examples=examples(40), deadline=None)
@given(problems(bounds=False, colours=False, max_options=10, max_primary=5))
def test_random_certificates_of_either_rule_are_accepted(problem):
    text, want = dlx.write(problem), len(dlx.naive_solutions(problem))
    for branching in ("cell", "fewest"):
        out = io.StringIO()
        split = certificate.split_item(problem)
        count = 0
        for k, twin in certificate.plan(problem, split):
            count += certificate.write_part(out, problem, k, twin, branching=branching)[0]
        data = f"{certificate.HEADER}\n| split {split}\n{out.getvalue()}| count {count}\n"
        assert count == want
        assert certify.check(text, data.encode()) == want


@pytest.mark.parametrize(
    "name", ["pent3x20_all", "pent6x10_sym", "pent6x10_all", "scott_sym", "scott_all"]
)
def test_data_files_counted_alike(name):
    problem = load(name)
    cell, fewest = dlx.graph(problem), dlx.graph(problem, branching="fewest")
    assert cell.count == fewest.count == EXPECTED[name]


def test_tilings_and_dominoes_counted_alike():
    for problem, want in (
        (rectangles.build(rectangles.make_puzzle(6, "oblongs")), 3_620),  # A360498(6), OEIS
        (dominoes(6, 6), 6_728),  # A004003(3), OEIS
    ):
        assert dlx.graph(problem, branching="fewest").count == want == dlx.graph(problem).count


def test_certificate_of_fewest_is_accepted_and_the_same_from_two_workers(tmp_path):
    problem = rectangles.build(rectangles.make_puzzle(5, "oblongs"))
    single, two = tmp_path / "one.cert", tmp_path / "two.cert"
    one = certificate.write(problem, single, split="0,0", branching="fewest")
    assert one.count == 256  # A360498(5), OEIS
    assert certificate.write(problem, two, split="0,0", branching="fewest", workers=2) == one
    assert single.read_bytes() == two.read_bytes()
    assert certify.check(dlx.write(problem), single.read_bytes()) == 256


def test_an_unknown_rule_is_refused_in_one_line():
    with pytest.raises(dlx.ProblemError, match="^branching must be one of cell, fewest, not 'x'$"):
        dlx.graph(dominoes(2, 2), branching="x")


def test_the_certificate_rule_keeps_the_first_cell_on_a_narrow_board():
    """``--branching auto``: ``cell`` where the options span at most 24 cells (the 6x10
    pentominoes), else ``fewest`` (the 9x10 one-sided pentominoes, the rectangles)."""
    from dlx.solution_graph.layout import choose_branching
    from puzzles.polyform import tiling

    narrow = tiling.make_puzzle("6x10", "pentominoes")
    wide = tiling.make_puzzle("9x10", "one-sided-pentominoes")
    assert choose_branching(tiling.build(narrow, tiling.plan_symmetry(narrow))) == "cell"
    assert choose_branching(tiling.build(wide, tiling.plan_symmetry(wide))) == "fewest"
    assert choose_branching(rectangles.build(rectangles.make_puzzle(7, "oblongs"))) == "fewest"


def _frames(monkeypatch, words: int, problem: dlx.Problem):
    """The graph of ``problem`` built with ``"fewest"`` and frames of ``words`` words (0:
    no frames), as its ZDD's lines."""
    from dlx.solution_graph import layout

    monkeypatch.setattr(layout, "FRAME_WORDS", words)
    g = dlx.graph(problem, branching="fewest")
    return g.count, list(g.zdd_lines())


@settings(max_examples=examples(40), deadline=None)
@given(problems(bounds=False, colours=False, max_options=160, max_primary=12))
def test_random_graphs_the_same_with_frames_or_without(problem):
    """Frames of one word open once at most 64 options are alive of more than 64 (a
    random problem of up to 160 options): the graph is the one without frames, its
    count the tight kernel's."""
    with pytest.MonkeyPatch.context() as mp:
        plain = _frames(mp, 0, problem)
        assert _frames(mp, 1, problem) == plain
        assert _frames(mp, 2, problem) == plain
    assert plain[0] == dlx.count(problem, engine="tight")


@pytest.mark.parametrize("name", ["pent6x10_sym", "scott_sym"])
def test_data_files_the_same_graph_with_frames_or_without(name, monkeypatch):
    problem = load(name)
    plain = _frames(monkeypatch, 0, problem)
    assert plain[0] == EXPECTED[name]
    for words in (1, 4, 16):
        assert _frames(monkeypatch, words, problem) == plain
