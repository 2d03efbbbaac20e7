"""Compare ``Graph.write_zdd`` with Knuth's DLX6 (its ``m1`` option) on .dlx files.

    python scripts/zdd_vs_dlx6.py --dlx6 PATH/TO/dlx6 data/dlx/pent6x10_sym.dlx ...

For each file: the ZDD that ``dlx.graph`` writes and the one DLX6 writes, each read back
by the same small reader (the paths from the root to the sink 1, counted bottom-up),
and the count each gives; they must agree (the two ZDDs' shapes differ: DLX6 branches on
the item with the fewest options, the graph on urgent pieces, then on the first
uncovered cell). Exit status 1 when some file disagrees.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import dlx

LINE = re.compile(r"([0-9a-f]+): \(~(\d+)\?([0-9a-f]+):([0-9a-f]+)\)")


def zdd_count(lines) -> tuple[int, int]:
    """(paths to the sink 1 from the last node, nodes) of a ZDD in DLX6's text format."""
    count = {0: 0, 1: 1}
    last = None
    for line in lines:
        m = LINE.fullmatch(line.strip())
        if m is None:
            continue
        x, lo, hi = int(m[1], 16), int(m[3], 16), int(m[4], 16)
        count[x] = count[lo] + count[hi]
        last = x
    return count[last], len(count) - 2


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dlx6", required=True, help="Knuth's DLX6 binary")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    bad = 0
    for name in args.files:
        with tempfile.TemporaryDirectory() as tmp:
            ours = Path(tmp) / "graph.zdd"
            t0 = time.perf_counter()
            g = dlx.graph(dlx.read(name))
            g.write_zdd(ours)
            ours_seconds = time.perf_counter() - t0
            t0 = time.perf_counter()
            with open(name) as stdin:
                knuth = subprocess.run(
                    [args.dlx6, "m1"], stdin=stdin, capture_output=True, text=True, check=True
                )
            knuth_seconds = time.perf_counter() - t0
            our_count, our_nodes = zdd_count(ours.read_text().splitlines())
        knuth_count, knuth_nodes = zdd_count(knuth.stdout.splitlines())
        same = our_count == knuth_count == g.count
        bad += not same
        print(
            f"{name}: graph {our_count} ({our_nodes} ZDD nodes, {ours_seconds:.2f} s), "
            f"DLX6 {knuth_count} ({knuth_nodes} ZDD nodes, {knuth_seconds:.2f} s): "
            + ("same" if same else "DIFFERENT")
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
