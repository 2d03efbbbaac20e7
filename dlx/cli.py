"""Command line: ``python -m dlx FILE.dlx`` prints solutions; ``--count`` counts them."""

from __future__ import annotations

import argparse
import sys

from dlx import __version__
from dlx.api import count, solutions
from dlx.checkpoint import CheckpointError
from dlx.dlxfile import DlxFormatError, format_option, read
from dlx.options import Parallel


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m dlx",
        description="Solve an exact-cover problem in Knuth's .dlx format.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("file", help="the .dlx file, or - for standard input")
    parser.add_argument("--count", action="store_true", help="print the number of solutions only")
    parser.add_argument("--limit", type=int, default=None, help="stop after N solutions")
    parser.add_argument("--node-limit", type=int, default=None, help="stop after N search nodes")
    parser.add_argument("--time-limit", type=float, default=None, help="stop after S seconds")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar on stderr (default: when stderr is a terminal)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="search on N processes (0: all cores; default: all cores for --count "
        "without node or time limits, else 1)",
    )
    parser.add_argument(
        "--checkpoint",
        metavar="FILE",
        default=None,
        help="with --count: record finished subproblems in FILE; a rerun skips them",
    )
    parser.add_argument(
        "--dask",
        metavar="ADDRESS",
        default=None,
        help="search on the Dask cluster whose scheduler is at ADDRESS",
    )
    parser.add_argument(
        "--tasks",
        type=int,
        default=None,
        help="split into subproblems of at most 1/N of the tree (default 32 per worker)",
    )
    parser.add_argument(
        "--propagate",
        choices=["domination"],
        default=None,
        help="prune the tree by item domination (same solutions, fewer nodes)",
    )
    return parser


def _parallel_settings(args, task_runner=None) -> Parallel | None:
    """The settings of a parallel search (None for a serial one)."""
    if args.workers == 1 and args.dask is None and args.tasks is None:
        if args.checkpoint is None:
            return None
    return Parallel(
        tasks=args.tasks, checkpoint=args.checkpoint, dask=args.dask, task_runner=task_runner
    )


def main(argv=None, *, task_runner=None) -> int:
    """Run the command line; return the exit status (2 for bad input). ``task_runner``:
    how a parallel search runs a task (see ``dlx.workers``; tests inject one)."""
    args = _parser().parse_args(argv)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    try:
        problem = read(args.file).with_propagation(args.propagate)
    except (DlxFormatError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.limit is not None and args.limit < 0:
        print("error: --limit must be >= 0", file=sys.stderr)
        return 2
    if (args.workers is not None and args.workers < 0) or (
        args.tasks is not None and args.tasks < 1
    ):
        print("error: --workers must be >= 0 and --tasks >= 1", file=sys.stderr)
        return 2
    if args.checkpoint is not None and not args.count:
        print("error: --checkpoint needs --count", file=sys.stderr)
        return 2
    if args.workers is None:
        serial = not args.count or args.node_limit is not None or args.time_limit is not None
        args.workers = 1 if serial else 0
    parallel = _parallel_settings(args, task_runner)
    if args.count:
        return _count(problem, args, parallel, progress)
    if parallel is not None and (args.node_limit is not None or args.time_limit is not None):
        print("error: --node-limit and --time-limit need --count with --workers", file=sys.stderr)
        return 2
    limits = {} if parallel else {"node_limit": args.node_limit, "time_limit": args.time_limit}
    try:
        stream = solutions(
            problem,
            limit=args.limit,
            progress=progress,
            workers=args.workers,
            parallel=parallel,
            **limits,
        )
    except ImportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out = sys.stdout
    for n, solution in enumerate(stream):
        if n:
            out.write("\n")
        for k in solution.options:
            out.write(format_option(problem, k) + "\n")
    out.flush()
    note = "" if stream.complete else f" (incomplete: {stream.stopped_by})"
    print(f"{stream.stats}{note}", file=sys.stderr)
    return 0


def _count(problem, args, parallel: Parallel | None, progress: bool) -> int:
    """``--count``: the number on stdout, the statistics on stderr."""
    try:
        result = count(
            problem,
            limit=args.limit,
            node_limit=args.node_limit,
            time_limit=args.time_limit,
            progress=progress,
            workers=args.workers,
            parallel=parallel,
        )
    except (CheckpointError, ImportError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(result.solutions)
    note = "" if result.complete else f" (incomplete: {result.stopped_by})"
    resumed = ""
    if args.checkpoint is not None:
        done = f"{result.resumed} of {result.tasks} subproblems"
        resumed = f"; {args.checkpoint}: {done} were done before"
    print(f"{result.stats}{note}{resumed}", file=sys.stderr)
    return 0
