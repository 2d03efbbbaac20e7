"""``auto`` against its best kernel, and against ``auto`` of other checkouts (A/B).

For each case of ``scripts/bench_kernels.py`` the script times ``auto`` in every
checkout given (each checkout's own ``dlx`` and its own ``bench_kernels.py``: the same
cases, built by the code under test), and every kernel in the last checkout, with
``bench_kernels.cpu_count`` (warm, process CPU seconds, a count repeated until its
timing has run 50 ms). Each round runs one fresh process per checkout, the checkouts'
order rotated from round to round; the table gives the medians of the rounds, the
kernel ``auto`` ran in each checkout and ``auto``'s ratio to the best kernel.

    git worktree add --detach /tmp/before e02a823
    python scripts/bench_auto.py /tmp/before . --rounds 3 --only 6x10 tetrahexes
    python scripts/bench_auto.py /tmp/before . --rounds 1 --kernels tight --only bedlam
    python scripts/bench_auto.py /tmp/before . --files DIR --only queens8 motley4_4

With ``--files DIR`` the cases are Knuth's files ``DIR/NAME.dlx`` (``scripts/knuth_suite.py``
writes them), each counted as a command counts it: ``dlx.count`` of the file read
afresh (outside the timing), so that every layout is in the count's time; each round
times each engine ``--repeat`` times in turn (this thread's CPU, the median), the engines'
order rotated from one repeat to the next (a count right after another kernel's costs more
than one after its own: see docs/performance.md, "tight's fixed costs cut again").

As ``bench_kernels.py`` does, a case's problem is built once and counted again and
again, so that a kernel's layout (and ``auto``'s line-up) is built at its first count
only: that favours a kernel whose layout is dear (the bitset kernel's: 25 to 60 ms).
Every kernel that takes the problem starts a count of it first (``bench_kernels.warm``),
so its layout is kept on the problem, as there, whichever kernels are timed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ("dlx", "bitset", "tight", "mcc")


def child(root: Path, engines: list[str], cases: list[str]) -> None:
    """In one checkout: one JSON line per case and engine that takes it."""
    sys.path[:0] = [str(root), str(root / "scripts")]
    import bench_kernels

    for name in cases:
        case = bench_kernels.CASES[name]()
        takes = bench_kernels.warm(case)  # every kernel's start: its layout kept, as there
        for engine in engines:
            if engine != "auto" and engine not in takes:
                continue
            bench_kernels.cpu_count(case, engine)  # warm: every specialisation it loads
            seconds, nodes, found, ran = bench_kernels.cpu_count(case, engine)
            line = dict(case=name, engine=engine, seconds=seconds, count=found, ran=ran)
            print(json.dumps(line), flush=True)


def child_files(root: Path, engines: list[str], folder: Path, names: list[str], repeat: int):
    """In one checkout: for each file ``folder/NAME.dlx``, ``dlx.count`` of the problem
    read afresh each time (every layout and ``auto``'s choice in the time), each engine
    once in turn (the order rotated each time), ``repeat`` times, this thread's CPU
    seconds: one JSON line per file and engine that takes it, the median."""
    sys.path[:0] = [str(root)]
    import dlx

    for name in names:
        path = folder / f"{name}.dlx"
        takes = []
        for engine in engines:
            try:
                found = dlx.count(dlx.read(path), engine=engine).solutions  # warm
            except (ValueError, dlx.ProblemError):
                continue
            takes.append(engine)
        seconds: dict[str, list[float]] = {engine: [] for engine in takes}
        ran = {}
        for i in range(repeat):
            for engine in takes[i % len(takes) :] + takes[: i % len(takes)]:
                problem = dlx.read(path)
                t0 = time.thread_time()
                result = dlx.count(problem, engine=engine)
                seconds[engine].append(time.thread_time() - t0)
                assert result.solutions == found, (name, engine, result.solutions, found)
                ran[engine] = result.stats.engine.split(" ")[0]
        for engine in takes:
            s = statistics.median(seconds[engine])
            line = dict(case=name, engine=engine, seconds=s, count=found, ran=ran[engine])
            print(json.dumps(line), flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path, help="the last: the one under test")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kernels", default=",".join(KERNELS), help="timed in the last")
    parser.add_argument("--only", nargs="+", metavar="NAME", required=True)
    parser.add_argument(
        "--files",
        type=Path,
        metavar="DIR",
        help="the cases are files DIR/NAME.dlx, each count on the file read afresh",
    )
    parser.add_argument("--repeat", type=int, default=9, help="counts of a file a round")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child and args.files:
        engines = args.kernels.split(",")
        child_files(args.checkouts[0], engines, args.files, args.only, args.repeat)
        return 0
    if args.child:
        child(args.checkouts[0], args.kernels.split(","), args.only)
        return 0
    trees = [c.resolve() for c in args.checkouts]
    times: dict[tuple, list] = {}
    print(f"load average before: {os.getloadavg()} ({time.strftime('%H:%M')})")
    for r in range(args.rounds):
        for tree in trees[r % len(trees) :] + trees[: r % len(trees)]:
            engines = "auto" if tree != trees[-1] else f"{args.kernels},auto"
            command = [sys.executable, __file__, str(tree), "--child", "--kernels", engines]
            if args.files:
                command += ["--files", str(args.files.resolve()), "--repeat", str(args.repeat)]
            done = subprocess.run(
                [*command, "--only", *args.only],
                capture_output=True,
                text=True,
                env=dict(os.environ, PYTHONPATH=str(tree)),
                cwd=tree,
                check=True,
            )
            for line in done.stdout.splitlines():
                d = json.loads(line)
                times.setdefault((d["case"], str(tree), d["engine"]), []).append(d)
    print(f"load average after: {os.getloadavg()} ({time.strftime('%H:%M')})")
    for name in args.only:
        kernels = {
            e: statistics.median(d["seconds"] for d in times[(name, str(trees[-1]), e)])
            for e in args.kernels.split(",")
            if (name, str(trees[-1]), e) in times
        }
        best = min(kernels.values())
        cells = [f"{e} {s:.4g}" for e, s in kernels.items()]
        for tree in trees:
            runs = times[(name, str(tree), "auto")]
            auto = statistics.median(d["seconds"] for d in runs)
            cells.append(f"auto[{tree.name}] {auto:.4g} [{runs[-1]['ran']}] {auto / best:.2f}")
        print(f"{name}: " + "; ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
