"""Polyomino tiling: pack a board with a set of pieces, counting solutions up to symmetry.

The ``pentomino`` command's adapter: boards as ``WxH`` or pictures, pieces by name,
picture or file, cells as ``(row, column)``. Geometry, symmetry breaking, the exact-cover
build, counting and drawing are those of every lattice (``puzzles.polyform`` on the
square lattice of ``puzzles.lattices``): this module parses and prints.

Glossary
--------
- *cell*: a square ``(row, column)``, 0-based; a *shape* is a set of cells moved so that
  its smallest row and column are 0.
- *piece*: a named shape with a number of *copies*; *placement*: the cells one copy of
  a piece covers on the board.
- *board symmetry group* G: the maps of D4 (then a translation) that send the board onto
  itself and the piece set onto itself (one-sided pieces lose the reflections, unless
  the set holds both mirror images of each, as ``one-sided-pentominoes`` does).
- *distinct* solutions: G-orbits of solutions; *all* solutions: every tiling.

Exact cover: see ``puzzles.polyform.tiling`` (items ``r,c`` for cells, ``NAME`` for
pieces with ``lo = hi = copies``, ``!k`` for restrictions); the symmetry plan and its
proof: ``puzzles.polyform.symmetry``.

Known counts (tested)
---------------------
12 pentominoes: 6x10 2339 distinct (9356 all), 5x12 1010 (4040), 4x15 368 (1472),
3x20 2 (8), 8x8 without its centre 2x2 65 (520); 8x8 with the 2x2 square O anywhere
16146 distinct (129168 all). One-sided pentominoes on 3x30: 46 distinct (184 all).

>>> import dlx
>>> puzzle = make_puzzle("3x20", "pentominoes")
>>> print(dlx.count(build(puzzle)), dlx.count(build(puzzle, plan_symmetry(puzzle))))
8 2
>>> print(render(puzzle, next(distinct_tilings(puzzle))).splitlines()[:3])
['UUU', 'UXU', 'XXX']
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from puzzles.common import PuzzleError, read_text
from puzzles.lattices import LATTICES
from puzzles.polyform import cli as tiling_cli
from puzzles.polyform import pieces as catalogue
from puzzles.polyform import tiling
from puzzles.polyform.boards import MAX_BOARD_CELLS
from puzzles.polyform.cli import (  # noqa: F401 (public names of this module)
    count,
    draw,
    solutions,
)
from puzzles.polyform.pieces import Piece
from puzzles.polyform.symmetry import (  # noqa: F401 (public names of this module)
    NoSymmetryBreaking,
    Plan,
    is_class_representative,
    solution_key,
)
from puzzles.polyform.tiling import (  # noqa: F401 (public names of this module)
    Counts,
    build,
    count_tilings,
    decode,
    distinct_tilings,
    symmetry_group,
)

Cell = tuple[int, int]
Shape = frozenset  # of Cell, normalised (smallest row and column are 0)
Placement = frozenset  # of Cell, on the board
Tiling = tiling.Tiling  # (piece name, Placement) per piece

SQUARE = LATTICES["square"]  # its D4 acts on (row, column) cells as well as on (x, y)
SVG_MAX = tiling.SVG_MAX

# -- geometry ---------------------------------------------------------------------------


def normalise(cells) -> Shape:
    """The cells translated so that the smallest row and column are 0."""
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def shape_key(cells) -> tuple[Cell, ...]:
    """A total order on cell sets: the sorted tuple of cells."""
    return tuple(sorted(cells))


def orientations(shape, one_sided: bool = False) -> list[Shape]:
    """The distinct orientations of a shape (rotations only when one-sided), sorted."""
    return sorted({normalise(o) for o in SQUARE.orientations(shape, one_sided)}, key=shape_key)


def canonical(shape, one_sided: bool = False) -> tuple[Cell, ...]:
    """The canonical form of a shape: its least orientation."""
    return shape_key(orientations(shape, one_sided)[0])


def is_connected(cells) -> bool:
    """True when the cells form one edge-connected group."""
    return SQUARE.is_connected(cells)


def free_polyominoes(n: int) -> list[Shape]:
    """Every free polyomino of ``n`` cells, each in its canonical orientation, sorted.

    >>> [len(free_polyominoes(n)) for n in range(1, 7)]
    [1, 1, 2, 5, 12, 35]
    """
    if n < 1:
        raise ValueError("a polyomino has at least one cell")
    return sorted((frozenset(canonical(s)) for s in SQUARE.polyforms(n)), key=shape_key)


# -- pieces -----------------------------------------------------------------------------


def picture_cells(picture: str) -> Shape:
    """The cells of a one-piece picture (any character but ``.`` and blank is a cell)."""
    return normalise(
        (r, c)
        for r, line in enumerate(picture.strip("\n").splitlines())
        for c, ch in enumerate(line)
        if ch not in ". "
    )


def _from_xy(shape) -> Shape:
    """A shape of the square lattice, (x, y), as (row, column) cells (row = -y)."""
    return normalise((-y, x) for x, y in shape)


PENTOMINOES = {n: catalogue.OMINOES[n] for n in catalogue.PENTOMINOES}
SMALL = {n: p for n, p in catalogue.OMINOES.items() if n not in PENTOMINOES}
ALIASES = catalogue.ALIASES["square"]
SETS = {
    "pentominoes": list(PENTOMINOES),
    "tetrominoes": ["I4", "O4", "T4", "S4", "L4"],
    "trominoes": ["I3", "L3"],
    "domino": ["I2"],
    "monomino": ["I1"],
    "hexominoes": [f"H{k:02d}" for k in range(1, 36)],
}
NAMED: dict[str, Shape] = {name: picture_cells(p) for name, p in catalogue.OMINOES.items()}
NAMED.update({name: _from_xy(s) for name, s in catalogue.hexominoes().items()})


def _one_sided_pentominoes() -> dict[str, Shape]:
    """The 18 one-sided pentominoes: the 12, and F' L' N' P' Y' Z' (mirror images)."""
    shapes = catalogue.one_sided(SQUARE, {n: NAMED[n] for n in PENTOMINOES})
    return {n: normalise(s) for n, s in shapes.items()}


def read_piece_picture(text: str, where: str = "picture") -> list[Piece]:
    """The pieces drawn in a picture: each character (not ``.`` or blank) is a piece.

    The cells of one character may form several connected groups: these are copies and
    must have the same shape (in any orientation).
    """
    cells_of: dict[str, set[Cell]] = {}
    for r, line in enumerate(text.splitlines()):
        for c, ch in enumerate(line):
            if ch not in ". \t\r":
                cells_of.setdefault(ch, set()).add((r, c))
    if not cells_of:
        raise PuzzleError(f"{where}: no piece drawn")
    pieces = []
    for name, cells in cells_of.items():
        groups = SQUARE.components(cells)
        first = normalise(groups[0])
        for g in groups[1:]:
            if canonical(g) != canonical(first):
                row, col = min(g)
                raise PuzzleError(
                    f"{where}: row {row + 1}, column {col + 1}: the cells of piece {name!r} "
                    "form groups of different shapes"
                )
        pieces.append(Piece(name, first, len(groups)))
    return pieces


def parse_pieces(spec: str, option: str = "pieces") -> list[Piece]:
    """Pieces from a spec: names, set names, files or pictures, with ``*K`` for copies.

    Tokens are separated by commas or blanks. A token is a set (``pentominoes``,
    ``tetrominoes``, ``trominoes``, ``domino``, ``monomino``, ``hexominoes``,
    ``one-sided-pentominoes``: the 12 and the mirror images F' L' N' P' Y' Z'), a piece
    name (``F``, ``O4`` or ``O``, ``H07``...), a file of piece pictures, or a run of
    one-letter names (``FILNPTUVWXYZ``). ``NAME*K`` or ``NAME:K`` asks for K copies in
    all (of a piece named before too: ``pentominoes,I*2`` has two I's); a name given
    twice is two copies. A spec with a newline is itself a picture. Errors
    name ``option``, the command-line option the spec came from.

    >>> [(p.name, p.copies) for p in parse_pieces("FIL, O*2")]
    [('F', 1), ('I', 1), ('L', 1), ('O4', 2)]
    >>> [p.copies for p in parse_pieces("pentominoes,I*2") if p.name == "I"]
    [2]
    """
    if "\n" in spec:
        return _merge(read_piece_picture(spec), option)
    found: list[Piece] = []
    tokens = [t for t in re.split(r"[,\s]+", spec) if t]
    if not tokens:
        raise PuzzleError(f"{option}: no piece given")
    for position, token in enumerate(tokens, start=1):
        where = f"{option}, item {position} {token!r}"
        name, copies = token, 1
        m = re.fullmatch(r"(.+?)[*:]([0-9]+)", token)
        if m:
            name, copies = m.group(1), int(m.group(2))
            if copies < 1:
                raise PuzzleError(f"{where}: the number of copies must be at least 1")
        pieces = _token_pieces(name, copies, where)
        if m and not Path(name).is_file():  # K copies in all: those named before go
            named = {p.name for p in pieces}
            found = [p for p in found if p.name not in named]
        found.extend(pieces)
    return _merge(found, option)


def _token_pieces(name: str, copies: int, where: str) -> list[Piece]:
    """The pieces one token of a spec stands for."""
    if name.lower() in SETS:
        return [Piece(n, NAMED[n], copies) for n in SETS[name.lower()]]
    if name.lower() == "one-sided-pentominoes":
        return [Piece(n, s, copies) for n, s in _one_sided_pentominoes().items()]
    key = ALIASES.get(name, name)
    if key in NAMED:
        return [Piece(key, NAMED[key], copies)]
    if Path(name).is_file():
        pieces = read_piece_picture(read_text(name), where=name)
        return [Piece(p.name, p.shape, p.copies * copies) for p in pieces]
    if all(ch in PENTOMINOES for ch in name):
        return [Piece(ch, NAMED[ch], copies) for ch in name]
    close = difflib.get_close_matches(name, [*SETS, "one-sided-pentominoes"], n=1)
    if close and len(name) > 3:
        raise PuzzleError(f"{where}: unknown piece or set (did you mean {close[0]}?)")
    bad = next((i for i, ch in enumerate(name) if ch not in PENTOMINOES), 0)
    raise PuzzleError(
        f"{where}: unknown piece name (character {bad + 1}, {name[bad]!r}); known: "
        "F I L N P T U V W X Y Z, I4 O4 T4 S4 L4, I3 L3, I2, I1, H01..H35, "
        + ", ".join([*SETS, "one-sided-pentominoes"])
    )


def _merge(pieces: list[Piece], where: str) -> list[Piece]:
    """Add up copies of pieces given more than once; refuse one name with two shapes."""
    merged: dict[str, Piece] = {}
    for p in pieces:
        if not is_connected(p.shape):
            raise PuzzleError(f"{where}: piece {p.name!r} is not connected")
        if "," in p.name or ":" in p.name or p.name.startswith("!"):
            raise PuzzleError(f"{where}: {p.name!r} cannot be a piece name")
        old = merged.get(p.name)
        if old is None:
            merged[p.name] = p
        elif canonical(old.shape) != canonical(p.shape):
            raise PuzzleError(f"{where}: two different pieces are named {p.name!r}")
        else:
            merged[p.name] = Piece(p.name, old.shape, old.copies + p.copies)
    return list(merged.values())


# -- boards -----------------------------------------------------------------------------


def parse_board(spec: str) -> frozenset[Cell]:
    """Board cells from ``WxH`` (W columns, H rows), a picture, or a picture file.

    In a picture ``.`` and blank are holes, any other character is a cell; every row
    must have the same length.

    >>> len(parse_board("6x10")), len(parse_board("###\\n#.#\\n###"))
    (60, 8)
    """
    m = re.fullmatch(r"\s*([0-9]+)\s*[xX]\s*([0-9]+)\s*", spec)
    if m:
        width, height = int(m.group(1)), int(m.group(2))
        if width < 1 or height < 1:
            raise PuzzleError(f"board {spec!r}: the board is empty")
        if width * height > MAX_BOARD_CELLS:
            raise PuzzleError(f"board {spec!r}: more than {MAX_BOARD_CELLS} cells")
        return frozenset((r, c) for r in range(height) for c in range(width))
    where = "board"
    if "\n" not in spec:
        if not Path(spec).is_file():
            raise PuzzleError(f"board {spec!r}: neither WxH nor a board file")
        where = spec
        spec = read_text(spec)
    lines = spec.replace("\r", "").split("\n")
    numbered = [(n, line) for n, line in enumerate(lines, start=1)]
    while numbered and not numbered[0][1].strip():
        numbered.pop(0)
    while numbered and not numbered[-1][1].strip():
        numbered.pop()
    if not numbered:
        raise PuzzleError(f"{where}: the board picture is empty")
    width = len(numbered[0][1])
    cells = set()
    for r, (n, line) in enumerate(numbered):
        if len(line) != width:
            raise PuzzleError(
                f"{where}: line {n}: {len(line)} characters, but the first row has {width} "
                "(draw holes with '.')"
            )
        cells.update((r, c) for c, ch in enumerate(line) if ch not in ". \t")
    if not cells:
        raise PuzzleError(f"{where}: the board has no cells")
    return frozenset(cells)


# -- the puzzle -------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Puzzle(tiling.Puzzle):
    """A board of (row, column) cells, a piece set and whether pieces may turn over."""

    def render(self, tiling: Tiling) -> str:
        """A tiling of this puzzle as a text picture (rows and columns)."""
        return render(self, tiling)

    def svg(self, tilings, **drawing) -> str:
        """One tiling or several of this puzzle as an SVG picture."""
        return svg(self, tilings, **drawing)

    @property
    def height(self) -> int:
        """Rows of the board's bounding box (from row 0)."""
        return max(r for r, _ in self.board) + 1

    @property
    def width(self) -> int:
        """Columns of the board's bounding box (from column 0)."""
        return max(c for _, c in self.board) + 1


def make_puzzle(board, pieces="pentominoes", extra=(), one_sided: bool = False) -> Puzzle:
    """A puzzle from a board spec (see ``parse_board``) and piece specs.

    ``pieces`` and each of ``extra`` are specs for ``parse_pieces`` (or lists of Piece);
    ``one-sided-pentominoes`` in a spec makes the pieces one-sided. The total area of
    the pieces must equal the board's.
    """
    cells = parse_board(board) if isinstance(board, str) else frozenset(board)
    found: list[Piece] = []
    specs = [("pieces", pieces)] + [("extra", spec) for spec in extra]
    for option, spec in specs:
        if isinstance(spec, str):
            found.extend(parse_pieces(spec, option))
            one_sided |= "\n" not in spec and bool(re.search(r"one-sided-", spec, re.I))
        else:
            found.extend(spec)
    found = _merge(found, "pieces")
    area = sum(p.size * p.copies for p in found)
    if area != len(cells):
        raise PuzzleError(
            f"{tiling.board_file(board)}the pieces cover {area} cells but the board has "
            f"{len(cells)} "
            f"({', '.join(f'{p.name}*{p.copies}' if p.copies > 1 else p.name for p in found)})"
        )
    placements = {p.name: piece_placements(cells, p.shape, one_sided) for p in found}
    return Puzzle(SQUARE, cells, tuple(found), one_sided, placements)


def piece_placements(board, shape, one_sided: bool = False) -> list[Placement]:
    """Every placement of a shape on the board, each orientation once, sorted."""
    return tiling.piece_placements(SQUARE, board, shape, one_sided)


def board_symmetries(board) -> list[dict[Cell, Cell]]:
    """The maps of D4 (then a translation) sending the board onto itself, as cell maps;
    identity first."""
    from puzzles.polyform.symmetry import board_symmetries as maps

    return maps(SQUARE, board)


def plan_symmetry(puzzle: Puzzle, restrict=None, breaker=None, fallback: bool = False) -> Plan:
    """The symmetry plan (``puzzles.polyform.symmetry``); piece aliases accepted."""
    return tiling.plan_symmetry(puzzle, restrict, breaker, fallback)


# -- output -----------------------------------------------------------------------------


def letters(puzzle: Puzzle) -> dict[str, str]:
    """One display character per piece: its name's first character when free."""
    used: set[str] = set()
    out = {}
    pool = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@$%&+=?"
    for p in sorted(puzzle.pieces, key=lambda p: (len(p.name) > 1, p.name)):
        first = p.name[0]
        ch = first if first not in used else next(c for c in pool if c not in used)
        used.add(ch)
        out[p.name] = ch
    return out


def render(puzzle: Puzzle, tiling: Tiling) -> str:
    """A text picture: a letter per cell, ``.`` for holes."""
    grid = [["."] * puzzle.width for _ in range(puzzle.height)]
    show = letters(puzzle)
    for name, cells in tiling:
        for r, c in cells:
            grid[r][c] = show[name]
    return "\n".join("".join(row) for row in grid)


def svg(puzzle: Puzzle, tilings, cell: int = 20, columns: int | None = None) -> str:
    """An SVG drawing of one tiling or a grid of many (a list of tilings): each piece
    one outlined path with its letter (``puzzles.polyform.tiling.svg`` on the cells as
    (x, y) = (column, -row))."""
    tilings = tiling.as_tilings(tilings)
    flip = {(r, c): (c, -r) for r, c in puzzle.board}
    drawn = tiling.Puzzle(SQUARE, frozenset(flip.values()), puzzle.pieces, puzzle.one_sided)
    moved = [[(n, frozenset(flip[c] for c in cells)) for n, cells in t] for t in tilings]
    return tiling.svg(drawn, moved, unit=cell, columns=columns, show=letters(puzzle))


# -- command line -----------------------------------------------------------------------


def add_arguments(parser) -> None:
    """Options of ``python -m puzzles pentomino``."""
    parser.add_argument(
        "--board", default="6x10", help="WxH, or a picture file ('.' = hole) (default 6x10)"
    )
    parser.add_argument(
        "--pieces",
        default="pentominoes",
        help="piece names, sets or files, e.g. FILNPTUVWXYZ, 'pentominoes,O', 'I4*2', "
        "one-sided-pentominoes (default: the 12 pentominoes)",
    )
    parser.add_argument("--extra", action="append", default=[], help="more pieces, e.g. --extra O")
    tiling_cli.add_tiling_arguments(parser)


def read(text, request) -> list:
    """The one puzzle of ``--board``, ``--pieces`` and ``--extra`` (a FILE is not read)."""
    own = request.options
    tiling_cli.refuse_file(request, "pentomino", parse_board)
    try:
        puzzle = make_puzzle(own.board, own.pieces, own.extra, own.one_sided)
    except PuzzleError as e:
        raise PuzzleError(tiling_cli.flag_names(e)) from None
    return [tiling_cli.tiling_puzzle(request, puzzle, render, svg)]


COMMAND = tiling_cli.tiling_command(
    "pentomino", "tile a board with polyominoes (count, list, draw)", add_arguments, read
)
