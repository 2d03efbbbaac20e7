"""How long the last worker waits: a finished count's checkpoint, its tasks' recorded
seconds scheduled again on ``--workers`` workers.

    python scripts/split_tail.py 9x10.ckpt --workers 2

The checkpoint records each task (its number in the split, nodes and seconds). The
tasks are handed, in the split's order (heaviest first by Knuth's estimate), to
whichever worker is free first; the lines give the last worker's finish (the
*makespan*) against the ideal (the seconds over the workers), the heaviest task, and
the makespan when the tasks of each ``--group`` consecutive ones run as one (a coarser
split's tasks, roughly).
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys


def makespan(costs: list[float], workers: int) -> float:
    """The last finish when each cost in turn goes to the first free worker."""
    free = [0.0] * workers
    for cost in costs:
        heapq.heappush(free, heapq.heappop(free) + cost)
    return max(free)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--group", type=int, nargs="+", default=[16, 55])
    args = parser.parse_args(argv)
    with open(args.checkpoint) as lines:
        records = [json.loads(line) for line in lines][1:]
    in_order = [r["seconds"] for r in sorted(records, key=lambda r: r["task"])]
    total = sum(in_order)
    print(f"recorded: {len(records)} tasks, {total:.1f} s, heaviest {max(in_order):.1f} s")
    print(f"  makespan {makespan(in_order, args.workers):.1f} s, ideal {total / args.workers:.1f}")
    for size in args.group:
        costs = [sum(in_order[k : k + size]) for k in range(0, len(in_order), size)]
        print(
            f"groups of {size}: {len(costs)} tasks, heaviest {max(costs):.1f} s,"
            f" makespan {makespan(costs, args.workers):.1f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
