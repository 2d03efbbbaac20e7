"""Search nodes and speed of 9x9 sudoku under other orders of items and options.

    python scripts/sudoku_item_order.py [--repeat 3] [--sample 10000] [FILE ...]

The kernel chooses the item with the fewest options left, ties to the leftmost, and
stops its scan at the first item with at most one option; so the order in which the
items are declared decides which item a search branches on, and with it the number of
nodes. The order of the options does not change the nodes of a search that runs to its
end (each puzzle here is proved unique, so the search always ends): the children of a
node are all the options of the chosen item, in any order. It can change the speed.

Items: ``P`` cells, ``R`` row-value, ``C`` column-value, ``B`` box-value. Each order
below is a problem with the same options (same numbers, so the same forced sets) and
its items declared in that order; ``dlx.batch`` runs every puzzle (limit 2, as
``sudoku.solve_all``). The variants run in turns, ``--repeat`` rounds, medians of the
wall-clock time and (less disturbed by other jobs on a shared machine) of the CPU time.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's packages, not an installed copy

from bench_sudoku import DEFAULT as BENCH_FILES  # noqa: E402  (this script's folder)

import dlx  # noqa: E402
from puzzles import sudoku  # noqa: E402

DEFAULT = BENCH_FILES[1::-1]  # forum-hardest first, then the 17-clue sample
N = 9
BOX = sudoku.box_regions(N)


def block(kind: str, value_major: bool = False) -> list[str]:
    """The 81 items of one kind in reading order (``value_major``: value by value)."""
    if kind == "P":
        return [f"p{r},{c}" for r in range(N) for c in range(N)]
    pairs = itertools.product(range(N), range(1, N + 1))
    if value_major:
        pairs = ((k, v) for v, k in itertools.product(range(1, N + 1), range(N)))
    return [f"{kind.lower()}{k}v{v}" for k, v in pairs]


def interleaved(kinds: str, value_major: bool = False) -> list[str]:
    """One item of each kind in turn: the first of each, then the second of each..."""
    return [x for group in zip(*(block(k, value_major) for k in kinds), strict=True) for x in group]


def item_orders(seed: int, n_random: int = 3) -> dict[str, list[str]]:
    """The orders tried, by name."""
    orders = {}
    for kinds in itertools.permutations("PRCB"):
        orders[" ".join(kinds)] = [x for k in kinds for x in block(k)]
    orders["P R C B, units value by value"] = block("P") + [
        x for k in "RCB" for x in block(k, True)
    ]
    orders["P, then R C B interleaved"] = block("P") + interleaved("RCB")
    orders["R C B interleaved, then P"] = interleaved("RCB") + block("P")
    orders["R C B interleaved by value, then P"] = interleaved("RCB", True) + block("P")
    orders["P R C B interleaved"] = interleaved("PRCB")
    orders["R C B P interleaved"] = interleaved("RCBP")
    units = [x for k in "RCB" for x in block(k)]
    cells = [(r, c) for r in range(N) for c in range(N)]
    cell_orders = {
        "box by box": sorted(cells, key=lambda rc: (BOX[rc[0]][rc[1]], rc)),
        "column by column": sorted(cells, key=lambda rc: (rc[1], rc[0])),
        "centre out": sorted(cells, key=lambda rc: ((rc[0] - 4) ** 2 + (rc[1] - 4) ** 2, rc)),
        "reversed": cells[::-1],
        # nine transversals, each cell of one in its own row, column and box: the
        # places of 1, then of 2, ... in a solved grid
        "transversals": sorted(
            cells, key=lambda rc: ((3 * (rc[0] % 3) + rc[0] // 3 + rc[1]) % 9, rc)
        ),
    }
    rng = random.Random(seed)
    for k in range(n_random):
        cell_orders[f"random {k + 1}"] = rng.sample(cells, len(cells))
    for name, order in cell_orders.items():
        orders[f"P ({name}) R C B"] = [f"p{r},{c}" for r, c in order] + units
    spread = [f"p{r},{c}" for r, c in cell_orders["transversals"]]
    diagonal = sorted(
        itertools.product(range(N), range(1, N + 1)), key=lambda kv: ((kv[0] + kv[1]) % N, kv)
    )
    orders["P (transversals) R C B (each by (k + v) mod 9)"] = spread + [
        f"{kind}{k}v{v}" for kind in "rcb" for k, v in diagonal
    ]
    orders["P (transversals) R C B (value by value)"] = spread + [
        x for k in "RCB" for x in block(k, True)
    ]
    orders["P (transversals), R C B interleaved"] = spread + interleaved("RCB")
    orders["P (transversals) R C B interleaved"] = [
        x for group in zip(spread, *(block(k) for k in "RCB"), strict=True) for x in group
    ]
    for k in range(3):
        orders[f"random {k + 1}"] = rng.sample(block("P") + units, 4 * N * N)
    return orders


def option_orders() -> dict[str, list[tuple[int, int, int]]]:
    """Orders of the options (r, c, v), by name."""
    cells = [(r, c) for r in range(N) for c in range(N)]
    by_cell = [(r, c, v) for r, c in cells for v in range(1, N + 1)]
    spread = sudoku.cell_order(N, BOX)
    return {
        "cell then value": by_cell,
        "cells transversal by transversal": [(r, c, v) for r, c in spread for v in range(1, N + 1)],
        "value then cell": [(r, c, v) for v in range(1, N + 1) for r, c in cells],
        "reversed": by_cell[::-1],
    }


def make_problem(items: list[str], options: list[tuple[int, int, int]]) -> dlx.Problem:
    """The empty grid with these item and option orders (options named r,c,v)."""
    problem = dlx.Problem(primary=items)
    for r, c, v in options:
        problem.add_option([f"p{r},{c}", f"r{r}v{v}", f"c{c}v{v}", f"b{BOX[r][c]}v{v}"])
    return problem


def forced_flat(puzzles: list[sudoku.Sudoku], number: dict) -> tuple[np.ndarray, np.ndarray]:
    """Every puzzle's givens as option numbers of a problem, flat, with start offsets."""
    sets = [[number[g] for g in p.grid.givens()] for p in puzzles]
    start = np.zeros(len(sets) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in sets], out=start[1:])
    return np.array([o for s in sets for o in s], dtype=np.int64), start


def line_permutation(rng: random.Random) -> list[int]:
    """A random order of the 9 rows (or columns) that keeps bands (stacks) together."""
    bands = rng.sample(range(3), 3)
    return [3 * b + k for b in bands for k in rng.sample(range(3), 3)]


def transformed(puzzles: list[sudoku.Sudoku], seed: int) -> list[sudoku.Sudoku]:
    """Each puzzle under a random symmetry of sudoku: rows within bands, bands, columns
    within stacks, stacks, a transposition and a relabelling of the values (the same
    puzzle for the solver's logic, not for the order of its items)."""
    rng = random.Random(seed)
    lines = []
    for p in puzzles:
        grid = np.array(p.grid.values)[line_permutation(rng)][:, line_permutation(rng)]
        grid = grid.T if rng.random() < 0.5 else grid
        relabel = np.array([0, *rng.sample(range(1, N + 1), N)])
        lines.append("".join(sudoku.symbol(v) for v in relabel[grid].ravel()))
    return sudoku.parse_all("\n".join(lines))


def measure(path: Path, variants, repeat: int, sample: int, shuffle: int | None) -> None:
    """Run every variant on one file and print a table of nodes and puzzles/s."""
    puzzles = sudoku.parse_all(path.read_text())[:sample]
    if shuffle is not None:
        puzzles = transformed(puzzles, shuffle)
    prepared = []
    for name, (items, options) in variants.items():
        problem = make_problem(items, options)
        number = {rcv: k for k, rcv in enumerate(options)}
        prepared.append((name, problem, *forced_flat(puzzles, number)))
    times: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    nodes: dict[str, np.ndarray] = {}
    load = os.getloadavg()[0]
    for _, problem, flat, start in prepared:  # compile / warm up
        dlx.batch(problem, flat[: start[2]], 2, start=start[:3], depth=N * N)
    for _ in range(repeat):
        for name, problem, flat, start in prepared:
            t0, c0 = time.perf_counter(), time.process_time()
            result = dlx.batch(problem, flat, 2, start=start, depth=N * N)
            times[name].append(time.perf_counter() - t0)
            cpu[name].append(time.process_time() - c0)
            assert (result.counts == 1).all(), f"{name}: a puzzle without one solution"
            nodes[name] = result.nodes
    base = prepared[0][0]
    base_rate = len(puzzles) / statistics.median(times[base])
    how = "" if shuffle is None else f", each under a random symmetry (seed {shuffle})"
    print(f"\n{path.name}: {len(puzzles)} puzzles{how}, {repeat} rounds")
    print(f"load average (1 min): {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    print(
        f"{'order':44s} {'mean nodes':>11s} {'max nodes':>10s} {'puzzles/s':>10s} "
        f"{'vs first':>9s} {'[slowest-fastest]':>18s} {'by CPU time':>12s}"
    )
    for name, *_ in prepared:
        rate = len(puzzles) / statistics.median(times[name])
        spread = len(puzzles) / max(times[name]), len(puzzles) / min(times[name])
        print(
            f"{name:44s} {nodes[name].mean():11.1f} {nodes[name].max():10d} {rate:10,.0f} "
            f"{rate / base_rate:8.2f}x {f'[{spread[0]:,.0f}-{spread[1]:,.0f}]':>18s} "
            f"{len(puzzles) / statistics.median(cpu[name]):12,.0f}"
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="rounds (medians)")
    parser.add_argument("--sample", type=int, default=10000, help="first puzzles of a file")
    parser.add_argument("--options", action="store_true", help="vary the options, not items")
    parser.add_argument("--only", nargs="*", help="item orders to run (names as printed)")
    parser.add_argument("--seed", type=int, default=1, help="for the random orders")
    parser.add_argument("--random", type=int, default=3, help="random cell orders to try")
    parser.add_argument("--shuffle", type=int, metavar="SEED", help="transform the puzzles")
    args = parser.parse_args(argv)
    files = args.files or DEFAULT
    items = item_orders(args.seed, args.random)
    if args.only:
        items = {name: items[name] for name in args.only}
    if args.options:
        first = next(iter(items.values()))
        variants = {name: (first, order) for name, order in option_orders().items()}
    else:
        cell_order = option_orders()["cell then value"]
        variants = {name: (order, cell_order) for name, order in items.items()}
    for path in files:
        measure(path, variants, args.repeat, args.sample, args.shuffle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
