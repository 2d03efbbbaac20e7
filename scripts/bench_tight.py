"""The tight kernel against the dancing-links kernel and Knuth's SSXCC and DLX1.

Each case is counted on one core, in CPU seconds (the machine may be shared: CPU time
is less disturbed than wall time), by ``dlx.count(engine=...)`` for each engine asked
for (the kernel compiled or loaded first, out of the timing), and, with ``--knuth
DIR``, by Knuth's ``ssxcc`` and ``dlx1`` on the same problem written as a ``.dlx``
file (their CPU time from start to exit, reading included). Runs are interleaved
(engine by engine, then Knuth's) for ``--runs`` rounds; the medians are printed with
the ratios SSXCC / tight and dlx / tight, and the load average before and after.

    python scripts/bench_tight.py --runs 3 --knuth /path/to/knuth-bin
    python scripts/bench_tight.py --cases box,queens15 --engines tight --runs 5

Cases: ``box`` (the 12 solid pentominoes in the 3x4x5 box, symmetry broken as
``python -m puzzles polyform --board 3x4x5 --pieces solid-pentominoes`` does: the
search counts 4,036, which that command reduces to 3,940 distinct); ``sticks``
(tetrasticks without H on the 5x5 square grid, 72 distinct); ``queens13`` and
``queens15`` (n queens as XCC: ranks and files primary, diagonals secondary; 73,712
and 2,279,184, OEIS A000170); ``pent6x10`` (the 12 pentominoes in 6x10, symmetry
broken: 2,339); ``bedlam`` (the Bedlam cube: 13 pieces in 4x4x4, 19,186 up to
rotation, Simon Tatham's ``bedlam.c``; ``data/polyform/SOURCES.md``).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's packages

import dlx  # noqa: E402
from puzzles import polyomino as pm  # noqa: E402
from puzzles.polyform import tiling  # noqa: E402
from puzzles.queens import queens  # noqa: E402

BEDLAM = Path(__file__).resolve().parent.parent / "data/polyform/bedlam_pieces.txt"


def polyform(board: str, pieces: str, lattice: str | None = None) -> dlx.Problem:
    """The symmetry-broken problem of ``python -m puzzles polyform`` for a board."""
    puzzle = tiling.make_puzzle(board, pieces, lattice=lattice)
    return tiling.build(puzzle, tiling.plan_symmetry(puzzle, fallback=True))


def pentominoes(board: str) -> dlx.Problem:
    """The pentomino problem of a rectangle, symmetry broken."""
    puzzle = pm.make_puzzle(board, "pentominoes")
    return pm.build(puzzle, pm.plan_symmetry(puzzle))


CASES = {
    "box": lambda: polyform("3x4x5", "solid-pentominoes"),
    "sticks": lambda: polyform("5x5", "tetrasticks,-H"),
    "queens13": lambda: queens(13),
    "queens15": lambda: queens(15),
    "pent6x10": lambda: pentominoes("6x10"),
    "bedlam": lambda: polyform("4x4x4", str(BEDLAM), "cubic"),
}
KNUTH = ("ssxcc", "dlx1")


def timed(problem: dlx.Problem, engine: str):
    """(CPU seconds, nodes, count) of one serial count by ``engine``."""
    start = time.process_time()
    result = dlx.count(problem, engine=engine)
    return time.process_time() - start, result.stats.nodes, result.solutions


def knuth_timed(program: Path, dlx_file: Path):
    """(CPU seconds from start to exit, nodes, count) of one run of Knuth's ``program``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with dlx_file.open() as given:
        done = subprocess.run([str(program)], stdin=given, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    said = re.search(r"Altogether (\d+) solutions?,.* (\d+) nodes", done.stderr)
    if done.returncode != 0 or said is None:
        raise SystemExit(f"{program}: {done.stderr.strip().splitlines()[-1:]}")
    return seconds, int(said.group(2)), int(said.group(1))


def bench_case(name: str, args, scratch: Path) -> None:
    """Time one case and print its line."""
    problem = CASES[name]()
    engines = args.engines.split(",")
    for engine in engines:
        dlx.count(problem, engine=engine, node_limit=1000)  # compile or load
    runs: dict[str, list] = {engine: [] for engine in engines}
    dlx_file = scratch / f"{name}.dlx"
    if args.knuth:
        dlx_file.write_text(dlx.write(problem))
        runs.update({program: [] for program in KNUTH})
    for _ in range(args.runs):
        for who, found in runs.items():
            if who in KNUTH:
                found.append(knuth_timed(args.knuth / who, dlx_file))
            else:
                found.append(timed(problem, who))
    counts = {r[2] for found in runs.values() for r in found}
    assert len(counts) == 1, f"{name}: the kernels disagree: {counts}"
    median = {who: statistics.median(r[0] for r in found) for who, found in runs.items()}
    parts = [f"{who} {median[who]:7.3f} s {found[0][1]:>11,} nodes" for who, found in runs.items()]
    print(f"{name:9} count {counts.pop():>9,}  " + "  ".join(parts), flush=True)
    if "tight" in median:
        ratios = [f"{who} / tight {median[who] / median['tight']:5.2f}" for who in median]
        print(f"{'':9} " + "  ".join(r for r in ratios if not r.startswith("tight")), flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated case names")
    parser.add_argument("--engines", default="tight,dlx", help="comma-separated engines")
    parser.add_argument("--knuth", type=Path, metavar="DIR", help="where ssxcc and dlx1 are")
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="bench_tight_") as scratch:
        for name in args.cases.split(","):
            bench_case(name, args, Path(scratch))
    print(f"load average after: {os.getloadavg()} ({time.strftime('%H:%M')})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
