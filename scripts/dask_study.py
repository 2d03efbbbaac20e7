"""Dask at scale, simulated honestly: what a LocalCluster on one machine can measure,
and the scaling curve those measurements predict for a real cluster.

    python scripts/dask_study.py sizes FILE.dlx [--engine tight] [--tasks 512]
    python scripts/dask_study.py sizes --checkpoint CKPT --rate NODES_PER_CPU_SECOND
    python scripts/dask_study.py rate FILE.dlx [--engine tight] [--nodes 300000000]
    python scripts/dask_study.py overhead [--workers 2 4 8 16] [--tiny 2000]
    python scripts/dask_study.py bytes FILE.dlx [--workers 4]
    python scripts/dask_study.py restart FILE.dlx [--workers 4] [--repeat 3]
    python scripts/dask_study.py model (FILE.dlx | --checkpoint CKPT --rate R)
        --overhead SECONDS --latency SECONDS [--start SECONDS]

``sizes``: the task-size distribution of a real split, each task's CPU seconds
measured as it runs in this process (one worker), or each task's nodes read from a
finished checkpoint and turned into CPU seconds at ``--rate`` nodes per CPU second
(``rate`` measures it: a node-limited count on one core).

``overhead``: for each cluster size, a LocalCluster of that many worker processes
(one thread each): its start-up, each fresh worker's cost of importing dlx and loading
a kernel from numba's cache, the round trip of a task that does nothing (submit to
result, one at a time), and ``--tiny`` such tasks submitted at once: the wall time
and the CPU of this process (client and scheduler) and of the workers, per task.

``bytes``: the pickled size of what travels per task (the task, its result) and once
(the problem, scattered to each worker), and the loopback bytes during a Dask count.

``restart``: counts FILE on the cluster, then again with one worker process killed
(SIGKILL) half-way through: the count must stay right; the time lost and how soon
the nanny's new worker joins are printed.

``model``: the predicted wall time on p = 1..16 dedicated workers: the bound
T(p) >= max(s + (W + n o) / p, s + t_max, n o_s) (W the tasks' CPU seconds, n their
number, t_max the longest, o a task's cost on its worker (``--overhead``), o_s its cost
on the scheduler (``--scheduler``), s the start-up (``--start``)) and a greedy
simulation (tasks in the split's order, each to the first free worker).
CPU times are what matter on this shared machine; wall times are printed with the
load average.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import pickle
import signal
import statistics
import sys
import threading
import time
from heapq import heapify, heapreplace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's dlx, not an installed one

import dlx  # noqa: E402


def load() -> str:
    """The load averages, as printed beside each figure."""
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def quantiles(values: list[float]) -> str:
    """The distribution of ``values`` in one line."""
    ordered = sorted(values)
    n = len(ordered)

    def at(q: float) -> float:
        return ordered[min(n - 1, int(q * n))]

    total = sum(ordered)
    return (
        f"n {n}, sum {total:.2f}, mean {total / n:.4f}, median {at(0.5):.4f}, "
        f"p90 {at(0.9):.4f}, p99 {at(0.99):.4f}, max {ordered[-1]:.4f} "
        f"({ordered[-1] / total:.2%} of the sum; top 1% of tasks "
        f"{sum(ordered[-max(1, n // 100) :]) / total:.1%})"
    )


# --- task sizes -----------------------------------------------------------------------


def checkpoint_nodes(path: str) -> list[int]:
    """Each finished task's nodes from a checkpoint's lines, in the split's order."""
    nodes: dict[int, int] = {}
    with open(path) as f:
        header = json.loads(f.readline())
        for line in f:
            record = json.loads(line)
            if "task" in record:
                nodes[record["task"]] = record["nodes"]
    if len(nodes) != header["tasks"]:
        raise SystemExit(f"{path}: {len(nodes)} of {header['tasks']} tasks finished")
    return [nodes[i] for i in range(len(nodes))]


def measured_sizes(file: str, engine: str, tasks: int) -> tuple[list[float], list[int]]:
    """Each task's CPU seconds and nodes, the tasks run one by one in this process."""
    problem = dlx.read(file)
    dlx.count(problem, engine=engine, node_limit=1000)  # load the kernel first
    cpu = time.process_time()
    result = dlx.count(problem, engine=engine, parallel=dlx.Parallel(workers=1, tasks=tasks))
    cpu = time.process_time() - cpu
    results = sorted(result.details.results, key=lambda r: r.index)
    split_seconds = result.details.split.seconds
    print(f"{file}: {result.solutions} solutions, {len(results)} tasks, engine {engine}, "
          f"{cpu:.2f} s CPU in all, split {split_seconds:.3f} s; {load()}")  # fmt: skip
    return [r.cpu_seconds for r in results], [r.nodes for r in results]


def task_seconds(args) -> list[float]:
    """The tasks' CPU seconds, in the split's order, from a run or a checkpoint."""
    if args.checkpoint is not None:
        if args.rate is None:
            raise SystemExit("--checkpoint needs --rate (nodes per CPU second: see `rate`)")
        nodes = checkpoint_nodes(args.checkpoint)
        print(f"{args.checkpoint}: {len(nodes)} tasks, {sum(nodes):,} nodes, the largest "
              f"{max(nodes):,}; at {args.rate:,.0f} nodes per CPU second")  # fmt: skip
        return [n / args.rate for n in nodes]
    if args.file is None:
        raise SystemExit("give FILE.dlx or --checkpoint")
    seconds, nodes = measured_sizes(args.file, args.engine, args.tasks)
    print(f"nodes per task: {quantiles([float(n) for n in nodes])}")
    return seconds


def cmd_sizes(args) -> None:
    """Print the task-size distribution."""
    seconds = task_seconds(args)
    print(f"CPU seconds per task: {quantiles(seconds)}")


def cmd_rate(args) -> None:
    """Nodes per CPU second of one core, on the first ``--nodes`` nodes of FILE."""
    problem = dlx.read(args.file)
    dlx.count(problem, engine=args.engine, node_limit=1000)
    cpu = time.process_time()
    result = dlx.count(problem, engine=args.engine, node_limit=args.nodes)  # one core
    cpu = time.process_time() - cpu
    nodes = result.stats.nodes
    print(f"{args.file}, engine {args.engine}: {nodes:,} nodes in {cpu:.2f} s CPU: "
          f"{nodes / cpu:,.0f} nodes per CPU second; {load()}")  # fmt: skip


# --- the cluster ----------------------------------------------------------------------


def start_cluster(workers: int):
    """A LocalCluster of ``workers`` single-threaded processes, its client, and the
    seconds it took to start."""
    from dask.distributed import Client, LocalCluster

    t0 = time.perf_counter()
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.CRITICAL,
    )
    client = Client(cluster)
    client.wait_for_workers(workers)
    return cluster, client, time.perf_counter() - t0


def worker_processes(client) -> list:
    """psutil handles of the worker processes and of their nannies."""
    import psutil

    processes = []
    for pid in client.run(os.getpid).values():
        worker = psutil.Process(pid)
        processes += [worker, worker.parent()]
    return processes


def cpu_of(processes) -> float:
    """The CPU seconds (user + system) of ``processes`` so far."""
    total = 0.0
    for p in processes:
        times = p.cpu_times()
        total += times.user + times.system
    return total


def nothing(i: int) -> int:
    """A task that does nothing."""
    return i


def warm_worker() -> tuple[float, float]:
    """In a fresh worker: import dlx and count a small problem with the tight kernel
    (loaded from numba's cache); the wall and CPU seconds it took."""
    t0, c0 = time.perf_counter(), time.process_time()
    import dlx as package

    problem = package.Problem(primary=["a", "b", "c"])
    for option in (["a", "b"], ["c"], ["a"], ["b", "c"]):
        problem.add_option(option)
    package.count(problem, engine="tight")
    return time.perf_counter() - t0, time.process_time() - c0


def cmd_overhead(args) -> None:
    """The scheduler's cost per task on clusters of each size."""
    for workers in args.workers:
        cluster, client, started = start_cluster(workers)
        try:
            warm = list(client.run(warm_worker).values())
            wall = statistics.median(w for w, _ in warm)
            cpu = statistics.median(c for _, c in warm)
            print(f"{workers} workers: started in {started:.1f} s; dlx import + tight kernel "
                  f"from the cache per fresh worker: median {wall:.2f} s wall, {cpu:.2f} s "
                  f"CPU; {load()}")  # fmt: skip
            trips = []
            for i in range(args.trips):
                t0 = time.perf_counter()
                client.submit(nothing, i, pure=False).result()
                trips.append(time.perf_counter() - t0)
            print(f"  round trip of one empty task (submit to result, {args.trips} one at a "
                  f"time): median {statistics.median(trips) * 1e3:.2f} ms, "
                  f"p90 {sorted(trips)[int(0.9 * len(trips))] * 1e3:.2f} ms")  # fmt: skip
            processes = worker_processes(client)
            idle = cpu_of(processes)
            time.sleep(args.idle)
            idle = (cpu_of(processes) - idle) / args.idle  # CPU seconds a second, idle
            here, there = time.process_time(), cpu_of(processes)
            t0 = time.perf_counter()
            futures = client.map(nothing, range(args.tiny), pure=False)
            client.gather(futures)
            wall = time.perf_counter() - t0
            here, there = time.process_time() - here, cpu_of(processes) - there - idle * wall
            n = args.tiny
            print(f"  {n} empty tasks at once: {wall:.2f} s wall ({wall / n * 1e3:.2f} ms a task); "
                  f"CPU per task: client + scheduler {here / n * 1e3:.2f} ms, workers + "
                  f"nannies {there / n * 1e3:.2f} ms (their idle {idle:.3f} s a second "
                  f"taken out); {load()}", flush=True)  # fmt: skip
            del futures
        finally:
            client.close()
            cluster.close()


def cmd_bytes(args) -> None:
    """What travels per task, and the loopback bytes of a Dask count."""
    import psutil

    problem = dlx.read(args.file)
    run = dlx.count(problem, engine=args.engine, parallel=dlx.Parallel(workers=1, tasks=args.tasks))
    tasks, results = run.details.split.tasks, run.details.results
    task_bytes = [len(pickle.dumps(t, protocol=5)) for t in tasks]
    result_bytes = [len(pickle.dumps(r, protocol=5)) for r in results]
    problem_bytes = len(pickle.dumps(problem, protocol=5))
    median_task = statistics.median(task_bytes)
    print(f"{args.file}: {len(tasks)} tasks; pickled: the problem {problem_bytes:,} "
          f"bytes (scattered once to each worker); a task median {median_task:.0f} "
          f"bytes (max {max(task_bytes)}); a result median {statistics.median(result_bytes):.0f} "
          f"bytes (max {max(result_bytes)})")  # fmt: skip
    cluster, client, _ = start_cluster(args.workers)
    try:
        client.run(warm_worker)
        before = psutil.net_io_counters(pernic=True)["lo"].bytes_sent
        t0 = time.perf_counter()
        count = dlx.count(
            problem, engine=args.engine, parallel=dlx.Parallel(client=client, tasks=args.tasks)
        )
        wall = time.perf_counter() - t0
        sent = psutil.net_io_counters(pernic=True)["lo"].bytes_sent - before
        assert count.solutions == run.solutions, (count.solutions, run.solutions)
        print(f"Dask count on {args.workers} workers: {count.solutions} solutions in {wall:.2f} s; "
              f"loopback bytes during it {sent:,} ({sent / len(tasks):,.0f} a task, every "
              f"message of the machine's loopback included); {load()}")  # fmt: skip
    finally:
        client.close()
        cluster.close()


class Watcher:
    """Follows the scheduler's workers from a thread: when the killed one leaves and
    when a new one joins (seconds after ``start``)."""

    def __init__(self, scheduler, victim: str):
        self.scheduler, self.victim = scheduler, victim
        self.before = set(scheduler.workers)
        self.left = self.joined = None
        self.start = time.perf_counter()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while time.perf_counter() - self.start < 120 and self.joined is None:
            now = set(self.scheduler.workers)
            if self.left is None and self.victim not in now:
                self.left = time.perf_counter() - self.start
            if now - self.before:
                self.joined = time.perf_counter() - self.start
            time.sleep(0.01)


def killed_run(client, cluster, problem, options: dict, after: float):
    """A Dask count with one worker process killed (SIGKILL) ``after`` seconds in:
    (wall seconds, the count, the watcher)."""
    pids = client.run(os.getpid)
    victim = sorted(pids)[-1]
    watch: list[Watcher] = []

    def kill() -> None:
        watch.append(Watcher(cluster.scheduler, victim))
        os.kill(pids[victim], signal.SIGKILL)

    timer = threading.Timer(after, kill)
    t0 = time.perf_counter()
    timer.start()
    count = dlx.count(problem, **options)
    wall = time.perf_counter() - t0
    timer.cancel()
    if not watch:
        raise SystemExit(f"the count ended in {wall:.2f} s, before the kill at {after:.2f} s")
    watch[0].thread.join()
    return wall, count, watch[0]


def cmd_restart(args) -> None:
    """Counts with and without a worker killed half-way."""
    problem = dlx.read(args.file)
    cluster, client, _ = start_cluster(args.workers)
    options = {"engine": args.engine, "parallel": dlx.Parallel(client=client, tasks=args.tasks)}
    normal, lost = [], []
    try:
        client.run(warm_worker)
        for round_no in range(args.repeat):
            t0 = time.perf_counter()
            expected = dlx.count(problem, **options)
            normal.append(time.perf_counter() - t0)
            wall, count, watch = killed_run(client, cluster, problem, options, normal[-1] / 2)
            assert count.solutions == expected.solutions and count.complete, (count, expected)
            assert len(count.details.results) == len(count.details.split.tasks)
            lost.append(wall - normal[-1])
            tasks = len(count.details.split.tasks)
            print(f"round {round_no + 1}: {expected.solutions} solutions, {tasks} "
                  f"tasks; {normal[-1]:.2f} s, with a worker killed at {normal[-1] / 2:.2f} s "
                  f"{wall:.2f} s, the count right; the scheduler saw it leave after "
                  f"{watch.left:.2f} s, a new worker joined after {watch.joined:.2f} s; {load()}",
                  flush=True)  # fmt: skip
    finally:
        client.close()
        cluster.close()
    print(f"{args.workers} workers: median {statistics.median(normal):.2f} s, "
          f"time lost to the kill median {statistics.median(lost):.2f} s")  # fmt: skip


# --- the model ------------------------------------------------------------------------


def greedy(seconds: list[float], workers: int, per_task: float) -> float:
    """The makespan of the tasks in order, each to the first free worker."""
    free = [0.0] * workers
    heapify(free)
    for s in seconds:
        heapreplace(free, free[0] + s + per_task)
    return max(free)


def cmd_model(args) -> None:
    """The predicted wall time on 1..16 dedicated workers."""
    seconds = task_seconds(args)
    n, work, longest = len(seconds), sum(seconds), max(seconds)
    print(f"W = {work:.1f} CPU s in n = {n} tasks, t_max = {longest:.3f} s; per task: "
          f"worker-side {args.overhead * 1e3:.2f} ms, scheduler {args.scheduler * 1e3:.2f} ms; "
          f"start-up {args.start:.2f} s")  # fmt: skip
    print(
        "p | bound max(s + (W + n*o)/p, s + t_max, n*o_s) | greedy in split order | "
        "speedup against W (one core, no Dask) | efficiency (W / (p T))"
    )
    for p in args.workers:
        bound = max(
            args.start + (work + n * args.overhead) / p, args.start + longest, n * args.scheduler
        )
        simulated = max(args.start + greedy(seconds, p, args.overhead), n * args.scheduler)
        print(f"{p} | {bound:.2f} s | {simulated:.2f} s | {work / simulated:.2f}x | "
              f"{work / simulated / p:.0%}")  # fmt: skip


def main(argv=None) -> int:
    """Run one of the studies."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("study", choices=["sizes", "rate", "overhead", "bytes", "restart", "model"])
    parser.add_argument("file", nargs="?", help="a .dlx problem")
    parser.add_argument("--engine", default="tight")
    parser.add_argument("--tasks", type=int, default=512, help="the split's granularity")
    parser.add_argument("--checkpoint", help="a finished checkpoint: its tasks' nodes")
    parser.add_argument("--rate", type=float, help="nodes per CPU second (see `rate`)")
    parser.add_argument("--nodes", type=int, default=300_000_000, help="`rate`'s node limit")
    parser.add_argument("--workers", type=int, nargs="+", default=None)
    parser.add_argument("--trips", type=int, default=200, help="one-at-a-time round trips")
    parser.add_argument("--tiny", type=int, default=2000, help="empty tasks at once")
    parser.add_argument("--idle", type=float, default=3.0, help="seconds idle, measured")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--overhead", type=float, default=0.0, help="seconds a task, worker")
    parser.add_argument("--scheduler", type=float, default=0.0, help="seconds a task, scheduler")
    parser.add_argument("--start", type=float, default=0.0, help="a worker's start-up seconds")
    args = parser.parse_args(argv)
    defaults = {"overhead": [2, 4, 8, 16], "model": list(range(1, 17))}
    if args.workers is None:
        args.workers = defaults.get(args.study, [4])
    if args.study in ("bytes", "restart"):
        args.workers = args.workers[0]
        if args.file is None:
            parser.error(f"{args.study} needs FILE.dlx")
    print(f"{args.study}: {load()}, {os.cpu_count()} CPUs", flush=True)
    studies = {"sizes": cmd_sizes, "rate": cmd_rate, "overhead": cmd_overhead,
               "bytes": cmd_bytes, "restart": cmd_restart, "model": cmd_model}  # fmt: skip
    studies[args.study](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
