"""Costs: ``|n`` in ``.dlx`` files, ``dlx.best`` (the k cheapest solutions) and
``python -m dlx FILE --best K``, against the naive solver and DLX5's own answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import costed_problems

import dlx
from dlx.cli import main
from dlx.dlxfile import DlxFormatError
from dlx.kernels.costs import kernel as costkernel
from dlx.kernels.costs import search as costsearch
from dlx.kernels.costs.search import Layout, search_best
from dlx.verify import naive_solutions

COSTS = Path(__file__).resolve().parent.parent / "data" / "costs"


def cost_of(problem: dlx.Problem, solution) -> int:
    return sum(problem.option_cost(o) for o in solution)


def assert_best(problem: dlx.Problem, result: dlx.Best, k: int) -> None:
    """``result`` holds k cheapest solutions: each checked by ``dlx.check``, distinct,
    costing what it says, the costs those of the naive solver's k cheapest."""
    naive = sorted(cost_of(problem, s) for s in naive_solutions(problem))
    assert result.proven and result.stopped_by is None
    assert list(result.costs) == naive[:k]
    assert len(set(result.solutions)) == len(result.solutions)
    for cost, solution in result:
        dlx.check(problem, solution)
        assert cost == cost_of(problem, solution)
        assert list(solution) == sorted(solution)


@pytest.mark.oracle
@settings(max_examples=150, deadline=None)
@given(costed_problems(), st.integers(1, 12))
def test_random_costed_problems_match_naive(p, k):
    assert_best(p, dlx.best(p, k=k), k)


@settings(max_examples=40, deadline=None)
@given(costed_problems(), st.integers(1, 6))
def test_costs_past_int64_are_exact(p, k):
    """Costs too large for the kernel's sums go the exact Python way, same answers."""
    big = dlx.Problem(primary=p.primary, secondary=p.secondary)
    for o in range(p.n_options):
        big.add_option(p.option(o), cost=p.option_cost(o) * 2**70 + 1)
    result = dlx.best(big, k=k)
    assert_best(big, result, k)


@settings(max_examples=60, deadline=None)
@given(costed_problems())
def test_write_and_parse_keep_the_costs(p):
    q = dlx.parse(dlx.write(p))
    assert [q.option(o) for o in range(q.n_options)] == [p.option(o) for o in range(p.n_options)]
    assert [q.option_cost(o) for o in range(q.n_options)] == [
        p.option_cost(o) for o in range(p.n_options)
    ]


def test_k_beyond_the_number_of_solutions_gives_them_all():
    p = dlx.Problem(primary=["a", "b"])
    for items, cost in ((["a"], 2), (["b"], 2), (["a", "b"], 4), (["a", "b"], 1)):
        p.add_option(items, cost=cost)
    result = dlx.best(p, k=10)
    assert result.costs == (1, 4, 4) and result.proven
    assert_best(p, result, 10)


def test_no_solution_and_an_item_without_options():
    p = dlx.Problem(primary=["a", "b"])
    p.add_option(["a"], cost=1)
    result = dlx.best(p, k=3)
    assert (result.costs, result.solutions, result.proven) == ((), (), True)


def test_options_without_primary_items_are_never_chosen():
    """As DLX5, which ignores them."""
    p = dlx.Problem(primary=["a"], secondary=["x"])
    p.add_option(["a"], cost=5)
    p.add_option(["x"], cost=0)
    assert dlx.best(p, k=3).solutions == ((0,),)


def test_costs_add_up_as_in_dlx5():
    p = dlx.parse("a b | x\na |3 b |4\na x:c |0\nb |12\n")
    assert [p.option_cost(o) for o in range(3)] == [7, 0, 12]
    assert dlx.write(p).splitlines()[1:] == ["a b |7", "a x:c", "b |12"]


@pytest.mark.parametrize("line", ["a |x", "a |", "a |-3", "a |3x", "a |\uff13", "a |1_0"], ids=repr)
def test_bad_costs_are_one_line_errors_naming_the_line(line):
    with pytest.raises(DlxFormatError, match=r"^line 3: cost '\|.*' is not '\|' followed by"):
        dlx.parse(f"a\na\n{line}\n")


def test_knuth_names_renames_what_dlx5_cannot_read():
    p = dlx.Problem(primary=["a", "ninechars", "ok345678"], secondary=["x"])
    p.add_option(["a", "ninechars", "x:red"], cost=3)
    p.add_option(["ok345678", "x:red"])
    p.add_option(["ok345678", "x:b"])
    text = dlx.write(p, knuth=True)
    assert "| renamed for DLX5/DLX6: item 'ninechars' written as '#1'" in text
    q = dlx.parse(text)
    assert all(len(name.encode()) <= 8 for name in q.primary + q.secondary)
    colours = {c for o in range(q.n_options) for _, c in q.option_entries(o) if c}
    assert all(len(c.encode()) == 1 for c in colours)
    assert q.option_cost(0) == 3
    assert dlx.count(q).solutions == dlx.count(p).solutions == 1
    assert dlx.write(p).splitlines()[0] == "a ninechars ok345678 | x"  # knuth=False: as given


def test_knuth_names_refuses_more_colours_than_characters():
    p = dlx.Problem(primary=["a"], secondary=["x"])
    for c in range(100):
        p.add_option(["a", f"x:colour{c}"])
    with pytest.raises(dlx.ProblemError, match="100 colours: DLX5 and DLX6 take one-character"):
        dlx.write(p, knuth=True)


def test_limits_stop_the_search_unproven():
    p = dlx.read(COSTS / "queens10.dlx")
    result = dlx.best(p, k=3, node_limit=50)
    assert not result.proven and result.stopped_by == "node limit 50"
    assert result.nodes == 50
    for cost, solution in result:
        dlx.check(p, solution)
        assert cost == cost_of(p, solution)


def test_a_time_limit_stops_between_chunks(monkeypatch):
    monkeypatch.setattr(costsearch, "CHUNK", 10)
    p = dlx.read(COSTS / "queens12.dlx")
    result = dlx.best(p, k=2, time_limit=0)
    assert (result.proven, result.stopped_by, result.nodes) == (False, "time limit 0 s", 10)
    assert dlx.best(p, k=2, time_limit=60).costs == (283, 287)  # 283 287: DLX5's k2


@pytest.mark.parametrize(
    "keywords, error",
    [
        ({"k": 0}, ValueError),
        ({"k": 1.5}, TypeError),
        ({"k": True}, TypeError),
        ({"node_limit": -1}, ValueError),
        ({"time_limit": "1"}, TypeError),
        ({"time_limit": float("nan")}, ValueError),
    ],
)
def test_bad_arguments_are_refused(keywords, error):
    p = dlx.Problem(primary=["a"])
    p.add_option(["a"])
    with pytest.raises(error):
        dlx.best(p, **keywords)


def test_multiplicities_and_loops_are_refused():
    p = dlx.Problem(primary=["a"], bounds={"a": (1, 2)})
    p.add_option(["a"])
    with pytest.raises(dlx.ProblemError, match="item 'a' has bounds 1:2"):
        dlx.best(p)
    with pytest.raises(TypeError):
        dlx.best("a b")


def expected_costs() -> dict[str, tuple[int, list[int]]]:
    """data/costs/EXPECTED.tsv: file, k, and the k best costs DLX5 prints."""
    rows = {}
    for line in (COSTS / "EXPECTED.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            name, k, costs = line.split("\t")
            rows[f"{name} k{k}"] = (name, int(k), [int(c) for c in costs.split()])
    return rows


@pytest.mark.parametrize("case", sorted(expected_costs()))
def test_known_files_cost_what_dlx5_says(case):
    name, k, costs = expected_costs()[case]
    p = dlx.read(COSTS / f"{name}.dlx")
    result = dlx.best(p, k=k)
    assert list(result.costs) == costs and result.proven
    for cost, solution in result:
        dlx.check(p, solution)
        assert cost == cost_of(p, solution)


def test_the_links_are_whole_after_the_search():
    p = dlx.read(COSTS / "xcc7.dlx")
    layout = Layout(p)
    s = layout.state(5)
    assert costkernel.sanity(s) == 0
    assert costkernel.search(s, 40) == costkernel.PAUSED
    assert costkernel.search(s, 10**9) == costkernel.DONE
    assert costkernel.sanity(s) == 0
    assert [layout.total_tax + c for c in s.best_cost] == list(
        search_best(layout, 5, None, None).costs
    )


def test_cli_best(tmp_path, capsys):
    path = tmp_path / "toy.dlx"
    path.write_text("a b c | x\na b |3 x:1\nc |2 |2\na |1\nb c x:2 |5\nb |1 x:1\n")
    assert main([str(path), "--best", "3"]) == 0
    out, err = capsys.readouterr()
    assert out.split("\n\n")[0] == "| cost 6\na |1\nb c x:2 |5\n".rstrip("\n")
    assert out.count("| cost ") == 3
    assert err.startswith("The optimum costs are: $6 $6 $7 (proven: the 3 cheapest solutions")
    assert main([str(path), "--best", "1"]) == 0
    assert capsys.readouterr().err.startswith("The optimum cost is $6 (proven")


def test_cli_best_errors(tmp_path, capsys):
    path = tmp_path / "bad.dlx"
    path.write_text("a\na |z\n")
    assert main([str(path), "--best", "2"]) == 2
    assert capsys.readouterr().err == (
        f"error: {path}: line 2: cost '|z' is not '|' followed by decimal digits\n"
    )
    path.write_text("a\na\n")
    assert main([str(path), "--best", "0"]) == 2
    assert "--best must be >= 1" in capsys.readouterr().err
    assert main([str(path), "--best", "2", "--count"]) == 2
    assert capsys.readouterr().err == "error: --best takes no --count\n"
