"""Slitherlink: draw one closed loop along the grid lines so that every numbered cell
has exactly that many of its four sides on the loop.

Glossary:
- *vertex* ``(r, c)``: a grid point, ``0 <= r <= R``, ``0 <= c <= C``.
- *edge*: a unit segment between two vertices; ``("h", r, c)`` runs from ``(r, c)`` to
  ``(r, c + 1)``, ``("v", r, c)`` from ``(r, c)`` to ``(r + 1, c)``. Edges are the
  secondary *loop items* of the problem (see ``Problem.add_loop_edge``), coloured
  ``1`` (on the loop) or ``0`` (off).
- primary item ``V r,c`` for every vertex: its options give it 0 or 2 loop edges
  (all four incident edges coloured); primary item ``C r,c`` for every numbered cell:
  its options put exactly that many of its sides on the loop.
- The kernel keeps the on-edges as paths while it searches and refuses a cycle that
  leaves an on-edge out, so every solution it reports is a single loop. It also
  settles every edge that all the options left to a vertex or clue agree on, and
  probes the items before it branches ("Settling" and "Probing" in dlx/kernel.py), so
  most puzzles need about one search node per item.

Input: puzzlekit text (a line ``R C``, then R rows of C tokens ``0``-``3`` or ``-``),
or rows of characters ``0``-``3`` and ``.`` (or ``-``) for an empty cell.
Known counts: the 1152 answered puzzles of ``data/slitherlink/`` have one loop each.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations

import dlx
from puzzles.common import (
    PuzzleError,
    content_lines,
    load_puzzlekit,
    puzzlekit_grids,
    read_text,
    split_grid,
    svg_document,
)

Clue = int | None  # 0..3, or None for an empty cell
Edge = tuple[str, int, int]  # ("h" | "v", r, c)
ON, OFF = "1", "0"


@dataclass(frozen=True)
class Puzzle:
    """A slitherlink grid: ``clues[r][c]`` for R rows and C columns."""

    clues: tuple[tuple[Clue, ...], ...]

    @property
    def rows(self) -> int:
        """R, the number of cell rows."""
        return len(self.clues)

    @property
    def cols(self) -> int:
        """C, the number of cell columns."""
        return len(self.clues[0])


@dataclass(frozen=True)
class Answer:
    """A drawn loop: the set of its edges."""

    edges: frozenset[Edge]


# -- input ------------------------------------------------------------------------


def _clue(token: str, where: str) -> Clue:
    """A clue token: ``0``-``3``, or ``-``/``.`` for none."""
    if token in ("-", "."):
        return None
    if token in ("0", "1", "2", "3"):
        return int(token)
    raise PuzzleError(f"{where}: clue {token!r} is not 0, 1, 2, 3 or '-'")


def parse(text: str) -> Puzzle:
    """A puzzle from puzzlekit text (``R C`` header) or rows of ``0-3`` and ``.``.

    >>> parse("3.\\n.0").clues
    ((3, None), (None, 0))
    """
    lines = content_lines(text)
    if not lines:
        raise PuzzleError("no grid found (the input is empty)")
    words = lines[0][1].split()
    if len(words) == 2 and all(w.isdecimal() for w in words):
        rows, cols, blocks = puzzlekit_grids(text)
        grid = blocks[0]
        if len(blocks) != 1:
            raise PuzzleError(f"expected one block of {rows} rows, found {len(blocks)}")
        first_line = lines[1][0]
        line_of = [n for n, _ in lines[1:]]
    else:
        grid = split_grid(lines, separated=False)
        first_line = lines[0][0]
        line_of = [n for n, _ in lines]
    del first_line
    clues = tuple(
        tuple(
            _clue(token, f"line {line_of[r]}, row {r + 1}, column {c + 1}")
            for c, token in enumerate(row)
        )
        for r, row in enumerate(grid)
    )
    return Puzzle(clues)


def format_puzzle(puzzle: Puzzle) -> str:
    """The compact text form (rows of ``0-3`` and ``.``); ``parse`` reads it back."""
    return "".join(
        "".join("." if k is None else str(k) for k in row) + "\n" for row in puzzle.clues
    )


# -- the exact-cover problem ---------------------------------------------------------


def cell_sides(r: int, c: int) -> list[Edge]:
    """The four sides of cell ``(r, c)``: top, bottom, left, right."""
    return [("h", r, c), ("h", r + 1, c), ("v", r, c), ("v", r, c + 1)]


def vertex_edges(puzzle: Puzzle, r: int, c: int) -> list[Edge]:
    """The edges at vertex ``(r, c)`` that lie inside the grid."""
    out = []
    if c > 0:
        out.append(("h", r, c - 1))
    if c < puzzle.cols:
        out.append(("h", r, c))
    if r > 0:
        out.append(("v", r - 1, c))
    if r < puzzle.rows:
        out.append(("v", r, c))
    return out


def edge_ends(edge: Edge) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two vertices of an edge."""
    kind, r, c = edge
    return ((r, c), (r, c + 1)) if kind == "h" else ((r, c), (r + 1, c))


def all_edges(puzzle: Puzzle) -> list[Edge]:
    """Every edge of the grid."""
    horizontal = [("h", r, c) for r in range(puzzle.rows + 1) for c in range(puzzle.cols)]
    vertical = [("v", r, c) for r in range(puzzle.rows) for c in range(puzzle.cols + 1)]
    return horizontal + vertical


def edge_name(edge: Edge) -> str:
    """The item name of an edge."""
    return f"{edge[0]}{edge[1]},{edge[2]}"


def build(puzzle: Puzzle) -> dlx.Problem:
    """The problem: vertex and clue items primary, edges secondary loop items."""
    width = puzzle.cols + 1
    # Items in the order of a sweep across the shorter side: the search branches on the
    # first item of fewest live options, so ties go along the sweep, and a short sweep
    # line leaves few loose path ends.
    vertices = [(r, c) for r in range(puzzle.rows + 1) for c in range(width)]
    if puzzle.cols > puzzle.rows:
        vertices.sort(key=lambda v: (v[1], v[0]))
    clued = [
        (r, c)
        for r in range(puzzle.rows)
        for c in range(puzzle.cols)
        if puzzle.clues[r][c] is not None
    ]
    if puzzle.cols > puzzle.rows:
        clued.sort(key=lambda v: (v[1], v[0]))
    edges = all_edges(puzzle)
    problem = dlx.Problem(
        primary=[f"V{r},{c}" for r, c in vertices] + [f"C{r},{c}" for r, c in clued],
        secondary=[edge_name(e) for e in edges],
    )
    for e in edges:
        (r1, c1), (r2, c2) = edge_ends(e)
        problem.add_loop_edge(edge_name(e), r1 * width + c1, r2 * width + c2, on=ON)
    colour = {e: (f"{edge_name(e)}:{OFF}", f"{edge_name(e)}:{ON}") for e in edges}
    for r, c in vertices:
        incident = vertex_edges(puzzle, r, c)
        for on in [(), *combinations(incident, 2)]:
            problem.add_option([f"V{r},{c}", *(colour[e][e in on] for e in incident)])
    for r, c in clued:
        sides = cell_sides(r, c)
        for on in combinations(sides, puzzle.clues[r][c]):
            problem.add_option([f"C{r},{c}", *(colour[e][e in on] for e in sides)])
    return problem


def decode(puzzle: Puzzle, solution) -> Answer:
    """The loop of a solution: the edges its options colour ``1``."""
    names = {edge_name(e): e for e in all_edges(puzzle)}
    on = set()
    for k in solution.options:
        for name, colour in solution.problem.option_entries(k):
            if colour == ON:
                on.add(names[name])
    return Answer(frozenset(on))


# -- checking ----------------------------------------------------------------------


def check_answer(puzzle: Puzzle, answer: Answer) -> None:
    """Raise PuzzleError unless ``answer`` obeys the rules: clues met, one closed loop."""
    for edge in answer.edges:
        kind, r, c = edge
        inside = 0 <= r <= puzzle.rows and 0 <= c < puzzle.cols
        if kind == "v":
            inside = 0 <= r < puzzle.rows and 0 <= c <= puzzle.cols
        if kind not in ("h", "v") or not inside:
            raise PuzzleError(f"edge {edge} is not in the grid")
    for r, row in enumerate(puzzle.clues):
        for c, clue in enumerate(row):
            drawn = sum(e in answer.edges for e in cell_sides(r, c))
            if clue is not None and drawn != clue:
                raise PuzzleError(f"cell row {r + 1}, column {c + 1}: {drawn} sides, not {clue}")
    if not answer.edges:
        raise PuzzleError("no loop drawn")
    neighbours: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for edge in answer.edges:
        u, v = edge_ends(edge)
        neighbours.setdefault(u, []).append(v)
        neighbours.setdefault(v, []).append(u)
    for vertex, ends in neighbours.items():
        if len(ends) != 2:
            raise PuzzleError(f"vertex {vertex} has {len(ends)} loop edges, not 2")
    # walk the loop from one vertex: it must come back after using every edge
    start = min(neighbours)
    previous, here, steps = start, neighbours[start][0], 1
    while here != start:
        a, b = neighbours[here]
        previous, here = here, (b if a == previous else a)
        steps += 1
    if steps != len(answer.edges):
        raise PuzzleError(f"the loop through {start} has {steps} of the {len(answer.edges)} edges")


def answer_from_inside(puzzle: Puzzle, text: str) -> Answer:
    """The loop of a puzzlekit solution, whose cells are ``x`` inside and ``-`` outside:
    the edges between an inside and an outside cell (the outside goes on past the grid).
    """
    rows, cols, blocks = puzzlekit_grids(text)
    if (rows, cols) != (puzzle.rows, puzzle.cols):
        raise PuzzleError(f"the solution is {rows}x{cols}, the puzzle {puzzle.rows}x{puzzle.cols}")
    grid = blocks[0]

    def inside(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and grid[r][c] == "x"

    edges = set()
    for r in range(rows + 1):
        for c in range(cols):
            if inside(r - 1, c) != inside(r, c):
                edges.add(("h", r, c))
    for r in range(rows):
        for c in range(cols + 1):
            if inside(r, c - 1) != inside(r, c):
                edges.add(("v", r, c))
    return Answer(frozenset(edges))


# -- output ------------------------------------------------------------------------


def render(puzzle: Puzzle, answer: Answer | None = None) -> str:
    """The grid in text: ``+`` vertices, ``-`` and ``|`` loop edges, clues in the cells."""
    edges = answer.edges if answer is not None else frozenset()
    lines = []
    for r in range(puzzle.rows + 1):
        top = "+".join("---" if ("h", r, c) in edges else "   " for c in range(puzzle.cols))
        lines.append(f"+{top}+")
        if r == puzzle.rows:
            break
        line = ""
        for c in range(puzzle.cols + 1):
            line += "|" if ("v", r, c) in edges else " "
            if c < puzzle.cols:
                clue = puzzle.clues[r][c]
                line += f" {'' if clue is None else clue} ".ljust(3)
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def render_svg(puzzle: Puzzle, answer: Answer | None = None, cell: int = 24) -> str:
    """An SVG picture: grid dots, clues, and the loop in red."""
    margin = cell // 2
    body = []
    for r in range(puzzle.rows):
        for c, clue in enumerate(puzzle.clues[r]):
            if clue is not None:
                x = margin + (c + 0.5) * cell
                y = margin + (r + 0.5) * cell
                body.append(
                    f'<text x="{x:g}" y="{y:g}" font-size="{cell * 0.6:g}" '
                    f'text-anchor="middle" dominant-baseline="central" '
                    f'font-family="sans-serif">{clue}</text>'
                )
    for edge in sorted(answer.edges if answer is not None else ()):
        (r1, c1), (r2, c2) = edge_ends(edge)
        body.append(
            f'<line x1="{margin + c1 * cell}" y1="{margin + r1 * cell}" '
            f'x2="{margin + c2 * cell}" y2="{margin + r2 * cell}" stroke="#d22" '
            f'stroke-width="{cell / 8:g}" stroke-linecap="round"/>'
        )
    for r in range(puzzle.rows + 1):
        for c in range(puzzle.cols + 1):
            body.append(
                f'<circle cx="{margin + c * cell}" cy="{margin + r * cell}" '
                f'r="{cell / 16:g}" fill="black"/>'
            )
    return svg_document(puzzle.cols * cell + 2 * margin, puzzle.rows * cell + 2 * margin, body)


# -- command line ------------------------------------------------------------------


def add_arguments(parser) -> None:
    """The options of ``python -m puzzles slitherlink``."""
    parser.add_argument(
        "file", help="puzzle file (text, or puzzlekit .json with --id); - for stdin"
    )
    parser.add_argument("--id", help="the puzzle of a puzzlekit JSON file to solve")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--count", action="store_true", help="count the single-loop solutions")
    mode.add_argument("--unique", action="store_true", help="prove the solution unique")
    parser.add_argument("--svg", metavar="OUT", help="also draw the loop as SVG into OUT")
    parser.add_argument("--time-limit", type=float, help="stop after this many seconds")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def load(path, puzzle_id: str | None) -> Puzzle:
    """The puzzle of a text file, or entry ``puzzle_id`` of a puzzlekit JSON file."""
    if str(path).endswith(".json"):
        entries = {e.id: e for e in load_puzzlekit(path)}
        if puzzle_id is None:
            raise PuzzleError(f"{path}: {len(entries)} puzzles; pick one with --id")
        if puzzle_id not in entries:
            raise PuzzleError(f"{path}: no puzzle with id {puzzle_id!r}")
        return parse(entries[puzzle_id].text)
    if puzzle_id is not None:
        raise PuzzleError("--id is only for puzzlekit .json files")
    return parse(read_text(path))


def run(args) -> int:
    """Solve, count or check uniqueness; exit 1 when there is no single-loop solution."""
    import sys

    puzzle = load(args.file, args.id)
    problem = build(puzzle)
    progress = not args.no_progress
    t0 = time.perf_counter()
    if args.count:
        result = dlx.count(problem, time_limit=args.time_limit, progress=progress)
        print(result)
        print(f"{time.perf_counter() - t0:.3f} s, {result.stats}", file=sys.stderr)
        return 0 if result.solutions else 1
    limit = 2 if args.unique else 1
    stream = dlx.solutions(problem, limit, time_limit=args.time_limit, progress=progress)
    found = []
    for solution in stream:
        dlx.check(problem, solution.options)
        answer = decode(puzzle, solution)
        check_answer(puzzle, answer)
        found.append(answer)
    print(f"{time.perf_counter() - t0:.3f} s, {stream.stats}", file=sys.stderr)
    if not found:
        if not stream.complete:
            print(f"no loop found before the {stream.stopped_by}")
            return 1
        print("no single-loop solution")
        return 1
    print(render(puzzle, found[0]), end="")
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as out:
            out.write(render_svg(puzzle, found[0]))
    if args.unique:
        if len(found) > 1:
            print("not unique: at least 2 solutions")
            return 1
        if not stream.complete:
            print(f"uniqueness undecided ({stream.stopped_by})")
            return 1
        print("unique")
    return 0
