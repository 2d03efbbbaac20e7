"""Command line: ``python -m dlx FILE.dlx`` prints solutions; ``--count`` counts them."""

from __future__ import annotations

import argparse
import sys
import time

from dlx import __version__, graphcli
from dlx.api import count, solutions
from dlx.checkpoint import CheckpointError
from dlx.dlxfile import DlxFormatError, format_option, read
from dlx.engines import CHOICES, DEFAULT
from dlx.errors import ProblemError, WorkerError
from dlx.numbers import integer, real
from dlx.options import Parallel
from dlx.outputs import OutputError, Outputs, run_writing
from dlx.stopping import Interrupted, TimeLimitReached


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m dlx",
        description="Solve an exact-cover problem in Knuth's .dlx format.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("file", help="the .dlx file, or - for standard input")
    parser.add_argument("--count", action="store_true", help="print the number of solutions only")
    parser.add_argument(
        "--limit", type=integer, default=None, metavar="N", help="stop after N solutions"
    )
    parser.add_argument(
        "--node-limit", type=integer, default=None, metavar="N", help="stop after N search nodes"
    )
    parser.add_argument(
        "--time-limit", type=real, default=None, metavar="S", help="stop after S seconds"
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar on stderr (default: when stderr is a terminal)",
    )
    parser.add_argument(
        "--workers",
        type=integer,
        default=None,
        metavar="N",
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
        type=integer,
        default=None,
        metavar="N",
        help="split into subproblems of at most 1/N of the tree (default 32 per worker)",
    )
    parser.add_argument(
        "--engine",
        choices=CHOICES,
        default=DEFAULT,
        help="the kernel: auto (the default: the kernels that take the problem timed on "
        "samples of it, then the fastest runs), dlx (dancing links), bitset (fills the "
        "first empty item: for tilings), tight (branches on the item of fewest options); "
        "the summary says which ran and why",
    )
    parser.add_argument(
        "--propagate",
        choices=["domination"],
        default=None,
        help="prune the tree by item domination (same solutions, fewer nodes)",
    )
    graphcli.add_arguments(parser)
    return parser


def _parallel_settings(args, task_runner=None) -> Parallel | None:
    """The settings of a parallel search (None for a serial one)."""
    if args.workers == 1 and args.dask is None and args.tasks is None:
        if args.checkpoint is None:
            return None
    return Parallel(
        workers=args.workers,
        tasks=args.tasks,
        checkpoint=args.checkpoint,
        dask=args.dask,
        task_runner=task_runner,
    )


def main(argv=None, *, task_runner=None) -> int:
    """Run the command line; return the exit status (2 for bad input, 130 when Ctrl-C
    or SIGTERM stopped it). ``task_runner``: how a parallel search runs a task (see
    ``dlx.workers``; tests inject one)."""
    return run_writing(_main, argv, task_runner)


def _bad_arguments(args) -> str | None:
    """What is wrong with the arguments, if anything."""
    for flag, value in (
        ("--limit", args.limit),
        ("--node-limit", args.node_limit),
        ("--time-limit", args.time_limit),
        ("--workers", args.workers),
    ):
        if value is not None and value < 0:
            return f"{flag} must be >= 0, not {value}"
    if args.tasks is not None and args.tasks < 1:
        return f"--tasks must be >= 1, not {args.tasks}"
    if args.checkpoint is not None and not args.count:
        return "--checkpoint needs --count"
    try:
        Outputs({"--checkpoint": args.checkpoint}, [args.file]).check()
    except OutputError as e:
        return str(e)
    return graphcli.bad_arguments(args)


def _main(argv, task_runner) -> int:
    """The command line's body."""
    args = _parser().parse_args(argv)
    started = time.monotonic()  # the time limit counts from here, reading included
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    bad = _bad_arguments(args)
    if bad is not None:
        print(f"error: {bad}", file=sys.stderr)
        return 2
    deadline = None if args.time_limit is None else started + args.time_limit
    try:
        problem = read(args.file, deadline=deadline).with_propagation(args.propagate)
    except (DlxFormatError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except TimeLimitReached as e:
        if args.count:
            print("at least 0")
        print(f"{e} (incomplete: time limit {args.time_limit} s)", file=sys.stderr)
        return 0
    if deadline is not None:
        args.asked_time_limit = args.time_limit  # what the summary names
        args.time_limit = max(deadline - time.monotonic(), 0.0)
    if args.workers is None:
        serial = not args.count or args.node_limit is not None or args.time_limit is not None
        args.workers = 1 if serial else 0
    if graphcli.wanted(args):
        try:
            return graphcli.run(problem, args, progress)
        except ProblemError as e:
            return _error(e)
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
            parallel=parallel,
            engine=args.engine,
            **limits,
        )
    except (ImportError, ProblemError, WorkerError) as e:
        return _error(e)
    out = sys.stdout
    found = 0
    try:
        for solution in stream:
            if found:
                out.write("\n")
            for k in solution.options:
                out.write(format_option(problem, k) + "\n")
            found += 1
    except KeyboardInterrupt:
        stream.close()  # stops the workers of a parallel stream
        out.flush()
        raise Interrupted(found) from None
    except WorkerError as e:
        out.flush()
        return _error(e)
    out.flush()
    note = "" if stream.complete else _incomplete(stream.stopped_by, args)
    print(f"engine: {stream.stats.engine or args.engine}\n{stream.stats}{note}", file=sys.stderr)
    return 0


def _incomplete(stopped_by: str | None, args) -> str:
    """The summary's note on why the search stopped; a time limit as the user gave it
    (the search got what reading the file left of it)."""
    if stopped_by is not None and stopped_by.startswith("time limit"):
        stopped_by = f"time limit {args.asked_time_limit:g} s"
    return f" (incomplete: {stopped_by})"


def _error(error: Exception) -> int:
    """Say what went wrong in one line; the exit status: 1 when the workers failed, 2
    for bad input (a checkpoint that is not this problem's, a missing package)."""
    print(f"error: {error}", file=sys.stderr)
    return 1 if isinstance(error, WorkerError) else 2


def _count(problem, args, parallel: Parallel | None, progress: bool) -> int:
    """``--count``: the number on stdout, the statistics on stderr."""
    try:
        result = count(
            problem,
            limit=args.limit,
            node_limit=args.node_limit,
            time_limit=args.time_limit,
            progress=progress,
            parallel=parallel,
            engine=args.engine,
        )
    except (CheckpointError, ImportError, ProblemError, WorkerError) as e:
        return _error(e)
    print(result.solutions if result.complete else f"at least {result.solutions}")
    note = "" if result.complete else _incomplete(result.stopped_by, args)
    resumed = ""
    if args.checkpoint is not None:
        done = f"{result.resumed} of {result.tasks} subproblems"
        resumed = f"; {args.checkpoint}: {done} were done before"
    print(f"engine: {result.stats.engine}\n{result.stats}{note}{resumed}", file=sys.stderr)
    return 0
