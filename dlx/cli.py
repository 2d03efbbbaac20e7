"""Command line: ``python -m dlx FILE.dlx`` prints solutions; ``--count`` counts them."""

from __future__ import annotations

import argparse
import sys

from dlx.dlxfile import DlxFormatError, format_option, read
from dlx.search import count, solutions


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m dlx",
        description="Solve an exact-cover problem in Knuth's .dlx format.",
    )
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
        "--workers", type=int, default=1, help="count on N processes (0: all cores)"
    )
    return parser


def main(argv=None) -> int:
    """Run the command line; return the exit status (2 for bad input)."""
    args = _parser().parse_args(argv)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    try:
        problem = read(args.file)
    except (DlxFormatError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.limit is not None and args.limit < 0:
        print("error: --limit must be >= 0", file=sys.stderr)
        return 2
    if args.count:
        workers = None if args.workers == 0 else args.workers
        result = count(
            problem,
            limit=args.limit,
            node_limit=args.node_limit,
            time_limit=args.time_limit,
            progress=progress,
            **({} if workers == 1 else {"workers": workers}),
        )
        print(result.solutions)
        stats = result.stats
        note = "" if result.complete else f" (incomplete: {result.stopped_by})"
        print(f"{stats}{note}", file=sys.stderr)
        return 0
    stream = solutions(
        problem,
        limit=args.limit,
        node_limit=args.node_limit,
        time_limit=args.time_limit,
        progress=progress,
    )
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
