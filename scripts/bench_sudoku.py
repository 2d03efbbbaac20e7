"""Batch-solve sudoku lists and compare with two other exact-cover solvers.

    python scripts/bench_sudoku.py [--repeat 3] [--others 2000] [FILE ...]

For each file (default: the samples shipped in data/sudoku: the first 1000 of the
17-clue list, all 375 forum-hardest, the first 500 of magictour top1465; give other
paths, e.g. the whole 17-clue list, as arguments), prints puzzles per second, medians of
``--repeat`` runs on one core:

- ``parse``: text to puzzles (``sudoku.parse_all``);
- ``solve_all``: forcing the givens in the shared empty-grid problem, one batch kernel
  call, decoding (``sudoku.solve_all``, limit 2: solve and prove uniqueness), with the
  plain search (``propagate=None``) and with item domination (the adapter's default),
  interleaved, and the search nodes a puzzle of each;
- ``dlx.batch``: the engine's public batch call on the same forced sets, given as
  lists of options (``sudoku.forced``), and the kernel's share of it (the default);
- ``exact_cover`` (C) and ``xcover`` (numba): the same puzzles, each as its reduced
  0/1 matrix (givens' items and clashing options removed), counting to 2 solutions,
  on the first ``--others`` puzzles (they are slower). Matrix building is included.

Ratios are against the plain ``solve_all`` measured in the same run. The load average is
printed before and after each file (the machine may be shared).
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's packages, not an installed copy

import dlx  # noqa: E402
from puzzles import sudoku  # noqa: E402

DEFAULT = [
    ROOT / "data/sudoku/17_clue_first1000.txt",
    ROOT / "data/sudoku/forum_hardest_1106.txt",
    ROOT / "data/sudoku/top1465_first500.txt",
]


def median_time(fn, repeat: int) -> tuple[float, object]:
    """Median seconds of ``repeat`` calls of ``fn`` and its last result."""
    times = []
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def interleaved_times(fns, repeat: int) -> list[tuple[float, object]]:
    """Median seconds and last result of each of ``fns``, run in turn ``repeat`` times
    (interleaved, so that a change of load hits all alike)."""
    times = [[] for _ in fns]
    out = [None] * len(fns)
    for _ in range(repeat):
        for k, fn in enumerate(fns):
            t0 = time.perf_counter()
            out[k] = fn()
            times[k].append(time.perf_counter() - t0)
    return [(statistics.median(t), o) for t, o in zip(times, out, strict=True)]


def option_items(problem: dlx.Problem) -> np.ndarray:
    """int[n_options, 4]: the item numbers of each option of the empty 9x9 grid."""
    index = {name: k for k, name in enumerate(problem.primary)}
    return np.array([[index[x] for x in problem.option(k)] for k in range(problem.n_options)])


def reduced_matrix(items: np.ndarray, n_items: int, givens: list[int]) -> np.ndarray:
    """The 0/1 matrix left after choosing the givens: free options by free items."""
    used = np.zeros(n_items, dtype=bool)
    used[items[givens].ravel()] = True
    keep_rows = ~used[items].any(axis=1)
    rows = items[keep_rows]
    free = np.flatnonzero(~used)
    column = np.full(n_items, -1)
    column[free] = np.arange(free.size)
    matrix = np.zeros((rows.shape[0], free.size), dtype=bool)
    matrix[np.arange(rows.shape[0])[:, None], column[rows]] = True
    return matrix


def run_exact_cover(matrices) -> list[int]:
    import exact_cover

    return [int(exact_cover.get_solution_count(m)) for m in matrices]


def run_xcover(matrices) -> list[int]:
    import xcover

    return [len(list(itertools.islice(xcover.covers_bool(m), 2))) for m in matrices]


def bench_file(path: Path, repeat: int, others: int) -> None:
    """Time every method on one file and print a table."""
    text = path.read_text()
    load = os.getloadavg()[0]
    t_parse, puzzles = median_time(lambda: sudoku.parse_all(text), repeat)
    n = len(puzzles)
    print(f"\n{path.name}: {n} puzzles, medians of {repeat} runs")
    sudoku.solve_all(puzzles[:2], propagate=None)  # compile / load the kernel
    sudoku.solve_all(puzzles[:2], propagate="domination")
    (t_solve, results), (t_dom, dom_results) = interleaved_times(
        [
            lambda: sudoku.solve_all(puzzles, propagate=None),
            lambda: sudoku.solve_all(puzzles, propagate="domination"),
        ],
        repeat,
    )
    for found in (results, dom_results):
        assert all(r.count == 1 for r in found), "a puzzle without exactly one solution"
    assert [r.values for r in results] == [r.values for r in dom_results]
    nodes = np.array([r.nodes for r in results])
    dom_nodes = np.array([r.nodes for r in dom_results])
    rate = n / t_solve
    rows = [
        ("parse", n / t_parse),
        ("solve_all, propagate=None", rate),
        ("solve_all, propagate=domination", n / t_dom),
        ("parse + solve_all, default", n / (t_parse + t_dom)),
    ]
    print(f"nodes per puzzle, plain:      mean {nodes.mean():.0f}, median {np.median(nodes):.0f}, "
          f"max {nodes.max()}")  # fmt: skip
    print(f"nodes per puzzle, domination: mean {dom_nodes.mean():.0f}, "
          f"median {np.median(dom_nodes):.0f}, max {dom_nodes.max()}")  # fmt: skip
    if others <= 0:
        report(rows, rate, load)
        return

    sub = puzzles[: min(others, n)]
    problem = sudoku.build(sub[0])
    forced_sets = [sudoku.forced(p) for p in sub]
    dlx.batch(problem, forced_sets[:2])
    t_batch, out = median_time(lambda: dlx.batch(problem, forced_sets), repeat)
    assert (out.counts == 1).all()
    t_sub, _ = median_time(lambda: sudoku.solve_all(sub), repeat)
    rows.append((f"solve_all, default (first {len(sub)})", len(sub) / t_sub))
    rows.append((f"dlx.batch (first {len(sub)})", len(sub) / t_batch))
    rows.append((f"  of which kernel (first {len(sub)})", len(sub) / out.seconds))

    items = option_items(problem)
    n_items = len(problem.primary)
    matrices = [reduced_matrix(items, n_items, f) for f in forced_sets[:2]]
    run_xcover(matrices)  # compile xcover's kernel
    make = lambda: [reduced_matrix(items, n_items, f) for f in forced_sets]  # noqa: E731
    t_ec, counts = median_time(lambda: run_exact_cover(make()), repeat)
    assert counts == [1] * len(sub)
    t_xc, counts = median_time(lambda: run_xcover(make()), repeat)
    assert counts == [1] * len(sub)
    rows.append((f"exact_cover C (first {len(sub)})", len(sub) / t_ec))
    rows.append((f"xcover numba (first {len(sub)})", len(sub) / t_xc))

    report(rows, rate, load)


def report(rows, rate: float, load: float) -> None:
    """Print the table of rates, each against ``rate`` (solve_all's)."""
    print(f"{'method':40s} {'puzzles/s':>12s} {'vs solve_all':>13s}")
    for name, value in rows:
        print(f"{name:40s} {value:12,.0f} {value / rate:12.2f}x")
    print(f"load average (1 min): {load:.2f} before, {os.getloadavg()[0]:.2f} after")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="runs per measure (median)")
    parser.add_argument(
        "--others", type=int, default=2000, help="puzzles for the others (0: leave them out)"
    )
    args = parser.parse_args(argv)
    files = args.files or DEFAULT
    for path in files:
        bench_file(path, args.repeat, args.others)
    return 0


if __name__ == "__main__":
    sys.exit(main())
