"""``python -m puzzles polyform``: tile a board of any lattice with polyforms.

What every tiling command (``polyform`` and ``pentomino``) adds to the shared command
layer (``puzzles.cli``) is defined here once: its own flags (``add_tiling_arguments``:
``--one-sided``, ``--no-symmetry``, ``--whole-tree``, ``--restrict``, ``--breaker``,
``--engine``), its puzzle (``Tilings``: a ``tiling.Puzzle`` with those choices and its
picture functions), its answers (``TilingAnswer``), its searches (``solutions``,
``count``), the line said before its problem is built (``announce``) and its command's
declaration (``tiling_command``); ``--dlx FILE`` (both commands) is an ``exports`` hook. Like
every adapter's hooks, these print and write nothing: the layer does, from what they
return.

In the layer's words (``puzzles.command.Command``): a tiling command counts by default
(``count_by_default``), on every core (``workers=0``), with no FILE (its ``input`` is
its flags: the board and pieces). Its
*solutions* are the distinct ones (one per class of the board's symmetry group G; with
``--no-symmetry`` every tiling); ``--unique`` says whether the tiling is unique up to
symmetry. A count prints ``all solutions: N`` and ``distinct solutions: M`` (and
``symmetric classes: K`` where some are symmetric); an unfinished one ``at least``.

File format of ``--out`` (answers as text): one picture per solution, a blank line
between two; on a board of several layers (3-D), where a picture's layers are
themselves separated by blank lines, each solution starts with a header line
``# solution K`` (``read_solutions`` reads both back).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import dlx
from puzzles.command import Command, Export, Input, Request
from puzzles.common import Answer, Answers, PuzzleError, dlx_search
from puzzles.lattices import LATTICES
from puzzles.polyform import sampling, tiling
from puzzles.polyform import symmetry as sym
from puzzles.polyform.boards import parse_board

EPILOG = """\
A tiling's solutions are its distinct tilings, one per class of the board's symmetry
group G (every tiling with --no-symmetry). With no mode given it counts (on every core):
"all solutions: N" and "distinct solutions: M" ("at least" when stopped by a limit,
"?" when unknown); --unique says whether the tiling is unique up to symmetry;
--limit N lists N distinct solutions; --out FILE alone writes every one there (one
picture each, a blank line between two; on a 3-D board each starts with a line
"# solution K"); --json gives each solution as a list of pieces with their cells."""
ENGINE = tiling.ENGINE  # the tiling commands' default --engine (one place to change it)
HEADER = re.compile(r"^# solution [0-9]+$")


def add_tiling_arguments(parser) -> None:
    """The flags of every tiling command (beyond the shared ones)."""
    parser.add_argument("--one-sided", action="store_true", help="pieces may not turn over")
    parser.add_argument(
        "--no-symmetry",
        action="store_true",
        help="every tiling is a solution (no symmetry breaking; the distinct count is then "
        "unknown unless the board has no symmetry)",
    )
    parser.add_argument(
        "--whole-tree",
        action="store_true",
        help="with --no-symmetry, count every tiling over the whole tree (default: by the "
        "symmetry orbits of one piece's placements, exact and about 1/|G| of the tree)",
    )
    parser.add_argument(
        "--restrict",
        help="the piece P placed once per board symmetry class (with --no-symmetry: the "
        "piece whose placements' orbits the count goes by)",
    )
    parser.add_argument("--breaker", help="the piece Q that breaks symmetry left by P")
    parser.add_argument(
        "--engine",
        choices=dlx.ENGINE_CHOICES,
        default=ENGINE,
        help=dlx.ENGINE_HELP,
    )
    parser.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="search on the Dask cluster whose scheduler is at ADDRESS (needs the "
        "dask.distributed package)",
    )
    sampling.add_arguments(parser)
    add_dlx_argument(parser)


def add_arguments(parser) -> None:
    """Options of ``python -m puzzles polyform``."""
    parser.add_argument(
        "--board",
        required=True,
        help="a shape (WxH, WxHxD, triangle:N, hexagon:N), a picture file or a cell-list "
        "file ('lattice: ...' then one cell per line)",
    )
    parser.add_argument(
        "--pieces",
        required=True,
        help="sets, families, names, files: e.g. hexiamonds, 'polyiamonds:1-5', "
        "'tetrasticks,-H', one-sided-pentominoes, 'I2*20'",
    )
    parser.add_argument(
        "--lattice", choices=sorted(LATTICES), help="the lattice (default: from the pieces)"
    )
    add_tiling_arguments(parser)


def add_dlx_argument(parser) -> None:
    """``--dlx FILE`` (``exports``), of the tiling commands."""
    parser.add_argument(
        "--dlx",
        help="write the exact-cover problem in Knuth's format here, and stop (unless a search "
        "flag such as --count is given too)",
    )


# -- the puzzle and its answers ---------------------------------------------------------


@dataclass
class Tilings:
    """A tiling puzzle as a command solves it: the puzzle, the symmetry choices of the
    flags, the kernel, and how its solutions are written (``render``) and drawn
    (``draw(puzzle, tilings)``)."""

    puzzle: tiling.Puzzle
    symmetry: bool = True
    restrict: str | None = None
    breaker: str | None = None
    engine: str = ENGINE
    render: object = tiling.render
    draw: object = tiling.svg
    label: str = ""
    shown: int = 0  # answers made so far (their headers' numbers)
    sample: sampling.Sample | None = None  # --sample: tilings drawn from the solution graph
    orbits: bool = True  # all tilings counted by the orbits of a piece's placements

    def plan(self):
        """The symmetry plan (None without symmetry breaking)."""
        if not self.symmetry:
            return None
        return tiling.plan_symmetry(self.puzzle, self.restrict, self.breaker, fallback=True)

    @cached_property
    def layered(self) -> bool:
        """True when the board has several layers (pictures hold blank lines)."""
        return len({self.puzzle.lattice.layer(c) for c in self.puzzle.board}) > 1

    def drawn_from(self) -> str | None:
        """With ``--sample``: what the tilings were drawn from (the summary line's)."""
        return None if self.sample is None else sampling.drawn_from(self.sample)

    def summary(self) -> str:
        """How the solutions are counted (for ``--stats``)."""
        if self.sample is not None:
            return sampling.summary(self.sample)
        plan = self.plan()
        return "every tiling, no symmetry breaking" if plan is None else plan.describe()


class TilingAnswer(Answer):
    """One tiling: (piece name, cells) per piece; ``str()`` its picture (with a header
    line on a layered board), ``to_json()`` its pieces with their cells."""

    def __init__(self, tilings: Tilings, pieces: tiling.Tiling, number: int):
        self.tilings, self.pieces, self.number = tilings, pieces, number

    def __str__(self) -> str:
        picture = self.tilings.render(self.tilings.puzzle, self.pieces)
        header = f"# solution {self.number}\n" if self.tilings.layered else ""
        return header + picture + "\n"

    def _repr_svg_(self) -> str:
        return self.tilings.draw(self.tilings.puzzle, [self.pieces])

    def to_json(self) -> list:
        """``[{"piece": NAME, "cells": [[coordinates], ...]}, ...]``."""
        return [{"piece": name, "cells": sorted(map(list, cells))} for name, cells in self.pieces]


def draw(answers: list[TilingAnswer]) -> str:
    """The answers of one puzzle as one SVG gallery (``--svg``)."""
    tilings = answers[0].tilings
    return tilings.draw(tilings.puzzle, [a.pieces for a in answers])


def read_solutions(text: str) -> list[str]:
    """The pictures of a file written by ``--out`` (see the module's docstring)."""
    lines = text.splitlines()
    if any(HEADER.match(line) for line in lines):
        blocks: list[list[str]] = []
        for line in lines:
            if HEADER.match(line):
                blocks.append([])
            elif blocks:
                blocks[-1].append(line)
        return ["\n".join(b).strip("\n") for b in blocks]
    return [b for b in text.strip("\n").split("\n\n") if b.strip()]


# -- what the command layer calls -------------------------------------------------------


def tiling_puzzle(
    request: Request, puzzle: tiling.Puzzle, render=tiling.render, draw=tiling.svg
) -> Tilings:
    """The command's puzzle from its flags."""
    own = request.options
    _check_engine(own.engine)
    if request.dask is not None:
        _check_dask()
    found = Tilings(
        puzzle,
        not own.no_symmetry,
        own.restrict,
        own.breaker,
        own.engine,
        render,
        draw,
        orbits=not own.whole_tree,
    )
    found.sample = sampling.from_flags(request)
    return found


def announce(tilings: Tilings) -> str:
    """The puzzle's size, said on stderr before its problem is built (when a bar is
    wanted)."""
    puzzle = tilings.puzzle
    n_copies = sum(p.copies for p in puzzle.pieces)
    n_places = sum(len(v) for v in puzzle.placements.values())
    return (
        f"{len(puzzle.board)} cells, {len(puzzle.pieces)} pieces ({n_copies} copies), "
        f"{n_places} placements; building the problem..."
    )


def _check_dask() -> None:
    """Refuse ``--dask`` in one line where ``dask.distributed`` is not installed."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise PuzzleError(
            "--dask: searching on Dask needs the dask.distributed package "
            "(pip install 'dask[distributed]')"
        ) from None


def _check_engine(engine: str) -> None:
    """Refuse, in one line, a kernel this version of ``dlx`` does not have."""
    if engine not in dlx.ENGINE_CHOICES:  # checked by name: no search, no compiling
        known = ", ".join(dlx.ENGINE_CHOICES)
        raise PuzzleError(f"--engine {engine}: not a kernel of this dlx (known: {known})")


def refuse_file(request: Request, command: str, parse_board) -> None:
    """Refuse a FILE (a tiling command reads none) in one line: most often a flag's
    value split by a blank (``--board 8x 8``), so a board that does not parse is named."""
    if request.file is None:
        return
    try:
        parse_board(request.options.board)
    except PuzzleError as e:
        raise PuzzleError(
            f"{flag_names(e)} ({request.file!r} after it is not an argument: write the board "
            "as one word, e.g. --board 8x8)"
        ) from None
    raise PuzzleError(
        f"{command} reads no FILE, but got {request.file!r}: give --board and --pieces, "
        "each value one word (or quoted)"
    )


def flag_names(error: PuzzleError) -> str:
    """An error of the Python functions, which name their arguments (``board``,
    ``pieces``, ``extra``), as the command's flags name them (``--board``...)."""
    return re.sub(r"^(board|pieces|extra)\b", r"--\1", str(error))


def read(text, request: Request) -> list[Tilings]:
    """The one puzzle of ``--board`` and ``--pieces`` (a FILE is not read)."""
    own = request.options
    refuse_file(request, "polyform", lambda board: parse_board(board, own.lattice))
    try:
        puzzle = tiling.make_puzzle(own.board, own.pieces, own.one_sided, own.lattice)
    except PuzzleError as e:
        raise PuzzleError(flag_names(e)) from None
    return [tiling_puzzle(request, puzzle)]


def exports(tilings: Tilings, request: Request) -> list[Export]:
    """``--dlx FILE``: the puzzle's exact-cover problem in Knuth's format."""
    own = request.options
    if not own.dlx:
        return []
    plan = tilings.plan()
    problem = tiling.build(tilings.puzzle, plan)
    note = "every tiling" if plan is None else plan.describe()
    pieces = ",".join([own.pieces, *getattr(own, "extra", ())])  # (pentomino's --extra)
    text = dlx.write(problem, f"{own.board} / {pieces}: {note}")
    return [Export(own.dlx, text, f"{problem.n_options} options")]


def solutions(
    tilings: Tilings, limit: int | None = None, *, parallel: dlx.Parallel | None = None, **search
) -> Answers:
    """The distinct tilings (every one with ``--no-symmetry``), streamed, on the
    processes of ``parallel`` (default: this one); with ``--sample``, the tilings drawn
    (``sampling``)."""
    if tilings.sample is not None:
        return sampling.answers(tilings, lambda p: _numbered(tilings, p), search)
    puzzle, plan = tilings.puzzle, tilings.plan()
    search = dlx_search({**search, "parallel": parallel})
    found = dlx.solutions(tiling.build(puzzle, plan), engine=tilings.engine, **search)

    def keep(answer: TilingAnswer) -> bool:
        if plan is not None and plan.filter:
            if not sym.is_class_representative(plan, answer.pieces)[0]:
                return False
        tilings.shown += 1
        answer.number = tilings.shown
        return True

    return Answers(found, lambda s: TilingAnswer(tilings, tiling.decode(puzzle, s), 0), keep, limit)


def _numbered(tilings: Tilings, pieces) -> TilingAnswer:
    """The next answer shown."""
    tilings.shown += 1
    return TilingAnswer(tilings, pieces, tilings.shown)


def count(
    tilings: Tilings, limit: int | None = None, *, parallel: dlx.Parallel | None = None, **search
) -> tiling.Counts:
    """Count all and distinct tilings (``tiling.count_tilings``), up to ``limit``
    distinct, on the processes of ``parallel`` (default: this one)."""
    return tiling.count_tilings(
        tilings.puzzle,
        symmetry=tilings.symmetry,
        restrict=tilings.restrict,
        breaker=tilings.breaker,
        engine=tilings.engine,
        limit=limit,
        orbits=tilings.orbits,
        parallel=parallel,
        **search,
    )


# -- the commands -------------------------------------------------------------------------


def tiling_command(name: str, help: str, add_arguments, read) -> Command:
    """A tiling command (``polyform``, ``pentomino``): its own flags and puzzle, with what
    every tiling command shares (see the module's docstring)."""
    return Command(
        name=name,
        help=help,
        read=read,
        solutions=solutions,
        count=count,
        add_arguments=add_arguments,
        draw=draw,
        settle=sampling.settle,
        announce=announce,
        exports=exports,  # --dlx FILE
        epilog=EPILOG,
        input=Input.FLAGS,
        workers=0,
        count_by_default=True,
        outputs=("--dlx",),
    )


COMMAND = tiling_command(
    "polyform",
    "tile a board of any lattice (polyiamonds, polyhexes, polycubes, polysticks)",
    add_arguments,
    read,
)
