"""The numbers users give (issue 42): every public function of ``dlx`` (the solution
graph aside) and of the puzzle adapters takes integers as ``operator.index`` does
(numpy integers yes; bools, floats, strings and bytes no), caps of any size (one too
large to reach is no cap), NaN refused; every integer flag of ``python -m dlx`` and
``python -m puzzles`` is read in ASCII digits only (``dlx.numbers``). Hostile values
meet a documented exception (TypeError, ValueError, IndexError) or a correct answer,
never an AttributeError, an OverflowError or a numba error."""

from __future__ import annotations

import argparse
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dlx
from dlx import numbers
from dlx.cli import _parser as dlx_parser
from dlx.cli import main
from dlx.verify import check, naive_solutions
from puzzles import loop, queens, sudoku
from puzzles.cli import add_shared_arguments, command_of
from puzzles.cli import main as puzzles
from puzzles.command import Input


def _two() -> dlx.Problem:
    """a b c covered by {ab, c} or {a, bc}: 2 solutions (naive_solutions says so)."""
    p = dlx.Problem(primary=["a", "b", "c"])
    for option in (["a", "b"], ["c"], ["a"], ["b", "c"]):
        p.add_option(option)
    return p


TWO = _two()
assert len(naive_solutions(TWO)) == 2
LOOP = "┏┓\n┗┛\n"  # one answer (puzzles.loop's docstring)
SUDOKU = "...." * 4  # the 288 4x4 sudoku grids (puzzles.sudoku's docstring)

HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(2**80), 2**80),
    st.sampled_from([2**62, 2**63, 2**64, 10**30, -(2**63), 0, 1, 2, 3]),
    st.sampled_from(
        [np.int64(3), np.int32(0), np.uint64(2**63), np.float64(2.0), np.float32("nan")]
        + [np.bool_(True), np.int8(-1)]
    ),
    st.text(alphabet="0123456789３٣_-+. e", max_size=6),
    st.binary(max_size=4),
)
DOCUMENTED = (TypeError, ValueError, IndexError)


def _expect_limit(value) -> int | None:
    """What a limit ``value`` means if it is taken: its int (None: none)."""
    if value is None or (isinstance(value, float) and value == math.inf):
        return None
    return int(value)


def _capped(total: int, value) -> int:
    """What a search finding ``total`` answers finds under the limit ``value``."""
    limit = _expect_limit(value)
    return total if limit is None else min(total, limit)


def _count(result, limit) -> None:
    """A count of TWO under ``limit``: exact, at most the limit (else at least 0)."""
    assert isinstance(result, dlx.Count)
    if result.complete:
        assert result.solutions == 2
    else:
        assert 0 <= result.solutions <= 2
    if limit is not None:
        assert result.solutions <= limit and (result.solutions == 2 or result.solutions == limit)


def _listed(found, limit) -> None:
    """Solutions of TWO, each checked, at most ``limit`` of them."""
    for s in found:
        check(TWO, s.options)
    assert len(found) <= (2 if limit is None else min(2, limit))


# name: (call with the value, check of what it returned given the value as taken)
CALLS = {
    "count limit": (
        lambda v: dlx.count(TWO, limit=v, engine="dlx"),
        lambda r, v: _count(r, _expect_limit(v)) or r == _capped(2, v),
    ),
    "count node_limit": (
        lambda v: dlx.count(TWO, node_limit=v, engine="dlx"),
        lambda r, v: _count(r, None),
    ),
    "count time_limit": (
        lambda v: dlx.count(TWO, time_limit=v, engine="dlx"),
        lambda r, v: _count(r, None),
    ),
    "solutions limit": (
        lambda v: list(dlx.solutions(TWO, limit=v, engine="dlx")),
        lambda r, v: _listed(r, _expect_limit(v)),
    ),
    "solutions node_limit": (
        lambda v: list(dlx.solutions(TWO, node_limit=v, engine="dlx")),
        lambda r, v: _listed(r, None),
    ),
    "solutions time_limit": (
        lambda v: list(dlx.solutions(TWO, time_limit=v, engine="dlx")),
        lambda r, v: _listed(r, None),
    ),
    "first time_limit": (
        lambda v: dlx.first(TWO, time_limit=v, engine="dlx"),
        lambda r, v: check(TWO, r.options),
    ),
    "is_unique node_limit": (
        lambda v: dlx.is_unique(TWO, node_limit=v, engine="dlx"),
        lambda r, v: r is False,
    ),
    "batch limit": (
        lambda v: dlx.batch(TWO, [[], [0]], limit=v).counts.tolist(),
        lambda r, v: r == [_capped(2, v), _capped(1, v)],
    ),
    "Parallel tasks": (
        lambda v: dlx.count(TWO, parallel=dlx.Parallel(workers=1, tasks=v), engine="dlx"),
        lambda r, v: r == 2 and r.complete,
    ),
    "Parallel split_depth": (
        lambda v: dlx.count(TWO, parallel=dlx.Parallel(workers=1, split_depth=v), engine="dlx"),
        lambda r, v: r == 2 and r.complete,
    ),
    "Parallel workers": (lambda v: dlx.Parallel(workers=v), lambda r, v: r.workers == v),
    "forced": (
        lambda v: dlx.count(TWO, forced=[v], engine="dlx"),
        lambda r, v: r == 1 and 0 <= v < 4,
    ),
    "option": (lambda v: TWO.option(v), lambda r, v: r == TWO.option(int(v))),
    "option_name": (lambda v: TWO.option_name(v), lambda r, v: r is None),
    "option_cost": (lambda v: TWO.option_cost(v), lambda r, v: r == 0),
    "add_primary bounds": (
        lambda v: dlx.Problem(["x"]).add_primary("y", v, v),
        lambda r, v: 1 <= v,
    ),
    "add_option cost": (
        lambda v: dlx.Problem(["x"]).add_option(["x"], cost=v),
        lambda r, v: r == 0 and v >= 0,
    ),
    "check": (lambda v: dlx.is_solution(TWO, [v, 1]), lambda r, v: r == (v == 0)),
    "naive_solutions": (
        lambda v: naive_solutions(TWO, v),
        lambda r, v: v >= 4 and len(r) == 2,
    ),
    "sudoku.count limit": (
        lambda v: sudoku.count(SUDOKU, limit=v),
        lambda r, v: r == _capped(288, v),
    ),
    "loop.count limit": (
        lambda v: loop.count(LOOP, limit=v),
        lambda r, v: r == _capped(1, v),
    ),
    "loop.count time_limit": (lambda v: loop.count(LOOP, time_limit=v), lambda r, v: r <= 1),
}


def _is_ours(error: BaseException) -> bool:
    """Whether ``error`` is a documented one (not from numba, not an overflow)."""
    if type(error).__module__.startswith("numba"):
        return False
    if isinstance(error, (OverflowError, AttributeError)):
        return False
    return isinstance(error, DOCUMENTED)


@pytest.mark.parametrize("name", CALLS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=HOSTILE)
def test_hostile_values_get_an_answer_or_a_documented_error(name, value):
    call, right = CALLS[name]
    try:
        result = call(value)
    except dlx.InvalidSolution:
        assert name == "check"
        return
    except TimeoutError:  # a time or node limit of (almost) nothing: nothing decided
        assert "limit" in name
        return
    except Exception as error:
        assert _is_ours(error), (name, value, repr(error))
        assert str(error)
        return
    assert right(result, value) is not False, (name, value, result)


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: dlx.count(TWO, time_limit=math.nan), ValueError),
        (lambda: dlx.solutions(TWO, time_limit=float("nan")), ValueError),
        (lambda: dlx.batch(TWO, [[]], limit=2**64), None),
        (lambda: dlx.Parallel(tasks=2.5), TypeError),
        (lambda: dlx.Parallel(split_depth=math.nan), TypeError),
        (lambda: dlx.count(TWO, forced=[2**70]), dlx.ProblemError),
        (lambda: TWO.option_cost(-1), IndexError),
        (lambda: TWO.option(True), TypeError),
        (lambda: dlx.Problem(["x"]).add_primary("y", None, 2), dlx.ProblemError),
        (lambda: naive_solutions(TWO, math.nan), TypeError),
        (lambda: loop.count(LOOP, limit="3"), TypeError),
        (lambda: loop.count(LOOP, time_limit=-1), ValueError),
        (lambda: queens.queens(2**70), ValueError),
        (lambda: queens.queens(True), TypeError),
    ],
)
def test_numbers_that_slipped_through(call, error):
    """Each was taken (a NaN time limit, a float count of tasks), or raised an
    OverflowError or a TypeError from inside (``int too big to convert``)."""
    if error is None:
        call()
    else:
        with pytest.raises(error):
            call()


@pytest.mark.parametrize("limit", [2**63, 2**70, math.inf])
def test_a_limit_too_large_to_reach_is_no_limit(limit):
    """``count(p, limit=2**63)`` raised OverflowError: int too big to convert."""
    assert dlx.count(TWO, limit=limit) == 2 and dlx.count(TWO, limit=limit).complete
    assert len(list(dlx.solutions(TWO, limit=limit))) == 2
    assert dlx.batch(TWO, [[]], limit=limit).counts.tolist() == [2]


# -- the command lines -------------------------------------------------------------------


def _puzzle_parser(name: str) -> argparse.ArgumentParser:
    """The parser of ``python -m puzzles NAME``, as ``puzzles.cli.parse_request`` makes it."""
    command = command_of(name)
    parser = argparse.ArgumentParser(prog=name)
    if command.add_arguments is not None:
        command.add_arguments(parser.add_argument_group(name))
    add_shared_arguments(parser, command.workers, command.input is Input.FILE)
    return parser


PUZZLE_COMMANDS = ["pentomino", "polyform", "sudoku", "tectonic", "loop", "pipes", "slitherlink"]
PARSERS = {
    "dlx": dlx_parser,
    **{name: (lambda n=name: _puzzle_parser(n)) for name in PUZZLE_COMMANDS},
}


def _number_flags(parser: argparse.ArgumentParser) -> list[tuple[str, object]]:
    """(flag, its type) for every flag of ``parser`` that reads a value with a type."""
    return [
        (action.option_strings[-1], action.type)
        for action in parser._actions
        if action.option_strings and action.type not in (None, str)
    ]


@pytest.mark.parametrize("name", PARSERS)
def test_every_number_flag_reads_ascii_digits(name):
    """``--sample``, ``--seed``, ``--nth`` and ``--max-graph-nodes`` took ``int``:
    ``３`` and ``1_0`` were numbers."""
    flags = _number_flags(PARSERS[name]())
    assert flags
    for flag, kind in flags:
        assert kind in (numbers.integer, numbers.real), (name, flag, kind)


@pytest.mark.parametrize("name", PARSERS)
@settings(max_examples=30, deadline=None)
@given(text=st.text(alphabet="0123456789３٣_-+. e\u00a0x", min_size=0, max_size=6))
def test_number_flags_take_ascii_numbers_only(name, text):
    parser = PARSERS[name]()
    for flag, kind in _number_flags(parser):
        try:
            kind(text)
        except ValueError:
            continue
        assert text.isascii() and "_" not in text, (flag, text)


@pytest.mark.parametrize(
    "args",
    [
        ["--sample", "３"],
        ["--nth", "３"],
        ["--sample", "2", "--seed", "３"],
        ["--sample", "1_0"],
        ["--sample", "2", "--max-graph-nodes", "1０"],
    ],
)
def test_the_graph_flags_refuse_unicode_digits(capsys, args):
    with pytest.raises(SystemExit) as stop:
        main([str(_scott()), *args])
    assert stop.value.code == 2 and "invalid integer value" in capsys.readouterr().err


def test_the_polyform_sample_refuses_unicode_digits(capsys):
    with pytest.raises(SystemExit) as stop:
        puzzles(["pentomino", "--board", "3x20", "--sample", "３"])
    assert stop.value.code == 2 and "invalid integer value" in capsys.readouterr().err


def test_a_time_limit_of_centuries_is_none(tmp_path, capsys):
    """``--time-limit 1e308`` gave an OverflowError traceback from setitimer."""
    path = tmp_path / "s.txt"
    path.write_text("1...\n..1.\n.1..\n...1\n")
    assert puzzles(["sudoku", str(path), "--count"]) == 0
    unlimited = capsys.readouterr().out
    assert puzzles(["sudoku", str(path), "--count", "--time-limit", "1e308"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err and out == unlimited, (out, err)


def _scott():
    from shared import DATA

    return DATA / "scott_sym.dlx"
