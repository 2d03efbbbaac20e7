"""Tilings of a rectangular board by rectangles, each kind used at most once: Scott R.
Shannon's sequences of the OEIS as exact cover.

Glossary
--------
- *cell*: a square ``(row, column)`` of the W x H board, 0-based; a primary item
  ``r,c`` (covered exactly once).
- *rectangle*: ``h x w`` (h rows, w columns); a *placement* puts one on the board.
- *kind*: what a rule allows once; a secondary item (at most once), named
  as below. The *rule* says which rectangles there are and what a kind is:

  - ``oblongs`` (A360498): no squares; a kind ``AxB`` (A < B) holds both orientations;
  - ``oriented-oblongs`` (A360725): no squares; a kind ``HxW``, one orientation;
  - ``rectangles`` (A360499): squares too; a kind ``AxB`` (A <= B), both orientations;
  - ``oriented-rectangles`` (A360256): squares too; a kind ``HxW``, one orientation;
  - ``areas`` (A360804): squares too; a kind ``areaK``, every rectangle of area K.

  (``AxB`` holds both orientations: a 1x3 and a 3x1 are one kind; ``areaK`` every
  rectangle of area K: a 2x2 and a 1x4 are one kind.)
- *option*: a placement: its cells and its kind; named ``HxW@r,c`` (top-left cell).

Every tiling is a solution, symmetric ones included (as the OEIS counts them).

Known counts (tested; OEIS, n = 1, 2, ...): A360498 0, 0, 4, 12, 256, 3620, 87216;
A360725 0, 0, 4, 36, 1056, 31052; A360499 1, 1, 21, 269, 4489, 82981; A360256 1, 1,
33, 513, 14409; A360804 1, 1, 21, 253, 2401, 36237. Larger terms: docs/oeis.md.

>>> print(count(4, "oblongs"))
12
>>> print(render(solve(3, "rectangles", engine="dlx")), end="")
ABB
CCC
CCC
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import dlx
from puzzles.command import Command, Export, Input
from puzzles.common import Answer, Answers, PuzzleError, colour, dlx_search, svg_document

Cell = tuple[int, int]
Rectangle = tuple[int, int]  # (height, width)
Piece = tuple[int, int, int, int]  # (row, column, height, width): a placed rectangle

RULES = {  # rule: (OEIS of the n x n board, squares allowed, orientation matters)
    "oblongs": ("A360498", False, False),
    "oriented-oblongs": ("A360725", False, True),
    "rectangles": ("A360499", True, False),
    "oriented-rectangles": ("A360256", True, True),
    "areas": ("A360804", True, False),
}
MAX_SIDE = 64  # a board's side, at most


@dataclass(frozen=True)
class Puzzle:
    """A W x H board (``width`` columns, ``height`` rows) and a rule (``RULES``)."""

    width: int
    height: int
    rule: str

    @property
    def label(self) -> str:
        """The puzzle in words, for messages."""
        return f"{self.width}x{self.height} {self.rule}"

    def summary(self) -> str:
        """The puzzle's size and rule (``--stats``)."""
        return f"{self.label}: {len(kinds(self))} kinds, {len(placements(self))} placements"


def make_puzzle(size, rule: str = "oblongs") -> Puzzle:
    """A puzzle from a size (``N``, ``(W, H)`` or ``"WxH"``) and a rule; PuzzleError,
    naming the argument, otherwise.

    >>> make_puzzle("5x3", "areas")
    Puzzle(width=5, height=3, rule='areas')
    """
    if rule not in RULES:
        raise PuzzleError(f"rule {rule!r}: not a rule (known: {', '.join(RULES)})")
    if isinstance(size, str):
        m = re.fullmatch(r"\s*([0-9]+)\s*(?:[xX]\s*([0-9]+))?\s*", size)
        if not m:
            raise PuzzleError(f"size {size!r}: neither N nor WxH")
        width = int(m.group(1))
        height = int(m.group(2)) if m.group(2) else width
    elif isinstance(size, tuple):
        width, height = size
    else:
        width = height = size
    for side in (width, height):
        if isinstance(side, bool) or not isinstance(side, int) or not 1 <= side <= MAX_SIDE:
            raise PuzzleError(f"size {size!r}: each side must be an integer 1..{MAX_SIDE}")
    return Puzzle(width, height, rule)


def kind(rule: str, height: int, width: int) -> str:
    """The kind (secondary item) of a ``height x width`` rectangle under ``rule``.

    >>> kind("oblongs", 3, 1), kind("oriented-oblongs", 3, 1), kind("areas", 3, 1)
    ('1x3', '3x1', 'area3')
    """
    if rule == "areas":
        return f"area{height * width}"
    if RULES[rule][2]:
        return f"{height}x{width}"
    return f"{min(height, width)}x{max(height, width)}"


def rectangles(puzzle: Puzzle) -> list[Rectangle]:
    """The rectangles that fit on the board and that the rule allows, smallest first.

    >>> rectangles(make_puzzle("3x2", "oblongs"))
    [(1, 2), (2, 1), (1, 3), (2, 3)]
    """
    squares = RULES[puzzle.rule][1]
    sizes = [
        (h, w)
        for h in range(1, puzzle.height + 1)
        for w in range(1, puzzle.width + 1)
        if squares or h != w
    ]
    return sorted(sizes, key=lambda r: (r[0] * r[1], r))


def kinds(puzzle: Puzzle) -> list[str]:
    """The kinds of the board's rectangles, each once, in the order of ``rectangles``."""
    return list(dict.fromkeys(kind(puzzle.rule, h, w) for h, w in rectangles(puzzle)))


def placements(puzzle: Puzzle) -> list[Piece]:
    """Every placed rectangle ``(row, column, height, width)``, by rectangle then cell.

    >>> placements(make_puzzle("3x1", "oblongs"))
    [(0, 0, 1, 2), (0, 1, 1, 2), (0, 0, 1, 3)]
    """
    return [
        (r, c, h, w)
        for h, w in rectangles(puzzle)
        for r in range(puzzle.height - h + 1)
        for c in range(puzzle.width - w + 1)
    ]


def cells(piece: Piece) -> list[Cell]:
    """The cells a placed rectangle covers."""
    r, c, h, w = piece
    return [(i, j) for i in range(r, r + h) for j in range(c, c + w)]


def build(puzzle: Puzzle) -> dlx.Problem:
    """The exact-cover problem: cells primary (row by row), kinds secondary, an option
    a placement (see the module's glossary).

    >>> p = build(make_puzzle(3, "oblongs"))
    >>> len(p.primary), p.secondary, p.n_options
    (9, ['1x2', '1x3', '2x3'], 22)
    """
    problem = dlx.Problem(
        primary=[f"{r},{c}" for r in range(puzzle.height) for c in range(puzzle.width)],
        secondary=kinds(puzzle),
    )
    for piece in placements(puzzle):
        r, c, h, w = piece
        items = [f"{i},{j}" for i, j in cells(piece)] + [kind(puzzle.rule, h, w)]
        problem.add_option(items, name=f"{h}x{w}@{r},{c}")
    return problem


class Tiling(Answer):
    """A tiling: its puzzle and its placed rectangles (``pieces``), sorted."""

    def __init__(self, puzzle: Puzzle, pieces):
        self.puzzle, self.pieces = puzzle, sorted(pieces)

    def to_json(self) -> list:
        """``[[row, column, height, width], ...]``."""
        return [list(p) for p in self.pieces]


def decode(puzzle: Puzzle, solution: dlx.Solution) -> Tiling:
    """The tiling of a solution (option names are ``HxW@r,c``)."""
    pieces = []
    for name in solution.names:
        size, _, corner = name.partition("@")
        h, w = (int(t) for t in size.split("x"))
        r, c = (int(t) for t in corner.split(","))
        pieces.append((r, c, h, w))
    return Tiling(puzzle, pieces)


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def render(tiling: Tiling) -> str:
    """A text picture, one letter per rectangle (in the order of ``pieces``), ending
    with a newline."""
    puzzle = tiling.puzzle
    grid = [["."] * puzzle.width for _ in range(puzzle.height)]
    for k, piece in enumerate(tiling.pieces):
        for i, j in cells(piece):
            grid[i][j] = LETTERS[k % len(LETTERS)]
    return "\n".join("".join(row) for row in grid) + "\n"


def svg(tiling: Tiling, cell: int = 24) -> str:
    """A tiling as SVG: each rectangle filled and outlined, its size written inside."""
    puzzle, margin = tiling.puzzle, 4
    body = []
    for k, (r, c, h, w) in enumerate(tiling.pieces):
        x, y = margin + c * cell, margin + r * cell
        body.append(
            f'<rect x="{x}" y="{y}" width="{w * cell}" height="{h * cell}" '
            f'fill="{colour(k)}" stroke="black" stroke-width="2"/>'
        )
        body.append(
            f'<text x="{x + w * cell / 2:g}" y="{y + h * cell / 2 + 4:g}" font-size="11" '
            f'text-anchor="middle">{h}x{w}</text>'
        )
    return svg_document(puzzle.width * cell + 2 * margin, puzzle.height * cell + 2 * margin, body)


def faults(puzzle: Puzzle, tiling) -> list[str]:
    """What is wrong with ``tiling`` (a Tiling or placed rectangles) from the rules
    alone: every rectangle on the board and allowed, every cell covered exactly once,
    no kind used twice. An empty list: it is a tiling of the puzzle.

    >>> faults(make_puzzle(2, "rectangles"), [(0, 0, 1, 2), (1, 0, 1, 2)])
    ['row 2, column 1: the kind 1x2 is used again (first at row 1, column 1)']
    """
    pieces = getattr(tiling, "pieces", tiling)
    allowed = set(rectangles(puzzle))
    owner: dict[Cell, Piece] = {}
    used: dict[str, Piece] = {}
    found = []
    for piece in pieces:
        r, c, h, w = piece
        where = f"row {r + 1}, column {c + 1}"
        if (h, w) not in allowed:
            found.append(f"{where}: a {h}x{w} rectangle is not allowed ({puzzle.rule})")
            continue
        if r < 0 or c < 0 or r + h > puzzle.height or c + w > puzzle.width:
            found.append(f"{where}: the {h}x{w} rectangle leaves the board")
            continue
        name = kind(puzzle.rule, h, w)
        if name in used:
            first = used[name]
            found.append(
                f"{where}: the kind {name} is used again (first at row {first[0] + 1}, "
                f"column {first[1] + 1})"
            )
        used.setdefault(name, piece)
        for cell in cells(piece):
            if cell in owner:
                found.append(f"row {cell[0] + 1}, column {cell[1] + 1} is covered twice")
            owner[cell] = piece
    for i in range(puzzle.height):
        for j in range(puzzle.width):
            if (i, j) not in owner:
                found.append(f"row {i + 1}, column {j + 1} is not covered")
    return found


# -- searching ----------------------------------------------------------------------------


def solutions(
    puzzle: Puzzle,
    limit: int | None = None,
    engine: str = "auto",
    *,
    parallel: dlx.Parallel | None = None,
    **search,
) -> Answers:
    """The tilings of a puzzle, streamed; ``search`` as for ``dlx.solutions``
    (``time_limit``, ``node_limit``, ``progress``); ``parallel``: a ``dlx.Parallel`` to
    search on several processes (default: this one)."""
    search = dlx_search({**search, "parallel": parallel})
    found = dlx.solutions(build(puzzle), engine=engine, **search)
    return Answers(found, lambda s: decode(puzzle, s), limit=limit)


def solve(size, rule: str = "oblongs", **search) -> Tiling | None:
    """The first tiling of the ``size`` board under ``rule`` (see ``make_puzzle``), or
    None when there is none."""
    return next(iter(solutions(make_puzzle(size, rule), 1, **search)), None)


def corners(puzzle: Puzzle) -> list[tuple[int, int]]:
    """The split of a count by the rectangle in the top-left corner: ``(option,
    weight)`` pairs, the count of the tilings that hold the option times its weight
    summing to the count.

    The transposition (r, c) -> (c, r) maps a square board onto itself and each rule's
    tilings onto its tilings (the kinds of a rule are closed under h x w -> w x h),
    keeping the corner cell: the tilings whose corner rectangle is h x w and those whose
    corner rectangle is w x h are as many. So on a square board only h <= w is counted,
    h < w twice; on another board every corner rectangle once.

    >>> [weight for _, weight in corners(make_puzzle(3, "rectangles"))]
    [1, 2, 2, 1, 2, 1]
    """
    square = puzzle.width == puzzle.height
    return [
        (k, 2 if square and h < w else 1)
        for k, (r, c, h, w) in enumerate(placements(puzzle))
        if (r, c) == (0, 0) and (h <= w or not square)
    ]


def count(
    size,
    rule: str = "oblongs",
    limit: int | None = None,
    engine: str = "auto",
    symmetry: bool = False,
    *,
    parallel: dlx.Parallel | None = None,
    **search,
) -> dlx.Count:
    """The number of tilings (a ``dlx.Count``) of the ``size`` board under ``rule``
    (or of a ``Puzzle``), up to ``limit``; ``search``: ``time_limit``, ``node_limit``,
    ``progress`` (as for ``dlx.count``), ``parallel``: a ``dlx.Parallel`` (workers, a
    checkpoint: default this process). ``symmetry``: count by the
    corner rectangle, once per transposed pair (``corners``: about half the work on a
    square board; no ``limit`` or ``checkpoint``, and ``time_limit`` applies to each
    part).

    >>> [int(count(n, "oriented-oblongs")) for n in range(1, 6)]
    [0, 0, 4, 36, 1056]
    >>> int(count(5, "oriented-oblongs", symmetry=True))
    1056
    """
    puzzle = size if isinstance(size, Puzzle) else make_puzzle(size, rule)
    problem = build(puzzle)
    search = {**search, "parallel": parallel}
    if not symmetry:
        return dlx.count(problem, limit=limit, engine=engine, **dlx_search(search))
    parallel = dlx_search(dict(search, time_limit=None)).get("parallel")  # (loose ones too)
    if limit is not None or (parallel is not None and parallel.checkpoint is not None):
        raise PuzzleError("a count by corners (symmetry) takes no limit or checkpoint")
    total, stopped_by, engines, nodes, seconds = 0, None, set(), 0, 0.0
    for k, weight in corners(puzzle):
        part = dlx.count(problem, forced=[k], engine=engine, **dlx_search(search))
        total += weight * part.solutions
        stopped_by = stopped_by or part.stopped_by
        engines.add(part.stats.engine)
        nodes, seconds = nodes + part.stats.nodes, seconds + part.stats.seconds
        if not part.complete:
            break
    found = dlx.Count(total, stopped_by is None, stopped_by=stopped_by)
    found.stats.nodes, found.stats.seconds = nodes, seconds
    found.stats.engine = f"{', '.join(sorted(engines))}; by corner rectangle, transposed pairs once"
    return found


# -- command line (see puzzles.cli) ---------------------------------------------------------


@dataclass(frozen=True)
class Searched:
    """The command's puzzle with its ``--engine``."""

    puzzle: Puzzle
    engine: str
    symmetry: bool = False

    @property
    def label(self) -> str:
        """The puzzle in words."""
        return self.puzzle.label

    def summary(self) -> str:
        """The puzzle's size (``--stats``)."""
        return self.puzzle.summary()


def add_arguments(parser) -> None:
    """Options of ``python -m puzzles rectangles``."""
    parser.add_argument("--size", default="5", help="N (an N x N board) or WxH (default 5)")
    parser.add_argument(
        "--rule", choices=list(RULES), default="oblongs", help="which rectangles, each kind once"
    )
    parser.add_argument(
        "--engine", choices=dlx.ENGINE_CHOICES, default="auto", help="the search kernel"
    )
    parser.add_argument(
        "--symmetry",
        action="store_true",
        help="count by the corner rectangle, transposed pairs once (about half the work)",
    )
    parser.add_argument(
        "--dlx",
        help="write the exact-cover problem in Knuth's format here, and stop (unless a search "
        "flag such as --count is given too)",
    )


def read(text, request) -> list[Searched]:
    """The one puzzle of ``--size`` and ``--rule`` (a FILE is refused)."""
    own = request.options
    if request.file is not None:
        raise PuzzleError(f"rectangles reads no FILE, but got {request.file!r}: give --size")
    try:
        puzzle = make_puzzle(own.size, own.rule)
    except PuzzleError as e:
        raise PuzzleError(f"--{e}") from None
    return [Searched(puzzle, own.engine, own.symmetry)]


def exports(searched: Searched, request) -> list[Export]:
    """``--dlx FILE``: the puzzle's exact-cover problem in Knuth's format (for
    ``python -m dlx FILE --count --certificate CERT``)."""
    if not request.options.dlx:
        return []
    problem = build(searched.puzzle)
    text = dlx.write(problem, f"{searched.label}: every tiling")
    return [Export(request.options.dlx, text, f"{problem.n_options} options")]


def _count(searched: Searched, limit=None, **search) -> dlx.Count:
    """The command's count."""
    return count(searched.puzzle, None, limit, searched.engine, searched.symmetry, **search)


COMMAND = Command(
    name="rectangles",
    help="tile a board with rectangles, each kind once (OEIS A360498 and kin)",
    read=read,
    solutions=lambda s, limit=None, **search: solutions(s.puzzle, limit, s.engine, **search),
    count=_count,
    add_arguments=add_arguments,
    exports=exports,
    outputs=("--dlx",),
    input=Input.FLAGS,
    workers=0,
    count_by_default=True,
)
