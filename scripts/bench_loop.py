"""Benchmark the infinity-loop adapter on the shipped puzzles (public API only).

Two ways to the same answers, measured in the same run:
- *reduced*: ``loop.plan(puzzle)`` (numpy reduction to a fixpoint, split into
  independent parts, one small exact-cover problem per part), then the search;
- *whole*: ``loop.plan(puzzle, reduce_first=False)``: one exact-cover problem for the
  whole grid (the reference).

Times run from a parsed puzzle to a checked answer (plan + build + search), medians of
``--repeat`` runs, after a warm-up that loads the compiled kernel. Every solution found
is checked with ``loop.faults``. Usage::

    python scripts/bench_loop.py [--repeat 5] [--whole-500]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from puzzles import loop

DATA = Path(__file__).resolve().parent.parent / "data" / "infinity_loop"
SOLVE = ["test50x50_1", "test50x50_2", "test100x100_1", "test100x100_2", "test500x500"]
COUNT = {"bearific5": 80640, "test40x40": 967680}


def load(name: str) -> loop.Puzzle:
    """A shipped puzzle."""
    return loop.parse((DATA / f"infinity_loop_{name}.txt").read_text(encoding="utf-8"))


def solve(puzzle: loop.Puzzle, reduce_first: bool):
    """Plan, build, search: one checked solution."""
    grid = loop.first(loop.plan(puzzle, reduce_first=reduce_first))
    if grid is None or loop.faults(puzzle, grid):
        raise AssertionError("no valid solution found")
    return grid


def timed(job, repeat: int) -> float:
    """The median wall time of ``repeat`` runs of ``job()``."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        job()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    """Run the benchmark and print one table per task."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--whole-500", action="store_true", help="also try the whole-grid model on 500x500"
    )
    args = parser.parse_args()
    loop.count(load("test10x10"))  # warm-up: load the compiled kernel

    print("first solution (plan + build + search), median seconds")
    print(f"{'puzzle':15} {'parse':>6} {'open':>6} {'parts':>6} {'reduced':>8} {'whole':>8} ratio")
    for name in SOLVE:
        t0 = time.perf_counter()
        puzzle = load(name)
        parse_s = time.perf_counter() - t0
        plan = loop.plan(puzzle)
        open_cells = sum(len(p) for p in plan.parts)
        big = puzzle.tiles.size > 100_000
        repeat = max(1, args.repeat // 2) if big else args.repeat
        reduced = timed(lambda p=puzzle: solve(p, True), repeat)
        if big and not args.whole_500:
            whole, ratio = "-", "-"
        else:
            w = timed(lambda p=puzzle: solve(p, False), 1 if big else repeat)
            whole, ratio = f"{w:8.3f}", f"{w / reduced:.1f}x"
        print(
            f"{name:15} {parse_s:6.3f} {open_cells:6d} {len(plan.parts):6d} "
            f"{reduced:8.3f} {whole:>8} {ratio}"
        )

    print("\ncount all solutions (plan + build + search), median seconds")
    print(f"{'puzzle':15} {'count':>10} {'reduced':>8} {'whole':>8} ratio")
    for name, expected in COUNT.items():
        puzzle = load(name)
        for reduce_first in (True, False):
            n = loop.count(loop.plan(puzzle, reduce_first=reduce_first)).solutions
            if n != expected:
                raise AssertionError(f"{name}: {n} solutions, expected {expected}")
        reduced = timed(lambda p=puzzle: loop.count(loop.plan(p)), args.repeat)
        whole = timed(lambda p=puzzle: loop.count(loop.plan(p, reduce_first=False)), 1)
        print(f"{name:15} {expected:10d} {reduced:8.3f} {whole:8.3f} {whole / reduced:.0f}x")


if __name__ == "__main__":
    main()
