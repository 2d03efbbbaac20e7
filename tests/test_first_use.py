"""A new user's first commands, one test each: what they type, and what they should
see. Every solution shown here goes through a checker."""

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import dlx
from dlx.driver.results import Progress
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


def test_progress_bar_redraws_seldom_into_a_file(capsys, monkeypatch):
    monkeypatch.delenv("DLX_PROGRESS_SECONDS", raising=False)  # (the suite sets it)
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


# -- tilings: the piece O, pictures, summaries --------------------------------------------


def test_piece_o_wherever_extra_takes_it(capsys):
    """``O`` (the 2x2 square, ``O4``) in ``--pieces`` of both tiling commands, as in
    ``--extra``; the solutions listed are checked."""
    makers = {"polyform": tiling.make_puzzle, "pentomino": P.make_puzzle}
    for command, make in makers.items():
        puzzle = make("8x8", "pentominoes,O")
        assert puzzle.names[-1] == "O4"
        argv = ["--board", "8x8", "--pieces", "pentominoes,O", "--restrict", "O", "--limit", "2"]
        status, out, _ = run(capsys, command, *argv, "--json", "--no-progress")
        assert status == 0
        solutions = json.loads(out)["puzzles"][0]["solutions"]
        assert len(solutions) == 2
        for solution in solutions:
            found = [(p["piece"], frozenset(map(tuple, p["cells"]))) for p in solution]
            assert tiling.faults(puzzle, found) == []
    status, out, _ = run(capsys, "polyform", "--board", "4x4", "--pieces", "O*4", "--json")
    entry = json.loads(out)["puzzles"][0]
    assert status == 0 and (entry["all"], entry["distinct"]) == (1, 1)
    status, out, _ = run(capsys, "polyform", "--board", "8x8", "--pieces", "pentominoes,-O")
    assert status == 2


def test_svg_of_one_tiling():
    for puzzle, module in (
        (P.make_puzzle("3x20"), P),
        (tiling.make_puzzle("6x6", "hexiamonds"), tiling),
    ):
        first = next(module.distinct_tilings(puzzle))
        assert tiling.faults(puzzle, first) == []
        one = module.svg(puzzle, first)
        assert one == module.svg(puzzle, [first])
        assert one.startswith("<svg") and one.count("<path") == 12


def test_print_puzzle_is_a_summary():
    text = str(P.make_puzzle("6x10"))
    assert text == (
        "60 cells on the square lattice, 12 free pieces (F I L N P T U V W X Y Z), 2056 placements"
    )
    assert "lambda" not in repr(P.make_puzzle("6x10")) and text in repr(P.make_puzzle("6x10"))
    cube = tiling.make_puzzle("3x3x3", "soma")
    assert str(cube).startswith("27 cells on the cubic lattice, 7 pieces (V L T Z A B P)")
    assert "lambda" not in repr(cube) and "lambda" not in repr(cube.lattice)


def test_tilings_draw_themselves():
    for puzzle, module in ((P.make_puzzle("3x20"), P), (tiling.make_puzzle("4x4", "O*4"), tiling)):
        first = next(module.distinct_tilings(puzzle))
        assert tiling.faults(puzzle, first) == []
        assert first._repr_svg_() == module.svg(puzzle, [first])
        assert str(first) == module.render(puzzle, first)
        assert first == list(first) and isinstance(first, list)
    cube = tiling.make_puzzle("3x3x3", "soma")
    found = next(tiling.distinct_tilings(cube))
    assert tiling.faults(cube, found) == []
    assert found._repr_svg_().startswith("<svg") and "\n\n" in str(found)  # layers


def test_a_resumed_tiling_count_says_so(tmp_path, capsys):
    """As ``python -m dlx --checkpoint`` does: how many subproblems the checkpoint held.
    3x20 pentominoes: 8 all, 2 distinct (Polyform Puzzler, Pentominoes3x20)."""
    argv = ["pentomino", "--board", "3x20", "--workers", "1", "--no-progress"]
    argv += ["--checkpoint", str(tmp_path / "c.ckpt")]
    status, out, err = run(capsys, *argv)
    assert status == 0 and out == "all solutions: 8\ndistinct solutions: 2\n"
    tasks = int(err.split(": 0 of ")[1].split()[0])
    assert tasks > 0 and err.rstrip().endswith(f"0 of {tasks} subproblems were done before")
    status, out, err = run(capsys, *argv)
    assert status == 0 and out == "all solutions: 8\ndistinct solutions: 2\n"
    assert err.rstrip().endswith(f"c.ckpt: {tasks} of {tasks} subproblems were done before")


# -- --dask on the tiling commands ----------------------------------------------------------


def test_tiling_commands_search_on_dask(dask_client, capsys):
    """The count's tasks run on the cluster (its task stream sees them); 5x12
    pentominoes: 1010 distinct, 4040 all (Polyform Puzzler, Pentominoes5x12)."""
    from dask.distributed import get_task_stream

    address = dask_client.scheduler.address
    with get_task_stream(dask_client) as tasks:
        status, out, _ = run(capsys, "pentomino", "--board", "5x12", "--dask", address)
    assert status == 0 and out == "all solutions: 4040\ndistinct solutions: 1010\n"
    assert len(tasks.data) > 1
    argv = ["polyform", "--board", "3x20", "--pieces", "pentominoes", "--dask", address]
    status, out, _ = run(capsys, *argv, "--count", "--no-progress")
    assert status == 0 and out == "all solutions: 8\ndistinct solutions: 2\n"
    status, out, _ = run(capsys, *argv, "--all", "--json", "--no-progress")
    solutions = json.loads(out)["puzzles"][0]["solutions"]
    puzzle = tiling.make_puzzle("3x20", "pentominoes")
    assert status == 0 and len(solutions) == 2
    for solution in solutions:
        found = [(p["piece"], frozenset(map(tuple, p["cells"]))) for p in solution]
        assert tiling.faults(puzzle, found) == []


@pytest.mark.parametrize("command", [["pentomino"], ["polyform", "--pieces", "pentominoes"]])
def test_dask_missing_is_one_line(monkeypatch, capsys, command):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # the import fails
    status, out, err = run(capsys, *command, "--board", "3x20", "--dask", "tcp://127.0.0.1:1")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("error: --dask: searching on Dask needs the dask.distributed package")


# -- the polyform API ------------------------------------------------------------------


def test_polyform_api_is_exported_and_documented():
    import puzzles.polyform as api

    assert sorted(api.__all__) == sorted(set(api.__all__))
    for name in api.__all__:
        thing = getattr(api, name)
        assert thing.__doc__ and len(thing.__doc__.strip()) > 20, name
    for name in ("make_puzzle", "count_tilings", "distinct_tilings", "svg", "render"):
        doc = getattr(api, name).__doc__
        assert ">>> " in doc, name
    for name in ("make_puzzle", "count_tilings", "distinct_tilings", "svg"):
        assert "Parameters\n    ----------" in getattr(api, name).__doc__, name


def test_tilings_count_with_the_commands_default_engine(monkeypatch):
    """The tiling commands' default kernel is auto, and so is the Python API's."""
    from puzzles.polyform import cli

    engines = []
    count, solutions = dlx.count, dlx.solutions
    monkeypatch.setattr(dlx, "count", lambda *a, **k: engines.append(k["engine"]) or count(*a, **k))
    monkeypatch.setattr(
        dlx, "solutions", lambda *a, **k: engines.append(k["engine"]) or solutions(*a, **k)
    )
    puzzle = tiling.make_puzzle("3x20", "pentominoes")
    assert tiling.count_tilings(puzzle).distinct == 2
    assert len(list(tiling.distinct_tilings(puzzle))) == 2
    assert engines == ["auto", "auto"] and cli.ENGINE == "auto"
    assert "auto (the default" in " ".join(cli_help("polyform").split())


def cli_help(command: str) -> str:
    """The text of ``python -m puzzles COMMAND --help``."""
    out = io.StringIO()
    with pytest.raises(SystemExit), contextlib.redirect_stdout(out):
        main([command, "--help"])
    return out.getvalue()
