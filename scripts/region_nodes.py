"""The nodes a dead-region test would save the tight kernel on the 9x10 sample.

    python scripts/region_nodes.py --tests none grid-9 grid-4 grid live halo

A numba model of the tight kernel's tree (the uncovered primary item with the fewest
live options, the first of ties, stopping at one with at most one; a child that
covers every item, or leaves one item, counted at its parent; a child left with no
live option not entered, as in a frame) searches the seeded sample of
``scripts/famous_levers.py`` (40 of the 24,586 subproblems three options down, seed
41; each counted as its own subproblem) and counts its nodes, solutions and the
children each test skips. Tests (``--tests``) of a child before it is entered:

- ``none``: no test (the model's tree: about the kernel's, which also skips a few dead
  children outside frames);
- ``grid-N``: the regions of uncovered cells (4-neighbours on the board) next to the
  piece just placed, each flooded up to N cells: one of at most N cells whose size is
  not a multiple of 5 makes the child dead; ``grid``: every region judged;
- ``live``: the regions of uncovered cells joined by the child's live options (union-find
  over them): one whose size is not a multiple of 5 (a cell without options is a
  region of 1) makes the child dead;
- ``halo``: a cell next to the piece just placed left uncovered with no live option.

Nodes only: the model's CPU seconds say nothing of the kernel's (time a test in the
kernel with ``scripts/bench_tight_choose.py``).
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

from puzzles.polyform import tiling  # noqa: E402

WIDTH = 16  # the most items of an option
NONE, GRID, LIVE, HALO = 0, 1, 2, 3


def arrays(problem) -> tuple:
    """Each option's items (int64[n_options, WIDTH], -1 padded) and mask (2 words), the
    cells' 4-neighbours (int64[n_cells, 4], -1: none), the number of cells and of
    primary items."""
    names = problem.primary + problem.secondary
    index = {n: i for i, n in enumerate(names)}
    items = np.full((problem.n_options, WIDTH), -1, np.int64)
    mask = np.zeros((problem.n_options, 2), np.uint64)
    for k in range(problem.n_options):
        for j, n in enumerate(problem.option(k)[:WIDTH]):
            items[k, j] = index[n]
            mask[k, index[n] >> 6] |= np.uint64(1) << np.uint64(index[n] & 63)
    cells = [n for n in problem.primary if "," in n]
    assert cells == problem.primary[: len(cells)] and len(names) <= 128
    assert max(len(problem.option(k)) for k in range(problem.n_options)) <= WIDTH
    neighbours = np.full((len(cells), 4), -1, np.int64)
    for i, cell in enumerate(cells):
        x, y = map(int, cell.split(","))
        for d, (dx, dy) in enumerate(((1, 0), (-1, 0), (0, 1), (0, -1))):
            j = index.get(f"{x + dx},{y + dy}", len(cells))
            neighbours[i, d] = j if j < len(cells) else -1
    return items, mask, neighbours, len(cells), len(problem.primary)


@njit(inline="always")
def _covered(c0, c1, i):
    """Whether item ``i`` is in the mask ``(c0, c1)``."""
    return ((c0 if i < 64 else c1) >> np.uint64(i & 63)) & np.uint64(1)


@njit
def _border(c0, c1, o, items, neighbours, n_cells, border):
    """How many uncovered cells next to option ``o``'s cells, listed in ``border``
    (a cell once for each of its covered neighbours in ``o``)."""
    k = 0
    for j in range(WIDTH):
        c = items[o, j]
        if c < 0:
            break
        if c >= n_cells:
            continue
        for d in range(4):
            s = neighbours[c, d]
            if s >= 0 and not _covered(c0, c1, s):
                border[k] = s
                k += 1
    return k


@njit
def _grid_dead(c0, c1, o, items, neighbours, n_cells, cap, mark, stack, flood, border):
    """A region next to option ``o``'s cells of at most ``cap`` cells, not a multiple of 5."""
    first = flood[0] + 1
    f = first - 1
    for b in range(_border(c0, c1, o, items, neighbours, n_cells, border)):
        s = border[b]
        if mark[s] < first:
            f += 1
            mark[s] = f
            stack[0] = s
            top, size, small = 1, 0, True
            while top and small:
                top -= 1
                x = stack[top]
                size += 1
                small = size <= cap
                for e in range(4):
                    y = neighbours[x, e]
                    if y < 0 or _covered(c0, c1, y):
                        continue
                    if mark[y] < first:
                        mark[y] = f
                        stack[top] = y
                        top += 1
                    elif mark[y] != f:
                        small = False  # a region flooded before, left large
            if small and size % 5:
                flood[0] = f
                return True
    flood[0] = f
    return False


@njit
def _live_dead(c0, c1, live, n_live, items, n_cells, parent, size):
    """A region of uncovered cells joined by the live options, not a multiple of 5."""
    for i in range(n_cells):
        parent[i] = i
        size[i] = 0
    for a in range(n_live):
        r0 = -1
        for j in range(WIDTH):
            c = items[live[a], j]
            if c < 0:
                break
            if c >= n_cells:
                continue
            while parent[c] != c:
                c = parent[c]
            if r0 < 0:
                r0 = c
            elif c != r0:
                parent[c] = r0
    for i in range(n_cells):
        if not _covered(c0, c1, i):
            r = i
            while parent[r] != r:
                r = parent[r]
            size[r] += 1
    for i in range(n_cells):
        if size[i] % 5:
            return True
    return False


@njit
def _halo_dead(c0, c1, o, live, n_live, items, mask, neighbours, n_cells, border):
    """A cell next to option ``o``'s cells, uncovered, that no live option holds."""
    for b in range(_border(c0, c1, o, items, neighbours, n_cells, border)):
        s = border[b]
        held = False
        for a in range(n_live):
            if _covered(mask[live[a], 0], mask[live[a], 1], s):
                held = True
                break
        if not held:
            return True
    return False


@njit
def search(items, mask, neighbours, n_cells, n_primary, forced, test, cap):
    """(nodes, solutions, children skipped by ``test``) of the subproblem ``forced``."""
    n_options = mask.shape[0]
    cover = np.zeros((40, 2), np.uint64)
    live = np.zeros(40 * n_options, np.int64)
    start = np.zeros(41, np.int64)
    cand = np.zeros((40, n_options), np.int64)
    n_cand = np.zeros(40, np.int64)
    branch = np.zeros(40, np.int64)
    count = np.zeros(128, np.int64)
    mark = np.zeros(128, np.int64)
    stack = np.zeros(128, np.int64)
    flood = np.zeros(1, np.int64)
    border = np.zeros(4 * WIDTH, np.int64)
    for f in forced:
        cover[0, 0] |= mask[f, 0]
        cover[0, 1] |= mask[f, 1]
    n = 0
    for o in range(n_options):
        if not (mask[o, 0] & cover[0, 0]) and not (mask[o, 1] & cover[0, 1]):
            live[n] = o
            n += 1
    start[1] = n
    nodes = solutions = skipped = 0
    level, entering = 0, True
    while level >= 0:
        if entering:  # choose: the tightest uncovered primary item
            nodes += 1
            entering = False
            count[:n_primary] = 0
            for a in range(start[level], start[level + 1]):
                for j in range(WIDTH):
                    if items[live[a], j] < 0:
                        break
                    count[items[live[a], j]] += 1
            best, fewest = -1, 1 << 30
            for i in range(n_primary):
                if not _covered(cover[level, 0], cover[level, 1], i) and count[i] < fewest:
                    best, fewest = i, count[i]
                    if fewest <= 1:
                        break
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
        left, last = 0, -1
        for i in range(n_primary):
            if not _covered(c0, c1, i):
                left += 1
                last = i
        if left == 0:
            solutions += 1
            continue
        s = n = start[level + 1]
        for a in range(start[level], start[level + 1]):
            p = live[a]
            if not (mask[p, 0] & c0) and not (mask[p, 1] & c1):
                live[n] = p
                n += 1
                if left == 1 and _covered(mask[p, 0], mask[p, 1], last):
                    solutions += 1
        if n == s or left == 1:
            continue
        if test == GRID:
            dead = _grid_dead(
                c0, c1, o, items, neighbours, n_cells, cap, mark, stack, flood, border
            )
        elif test == LIVE:
            dead = _live_dead(c0, c1, live[s:n], n - s, items, n_cells, mark, stack)
        elif test == HALO:
            dead = _halo_dead(c0, c1, o, live[s:n], n - s, items, mask, neighbours, n_cells, border)
        else:
            dead = False
        if dead:
            skipped += 1
            continue
        level += 1
        cover[level, 0], cover[level, 1] = c0, c1
        start[level + 1] = n
        entering = True
    return nodes, solutions, skipped


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", nargs="+", default=["none", "grid-9", "halo"])
    args = parser.parse_args(argv)
    puzzle = tiling.make_puzzle("9x10", "one-sided-pentominoes")
    problem = tiling.build(puzzle, tiling.plan_symmetry(puzzle))
    tasks = famous_levers.Tree(problem, puzzle).level(3)
    sample = random.Random(41).sample(tasks, 40)
    items, mask, neighbours, n_cells, n_primary = arrays(problem)
    for name in args.tests:
        kind, _, cap = name.partition("-")
        test = {"none": NONE, "grid": GRID, "live": LIVE, "halo": HALO}[kind]
        t0 = time.process_time()
        totals = np.zeros(3, np.int64)
        for forced in sample:
            f = np.array(forced, np.int64)
            totals += search(items, mask, neighbours, n_cells, n_primary, f, test, int(cap or 99))
        nodes, solutions, skipped = (int(v) for v in totals)
        print(
            f"{name:8} nodes {nodes:>12,}  solutions {solutions:,}  skipped {skipped:>11,}"
            f"  ({time.process_time() - t0:.1f} s CPU, the model's)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
