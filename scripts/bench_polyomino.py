"""Benchmark: tree sizes and times of polyomino symmetry-breaking choices.

Counts the distinct tilings of a board (default: 8x8 with the 12 pentominoes and the
2x2 square O) once per choice of restricted piece P and breaker Q, plus (with
``--all``) every tiling without symmetry breaking, and prints nodes, updates and the
median seconds of ``--repeat`` runs, with ratios against the first choice.

    python scripts/bench_polyomino.py --choices X:L X:F X:P O4:L --repeat 3
    python scripts/bench_polyomino.py --board 6x10 --extra "" --choices X:L
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's packages

import dlx  # noqa: E402
from puzzles import polyomino  # noqa: E402


def measure(problem: dlx.Problem, repeat: int):
    """(solutions, nodes, updates, median wall seconds, median CPU seconds) of
    ``repeat`` counts (CPU time is less disturbed by other jobs on a shared machine)."""
    wall = []
    cpu = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        c0 = time.process_time()
        result = dlx.count(problem)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - t0)
    stats = result.stats
    return (
        result.solutions,
        stats.nodes,
        stats.updates,
        statistics.median(wall),
        statistics.median(cpu),
    )


def main(argv=None) -> int:
    """Run the benchmark and print one line per choice."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="8x8")
    parser.add_argument("--pieces", default="pentominoes")
    parser.add_argument("--extra", default="O", help="extra pieces ('' for none)")
    parser.add_argument(
        "--choices", nargs="+", default=["X:L", "X:P", "X:F", "X:I"], help="P:Q pairs"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--all", action="store_true", help="also count without symmetry")
    args = parser.parse_args(argv)
    extra = [args.extra] if args.extra else []
    puzzle = polyomino.make_puzzle(args.board, args.pieces, extra)
    dlx.count(polyomino.build(polyomino.make_puzzle("3x20")))  # compile outside timings
    rows = []
    for choice in args.choices:
        restrict, _, breaker = choice.partition(":")
        plan = polyomino.plan_symmetry(puzzle, restrict, breaker or None)
        problem = polyomino.build(puzzle, plan)
        rows.append((f"{choice} ({plan.describe()})", *measure(problem, args.repeat)))
    if args.all:
        rows.append(("all, no symmetry breaking", *measure(polyomino.build(puzzle), args.repeat)))
    ref = rows[0]
    print(f"board {args.board}, pieces {args.pieces} + {extra}; median of {args.repeat}")
    for name, solutions, nodes, updates, seconds, cpu in rows:
        print(
            f"{name}: {solutions} solutions, {nodes} nodes ({nodes / ref[2]:.2f}x), "
            f"{updates} updates, {seconds:.2f} s wall ({seconds / ref[4]:.2f}x), "
            f"{cpu:.2f} s CPU ({cpu / ref[5]:.2f}x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
