"""Count a term of Scott R. Shannon's rectangle-tiling sequences, saying as it goes.

    python scripts/rectangle_terms.py --size 9 --rule areas --engine tight --symmetry
    python scripts/rectangle_terms.py --size 9 --rule areas --engine tight

With ``--symmetry`` the count is split by the rectangle in the top-left corner
(``puzzles.rectangles.corners``: transposed pairs once, weighted twice) and each part's
count and CPU seconds are printed as it ends, so the parts done tell how far the count
is. Without it, one ``dlx.count`` of the whole problem (``--progress``: its bar).
The last line is a TSV row for ``data/oeis/rectangles.tsv``: sequence, n, value,
engine, method, CPU seconds, wall seconds.
"""

from __future__ import annotations

import argparse
import platform
import time

import dlx
from puzzles import rectangles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--rule", choices=list(rectangles.RULES), required=True)
    parser.add_argument("--engine", choices=dlx.ENGINE_CHOICES, default="tight")
    parser.add_argument("--symmetry", action="store_true", help="split by the corner rectangle")
    parser.add_argument("--progress", action="store_true", help="a bar (whole counts)")
    args = parser.parse_args()
    puzzle = rectangles.make_puzzle(args.size, args.rule)
    problem = rectangles.build(puzzle)
    print(f"# {puzzle.summary()}; {problem.n_options} options; {platform.node()}", flush=True)
    cpu, wall = time.process_time(), time.monotonic()
    if args.symmetry:
        total = 0
        parts = rectangles.corners(puzzle)
        for done, (k, weight) in enumerate(parts, start=1):
            started = time.process_time()
            part = dlx.count(problem, forced=[k], engine=args.engine)
            total += weight * part.solutions
            print(
                f"# part {done}/{len(parts)} {problem.option_name(k)} x{weight}: "
                f"{part.solutions} ({time.process_time() - started:.1f} s CPU, "
                f"{time.process_time() - cpu:.1f} s so far)",
                flush=True,
            )
        method = "corner split (transposition)"
    else:
        total = dlx.count(problem, engine=args.engine, progress=args.progress).solutions
        method = "whole"
    sequence = rectangles.RULES[args.rule][0]
    print(
        f"{sequence}\t{args.size}\t{total}\t{args.engine}\t{method}\t"
        f"{time.process_time() - cpu:.1f}\t{time.monotonic() - wall:.1f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
