"""``python -m dlx FILE --best K``: the K cheapest solutions of a file whose options
have costs (``|n``, as DLX5 reads them), cheapest first (``dlx.best``); with
``--workers N``, ``--tasks T``, ``--dask`` or ``--checkpoint F``, in tasks as counts are.

Each solution goes to stdout after a comment line ``| cost C``, its options as the file
writes them (with their costs); the costs in one line go to stderr, as DLX5 lists them
("The optimum costs are: $33 $35 $38"), with whether they are proven.
"""

from __future__ import annotations

import sys

from dlx.costs import best
from dlx.dlxfile import format_option
from dlx.engines import DEFAULT
from dlx.numbers import integer
from dlx.options import Parallel


def add_arguments(parser) -> None:
    """The flag of the k best."""
    parser.add_argument(
        "--best",
        type=integer,
        default=None,
        metavar="K",
        help="print the K cheapest solutions (options cost |n, as in DLX5), cheapest first",
    )


def wanted(args) -> bool:
    """Whether the flags ask for the k best."""
    return args.best is not None


def bad_arguments(args) -> str | None:
    """What is wrong with ``--best`` and the flags beside it, if anything."""
    if args.best is None:
        return None
    if args.best < 1:
        return f"--best must be >= 1, not {args.best}"
    beside = {
        "--count": args.count,
        "--limit": args.limit is not None,
        "--propagate": args.propagate is not None,
        "--engine": args.engine != DEFAULT,
        "--sample": args.sample is not None,
        "--nth": args.nth is not None,
    }
    clash = [flag for flag, given in beside.items() if given]
    if clash:
        return f"--best takes no {clash[0]}"
    return None


def run(problem, args) -> int:
    """Search, print the best solutions and the summary; the exit status (a
    ProblemError goes to the caller)."""
    parallel = None
    if args.workers not in (None, 1) or args.checkpoint or args.tasks or args.dask:
        parallel = Parallel(
            workers=1 if args.workers is None else args.workers,
            tasks=args.tasks,
            checkpoint=args.checkpoint,
            dask=args.dask,
        )
    limits = {"node_limit": args.node_limit, "time_limit": args.time_limit}
    result = best(problem, args.best, **limits, parallel=parallel)
    out = sys.stdout
    for n, (cost, solution) in enumerate(result):
        if n:
            out.write("\n")
        out.write(f"| cost {cost}\n")
        for k in solution:
            line = format_option(problem, k)
            own = problem.option_cost(k)
            out.write(f"{line} |{own}\n" if own else line + "\n")
    out.flush()
    print(summary(result, args.best), file=sys.stderr)
    return 0


def summary(result, k: int) -> str:
    """The costs found, DLX5's way, and whether they are proven.

    >>> from dlx.costs import Best
    >>> print(summary(Best(((0,), (1,), (2,)), (33, 35, 35), True, None, 9), 3))
    The optimum costs are: $33 $35 $35 (proven: the 3 cheapest solutions; 9 nodes)
    """
    dollars = " ".join(f"${c}" for c in result.costs)
    if not result.costs:
        found = "No solution" if result.proven else "No solution found"
    elif result.proven:
        found = f"The optimum {'cost is' if k == 1 else 'costs are:'} {dollars}"
    else:
        found = f"The best {'cost' if k == 1 else 'costs'} found: {dollars}"
    if result.proven:
        found_all = len(result.costs) < k
        what = f"the {k} cheapest solutions" if k > 1 else "the cheapest solution"
        if found_all:
            n = len(result.costs)
            what = {0: "the problem has none", 1: "its only solution"}.get(n, f"all {n} solutions")
        status = f"proven: {what}"
    else:
        status = f"not proven: stopped by the {result.stopped_by}"
    return f"{found} ({status}; {result.nodes} nodes)"
