"""The levers of a long polyomino count, each measured on the same fixed sample of tasks
and extrapolated to the whole tree (issue 41: the one-sided pentominoes on 9x10).

The symmetry-broken problem (the default count's) is cut into the N subproblems
(tasks) ``--split`` options below the root of the tree that fills the first empty cell;
a seeded sample of k of them is searched to its end under each lever, each task as a
subproblem of its own (its options forced, so every kernel searches the same subproblem
its own way; a fresh memo a task). Since the
tasks are drawn uniformly, ``N / k`` times the sample's nodes (CPU seconds, solutions)
estimates the whole tree's, and the CPU over 2 is the wall time on 2 cores if both stay
busy. The solutions' estimate against the known count says how good the sample is.

Levers (``--levers``, comma-separated):

- ``bitset``: the default count's kernel (fills the first empty cell, lone cells pruned);
- ``prune-N``: the same, with every region of at most N cells next to the piece just
  placed judged by size (``prune_cap=N``: dead-region pruning);
- ``memo-MiB``: the bitset kernel with a memo table of that many MiB from the start;
- ``levels-N``: the bitset kernel keeping the memo counts of levels <= N (the default:
  the first two thirds of the pieces' levels, plus one);
- ``no-urgent``: the bitset kernel never branching on an urgent item (a piece with few
  placements left) first;
- ``tight``, ``dlx``: the other kernels on the same subproblems (as ``dlx.count`` runs
  them); ``tight-no-memo``: the tight kernel without its memo; ``tight-levels-N``: with
  its memo kept for levels <= N only; ``tight-no-frames``: without its frames (the live
  set packed into a few words deep down, ``dlx/kernels/tight/frames.py``);
- ``parts``: how often the uncovered region falls into two or more regions each of which
  can be filled (independent parts), by depth below the sampled tasks, and, where it
  fires first on a path, the nodes of the plain subtree against the nodes of the parts
  searched one by one (all their tilings, any pieces of those left: the cost of a
  count by parts before the product over piece subsets).

    python scripts/famous_levers.py --board 9x10 --sample 12 --levers bitset,prune-90
    python scripts/famous_levers.py --sample 40 --levers tight,tight-no-frames --rounds 5

With ``--rounds N`` the levers run N times, in turn (the order reversed every other
round), and a last line per lever gives the medians of the sample's CPU seconds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import dlx
from puzzles.polyform import tiling


class Tree:
    """The branches of the tree that fills the first empty cell (the bitset kernel's
    order, ``tiling.cell_order``), walked in Python to name subproblems."""

    def __init__(self, problem: dlx.Problem, puzzle):
        self.cells = [tiling.cell_item(c) for c in tiling.cell_order(puzzle.board)]
        self.items = [set(problem.option(k)) for k in range(problem.n_options)]
        self.by_cell = {c: [] for c in self.cells}
        for k, items in enumerate(self.items):
            for c in items & self.by_cell.keys():
                self.by_cell[c].append(k)

    def children(self, options: list[int]) -> list[list[int]]:
        """The subproblems one option deeper: each option on the first empty cell that
        meets none of the items covered."""
        covered = set().union(*(self.items[k] for k in options))
        first = next((c for c in self.cells if c not in covered), None)
        if first is None:
            return []
        return [options + [k] for k in self.by_cell[first] if not self.items[k] & covered]

    def level(self, depth: int) -> list[list[int]]:
        """Every subproblem ``depth`` options below the root."""
        nodes: list[list[int]] = [[]]
        for _ in range(depth):
            nodes = [child for node in nodes for child in self.children(node)]
        return nodes


def run_lever(problem, lever: str, forced: list[int], node_limit=None) -> tuple[int, int, float]:
    """Solutions, nodes and thread CPU seconds of one subproblem under one lever."""
    start = time.thread_time()
    if lever in ("bitset", "no-urgent") or lever.startswith(("prune-", "memo-", "levels-")):
        cap = int(lever[6:]) if lever.startswith("prune-") else None
        nbytes = int(lever[5:]) << 20 if lever.startswith("memo-") else None
        levels = int(lever[7:]) if lever.startswith("levels-") else None
        memo = dlx.BitMemo.of(problem, nbytes)
        if nbytes is not None:
            memo.limit(nbytes)
        search = dlx.BitsetSearch(
            problem,
            forced=forced,
            urgent=lever != "no-urgent",
            prune_cap=cap,
            memo_levels=levels,
            memo=memo,
            node_limit=node_limit,
        )
        result = dlx.count_search(search, None, False)
    elif lever.startswith("tight-"):
        memo = None if lever == "tight-no-memo" else dlx.TightMemo.of(problem)
        levels = int(lever[12:]) if lever.startswith("tight-levels-") else None
        search = dlx.TightSearch(
            problem,
            forced=forced,
            memo=memo,
            memo_levels=levels,
            frames=lever != "tight-no-frames",
            node_limit=node_limit,
        )
        result = dlx.count_search(search, None, False)
    else:
        result = dlx.count(problem, forced=forced, engine=lever, node_limit=node_limit)
    return result.solutions, result.stats.nodes, time.thread_time() - start


def regions(cells: set, neighbours: dict) -> list[set]:
    """The connected regions of ``cells``."""
    left, found = set(cells), []
    while left:
        stack = [left.pop()]
        region = set(stack)
        while stack:
            for n in neighbours[stack.pop()]:
                if n in left:
                    left.remove(n)
                    region.add(n)
                    stack.append(n)
        found.append(region)
    return found


def live_parts(problem, puzzle, neighbours, options) -> list[set]:
    """The regions of the cells the options leave uncovered, if two or more and each can
    be filled by size (no smaller than the smallest piece; with pieces of one size, a
    multiple of it); else []."""
    covered = {item for o in options for item in problem.option(o)}
    free = {c for c in puzzle.board if tiling.cell_item(c) not in covered}
    parts = regions(free, neighbours)
    sizes = {p.size for p in puzzle.pieces}
    step = min(sizes) if len(sizes) == 1 else 1
    if len(parts) > 1 and all(len(p) >= min(sizes) and len(p) % step == 0 for p in parts):
        return parts
    return []


def part_problem(puzzle, region: set, used: set) -> dlx.Problem:
    """The tilings of one region by the pieces not in ``used``, each at most once."""
    part = dlx.Problem()
    for cell in tiling.cell_order(list(region)):
        part.add_primary(tiling.cell_item(cell))
    left = [p.name for p in puzzle.pieces if p.name not in used]
    for name in left:
        part.add_secondary(name)
    for name in left:
        for place in puzzle.placements[name]:
            if place <= region:
                part.add_option([name, *(tiling.cell_item(c) for c in sorted(place))])
    return part


def measure_parts(problem, puzzle, tree, forced, depth: int, fired, seen, sizes) -> None:
    """Walk the tree below ``forced`` to ``depth`` levels; at each node note whether the
    region falls into live parts (``seen[d]``/``fired[d]``); where it fires first on a
    path, compare the plain subtree's nodes with the parts' (``fired[0]``), and note the
    size of the smallest part there (``sizes``)."""
    neighbours = {c: [n for n in puzzle.lattice.neighbours(c) if n in puzzle.board]
                  for c in puzzle.board}  # fmt: skip
    names = {p.name for p in puzzle.pieces}
    frontier = [list(forced)]
    for d in range(1, depth + 1):
        deeper = []
        for child in (c for options in frontier for c in tree.children(options)):
            seen[d] += 1
            parts = live_parts(problem, puzzle, neighbours, child)
            if not parts:
                deeper.append(child)
                continue
            fired[d] += 1
            smaller = min(len(p) for p in parts)
            sizes[smaller] = sizes.get(smaller, 0) + 1
            _, plain, _ = run_lever(problem, "bitset", child)
            used = {problem.option_name(o) for o in child} & names
            fired[0][0] += plain
            fired[0][1] += sum(
                dlx.count(part_problem(puzzle, p, used), engine="bitset").stats.nodes for p in parts
            )
        frontier = deeper


def report_parts(problem, puzzle, tree, forced, depth: int) -> None:
    """Print how often the ``parts`` lever fires below the sampled tasks (``measure_parts``)."""
    fired, seen, sizes = [[0, 0]] + [0] * depth, [0] * (depth + 1), {}
    for options in forced:
        measure_parts(problem, puzzle, tree, options, depth, fired, seen, sizes)
    rates = ", ".join(f"depth {d}: {fired[d]}/{seen[d]}" for d in range(1, depth + 1))
    print(f"parts: fired {rates}; where it fires first, plain subtrees {fired[0][0]} "
          f"nodes, the parts searched alone {fired[0][1]} nodes; smallest part's cells: "
          f"{dict(sorted(sizes.items()))}")  # fmt: skip


def main() -> None:
    """Print one line per lever: the sample's figures and the whole tree's estimate."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--board", default="9x10")
    parser.add_argument("--pieces", default="one-sided-pentominoes")
    parser.add_argument("--split", type=int, default=3, help="the tasks' depth")
    parser.add_argument("--sample", type=int, default=12)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--levers", default="bitset,prune-90")
    parser.add_argument("--depth", type=int, default=4, help="levels below a task (parts)")
    parser.add_argument("--known", type=int, default=10_440_433)
    parser.add_argument("--restrict", help="the piece kept once per symmetry class")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each lever, in turn")
    args = parser.parse_args()
    puzzle = tiling.make_puzzle(args.board, args.pieces)
    plan = tiling.plan_symmetry(puzzle, args.restrict)
    problem = tiling.build(puzzle, plan)
    print(f"load before: {os.getloadavg()[0]:.2f}; {plan.describe()}")
    tree = Tree(problem, puzzle)
    tasks = tree.level(args.split)
    forced = random.Random(args.seed).sample(tasks, args.sample)
    scale = len(tasks) / args.sample
    print(f"{args.board}: {len(tasks)} tasks at depth {args.split}; sample of "
          f"{args.sample}, seed {args.seed}, scale {scale:.1f}")  # fmt: skip
    levers = args.levers.split(",")
    for lever in levers:
        if lever != "parts":
            run_lever(problem, lever, forced[0], node_limit=100_000)  # compiled, warm
    cpus: dict[str, list[float]] = {lever: [] for lever in levers}
    for round_ in range(args.rounds):
        for lever in levers if round_ % 2 == 0 else levers[::-1]:
            if lever == "parts":
                if round_ == 0:
                    report_parts(problem, puzzle, tree, forced, args.depth)
                continue
            found = nodes = 0
            cpu = 0.0
            for options in forced:
                s, k, c = run_lever(problem, lever, options)
                found, nodes, cpu = found + s, nodes + k, cpu + c
            cpus[lever].append(cpu)
            print(f"{lever}: sample {found} solutions, {nodes} nodes, {cpu:.2f} s CPU; "
                  f"whole tree about {found * scale / args.known:.2f} x the known count, "
                  f"{nodes * scale / 1e9:.1f} G nodes, {cpu * scale / 60:.1f} CPU min, "
                  f"{cpu * scale / 120:.1f} min on 2 cores")  # fmt: skip
    if args.rounds > 1:
        for lever in levers:
            if cpus[lever]:
                cpu = statistics.median(cpus[lever])
                print(f"{lever}: median of {args.rounds} rounds {cpu:.2f} s CPU "
                      f"({', '.join(f'{c:.2f}' for c in cpus[lever])}); whole tree "
                      f"{cpu * scale / 120:.1f} min on 2 cores")  # fmt: skip
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
