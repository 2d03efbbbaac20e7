"""Benchmark: parallel counting against the serial count, on a local pool and on Dask.

    python scripts/bench_parallel.py [FILE.dlx] [--repeat 3] [--workers 2] [--no-dask]

Each round counts FILE serially (``dlx.count``), on a process pool of ``--workers``
processes, and on a Dask ``LocalCluster`` with as many single-threaded worker
processes; it prints the median seconds of each, the speedups against the serial
count measured in the same rounds, and Dask's time relative to the pool. The machine's
load average is printed before and after, as other jobs skew the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's dlx, not an installed one

import dlx  # noqa: E402

DEFAULT = ROOT / "data" / "dlx" / "pent6x10_all.dlx"


def timed(function):
    """(seconds, result) of one call."""
    t0 = time.perf_counter()
    result = function()
    return time.perf_counter() - t0, result


def parallel_run(problem, **settings):
    """A parallel count's details (``Count.details``: the split and each task's result)."""
    return dlx.count(problem, parallel=dlx.Parallel(**settings)).details


def busiest_worker_cpu(run) -> float:
    """The CPU seconds of the worker that did the most work in a parallel run."""
    per_worker: dict[int, float] = {}
    for r in run.results:
        per_worker[r.pid] = per_worker.get(r.pid, 0.0) + r.cpu_seconds
    return max(per_worker.values())


def main() -> None:
    """Run the rounds and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tasks", type=int, default=None, help="split granularity")
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    problem = dlx.read(args.file)
    print(f"{args.file}: {problem}; load average before: {os.getloadavg()}")
    dlx.count(problem, node_limit=1000)  # compile (or load) the kernel first
    client = cluster = None
    if not args.no_dask:
        from dask.distributed import Client, LocalCluster

        cluster = LocalCluster(
            n_workers=args.workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        )
        client = Client(cluster)
    times: dict[str, list[float]] = {"serial": [], "pool": [], "dask": []}
    cpu: dict[str, list[float]] = {"serial": [], "pool": [], "busiest": []}
    expected = None
    options = {} if args.tasks is None else {"tasks": args.tasks}
    try:
        for round_no in range(args.repeat):
            cpu0 = time.process_time()
            seconds, serial = timed(lambda: dlx.count(problem))
            cpu["serial"].append(time.process_time() - cpu0)
            times["serial"].append(seconds)
            expected = serial.solutions
            seconds, run = timed(lambda: parallel_run(problem, workers=args.workers, **options))
            assert run.count.complete and run.count.solutions == expected
            times["pool"].append(seconds)
            cpu["pool"].append(sum(r.cpu_seconds for r in run.results))
            cpu["busiest"].append(run.split.seconds + busiest_worker_cpu(run))
            longest = max(r.cpu_seconds for r in run.results)
            line = (
                f"round {round_no + 1}: serial {times['serial'][-1]:.2f} s "
                f"(cpu {cpu['serial'][-1]:.2f} s), pool {seconds:.2f} s ({len(run.split.tasks)} "
                f"tasks, split {run.split.seconds:.3f} s, task cpu: longest {longest:.2f} s, "
                f"sum {cpu['pool'][-1]:.2f} s, busiest worker {cpu['busiest'][-1]:.2f} s)"
            )
            if client is not None:
                seconds, dask_run = timed(lambda: parallel_run(problem, client=client, **options))
                assert dask_run.count.complete and dask_run.count.solutions == expected
                assert sum(r.cache_misses for r in dask_run.results) == 0
                times["dask"].append(seconds)
                line += f", dask {seconds:.2f} s"
            print(line, flush=True)
    finally:
        if client is not None:
            client.close()
            cluster.close()
    print(f"{expected} solutions; load average after: {os.getloadavg()}")
    median = {k: statistics.median(v) for k, v in times.items() if v}
    print(f"median serial: {median['serial']:.2f} s")
    print(
        f"median pool ({args.workers} workers): {median['pool']:.2f} s, "
        f"speedup {median['serial'] / median['pool']:.2f}x"
    )
    serial_cpu = statistics.median(cpu["serial"])
    pool_cpu = statistics.median(cpu["pool"])
    busiest = statistics.median(cpu["busiest"])
    print(
        f"CPU time: serial {serial_cpu:.2f} s, pool tasks in all {pool_cpu:.2f} s "
        f"(x{pool_cpu / serial_cpu:.2f}), split + busiest worker {busiest:.2f} s: on idle "
        f"cores the pool would take about that, a speedup of {serial_cpu / busiest:.2f}x "
        "(an estimate, not a timing)"
    )
    if "dask" in median:
        print(
            f"median dask LocalCluster ({args.workers} processes): {median['dask']:.2f} s, "
            f"speedup {median['serial'] / median['dask']:.2f}x, "
            f"dask / pool {median['dask'] / median['pool']:.2f}"
        )


if __name__ == "__main__":
    main()
