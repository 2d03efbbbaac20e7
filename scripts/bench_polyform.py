"""Benchmark: polyform counts on three lattices, one core, and Knuth's DLX1 beside them.

For each case (the Soma cube, the 12 hexiamonds on the 6x6 rhombus, the 12 solid
pentominoes in a 3x4x5 box) prints the distinct count, the median wall seconds of
``--repeat`` full counts (``count_tilings``: pieces, placements, symmetry plan, build,
search, on one core) and of the search alone (``dlx.count`` of the restricted problem),
with nodes. With ``--dlx1 PATH`` (Knuth's DLX1, built as in the team's notes) it also
times DLX1 on the same restricted problem written with ``dlx.write`` (what
``python -m puzzles polyform --dlx FILE`` writes), in the same run.

    python scripts/bench_polyform.py --repeat 3
    python scripts/bench_polyform.py --repeat 3 --dlx1 ~/knuth-bin/dlx1
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's packages

import dlx  # noqa: E402
from puzzles.polyform import tiling  # noqa: E402

CASES = [
    ("Soma cube", "3x3x3", "soma"),
    ("hexiamonds 6x6 rhombus", "6x6", "hexiamonds"),
    ("solid pentominoes 3x4x5", "3x4x5", "solid-pentominoes"),
]


def median_seconds(run, repeat: int):
    """(median wall seconds, last result) of ``repeat`` calls."""
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def dlx1_seconds(binary: str, problem: dlx.Problem, repeat: int):
    """(median wall seconds, solutions) of Knuth's DLX1 on the problem."""
    with tempfile.NamedTemporaryFile("w", suffix=".dlx", delete=False) as f:
        f.write(dlx.write(problem))
        path = f.name

    def run():
        with open(path) as data:
            done = subprocess.run([binary], stdin=data, capture_output=True, text=True, check=True)
        found = re.search(r"Altogether (\d+) solution", done.stderr + done.stdout)
        return int(found.group(1)) if found else None

    try:
        return median_seconds(run, repeat)
    finally:
        Path(path).unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dlx1", help="path of Knuth's DLX1 binary (optional)")
    args = parser.parse_args()
    dlx.count(dlx.parse("a\na\n"))  # compile outside the timings
    print(f"{'case':26} {'distinct':>9} {'full s':>8} {'search s':>9} {'nodes':>11}", end="")
    print(f" {'DLX1 s':>8}" if args.dlx1 else "")
    for title, board, pieces in CASES:
        full, counts = median_seconds(
            lambda b=board, p=pieces: tiling.count_tilings(tiling.make_puzzle(b, p)), args.repeat
        )
        puzzle = tiling.make_puzzle(board, pieces)
        problem = tiling.build(puzzle, tiling.plan_symmetry(puzzle, fallback=True))
        search, result = median_seconds(lambda p=problem: dlx.count(p), args.repeat)
        line = (
            f"{title:26} {counts.distinct:>9,} {full:8.2f} {search:9.2f} {result.stats.nodes:>11,}"
        )
        if args.dlx1:
            seconds, solutions = dlx1_seconds(args.dlx1, problem, args.repeat)
            assert solutions == result.solutions, (solutions, result.solutions)
            line += f" {seconds:8.2f}"
        print(line)


if __name__ == "__main__":
    main()
