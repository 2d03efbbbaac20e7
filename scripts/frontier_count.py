"""Count a polyform tiling problem breadth first by its frontier (the memo taken to its
limit: every subproblem met once), a prototype beside the kernels' depth-first counts.

The problem is the adapter's own (``tiling.build`` with its symmetry-breaking plan, so
the count is the distinct one); its cells are taken in the order the bitset kernel
fills them (``tiling.cell_order``: along the short side). A *state* is what a partial
tiling that covers every cell before its first empty cell ``p`` leaves to do: the cells
from ``p`` on that it covers (a *window* of ``w`` bits, as no option reaches further
than ``w - 1`` cells past its first cell) and the other items it has used (pieces, the
plan's secondary items). Two partial tilings with the same state have the same
completions, so a state's count is the number of partial tilings that reach it, and the
states of one ``p`` (a *layer*) are merged before any of them is extended. Each option
whose first cell is ``p`` extends a state if it meets none of its cells or items; the
child's first empty cell is further on (a later layer). The count is the sum over the
states that cover every cell with every primary item used.

    python scripts/frontier_count.py --board 9x10 --pieces one-sided-pentominoes
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import numpy as np
from numba import njit

from puzzles.polyform import tiling


def options_by_anchor(problem, puzzle):
    """The options as (first cell, cell bits from it, other-item bits), grouped by first
    cell; the window's width, the other items' names and which of them are primary."""
    cells = [tiling.cell_item(c) for c in tiling.cell_order(puzzle.board)]
    index = {name: k for k, name in enumerate(cells)}
    primary = set(problem.primary)
    others = [n for n in problem.primary + problem.secondary if n not in index]
    bit = {name: k for k, name in enumerate(others)}
    for name in primary - set(cells):
        if problem.bounds(name) != (1, 1):
            raise SystemExit(f"{name}: a piece with copies is not handled by this prototype")
    rows = []
    for k in range(problem.n_options):
        items = problem.option(k)
        at = sorted(index[i] for i in items if i in index)
        rel = sum(1 << (c - at[0]) for c in at)
        other = sum(1 << bit[i] for i in items if i not in index)
        rows.append((at[0], rel, other))
    width = max((r[1].bit_length() for r in rows), default=1)
    if width + len(others) > 64:
        raise SystemExit(f"a window of {width} cells and {len(others)} items: over 64 bits")
    rows.sort()
    anchor = np.array([r[0] for r in rows], np.int64)
    start = np.searchsorted(anchor, np.arange(len(cells) + 1)).astype(np.int64)
    rel = np.array([r[1] for r in rows], np.uint64)
    other = np.array([r[2] << width for r in rows], np.uint64)
    needed = sum(1 << bit[n] for n in primary - set(cells)) << width
    return len(cells), width, start, rel, other, np.uint64(needed)


@njit(cache=True)  # compiled once per numba cache, not at every run of the tests
def _children(keys, counts, p, start, rel, other, window, out_key, out_count, out_at):
    """Extend every state of layer ``p`` by every option whose first cell is ``p`` that
    fits (cells and items disjoint); with ``out_key`` empty, only count the children."""
    cell_mask = (np.uint64(1) << np.uint64(window)) - np.uint64(1)
    n = 0
    fill = out_key.shape[0] > 0
    for i in range(keys.shape[0]):
        key = keys[i]
        for j in range(start[p], start[p + 1]):
            if key & (rel[j] | other[j]):
                continue
            if fill:
                nxt = key | rel[j] | other[j]
                win = nxt & cell_mask
                step = 0
                while win & np.uint64(1):
                    win >>= np.uint64(1)
                    step += 1
                out_key[n] = (nxt & ~cell_mask) | win
                out_count[n] = counts[i]
                out_at[n] = p + step
            n += 1
    return n


def merged(keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The states with equal keys merged, their counts added."""
    if keys.shape[0] == 0:
        return keys, counts
    order = np.argsort(keys, kind="stable")
    keys, counts = keys[order], counts[order]
    first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return keys[first], np.add.reduceat(counts, first)


def frontier_count(problem, puzzle, report=print) -> tuple[int, int, int]:
    """The number of solutions of ``problem`` (a tiling of ``puzzle``), the states met
    (merged) and the most states alive at once."""
    n_cells, window, start, rel, other, needed = options_by_anchor(problem, puzzle)
    pending: dict[int, list] = {0: [(np.zeros(1, np.uint64), np.ones(1, np.int64))]}
    total = states = alive = 0
    for p in range(n_cells):
        chunks = pending.pop(p, [])
        if not chunks:
            continue
        keys, counts = merged(np.concatenate([c[0] for c in chunks]),
                              np.concatenate([c[1] for c in chunks]))  # fmt: skip
        states += keys.shape[0]
        empty = np.zeros(0, np.uint64)
        n = _children(keys, counts, p, start, rel, other, window, empty,
                      np.zeros(0, np.int64), np.zeros(0, np.int64))  # fmt: skip
        out_key, out_count = np.empty(n, np.uint64), np.empty(n, np.int64)
        out_at = np.empty(n, np.int64)
        _children(keys, counts, p, start, rel, other, window, out_key, out_count, out_at)
        del keys, counts
        if n == 0:
            continue
        order = np.argsort(out_at, kind="stable")
        out_key, out_count, out_at = out_key[order], out_count[order], out_at[order]
        bounds = np.flatnonzero(np.r_[True, out_at[1:] != out_at[:-1], True])
        for a, b in zip(bounds[:-1], bounds[1:], strict=True):
            at = int(out_at[a])
            if at == n_cells:
                done = (out_key[a:b] & needed) == needed
                total += int(out_count[a:b][done].sum())
                continue
            chunk = merged(out_key[a:b], out_count[a:b])
            pending.setdefault(at, []).append(chunk)
        held = sum(c[0].shape[0] for chunks in pending.values() for c in chunks)
        alive = max(alive, held)
        report(f"layer {p}: {states} states so far, {held} pending, total {total}")
    return total, states, alive


def main() -> None:
    """Count one board and print the count, states, CPU time and memory."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--board", default="9x10")
    parser.add_argument("--pieces", default="one-sided-pentominoes")
    parser.add_argument("--no-symmetry", action="store_true", help="count every tiling")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    puzzle = tiling.make_puzzle(args.board, args.pieces)
    plan = None if args.no_symmetry else tiling.plan_symmetry(puzzle)
    problem = tiling.build(puzzle, plan)
    print(f"load before: {os.getloadavg()[0]:.2f}; {plan.describe() if plan else 'all'}")
    cpu = time.process_time()
    total, states, alive = frontier_count(
        problem, puzzle, (lambda s: None) if args.quiet else print
    )
    cpu = time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{args.board} {args.pieces}: {total} solutions; {states} states, at most "
          f"{alive} pending; {cpu:.1f} s CPU; {peak:.0f} MB resident at most; "
          f"load after {os.getloadavg()[0]:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
