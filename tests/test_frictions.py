"""The frictions a new user met (issue 27, point 4), one test each: what they typed, and
what they should see. Every solution shown here goes through a checker."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import dlx
from dlx.search import Progress
from dlx.verify import check
from puzzles import polyomino as P
from puzzles import sudoku
from puzzles.cli import main
from puzzles.common import PuzzleError
from puzzles.polyform import tiling

ROOT = Path(__file__).resolve().parent.parent
SUDOKU = "1.3.3.1.2...4.2.\n" + "." * 16 + "\n"  # two one-line 4x4 puzzles


def run(capsys, *argv):
    """``python -m puzzles ARGV``: (exit status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


class Terminal(io.StringIO):
    """A standard input that is a terminal (nobody pipes puzzles in)."""

    def isatty(self) -> bool:
        return True


# -- python -m puzzles sudoku, with no FILE ----------------------------------------------


def test_sudoku_without_file_reads_standard_input(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(SUDOKU))
    status, out, _ = run(capsys, "sudoku", "--count")
    expected = [f"{p.label}: {sudoku.count(p)}" for p in sudoku.parse_all(SUDOKU)]
    assert status == 0 and out.splitlines() == expected
    assert expected[1] == "line 2: 288"  # the 4x4 sudoku grids (OEIS A107739)


def test_sudoku_without_file_on_a_terminal_is_a_usage_error(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", Terminal())
    status, out, err = run(capsys, "sudoku")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: give a puzzle FILE")


def test_sudoku_without_file_from_the_shell():
    """As typed: ``python -m puzzles sudoku < FILE`` solves; the answer is checked."""
    done = subprocess.run(
        [sys.executable, "-m", "puzzles", "sudoku", "--json", "--no-progress"],
        input=SUDOKU.splitlines()[0] + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    rows = json.loads(done.stdout)["puzzles"][0]["solutions"][0]
    assert sudoku.faults(sudoku.parse_all(SUDOKU)[0], rows) == []


# -- --board 8x 8: what is wrong with the board, in one line -------------------------------


@pytest.mark.parametrize("command", [["pentomino"], ["polyform", "--pieces", "pentominoes"]])
def test_a_board_split_by_a_blank_is_named(capsys, command):
    status, out, err = run(capsys, *command, "--board", "8x", "8", "--no-progress")
    assert status == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: --board '8x': neither")
    assert "'8' after it" in err and "No such file" not in err


def test_a_stray_word_after_a_good_board_is_named(capsys):
    status, _, err = run(capsys, "pentomino", "--board", "8x8", "--pieces", "pentominoes,", "O")
    assert status == 2 and err.count("\n") == 1
    assert "pentomino reads no FILE, but got 'O'" in err


# -- dlx.logic, dlx.count(engine=...) -----------------------------------------------------


def test_dlx_logic_reachable_from_import_dlx():
    code = (
        "import sys, dlx\n"
        "assert 'numba' not in sys.modules and 'dlx.logic' not in sys.modules\n"
        "p = dlx.Problem(primary=['a', 'b'])\n"
        "_ = p.add_option(['a']); _ = p.add_option(['b'])\n"
        "print([step.kind for step in dlx.logic.explain(p)])\n"
        "assert 'numba' not in sys.modules\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['single', 'single', 'solved']"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        dlx.nothing  # noqa: B018


def test_unknown_engine_lists_every_choice():
    p = dlx.Problem(primary=["a"])
    p.add_option(["a"])
    with pytest.raises(ValueError) as info:
        dlx.count(p, engine="fast")
    for name in dlx.ENGINE_CHOICES:
        assert repr(name) in str(info.value)
    assert "'auto'" in str(info.value)


# -- print(solution) ---------------------------------------------------------------------


def test_print_solution_shows_the_items():
    p = dlx.Problem(primary=["a", "b", "c"], secondary=["x"])
    p.add_option(["a", "x:red"], name="first")
    p.add_option(["b", "c"])
    p.add_option(["a", "b", "c"])
    s = dlx.first(p)
    check(p, s.options)
    assert repr(s) == "Solution(options=(0, 1))"
    assert str(s) == "first: a x:red\nb c"


# -- the bar's redraws when standard error is a file ---------------------------------------


def test_progress_bar_redraws_seldom_into_a_file(capsys):
    bar = Progress(True, "count")
    for k in range(1000):
        bar.update(k / 1000, k)
    bar.close(1.0, 1000)
    err = capsys.readouterr().err
    assert err.count("\r") <= 4, err  # the first draw, the last, and no more
    assert "100.0%" in err and "1000 solutions" in err


def test_progress_bar_follows_a_terminal(monkeypatch):
    monkeypatch.setattr("sys.stderr", Terminal())
    bar = Progress(True, "count")
    for k in range(50):
        bar.update(k / 50, k)
    bar.close(1.0, 50)
    assert sys.stderr.getvalue().count("\r") >= 50


# -- Python errors name arguments, the commands their flags --------------------------------


def test_python_errors_name_the_argument_and_commands_the_flag(capsys):
    with pytest.raises(PuzzleError, match=r"^pieces, item 2 'Q'"):
        tiling.make_puzzle("3x20", "pentominoes,Q")
    with pytest.raises(PuzzleError, match=r"^pieces, item 2 'Q'"):
        P.make_puzzle("3x20", "pentominoes,Q")
    with pytest.raises(PuzzleError, match=r"^extra, item 1 'Q'"):
        P.make_puzzle("8x8", "pentominoes", ["Q"])
    for make in (tiling.make_puzzle, P.make_puzzle):
        with pytest.raises(PuzzleError, match=r"^board '3 by 20': neither"):
            make("3 by 20", "pentominoes")
    status, _, err = run(capsys, "polyform", "--board", "3x20", "--pieces", "pentominoes,Q")
    assert status == 2 and err.startswith("error: --pieces, item 2 'Q'")
    status, _, err = run(capsys, "pentomino", "--board", "8x8", "--extra", "Q")
    assert status == 2 and err.startswith("error: --extra, item 1 'Q'")
    status, _, err = run(capsys, "pentomino", "--board", "0x8")
    assert status == 2 and err.startswith("error: --board '0x8': the board is empty")
