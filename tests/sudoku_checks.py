"""What the sudoku tests share: the data, the independent checker of a solved grid
(``rules_hold``, written from the rules alone), and brute-force singles."""

import json
from pathlib import Path

import dlx
from puzzles import sudoku
from puzzles.numbergrid import parse_solution_text

DATA = Path(__file__).resolve().parent.parent / "data" / "sudoku"
DIAGONAL_JIGSAWS = {f"{k}_6x6" for k in (*range(651, 656), *range(661, 666), *range(671, 676))}


def rules_hold(grid, side, box=None, regions=None) -> bool:
    """Rows, columns and boxes (a x b) or regions each hold 1..side once."""
    want = list(range(1, side + 1))
    units = [list(row) for row in grid] + [list(col) for col in zip(*grid, strict=True)]
    if regions is None:
        a, b = box
        for top in range(0, side, a):
            for left in range(0, side, b):
                units.append(
                    [grid[r][c] for r in range(top, top + a) for c in range(left, left + b)]
                )
    else:
        by_id = {}
        for r in range(side):
            for c in range(side):
                by_id.setdefault(regions[r][c], []).append(grid[r][c])
        units += list(by_id.values())
    return all(sorted(u) == want for u in units)


def check_solution(puzzle: sudoku.Sudoku, values, exact_cover: bool = True) -> None:
    """Assert ``values`` solve ``puzzle``: rules, givens kept, and (unless told not to:
    ``dlx.check`` takes 50 ms on a 16x16) the exact-cover level."""
    n = puzzle.side
    if exact_cover:
        options = [sudoku.option_of(n, r, c, values[r][c]) for r in range(n) for c in range(n)]
        dlx.check(sudoku.build(puzzle), options)
    assert sudoku.faults(puzzle, values) == []
    if not puzzle.diagonals:
        box = sudoku.box_shape(n)
        regions = puzzle.grid.regions if puzzle.jigsaw else None
        assert rules_hold(values, n, box, regions)
    for r, c, v in puzzle.grid.givens():
        assert values[r][c] == v


def one_line(values) -> str:
    return "".join(sudoku.symbol(v) for row in values for v in row)


def load_lines(name: str, limit: int | None = None) -> list[sudoku.Sudoku]:
    puzzles = sudoku.parse_all((DATA / name).read_text())
    return puzzles[:limit]


def puzzlekit_pairs(name: str, keys=None, **options):
    text = (DATA / f"{name}_puzzles.json").read_text()
    if keys is not None:
        table = json.loads(text)["puzzles"]
        text = json.dumps({"puzzles": {k: table[k] for k in keys}})
    puzzles = sudoku.parse_all(text, **options)
    answers = json.loads((DATA / f"{name}_solutions.json").read_text())["solutions"]
    return [(p, parse_solution_text(answers[p.grid.style.id]["solution"])) for p in puzzles]


# -- brute force, from the rules alone -----------------------------------------------


def units(puzzle: sudoku.Sudoku) -> dict[str, list[tuple[int, int]]]:
    """Every unit's cells, named as the explanations name them."""
    n = puzzle.side
    found: dict[str, list[tuple[int, int]]] = {}
    for r in range(n):
        for c in range(n):
            region = "region" if puzzle.jigsaw else "box"
            names = [f"row {r + 1}", f"column {c + 1}", f"{region} {puzzle.region[r][c] + 1}"]
            if puzzle.diagonals and r == c:
                names.append("the diagonal")
            if puzzle.diagonals and r + c == n - 1:
                names.append("the anti-diagonal")
            for name in names:
                found.setdefault(name, []).append((r, c))
    return found


def candidates(puzzle: sudoku.Sudoku, values) -> dict[tuple[int, int], set[int]]:
    """Each empty cell's values that no filled cell of its units holds."""
    n = puzzle.side
    out = {(r, c): set(range(1, n + 1)) for r in range(n) for c in range(n) if not values[r][c]}
    for cells in units(puzzle).values():
        held = {values[r][c] for r, c in cells if values[r][c]}
        for cell in cells:
            if cell in out:
                out[cell] -= held
    return out


def singles_fill(puzzle: sudoku.Sudoku):
    """The grid filled by naked and hidden singles alone, as far as they go."""
    values = [list(row) for row in puzzle.grid.values]
    while True:
        left = candidates(puzzle, values)
        move = next(((cell, min(vs)) for cell, vs in left.items() if len(vs) == 1), None)
        for cells in units(puzzle).values():
            if move is not None:
                break
            for v in range(1, puzzle.side + 1):
                places = [cell for cell in cells if v in left.get(cell, ())]
                if len(places) == 1:
                    move = places[0], v
                    break
        if move is None:
            return values
        (r, c), v = move
        values[r][c] = v
