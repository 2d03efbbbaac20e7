"""Tectonic / suguru: the puzzlekit set against its answers, the window encoding
against brute force, bad input, CLI.

Every solution goes through the engine's exact-cover checker, ``tectonic.faults``,
and ``rules_hold`` below, written from the rules alone.
"""

import json
import random
from collections import Counter
from itertools import product
from math import prod
from pathlib import Path

import pytest

import dlx
from puzzles import tectonic
from puzzles.cli import main
from puzzles.common import PuzzleError
from puzzles.numbergrid import parse_solution_text, render_grid

DATA = Path(__file__).resolve().parent.parent / "data" / "tectonic"


def rules_hold(values, regions) -> bool:
    """Each region of p cells holds 1..p; no two touching cells (8 directions) equal."""
    h, w = len(values), len(values[0])
    by_region = {}
    for r in range(h):
        for c in range(w):
            by_region.setdefault(regions[r][c], []).append(values[r][c])
            for dr, dc in product((-1, 0, 1), repeat=2):
                a, b = r + dr, c + dc
                if (dr, dc) != (0, 0) and 0 <= a < h and 0 <= b < w:
                    if values[a][b] == values[r][c]:
                        return False
    return all(sorted(v) == list(range(1, len(v) + 1)) for v in by_region.values())


def check_solution(puzzle, solution: dlx.Solution):
    values = tectonic.decode(puzzle, solution).values
    dlx.check(solution.problem, solution.options)
    assert tectonic.faults(puzzle, values) == []
    assert rules_hold(values, puzzle.grid.regions)
    for r, c, v in puzzle.grid.givens():
        assert values[r][c] == v
    return values


def brute_force_count(regions) -> int:
    """Solutions of an empty tectonic by trying every filling (tiny grids only)."""
    h, w = len(regions), len(regions[0])
    size = {}
    for row in regions:
        for k in row:
            size[k] = size.get(k, 0) + 1
    ranges = [range(1, size[regions[r][c]] + 1) for r in range(h) for c in range(w)]
    total = 0
    for flat in product(*ranges):
        values = [list(flat[r * w : (r + 1) * w]) for r in range(h)]
        total += rules_hold(values, regions)
    return total


def load_pairs():
    puzzles = tectonic.parse_all((DATA / "Suguru_puzzles.json").read_text())
    answers = json.loads((DATA / "Suguru_solutions.json").read_text())["solutions"]
    return [(p, parse_solution_text(answers[p.grid.style.id]["solution"])) for p in puzzles]


def test_checker_rejects_touching_equal_numbers():
    regions = [[0, 0], [1, 1]]
    assert rules_hold([[1, 2], [2, 1]], regions) is False  # diagonal 1s and 2s touch
    assert rules_hold([[1, 2], [1, 2]], regions) is False
    assert brute_force_count(regions) == 0
    assert rules_hold([[1, 2, 1]], [[0, 0, 1]])


def check_puzzlekit(step: int):
    pairs = load_pairs()
    assert len(pairs) == 200
    for puzzle, answer in pairs[::step]:
        found = list(dlx.solutions(tectonic.build(puzzle), limit=2))
        assert len(found) == 1, puzzle.grid.where
        assert check_solution(puzzle, found[0]) == answer


def test_puzzlekit_sample_matches_answers():
    check_puzzlekit(step=5)


@pytest.mark.slow
def test_puzzlekit_all_match_answers():
    check_puzzlekit(step=1)


def test_solve_and_count_take_text_or_puzzle():
    puzzle, answer = load_pairs()[0]
    assert tectonic.solve(puzzle).values == answer
    text = (DATA / "Suguru_puzzles.json").read_text()
    first = render_grid(puzzle.grid)  # as a grid of values, then one of region ids
    assert tectonic.solve(first).values == answer
    assert tectonic.count(first).solutions == 1
    with pytest.raises(PuzzleError, match="holds 200 puzzles"):
        tectonic.solve(text)


def test_faults_names_what_is_wrong():
    puzzle, answer = load_pairs()[0]
    assert tectonic.faults(puzzle, answer) == []
    values = [row[:] for row in answer]
    given = next((r, c) for r, c, _ in puzzle.grid.givens())
    r, c = given
    values[r][c] = answer[r][c] % 5 + 1
    found = tectonic.faults(puzzle, values)
    assert any(f"row {r + 1}, column {c + 1}: the given" in f for f in found)
    assert any("holds" in f for f in found)
    assert tectonic.faults(puzzle, values[1:]) == [
        f"the grid is not {puzzle.grid.height}x{puzzle.grid.width}"
    ]


def random_regions(h: int, w: int, rng: random.Random) -> list[list[int]]:
    """Random connected regions of 1 to 4 cells, grown from unassigned cells."""
    regions = [[-1] * w for _ in range(h)]
    k = 0
    for r in range(h):
        for c in range(w):
            if regions[r][c] >= 0:
                continue
            cells = [(r, c)]
            regions[r][c] = k
            target = rng.randint(1, 4)
            while len(cells) < target:
                options = [
                    (a, b)
                    for x, y in cells
                    for a, b in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
                    if 0 <= a < h and 0 <= b < w and regions[a][b] < 0
                ]
                if not options:
                    break
                a, b = rng.choice(options)
                regions[a][b] = k
                cells.append((a, b))
            k += 1
    return regions


def test_window_encoding_counts_match_brute_force():
    rng = random.Random(2024)
    nonzero = 0
    tried = 0
    while tried < 30:
        h, w = rng.choice([(1, 5), (2, 3), (3, 3), (2, 4), (3, 4)])
        regions = random_regions(h, w, rng)
        sizes = Counter(k for row in regions for k in row).values()
        if prod(p**p for p in sizes) > 100_000:  # brute force tries that many fillings
            continue
        tried += 1
        text = "\n".join(" ".join("-" * w) for _ in range(h)) + "\n"
        text += "\n".join(" ".join(str(k + 1) for k in row) for row in regions) + "\n"
        puzzle = tectonic.parse(text)
        found = list(dlx.solutions(tectonic.build(puzzle)))
        for s in found:
            check_solution(puzzle, s)
        assert len({tuple(map(tuple, tectonic.decode(puzzle, s).values)) for s in found}) == len(
            found
        )
        assert len(found) == brute_force_count(regions), regions
        nonzero += bool(found)
    assert nonzero >= 5  # the comparison is not only 0 == 0


def test_grid_input_and_output(capsys, tmp_path):
    regions = "1 1 2\n1 1 2\n3 3 3\n"
    empty = tectonic.parse("- - -\n" * 3 + regions)
    assert tectonic.count(empty).solutions == 2 == brute_force_count(empty.grid.regions)
    text = "2 - -\n- - -\n- - -\n" + regions
    puzzle = tectonic.parse(text)
    assert tectonic.count(puzzle).solutions == 1
    f = tmp_path / "t.txt"
    f.write_text(text)
    assert main(["tectonic", str(f)]) == 0
    out = capsys.readouterr().out
    assert out == "2 3 1\n1 4 2\n2 3 1\n"
    assert rules_hold(
        [[int(t) for t in line.split()] for line in out.splitlines()], empty.grid.regions
    )
    assert main(["tectonic", str(f), "--count"]) == 0
    assert capsys.readouterr().out == "1\n"
    f.write_text("- - -\n" * 3 + regions)
    assert main(["tectonic", str(f), "--unique"]) == 1
    assert capsys.readouterr().out == "not unique\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("1 - -\n- - -\n- - -\n", "a tectonic needs a block of region ids"),
        ("3 - -\n- - -\n1 1 2\n3 3 2\n", "row 1, column 1: value 3 is out of range 1..2"),
        ("1 1 -\n- - -\n1 1 2\n3 3 2\n", "column 2: value 1 is already given in the same region"),
        ("1 - -\n- 1 -\n1 1 2\n3 3 2\n", "column 2: value 1 touches the same value given at row 1"),
        ("- - -\n- - -\n1 2 1\n3 3 3\n", "line 3, row 1, column 3: its region is not connected"),
        ("- - x\n- - -\n1 1 2\n3 3 2\n", "line 1, row 1, column 3: 'x' is not a value"),
    ],
)
def test_bad_input_is_refused_with_its_place(text, message):
    with pytest.raises(PuzzleError) as info:
        tectonic.parse(text)
    assert message in str(info.value)


def test_cli_puzzlekit_and_unsolvable(tmp_path, capsys):
    table = json.loads((DATA / "Suguru_puzzles.json").read_text())["puzzles"]
    keys = list(table)[:3]
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"puzzles": {k: table[k] for k in keys}}))
    assert main(["tectonic", str(f), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["puzzles"]
    answers = json.loads((DATA / "Suguru_solutions.json").read_text())["solutions"]
    assert [entry["label"] for entry in got] == [f"puzzle {k}" for k in keys]
    for k, entry in zip(keys, got, strict=True):
        assert entry["solutions"] == [parse_solution_text(answers[k]["solution"])]
    assert main(["tectonic", str(f)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"# puzzle {keys[0]}\n") and text.count("# puzzle") == 3
    assert main(["tectonic", str(f), "--unique"]) == 0
    assert capsys.readouterr().out.count("unique") == 3
    bad = tmp_path / "bad.txt"
    bad.write_text("- -\n- -\n1 1\n2 2\n")  # two 2-cell regions stacked: 1 and 2 touch
    assert main(["tectonic", str(bad)]) == 1
    assert "no solution" in capsys.readouterr().err
    bad.write_text("2 -\n- -\n1 1\n2 2\n")
    assert main(["tectonic", str(bad)]) == 1
    bad.write_text("3 -\n- -\n1 1\n2 2\n")
    assert main(["tectonic", str(bad)]) == 2
    assert "value 3 is out of range 1..2" in capsys.readouterr().err


def test_file_of_several_grids_with_or_without_blank_lines(capsys, tmp_path):
    values, regions = "2 - -\n- - -\n- - -\n", "1 1 2\n1 1 2\n3 3 3\n"
    empty = "- - -\n" * 3
    together = values + regions + "\n" + empty + regions
    apart = values + "\n" + regions + "\n" + empty + "\n" + regions
    for text in (together, apart):
        puzzles = tectonic.parse_all(text)
        assert [p.grid.regions for p in puzzles] == [[[0, 0, 1], [0, 0, 1], [2, 2, 2]]] * 2
        assert [tectonic.count(p).solutions for p in puzzles] == [1, 2]
    f = tmp_path / "two.txt"
    f.write_text(apart)
    assert main(["tectonic", str(f), "--count"]) == 0
    assert capsys.readouterr().out == "line 1: 1\nline 9: 2\n"
