"""Benchmark the engine against xcover on the shipped .dlx files, and time first compiles.

    python scripts/bench_engine.py                 # pentominoes (sym) + sudokus, 5 runs
    python scripts/bench_engine.py --all --runs 3  # every pent*/scott*/sudoku* file
    python scripts/bench_engine.py --compile-only  # only the first-run compile times

For each file: ``dlx.count`` time (median of the warm runs; the kernel's own seconds,
``Count.stats.seconds``), nodes per second, and xcover's time to count the same
problem in the same run (``xcover.covers``, the numba "dancing cells" solver), with
both counts checked against ``data/dlx/EXPECTED.tsv``. Then the first-run time of each
engine in a fresh subprocess with an empty ``NUMBA_CACHE_DIR`` (compile included), and
a warm run of the same command.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import dlx

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "dlx"

TINY_DLX = "a b c\na b\nc\na\nb c\n"
DLX_FIRST_RUN = "import sys, dlx; p = dlx.parse(sys.argv[1]); assert dlx.count(p).solutions == 2"
XCOVER_FIRST_RUN = (
    "from xcover import covers;"
    "assert len(list(covers([['a', 'b'], ['c'], ['a'], ['b', 'c']]))) == 2"
)


def expected_counts() -> dict[str, int]:
    """Known solution counts, by file stem."""
    lines = (DATA / "EXPECTED.tsv").read_text().split("\n")
    return {name: int(n) for name, n in (line.split() for line in lines if line.strip())}


def time_dlx(problem: dlx.Problem, runs: int) -> tuple[float, float, int, int]:
    """Median kernel seconds and CPU seconds of ``runs`` warm counts; returns
    (seconds, cpu seconds, solutions, nodes)."""
    dlx.count(problem, limit=1)  # compile or load the kernel, outside the timing
    times, cpu = [], []
    for _ in range(runs):
        c0 = time.process_time()
        result = dlx.count(problem)
        cpu.append(time.process_time() - c0)
        times.append(result.stats.seconds)
    median = statistics.median
    return median(times), median(cpu), result.solutions, result.stats.nodes


def time_xcover(problem: dlx.Problem, runs: int) -> tuple[float, float, int]:
    """Median seconds and CPU seconds for xcover to count the same problem."""
    from xcover import covers

    options = [problem.option(k) for k in range(problem.n_options)]
    colored = any(":" in entry for option in options for entry in option)
    args = dict(primary=problem.primary, secondary=problem.secondary, colored=colored)
    next(iter(covers(options[:1], primary=None)), None)  # load xcover's kernel
    times, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        n = sum(1 for _ in covers(options, **args))
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(times), statistics.median(cpu), n


def first_run(code: str, args: list[str], cache_dir: str) -> tuple[float, float]:
    """Wall and CPU seconds of ``python -c code`` in a fresh process with numba's cache
    in ``cache_dir`` (CPU time tells more than wall time on a busy machine)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    command = [sys.executable, "-W", "ignore", "-c", code, *args]
    subprocess.run(command, env=env, check=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu


def compile_times(runs: int) -> None:
    """First run with an empty numba cache, then warm runs, for dlx and xcover."""
    print("\nfirst run (empty NUMBA_CACHE_DIR, compile included), then warm; medians:")
    print(f"{'engine':8} {'first wall s':>12} {'first cpu s':>12} {'warm wall s':>12}")
    for name, code, args in (
        ("dlx", DLX_FIRST_RUN, [TINY_DLX]),
        ("xcover", XCOVER_FIRST_RUN, []),
    ):
        cold, cold_cpu, warm = [], [], []
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as cache:
                wall, cpu = first_run(code, args, cache)
                cold.append(wall)
                cold_cpu.append(cpu)
                warm.append(first_run(code, args, cache)[0])
        median = statistics.median
        print(f"{name:8} {median(cold):12.2f} {median(cold_cpu):12.2f} {median(warm):12.2f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", help="file stems in data/dlx (default: a set)")
    parser.add_argument("--all", action="store_true", help="every file in EXPECTED.tsv")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per engine and file")
    parser.add_argument("--compile-runs", type=int, default=2, help="first-run repetitions")
    parser.add_argument("--no-xcover", action="store_true", help="time dlx only")
    parser.add_argument("--compile-only", action="store_true", help="first-run times only")
    args = parser.parse_args(argv)
    expected = expected_counts()
    if args.files:
        names = args.files
    elif args.all:
        names = list(expected)
    else:
        names = [n for n in expected if n.endswith("_sym") and n.startswith("pent")]
        names += [n for n in expected if n.startswith("sudoku")]
    if not args.compile_only:
        print(f"median of {args.runs} warm runs; dlx s: kernel seconds of dlx.count;")
        print("cpu: process CPU seconds (steadier than wall time on a busy machine)")
        header = f"{'file':24} {'count':>6} {'dlx s':>8} {'dlx cpu':>8} {'M nodes/s':>10}"
        if not args.no_xcover:
            header += f" {'xcover s':>9} {'xc cpu':>8} {'ratio s':>8} {'ratio cpu':>9}"
        print(header)
        for name in names:
            problem = dlx.read(DATA / f"{name}.dlx")
            seconds, cpu, solutions, nodes = time_dlx(problem, args.runs)
            if solutions != expected[name]:
                raise SystemExit(f"{name}: dlx counted {solutions}, not {expected[name]}")
            rate = nodes / seconds / 1e6
            line = f"{name:24} {solutions:6d} {seconds:8.3f} {cpu:8.3f} {rate:10.2f}"
            if not args.no_xcover:
                x_seconds, x_cpu, x_solutions = time_xcover(problem, args.runs)
                if x_solutions != expected[name]:
                    raise SystemExit(f"{name}: xcover counted {x_solutions}")
                line += f" {x_seconds:9.3f} {x_cpu:8.3f} {seconds / x_seconds:8.2f}"
                line += f" {cpu / x_cpu:9.2f}"
            print(line, flush=True)
    compile_times(args.compile_runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
