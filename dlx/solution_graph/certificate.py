"""Certificates of counts: ``python -m dlx FILE --count --certificate CERT`` counts by
building the solution graph (``dlx.graph``) and writes it to CERT, which
``python -m dlx.certify FILE CERT`` checks without this package's code.

A certificate is text: header lines that start with ``|`` (``| count N``: the number
of solutions; ``| options K``, ``| nodes M``, ``| edges E``: the graph's size), then the
graph in the ZDD format of Knuth's DLX6 (``Graph.write_zdd``: a line
``x: (~v?lo:hi)`` per edge, option ``v`` numbered from 1 in the problem's order, the last
line ``(~0?0:r)`` naming the root). What the checker proves is said in ``dlx.certify``.

>>> import os, tempfile
>>> from dlx import parse
>>> p = parse("a b c\\na b\\nc\\na\\nb c\\n")
>>> path = os.path.join(tempfile.mkdtemp(), "cert.txt")
>>> write(p, path).count
2
>>> print(open(path).read(), end="")
| dlx certificate: the solution graph as a ZDD (Knuth's DLX6 format)
| count 2
| options 4
| nodes 4
| edges 4
2: (~2?0:1)
3: (~4?0:1)
4: (~1?0:2)
5: (~3?4:3)
6: (~0?0:5)
"""

from __future__ import annotations

from dlx.outputs import OutputError, Outputs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dlx.solution_graph.graph import Graph

HEADER = "| dlx certificate: the solution graph as a ZDD (Knuth's DLX6 format)"


def write(problem, path, *, max_nodes: int | None = None, time_limit=None, progress=False) -> Graph:
    """Build the solution graph of ``problem`` and write it to ``path`` as a certificate
    (see the module's docstring); the graph, whose ``count`` is the number of solutions.
    ``ProblemError`` (one line) when the problem is not plain exact cover or the graph
    passes ``max_nodes`` or ``time_limit`` (as for ``dlx.graph``)."""
    from dlx.solution_graph.graph import graph

    g = graph(problem, max_nodes=max_nodes, time_limit=time_limit, progress=progress)
    with open(path, "w") as out:
        out.write(f"{HEADER}\n| count {g.count}\n| options {problem.n_options}\n")
        out.write(f"| nodes {g.stats.nodes}\n| edges {g.stats.edges}\n")
        for chunk in g.zdd_lines():
            out.write(chunk)
    return g


def add_arguments(parser) -> None:
    """The flag ``--certificate FILE`` of ``python -m dlx``."""
    parser.add_argument(
        "--certificate",
        metavar="FILE",
        default=None,
        help="with --count: count by the solution graph and write it to FILE, for "
        "'python -m dlx.certify PROBLEM FILE' to check",
    )


def bad_arguments(request) -> str | None:
    """What is wrong with ``--certificate`` beside the other flags, if anything."""
    if request.certificate is None:
        return None
    if not request.count:
        return "--certificate needs --count"
    for flag, value in (
        ("--limit", request.limit),
        ("--node-limit", request.node_limit),
        ("--checkpoint", request.checkpoint),
        ("--dask", request.dask),
        ("--tasks", request.tasks),
        ("--propagate", request.propagate),
    ):
        if value is not None:
            return f"--certificate counts by the solution graph, on one process: no {flag}"
    try:
        Outputs({"--certificate": request.certificate}, [request.file]).check()
    except OutputError as e:
        return str(e)
    return None


def run(problem, request, progress: bool) -> int:
    """``--count --certificate FILE``: the count on stdout, the graph's size on stderr;
    the exit status (ProblemError goes to the caller)."""
    import sys

    g = write(
        problem,
        request.certificate,
        max_nodes=request.max_graph_nodes,
        time_limit=request.time_limit,
        progress=progress,
    )
    print(g.count)
    sys.stdout.flush()
    print(f"{g.stats}; certificate: {request.certificate}", file=sys.stderr)
    return 0
