"""Item domination (``propagate="domination"``) against the plain search, per adapter.

    python scripts/bench_propagate.py [--repeat 3] [--puzzles 40]

For each family (tectonic, slitherlink, jigsaw sudoku, 16x16 sudoku: the first
``--puzzles`` of the shipped puzzlekit files, each counted to 2 = solved and proved
unique; pentomino boards on the dlx engine: every tiling, symmetry broken), prints
the search nodes and the seconds with and without the rule (medians of ``--repeat``
runs, the two interleaved, on one core) and their ratio. The nine-by-nine lists are
in ``bench_sudoku.py``. The load average is printed: the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's packages, not an installed copy

import dlx  # noqa: E402
from puzzles import polyomino, slitherlink, sudoku, tectonic  # noqa: E402

DATA = ROOT / "data"


def families(n: int) -> dict[str, list[tuple[dlx.Problem, list, int | None]]]:
    """name: (problem, forced options, limit) for each search of the family."""
    out = {}
    suguru = tectonic.parse_all((DATA / "tectonic" / "Suguru_puzzles.json").read_text())[:n]
    out["tectonic"] = [(tectonic.build(t), [], 2) for t in suguru]
    loops = slitherlink.parse_all((DATA / "slitherlink" / "sample_puzzles.json").read_text())[:n]
    out["slitherlink"] = [(slitherlink.build(s), [], 2) for s in loops]
    jigsaw = sudoku.parse_all((DATA / "sudoku" / "JigsawSudoku_puzzles.json").read_text())[:n]
    out["jigsaw sudoku"] = [(sudoku.build(s), sudoku.forced(s), 2) for s in jigsaw]
    grids = sudoku.parse_all((DATA / "sudoku" / "Sudoku_puzzles.json").read_text())
    big = [s for s in grids if s.side == 16][:n]
    out["sudoku 16x16"] = [(sudoku.build(s), sudoku.forced(s), 2) for s in big]
    boards = []
    for board in ("6x10", "5x12", "3x20"):
        puzzle = polyomino.make_puzzle(board)
        boards.append((polyomino.build(puzzle, polyomino.plan_symmetry(puzzle)), [], None))
    out["pentominoes 6x10, 5x12, 3x20"] = boards
    return out


def run(searches, propagate) -> tuple[float, int, list[int]]:
    """Seconds, nodes and counts of every search of a family (on the dlx engine), the
    rule set on each problem beforehand (as an adapter that uses it does)."""
    searches = [(p.with_propagation(propagate), f, limit) for p, f, limit in searches]
    t0 = time.perf_counter()
    nodes = 0
    counts = []
    for problem, forced, limit in searches:
        result = dlx.count(problem, limit, forced=forced, engine="dlx")
        nodes += result.stats.nodes
        counts.append(result.solutions)
    return time.perf_counter() - t0, nodes, counts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measure (median)")
    parser.add_argument("--puzzles", type=int, default=40, help="puzzles per puzzlekit file")
    args = parser.parse_args(argv)
    print(f"load average (1 min): {os.getloadavg()[0]:.2f}")
    print(f"{'family':32s} {'searches':>8s} {'nodes':>10s} {'nodes, dom':>10s} "
          f"{'s':>8s} {'s, dom':>8s} {'speed-up':>8s}")  # fmt: skip
    for name, searches in families(args.puzzles).items():
        run(searches[:1], None)  # compile / load the kernel
        run(searches[:1], "domination")
        times = {None: [], "domination": []}
        nodes, counts = {}, {}
        for _ in range(args.repeat):
            for propagate in times:
                seconds, nodes[propagate], counts[propagate] = run(searches, propagate)
                times[propagate].append(seconds)
        assert counts[None] == counts["domination"], name
        plain, dom = statistics.median(times[None]), statistics.median(times["domination"])
        print(f"{name:32s} {len(searches):8d} {nodes[None]:10d} {nodes['domination']:10d} "
              f"{plain:8.3f} {dom:8.3f} {plain / dom:7.2f}x")  # fmt: skip
    print(f"load average (1 min): {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
