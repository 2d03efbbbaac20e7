"""The tight kernel of two checkouts side by side: the same counts, alternating.

    git archive main | tar -x -C /tmp/before
    python scripts/bench_tight_choose.py /tmp/before . --rounds 5
    python scripts/bench_tight_choose.py /tmp/before . --cases bedlam aztec --rounds 3

Each round runs, in a fresh process per checkout (which goes first alternating from
round to round), warm ``dlx.count(engine="tight")`` of each case, and records its CPU
seconds (steadier than wall time on a shared machine) and nodes. Prints the medians per
checkout, their ratio (after / before) and the load average before and after. The
cases are those of ``scripts/bench_kernels.py`` (each checkout's own), and ``aztec``:
the 25 one-sided tetrasticks on the order-5 Aztec diamond
(``data/polyform/aztec_diamond5.txt``), symmetry broken as ``python -m puzzles
polyform`` does, with the options ``AZTEC_FORCED`` taken first (a proxy of the full
count, a few seconds of its tree; their count is checked equal in both checkouts); and
``9x10``, not run unless asked for: the one-sided pentominoes on 9x10, the seeded sample
of ``scripts/famous_levers.py`` (40 of the 24,586 subproblems three options down, seed
41), each counted as its own subproblem, the CPU and nodes summed. A case named
``FILE.dlx`` is that file, counted whole (Knuth's sparse sudoku, say:
``--cases /tmp/knuth-suite/sudoku_royle_less2.dlx``, written by
``scripts/knuth_suite.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ["bedlam", "3x4x5", "tetrasticks", "queens13", "queens15", "8x8+O", "xcc-colours"]
CASES += ["latin5", "aztec"]
# options of the Aztec diamond's problem (its numbering) taken first in the proxy
AZTEC_FORCED = [0, 2437]

CHILD = r"""
import json, sys, time
from pathlib import Path
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/scripts"]
import dlx, bench_kernels
from puzzles.polyform import tiling
def sample_9x10():
    import random, famous_levers
    z = tiling.make_puzzle("9x10", "one-sided-pentominoes")
    problem = tiling.build(z, tiling.plan_symmetry(z))
    tasks = famous_levers.Tree(problem, z).level(3)
    return problem, random.Random(41).sample(tasks, 40)
def aztec():
    z = tiling.make_puzzle(sys.argv[1] + "/data/polyform/aztec_diamond5.txt",
                           "one-sided-tetrasticks")
    return tiling.build(z, tiling.plan_symmetry(z, fallback=True)), json.loads(sys.argv[2])
out = {}
for name in sys.argv[3:]:
    if name == "aztec":
        problem, forced = aztec()
    elif name == "9x10":
        problem, sample = sample_9x10()
        dlx.count(problem, forced=sample[0], engine="tight", node_limit=100)  # compiled
        t0 = time.process_time()
        results = [dlx.count(problem, forced=f, engine="tight") for f in sample]
        out[name] = [time.process_time() - t0, sum(r.stats.nodes for r in results),
                     sum(r.solutions for r in results)]
        continue
    elif name.endswith(".dlx"):
        problem, forced = dlx.read(name), []
    else:
        problem, forced, _ = bench_kernels.CASES[name]().jobs[0]
    dlx.count(problem, 1, forced=forced, engine="tight", node_limit=100)  # compiled
    t0 = time.process_time()
    result = dlx.count(problem, forced=forced, engine="tight")
    out[name] = [time.process_time() - t0, result.stats.nodes, result.solutions]
print(json.dumps(out))
"""


def run_once(checkout: Path, cases: list[str]) -> dict[str, list]:
    """{case: [CPU seconds, nodes, count]} from a fresh process of ``checkout``."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    command = [sys.executable, "-c", CHILD, str(checkout), json.dumps(AZTEC_FORCED), *cases]
    out = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{checkout}: {out.stderr.strip().splitlines()[-1]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", nargs="+", default=CASES)
    args = parser.parse_args(argv)
    checkouts = [args.before.resolve(), args.after.resolve()]
    print(f"load before: {os.getloadavg()}", flush=True)
    runs: dict[int, list] = {0: [], 1: []}
    for r in range(args.rounds):
        for k in (0, 1) if r % 2 == 0 else (1, 0):
            runs[k].append(run_once(checkouts[k], args.cases))
    for name in args.cases:
        seconds = [statistics.median(run[name][0] for run in runs[k]) for k in (0, 1)]
        nodes = [runs[k][0][name][1] for k in (0, 1)]
        counts = {run[name][2] for k in (0, 1) for run in runs[k]}
        assert len(counts) == 1, f"{name}: counts differ: {counts}"
        label = Path(name).stem
        print(
            f"{label:12} before {seconds[0]:8.3f} s {nodes[0]:>11,}  after {seconds[1]:8.3f} s"
            f" {nodes[1]:>11,}  after/before {seconds[1] / seconds[0]:5.3f}",
            flush=True,
        )
    print(f"load after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
