"""Benchmark slitherlink: median and worst time per size class to prove the loop unique.

Each puzzle is built, then counted up to 2 solutions (so "solved" means the single loop
was found and proved unique) on one core, with a time limit per puzzle. A plain
exact-cover reference (10 queens, 724 solutions) is timed in the same run, so that
figures from machines of different speed can be compared.

    python scripts/bench_slitherlink.py                      # the shipped sample
    python scripts/bench_slitherlink.py --puzzles FILE.json --per-size 5 --time-limit 30
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dlx  # noqa: E402
from puzzles import slitherlink as sl  # noqa: E402
from puzzles.common import load_puzzlekit  # noqa: E402
from puzzles.queens import queens  # noqa: E402

DEFAULT = Path(__file__).resolve().parent.parent / "data" / "slitherlink" / "sample_puzzles.json"


def reference_seconds() -> float:
    """Median time to count 10 queens (after a warm-up)."""
    p = queens(10)
    assert dlx.count(p).solutions == 724
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        dlx.count(p)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", default=str(DEFAULT), help="puzzlekit JSON file")
    parser.add_argument("--per-size", type=int, help="at most this many puzzles per size")
    parser.add_argument("--sizes", nargs="*", help="only these size classes, e.g. 10x10")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per puzzle")
    args = parser.parse_args(argv)
    by_size: dict[str, list] = defaultdict(list)
    for entry in load_puzzlekit(args.puzzles):
        puzzle = sl.parse(entry.text)
        size = f"{puzzle.rows}x{puzzle.cols}"
        if args.sizes and size not in args.sizes:
            continue
        if args.per_size is None or len(by_size[size]) < args.per_size:
            by_size[size].append((entry.id, puzzle))
    dlx.count(sl.build(sl.parse("3.\n..\n")))  # compile before timing
    reference = reference_seconds()
    print(f"reference: 10 queens counted in {reference:.4f} s (median of 5)")
    print("seconds per puzzle: build + search (search alone), median and worst; median nodes")
    print(
        f"{'size':>7} {'n':>4} {'proved':>6} {'median':>17} {'worst':>17} {'worst id':>14}"
        f" {'nodes':>7}"
    )
    for size in sorted(by_size, key=lambda s: tuple(int(v) for v in s.split("x"))):
        times = []
        searches = []
        nodes = []
        proved = 0
        worst_id = ""
        for puzzle_id, puzzle in by_size[size]:
            t0 = time.perf_counter()
            result = dlx.count(sl.build(puzzle), limit=2, time_limit=args.time_limit)
            seconds = time.perf_counter() - t0
            if result.complete and result.solutions == 1:
                proved += 1
            elif result.complete:
                print(f"  {puzzle_id}: {result.solutions} single-loop solutions", file=sys.stderr)
            else:
                print(f"  {puzzle_id}: {result}", file=sys.stderr)
            if not times or seconds > max(times):
                worst_id = puzzle_id
            times.append(seconds)
            searches.append(result.stats.seconds)
            nodes.append(result.stats.nodes)
        median = f"{statistics.median(times):.4f} ({statistics.median(searches):.4f})"
        worst = f"{max(times):.3f} ({max(searches):.3f})"
        print(
            f"{size:>7} {len(times):>4} {proved:>6} {median:>17} {worst:>17} {worst_id:>14}"
            f" {statistics.median(nodes):>7.0f}"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
