"""Estimate a certificate's size from a random sample of its parts (Knuth's estimator).

    python scripts/certificate_estimate.py p910.dlx --samples 12 --seed 1

A sample takes a random option V of the split item (the primary item with the fewest
options, as ``--certificate`` splits) and, in the problem left, a random option V2 of a
second item (``--second``, default: the item with the fewest options left), and builds
the solution graph of what is left then. Weighted by the number of choices at each step,
its solutions, edges and CPU seconds are unbiased estimates of the totals of a
certificate split two levels deep (which holds at least the edges of one split one level
deep: parts share less); the solutions' estimate, set against a known count, tells how
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
    parser.add_argument("--second", default=None, help="the second level's item")
    parser.add_argument("--max-graph-nodes", type=int, default=None)
    args = parser.parse_args()
    problem, rng = dlx.read(args.file), random.Random(args.seed)
    item, first = options_of(problem, None)
    print(f"# {args.file}: {problem.n_options} options; split {item}: {len(first)} parts")
    rows = []
    for s in range(args.samples):
        k = rng.choice(first)
        left = taken(problem, k)
        second, choices = options_of(left, args.second)
        if not choices:
            rows.append((0.0, 0.0, 0.0))
            continue
        rest, started = taken(left, rng.choice(choices)), time.process_time()
        if rest.primary:
            g = dlx.graph(rest, max_nodes=args.max_graph_nodes)
            count, edges = g.count, g.stats.edges
        else:  # nothing left to cover: one solution
            count, edges = 1, 0
        seconds, weight = time.process_time() - started, len(first) * len(choices)
        rows.append((weight * count, weight * (edges + 2), weight * seconds))
        print(
            f"# sample {s + 1}: {problem.option_name(k) or k + 1}, then {second} "
            f"({len(choices)} options): {count} solutions, {edges} edges, "
            f"{seconds:.1f} s CPU; weight {weight}",
            flush=True,
        )
    for what, column in zip(("solutions", "edges", "CPU s"), zip(*rows, strict=True), strict=True):
        mean = statistics.fmean(column)
        error = statistics.stdev(column) / len(column) ** 0.5 if len(column) > 1 else float("nan")
        print(f"{what}: {mean:.4g} +- {error:.2g} (estimate of the total, one standard error)")


if __name__ == "__main__":
    main()
