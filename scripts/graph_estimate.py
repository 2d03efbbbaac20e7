"""How far the solution graph's "too large" estimate is from the true number of nodes.

    python scripts/graph_estimate.py pent6x10_all ... 16 18

Each argument is a file of data/dlx (its name without ``.dlx``) or a number n, the
domino tilings of the n x n board. For each, the graph is built once in full (its true
node count), then again with ``max_nodes`` a share of that (0.9 down to 0.01): the
estimate that ``dlx.GraphTooLarge`` states is divided by the true count. It prints the
ratios and the worst one; the estimate is ``_estimate`` in dlx/solution_graph/graph.py.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

from bench_graph import dominoes  # (scripts/ is on the path of its scripts)

import dlx

SHARES = (0.9, 0.5, 0.2, 0.1, 0.05, 0.01)
DATA = Path(__file__).resolve().parent.parent / "data" / "dlx"


def main() -> int:
    worst = (1.0, "")
    for name in sys.argv[1:]:
        label, p = (
            (f"dominoes {name}x{name}", dominoes(int(name)))
            if name.isdecimal()
            else (name, dlx.read(DATA / f"{name}.dlx"))
        )
        t0 = time.process_time()
        full = len(dlx.graph(p))
        ratios = []
        for share in SHARES:
            bound = int(full * share)
            if bound < 50:
                continue
            try:
                dlx.graph(p, max_nodes=bound)
            except dlx.GraphTooLarge as e:
                ratio = float(re.search(r"about (\S+) estimated", str(e))[1]) / full
                worst = max(worst, (max(ratio, 1 / ratio), f"{label} at {share}"))
                ratios.append(f"{share}: {ratio:.2f}")
        seconds = time.process_time() - t0
        print(f"{label}: {full} nodes ({seconds:.1f} s CPU); estimate / true at max_nodes = "
              f"share x true: {' '.join(ratios)}", flush=True)  # fmt: skip
    print(f"worst ratio {worst[0]:.2f} ({worst[1]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
