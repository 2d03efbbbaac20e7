"""Compare the solution-graph builder of checkouts: the same graphs, CPU, alternating.

    git worktree add /tmp/before main
    python scripts/bench_graph_ab.py /tmp/before . --rounds 3
    python scripts/bench_graph_ab.py /tmp/before . --cases oriented-rectangles:7 pent6x10

Each round builds, in a fresh process per checkout (the order alternating from round to
round), ``dlx.graph`` of each case (warm: the kernel compiled first) and records its
CPU seconds, nodes, edges, subproblems entered and a digest of the graph's arrays. A
case is ``RULE:N`` (``puzzles.rectangles``, the N x N board) or ``pentWxH`` (the
pentominoes, symmetry broken). Prints, per case and checkout, the median CPU seconds,
the ratio to the first checkout, the subproblems entered, and whether the graph is the
same as the first checkout's (the same nodes, edges and counts in the same order).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

CASES = ["oblongs:7", "oriented-rectangles:6", "areas:7", "pent6x10"]
CODE = r"""
import hashlib, json, sys, time
sys.path[:0] = [sys.argv[1]]
import dlx
from puzzles import rectangles
from puzzles.polyform import tiling

def case(name):
    if name.startswith("pent"):
        z = tiling.make_puzzle(name[4:], "pentominoes")
        return tiling.build(z, tiling.plan_symmetry(z))
    rule, n = name.rsplit(":", 1)
    return rectangles.build(rectangles.make_puzzle(int(n), rule))

dlx.graph(case("oblongs:4"))
out = {}
for name in sys.argv[2:]:
    problem = case(name)
    t0 = time.process_time()
    g = dlx.graph(problem)
    cpu = time.process_time() - t0
    digest = hashlib.sha256()
    for a in (g.node_edge, g.edge_child, g.edge_option, g.node_count):
        digest.update(a.tobytes())
    out[name] = [cpu, g.stats.nodes, g.stats.edges, g.stats.visited, digest.hexdigest()[:16]]
print(json.dumps(out))
"""


def run(tree: Path, cases: list[str]) -> dict:
    """One process of ``tree``: each case's [CPU s, nodes, edges, entered, digest]."""
    done = subprocess.run(
        [sys.executable, "-c", CODE, str(tree), *cases],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path, help="checkouts (the first: the base)")
    parser.add_argument("--cases", nargs="+", default=CASES)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    trees = [t.resolve() for t in args.trees]
    seen: dict[Path, list[dict]] = {t: [] for t in trees}
    for r in range(args.rounds):
        for tree in trees if r % 2 == 0 else trees[::-1]:
            seen[tree].append(run(tree, args.cases))
    for name in args.cases:
        base = statistics.median(x[name][0] for x in seen[trees[0]])
        for tree in trees:
            first = seen[tree][0][name]
            cpu = statistics.median(x[name][0] for x in seen[tree])
            same = first[4] == seen[trees[0]][0][name][4]
            print(
                f"{name:24} {str(tree):32} {cpu:8.3f} s CPU  x{cpu / base:5.2f}  "
                f"{first[1]} nodes {first[2]} edges {first[3]} entered  "
                f"{'same graph' if same else 'OTHER GRAPH'}",
                flush=True,
            )


if __name__ == "__main__":
    main()
