"""Both kernels side by side on the pentomino counts: seconds of search, nodes, ratios.

Each case is counted on one core by the dancing-links kernel and by the bitset kernel,
interleaved (dlx, bitset, dlx, bitset, ...), after a warm-up that compiles both (or
loads them from numba's cache); the medians of ``--runs`` runs are printed, with the
ratio dlx / bitset and the load average before and after (the machine may be shared).

    python scripts/bench_bitset.py --runs 3            # 6x10, 5x12, 4x15, 3x20, 8x8+O
    python scripts/bench_bitset.py --runs 1 --all      # also 8x8+O without symmetry breaking
    python scripts/bench_bitset.py --cases 6x10 --variants
    python scripts/bench_bitset.py --runs 3 --knuth DIR   # also Knuth's DLX1 and SSXCC

``--knuth DIR``: a folder holding Knuth's ``dlx1`` and ``ssxcc``, built for instance with
``build_knuth.sh`` from a snapshot of his programs (nothing of them is in this project);
each case is written as a ``.dlx`` file and fed to both, timed in CPU seconds from start
to exit (their reading of the input included; ``knuth.py``), interleaved with the two
kernels, and their counts checked against ours.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's packages

from knuth import PROGRAMS as KNUTH  # noqa: E402  (this script's folder)
from knuth import timed as knuth_timed  # noqa: E402

import dlx  # noqa: E402
from dlx import BitMemo, BitsetSearch, count_search  # noqa: E402 (the kernel's choices)
from puzzles import polyomino as pm  # noqa: E402

CASES = {
    "6x10": ("6x10", ()),
    "5x12": ("5x12", ()),
    "4x15": ("4x15", ()),
    "3x20": ("3x20", ()),
    "8x8+O": ("8x8", ("O",)),
}

# the bitset kernel's choices measured by --variants (keywords of BitsetSearch)
VARIANTS = {
    "default": {},
    "no urgent item first": {"urgent": False},
    "no region pruning": {"prune_cap": 0},
    "regions <= 1 cell": {"prune_cap": 1},
    "regions <= 4 cells": {"prune_cap": 4},
    "regions <= 10 cells": {"prune_cap": 10},
    "memo, all levels": {"memo_levels": 1 << 30},
    "no memo": {"memo": False},
}


def problem_of(case: str, symmetry: bool) -> dlx.Problem:
    """The exact-cover problem of a case, symmetry broken or not."""
    board, extra = CASES[case]
    puzzle = pm.make_puzzle(board, "pentominoes", list(extra))
    return pm.build(puzzle, pm.plan_symmetry(puzzle) if symmetry else None)


def timed(problem, engine: str, **choices):
    """(seconds of search, nodes, count) of one serial count (``choices``: a bitset
    search made here with those keywords, ``memo=False`` for none)."""
    if choices:
        memo = BitMemo.of(problem) if choices.pop("memo", True) else None
        result = count_search(BitsetSearch(problem, memo=memo, **choices), None, False)
    else:
        result = dlx.count(problem, engine=engine)
    return result.stats.seconds, result.stats.nodes, result.solutions


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated case names")
    parser.add_argument("--all", action="store_true", help="also count 8x8+O without symmetry")
    parser.add_argument("--variants", action="store_true", help="time the bitset choices")
    parser.add_argument("--knuth", type=Path, metavar="DIR", help="where dlx1 and ssxcc are")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench_bitset_") as scratch:
        bench(args, Path(scratch))
    print(f"load average after: {os.getloadavg()} ({time.strftime('%H:%M')})")
    return 0


def bench(args, scratch: Path) -> None:
    """Time the cases of ``args`` (``.dlx`` files for Knuth's programs in ``scratch``)."""
    jobs = [(c, True) for c in args.cases.split(",")]
    if args.all:
        jobs.append(("8x8+O", False))
    print(f"load average before: {os.getloadavg()}")
    for case, symmetry in jobs:
        problem = problem_of(case, symmetry)
        name = case + ("" if symmetry else " all")
        if args.variants:
            for label, choices in VARIANTS.items():
                runs = [timed(problem, "bitset", **choices) for _ in range(args.runs)]
                seconds = statistics.median(r[0] for r in runs)
                print(f"{name:10} {label:22} {seconds:7.3f} s {runs[0][1]:>11,} nodes")
            continue
        for engine in ("dlx", "bitset"):
            dlx.count(problem, engine=engine, node_limit=1000)  # compile or load
        runs = {"dlx": [], "bitset": []}
        dlx_file = scratch / f"{name.replace(' ', '_')}.dlx"
        if args.knuth:
            dlx_file.write_text(dlx.write(problem))
            runs.update({program: [] for program in KNUTH})
        for _ in range(args.runs):
            for engine in runs:
                if engine in KNUTH:
                    runs[engine].append(knuth_timed(args.knuth / engine, dlx_file))
                else:
                    runs[engine].append(timed(problem, engine))
        counts = {r[2] for rs in runs.values() for r in rs}
        assert len(counts) == 1, f"{name}: the kernels disagree: {counts}"
        d = statistics.median(r[0] for r in runs["dlx"])
        b = statistics.median(r[0] for r in runs["bitset"])
        print(
            f"{name:10} count {counts.pop():>7}  dlx {d:7.3f} s {runs['dlx'][0][1]:>11,} nodes"
            f"  bitset {b:7.3f} s {runs['bitset'][0][1]:>11,} nodes  ratio {d / b:5.2f}",
            flush=True,
        )
        for program in KNUTH if args.knuth else ():
            k = statistics.median(r[0] for r in runs[program])
            print(
                f"{'':10} {program.upper():>5} {k:7.3f} s {runs[program][0][1]:>11,} nodes"
                f"  (CPU, start to exit)  {program.upper()} / bitset {k / b:5.2f}",
                flush=True,
            )


if __name__ == "__main__":
    raise SystemExit(main())
