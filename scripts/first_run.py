"""First-ever runs: each command with an empty numba cache, then again with a warm one.

For each command: the wall time of its first run in a fresh ``NUMBA_CACHE_DIR`` (so
the kernel is compiled) and its CPU seconds (of all its processes: workers, a compile
in another process), how soon the first line appeared on stderr (the compile notice),
and the wall time of a second run that loads the kernel from that cache. Usage::

    python scripts/first_run.py            # the README's commands
    python scripts/first_run.py --only main
    python scripts/first_run.py --only main --cached bitset

``--cached ENGINE`` compiles that kernel into the empty cache first (a count of
``SEED_FILE`` with ``--engine ENGINE``, not timed): the first run then compiles the
others only, which shows what that kernel's compile costs the run.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = {  # the README's commands, in its order
    "main": "puzzles pentomino --board 8x8 --extra O",
    "6x10": "puzzles pentomino --board 6x10",
    "hexiamonds": "puzzles polyform --board 6x6 --pieces hexiamonds",
    "soma": "puzzles polyform --board 3x3x3 --pieces soma",
    "sudoku": "puzzles sudoku data/sudoku/top95.txt",
    "jigsaw": "puzzles sudoku data/sudoku/JigsawSudoku_puzzles.json --limit 1",
    "tectonic": "puzzles tectonic data/tectonic/Suguru_puzzles.json",
    "loop": "puzzles loop data/infinity_loop/infinity_loop_test40x40.txt --count",
    "pipes": "puzzles pipes data/pipes/example.txt --count --connected",
    "slitherlink": "puzzles slitherlink data/slitherlink/sample_puzzles.json --id 1_4x4 --unique",
    "dlx": "dlx data/dlx/pent6x10_sym.dlx --count",
    "rectangles": "puzzles rectangles --size 6 --rule oblongs",
    "scott": "puzzles pentomino --board data/polyomino/scott.txt --out {tmp}/s.txt "
    "--svg {tmp}/s.svg",
}

SEED_FILE = "data/dlx/pent3x20_sym.dlx"  # a small tiling that every kernel takes


def timed(argv: list[str], env: dict) -> tuple[float, float, float | None, int]:
    """Wall seconds of a run, its CPU seconds (user and system, with every process it
    waited for), seconds until its first byte on stderr, exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    first: list[float] = []
    proc = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )

    def watch() -> None:
        if proc.stderr.read(1):
            first.append(time.perf_counter() - t0)
        proc.stderr.read()

    reader = threading.Thread(target=watch)
    reader.start()
    status = proc.wait()
    reader.join()
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, (first[0] if first else None), status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=sorted(COMMANDS), help="these only")
    parser.add_argument("--cached", metavar="ENGINE", help="compiled into the cache first")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'command':12} {'first run':>10} {'its CPU':>9} {'1st stderr':>10} {'warm run':>9}")
    for name in args.only or COMMANDS:
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            argv = [sys.executable, "-m", *COMMANDS[name].format(tmp=tmp).split()]
            if args.cached:
                seed = ["dlx", SEED_FILE, "--count", "--limit", "1", "--engine", args.cached]
                quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
                run = subprocess.run([sys.executable, "-m", *seed], cwd=ROOT, env=env, **quiet)
                run.check_returncode()
            cold, cpu, notice, status = timed(argv, env)
            warm, _, _, _ = timed(argv, env)
        said = "-" if notice is None else f"{notice:.2f} s"
        load = os.getloadavg()[0]
        print(
            f"{name:12} {cold:8.1f} s {cpu:7.1f} s {said:>10} {warm:7.1f} s"
            f"  (exit {status}, load {load:.1f})",
            flush=True,
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
