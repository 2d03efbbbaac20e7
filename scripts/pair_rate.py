"""Whether two processes side by side keep a lone process's rate on the 9x10 sample.

    python scripts/pair_rate.py . --rounds 3

Each round runs the seeded 9x10 sample of ``scripts/bench_tight_choose.py`` (40 of the
24,586 subproblems three options down, seed 41) in one process alone, then in two
processes at once (each its own CPU seconds, as the two workers of a parallel count
run). Prints each run's CPU seconds and ns a node, the medians, and the ratio of the
pair's median to the lone one's, with the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from bench_tight_choose import AZTEC_FORCED, CHILD


def start(checkout: Path) -> subprocess.Popen:
    """A fresh process of ``checkout`` counting the sample."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    command = [sys.executable, "-c", CHILD, str(checkout), json.dumps(AZTEC_FORCED), "9x10"]
    return subprocess.Popen(command, cwd=checkout, env=env, stdout=subprocess.PIPE, text=True)


def finish(process: subprocess.Popen) -> tuple[float, int]:
    """(CPU seconds, nodes) of a process ``start`` made."""
    out, _ = process.communicate()
    if process.returncode:
        raise SystemExit(f"the sample's process failed ({process.returncode})")
    seconds, nodes, _ = json.loads(out.strip().splitlines()[-1])["9x10"]
    return seconds, nodes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    checkout = args.checkout.resolve()
    print(f"load before: {os.getloadavg()}", flush=True)
    alone, pair = [], []
    for r in range(args.rounds):
        seconds, nodes = finish(start(checkout))
        alone.append(seconds)
        both = [finish(p) for p in [start(checkout), start(checkout)]]
        pair += [s for s, _ in both]
        shown = " ".join(f"{s:.3f} s ({1e9 * s / n:.0f} ns)" for s, n in [(seconds, nodes), *both])
        load = os.getloadavg()[0]
        print(f"round {r}: alone, then the pair: {shown}; load {load:.2f}", flush=True)
    lone, two = statistics.median(alone), statistics.median(pair)
    print(f"median alone {lone:.3f} s, side by side {two:.3f} s: pair / alone {two / lone:.3f}")
    print(f"load after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
