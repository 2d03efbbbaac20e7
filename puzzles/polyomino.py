"""Polyomino tiling: pack a board with a set of pieces, counting solutions up to symmetry.

Glossary
--------
- *cell*: a square ``(row, column)``, 0-based; a *shape* is a set of cells moved so that
  its smallest row and column are 0.
- *piece*: a named shape with a number of *copies*; *placement*: the cells one copy of
  a piece covers on the board.
- *board symmetry group* G: the maps of the dihedral group D4 (rotations, reflections,
  then a translation) that send the board's cell set onto itself and each piece's set of
  placements onto itself (so one-sided pieces lose the reflections).
- *distinct* solutions: G-orbits of solutions; *all* solutions: every tiling.

Exact cover
-----------
- primary item ``r,c`` for each board cell (covered once);
- primary item ``NAME`` for each piece, covered ``copies`` times (``lo = hi = copies``,
  so identical copies do not multiply the solutions);
- secondary item ``!k`` for the k-th symmetry-breaking restriction (see
  ``plan_symmetry``);
- option: a piece name, the cells of one placement, and the restriction items it takes.

Known counts (tested)
---------------------
12 pentominoes: 6x10 2339 distinct (9356 all), 5x12 1010 (4040), 4x15 368 (1472),
3x20 2 (8), 8x8 without its centre 2x2 65 (520); 8x8 with the 2x2 square O anywhere
16146 distinct (129168 all).

>>> import dlx
>>> puzzle = make_puzzle("3x20", "pentominoes")
>>> print(dlx.count(build(puzzle)), dlx.count(build(puzzle, plan_symmetry(puzzle))))
8 2
>>> print(render(puzzle, next(distinct_tilings(puzzle))).splitlines()[:3])
['UUU', 'UXU', 'XXX']
"""

from __future__ import annotations

import re
import sys
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import dlx
from puzzles.common import PuzzleError, colour, read_text, svg_document

Cell = tuple[int, int]
Shape = frozenset  # of Cell, normalised (smallest row and column are 0)
Placement = frozenset  # of Cell, on the board
Tiling = list  # of (piece name, Placement)

SVG_MAX = 100  # solutions drawn at most
MAX_BOARD_CELLS = 1_000_000  # a WxH board larger than this is refused (not built)

# -- geometry ---------------------------------------------------------------------------

# D4 as integer matrices (a, b, c, d): (r, c) -> (a r + b c, c r + d c). Rotations first.
ROTATIONS = [(1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0)]
REFLECTIONS = [(1, 0, 0, -1), (-1, 0, 0, 1), (0, 1, 1, 0), (0, -1, -1, 0)]
D4 = ROTATIONS + REFLECTIONS


def apply(matrix, cells) -> list[Cell]:
    """The cells moved by a D4 matrix (not normalised)."""
    a, b, c, d = matrix
    return [(a * r + b * k, c * r + d * k) for r, k in cells]


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
    group = ROTATIONS if one_sided else D4
    return sorted({normalise(apply(m, shape)) for m in group}, key=shape_key)


def canonical(shape, one_sided: bool = False) -> tuple[Cell, ...]:
    """The canonical form of a shape: its least orientation."""
    return shape_key(orientations(shape, one_sided)[0])


def is_connected(cells) -> bool:
    """True when the cells form one edge-connected group."""
    return len(_components(set(cells))) == 1


def free_polyominoes(n: int) -> list[Shape]:
    """Every free polyomino of ``n`` cells, by growing those of ``n - 1`` cells.

    Each shape is kept in its canonical orientation; the list is sorted by canonical form.

    >>> [len(free_polyominoes(n)) for n in range(1, 7)]
    [1, 1, 2, 5, 12, 35]
    """
    if n < 1:
        raise ValueError("a polyomino has at least one cell")
    found = {((0, 0),)}
    for _ in range(n - 1):
        grown = set()
        for key in found:
            cells = set(key)
            for r, c in key:
                for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if cell not in cells:
                        grown.add(canonical(cells | {cell}))
        found = grown
    return [frozenset(key) for key in sorted(found)]


# -- pieces -----------------------------------------------------------------------------


def picture_cells(picture: str) -> Shape:
    """The cells of a one-piece picture (any character but ``.`` and blank is a cell)."""
    return normalise(
        (r, c)
        for r, line in enumerate(picture.strip("\n").splitlines())
        for c, ch in enumerate(line)
        if ch not in ". "
    )


PENTOMINOES = {
    "F": ".FF\nFF.\n.F.",
    "I": "IIIII",
    "L": "LLLL\nL...",
    "N": "NN..\n.NNN",
    "P": "PP\nPP\nP.",
    "T": "TTT\n.T.\n.T.",
    "U": "U.U\nUUU",
    "V": "V..\nV..\nVVV",
    "W": "W..\nWW.\n.WW",
    "X": ".X.\nXXX\n.X.",
    "Y": ".Y..\nYYYY",
    "Z": "ZZ.\n.Z.\n.ZZ",
}
SMALL = {
    "I4": "IIII",
    "O4": "OO\nOO",
    "T4": "TTT\n.T.",
    "S4": ".SS\nSS.",
    "L4": "LLL\nL..",
    "I3": "III",
    "L3": "LL\nL.",
    "I2": "II",
    "I1": "I",
}
ALIASES = {"O": "O4", "Z4": "S4", "J4": "L4", "V3": "L3", "D": "I2", "M": "I1"}
SETS = {
    "pentominoes": list(PENTOMINOES),
    "tetrominoes": ["I4", "O4", "T4", "S4", "L4"],
    "trominoes": ["I3", "L3"],
    "domino": ["I2"],
    "monomino": ["I1"],
}


def _hexominoes() -> dict[str, Shape]:
    """The 35 free hexominoes, named H01..H35 in the order of their canonical forms."""
    return {f"H{k:02d}": shape for k, shape in enumerate(free_polyominoes(6), start=1)}


NAMED: dict[str, Shape] = {
    **{name: picture_cells(p) for name, p in PENTOMINOES.items()},
    **{name: picture_cells(p) for name, p in SMALL.items()},
}
NAMED.update(_hexominoes())
SETS["hexominoes"] = [f"H{k:02d}" for k in range(1, 36)]


@dataclass(frozen=True)
class Piece:
    """A named shape (normalised) and how many copies of it the set holds."""

    name: str
    shape: Shape
    copies: int = 1

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.shape)


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
        groups = _components(cells)
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


def _components(cells: set[Cell]) -> list[set[Cell]]:
    """The edge-connected groups of a cell set, in reading order of their first cell."""
    left = set(cells)
    groups = []
    while left:
        start = min(left)
        group = {start}
        stack = [start]
        while stack:
            r, c = stack.pop()
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n in left and n not in group:
                    group.add(n)
                    stack.append(n)
        left -= group
        groups.append(group)
    return groups


def parse_pieces(spec: str, option: str = "--pieces") -> list[Piece]:
    """Pieces from a spec: names, set names, files or pictures, with ``*K`` for copies.

    Tokens are separated by commas or blanks. A token is a set (``pentominoes``,
    ``tetrominoes``, ``trominoes``, ``domino``, ``monomino``, ``hexominoes``), a piece
    name (``F``, ``O4`` or ``O``, ``H07``...), a file of piece pictures, or a run of
    one-letter names (``FILNPTUVWXYZ``). ``NAME*K`` or ``NAME:K`` asks for K copies; a
    name given twice is two copies. A spec with a newline is itself a picture. Errors
    name ``option``, the command-line option the spec came from.

    >>> [(p.name, p.copies) for p in parse_pieces("FIL, O*2")]
    [('F', 1), ('I', 1), ('L', 1), ('O4', 2)]
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
        m = re.fullmatch(r"(.+?)[*:](\d+)", token)
        if m:
            name, copies = m.group(1), int(m.group(2))
            if copies < 1:
                raise PuzzleError(f"{where}: the number of copies must be at least 1")
        found.extend(_token_pieces(name, copies, where))
    return _merge(found, option)


def _token_pieces(name: str, copies: int, where: str) -> list[Piece]:
    """The pieces one token of a spec stands for."""
    if name.lower() in SETS:
        return [Piece(n, NAMED[n], copies) for n in SETS[name.lower()]]
    key = ALIASES.get(name, name)
    if key in NAMED:
        return [Piece(key, NAMED[key], copies)]
    if Path(name).is_file():
        pieces = read_piece_picture(read_text(name), where=name)
        return [Piece(p.name, p.shape, p.copies * copies) for p in pieces]
    if all(ch in PENTOMINOES for ch in name):
        return [Piece(ch, NAMED[ch], copies) for ch in name]
    bad = next((i for i, ch in enumerate(name) if ch not in PENTOMINOES), 0)
    raise PuzzleError(
        f"{where}: unknown piece name (character {bad + 1}, {name[bad]!r}); known: "
        "F I L N P T U V W X Y Z, I4 O4 T4 S4 L4, I3 L3, I2, I1, H01..H35, " + ", ".join(SETS)
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
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", spec)
    if m:
        width, height = int(m.group(1)), int(m.group(2))
        if width < 1 or height < 1:
            raise PuzzleError(f"--board {spec}: the board is empty")
        if width * height > MAX_BOARD_CELLS:
            raise PuzzleError(f"--board {spec}: more than {MAX_BOARD_CELLS} cells")
        return frozenset((r, c) for r in range(height) for c in range(width))
    where = "--board"
    if "\n" not in spec:
        if not Path(spec).is_file():
            raise PuzzleError(f"--board {spec!r}: neither WxH nor a board file")
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


@dataclass(frozen=True)
class Puzzle:
    """A board, a piece set and whether pieces may be turned over."""

    board: frozenset
    pieces: tuple[Piece, ...]
    one_sided: bool = False
    placements: dict = field(default=None, compare=False, repr=False)

    @property
    def height(self) -> int:
        """Rows of the board's bounding box (from row 0)."""
        return max(r for r, _ in self.board) + 1

    @property
    def width(self) -> int:
        """Columns of the board's bounding box (from column 0)."""
        return max(c for _, c in self.board) + 1

    def piece(self, name: str) -> Piece:
        """The piece of that name."""
        for p in self.pieces:
            if p.name == name:
                return p
        raise PuzzleError(f"no piece {name!r} in the set ({', '.join(self.names)})")

    @property
    def names(self) -> list[str]:
        """The piece names, in order."""
        return [p.name for p in self.pieces]


def make_puzzle(board, pieces="pentominoes", extra=(), one_sided: bool = False) -> Puzzle:
    """A puzzle from a board spec (see ``parse_board``) and piece specs.

    ``pieces`` and each of ``extra`` are specs for ``parse_pieces`` (or lists of Piece).
    The total area of the pieces must equal the board's.
    """
    cells = parse_board(board) if isinstance(board, str) else frozenset(board)
    found: list[Piece] = []
    specs = [("--pieces", pieces)] + [("--extra", spec) for spec in extra]
    for option, spec in specs:
        found.extend(parse_pieces(spec, option) if isinstance(spec, str) else spec)
    found = _merge(found, "pieces")
    area = sum(p.size * p.copies for p in found)
    if area != len(cells):
        raise PuzzleError(
            f"the pieces cover {area} cells but the board has {len(cells)} "
            f"({', '.join(f'{p.name}*{p.copies}' if p.copies > 1 else p.name for p in found)})"
        )
    placements = {p.name: piece_placements(cells, p.shape, one_sided) for p in found}
    return Puzzle(cells, tuple(found), one_sided, placements)


def piece_placements(board, shape, one_sided: bool = False) -> list[Placement]:
    """Every placement of a shape on the board, each orientation once, sorted."""
    board = frozenset(board)
    height = max(r for r, _ in board) + 1
    width = max(c for _, c in board) + 1
    found = set()
    for o in orientations(shape, one_sided):
        h = max(r for r, _ in o) + 1
        w = max(c for _, c in o) + 1
        for dr in range(height - h + 1):
            for dc in range(width - w + 1):
                cells = frozenset((r + dr, c + dc) for r, c in o)
                if cells <= board:
                    found.add(cells)
    return sorted(found, key=shape_key)


# -- symmetry ---------------------------------------------------------------------------


def board_symmetries(board) -> list[dict[Cell, Cell]]:
    """The maps of D4 (then a translation) sending the board onto itself; identity first.

    Each map is a dict from cell to cell.
    """
    board = frozenset(board)
    r0 = min(r for r, _ in board)
    c0 = min(c for _, c in board)
    maps = []
    for m in D4:
        moved = apply(m, board)
        dr = r0 - min(r for r, _ in moved)
        dc = c0 - min(c for _, c in moved)
        image = {cell: (r + dr, c + dc) for cell, (r, c) in zip(board, moved, strict=True)}
        if set(image.values()) == board:
            maps.append(image)
    return maps


def move(g: dict[Cell, Cell], cells) -> Placement:
    """The image of a set of board cells under a board symmetry."""
    return frozenset(g[c] for c in cells)


def symmetry_group(puzzle: Puzzle) -> list[dict[Cell, Cell]]:
    """G: the board symmetries that send each piece's placements onto themselves."""
    group = []
    for g in board_symmetries(puzzle.board):
        if all(
            {move(g, p) for p in places} == set(places) for places in puzzle.placements.values()
        ):
            group.append(g)
    return group


@dataclass
class Plan:
    """How symmetry is broken: see ``plan_symmetry``.

    ``group``: G, as cell maps (identity first); ``restricted``: the piece P kept once
    per orbit, at the placements ``kept``, whose stabilizers (maps of G fixing them,
    identity first) are ``stabilizers``; ``forbid[k]``: the placements of the breaker
    piece Q that may not be used together with P at ``kept[k]``; ``filter``: True when
    no breaker exists, so that the solutions found must still be reduced by
    ``is_class_representative`` (exact, but with Python work per solution).
    """

    group: list
    restricted: str | None = None
    breaker: str | None = None
    kept: list = field(default_factory=list)
    stabilizers: list = field(default_factory=list)
    forbid: dict = field(default_factory=dict)
    filter: bool = False

    @property
    def group_order(self) -> int:
        """|G|."""
        return len(self.group)

    def describe(self) -> str:
        """One line for people."""
        if self.group_order == 1:
            return "the board has no symmetry"
        text = f"|G| = {self.group_order}"
        if self.restricted is not None:
            text += f"; {self.restricted} kept at {len(self.kept)} places"
            n_fixed = sum(1 for s in self.stabilizers if len(s) > 1)
            if n_fixed and self.breaker:
                text += f", {n_fixed} of them symmetric, broken with {self.breaker}"
            elif n_fixed:
                text += f", {n_fixed} of them symmetric"
        if self.filter:
            text += "; solutions reduced one by one to their least image"
        return text


class NoSymmetryBreaking(PuzzleError):
    """No exact restriction is available for this piece set and board."""


# The reasoning behind the restriction (G acts on boards, pieces and solutions).
#
# 1. Pick a piece P with one copy. G permutes P's placements; keep one placement r per
#    G-orbit. Every solution s can be moved by some g in G so that P lands on a kept r,
#    so each class (G-orbit of solutions) still has members with P on a kept placement,
#    and two solutions with P on different kept placements are never equivalent.
# 2. Within one kept r, the members of a class with P at r are {h s0 : h in H}, H the
#    stabilizer of r in G. If H = {e}, that is one solution: done.
# 3. If H is bigger, pick a second piece Q with one copy such that no Q placement is
#    fixed by any h != e of H. Then for a solution s0 with P at r, the |H| solutions h s0
#    put Q on the |H| different placements h q (q = Q's placement in s0): they are
#    distinct, and exactly one of them puts Q on the least placement (by ``shape_key``)
#    of its H-orbit. Forbid, next to P at r, every Q placement that is not the least of
#    its H-orbit (a secondary item shared by the option "P at r" and those Q options).
#    Exactly one member of each class survives.
# 4. No solution is symmetric: if g s = s with g != e, move s so that P is at a kept r;
#    the conjugate of g then fixes r, so lies in H, and fixes Q's placement, which the
#    choice of Q excludes (when H = {e} the conjugate is e, so g = e). Hence every class
#    has exactly |G| members and  all = distinct x |G|.
# 5. Without such a Q (all single-copy pieces symmetric, or copies only), the general
#    rule ("filter"): keep step 1 when a single-copy P exists, and among the solutions
#    with P at r keep those that are the least (by ``solution_key``) of their H-orbit,
#    H = stabilizer of r (H = G when there is no P). Each class keeps exactly one
#    member; its stabilizer S lies in H (it fixes r), and the class has |G| / |S|
#    members, which gives the exact count of all solutions, symmetric ones included.


def _orbit(group, cells) -> set:
    """The G-orbit of a placement."""
    return {move(g, cells) for g in group}


def plan_symmetry(
    puzzle: Puzzle,
    restrict: str | None = None,
    breaker: str | None = None,
    fallback: bool = False,
) -> Plan:
    """Choose P (``restrict``) and Q (``breaker``) and list the restrictions.

    By default P is the single-copy piece with the fewest kept placements (ties: the
    earlier piece in the set), and Q the valid single-copy piece with the most
    placements (ties: the earlier piece); on 8x8 with the pentominoes and O this picks X
    and P, the smallest tree measured (``scripts/bench_polyomino.py``). When no valid P
    or Q exists, raise NoSymmetryBreaking, or with ``fallback`` return a plan that
    filters solutions (see step 5 above).
    """
    restrict = ALIASES.get(restrict, restrict)
    breaker = ALIASES.get(breaker, breaker)
    group = symmetry_group(puzzle)
    plan = Plan(group)
    if len(group) == 1:
        return plan
    singles = [p.name for p in puzzle.pieces if p.copies == 1]
    if restrict is not None:
        if puzzle.piece(restrict).copies != 1:
            raise NoSymmetryBreaking(f"cannot restrict {restrict}: the set has several copies")
        candidates = [restrict]
    else:
        candidates = singles
    if not candidates:
        if fallback:
            plan.filter = True
            return plan
        raise NoSymmetryBreaking(
            "symmetry breaking needs a piece with a single copy; count all solutions "
            "with --no-symmetry"
        )
    best = None
    for name in candidates:
        kept = _orbit_representatives(group, puzzle.placements[name])
        if best is None or len(kept) < len(best[1]):
            best = (name, kept)
    plan.restricted, reps = best
    plan.kept = reps
    plan.stabilizers = [[g for g in group if move(g, r) == r] for r in reps]
    moves = [h for s in plan.stabilizers for h in s[1:]]
    if not moves:
        return plan
    if breaker is not None:
        if breaker == plan.restricted or puzzle.piece(breaker).copies != 1:
            raise NoSymmetryBreaking(
                f"{breaker} cannot break symmetry: it must be another piece with a single copy"
            )
        options = [breaker]
    else:
        options = sorted(
            (n for n in singles if n != plan.restricted),
            key=lambda n: -len(puzzle.placements[n]),
        )
    for name in options:
        places = puzzle.placements[name]
        if all(move(h, q) != q for q in places for h in moves):
            plan.breaker = name
            break
    else:
        if fallback:
            plan.filter = True
            return plan
        which = breaker if breaker is not None else "no piece with a single copy"
        raise NoSymmetryBreaking(
            f"{plan.restricted} sits on symmetric places but {which} can tell the symmetric "
            "solutions apart (it needs a piece with no symmetry, such as F L N P Y, once); "
            "count all solutions with --no-symmetry"
        )
    for k, stab in enumerate(plan.stabilizers):
        if len(stab) == 1:
            continue
        plan.forbid[k] = {
            q
            for q in puzzle.placements[plan.breaker]
            if shape_key(q) != min(shape_key(move(h, q)) for h in stab)
        }
    return plan


def solution_key(tiling) -> tuple:
    """A total order on tilings: the sorted (piece, cells) pairs."""
    return tuple(sorted((name, shape_key(cells)) for name, cells in tiling))


def is_class_representative(plan: Plan, tiling) -> tuple[bool, int]:
    """For a filtering plan: (is the tiling kept, size of its stabilizer in G).

    The tiling must be a solution of ``build(puzzle, plan)`` (P on a kept placement).
    """
    group = plan.group
    if plan.restricted is not None:
        place = next(cells for name, cells in tiling if name == plan.restricted)
        group = plan.stabilizers[plan.kept.index(place)]
    key = solution_key(tiling)
    least = key
    fixed = 0
    for h in group:
        image = solution_key([(name, move(h, cells)) for name, cells in tiling])
        fixed += image == key
        least = min(least, image)
    return key == least, fixed


def _orbit_representatives(group, places) -> list[Placement]:
    """The least placement (by ``shape_key``) of each G-orbit, in order."""
    seen: set = set()
    reps = []
    for p in places:
        if p in seen:
            continue
        orbit = _orbit(group, p)
        seen |= orbit
        reps.append(min(orbit, key=shape_key))
    return sorted(reps, key=shape_key)


# -- exact cover ------------------------------------------------------------------------


def cell_item(cell: Cell) -> str:
    """The item of a board cell."""
    return f"{cell[0]},{cell[1]}"


def build(puzzle: Puzzle, plan: Plan | None = None) -> dlx.Problem:
    """The exact-cover problem; with a ``plan``, the symmetry-breaking restrictions too.

    Options are named ``NAME`` and list the piece, then its cells in order, then any
    restriction items ``!k``.
    """
    problem = dlx.Problem()
    for cell in sorted(puzzle.board):
        problem.add_primary(cell_item(cell))
    for p in puzzle.pieces:
        problem.add_primary(p.name, p.copies, p.copies)
    restricted_at: dict[Placement, int] = {}
    breaker_items: dict[Placement, list[str]] = {}
    if plan is not None and plan.restricted is not None:
        restricted_at = {r: k for k, r in enumerate(plan.kept)}
        for k, forbidden in plan.forbid.items():
            problem.add_secondary(f"!{k}")
            for q in forbidden:
                breaker_items.setdefault(q, []).append(f"!{k}")
    for p in puzzle.pieces:
        for place in puzzle.placements[p.name]:
            extra: list[str] = []
            if plan is not None and p.name == plan.restricted:
                if place not in restricted_at:
                    continue
                k = restricted_at[place]
                if k in plan.forbid:
                    extra = [f"!{k}"]
            elif plan is not None and p.name == plan.breaker:
                extra = breaker_items.get(place, [])
            cells = [cell_item(c) for c in sorted(place)]
            problem.add_option([p.name, *cells, *extra], name=p.name)
    return problem


def decode(puzzle: Puzzle, solution) -> Tiling:
    """The tiling of a solution: (piece name, cells) per placed piece, in reading order."""
    tiling = []
    for row in solution.rows:
        cells = frozenset(
            (int(a), int(b))
            for a, b in (name.split(",") for name in row[1:] if not name.startswith("!"))
        )
        tiling.append((row[0], cells))
    return sorted(tiling, key=lambda t: min(t[1]))


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


def svg(puzzle: Puzzle, tilings: list[Tiling], cell: int = 20, columns: int | None = None):
    """An SVG drawing of one tiling or a grid of many, a colour per piece."""
    if not tilings:
        raise PuzzleError("no solution to draw")
    n = len(tilings)
    columns = columns or max(1, min(n, round(n**0.5 + 0.5)))
    rows = -(-n // columns)
    gap = cell
    w = puzzle.width * cell
    h = puzzle.height * cell
    index = {name: k for k, name in enumerate(puzzle.names)}
    body = []
    for k, tiling in enumerate(tilings):
        x0 = gap + (k % columns) * (w + gap)
        y0 = gap + (k // columns) * (h + gap)
        body.append(f'<g transform="translate({x0},{y0})">')
        owner = {}
        for j, (name, cells) in enumerate(tiling):
            for r, c in cells:
                owner[(r, c)] = j
                body.append(
                    f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" '
                    f'fill="{colour(index[name])}"/>'
                )
        for (r, c), j in owner.items():  # a thick edge where the owner changes
            for dr, dc, x1, y1, x2, y2 in (
                (-1, 0, c, r, c + 1, r),
                (1, 0, c, r + 1, c + 1, r + 1),
                (0, -1, c, r, c, r + 1),
                (0, 1, c + 1, r, c + 1, r + 1),
            ):
                if owner.get((r + dr, c + dc)) != j:
                    body.append(
                        f'<line x1="{x1 * cell}" y1="{y1 * cell}" x2="{x2 * cell}" '
                        f'y2="{y2 * cell}" stroke="black" stroke-width="2"/>'
                    )
        body.append("</g>")
    return svg_document(columns * (w + gap) + gap, rows * (h + gap) + gap, body)


# -- counting ---------------------------------------------------------------------------


@dataclass
class Counts:
    """The result of ``count_tilings``: all and distinct solutions (None when unknown),
    symmetric classes (None when unknown), and how they were found."""

    all: int | None
    distinct: int | None
    symmetric: int | None
    complete: bool
    how: str
    stats: object = None


def count_tilings(
    puzzle: Puzzle,
    symmetry: bool = True,
    restrict: str | None = None,
    breaker: str | None = None,
    progress: bool = False,
    workers: int | None = 1,
) -> Counts:
    """Count all and distinct tilings, exactly.

    With ``symmetry`` and a breaker piece, the restricted problem is counted with no
    Python work per solution: its solutions are the distinct tilings, none symmetric,
    so all = distinct x |G| (steps 1-4 of the reasoning above ``plan_symmetry``).
    Without a breaker, each solution of the restricted problem is reduced in Python
    (step 5), which also counts the symmetric classes. Without ``symmetry`` every
    tiling is counted and the distinct count is left unknown (None) unless G = {e}.

    >>> c = count_tilings(make_puzzle("3x20"))
    >>> c.all, c.distinct, c.symmetric
    (8, 2, 0)
    """
    if not symmetry:
        group = symmetry_group(puzzle)
        result = dlx.count(build(puzzle), progress=progress, workers=workers)
        n = result.solutions if result.complete else None
        trivial = len(group) == 1
        return Counts(
            n,
            n if trivial else None,
            0 if trivial else None,
            result.complete,
            "all counted without symmetry breaking",
            result.stats,
        )
    plan = plan_symmetry(puzzle, restrict, breaker, fallback=True)
    problem = build(puzzle, plan)
    if not plan.filter:
        result = dlx.count(problem, progress=progress, workers=workers)
        n = result.solutions if result.complete else None
        return Counts(
            None if n is None else n * plan.group_order,
            n,
            0,
            result.complete,
            f"distinct counted with symmetry breaking ({plan.describe()}); "
            f"all = distinct x {plan.group_order}, as no solution is symmetric",
            result.stats,
        )
    distinct = every = symmetric = 0
    stream = dlx.solutions(problem, progress=progress)
    for solution in stream:
        kept, fixed = is_class_representative(plan, decode(puzzle, solution))
        if kept:
            distinct += 1
            every += plan.group_order // fixed
            symmetric += fixed > 1
    return Counts(
        every,
        distinct,
        symmetric,
        stream.complete,
        f"{plan.describe()}; each class of all solutions has |G| / |stabilizer| members",
        stream.stats,
    )


def distinct_tilings(puzzle: Puzzle, plan: Plan | None = None, limit: int | None = None):
    """Stream the distinct tilings (one per class), as ``Tiling`` lists."""
    plan = plan_symmetry(puzzle, fallback=True) if plan is None else plan
    problem = build(puzzle, plan)
    found = 0
    for solution in dlx.solutions(problem):
        tiling = decode(puzzle, solution)
        if plan.filter and not is_class_representative(plan, tiling)[0]:
            continue
        yield tiling
        found += 1
        if limit is not None and found >= limit:
            return


# -- command line -----------------------------------------------------------------------


def add_arguments(parser) -> None:
    """Options of ``python -m puzzles pentomino``."""
    parser.add_argument(
        "--board", default="6x10", help="WxH, or a picture file ('.' = hole) (default 6x10)"
    )
    parser.add_argument(
        "--pieces",
        default="pentominoes",
        help="piece names, sets or files, e.g. FILNPTUVWXYZ, 'pentominoes,O', 'I4*2' "
        "(default: the 12 pentominoes)",
    )
    parser.add_argument("--extra", action="append", default=[], help="more pieces, e.g. --extra O")
    parser.add_argument("--one-sided", action="store_true", help="pieces may not turn over")
    parser.add_argument(
        "--no-symmetry",
        action="store_true",
        help="count every tiling, without symmetry breaking",
    )
    parser.add_argument("--restrict", help="the piece P placed once per board symmetry class")
    parser.add_argument("--breaker", help="the piece Q that breaks symmetry left by P")
    parser.add_argument("--limit", type=int, help="list only the first N distinct solutions")
    parser.add_argument("--out", help="write the distinct solutions (pictures) to this file")
    parser.add_argument("--svg", help="draw the solutions listed (or the first one) as SVG")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--workers", type=int, default=0, help="processes for counting (default 0: all cores)"
    )


def run(args) -> int:
    """Count, list or draw tilings; exit status 2 for bad input."""
    puzzle = make_puzzle(args.board, args.pieces, args.extra, args.one_sided)
    progress = not args.no_progress
    if args.limit is not None and args.limit < 1:
        raise PuzzleError("--limit must be at least 1")
    if args.workers < 0:
        raise PuzzleError("--workers must be at least 0")
    listing = args.limit is not None or args.out is not None
    drawn = []
    if listing:
        if args.no_symmetry:
            stream = (decode(puzzle, s) for s in dlx.solutions(build(puzzle), limit=args.limit))
            what = "solutions"
        else:
            plan = plan_symmetry(puzzle, args.restrict, args.breaker, fallback=True)
            stream = distinct_tilings(puzzle, plan, limit=args.limit)
            what = "distinct solutions"
        n = 0
        with open(args.out, "w", encoding="utf-8") if args.out else nullcontext() as out:
            for tiling in stream:
                n += 1
                picture = render(puzzle, tiling)
                if out is not None:
                    out.write(picture + "\n\n")
                if args.limit is not None:
                    print(picture + "\n")
                if args.svg and len(drawn) < SVG_MAX:
                    drawn.append(tiling)
        stopped = args.limit is not None and n >= args.limit
        print(f"{n} {what}" + (" (stopped at --limit)" if stopped else ""))
    else:
        result = count_tilings(
            puzzle,
            symmetry=not args.no_symmetry,
            restrict=args.restrict,
            breaker=args.breaker,
            progress=progress,
            workers=None if args.workers == 0 else args.workers,
        )
        all_text = "?" if result.all is None else str(result.all)
        distinct_text = "?" if result.distinct is None else str(result.distinct)
        print(f"all solutions: {all_text}")
        print(f"distinct solutions: {distinct_text}")
        if result.symmetric:
            print(f"symmetric classes: {result.symmetric}")
        print(f"({result.how}; {result.stats})", file=sys.stderr)
        if args.svg:
            first = dlx.first(build(puzzle))
            drawn = [decode(puzzle, first)] if first is not None else []
    if args.svg:
        if not drawn:
            raise PuzzleError("no solution to draw")
        Path(args.svg).write_text(svg(puzzle, drawn), encoding="utf-8")
    return 0
