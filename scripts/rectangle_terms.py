"""Count a term of Scott R. Shannon's rectangle-tiling sequences, saying as it goes.

    python scripts/rectangle_terms.py --size 9 --rule areas --engine tight --symmetry
    python scripts/rectangle_terms.py --size 9 --rule areas --engine tight
    python scripts/rectangle_terms.py --size 9 --rule areas --symmetry --certificate a9.cert

With ``--symmetry`` the count is split by the rectangle in the top-left corner
(``puzzles.rectangles.corners``: transposed pairs once, weighted twice) and each part's
count and CPU seconds are printed as it ends, so the parts done tell how far the count
is. Without it, one ``dlx.count`` of the whole problem (``--progress``: its bar).
With ``--certificate FILE`` the count is a certificate's (``dlx.write_certificate``):
one solution graph per corner rectangle, built, written and freed in turn; with
``--symmetry`` the transposition is the certificate's symmetry (a transposed pair once,
a part and its twin). ``--problem FILE`` writes the ``.dlx`` problem that
``python -m dlx.certify`` checks it against; ``--max-graph-nodes`` bounds each part;
``--parts DIR`` writes each part to a file of its own in DIR first and keeps those
already there, ``--stop-after S`` starts no part after S seconds: a certificate built in
several runs, joined into FILE by the run that writes its last part. ``--workers N``
builds N parts at a time, each in a process of its own (the same certificate).
The last line is a TSV row for ``data/oeis/rectangles.tsv``: sequence, n, value,
engine, method, CPU seconds, wall seconds.
"""

from __future__ import annotations

import argparse
import platform
import resource
import time

import dlx
from puzzles import rectangles


def transposition(puzzle: rectangles.Puzzle) -> dict[str, str]:
    """The items' images under (r, c) -> (c, r): cells, and kinds h x w -> w x h.

    >>> transposition(rectangles.make_puzzle(2, "oriented-rectangles"))
    {'0,1': '1,0', '1,0': '0,1', '1x2': '2x1', '2x1': '1x2'}
    """
    n, rule = puzzle.height, puzzle.rule
    image = {f"{r},{c}": f"{c},{r}" for r in range(n) for c in range(n) if r != c}
    for h, w in rectangles.rectangles(puzzle):
        image[rectangles.kind(rule, h, w)] = rectangles.kind(rule, w, h)
    return {a: b for a, b in image.items() if a != b}


def _certify(args, puzzle, problem) -> tuple[int, str]:
    """The count by a certificate written to ``args.certificate``, and the method."""
    if args.problem:
        with open(args.problem, "w") as out:
            out.write(dlx.write(problem))
    done, spent = [0], [0.0]

    def said(k, twin, count, stats, seconds):
        done[0] += 1
        spent[0] += seconds
        size = "no graph" if stats is None else f"{stats.nodes} nodes, {stats.edges} edges"
        pair = "" if twin is None else f" twin {problem.option_name(twin)}"
        print(
            f"# part {done[0]} {problem.option_name(k)}{pair}: {count} ({size}; "
            f"{seconds:.1f} s CPU, the parts' {spent[0]:.1f} s so far)",
            flush=True,
        )

    symmetry = transposition(puzzle) if args.symmetry else None
    written = dlx.write_certificate(
        problem,
        args.certificate,
        split="0,0",
        symmetry=symmetry,
        on_part=said,
        max_nodes=args.max_graph_nodes,
        folder=args.parts,
        stop_after=args.stop_after,
        workers=args.workers,
    )
    print(f"# certificate {args.certificate}: {written}", flush=True)
    return written.count, "certificate" + (" (transposition twins)" if symmetry else "")


def _cpu() -> float:
    """CPU seconds of this process and of its children waited for (``--workers``)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--rule", choices=list(rectangles.RULES), required=True)
    parser.add_argument("--engine", choices=dlx.ENGINE_CHOICES, default="tight")
    parser.add_argument("--symmetry", action="store_true", help="split by the corner rectangle")
    parser.add_argument("--progress", action="store_true", help="a bar (whole counts)")
    parser.add_argument("--certificate", metavar="FILE", help="count by writing a certificate")
    parser.add_argument("--problem", metavar="FILE", help="with --certificate: the .dlx file")
    parser.add_argument("--max-graph-nodes", type=int, default=None, help="each part's bound")
    parser.add_argument("--parts", metavar="DIR", help="with --certificate: parts' files here")
    parser.add_argument("--stop-after", type=float, metavar="S", help="no new part after S wall s")
    parser.add_argument(
        "--workers", type=int, default=1, metavar="N", help="with --certificate: N parts at a time"
    )
    args = parser.parse_args()
    puzzle = rectangles.make_puzzle(args.size, args.rule)
    problem = rectangles.build(puzzle)
    print(f"# {puzzle.summary()}; {problem.n_options} options; {platform.node()}", flush=True)
    cpu, wall = _cpu(), time.monotonic()
    if args.certificate:
        total, method = _certify(args, puzzle, problem)
    elif args.symmetry:
        total = 0
        parts = rectangles.corners(puzzle)
        for done, (k, weight) in enumerate(parts, start=1):
            started = time.process_time()
            part = dlx.count(problem, forced=[k], engine=args.engine)
            total += weight * part.solutions
            print(
                f"# part {done}/{len(parts)} {problem.option_name(k)} x{weight}: "
                f"{part.solutions} ({time.process_time() - started:.1f} s CPU, "
                f"{_cpu() - cpu:.1f} s so far)",
                flush=True,
            )
        method = "corner split (transposition)"
    else:
        total = dlx.count(problem, engine=args.engine, progress=args.progress).solutions
        method = "whole"
    sequence = rectangles.RULES[args.rule][0]
    engine = "graph" if args.certificate else args.engine
    print(
        f"{sequence}\t{args.size}\t{total}\t{engine}\t{method}\t"
        f"{_cpu() - cpu:.1f}\t{time.monotonic() - wall:.1f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
