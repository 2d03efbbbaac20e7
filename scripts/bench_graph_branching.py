"""The solution graph's branching rules against each other (and the tight count): CPU, interleaved.

    python scripts/bench_graph_branching.py --dlx p910.dlx --samples 10 --depth 4 --seed 1
    python scripts/bench_graph_branching.py --cases oriented-rectangles:7 oblongs:7 pent6x10

A case is a random subproblem of a ``.dlx`` file, ``--depth`` options deep, drawn as
``scripts/certificate_estimate.py`` draws them (same seed, same subproblems), or a named
problem: ``RULE:N`` (``puzzles.rectangles``, the N x N board) or ``pentWxH`` (the
pentominoes, symmetry broken). Each round builds every case with each rule in turn (the
order alternating from round to round) and counts it with the tight kernel, in one
process, warm; the counts must agree. Prints each case's median CPU seconds per rule,
the subproblems entered and edges, then the totals and the ratios to ``cell`` and to
the tight count.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from certificate_estimate import options_of, taken

import dlx
from puzzles import rectangles
from puzzles.polyform import tiling

RULES = ("cell", "fewest")


def named(name: str) -> dlx.Problem:
    """A named problem (see the module's docstring)."""
    if name.startswith("pent"):
        z = tiling.make_puzzle(name[4:], "pentominoes")
        return tiling.build(z, tiling.plan_symmetry(z))
    rule, n = name.rsplit(":", 1)
    return rectangles.build(rectangles.make_puzzle(int(n), rule))


def sampled(path: str, samples: int, depth: int, seed: int) -> list[tuple[str, dlx.Problem]]:
    """The subproblems ``scripts/certificate_estimate.py`` builds (the same draws)."""
    problem, rng = dlx.read(path), random.Random(seed)
    item, _ = options_of(problem, None)
    cases = []
    for s in range(samples):
        left, path_taken, choices = problem, [], [0]
        for _ in range(depth):
            _, choices = options_of(left, None if path_taken else item)
            if not choices or not left.primary:
                break
            k = rng.choice(choices)
            path_taken.append(left.option_name(k) or str(k))
            left = taken(left, k)
        if choices and left.primary:
            cases.append((f"sample {s + 1}", left))
    return cases


def measure(problem: dlx.Problem, rule: str) -> tuple[float, int, int, int]:
    """CPU seconds, count, edges and subproblems entered of one build (``tight``: a count)."""
    started = time.process_time()
    if rule == "tight":
        count = dlx.count(problem, engine="tight")
        return time.process_time() - started, count, 0, 0
    g = dlx.graph(problem, branching=rule)
    return time.process_time() - started, g.count, g.stats.edges, g.stats.visited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dlx", default=None)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", nargs="*", default=[])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-tight", action="store_true")
    args = parser.parse_args()
    cases = [(name, named(name)) for name in args.cases]
    if args.dlx:
        cases += sampled(args.dlx, args.samples, args.depth, args.seed)
    rules = [*RULES] if args.no_tight else [*RULES, "tight"]
    dlx.graph(named("oblongs:4"), branching="fewest")
    dlx.graph(named("oblongs:4"))
    dlx.count(named("oblongs:4"), engine="tight")
    times = {(c, r): [] for c, _ in cases for r in rules}
    sizes = {}
    for round_ in range(args.rounds):
        for name, problem in cases:
            counts = set()
            for rule in rules if round_ % 2 == 0 else rules[::-1]:
                cpu, count, edges, entered = measure(problem, rule)
                times[name, rule].append(cpu)
                counts.add(count)
                if rule != "tight":
                    sizes[name, rule] = (edges, entered)
            assert len(counts) == 1, f"{name}: counts differ {counts}"
            print(f"# round {round_ + 1} {name}: {counts.pop()} solutions; " + ", ".join(
                f"{r} {times[name, r][-1]:.2f} s" for r in rules), flush=True)  # fmt: skip
    total = dict.fromkeys(rules, 0.0)
    for name, _ in cases:
        row = []
        for rule in rules:
            median = statistics.median(times[name, rule])
            total[rule] += median
            extra = "" if rule == "tight" else " ({} edges, {} entered)".format(*sizes[name, rule])
            row.append(f"{rule} {median:.3f} s{extra}")
        print(f"{name}: " + "; ".join(row))
    print("total (medians): " + ", ".join(f"{r} {total[r]:.2f} s" for r in rules))
    print(f"fewest / cell: {total['fewest'] / total['cell']:.3f}")
    if "tight" in total:
        print(", ".join(f"{r} / tight: {total[r] / total['tight']:.2f}" for r in RULES))


if __name__ == "__main__":
    main()
