"""Small frictions a new user met (issue 37, point 8), each checked: numbers with their
noun in the singular or plural, short reprs, argument errors in one line with a
suggestion, the API page opening on what a program needs, the changelog, the supported
versions, ``build`` in the test extra, help texts that agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import dlx
from dlx.cli import main as dlx_main
from puzzles.cli import main as puzzles_main
from puzzles.polyform import tiling

ROOT = Path(__file__).resolve().parent.parent


def one_solution() -> dlx.Problem:
    p = dlx.Problem(primary=["a"])
    p.add_option(["a"])
    return p


def test_one_solution_is_singular():
    """ "1 solutions" in the summary, the graph's repr and a stopped count."""
    count = dlx.count(one_solution())
    dlx.check(one_solution(), [0])
    assert str(count.stats).splitlines()[-1].startswith("1 solution, 1 node, ")
    assert repr(dlx.graph(one_solution())).startswith("Graph(1 solution, ")
    assert dlx.stopping.message(dlx.Interrupted(1)) == "interrupted: at least 1 solution"


def test_counts_print_short():
    """``print(Counts(...))`` was 600 characters: its statistics and its ``how``."""
    counts = tiling.count_tilings(tiling.make_puzzle("3x20", "pentominoes"))
    assert (counts.all, counts.distinct) == (8, 2)  # 3x20 pentominoes: 2 (Golomb)
    assert len(repr(counts)) < 120 and "how" not in repr(counts)


@pytest.mark.parametrize(
    "main, argv, suggestion",
    [
        (dlx_main, ["x.dlx", "--cuont"], "did you mean --count?"),
        (puzzles_main, ["pentomino", "--engine", "tigth"], "did you mean tight?"),
        (puzzles_main, ["pentomio"], "did you mean pentomino?"),
    ],
)
def test_an_argument_mistake_is_one_line_error_first(main, argv, suggestion, capsys):
    """13 lines of usage came before the one line, with no suggestion."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1
    assert re.match(r"python -m \w+.*: error: ", err) and suggestion in err


def test_the_tiling_commands_show_no_file_they_refuse(capsys):
    for command in ("pentomino", "polyform"):
        with pytest.raises(SystemExit):
            puzzles_main([command, "--help"])
        assert "[FILE]" not in capsys.readouterr().out


def test_engine_help_names_every_kernel(capsys):
    """``pentomino --help`` described --engine without tight, and auto as it was."""
    for argv in (["--help"], ["pentomino", "--help"], ["polyform", "--help"]):
        main = dlx_main if argv == ["--help"] else puzzles_main
        with pytest.raises(SystemExit):
            main(argv)
        text = " ".join(capsys.readouterr().out.split())
        assert " ".join(dlx.ENGINE_HELP.split()) in text
    assert all(name in dlx.ENGINE_HELP for name in dlx.ENGINE_CHOICES)


def test_the_api_page_opens_on_what_a_program_needs():
    """The page opened on BitMemo and BitsetSearch; Problem was the 16th entry."""
    page = (ROOT / "docs" / "api" / "dlx.md").read_text()
    entries = re.findall(r"^::: (\S+)", page, re.MULTILINE)
    assert entries[:6] == ["dlx.Problem", "dlx.count", "dlx.solutions", "dlx.first",
                           "dlx.is_unique", "dlx.graph"]  # fmt: skip


def test_a_changelog_and_the_supported_versions():
    assert (ROOT / "CHANGELOG.md").read_text().startswith("# Changelog")
    project = (ROOT / "pyproject.toml").read_text()  # (tomllib: Python 3.11+)
    assert '"Programming Language :: Python :: 3.11"' in project
    assert '"Operating System :: POSIX :: Linux"' in project
    assert re.search(r'^test = \[.*"build>=1"', project, re.MULTILINE)
    assert "Python 3.10 to 3.12 on Linux" in (ROOT / "README.md").read_text()


def test_star_k_is_k_copies_in_all():
    """``pentominoes,I*2`` gave three I's (the set's one, and two more)."""
    from puzzles import polyomino
    from puzzles.polyform import pieces

    assert {p.name: p.copies for p in polyomino.parse_pieces("pentominoes,I*2")}["I"] == 2
    polyform = {p.name: p.copies for p in pieces.parse_pieces("pentominoes,I*2").pieces}
    assert polyform["I"] == 2 and polyform["F"] == 1
    assert {p.name: p.copies for p in polyomino.parse_pieces("I,I")}["I"] == 2  # twice: 2


@pytest.mark.parametrize("command", [["pentomino"], ["polyform", "--pieces", "pentominoes"]])
def test_a_board_that_the_pieces_do_not_fit_names_its_file(command, tmp_path, capsys):
    """ "pieces cover 60 cells but the board has 61" named no file."""
    board = tmp_path / "board.txt"
    board.write_text("....\n..x.\n....\n")  # one cell ('.' is a hole)
    assert puzzles_main([*command, "--board", str(board), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"error: {board}: the pieces cover 60 cells but the board has 1 ")


def test_a_misspelt_set_gets_a_suggestion(capsys):
    """``--pieces pentominos`` was "character 1, 'p'"."""
    assert puzzles_main(["pentomino", "--pieces", "pentominos", "--no-progress"]) == 2
    assert "(did you mean pentominoes?)" in capsys.readouterr().err


def test_no_lock_file_is_left_after_a_checkpointed_run(tmp_path):
    """A finished run left ``run.ckpt.lock`` beside its checkpoint."""
    path = tmp_path / "run.ckpt"
    problem = dlx.read(ROOT / "data" / "dlx" / "pent3x20_sym.dlx")
    count = dlx.count(problem, parallel=dlx.Parallel(workers=1, checkpoint=path))
    assert count == 2  # 3x20 pentominoes: 2 (Golomb)
    assert path.exists() and not (tmp_path / "run.ckpt.lock").exists()
    again = dlx.count(problem, parallel=dlx.Parallel(workers=1, checkpoint=path))
    assert again == 2 and again.resumed == again.tasks  # every task read back
    assert not (tmp_path / "run.ckpt.lock").exists()


def test_the_readme_says_where_its_data_files_are():
    """The wheel holds the code only: every file the README's commands read is in the
    repository's ``data/``, and the README says so where it speaks of the wheel."""
    readme = (ROOT / "README.md").read_text()
    named = set(re.findall(r"\bdata/[\w/.-]+\.\w+", readme))
    assert len(named) >= 6
    for path in named:
        assert (ROOT / path).is_file(), path
    said = " ".join(readme.split())
    assert "are not in the wheel: they are the repository's `data/` folder" in said


def test_a_misspelt_keyword_of_count_tilings_names_count_tilings():
    """``count_tilings(worker=1)`` said "count() got an unexpected keyword argument"."""
    puzzle = tiling.make_puzzle("3x20", "pentominoes")
    with pytest.raises(TypeError, match=r"^count_tilings\(\) got an unexpected keyword "
                       r"argument 'worker' \(did you mean workers\?\)$"):  # fmt: skip
        tiling.count_tilings(puzzle, worker=1)
    with pytest.raises(TypeError, match=r"^distinct_tilings\(\) got an unexpected keyword"):
        next(tiling.distinct_tilings(puzzle, timelimit=1))


@pytest.mark.parametrize("name", ["sudoku", "tectonic", "pipes", "slitherlink"])
def test_a_puzzle_given_as_a_list_is_a_type_error_naming_the_call(name):
    """``sudoku.solve`` given a list raised ``AttributeError: 'list' object has no
    attribute 'side'``."""
    import importlib

    adapter = importlib.import_module(f"puzzles.{name}")
    for call in (adapter.solve, adapter.count):
        with pytest.raises(TypeError, match=rf"^puzzles\.{name}\.{call.__name__}\(\) takes a "
                           rf"puzzle's text \(a str\) or a puzzle from puzzles\.{name}\.parse, "
                           "not list$"):  # fmt: skip
            call([[0] * 9] * 9)


@pytest.mark.parametrize("module", ["puzzles.polyomino", "puzzles.polyform.tiling"])
def test_a_tiling_prints_the_way_its_svg_draws_it(module):
    """The same tiling printed upside down in ``pentomino``, ``polyform`` and
    ``tiling.render`` against the SVG: the piece in each corner of the printed board
    has that corner of the drawing on its outline."""
    import importlib

    adapter = importlib.import_module(module)
    puzzle = adapter.make_puzzle("4x15", "pentominoes")
    answer = next(adapter.distinct_tilings(puzzle))
    rows = adapter.render(puzzle, answer).splitlines()
    drawing = adapter.svg(puzzle, answer)
    margin = float(re.search(r"translate\(([\d.]+),", drawing).group(1))
    width = float(re.search(r'<svg[^>]* width="([\d.]+)"', drawing).group(1))
    cell = (width - 2 * margin) / len(rows[0])
    piece = r'<path d="([^"]*)"[^>]*/>\s*<text[^>]*>(\w+)<'  # an outline, then its label
    outline = {name: f"{d} " for d, name in re.findall(piece, drawing)}
    for r, y in ((0, 0), (-1, len(rows) * cell)):
        for c, x in ((0, 0), (-1, len(rows[0]) * cell)):
            assert re.search(rf"[ML]{x:g},{y:g}[ Z]", outline[rows[r][c]]), (rows[r][c], x, y)
