"""Estimate a certificate's size from a random sample of its parts (Knuth's estimator).

    python scripts/certificate_estimate.py p910.dlx --samples 40 --depth 4 --seed 1

A sample takes a random option V of the split item (the primary item with the fewest
options, as ``--certificate`` splits) and, in the problem left, random options of the
item with the fewest options left (or ``--second``), ``--depth`` options in all, then
builds the solution graph of what is left. Weighted by the number of choices at each
step, its solutions, edges and CPU seconds are unbiased estimates of the totals of a
certificate split that many levels deep (which holds at least the edges of one split one
level deep: parts share less); the solutions' estimate, set against a known count, tells how
far to trust the rest. Prints one line a sample, then the estimates with their standard
errors.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import dlx


def taken(problem: dlx.Problem, k: int) -> dlx.Problem:
    """The problem left once option ``k`` is taken (its items and the options meeting it gone)."""
    items = set(problem.option(k))
    rest = dlx.Problem(
        primary=[i for i in problem.primary if i not in items],
        secondary=[i for i in problem.secondary if i not in items],
    )
    for j in range(problem.n_options):
        if j != k and items.isdisjoint(problem.option(j)):
            rest.add_option(problem.option(j))
    return rest


def options_of(problem: dlx.Problem, item: str | None) -> tuple[str, list[int]]:
    """``item`` (default: the primary item with the fewest options) and its options."""
    uses: dict[str, list[int]] = {i: [] for i in problem.primary}
    for k in range(problem.n_options):
        for name in problem.option(k):
            if name in uses:
                uses[name].append(k)
    item = min(uses, key=lambda i: len(uses[i])) if item is None else item
    return item, uses[item]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--second", default=None, help="the item below the first level")
    parser.add_argument("--depth", type=int, default=2, help="options taken before a graph")
    parser.add_argument("--max-graph-nodes", type=int, default=None)
    args = parser.parse_args()
    problem, rng = dlx.read(args.file), random.Random(args.seed)
    item, first = options_of(problem, None)
    print(f"# {args.file}: {problem.n_options} options; split {item}: {len(first)} parts")
    rows = []
    for s in range(args.samples):
        left, weight, path = problem, 1, []
        for _ in range(args.depth):  # a random option of the item with the fewest
            second, choices = options_of(left, args.second if path else item)
            if not choices or not left.primary:
                break
            k = rng.choice(choices)
            weight, path = weight * len(choices), [*path, left.option_name(k) or str(k)]
            left = taken(left, k)
        started = time.process_time()
        if not choices and left.primary:  # a dead end: no solution
            count, edges = 0, 0
        elif left.primary:
            g = dlx.graph(left, max_nodes=args.max_graph_nodes)
            count, edges = g.count, g.stats.edges
        else:  # nothing left to cover: one solution
            count, edges = 1, 0
        seconds = time.process_time() - started
        rows.append((weight * count, weight * (edges + len(path) + 1), weight * seconds))
        print(
            f"# sample {s + 1}: {' '.join(path)}: {count} solutions, {edges} edges, "
            f"{seconds:.1f} s CPU; weight {weight}",
            flush=True,
        )
    for what, column in zip(("solutions", "edges", "CPU s"), zip(*rows, strict=True), strict=True):
        mean = statistics.fmean(column)
        error = statistics.stdev(column) / len(column) ** 0.5 if len(column) > 1 else float("nan")
        print(f"{what}: {mean:.4g} +- {error:.2g} (estimate of the total, one standard error)")


if __name__ == "__main__":
    main()
