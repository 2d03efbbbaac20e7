"""Infinity loop: turn each tile until every pipe end meets a pipe end.

The model (XCC):
- primary item ``r,c``: cell (r, c) takes exactly one orientation;
- option ``r,c=m``: cell (r, c) turned into tile ``m``, one per distinct rotation of the
  given tile that points nowhere off the board, with the edges around the cell:
- secondary items ``h r,c`` and ``v r,c``: the edges between neighbouring cells, coloured
  ``1`` (a pipe crosses) or ``0`` (none), so two neighbours must agree.

Known counts (``data/infinity_loop``, HoustonWeHaveABug's puzzles, counts from
``derived_answers/answers.tsv``): sample1 1, sample2 1, bearific1 1, bearific2 12,
bearific3 640, bearific4 288, bearific5 80640, test10x10 6, test20x20 128,
test30x30 24, test40x40 967680.

Speed. The kernel chooses its item by scanning every active primary item, so one search
over 250,000 cells would spend O(cells) at every node. The adapter therefore translates
the puzzle in two steps before any search (``plan``):

1. *reduce*: a cell keeps a tile only if, on each of its four sides, the neighbour still
   has a tile that agrees (pipe or no pipe; the board's edge says "no pipe"). Applied to
   all cells at once with numpy bit sets, repeated until nothing changes (arc
   consistency). This removes options that are in no solution, so counts are unchanged.
2. *split*: the cells left with two or more tiles, joined through the edges that are
   still undecided, fall into independent parts. Every other edge has one value that all
   remaining tiles on both sides agree on, so a part's choices never constrain another
   part: the solutions are the products of the parts' solutions and the count is the
   product of their counts. Each part is one small exact-cover problem.

``plan(puzzle, reduce_first=False)`` skips both steps: one problem for the whole grid.

>>> print(solve("┗┛\\n┏┓\\n"), end="")
┏┓
┗┛
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import numpy as np

import dlx
from dlx import numbers
from puzzles.command import Command, Request
from puzzles.common import Answers, as_puzzle, dlx_search, refuse_larger
from puzzles.tiles import (
    DIRECTIONS,
    DOWN,
    LEFT,
    OPPOSITE,
    RIGHT,
    UP,
    GridFormat,
    Tiled,
    cell_name,
    edge_names,
    fill,
    format_grid,
    grid_lines,
    off_board,
    open_ends,
    option_name,
    parse_grid,
    rotations,
    sides,
    svg_tiles,
    tile_entries,
)

Grid = np.ndarray  # int64[rows, columns] of masks; -1 where not decided

FULL = (1 << 16) - 1
# HAS[d]: the bit set of the masks that have a pipe end in direction d
HAS = {d: sum(1 << m for m in range(16) if m & d) for d in DIRECTIONS}
# TURNS[m]: the bit set of the masks that tile m can be turned into
ROTATIONS = [rotations(m) for m in range(16)]
TURNS = np.array([sum(1 << t for t in rotations(m)) for m in range(16)], dtype=np.int64)


@dataclass(frozen=True)
class Puzzle:
    """Tiles as given (``tiles[r, c]``, a mask) and the format they were written in."""

    tiles: Grid
    format: GridFormat

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns)."""
        return self.tiles.shape


class Answer(Tiled):
    """A solved infinity loop: ``grid[r, c]``, the tile each cell is turned into."""


def parse(text: str) -> Puzzle:
    """A puzzle from its text (numbers or box-drawing characters, header optional).

    >>> parse("╺━╸").tiles.tolist()
    [[2, 10, 8]]
    """
    tiles, fmt = parse_grid(grid_lines(text))
    return Puzzle(tiles, fmt)


def parse_all(text: str) -> list[Puzzle]:
    """Every puzzle of a text: a file holds one."""
    return [parse(text)]


# -- translation: domains, reduction, parts, problems -----------------------------


def initial_domain(puzzle: Puzzle) -> np.ndarray:
    """int64[rows, columns]: bit ``m`` set when cell may show tile ``m`` (a rotation of
    its tile that points nowhere off the board)."""
    domain = TURNS[puzzle.tiles]
    domain[0, :] &= ~HAS[UP]
    domain[-1, :] &= ~HAS[DOWN]
    domain[:, 0] &= ~HAS[LEFT]
    domain[:, -1] &= ~HAS[RIGHT]
    return domain & FULL


# The reduction works on the grid padded with a ring of empty tiles (so the board's
# edge is a neighbour that never has a pipe) and flattened: the neighbour of cell x in
# direction d is x + offset[d].
LACK = {d: FULL & ~HAS[d] for d in DIRECTIONS}
POPCOUNT = np.array([bin(v).count("1") for v in range(1 << 16)], dtype=np.int8)


def _padded(domain: np.ndarray) -> tuple[np.ndarray, dict]:
    """The domains padded with empty tiles and flattened, and the neighbour offsets."""
    rows, columns = domain.shape
    flat = np.ones((rows + 2, columns + 2), dtype=np.int32)  # bit 0: the empty tile
    flat[1:-1, 1:-1] = domain
    width = columns + 2
    return flat.ravel(), {UP: -width, RIGHT: 1, DOWN: width, LEFT: -1}


def reduce(domain: np.ndarray) -> tuple[np.ndarray, int]:
    """The domains at the fixpoint of "keep a tile only if the neighbour on each side
    can agree with it", and the number of sweeps it took. Tiles removed here are in no
    solution. Each sweep looks only at the cells next to a cell that changed."""
    rows, columns = domain.shape
    flat, offset = _padded(domain)
    interior = np.zeros((rows + 2, columns + 2), dtype=bool)
    interior[1:-1, 1:-1] = True
    interior = interior.ravel()
    active = np.flatnonzero(interior)
    sweeps = 0
    while active.size:
        sweeps += 1
        old = flat[active]
        new = old.copy()
        for d in DIRECTIONS:
            neighbour = flat[active + offset[d]]
            can_pipe = (neighbour & HAS[OPPOSITE[d]]) != 0
            can_lack = (neighbour & LACK[OPPOSITE[d]]) != 0
            new &= np.where(can_pipe, FULL, LACK[d]) & np.where(can_lack, FULL, HAS[d])
        changed = new != old
        cells = active[changed]
        flat[cells] = new[changed]
        mark = np.zeros(flat.size, dtype=bool)
        for d in DIRECTIONS:
            mark[cells + offset[d]] = True
        active = np.flatnonzero(mark & interior)
    return flat.reshape(rows + 2, columns + 2)[1:-1, 1:-1].astype(np.int64), sweeps


def split(domain: np.ndarray) -> list[list[tuple[int, int]]]:
    """The independent parts: cells with 2+ tiles joined through undecided edges (an
    edge is undecided when both cells can still have a pipe there, and both can lack it).
    """
    rows, columns = domain.shape
    flat, offset = _padded(domain)
    open_cells = np.flatnonzero(POPCOUNT[flat] > 1)
    if not open_cells.size:
        return []
    ends_a, ends_b = [], []
    for d in (RIGHT, DOWN):
        a = open_cells
        b = a + offset[d]
        back = OPPOSITE[d]
        undecided = (
            (POPCOUNT[flat[b]] > 1)
            & ((flat[a] & HAS[d]) != 0)
            & ((flat[a] & LACK[d]) != 0)
            & ((flat[b] & HAS[back]) != 0)
            & ((flat[b] & LACK[back]) != 0)
        )
        ends_a.append(a[undecided])
        ends_b.append(b[undecided])
    # number the open cells 0..n-1 and join the ends of undecided edges
    index = np.full(flat.size, -1, dtype=np.int64)
    index[open_cells] = np.arange(open_cells.size)
    a, b = index[np.concatenate(ends_a)], index[np.concatenate(ends_b)]
    label = _components(open_cells.size, a, b)
    order = np.argsort(label, kind="stable")
    bounds = np.flatnonzero(np.diff(label[order])) + 1
    width = columns + 2
    parts = []
    for group in np.split(open_cells[order], bounds):
        r, c = np.divmod(group, width)
        parts.append(list(zip((r - 1).tolist(), (c - 1).tolist(), strict=True)))
    return parts


def _components(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Label the connected components of the graph on 0..n-1 with edges (a[k], b[k]):
    each node gets the smallest node of its component (hooking and pointer jumping)."""
    label = np.arange(n)
    while True:
        low = np.minimum(label[a], label[b])
        new = label.copy()
        np.minimum.at(new, label[a], low)
        np.minimum.at(new, label[b], low)
        while True:
            jumped = new[new]
            if np.array_equal(jumped, new):
                break
            new = jumped
        if np.array_equal(new, label):
            return label
        label = new


def build(puzzle: Puzzle, domain: np.ndarray | None = None, cells=None) -> dlx.Problem:
    """The exact-cover problem of ``cells`` (default: the whole grid), each cell offered
    the tiles of its ``domain`` (default: ``initial_domain``).

    >>> p = build(parse("╺╸"))
    >>> [p.option(k) for k in range(p.n_options)]
    [['0,0', 'h 0,0:1'], ['0,1', 'h 0,0:1']]
    """
    rows, columns = puzzle.shape
    refuse_larger(5 * 16 * rows * columns, f"the {rows}x{columns} grid")  # 16 tiles a cell
    if domain is None:
        domain = initial_domain(puzzle)
    if cells is None:
        cells = [(r, c) for r in range(rows) for c in range(columns)]
    member = set(cells)

    def inside(r: int, c: int) -> bool:
        return (r, c) in member

    problem = dlx.Problem(
        primary=[cell_name(r, c) for r, c in cells], secondary=edge_names(cells, inside)
    )
    where = tuple(np.asarray(cells, dtype=np.int64).reshape(-1, 2).T)
    for (r, c), bits, tile in zip(
        cells, domain[where].tolist(), puzzle.tiles[where].tolist(), strict=True
    ):
        around = sides(r, c, inside)
        for m in ROTATIONS[tile]:
            if bits >> m & 1 and not off_board(m, r, c, rows, columns):
                entries = [cell_name(r, c), *tile_entries(m, around)]
                problem.add_option(entries, name=option_name(r, c, m))
    return problem


@dataclass
class Plan:
    """A puzzle translated for search: reduced domains, the cells already decided
    (``fixed``, -1 elsewhere), the independent ``parts`` and their problems."""

    puzzle: Puzzle
    domain: np.ndarray
    fixed: Grid
    parts: list[list[tuple[int, int]]]
    solvable: bool
    sweeps: int = 0
    seconds: float = 0.0
    _problems: dict = field(default_factory=dict, repr=False)

    def problem(self, k: int) -> dlx.Problem:
        """The exact-cover problem of part ``k`` (built once)."""
        if k not in self._problems:
            self._problems[k] = build(self.puzzle, self.domain, self.parts[k])
        return self._problems[k]

    def summary(self) -> str:
        """One line: cells, what the reduction left, the parts."""
        rows, columns = self.puzzle.shape
        open_cells = sum(len(p) for p in self.parts)
        largest = max((len(p) for p in self.parts), default=0)
        return (
            f"{rows}x{columns}: {open_cells} cells undecided after {self.sweeps} sweeps, "
            f"{len(self.parts)} parts (largest {largest}), {self.seconds:.3f} s"
        )


def plan(puzzle: Puzzle, reduce_first: bool = True) -> Plan:
    """Reduce and split the puzzle (or, with ``reduce_first=False``, one whole problem)."""
    t0 = time.perf_counter()
    domain = initial_domain(puzzle)
    sweeps = 0
    if reduce_first:
        domain, sweeps = reduce(domain)
    solvable = bool((domain != 0).all())
    fixed = np.full(puzzle.shape, -1, dtype=np.int64)
    if not solvable:
        parts = []
    elif reduce_first:
        single = POPCOUNT[domain] == 1
        fixed[single] = np.log2(domain[single]).round().astype(np.int64)
        parts = split(domain)
    else:
        rows, columns = puzzle.shape
        parts = [[(r, c) for r in range(rows) for c in range(columns)]]
    return Plan(puzzle, domain, fixed, parts, solvable, sweeps, time.perf_counter() - t0)


def decode(puzzle: Puzzle, solutions, grid: Grid | None = None) -> Answer:
    """The answer given by one solution, or by one solution of each part (filled into
    ``grid``, e.g. a plan's ``fixed`` cells)."""
    grid = np.full(puzzle.shape, -1, dtype=np.int64) if grid is None else grid.copy()
    if isinstance(solutions, dlx.Solution):
        solutions = [solutions]
    for solution in solutions:
        fill(grid, solution.names)
    return Answer(puzzle, grid)


def render(answer: Answer) -> str:
    """The solved grid as text, in its puzzle's format."""
    return format_grid(answer.grid, answer.puzzle.format)


def svg(answer: Answer) -> str:
    """The solved grid as an SVG picture, each network of pipes in its own colour."""
    return svg_tiles(answer.grid)


# -- consuming searches: the parts' counts multiply, their solutions combine -------


BIG_PART = 100  # cells of a part whose search gets its own progress bar


class PartSearches:
    """The searches of a plan's parts, one after the other, within one time limit, with
    a bar over the parts when there are several; ``complete``, ``stopped_by`` and
    ``stats`` sum them up (as a ``dlx.SolutionStream`` does)."""

    def __init__(self, p: Plan, time_limit=None, progress=False, parallel=None, **search):
        search = dlx_search({**search, "parallel": parallel})  # (loose keywords: a warning)
        if search.get("node_limit") is not None:
            raise TypeError("loop takes no node_limit (its parts are searched one by one)")
        self.plan = p
        seconds = numbers.seconds("time_limit", time_limit)
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.time_limit = time_limit
        self.progress = progress
        self.parallel = search.get("parallel")
        self.complete = True
        self.stopped_by: str | None = None
        self.stats = dlx.Stats()

    def run(self, search, limit):
        """Yield ``search(problem, limit, **options)`` for each part (``dlx.count`` or a
        list of ``dlx.solutions``), stopping at the time limit."""
        parts = range(len(self.plan.parts))
        bar = None
        if self.progress and len(parts) > 1:
            from tqdm.auto import tqdm

            bar = tqdm(parts, desc="parts", unit="part", leave=False)
            parts = bar
        for k in parts:
            left = None if self.deadline is None else self.deadline - time.perf_counter()
            if left is not None and left <= 0:
                self.complete, self.stopped_by = False, f"time limit {self.time_limit} s"
                return
            big = len(self.plan.parts[k]) >= BIG_PART  # its own bar too: it may take long
            options = dlx_search(
                {
                    "time_limit": left,
                    "progress": self.progress and (bar is None or big),
                    "parallel": self.parallel,
                }
            )
            result, done, stats, stopped_by = search(self.plan.problem(k), limit, **options)
            self.stats.nodes += stats.nodes
            self.stats.updates += stats.updates
            self.stats.seconds += stats.seconds
            if not done:
                self.complete, self.stopped_by = False, stopped_by
            yield result
        if bar is not None:
            bar.close()


def _count_part(problem, limit, **options):
    """``dlx.count`` of one part: (count, complete, stats, stopped by)."""
    result = dlx.count(problem, limit=limit, **options)
    return result.solutions, result.complete, result.stats, result.stopped_by


def _solve_part(problem, limit, **options):
    """``dlx.solutions`` of one part, listed: (solutions, complete, stats, stopped by)."""
    found = dlx.solutions(problem, limit, **options)
    listed = list(found)
    return listed, found.complete, found.stats, found.stopped_by


def count(
    text_or_puzzle, limit: int | None = None, *, parallel: dlx.Parallel | None = None, **search
) -> dlx.Count:
    """The number of solutions of a puzzle (text, Puzzle or Plan), up to ``limit``: the
    product of its parts' counts (``search`` and ``parallel`` as for ``solutions``).

    >>> print(count("┏┓\\n┗┛"))
    1
    """
    p = _as_plan(text_or_puzzle)
    limit = numbers.cap("limit", limit, numbers.LARGEST)
    parts = PartSearches(p, parallel=parallel, **search)
    total, visited = int(p.solvable), 0
    for n in parts.run(_count_part, limit) if p.solvable else ():
        total, visited = total * n, visited + 1
        if n == 0:
            break
    if total and visited < len(p.parts):  # stopped before some part: it could have none
        total = 0
    if limit is not None and total > limit:  # exact counts whose product passes the limit
        total, parts.complete = limit, False
        parts.stopped_by = parts.stopped_by or f"solution limit {limit}"
    parts.stats.solutions = total
    return dlx.Count(
        solutions=total, complete=parts.complete, stats=parts.stats, stopped_by=parts.stopped_by
    )


def is_unique(puzzle_or_plan) -> bool:
    """True when the puzzle has exactly one solution."""
    return count(puzzle_or_plan, limit=2).solutions == 1


def solutions(
    puzzle_or_plan, limit: int | None = None, *, parallel: dlx.Parallel | None = None, **search
) -> Answers:
    """Every answer (the parts' solutions in every combination), streamed; ``search``:
    ``time_limit``, ``progress``, ``parallel`` (a ``dlx.Parallel`` to search each part
    on several processes; default: this one)."""
    p = _as_plan(puzzle_or_plan)
    limit = numbers.cap("limit", limit, numbers.LARGEST)
    parts = PartSearches(p, parallel=parallel, **search)

    def combine():
        if not p.solvable:
            return
        per_part = []
        for found in parts.run(_solve_part, limit):
            if not found:
                return
            per_part.append(found)
        if len(per_part) < len(p.parts):  # stopped by the time limit before some part
            return
        for combination in itertools.islice(itertools.product(*per_part), limit):
            yield decode(p.puzzle, combination, p.fixed)

    return Answers(combine(), account=parts)


def first(puzzle_or_plan) -> Answer | None:
    """One answer, or None."""
    return next(iter(solutions(puzzle_or_plan, limit=1)), None)


def solve(text_or_puzzle, **search) -> Answer | None:
    """The first answer of a puzzle (text, Puzzle or Plan), or None when it has none."""
    return next(iter(solutions(_as_plan(text_or_puzzle), 1, **search)), None)


def _as_plan(text_or_puzzle) -> Plan:
    """A plan, made from a puzzle or its text if need be."""
    if isinstance(text_or_puzzle, Plan):
        return text_or_puzzle
    return plan(as_puzzle(text_or_puzzle, parse))


# -- the independent checker -----------------------------------------------------


def faults(puzzle: Puzzle, answer) -> list[str]:
    """What is wrong with ``answer`` (an Answer or a grid of masks) as a solution of
    ``puzzle``, from the rules alone: each cell must hold its given tile turned by some
    quarter turns, and every pipe end must meet a pipe end. An empty list means the grid
    is a solution."""
    grid = np.asarray(getattr(answer, "grid", answer))
    if grid.shape != puzzle.tiles.shape:
        return [f"the grid is {grid.shape}, the puzzle {puzzle.tiles.shape}"]
    turns: dict[int, set[int]] = {}
    for given in range(16):
        ends = [(given >> k) & 1 for k in range(4)]  # up, right, down, left
        # a quarter turn clockwise: the end that pointed left now points up, and so on
        shifted = [ends[-q:] + ends[:-q] for q in range(4)]
        turns[given] = {sum(b << k for k, b in enumerate(e)) for e in shifted}
    found = []
    for r, (given_row, row) in enumerate(zip(puzzle.tiles.tolist(), grid.tolist(), strict=True)):
        for c, (given, shown) in enumerate(zip(given_row, row, strict=True)):
            if shown not in turns[given]:
                found.append(f"cell {r},{c}: {shown} is not a turn of {given}")
    found += [f"cell {r},{c}: open pipe end {side}" for r, c, side in open_ends(grid)]
    return found


# -- command line (see puzzles.cli) -------------------------------------------------


def add_arguments(parser) -> None:
    """The options of ``python -m puzzles loop`` beyond the shared ones."""
    parser.add_argument(
        "--no-reduce", action="store_true", help="one search of the whole grid, no reduction"
    )


def read(text: str, request: Request) -> list[Plan]:
    """The puzzle of an input file, planned (reduced and split unless ``--no-reduce``)."""
    return [plan(parse(text), reduce_first=not request.options.no_reduce)]


COMMAND = Command(
    name="loop",
    help="infinity loop: turn tiles until every pipe meets a pipe",
    read=read,
    solutions=solutions,
    count=count,
    add_arguments=add_arguments,
)
