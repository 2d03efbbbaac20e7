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
  probes the items before it branches ("Settling" and "Probing" in dlx/kernels/links/kernel.py), so
  most puzzles need about one search node per item.

Input: puzzlekit text (a line ``R C``, then R rows of C tokens ``0``-``3`` or ``-``),
rows of characters ``0``-``3`` and ``.`` (or ``-``) for an empty cell, or a puzzlekit
JSON file of many puzzles (``parse_all``).
Known counts: the 1152 answered puzzles of ``data/slitherlink/`` have one loop each.

>>> print(solve("3.\\n.."), end="")
+---+   +
| 3 |
+   +---+
|       |
+---+---+
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import dlx
from puzzles.command import Command, Request
from puzzles.common import (
    Answer as AnswerBase,
)
from puzzles.common import (
    Answers,
    PuzzleError,
    as_puzzle,
    content_lines,
    dlx_search,
    is_number,
    only,
    puzzlekit_entries,
    puzzlekit_grids,
    refuse_larger,
    split_grid,
    stream,
    svg_document,
)

Clue = int | None  # 0..3, or None for an empty cell
Edge = tuple[str, int, int]  # ("h" | "v", r, c)
ON, OFF = "1", "0"


@dataclass(frozen=True)
class Puzzle:
    """A slitherlink grid: ``clues[r][c]`` for R rows and C columns (``id``: its name
    in a puzzlekit file)."""

    clues: tuple[tuple[Clue, ...], ...]
    id: str = field(default="", compare=False)

    @property
    def label(self) -> str:
        """The puzzle's name for messages: ``puzzle ID`` (empty for a lone puzzle)."""
        return f"puzzle {self.id}" if self.id else ""

    @property
    def rows(self) -> int:
        """R, the number of cell rows."""
        return len(self.clues)

    @property
    def cols(self) -> int:
        """C, the number of cell columns."""
        return len(self.clues[0])


@dataclass(frozen=True)
class Answer(AnswerBase):
    """A drawn loop: the puzzle and the set of its edges."""

    puzzle: Puzzle = field(repr=False)
    edges: frozenset[Edge]

    def to_json(self) -> dict:
        """The loop as two grids of 0 and 1: ``horizontal`` edges (R+1 rows of C) and
        ``vertical`` edges (R rows of C+1)."""
        rows, cols = self.puzzle.rows, self.puzzle.cols
        return {
            "horizontal": [
                [int(("h", r, c) in self.edges) for c in range(cols)] for r in range(rows + 1)
            ],
            "vertical": [
                [int(("v", r, c) in self.edges) for c in range(cols + 1)] for r in range(rows)
            ],
        }


# -- input ------------------------------------------------------------------------


def _clue(token: str, where: str) -> Clue:
    """A clue token: ``0``-``3``, or ``-``/``.`` for none."""
    if token in ("-", "."):
        return None
    if token in ("0", "1", "2", "3"):
        return int(token)
    raise PuzzleError(f"{where}: clue {token!r} is not 0, 1, 2, 3 or '-'")


def parse_all(text: str) -> list[Puzzle]:
    """Every puzzle of a text: a puzzlekit JSON file of many, or one puzzle's text."""
    if not text.lstrip().startswith("{"):
        return [parse(text)]
    out = []
    for key, problem in ((e.id, e.text) for e in puzzlekit_entries(text)):
        try:
            out.append(parse(problem, key))
        except PuzzleError as e:
            raise PuzzleError(f"puzzle {key}: {e}") from None
    return out


def parse(text: str, id: str = "") -> Puzzle:
    """A puzzle from puzzlekit text (``R C`` header) or rows of ``0-3`` and ``.``.

    >>> parse("3.\\n.0").clues
    ((3, None), (None, 0))
    """
    if text.lstrip().startswith("{"):  # a puzzlekit JSON file: it must hold one
        return only(parse_all(text))
    lines = content_lines(text)
    if not lines:
        raise PuzzleError("no grid found (the input is empty)")
    words = lines[0][1].split()
    if len(words) == 2 and all(is_number(w) for w in words):
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
    return Puzzle(clues, id)


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
    """The problem: vertex and clue items primary, edges secondary loop items (a
    puzzle whose problem would not fit ``MAX_PROBLEM_BYTES`` is refused first)."""
    clues = sum(v is not None for row in puzzle.clues for v in row)
    # a vertex: at most 7 options of 5 entries; a clue: at most 6 options of 5
    what = puzzle.label or f"the {puzzle.rows}x{puzzle.cols} puzzle"
    refuse_larger(35 * (puzzle.rows + 1) * (puzzle.cols + 1) + 30 * clues, what)
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
    return Answer(puzzle, frozenset(on))


def solutions(
    puzzle: Puzzle, limit: int | None = None, *, parallel: dlx.Parallel | None = None, **search
) -> Answers:
    """The loops of a puzzle, streamed; ``search``: ``time_limit``, ``node_limit``,
    ``progress``; ``parallel``: a ``dlx.Parallel`` to search on several processes
    (default: this one)."""
    return stream(build(puzzle), lambda s: decode(puzzle, s), limit, parallel=parallel, **search)


def solve(text_or_puzzle, **search) -> Answer | None:
    """The loop of a puzzle (text or parsed), or None when it has none."""
    return next(iter(solutions(as_puzzle(text_or_puzzle, parse), 1, **search)), None)


def count(
    text_or_puzzle, limit: int | None = None, *, parallel: dlx.Parallel | None = None, **search
) -> dlx.Count:
    """The number of single loops of a puzzle (text or parsed), up to ``limit``;
    ``search`` and ``parallel`` as for ``solutions``.

    >>> print(count("..\\n.."))
    13
    """
    puzzle = as_puzzle(text_or_puzzle, parse)
    return dlx.count(build(puzzle), limit=limit, **dlx_search({**search, "parallel": parallel}))


# -- checking ----------------------------------------------------------------------


def faults(puzzle: Puzzle, answer) -> list[str]:
    """What is wrong with ``answer`` (an Answer or a set of edges) as a solution, from
    the rules alone: edges in the grid, every clue met, one closed loop. An empty list:
    it is a solution."""
    edges = getattr(answer, "edges", answer)
    for edge in edges:
        kind, r, c = edge
        inside = 0 <= r <= puzzle.rows and 0 <= c < puzzle.cols
        if kind == "v":
            inside = 0 <= r < puzzle.rows and 0 <= c <= puzzle.cols
        if kind not in ("h", "v") or not inside:
            return [f"edge {edge} is not in the grid"]
    found = []
    for r, row in enumerate(puzzle.clues):
        for c, clue in enumerate(row):
            drawn = sum(e in edges for e in cell_sides(r, c))
            if clue is not None and drawn != clue:
                found.append(f"cell row {r + 1}, column {c + 1}: {drawn} sides, not {clue}")
    if not edges:
        return [*found, "no loop drawn"]
    neighbours: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for edge in edges:
        u, v = edge_ends(edge)
        neighbours.setdefault(u, []).append(v)
        neighbours.setdefault(v, []).append(u)
    forks = [(v, len(ends)) for v, ends in sorted(neighbours.items()) if len(ends) != 2]
    if forks:
        return found + [f"vertex {v} has {n} loop edges, not 2" for v, n in forks]
    # walk the loop from one vertex: it must come back after using every edge
    start = min(neighbours)
    previous, here, steps = start, neighbours[start][0], 1
    while here != start:
        a, b = neighbours[here]
        previous, here = here, (b if a == previous else a)
        steps += 1
    if steps != len(edges):
        found.append(f"the loop through {start} has {steps} of the {len(edges)} edges")
    return found


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
    return Answer(puzzle, frozenset(edges))


# -- output ------------------------------------------------------------------------


def render(answer: Answer) -> str:
    """The grid in text: ``+`` vertices, ``-`` and ``|`` loop edges, clues in the cells."""
    puzzle, edges = answer.puzzle, answer.edges
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


def svg(answer: Answer, cell: int = 24) -> str:
    """An SVG picture: grid dots, clues, and the loop in red."""
    puzzle = answer.puzzle
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
    for edge in sorted(answer.edges):
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


# -- command line (see puzzles.cli) -------------------------------------------------


def add_arguments(parser) -> None:
    """The options of ``python -m puzzles slitherlink`` beyond the shared ones."""
    parser.add_argument("--id", help="only this puzzle of a puzzlekit JSON file")


def read(text: str, request: Request) -> list[Puzzle]:
    """The puzzles of an input file (or the one named by ``--id``)."""
    puzzles = parse_all(text)
    wanted = request.options.id
    if wanted is None:
        return puzzles
    chosen = [p for p in puzzles if p.id == wanted]
    if not chosen:
        raise PuzzleError(f"no puzzle with id {wanted!r} (the file has {len(puzzles)})")
    return chosen


COMMAND = Command(
    name="slitherlink",
    help="draw the single loop of a slitherlink",
    read=read,
    solutions=solutions,
    count=count,
    add_arguments=add_arguments,
)
