"""Tiling a board of any lattice with polyforms: build, decode, render, count (the
pictures are ``drawing``'s; ``svg`` and ``letters`` are also names here).

Exact cover
-----------
- primary item ``x,y`` or ``x,y,z`` for each board cell (covered once), declared in
  ``cell_order``: along the board's shortest side first (the order a first-uncovered-
  cell kernel branches in);
- primary item ``NAME`` for each piece, covered ``copies`` times;
- secondary item ``+x,y`` for each lattice point a polystick may run straight through
  (at most one piece does: pieces do not cross);
- secondary item ``!k`` for the k-th symmetry-breaking restriction (``symmetry.py``);
- option: a piece name, the cells of one placement, its crossing and restriction items.

>>> puzzle = make_puzzle("6x6", "hexiamonds")
>>> counts = count_tilings(puzzle)
>>> counts.all, counts.distinct
(624, 156)

The public names are gathered in ``puzzles.polyform``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import dlx
from puzzles.common import DLX_KEYWORDS, PuzzleError, dlx_search, refuse_larger
from puzzles.lattices import LATTICES, Lattice
from puzzles.polyform import orbits as orb
from puzzles.polyform import symmetry as sym
from puzzles.polyform.boards import parse_board
from puzzles.polyform.counts import Counts
from puzzles.polyform.drawing import as_tilings, letters, outline, svg  # noqa: F401 (public here too)
from puzzles.polyform.pieces import Piece, alias, parse_pieces

SVG_MAX = 100  # solutions drawn at most
ENGINE = "auto"  # the tilings' default kernel: bitset where the problem fits it


@dataclass(frozen=True, repr=False)
class Puzzle:
    """A board on a lattice, a piece set and whether pieces may be turned over.

    ``placements`` maps each piece name to every placement of it on the board (the
    sets of cells one copy may cover). ``print(puzzle)`` summarises it; ``render`` and
    ``svg`` show its tilings (as the module's functions of the same names).
    """

    lattice: Lattice
    board: frozenset
    pieces: tuple
    one_sided: bool = False
    placements: dict = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        turn = self.lattice.pieces_turn_over  # 3-D pieces only rotate
        sides = ("one-sided " if self.one_sided else "free ") if turn else ""
        listed = " ".join(f"{p.name}*{p.copies}" if p.copies > 1 else p.name for p in self.pieces)
        copies = sum(p.copies for p in self.pieces)
        places = sum(len(v) for v in (self.placements or {}).values())
        return (
            f"{len(self.board)} cells on the {self.lattice.name} lattice, {copies} {sides}"
            f"piece{'s' * (copies != 1)} ({listed}), {places} placements"
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self}>"

    @property
    def names(self) -> list[str]:
        """The piece names, in order."""
        return [p.name for p in self.pieces]

    def render(self, tiling) -> str:
        """A tiling of this puzzle as a text picture."""
        return render(self, tiling)

    def svg(self, tilings, **drawing) -> str:
        """One tiling or several of this puzzle as an SVG picture."""
        return svg(self, tilings, **drawing)

    def piece(self, name: str) -> Piece:
        """The piece of that name."""
        for p in self.pieces:
            if p.name == name:
                return p
        raise PuzzleError(f"no piece {name!r} in the set ({', '.join(self.names)})")


class Tiling(list):
    """One tiling of a puzzle: (piece name, cells) per placed piece, by least cell.

    A list, that compares as one; ``str()`` is its text picture (``render``) and
    Jupyter draws it (``_repr_svg_``: ``svg``).

    Examples
    --------
    >>> puzzle = make_puzzle("3x3", "L3,T4,I2")
    >>> tiling = next(distinct_tilings(puzzle))
    >>> print(tiling)
    TII
    TTL
    TLL
    >>> [name for name, cells in tiling]
    ['T4', 'L3', 'I2']
    """

    def __init__(self, pieces=(), puzzle: Puzzle | None = None):
        super().__init__(pieces)
        self.puzzle = puzzle

    def __str__(self) -> str:
        return list.__repr__(self) if self.puzzle is None else self.puzzle.render(self)

    def _repr_svg_(self) -> str | None:
        return None if self.puzzle is None else self.puzzle.svg(self)


def make_puzzle(board, pieces, one_sided: bool = False, lattice: str | None = None) -> Puzzle:
    """A tiling puzzle: a board and the pieces that must cover it, each exactly once.

    Parameters
    ----------
    board : str or set of cells
        A shape (``"6x10"``, ``"4x4x4"``, ``"triangle:6"``, ``"hexagon:3"``), a
        picture (a text with a newline), a picture file or a cell-list file (see
        ``puzzles.polyform.boards``); or the cells themselves.
    pieces : str or list of Piece
        Sets, families, names, files (``"pentominoes,O"``, ``"polyiamonds:1-5"``,
        ``"tetrasticks,-H"``, ``"I2*20"``: see ``parse_pieces``); or Piece objects.
    one_sided : bool
        Pieces may not be turned over (a ``one-sided-`` set sets it too).
    lattice : str, optional
        ``square``, ``triangular``, ``hexagonal``, ``cubic`` or ``sticks``; default:
        that of the piece spec, else of the board file, else square.

    Returns
    -------
    Puzzle
        With every placement of every piece on the board.

    Raises
    ------
    PuzzleError
        A bad spec (naming the argument, ``board`` or ``pieces``, and the item at
        fault), or pieces whose cells do not add up to the board's.

    Examples
    --------
    >>> puzzle = make_puzzle("6x10", "pentominoes")
    >>> print(puzzle)
    60 cells on the square lattice, 12 free pieces (F I L N P T U V W X Y Z), 2056 placements
    >>> print(make_puzzle("triangle:4", "I6,I5,I4,T1", lattice="triangular"))
    16 cells on the triangular lattice, 4 free pieces (I6 I5 I4 T1), 52 placements
    """
    if isinstance(pieces, str):
        selection = parse_pieces(pieces, lattice)
        lattice, found, one_sided = (
            selection.lattice,
            selection.pieces,
            one_sided or selection.one_sided,
        )
    else:
        found = list(pieces)
        lattice = lattice or "square"
    if isinstance(board, str):
        board_lattice, cells = parse_board(board, lattice)
    else:
        board_lattice, cells = lattice, frozenset(board)
    lat = LATTICES[board_lattice]
    area = sum(p.size * p.copies for p in found)
    if area != len(cells):
        listed = ", ".join(f"{p.name}*{p.copies}" if p.copies > 1 else p.name for p in found)
        raise PuzzleError(
            f"{board_file(board)}the pieces cover {area} cells but the board has "
            f"{len(cells)} ({listed})"
        )
    placements = {p.name: piece_placements(lat, cells, p.shape, one_sided) for p in found}
    return Puzzle(lat, cells, tuple(found), one_sided, placements)


def board_file(board) -> str:
    """``"FILE: "`` when ``board`` names a board file (what an error about it starts
    with), else ``""``."""
    return f"{board}: " if isinstance(board, str) and Path(board).is_file() else ""


def piece_placements(lattice: Lattice, board, shape, one_sided: bool = False) -> list[frozenset]:
    """Every placement of a shape on the board, each orientation once, sorted."""
    board = frozenset(board)
    k = lattice.translate
    found = set()
    for o in lattice.orientations(shape, one_sided):
        anchor = min(o)  # its translating coordinates are 0 (normalised)
        rest = anchor[k:]
        for b in board:
            if b[k:] != rest:
                continue
            shift = b[:k]
            cells = frozenset(tuple(c[i] + shift[i] for i in range(k)) + tuple(c[k:]) for c in o)
            if cells <= board:
                found.add(cells)
    return sorted(found, key=sym.key)


def cell_order(board) -> list:
    """The board cells along the shortest side first: the coordinate of widest extent
    varies slowest (ties: the earlier coordinate slower)."""
    cells = list(board)
    n = len(cells[0])
    spans = [max(c[i] for c in cells) - min(c[i] for c in cells) for i in range(n)]
    axes = sorted(range(n), key=lambda i: (-spans[i], i))
    return sorted(cells, key=lambda c: tuple(c[i] for i in axes))


def adjacency(puzzle: Puzzle) -> list[tuple[str, str]]:
    """The pairs of neighbouring board cells, as item names (each pair once): what a
    kernel needs for dead-region pruning."""
    board = puzzle.board
    return sorted(
        (cell_item(a), cell_item(b))
        for a in board
        for b in puzzle.lattice.neighbours(a)
        if b in board and a < b
    )


def cell_item(cell) -> str:
    """The item of a board cell."""
    return ",".join(str(v) for v in cell)


def symmetry_group(puzzle: Puzzle) -> list:
    """G, the board's symmetry group for this puzzle: the motions of the lattice that
    map the board onto itself and the piece set onto itself (see
    ``symmetry.symmetry_group``); the identity first.

    Examples
    --------
    >>> len(symmetry_group(make_puzzle("6x10", "pentominoes")))
    4
    """
    return sym.symmetry_group(puzzle.lattice, puzzle.board, puzzle.pieces, puzzle.one_sided)


def plan_symmetry(puzzle: Puzzle, restrict=None, breaker=None, fallback: bool = False):
    """The symmetry-breaking plan of a puzzle (see ``symmetry.plan_symmetry``).

    Parameters
    ----------
    puzzle : Puzzle
        From ``make_puzzle``.
    restrict, breaker : str, optional
        The piece P kept at one placement per class of G, and the piece Q that breaks
        the symmetry P's symmetric placements leave (piece aliases accepted: ``O`` for
        ``O4``); default: chosen as ``symmetry.plan_symmetry`` says.
    fallback : bool
        Where no P and Q break G exactly, give a plan that reduces each solution in
        Python (``plan.filter``) rather than raise ``symmetry.NoSymmetryBreaking``.

    Examples
    --------
    >>> plan = plan_symmetry(make_puzzle("6x10", "pentominoes"))
    >>> plan.describe()
    '|G| = 4; X kept at 8 places'
    """
    restrict, breaker = (alias(puzzle.lattice.name, name) for name in (restrict, breaker))
    for name in (restrict, breaker):
        if name is not None:
            puzzle.piece(name)
    return sym.plan_symmetry(
        symmetry_group(puzzle), puzzle.pieces, puzzle.placements, restrict, breaker, fallback
    )


def build(puzzle: Puzzle, plan=None) -> dlx.Problem:
    """The exact-cover problem of a puzzle (items and options: see the module); with a
    ``plan``, the symmetry-breaking restrictions too.

    Examples
    --------
    >>> puzzle = make_puzzle("3x3", "L3,T4,I2")
    >>> print(build(puzzle), dlx.count(build(puzzle)))
    Problem(12 primary, 0 secondary items, 36 options) 8
    """
    entries = sum(len(puzzle.placements[p.name]) * (p.size + 2) for p in puzzle.pieces)
    refuse_larger(entries, f"the board of {len(puzzle.board)} cells")
    problem = dlx.Problem()
    for cell in cell_order(puzzle.board):
        problem.add_primary(cell_item(cell))
    for p in puzzle.pieces:
        problem.add_primary(p.name, p.copies, p.copies)
    crossings = puzzle.lattice.crossings
    if crossings is not None:
        for item in sorted(set(crossings(puzzle.board))):
            problem.add_secondary(item)
    restricted_at: dict = {}
    breaker_items: dict = {}
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
            through = crossings(place) if crossings is not None else []
            problem.add_option([p.name, *cells, *through, *extra], name=p.name)
    return problem


def decode(puzzle: Puzzle, solution) -> Tiling:
    """The tiling of a solution of ``build(puzzle)``: (piece name, cells) per placed
    piece, by least cell.

    Examples
    --------
    >>> puzzle = make_puzzle("3x3", "L3,T4,I2")
    >>> tiling = decode(puzzle, dlx.first(build(puzzle)))
    >>> sorted(name for name, cells in tiling), faults(puzzle, tiling)
    (['I2', 'L3', 'T4'], [])
    """
    tiling = []
    for row in solution.rows:
        cells = frozenset(
            tuple(int(v) for v in item.split(",")) for item in row[1:] if item[0] not in "!+"
        )
        tiling.append((row[0], cells))
    return Tiling(sorted(tiling, key=lambda t: min(t[1])), puzzle)


def faults(puzzle: Puzzle, tiling) -> list[str]:
    """What is wrong with a tiling (empty when it is a solution): cells, counts, shapes,
    crossings; from the rules alone, not from the exact-cover problem.

    Examples
    --------
    >>> puzzle = make_puzzle("3x3", "L3,T4,I2")
    >>> faults(puzzle, next(distinct_tilings(puzzle))[:2])
    ['cells outside the board or left empty', "pieces used {'T4': 1, 'L3': 1}"]
    """
    out = []
    covered = Counter(c for _, cells in tiling for c in cells)
    if set(covered) != set(puzzle.board):
        out.append("cells outside the board or left empty")
    out += [f"cell {c} covered {n} times" for c, n in covered.items() if n > 1]
    used = Counter(name for name, _ in tiling)
    if used != Counter({p.name: p.copies for p in puzzle.pieces}):
        out.append(f"pieces used {dict(used)}")
    shapes = {p.name: p.shape for p in puzzle.pieces}
    lat = puzzle.lattice
    for name, cells in tiling:
        if name in shapes and lat.normalise(cells) not in lat.orientations(
            shapes[name], puzzle.one_sided
        ):
            out.append(f"{name} is misshapen")
    if lat.crossings is not None:
        through = Counter(item for _, cells in tiling for item in set(lat.crossings(cells)))
        out += [f"two pieces cross at {p}" for p, n in through.items() if n > 1]
    return out


def render(puzzle: Puzzle, tiling: Tiling) -> str:
    """A tiling as a text picture in the lattice's text, a letter per cell.

    Examples
    --------
    >>> puzzle = make_puzzle("3x3", "L3,T4,I2")
    >>> print(render(puzzle, next(distinct_tilings(puzzle))))
    TII
    TTL
    TLL
    """
    show = letters(puzzle)
    return puzzle.lattice.write_picture({c: show[name] for name, cells in tiling for c in cells})


# -- counting ---------------------------------------------------------------------------


def count_tilings(
    puzzle: Puzzle,
    symmetry: bool = True,
    restrict: str | None = None,
    breaker: str | None = None,
    limit: int | None = None,
    orbits: bool = True,
    *,
    parallel: dlx.Parallel | None = None,
    **search,
) -> Counts:
    """Count the tilings of a puzzle: all of them, and the distinct ones (one per class
    of the board's symmetries), exactly (the steps of ``symmetry.py``).

    Parameters
    ----------
    puzzle : Puzzle
        From ``make_puzzle``.
    symmetry : bool
        Break the board's symmetry (default); False counts every tiling, and the
        distinct count is then unknown (None) unless the board has no symmetry.
    restrict, breaker : str, optional
        The piece placed once per symmetry class, and the one that breaks what it
        leaves (default: chosen by ``symmetry.plan_symmetry``); without ``symmetry``,
        ``restrict`` names the anchor of the orbit count (``orbits.plan_orbits``).
    limit : int, optional
        Stop at that many distinct tilings (all of them, without ``symmetry``).
    orbits : bool
        Without ``symmetry`` (and without ``limit``), count every tiling by the G-orbits
        of one piece's placements (``puzzles.polyform.orbits``: exact, about 1/|G| of
        the tree) where such a piece exists (default); False searches the whole tree.
    parallel : dlx.Parallel, optional
        Count on several processes (workers, a checkpoint, a Dask cluster); default:
        this process.
    **search
        The other keywords of ``dlx.count``: ``engine`` (default ``"auto"``),
        ``progress``, ``time_limit``, ``node_limit``... (``common.dlx_search``).

    Returns
    -------
    Counts
        ``all``, ``distinct``, ``symmetric`` (classes of symmetric tilings),
        ``complete`` (False: each number is "at least", see ``stopped_by``).

    Examples
    --------
    >>> counts = count_tilings(make_puzzle("3x20", "pentominoes"))
    >>> counts.all, counts.distinct, counts.complete
    (8, 2, True)

    Notes
    -----
    With a breaker piece the restricted problem is counted with no Python work per
    solution and all = distinct x |G|; without one each solution is reduced in Python,
    which also counts the symmetric classes (a checkpoint is then refused). A Ctrl-C
    while solutions are reduced raises ``dlx.Interrupted`` with the distinct
    solutions found so far.
    """
    search = dlx_search({**search, "parallel": parallel}, DLX_KEYWORDS)
    search.setdefault("engine", ENGINE)
    if not symmetry:
        anchored = None
        if orbits and limit is None:
            anchor = alias(puzzle.lattice.name, restrict)
            anchored = orb.plan_orbits(
                symmetry_group(puzzle), puzzle.pieces, puzzle.placements, anchor
            )
        if anchored is not None:
            result = orb.count_by_orbits(anchored, lambda plan: build(puzzle, plan), **search)
            how = f"all counted by the orbits of {anchored.describe()}"
            return Counts.of_count(result, int(result), None, None, how)
        result = dlx.count(build(puzzle), limit, **search)
        trivial = len(symmetry_group(puzzle)) == 1
        n = result.solutions
        how = "all counted without symmetry breaking"
        return Counts.of_count(result, n, n if trivial else None, 0 if trivial else None, how)
    plan = plan_symmetry(puzzle, restrict, breaker, fallback=True)
    problem = build(puzzle, plan)
    if not plan.filter:
        result = dlx.count(problem, limit, **search)
        n = result.solutions
        how = (
            f"distinct counted with symmetry breaking ({plan.describe()}); "
            f"all = distinct x {plan.group_order}, as no solution is symmetric"
        )
        return Counts.of_count(result, n * plan.group_order, n, 0, how)
    distinct = every = symmetric = 0
    if search.get("parallel") is not None and search["parallel"].checkpoint is not None:
        raise PuzzleError(
            f"a checkpoint needs a count with no Python per solution; here each solution "
            f"is reduced in Python ({plan.describe()})"
        )
    search.pop("parallel", None)  # the reduction is serial: a stream on one process
    stream = dlx.solutions(problem, **search)
    cut = None
    try:
        for solution in stream:
            kept, fixed = sym.is_class_representative(plan, decode(puzzle, solution))
            if kept:
                distinct += 1
                every += plan.group_order // fixed
                symmetric += fixed > 1
                if limit is not None and distinct >= limit:
                    cut = f"solution limit {limit}"
                    break
    except KeyboardInterrupt:
        raise dlx.Interrupted(distinct) from None
    return Counts(every, distinct, symmetric, stream.complete and cut is None,
                  f"{plan.describe()}; each class of all solutions has |G| / |stabilizer| "
                  "members", stream.stats, cut or stream.stopped_by)  # fmt: skip


def distinct_tilings(
    puzzle: Puzzle,
    plan=None,
    limit: int | None = None,
    *,
    parallel: dlx.Parallel | None = None,
    **search,
):
    """Stream the distinct tilings of a puzzle, one per class of the board's symmetries.

    Parameters
    ----------
    puzzle : Puzzle
        From ``make_puzzle``.
    plan : symmetry.Plan, optional
        The symmetry-breaking plan (default ``plan_symmetry(puzzle, fallback=True)``).
    limit : int, optional
        Stop after that many tilings.
    parallel : dlx.Parallel, optional
        Search on several processes; default: this process.
    **search
        The other keywords of ``dlx.solutions`` (``engine``, default ``"auto"``,
        ``time_limit``, ``progress``...).

    Yields
    ------
    Tiling
        (piece name, cells) per piece; ``print`` shows its picture, Jupyter draws it.

    Examples
    --------
    >>> puzzle = make_puzzle("3x20", "pentominoes")
    >>> tilings = list(distinct_tilings(puzzle))
    >>> len(tilings), [faults(puzzle, tiling) for tiling in tilings]
    (2, [[], []])
    >>> print(svg(puzzle, next(distinct_tilings(puzzle)))[:4])
    <svg
    """
    plan = plan_symmetry(puzzle, fallback=True) if plan is None else plan
    search = dlx_search({**search, "parallel": parallel}, DLX_KEYWORDS)
    search.setdefault("engine", ENGINE)
    found = 0
    for solution in dlx.solutions(build(puzzle, plan), **search):
        tiling = decode(puzzle, solution)
        if plan.filter and not sym.is_class_representative(plan, tiling)[0]:
            continue
        yield tiling
        found += 1
        if limit is not None and found >= limit:
            return
