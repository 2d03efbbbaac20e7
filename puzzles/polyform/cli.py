"""``python -m puzzles polyform``: tile a board of any lattice with polyforms.

The flags every tiling command shares are defined here once (``add_tiling_arguments``)
and so is what they do (``run_puzzle``); ``python -m puzzles pentomino`` uses both.
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from pathlib import Path

import dlx
from puzzles.common import PuzzleError
from puzzles.lattices import LATTICES
from puzzles.polyform import tiling


def add_tiling_arguments(parser) -> None:
    """The flags of every tiling command."""
    parser.add_argument("--one-sided", action="store_true", help="pieces may not turn over")
    parser.add_argument(
        "--no-symmetry", action="store_true", help="count every tiling, without symmetry breaking"
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
    parser.add_argument("--dlx", help="write the exact-cover problem in Knuth's format here")
    add_tiling_arguments(parser)


def run(args) -> int:
    """Count, list or draw tilings; exit status 2 for bad input."""
    puzzle = tiling.make_puzzle(args.board, args.pieces, args.one_sided, args.lattice)
    if args.dlx:
        plan = None if args.no_symmetry else tiling.plan_symmetry(
            puzzle, args.restrict, args.breaker, fallback=True
        )  # fmt: skip
        problem = tiling.build(puzzle, plan)
        note = "every tiling" if plan is None else plan.describe()
        Path(args.dlx).write_text(dlx.write(problem, f"{args.board} / {args.pieces}: {note}"))
        print(f"wrote {args.dlx} ({problem.n_options} options)", file=sys.stderr)
    return run_puzzle(args, puzzle, tiling.render, tiling.svg)


def run_puzzle(args, puzzle, render, draw) -> int:
    """What the shared flags do, for a ``tiling.Puzzle``: count (all and distinct),
    list (``--limit``, ``--out``) and draw (``--svg``)."""
    if args.limit is not None and args.limit < 1:
        raise PuzzleError("--limit must be at least 1")
    if args.workers < 0:
        raise PuzzleError("--workers must be at least 0")
    progress = not args.no_progress
    if progress:  # something on screen before the symmetry plan and the build
        n_copies = sum(p.copies for p in puzzle.pieces)
        n_places = sum(len(v) for v in puzzle.placements.values())
        print(
            f"{len(puzzle.board)} cells, {len(puzzle.pieces)} pieces ({n_copies} copies), "
            f"{n_places} placements; building the problem...",
            file=sys.stderr,
        )
    drawn = []
    if args.limit is not None or args.out is not None:
        if args.no_symmetry:
            problem = tiling.build(puzzle)
            stream = (tiling.decode(puzzle, s) for s in dlx.solutions(problem, limit=args.limit))
            what = "solutions"
        else:
            plan = tiling.plan_symmetry(puzzle, args.restrict, args.breaker, fallback=True)
            stream = tiling.distinct_tilings(puzzle, plan, limit=args.limit)
            what = "distinct solutions"
        n = 0
        with open(args.out, "w", encoding="utf-8") if args.out else nullcontext() as out:
            for found in stream:
                n += 1
                picture = render(puzzle, found)
                if out is not None:
                    out.write(picture + "\n\n")
                if args.limit is not None:
                    print(picture + "\n")
                if args.svg and len(drawn) < tiling.SVG_MAX:
                    drawn.append(found)
        stopped = args.limit is not None and n >= args.limit
        print(f"{n} {what}" + (" (stopped at --limit)" if stopped else ""))
    else:
        result = tiling.count_tilings(
            puzzle,
            symmetry=not args.no_symmetry,
            restrict=args.restrict,
            breaker=args.breaker,
            progress=progress,
            workers=None if args.workers == 0 else args.workers,
        )
        print(f"all solutions: {'?' if result.all is None else result.all}")
        print(f"distinct solutions: {'?' if result.distinct is None else result.distinct}")
        if result.symmetric:
            print(f"symmetric classes: {result.symmetric}")
        print(f"({result.how}; {result.stats})", file=sys.stderr)
        if args.svg:
            first = dlx.first(tiling.build(puzzle))
            drawn = [tiling.decode(puzzle, first)] if first is not None else []
    if args.svg:
        if not drawn:
            raise PuzzleError("no solution to draw")
        Path(args.svg).write_text(draw(puzzle, drawn), encoding="utf-8")
    return 0
