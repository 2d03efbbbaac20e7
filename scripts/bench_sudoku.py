"""Batch-solve sudoku lists and compare with two other exact-cover solvers.

    python scripts/bench_sudoku.py [--repeat 3] [--others 2000] [--tdoku LIB] [FILE ...]
    python scripts/bench_sudoku.py --before /tmp/old [--repeat 3] [FILE ...]

For each file (default: the samples shipped in data/sudoku: the first 1000 of the
17-clue list, all 375 forum-hardest, the first 500 of magictour top1465; give other
paths, e.g. the whole 17-clue list, as arguments), prints puzzles per CPU second of this
process (one core, warm: kernels loaded first), medians of ``--repeat`` runs:

- ``parse``: text to puzzles (``sudoku.parse_all``);
- ``solve_all``: forcing the givens in the shared empty-grid problem, one batch kernel
  call, decoding (``sudoku.solve_all``, limit 2: solve and prove uniqueness), on the
  dancing-links batch (the old default: with item domination; and plain) and on the
  tight kernel's batch (plain; and the default: singles taken in place), interleaved,
  every answer checked by ``sudoku.faults``, and the search nodes a puzzle of each;
  then the default at limit 1 (first solutions only, what the command asks);
- the command, ``python -m puzzles sudoku FILE`` (``puzzles.cli.main`` in this
  process: first solutions, limit 1, printed to nowhere; ``--unique`` or ``--count``
  would search on for a second), interleaved with the above; and the rate the command
  prints when run in a fresh process (what a user sees: wall clock, its kernel loaded
  from numba's cache and its reading and set-up said apart), median of ``--repeat``;
- ``dlx.batch``: the public batch call of each engine on the same forced sets, given as
  lists of options (``sudoku.forced``);
- ``exact_cover`` (C) and ``xcover`` (numba): the same puzzles, each as its reduced
  0/1 matrix (givens' items and clashing options removed), counting to 2 solutions,
  on the first ``--others`` puzzles (they are slower). Matrix building is included.

With ``--tdoku LIB`` (tdoku's ``libtdoku_static.a``, built apart: the ``fetch`` of
``t-dillon/tdoku``, then ``cmake SRC -DCMAKE_BUILD_TYPE=Release && make tdoku_static`` in
a folder outside this repository), first a table of ours against tdoku on each file in
the same run, one core, medians of ``--repeat``: the command (``puzzles.cli.main`` in
this process, CPU seconds, reading, search and printing included, the process start
not) against ``scripts/tdoku_driver.c`` (compiled here against LIB: tdoku's solver over
the file in memory, CPU seconds), first solutions (what the command prints) and
``--unique`` (limit 2: tdoku's own benchmark). Without it, that table is left out, said
so. ``--versus-only``: that table alone.

With ``--before DIR`` (another checkout, e.g. ``git archive COMMIT | tar -x -C DIR``),
only the command before and after: ``--repeat`` fresh processes of each checkout,
alternating, each printing the median CPU milliseconds of 9 runs of the command in
process (first solutions, then ``--unique``); the median process of each is given.

Ratios are against the old default (the dancing-links batch with item domination)
measured in the same run. The load average is printed before and after each file (the
machine may be shared).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's packages, not an installed copy

import dlx  # noqa: E402
from puzzles import cli, sudoku  # noqa: E402

DEFAULT = [
    ROOT / "data/sudoku/17_clue_first1000.txt",
    ROOT / "data/sudoku/forum_hardest_1106.txt",
    ROOT / "data/sudoku/top1465_first500.txt",
]


def median_time(fn, repeat: int) -> tuple[float, object]:
    """Median CPU seconds of ``repeat`` calls of ``fn`` and its last result."""
    return interleaved_times([fn], repeat)[0]


def interleaved_times(fns, repeat: int) -> list[tuple[float, object]]:
    """Median CPU seconds (this process's) and last result of each of ``fns``, run in
    turn ``repeat`` times (interleaved, so that a change of load hits all alike)."""
    times = [[] for _ in fns]
    out = [None] * len(fns)
    for _ in range(repeat):
        for k, fn in enumerate(fns):
            t0 = time.process_time()
            out[k] = fn()
            times[k].append(time.process_time() - t0)
    return [(statistics.median(t), o) for t, o in zip(times, out, strict=True)]


def command_seconds(path: Path, flags=()) -> float:
    """CPU seconds of ``python -m puzzles sudoku FILE [flags]`` run in this process
    (warm: the kernels loaded; reading, search and printing), its output thrown away."""
    t0 = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = cli.main(["sudoku", str(path), *flags])
    assert status == 0, f"the command failed on {path}"
    return time.process_time() - t0


def fresh_rate(path: Path) -> float:
    """The rate that ``python -m puzzles sudoku FILE`` prints, run in a fresh process
    (what a user sees: its kernel loaded from numba's cache, its set-up said apart)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    run = subprocess.run(
        [sys.executable, "-m", "puzzles", "sudoku", str(path)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = re.search(r"\(([\d,]+) puzzles/s", run.stderr.splitlines()[-1])
    assert found, f"no rate in the command's summary: {run.stderr!r}"
    return float(found.group(1).replace(",", ""))


def tdoku_driver(lib: Path, where: Path) -> Path:
    """``scripts/tdoku_driver.c`` compiled against tdoku's static library in ``where``."""
    out = where / "tdoku_driver"
    source = ROOT / "scripts" / "tdoku_driver.c"
    cc = os.environ.get("CC", "cc")
    command = [cc, "-O2", str(source), str(lib), "-lstdc++", "-lm", "-o", str(out)]
    subprocess.run(command, check=True)
    return out


def tdoku_rate(driver: Path, path: Path, limit: int, repeat: int, n: int) -> float:
    """tdoku's puzzles per CPU second on ``path`` (median of ``repeat`` passes of at least
    0.2 s each, the file repeated), counting to ``limit``."""
    rounds = max(1, 4000 // max(n, 1))
    run = subprocess.run(
        [str(driver), str(path), str(limit), str(rounds), str(repeat)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    rates = [int(p) / float(s) for p, _, s in (line.split() for line in run.stdout.splitlines())]
    return statistics.median(rates)


def versus_tdoku(path: Path, repeat: int, driver: Path | None) -> None:
    """Ours (the command, first solutions and ``--unique``) beside tdoku on one file."""
    n = len(sudoku.parse_all(path.read_text()))
    for flags in ([], ["--unique"]):
        command_seconds(path, flags)  # the kernels loaded
    load = os.getloadavg()[0]
    ours = [
        n / statistics.median(command_seconds(path, flags) for _ in range(repeat))
        for flags in ([], ["--unique"])
    ]
    print(f"\n{path.name}: {n} puzzles, one core, CPU seconds, medians of {repeat}")
    print(f"{'':36s} {'ours':>10s} {'tdoku':>10s} {'ours/tdoku':>10s}")
    for (name, limit), rate in zip(
        (("first solutions", 1), ("--unique (limit 2)", 2)), ours, strict=True
    ):
        if driver is None:
            print(f"{name:36s} {rate:10,.0f} {'-':>10s}")
            continue
        theirs = tdoku_rate(driver, path, limit, repeat, n)
        print(f"{name:36s} {rate:10,.0f} {theirs:10,.0f} {rate / theirs:9.2f}x")
    if driver is None:
        print("tdoku: not timed (give --tdoku path/to/libtdoku_static.a)")
    print(f"load average (1 min): {load:.2f} before, {os.getloadavg()[0]:.2f} after")


COMMAND = r"""
import contextlib, io, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from puzzles import cli
assert cli.__file__.startswith(sys.argv[1]), cli.__file__
def run():
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert cli.main(["sudoku", *sys.argv[2:]]) == 0
run()
run()
seconds = []
for _ in range(9):
    t0 = time.process_time()
    run()
    seconds.append(time.process_time() - t0)
print(1000 * statistics.median(seconds))
"""


def command_ms(tree: Path, path: Path, flags) -> float:
    """The median CPU ms of the command on ``path`` in a fresh process of checkout ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    run = subprocess.run(
        [sys.executable, "-c", COMMAND, str(tree), str(path.resolve()), *flags],
        cwd=tree, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return float(run.stdout.split()[-1])


def before_after(before: Path, path: Path, repeat: int) -> None:
    """The command of checkout ``before`` and of this one on ``path``, alternating."""
    print(f"\n{path.name}: the command, CPU ms, median process of {repeat} (9 runs each)")
    for flags in ([], ["--unique"]):
        load = os.getloadavg()[0]
        ms = {before: [], ROOT: []}
        for k in range(repeat):
            for tree in (before, ROOT) if k % 2 == 0 else (ROOT, before):
                ms[tree].append(command_ms(tree, path, flags))
        old, new = statistics.median(ms[before]), statistics.median(ms[ROOT])
        name = " ".join(flags) or "first solutions"
        print(f"{name:20s} before {old:8.2f}  after {new:8.2f}  ({old / new:.2f}x)  "
              f"load {load:.2f} to {os.getloadavg()[0]:.2f}")  # fmt: skip


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
    ways = {  # (engine, propagate, limit): the old default first, ratios against it
        "dlx batch, domination (old default)": ("dlx", "domination", 2),
        "dlx batch, plain": ("dlx", None, 2),
        "tight batch, plain": ("tight", None, 2),
        "tight batch, singles (before the sudoku kernel)": ("tight", "domination", 2),
        "sudoku kernel (default), limit 1 (the command's)": (None, sudoku.PROPAGATE, 1),
    }
    calls = [
        lambda e=e, r=r, k=k: sudoku.solve_all(puzzles, k, propagate=r, engine=e)
        for e, r, k in ways.values()
    ]
    for e, r, k in ways.values():
        sudoku.solve_all(puzzles[:2], k, propagate=r, engine=e)  # compile / load the kernels
    command_seconds(path)
    measured = interleaved_times([*calls, lambda: command_seconds(path)], repeat)
    first = measured[0][1]
    assert all(r.count == 1 for r in first), "a puzzle without exactly one solution"
    for _, found in measured[:-1]:
        assert [r.count for r in found] == [r.count for r in first]
        assert [r.values for r in found] == [r.values for r in first]
        assert all(sudoku.faults(p, r.values) == [] for p, r in zip(puzzles, found, strict=True))
    rate = n / measured[0][0]
    rows = [("parse", n / t_parse)]
    for (name, _), (seconds, found) in zip(ways.items(), measured, strict=False):
        nodes = np.array([r.nodes for r in found])
        rows.append((f"solve_all, {name}", n / seconds))
        print(f"nodes per puzzle, {name}: mean {nodes.mean():.0f}, "
              f"median {np.median(nodes):.0f}, max {nodes.max()}")  # fmt: skip
    rows.append(("python -m puzzles sudoku FILE (in process)", n / measured[-1][0]))
    fresh_rate(path)  # (numba's cache of every kernel it loads written, if it was not)
    fresh = statistics.median(fresh_rate(path) for _ in range(repeat))
    rows.append(("python -m puzzles sudoku FILE (fresh process, printed)", fresh))
    if others <= 0:
        report(rows, rate, load)
        return

    sub = puzzles[: min(others, n)]
    problem = sudoku.build(sub[0])
    forced_sets = [sudoku.forced(p) for p in sub]
    for engine, extra in (("dlx", {}), ("tight", {"domination": sudoku.BATCH_DOMINATION})):
        dlx.batch(problem, forced_sets[:2], engine=engine, **extra)
        t_batch, out = median_time(
            lambda e=engine, x=extra: dlx.batch(problem, forced_sets, engine=e, **x), repeat
        )
        assert (out.counts == 1).all()
        rows.append((f"dlx.batch, {engine} (first {len(sub)})", len(sub) / t_batch))
    t_sub, _ = median_time(lambda: sudoku.solve_all(sub), repeat)
    rows.append((f"solve_all, default (first {len(sub)})", len(sub) / t_sub))

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
    """Print the table of rates, each against ``rate`` (the old default's)."""
    print(f"{'method':52s} {'puzzles/s':>10s} {'vs old':>8s}")
    for name, value in rows:
        print(f"{name:52s} {value:10,.0f} {value / rate:7.2f}x")
    print(f"load average (1 min): {load:.2f} before, {os.getloadavg()[0]:.2f} after")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="runs per measure (median)")
    parser.add_argument(
        "--others", type=int, default=2000, help="puzzles for the others (0: leave them out)"
    )
    parser.add_argument("--tdoku", type=Path, help="tdoku's libtdoku_static.a, to time beside")
    parser.add_argument("--versus-only", action="store_true", help="only the table against tdoku")
    parser.add_argument("--before", type=Path, help="another checkout: its command against ours")
    args = parser.parse_args(argv)
    files = args.files or DEFAULT
    if args.before:
        for path in files:
            before_after(args.before.resolve(), path, args.repeat)
        return 0
    with tempfile.TemporaryDirectory() as where:
        driver = tdoku_driver(args.tdoku, Path(where)) if args.tdoku else None
        for path in files:
            versus_tdoku(path, args.repeat, driver)
    if args.versus_only:
        return 0
    for path in files:
        bench_file(path, args.repeat, args.others)
    return 0


if __name__ == "__main__":
    sys.exit(main())
