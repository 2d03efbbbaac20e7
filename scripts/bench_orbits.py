"""All-tilings counts, whole tree against the orbits of one piece's placements: CPU
seconds on one core, the two interleaved in one process, medians of ``--runs``.

    python scripts/bench_orbits.py --runs 3 --cases 6x10,8x8+O
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from puzzles.polyform import tiling

CASES = {
    "6x10": ("6x10", "pentominoes", 9356),
    "8x8+O": ("8x8", "pentominoes,O", 129168),
    "3x30-one-sided": ("3x30", "one-sided-pentominoes", 184),
}


def timed(puzzle, orbits: bool) -> tuple[float, int]:
    """CPU seconds and the count of one all-tilings count on one core."""
    start = time.process_time()
    c = tiling.count_tilings(puzzle, symmetry=False, orbits=orbits)
    return time.process_time() - start, c.all


def main() -> None:
    """Print one line per case: both medians and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cases", default="6x10,8x8+O")
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()[0]:.2f}")
    for name in args.cases.split(","):
        board, pieces, expected = CASES[name]
        puzzle = tiling.make_puzzle(board, pieces)
        timed(puzzle, True)  # compiled and warm before timing
        whole, orbit = [], []
        for _ in range(args.runs):
            for orbits, times in ((False, whole), (True, orbit)):
                seconds, n = timed(puzzle, orbits)
                assert n == expected, (name, orbits, n)
                times.append(seconds)
        a, b = statistics.median(whole), statistics.median(orbit)
        print(f"{name}: {expected} tilings; whole tree {a:.3f} s, orbits {b:.3f} s: {a / b:.2f}x")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
