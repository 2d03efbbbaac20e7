"""``python -m dlx FILE --sample K [--seed S]`` and ``--nth I``: solutions drawn from the
solution graph (``dlx.graph``): K uniformly random ones, or the one of rank I (from 0, in
the graph's fixed order). The graph's size and the number of solutions go to stderr.
"""

from __future__ import annotations

import sys

from dlx.dlxfile import format_option
from dlx.numbers import integer
from dlx.solution_graph.graph import graph


def add_arguments(parser) -> None:
    """The flags of the graph's modes."""
    parser.add_argument(
        "--sample",
        type=integer,
        default=None,
        metavar="K",
        help="print K solutions drawn uniformly at random (with repeats), from the solution graph",
    )
    parser.add_argument(
        "--seed",
        type=integer,
        default=None,
        metavar="S",
        help="the seed of --sample (default: random)",
    )
    parser.add_argument(
        "--nth",
        type=integer,
        default=None,
        metavar="I",
        help="print solution number I (from 0, in the solution graph's fixed order)",
    )
    parser.add_argument(
        "--max-graph-nodes",
        type=integer,
        default=None,
        metavar="N",
        help="refuse a solution graph of more than N nodes (default: as many as fit in 2 GB)",
    )


def wanted(args) -> bool:
    """Whether the flags ask for a graph's mode."""
    return args.sample is not None or args.nth is not None


def bad_arguments(args) -> str | None:
    """What is wrong with the graph's flags, if anything."""
    if args.sample is not None and args.nth is not None:
        return "--sample and --nth go one at a time"
    for flag, value in (("--sample", args.sample), ("--nth", args.nth)):
        if value is not None and value < 0:
            return f"{flag} must be >= 0, not {value}"
    if args.max_graph_nodes is not None and args.max_graph_nodes < 1:
        return f"--max-graph-nodes must be >= 1, not {args.max_graph_nodes}"
    if args.seed is not None and args.sample is None:
        return "--seed goes with --sample"
    if wanted(args) and (args.count or args.limit is not None or args.checkpoint is not None):
        return "--sample and --nth build the solution graph: no --count, --limit or --checkpoint"
    return None


def run(problem, args, progress: bool) -> int:
    """Build the graph, print the solutions asked for as they are drawn (a sample
    streams: ``| head -1`` prints at once); the exit status (ProblemError, with the
    graph's bounds, goes to the caller)."""
    g = graph(
        problem, max_nodes=args.max_graph_nodes, time_limit=args.time_limit, progress=progress
    )
    if args.nth is not None:
        if args.nth >= g.count:
            print(f"error: no solution {args.nth}: the problem has {g.count}", file=sys.stderr)
            return 2
        chosen = [g.unrank(args.nth)]
    elif args.sample and not g.count:
        print("error: the problem has no solution to sample", file=sys.stderr)
        return 1
    else:
        chosen = g.sample(args.sample, seed=args.seed)
    out = sys.stdout
    for n, solution in enumerate(chosen):
        if n:
            out.write("\n")
        for k in solution.options:
            out.write(format_option(problem, k) + "\n")
        if n < 16:
            out.flush()  # the first solutions at once, for a pipe
    out.flush()
    noun = "solution" if g.count == 1 else "solutions"
    print(f"{g.count} {noun} in all; {g.stats}", file=sys.stderr)
    return 0
