"""Command line: ``python -m dlx FILE.dlx`` prints solutions; ``--count`` counts them.

The command line is parsed once into a frozen ``Request``; nothing writes into it (the
defaults settled once the file is read, the time left of ``--time-limit`` and the
number of workers, make a new one with ``dataclasses.replace``).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, fields, replace

from dlx import __version__, costcli
from dlx.api import count, count_started, solutions
from dlx.arguments import Parser
from dlx.compiling import compile_all
from dlx.dlxfile import DlxFormatError, format_option, read
from dlx.engines import CHOICES, DEFAULT, counted_whole
from dlx.engines import HELP as ENGINE_HELP
from dlx.errors import ProblemError, WorkerError
from dlx.numbers import integer, real
from dlx.options import Parallel
from dlx.outputs import OutputError, Outputs, run_writing
from dlx.parallel.checkpoint import CheckpointError
from dlx.preprocessing import cli as preprocli
from dlx.solution_graph import certificate
from dlx.solution_graph import cli as graphcli
from dlx.solution_graph.graph import GraphTimeLimit
from dlx.stopping import Interrupted, TimeLimitReached


@dataclass(frozen=True)
class Request:
    """One run of ``python -m dlx``, as its command line asked it (a field a flag, named
    as ``argparse`` names it). Frozen: a derived request is ``dataclasses.replace``."""

    file: str | None  # the .dlx file, "-" for standard input (None: --compile only)
    count: bool
    limit: int | None
    node_limit: int | None
    time_limit: float | None  # once the file is read: what reading left of it
    progress: bool | None  # None: a bar when standard error is a terminal
    workers: int | None  # None: every core for a plain count, else 1 (settled in ``_main``)
    checkpoint: str | None
    dask: str | None
    tasks: int | None
    engine: str
    propagate: str | None
    sample: int | None  # the solution graph's flags (``dlx.solution_graph.cli``)
    seed: int | None
    nth: int | None
    max_graph_nodes: int | None
    compile: bool = False  # --compile: compile every kernel, then stop
    asked_time_limit: float | None = None  # --time-limit as given (what the summary names)
    best: int | None = None  # --best K (``dlx.costcli``)
    certificate: str | None = None  # --certificate FILE (``dlx.solution_graph.certificate``)
    split: str | None = None  # --split ITEM (the same)
    parts: str | None = None  # --parts DIR (the same)
    stop_after: float | None = None  # --stop-after S (the same)
    branching: str = "auto"  # --branching RULE (the same)
    preprocess: bool = False  # --preprocess (``dlx.preprocessing.cli``)
    write_preprocessed: str | None = None  # --write-preprocessed OUT (the same)


def parse_request(argv) -> Request:
    """The request of the command line ``argv`` (``--help`` and errors exit, as
    argparse's)."""
    namespace = _parser().parse_args(argv)
    return Request(**vars(namespace), asked_time_limit=namespace.time_limit)


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m dlx",
        description="Solve an exact-cover problem in Knuth's .dlx format.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("file", nargs="?", help="the .dlx file, or - for standard input")
    parser.add_argument(
        "--compile",
        action="store_true",
        help="compile (or load from numba's cache) every kernel of the package and say "
        "what each did and how long it took; a later run then waits for none",
    )
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
        "without node or time limits, once a serial start of 1,000,000 nodes has not "
        "finished it nor estimated it under 2 s, else 1)",
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
        help=ENGINE_HELP,
    )
    parser.add_argument(
        "--propagate",
        choices=["domination"],
        default=None,
        help="prune the tree by item domination (same solutions, fewer nodes)",
    )
    graphcli.add_arguments(parser)
    costcli.add_arguments(parser)
    certificate.add_arguments(parser)
    preprocli.add_arguments(parser)
    return parser


def _parallel_settings(request: Request, task_runner=None) -> Parallel | None:
    """The settings of a parallel search (None for a serial one)."""
    if request.workers == 1 and request.dask is None and request.tasks is None:
        if request.checkpoint is None:
            return None
    return Parallel(
        workers=request.workers,
        tasks=request.tasks,
        checkpoint=request.checkpoint,
        dask=request.dask,
        task_runner=task_runner,
    )


def main(argv=None, *, task_runner=None) -> int:
    """Run the command line; return the exit status (2 for bad input, 130 when Ctrl-C
    or SIGTERM stopped it). ``task_runner``: how a parallel search runs a task (see
    ``dlx.parallel.workers``; tests inject one)."""
    return run_writing(_main, argv, task_runner)


def _bad_arguments(request: Request) -> str | None:
    """What is wrong with the arguments, if anything."""
    for flag, value in (
        ("--limit", request.limit),
        ("--node-limit", request.node_limit),
        ("--time-limit", request.time_limit),
        ("--workers", request.workers),
    ):
        if value is not None and value < 0:
            return f"{flag} must be >= 0, not {value}"
    if request.tasks is not None and request.tasks < 1:
        return f"--tasks must be >= 1, not {request.tasks}"
    if request.checkpoint is not None and not (request.count or costcli.wanted(request)):
        return "--checkpoint needs --count or --best"
    try:
        Outputs({"--checkpoint": request.checkpoint}, [request.file]).check()
        Outputs({"--certificate": request.certificate}).check_writable("--certificate")
    except OutputError as e:
        return str(e)
    return (
        costcli.bad_arguments(request)
        or graphcli.bad_arguments(request)
        or certificate.bad_arguments(request)
        or preprocli.bad_arguments(request)
    )


SMALL_COUNT_NODES = 1_000_000  # a default count (on every core) is tried serially up to this
# ... and goes on (the same search, for at most twice this) where that start's estimate of its
# whole count is under this many seconds: a pool's start costs about one
SMALL_COUNT_SECONDS = 2.0
IGNORED_BY_COMPILE = ("asked_time_limit", "progress")  # (a copy; --compile shows no bar)


def _beside_compile(request: Request) -> str | None:
    """The first file or flag given beside ``--compile`` (it would be ignored), or None."""
    bare = parse_request(["--compile"])
    for field in fields(request):
        value = getattr(request, field.name)
        if field.name not in IGNORED_BY_COMPILE and value != getattr(bare, field.name):
            return (
                f"the file {value}" if field.name == "file" else "--" + field.name.replace("_", "-")
            )
    return None


def _main(argv, task_runner) -> int:
    """The command line's body."""
    request = parse_request(argv)
    if request.compile:
        ignored = _beside_compile(request)
        if ignored is not None:
            print(f"error: --compile takes nothing else, not {ignored}", file=sys.stderr)
            return 2
        return _compile_all()
    if request.file is None:
        print("error: give a .dlx file (or - for standard input), or --compile", file=sys.stderr)
        return 2
    started = time.monotonic()  # the time limit counts from here, reading included
    progress = sys.stderr.isatty() if request.progress is None else request.progress
    bad = _bad_arguments(request)
    if bad is not None:
        print(f"error: {bad}", file=sys.stderr)
        return 2
    deadline = None if request.time_limit is None else started + request.time_limit
    try:
        problem = read(request.file, deadline=deadline).with_propagation(request.propagate)
    except (DlxFormatError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except TimeLimitReached as e:
        if request.count:
            print("at least 0")
        print(f"{e} (incomplete: time limit {request.time_limit} s)", file=sys.stderr)
        return 0
    original, kept = problem, range(problem.n_options)  # the options solutions print
    if preprocli.wanted(request):
        try:
            problem, kept, stop = preprocli.run(problem, request)
        except ProblemError as e:
            return _error(ProblemError(f"{request.file}: {e}"))
        except OutputError as e:
            return _error(e)
        if stop:
            return 0
    if deadline is not None:  # the search gets what reading the file left
        request = replace(request, time_limit=max(deadline - time.monotonic(), 0.0))
    small_first = False  # a count on every core by default: a small one is counted serially
    if request.workers is None and request.certificate is None:
        limited = request.node_limit is not None or request.time_limit is not None
        serial = not request.count or limited
        request = replace(request, workers=1 if serial else 0)
        small_first = not serial and request.limit is None and _plain(request)
        small_first = small_first and not counted_whole(request.engine, problem)
    if costcli.wanted(request):
        try:
            return costcli.run(problem, request)
        except (ImportError, ProblemError, ValueError, WorkerError) as e:
            return _error(e)
    if graphcli.wanted(request):
        try:
            return graphcli.run(problem, request, progress)
        except GraphTimeLimit as e:  # (it had what reading left of the limit)
            return _error(e.given(request.asked_time_limit))
        except ProblemError as e:
            return _error(e)
    if request.certificate is not None:
        try:
            return certificate.run(problem, request, progress)
        except GraphTimeLimit as e:
            return _error(e.given(request.asked_time_limit))
        except (OutputError, ProblemError) as e:
            return _error(e)
    parallel = _parallel_settings(request, task_runner)
    if request.count:
        return _count(problem, request, parallel, progress, small_first)
    if parallel is not None and (request.node_limit is not None or request.time_limit is not None):
        print("error: --node-limit and --time-limit need --count with --workers", file=sys.stderr)
        return 2
    limits = {"node_limit": request.node_limit, "time_limit": request.time_limit}
    if parallel is not None:
        limits = {}
    try:
        stream = solutions(
            problem,
            limit=request.limit,
            progress=progress,
            parallel=parallel,
            engine=request.engine,
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
                out.write(format_option(original, kept[k]) + "\n")
            found += 1
    except KeyboardInterrupt:
        stream.close()  # stops the workers of a parallel stream
        out.flush()
        raise Interrupted(found) from None
    except WorkerError as e:
        out.flush()
        return _error(e)
    out.flush()
    note = "" if stream.complete else _incomplete(stream.stopped_by, request)
    sys.stdout.flush()  # a failed write is then the one line, not after the summary
    print(f"engine: {stream.stats.engine or request.engine}\n{stream.stats}{note}", file=sys.stderr)
    return 0


def _compile_all() -> int:
    """``--compile``: every kernel compiled or loaded, a line each on stdout."""
    started = time.perf_counter()
    done = compile_all()
    for warmed in done:
        print(warmed)
    compiled = sum(w.compiled for w in done)
    print(
        f"{len(done)} kernels ready ({compiled} compiled) in {time.perf_counter() - started:.1f} s"
    )
    return 0


def _incomplete(stopped_by: str | None, request: Request) -> str:
    """The summary's note on why the search stopped; a time limit as the user gave it
    (the search got what reading the file left of it)."""
    if stopped_by is not None and stopped_by.startswith("time limit"):
        stopped_by = f"time limit {request.asked_time_limit:g} s"
    return f" (incomplete: {stopped_by})"


def _error(error: Exception) -> int:
    """Say what went wrong in one line; the exit status: 1 when the workers failed, 2
    for bad input (a checkpoint that is not this problem's, a missing package)."""
    print(f"error: {error}", file=sys.stderr)
    return 1 if isinstance(error, WorkerError) else 2


def _plain(request: Request) -> bool:
    """Whether a parallel count was asked for by nothing but the default (no checkpoint,
    Dask or number of tasks, which a serial count would ignore)."""
    return request.checkpoint is None and request.dask is None and request.tasks is None


def _small_by_estimate(start) -> bool:
    """Whether a serial start (a ``Count``) that did not finish estimates its whole
    count (Knuth's estimate of the fraction done) at under ``SMALL_COUNT_SECONDS``."""
    fraction = start.fraction
    return (
        not start.complete
        and bool(fraction)
        and start.stats.seconds < SMALL_COUNT_SECONDS * fraction
    )


def _go_on(start) -> float | None:
    """How long a serial start that estimates its count small (``_small_by_estimate``)
    goes on (twice ``SMALL_COUNT_SECONDS``, from where it stopped), or None."""
    return 2 * SMALL_COUNT_SECONDS if _small_by_estimate(start) else None


def _count(
    problem, request: Request, parallel: Parallel | None, progress: bool, small_first=False
) -> int:
    """``--count``: the number on stdout, the statistics on stderr. ``small_first``: the
    count runs on every core by default; it is tried serially first, up to
    ``SMALL_COUNT_NODES`` nodes (on, where that start estimates the whole count at
    under ``SMALL_COUNT_SECONDS``), and a count that ends there starts no worker: a pool's
    start (workers that import numba and load their kernel) costs more than the whole
    search of a small problem (queens 8: 0.15 s against 0.5 ms of search; Knuth's
    pentominoes 6x10, 2.6 M nodes: 2.6 to 2.8 s wall on all cores, 1.7 to 1.9 s on
    one, the command's start included)."""
    result = None
    try:
        if small_first:  # (a wrong estimate costs its time bound)
            result = count_started(problem, SMALL_COUNT_NODES, _go_on, engine=request.engine)
        if result is None or not result.complete:
            result = count(
                problem,
                limit=request.limit,
                node_limit=request.node_limit,
                time_limit=request.time_limit,
                progress=progress,
                parallel=parallel,
                engine=request.engine,
            )
    except (CheckpointError, ImportError, ProblemError, WorkerError) as e:
        return _error(e)
    print(result.solutions if result.complete else f"at least {result.solutions}")
    note = "" if result.complete else _incomplete(result.stopped_by, request)
    resumed = ""
    if request.checkpoint is not None:
        done = f"{result.resumed} of {result.tasks} subproblems"
        resumed = f"; {request.checkpoint}: {done} were done before"
    sys.stdout.flush()  # a failed write is then the one line, not after the summary
    print(f"engine: {result.stats.engine}\n{result.stats}{note}{resumed}", file=sys.stderr)
    return 0
