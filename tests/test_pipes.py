"""The placement puzzle (pipes): brute force, multiplicities, connection, formats, errors."""

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pipe_grids import solved_grids

import dlx
from puzzles import pipes, tiles
from puzzles.cli import main
from puzzles.common import PuzzleError

EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "pipes" / "example.txt"


def one_network(grid) -> bool:
    """True when the pipes join all non-empty cells (a union-find, written here)."""
    grid = np.asarray(grid)
    rows, columns = grid.shape
    parent = {(r, c): (r, c) for r in range(rows) for c in range(columns) if grid[r, c]}

    def root(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for r, c in parent:
        if grid[r, c] & 2 and c + 1 < columns and grid[r, c + 1] & 8:
            parent[root((r, c))] = root((r, c + 1))
        if grid[r, c] & 4 and r + 1 < rows and grid[r + 1, c] & 1:
            parent[root((r, c))] = root((r + 1, c))
    return len({root(x) for x in parent}) <= 1


def brute_force(puzzle: pipes.Puzzle, connected: bool = False) -> set[bytes]:
    """Every solution, by trying every arrangement of the tiles on the free cells in
    reading order, giving up on a partial board as soon as a placed tile disagrees with
    its upper or left neighbour; full boards are judged by ``open_ends``."""
    rows, columns = puzzle.board.shape
    free = list(zip(*np.nonzero(puzzle.board < 0), strict=True))
    grid = puzzle.board.copy()
    left = Counter(puzzle.counts)
    found = set()

    def agrees(r, c) -> bool:
        m = grid[r, c]
        if r > 0 and grid[r - 1, c] >= 0 and bool(m & 1) != bool(grid[r - 1, c] & 4):
            return False
        return not (c > 0 and grid[r, c - 1] >= 0 and bool(m & 8) != bool(grid[r, c - 1] & 2))

    def place(k: int) -> None:
        if k == len(free):
            if not tiles.open_ends(grid) and (not connected or one_network(grid)):
                found.add(grid.tobytes())
            return
        r, c = free[k]
        for m in sorted(left):
            if left[m]:
                grid[r, c] = m
                if agrees(r, c):
                    left[m] -= 1
                    place(k + 1)
                    left[m] += 1
        grid[r, c] = -1

    place(0)
    return found


def checked(puzzle: pipes.Puzzle, connected: bool = False) -> set[bytes]:
    """The solutions found by the model, each checked at both levels."""
    problem = pipes.build(puzzle)
    found = set()
    for solution in dlx.solutions(problem):
        dlx.check(problem, solution.options)
        grid = pipes.decode(puzzle, solution).grid
        assert pipes.faults(puzzle, grid) == []
        if not connected or one_network(grid):
            found.add(grid.tobytes())
    streamed = {g.grid.tobytes() for g in pipes.solutions(puzzle, connected=connected)}
    assert streamed == found
    return found


def test_example_file():
    puzzle = pipes.parse(EXAMPLE.read_text(encoding="utf-8"))
    assert puzzle.shape == (3, 4)
    assert checked(puzzle) == brute_force(puzzle)
    assert len(brute_force(puzzle)) == pipes.count(puzzle).solutions == 6
    assert checked(puzzle, True) == brute_force(puzzle, True)
    assert pipes.count(puzzle, connected=True).solutions == 2
    assert pipes.count(puzzle, limit=2).solutions == 2


@settings(max_examples=60, deadline=None)
@given(solved_grids(max_rows=3, max_columns=3, max_cells=8), st.randoms(use_true_random=False))
def test_random_puzzles_against_brute_force(grid, rng):
    grid = np.asarray(grid, dtype=np.int64)
    board = grid.copy()
    fixed = {(r, c) for r in range(grid.shape[0]) for c in range(grid.shape[1])}
    fixed = {x for x in fixed if rng.random() < 0.25}
    counts = Counter()
    for (r, c), m in np.ndenumerate(grid):
        if (r, c) not in fixed:
            board[r, c] = -1
            counts[int(m)] += 1
    text = tiles.format_grid(board, tiles.GridFormat(numbers=True))
    text += "tiles: " + " ".join(f"{m}*{k}" for m, k in counts.items()) + "\n"
    puzzle = pipes.parse(text)
    expected = brute_force(puzzle)
    assert grid.tobytes() in expected
    assert checked(puzzle) == expected
    assert pipes.count(puzzle).solutions == len(expected)
    assert checked(puzzle, connected=True) == brute_force(puzzle, connected=True)


def test_identical_copies_do_not_multiply():
    puzzle = pipes.parse("....\ntiles: ╺ ━ ━ ╸")
    assert pipes.count(puzzle).solutions == 1
    puzzle = pipes.parse("..\n..\ntiles: 0*4")
    assert pipes.count(puzzle).solutions == 1
    puzzle = pipes.parse("....\n....\ntiles: ┏*2 ┓*2 ┗*2 ┛*2")
    assert pipes.count(puzzle).solutions == len(brute_force(puzzle)) == 1


def test_fixed_cells_and_no_solution():
    puzzle = pipes.parse("╺.\ntiles: ╻")
    assert pipes.count(puzzle).solutions == 0
    assert list(pipes.solutions(puzzle)) == []
    puzzle = pipes.parse("╸.\ntiles: 0")  # the fixed tile points off the board
    assert pipes.count(puzzle).solutions == 0


def test_formats():
    glyphs = pipes.parse("# a comment\n.┫...\ntiles: ┏┓ ━*2")
    assert glyphs.counts == {6: 1, 10: 2, 12: 1}
    numbers = pipes.parse(". 13 . . .\ntiles: 6 12 10*2")
    assert np.array_equal(glyphs.board, numbers.board) and glyphs.counts == numbers.counts
    assert pipes.parse(". . .\ntiles: 0*3").format.numbers
    assert not pipes.parse(".. .\ntiles: 0*3").format.numbers
    header = pipes.parse("1\n2\n0\n. .\ntiles: ╺ ╸")
    text = pipes.render(next(iter(pipes.solutions(header))))
    assert text == "1\n2\n0\n2 8\n"
    light = pipes.parse("..\ntiles: ╶ ╴")
    assert str(next(iter(pipes.solutions(light)))) == "╶╴\n"


@pytest.mark.parametrize(
    "text, where",
    [
        ("...\n...", "no 'tiles:' line"),
        ("...\ntiles: ━ ━", "line 2: 2 tiles to place, but the board has 3 free cells"),
        ("...\ntiles: ━ ━ x", "line 2, tile 3"),
        ("...\ntiles: ━ ━ 16", "line 2, tile 3"),
        ("...\ntiles: ━ ┏┓*2", "line 2, tile 2"),
        ("...\n..\ntiles: ━ ━ ━ ━ ━", "line 2"),
        (". . .\n. 3 x\ntiles: 0*5", "line 2, column 3"),
    ],
)
def test_bad_input(text, where):
    with pytest.raises(PuzzleError, match=where):
        pipes.parse(text)


def test_cli(capsys, tmp_path):
    path = str(EXAMPLE)
    puzzle = pipes.parse(EXAMPLE.read_text(encoding="utf-8"))
    assert main(["pipes", path]) == 0
    assert pipes.faults(puzzle, pipes.parse_answer(capsys.readouterr().out)) == []
    assert main(["pipes", path, "--count"]) == 0
    assert capsys.readouterr().out == "6\n"
    assert main(["pipes", path, "--count", "--connected"]) == 0
    assert capsys.readouterr().out == "2\n"
    assert main(["pipes", path, "--unique"]) == 1
    assert capsys.readouterr().out == "not unique\n"
    assert main(["pipes", path, "--all", "--connected"]) == 0
    shown = capsys.readouterr().out.strip("\n").split("\n\n")
    assert len(shown) == 2
    for text in shown:
        grid = pipes.parse_answer(text)
        assert pipes.faults(puzzle, grid) == [] and one_network(grid)
    svg = tmp_path / "p.svg"
    assert main(["pipes", path, "--svg", str(svg)]) == 0
    assert svg.read_text().startswith("<svg")
    bad = tmp_path / "bad.txt"
    bad.write_text("...\ntiles: ━\n", encoding="utf-8")
    assert main(["pipes", str(bad)]) == 2
    assert "1 tiles to place" in capsys.readouterr().err
