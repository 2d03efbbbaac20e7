"""Benchmark the solution graph (``dlx.graph``) against the bitset kernel's count.

    python scripts/bench_graph.py [--runs 3] [--cases 8x8+O,dominoes14] [--samples 10000]

For each tiling case, in one process and interleaved run by run: the bitset kernel's
full count on one core (``dlx.count(..., engine="bitset")``, serial), the graph's
build, and ``--samples`` uniform samples from it; medians of ``--runs`` runs, in wall
and CPU seconds, and the ratio graph / bitset. The dominoes case (the 14x14 board,
OEIS A004003) times the build plus 100 samples, the goal being 30 s in all. Every
count is checked against the known one. Warm: each kernel is compiled (or loaded from
numba's cache) before the clocks start.
"""

from __future__ import annotations

import argparse
import statistics
import time

import dlx
from puzzles import polyomino
from puzzles.polyform import tiling

KNOWN = {
    "8x8+O": 129_168,  # the main job, every tiling (README: 8 x 16,146)
    "6x10": 9_356,  # data/dlx/EXPECTED.tsv
    "dominoes14": 112_202_208_776_036_178_000_000,  # OEIS A004003, n = 7
}


def dominoes(n: int) -> dlx.Problem:
    """Domino tilings of the n x n board: a primary item per cell."""
    p = dlx.Problem(primary=[f"{r},{c}" for r in range(n) for c in range(n)])
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                p.add_option([f"{r},{c}", f"{r},{c + 1}"])
            if r + 1 < n:
                p.add_option([f"{r},{c}", f"{r + 1},{c}"])
    return p


def problem(case: str) -> dlx.Problem:
    """The problem of a case, every tiling (no symmetry breaking)."""
    if case == "8x8+O":
        return tiling.build(polyomino.make_puzzle("8x8", "pentominoes", ["O"]))
    if case == "6x10":
        return tiling.build(polyomino.make_puzzle("6x10"))
    if case == "dominoes14":
        return dominoes(14)
    raise SystemExit(f"unknown case {case!r} (known: {', '.join(KNOWN)})")


def _timed(work):
    """(result, wall seconds, CPU seconds) of ``work()``."""
    w0, c0 = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - w0, time.process_time() - c0


def bench(case: str, runs: int, samples: int) -> None:
    """Time one case and print its medians and ratios."""
    p = problem(case)
    small = dominoes(4)
    dlx.graph(small).sample(1, seed=0)  # compile (or load) both kernels first
    dlx.count(small, engine="bitset")
    times: dict[str, list[tuple[float, float]]] = {"bitset": [], "graph": [], "samples": []}
    for run in range(runs):
        if case != "dominoes14":
            n, wall, cpu = _timed(lambda: dlx.count(p, engine="bitset"))
            assert n == KNOWN[case], n
            times["bitset"].append((wall, cpu))
        g, wall, cpu = _timed(lambda: dlx.graph(p))
        assert g.count == KNOWN[case], g.count
        times["graph"].append((wall, cpu))
        k = 100 if case == "dominoes14" else samples
        drawn, wall, cpu = _timed(lambda: list(g.sample(k, seed=run)))  # noqa: B023
        assert len(drawn) == k
        for s in drawn[:100]:
            dlx.check(p, s.options)
        times["samples"].append((wall, cpu))
        print(
            f"  run {run + 1}: " + ", ".join(f"{w} {t[-1][0]:.2f} s" for w, t in times.items() if t)
        )
    med = {w: (statistics.median(x[0] for x in t), statistics.median(x[1] for x in t))
           for w, t in times.items() if t}  # fmt: skip
    print(f"{case}: {g.count} solutions; {g.stats}")
    for w, (wall, cpu) in med.items():
        print(f"  {w}: median {wall:.3f} s wall, {cpu:.3f} s CPU")
    if "bitset" in med:
        print(
            f"  graph / bitset: {med['graph'][0] / med['bitset'][0]:.2f}x wall, "
            f"{med['graph'][1] / med['bitset'][1]:.2f}x CPU (goal: at most 2x); "
            f"{samples} samples: {med['samples'][0]:.3f} s (goal: 0.5 s)"
        )
    else:
        total = med["graph"][0] + med["samples"][0]
        print(f"  build + 100 samples: {total:.2f} s wall (goal: 30 s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cases", default="8x8+O,dominoes14")
    parser.add_argument("--samples", type=int, default=10_000)
    args = parser.parse_args()
    for case in args.cases.split(","):
        bench(case, args.runs, args.samples)


if __name__ == "__main__":
    main()
