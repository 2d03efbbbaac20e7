"""``dlx.preprocessing.preprocess``: Knuth's DLX-PRE rules; the count never changes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from strategies import problems

import dlx
from dlx.cli import main
from dlx.preprocessing import preprocess
from dlx.verify import check, naive_solutions

ROOT = Path(__file__).resolve().parent.parent
STORED = ROOT / "data" / "dlxpre"  # inputs and DLX-PRE's outputs (its SOURCES.md)
# solutions of each stored file, counted by Knuth's SSXCC (data/dlxpre/SOURCES.md)
STORED_COUNTS = {"queens6": 4, "debruijn124": 2, "windmill2x3": 0, "tetriamonds3x4": 1632}


def kept(text: str) -> tuple[set[str], set[str], Counter]:
    """The primary items, secondary items and option lines of a ``.dlx`` text."""
    lines = [ln.split() for ln in text.splitlines() if ln.strip() and not ln.lstrip()[0] == "|"]
    head = lines[0]
    cut = head.index("|") if "|" in head else len(head)
    return set(head[:cut]), set(head[cut + 1 :]), Counter(" ".join(w) for w in lines[1:])


def test_knuths_first_example():
    """DLX-PRE's first example (dlx-pre.w, the matrix (3) of Knuth's paper): three
    singletons A, B, E are left, from options 4, 5 and 1 (counting from 1); the items go
    as ``dlx-pre v5`` says: D forced by A, F by C, C by E, G by B."""
    p = dlx.parse("A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n")
    reduced, reduction = preprocess(p)
    assert (reduced.primary, reduced.secondary) == (["A", "B", "E"], [])
    assert [reduced.option(k) for k in range(reduced.n_options)] == [["E"], ["A"], ["B"]]
    assert reduction.kept == (0, 3, 4)
    assert reduction.forced == {"D": "A", "F": "C", "C": "E", "G": "B"}
    assert reduction.options_removed == (1, 2, 5)
    check(p, [reduction.kept[k] for k in dlx.first(reduced).options])


def test_knuths_colour_example():
    """DLX-PRE's second example: an option without primary items goes, A B X:0 Y:0
    blocks C, then C is forced by nothing but goes with its option."""
    p = dlx.parse("A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n")
    reduced, reduction = preprocess(p)
    assert dlx.write(reduced) == "A B | X Y\nA X:1 Y:1\nB X:1\n"
    assert reduction.kept == (1, 3)
    assert reduction.items_removed == ("C",)


@pytest.mark.parametrize("name", sorted(p.stem for p in STORED.glob("*.dlx")))
def test_same_as_dlx_pre(name):
    """The options and items kept are DLX-PRE's, on files of Knuth's generators."""
    problem = dlx.read(STORED / f"{name}.dlx")
    reduced, reduction = preprocess(problem)
    assert kept(dlx.write(reduced)) == kept((STORED / f"{name}.pre").read_text())
    assert reduction.kept == tuple(
        sorted(set(range(problem.n_options)) - set(reduction.options_removed))
    )
    if name in STORED_COUNTS:
        assert dlx.count(reduced).solutions == STORED_COUNTS[name]
        assert dlx.count(problem).solutions == STORED_COUNTS[name]


def test_infeasible_is_one_item():
    """A problem found infeasible comes back as DLX-PRE writes it: one primary item."""
    reduced, reduction = preprocess(dlx.read(STORED / "windmill2x3.dlx"))
    assert reduction.infeasible == "0" and reduced.primary == ["0"] and reduced.n_options == 0
    assert dlx.write(reduced) == "0\n"
    assert dlx.count(reduced).solutions == 0
    assert "cannot be covered" in str(reduction)


def test_pentominoes_3x20():
    """Knuth's DLX-PRE removes 259 of 1,227 options of data/dlx/pent3x20_sym.dlx in 3
    rounds (its summary line); 2 solutions (data/dlx/EXPECTED.tsv) before and after."""
    problem = dlx.read(ROOT / "data" / "dlx" / "pent3x20_sym.dlx")
    reduced, reduction = preprocess(problem)
    assert (len(reduction.options_removed), reduction.rounds) == (259, 3)
    assert reduced.n_options == 1227 - 259
    before = {frozenset(s.options) for s in dlx.solutions(problem)}
    after = {frozenset(reduction.kept[k] for k in s.options) for s in dlx.solutions(reduced)}
    assert before == after and len(after) == 2
    for solution in after:
        check(problem, solution)


def test_rounds_limit():
    """``rounds=k`` stops after k rounds (DLX-PRE's ``t<k+1>``); 0 removes only options
    without a primary item."""
    problem = dlx.read(ROOT / "data" / "dlx" / "pent3x20_sym.dlx")
    one = preprocess(problem, rounds=1)[1]
    assert one.rounds == 1 and 0 < len(one.options_removed) < 259
    none = preprocess(problem, rounds=0)[1]
    assert none.rounds == 0 and none.options_removed == ()
    with pytest.raises(ValueError, match="rounds must be an integer >= 0"):
        preprocess(problem, rounds=-1)
    with pytest.raises(TypeError, match="rounds"):
        preprocess(problem, rounds=1.5)


def test_names_costs_and_bounds():
    """Options keep their names and costs; multiplicities are refused."""
    p = dlx.Problem(primary=["a", "b"], secondary=["x"])
    p.add_option(["a", "x"], name="first", cost=3)
    p.add_option(["b", "x"], name="second", cost=4)
    p.add_option(["a", "b"], name="third", cost=5)
    reduced, reduction = preprocess(p)
    assert reduction.kept == (2,)
    assert (reduced.option_name(0), reduced.option_cost(0)) == ("third", 5)
    with pytest.raises(dlx.ProblemError, match="bounds 1:2"):
        preprocess(dlx.Problem(primary=["a"], bounds={"a": (1, 2)}))


@settings(max_examples=150, deadline=None)
@given(problems(bounds=False, max_options=9, max_primary=5))
def test_same_solutions_as_naive(problem):
    """Random XCC problems: the reduced problem's solutions, mapped back through
    ``kept``, are the naive solver's solutions of the original, and the counts agree."""
    reduced, reduction = preprocess(problem)
    expected = naive_solutions(problem)
    mapped = {frozenset(reduction.kept[k] for k in s) for s in naive_solutions(reduced)}
    assert mapped == expected
    assert dlx.count(reduced).solutions == len(expected) == dlx.count(problem).solutions
    for solution in dlx.solutions(reduced):
        check(reduced, solution.options)
        check(problem, [reduction.kept[k] for k in solution.options])


# -- the command line ----------------------------------------------------------------

PENT = ROOT / "data" / "dlx" / "pent3x20_sym.dlx"


def test_cli_count(capsys):
    assert main(["--count", "--preprocess", "--no-progress", str(PENT)]) == 0
    out, err = capsys.readouterr()
    assert out == "2\n"
    assert "preprocessing removed 259 options and 1 item (1 forced) in 3 rounds" in err


def test_cli_solutions_are_the_files_options(capsys):
    assert main(["--preprocess", "--no-progress", str(PENT)]) == 0
    out, _ = capsys.readouterr()
    problem = dlx.read(PENT)
    rows = {" ".join(problem.option(k)): k for k in range(problem.n_options)}
    blocks = out.strip("\n").split("\n\n")
    assert len(blocks) == 2
    for block in blocks:
        check(problem, [rows[line] for line in block.splitlines()])


def test_cli_write_preprocessed(tmp_path, capsys):
    out = tmp_path / "reduced.dlx"
    source = STORED / "tetriamonds3x4.dlx"
    assert main(["--write-preprocessed", str(out), str(source)]) == 0
    assert capsys.readouterr().out == ""
    assert kept(out.read_text()) == kept((STORED / "tetriamonds3x4.pre").read_text())
    assert main(["--count", "--no-progress", str(out)]) == 0
    assert capsys.readouterr().out == "1632\n"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--write-preprocessed", str(PENT)], "is the input file"),
        (["--preprocess", "--best", "2"], "no --best"),
        (["--count", "--write-preprocessed", "-"], "no --count"),
    ],
)
def test_cli_refusals(capsys, arguments, message):
    assert main([*arguments, str(PENT)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err


def test_cli_multiplicities_one_line(tmp_path, capsys):
    path = tmp_path / "mcc.dlx"
    path.write_text("2|a b\na\nb\n")
    assert main(["--count", "--preprocess", str(path)]) == 2
    out, err = capsys.readouterr()
    assert (
        out == ""
        and err
        == f"error: {path}: preprocessing takes exact covers only: item 'a' has bounds 2:2\n"
    )
