"""Benchmark multiplicities (Knuth's MCC) against the alternatives, in one run.

1. The price of bounds for problems without them: count ``pent6x10_sym`` as it is
   (plain MRV) and with one extra item of bounds 2:2 and two options (the count is
   unchanged, but every choice then goes through DLX3's branching-degree rule).
2. Identical copies as one item with bounds k:k, against k distinct items: the
   tetrominoes twice in a 5x8 box. The distinct-copies count is the multiset count
   times the product of the copies' factorials, found by a tree that much larger.

Usage: python scripts/bench_mcc.py [--repeat N]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import dlx  # noqa: E402
from puzzles import polyomino  # noqa: E402


def timed_count(problem: dlx.Problem, repeat: int) -> tuple[dlx.Count, float]:
    """The count and the median kernel seconds over ``repeat`` runs."""
    results = [dlx.count(problem) for _ in range(repeat)]
    return results[-1], statistics.median(r.stats.seconds for r in results)


def with_dummy_bounds(problem: dlx.Problem) -> dlx.Problem:
    """The same problem plus an item of bounds 2:2 with two options (count unchanged)."""
    text = dlx.write(problem)
    lines = text.splitlines()
    lines[0] = "2|dummy " + lines[0]
    lines += ["dummy", "dummy"]
    return dlx.parse("\n".join(lines) + "\n")


def distinct_copies(puzzle: polyomino.Puzzle) -> polyomino.Puzzle:
    """The puzzle with each copy of a piece made a piece of its own."""
    pieces = []
    for p in puzzle.pieces:
        for k in range(p.copies):
            pieces.append(polyomino.Piece(f"{p.name}#{k}", p.shape, 1))
    return polyomino.make_puzzle(puzzle.board, pieces, one_sided=puzzle.one_sided)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    dlx.count(dlx.parse("a\na\n"))  # compile outside the timings

    plain = dlx.read(ROOT / "data" / "dlx" / "pent6x10_sym.dlx")
    bounded = with_dummy_bounds(plain)
    a, ta = timed_count(plain, args.repeat)
    b, tb = timed_count(bounded, args.repeat)
    assert a.solutions == b.solutions == 2339
    print(f"pent6x10_sym, median of {args.repeat}:")
    print(f"  plain MRV       {ta:7.3f} s  {a.stats.nodes:>10,} nodes")
    print(f"  DLX3 rule       {tb:7.3f} s  {b.stats.nodes:>10,} nodes  ratio {tb / ta:.2f}")

    puzzle = polyomino.make_puzzle(
        "5x8", open(ROOT / "data" / "polyomino" / "tetrominoes_twice.txt").read()
    )
    multiset, tm = timed_count(polyomino.build(puzzle), args.repeat)
    copies, tc = timed_count(polyomino.build(distinct_copies(puzzle)), args.repeat)
    factor = math.prod(math.factorial(p.copies) for p in puzzle.pieces)
    assert copies.solutions == multiset.solutions * factor
    print(f"tetrominoes twice in 5x8 (all solutions), median of {args.repeat}:")
    print(f"  bounds k:k      {tm:7.3f} s  {multiset.stats.nodes:>10,} nodes  "
          f"{multiset.solutions:,} solutions")  # fmt: skip
    print(f"  distinct copies {tc:7.3f} s  {copies.stats.nodes:>10,} nodes  "
          f"{copies.solutions:,} solutions (= x{factor})  time ratio {tc / tm:.1f}")  # fmt: skip


if __name__ == "__main__":
    t0 = time.perf_counter()
    main()
    print(f"total {time.perf_counter() - t0:.1f} s")
