"""The tight kernel's tree on the 9x10 sample under other rules of *choose*: ties, stop.

    python scripts/tie_nodes.py --rules rows columns pieces-first walls near stop-2

The numba model of ``scripts/region_nodes.py`` (the tight kernel's tree: the uncovered
primary item with the fewest live options, a child that covers every item or leaves
one counted at its parent, a child with no live option not entered) searches the seeded
sample of ``scripts/famous_levers.py`` (40 of the 24,586 subproblems three options
down, seed 41) with *choose* changed. The kernel takes the first item of fewest live
options in item order (the cells row by row, ``x`` first, then the pieces) and stops at
the first with at most one. Rules (``--rules``):

- ``rows``: the kernel's (cells row by row, then pieces);
- ``columns``: the cells column by column (``y`` first), then pieces;
- ``rows-back``, ``columns-back``: the same orders from the last cell;
- ``pieces-first``: the pieces before the cells (rows);
- ``corner``: the cells nearest a corner first (then rows); ``border``: nearest the
  board's edge first; ``centre``: nearest the centre first;
- ``walls``: of the tied items, the cell with the most neighbours covered or off the
  board (then rows);
- ``near``: of the tied items, the cell nearest the piece just placed (Manhattan
  distance to its nearest cell; then rows);
- ``stop-K`` (with any rule before it, ``rows`` if alone: ``columns+stop-2``): stop at
  the first item with at most ``K`` live options (the kernel's is 1);
- ``cells-only``: the pieces never counted (unless no cell is left);
- ``halo``: the cells next to the piece just placed counted first (the cells most
  likely to be left without an option), then the rest; the first of fewest in rows
  order, as the kernel's (only the scan's order changes: where it stops at 0 or 1).

Each rule prints its nodes (and their ratio to the first rule's), the solutions, the
items counted a node (what *choose* costs) and the share of nodes whose fewest live
options are 0 (dead), 1 (forced), 2 and 3 or more. Nodes only: the model's CPU says
nothing of the kernel's (time a rule in the kernel with
``scripts/bench_tight_choose.py``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import famous_levers  # noqa: E402
import region_nodes  # noqa: E402

from puzzles.polyform import tiling  # noqa: E402

WIDTH = region_nodes.WIDTH
STATIC, WALLS, NEAR, HALO = 0, 1, 2, 3


def cell_xy(problem, n_cells: int) -> np.ndarray:
    """Each cell's (x, y), int64[n_cells, 2]."""
    return np.array([list(map(int, problem.primary[i].split(","))) for i in range(n_cells)])


def static_rank(rule: str, xy: np.ndarray, n_primary: int) -> np.ndarray:
    """Each primary item's place in the tie order of a static rule (0 first)."""
    n_cells = len(xy)
    x, y = xy[:, 0], xy[:, 1]
    w, h = x.max() + 1, y.max() + 1
    rows = y * w + x
    dx, dy = np.minimum(x, w - 1 - x), np.minimum(y, h - 1 - y)
    key = {
        "rows": rows,
        "columns": x * h + y,
        "rows-back": -rows,
        "columns-back": -(x * h + y),
        "corner": (dx + dy) * 1000 + rows,
        "border": np.minimum(dx, dy) * 1000 + rows,
        "centre": -(dx + dy) * 1000 + rows,
    }.get(rule, rows)
    order = np.argsort(key, kind="stable")
    rank = np.empty(n_primary, np.int64)
    rank[:n_cells] = np.argsort(order, kind="stable")
    pieces = np.arange(n_cells, n_primary)
    rank[n_cells:] = pieces - n_cells - (n_primary if rule == "pieces-first" else 0)
    rank[n_cells:] += 0 if rule == "pieces-first" else n_cells
    return rank


def halo_masks(items, mask, neighbours, n_cells) -> np.ndarray:
    """Each option's halo: the cells next to its cells, not its own (uint64[n_options, 2])."""
    halo = np.zeros_like(mask)
    for o in range(len(items)):
        for c in items[o]:
            if 0 <= c < n_cells:
                for s in neighbours[c]:
                    if s >= 0:
                        halo[o, s >> 6] |= np.uint64(1) << np.uint64(s & 63)
    return halo & ~mask


@njit(inline="always")
def _covered(c0, c1, i):
    return ((c0 if i < 64 else c1) >> np.uint64(i & 63)) & np.uint64(1)


@njit
def _walls(c0, c1, i, neighbours):
    """Neighbours of cell ``i`` covered or off the board."""
    k = 0
    for d in range(4):
        s = neighbours[i, d]
        if s < 0 or _covered(c0, c1, s):
            k += 1
    return k


@njit
def _near(i, o, items, xy, n_cells):
    """Manhattan distance from cell ``i`` to option ``o``'s nearest cell."""
    best = 1 << 20
    for j in range(WIDTH):
        c = items[o, j]
        if c < 0:
            break
        if c < n_cells:
            d = abs(xy[i, 0] - xy[c, 0]) + abs(xy[i, 1] - xy[c, 1])
            best = min(best, d)
    return best


@njit
def search(
    items, mask, halo, neighbours, xy, n_cells, n_primary, forced, rank, dynamic, stop, cells_only
):
    """(nodes, solutions, items counted, nodes by fewest options: 0, 1, 2, 3+) of the
    subproblem ``forced`` under a rule of *choose*."""
    n_options = mask.shape[0]
    cover = np.zeros((40, 2), np.uint64)
    live = np.zeros(40 * n_options, np.int64)
    start = np.zeros(41, np.int64)
    cand = np.zeros((40, n_options), np.int64)
    n_cand = np.zeros(40, np.int64)
    branch = np.zeros(40, np.int64)
    last = np.zeros(41, np.int64)
    count = np.zeros(128, np.int64)
    order = np.argsort(rank)
    for f in forced:
        cover[0, 0] |= mask[f, 0]
        cover[0, 1] |= mask[f, 1]
    last[0] = forced[forced.shape[0] - 1]
    n = 0
    for o in range(n_options):
        if not (mask[o, 0] & cover[0, 0]) and not (mask[o, 1] & cover[0, 1]):
            live[n] = o
            n += 1
    start[1] = n
    nodes = solutions = scanned = 0
    fewest_seen = np.zeros(4, np.int64)  # nodes whose fewest is 0, 1, 2, 3 or more
    level, entering = 0, True
    while level >= 0:
        if entering:
            nodes += 1
            entering = False
            count[:n_primary] = 0
            for a in range(start[level], start[level + 1]):
                for j in range(WIDTH):
                    if items[live[a], j] < 0:
                        break
                    count[items[live[a], j]] += 1
            c0, c1 = cover[level, 0], cover[level, 1]
            best, fewest = -1, 1 << 30
            h0, h1 = np.uint64(0), np.uint64(0)
            if dynamic == HALO:  # the cells next to the piece just placed, first
                h0, h1 = halo[last[level], 0] & ~c0, halo[last[level], 1] & ~c1
            for turn in range(2 if dynamic == HALO else 1):
                if fewest <= stop:
                    break
                for k in range(n_primary):
                    i = order[k]
                    if _covered(c0, c1, i) or (cells_only and i >= n_cells and best >= 0):
                        continue
                    if dynamic == HALO and (_covered(h0, h1, i) != 0) == (turn == 1):
                        continue
                    scanned += 1
                    if count[i] < fewest or (count[i] == fewest and rank[i] < rank[best]):
                        best, fewest = i, count[i]
                        if fewest <= stop:
                            break
            fewest_seen[min(fewest, 3)] += 1
            if dynamic in (WALLS, NEAR) and fewest >= 2 and fewest > stop:
                score = 1 << 40
                for k in range(n_primary):
                    i = order[k]
                    if _covered(c0, c1, i) or count[i] != fewest:
                        continue
                    if i >= n_cells:
                        v = 1 << 30
                    elif dynamic == WALLS:
                        v = -_walls(c0, c1, i, neighbours)
                    else:
                        v = _near(i, last[level], items, xy, n_cells)
                    if v < score:
                        best, score = i, v
            n_cand[level] = branch[level] = 0
            if best >= 0 and fewest > 0:
                for a in range(start[level], start[level + 1]):
                    if _covered(mask[live[a], 0], mask[live[a], 1], best):
                        cand[level, n_cand[level]] = live[a]
                        n_cand[level] += 1
        if branch[level] >= n_cand[level]:
            level -= 1
            continue
        o = cand[level, branch[level]]
        branch[level] += 1
        c0, c1 = cover[level, 0] | mask[o, 0], cover[level, 1] | mask[o, 1]
        left, lone = 0, -1
        for i in range(n_primary):
            if not _covered(c0, c1, i):
                left += 1
                lone = i
        if left == 0:
            solutions += 1
            continue
        s = n = start[level + 1]
        for a in range(start[level], start[level + 1]):
            p = live[a]
            if not (mask[p, 0] & c0) and not (mask[p, 1] & c1):
                live[n] = p
                n += 1
                if left == 1 and _covered(mask[p, 0], mask[p, 1], lone):
                    solutions += 1
        if n == s or left == 1:
            continue
        level += 1
        cover[level, 0], cover[level, 1] = c0, c1
        last[level] = o
        start[level + 1] = n
        entering = True
    return nodes, solutions, scanned, fewest_seen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", default=["rows", "columns", "walls", "near"])
    parser.add_argument("--sample", type=int, default=40)
    args = parser.parse_args(argv)
    puzzle = tiling.make_puzzle("9x10", "one-sided-pentominoes")
    problem = tiling.build(puzzle, tiling.plan_symmetry(puzzle))
    tasks = famous_levers.Tree(problem, puzzle).level(3)
    sample = random.Random(41).sample(tasks, 40)[: args.sample]
    items, mask, neighbours, n_cells, n_primary = region_nodes.arrays(problem)
    xy = cell_xy(problem, n_cells)
    halo = halo_masks(items, mask, neighbours, n_cells)
    base = None
    for name in args.rules:
        rule, _, stop = name.partition("+stop-")
        if rule.startswith("stop-"):
            rule, stop = "rows", rule[5:]
        rank = static_rank(rule, xy, n_primary)
        cells_only = rule == "cells-only"
        dynamic = {"walls": WALLS, "near": NEAR, "halo": HALO}.get(rule, STATIC)
        t0 = time.process_time()
        nodes = solutions = scanned = 0
        fewest = np.zeros(4, np.int64)
        for forced in sample:
            f = np.array(forced, np.int64)
            k, s, c, h = search(items, mask, halo, neighbours, xy, n_cells, n_primary, f, rank,
                                dynamic, int(stop or 1), cells_only)  # fmt: skip
            nodes, solutions, scanned, fewest = nodes + k, solutions + s, scanned + c, fewest + h
        base = base or nodes
        shares = " ".join(f"{v / nodes:.2f}" for v in fewest)
        print(
            f"{name:20} nodes {nodes:>12,}  / first {nodes / base:6.3f}  solutions {solutions:,}"
            f"  items counted a node {scanned / nodes:5.1f}  fewest 0/1/2/3+ {shares}"
            f"  ({time.process_time() - t0:.1f} s CPU, the model's)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
