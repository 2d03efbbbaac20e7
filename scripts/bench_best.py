"""``dlx.best`` against Knuth's DLX5 on a suite of problems whose options have costs.

    python scripts/bench_best.py --dlx5 PATH/TO/dlx5 [--out DIR] [--repeat 3]

The suite: n queens with random costs (0 to 99 an option), pentomino rectangles with a
random cost per placement (0 to 9), and random XCC problems with colours (costs 0 to
20), each asked for its k best for a few k. Each problem is written as a ``.dlx`` file
(``dlx.write(..., knuth=True)``, so DLX5 reads it) into ``--out``, read back with
``dlx.read``, then searched by both; times are CPU seconds, the median of ``--repeat``
runs (DLX5's from start to exit, reading included; ours of ``dlx.best`` alone, after a
first call that compiles the kernel). Prints one line a case and whether the two lists
of costs agree; exits 1 when one does not. Without ``--dlx5`` it times ours alone.
Every solution ``dlx.best`` returns is checked with ``dlx.check``.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import dlx

PENTOMINO_ROWS = {6: 10, 5: 12, 4: 15}  # rectangles of 60 cells


def queens(n: int, seed: int) -> dlx.Problem:
    """n queens (rows and columns primary, diagonals secondary), each placement a
    random cost from 0 to 99."""
    rng = random.Random(seed)
    rows, cols = [f"r{i}" for i in range(n)], [f"c{j}" for j in range(n)]
    diagonals = [f"a{d}" for d in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)]
    p = dlx.Problem(primary=rows + cols, secondary=diagonals)
    for i in range(n):
        for j in range(n):
            p.add_option(
                [f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"], cost=rng.randint(0, 99)
            )
    return p


def pentominoes(height: int, seed: int) -> dlx.Problem:
    """The 12 pentominoes in a height x (60 / height) rectangle (every placement), each
    placement a random cost from 0 to 9."""
    from puzzles import polyomino

    rng = random.Random(seed)
    width = PENTOMINO_ROWS[height]
    plain = polyomino.build(polyomino.make_puzzle(f"{height}x{width}", "pentominoes"))
    p = dlx.Problem(primary=plain.primary, secondary=plain.secondary)
    for k in range(plain.n_options):
        p.add_option(plain.option(k), cost=rng.randint(0, 9))
    return p


def random_xcc(seed: int, n_primary: int = 14, n_secondary: int = 6) -> dlx.Problem:
    """A random problem with colours: options of 1 to 3 primary items and 0 to 2
    secondary ones (colour a, b or none), costs 0 to 20."""
    rng = random.Random(seed)
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    p = dlx.Problem(primary=primary, secondary=secondary)
    for _ in range(6 * n_primary):
        items = rng.sample(primary, rng.randint(1, 3))
        for name in rng.sample(secondary, rng.randint(0, 2)):
            colour = rng.choice(["a", "b", None])
            items.append(name if colour is None else f"{name}:{colour}")
        p.add_option(items, cost=rng.randint(0, 20))
    return p


def suite() -> list[tuple[str, dlx.Problem, int]]:
    """(name, problem, k) of every case."""
    cases = []
    for n, seed in ((8, 1), (10, 2), (12, 3)):
        for k in (1, 3, 10):
            cases.append((f"queens{n}-s{seed}", queens(n, seed), k))
    cases.append(("queens8-s1", queens(8, 1), 100))  # more than its 92 solutions
    for height, seed in ((6, 4), (5, 5)):
        for k in (1, 3):
            cases.append(
                (f"pent{height}x{PENTOMINO_ROWS[height]}-s{seed}", pentominoes(height, seed), k)
            )
    for seed in range(6, 12):
        for k in (1, 5, 1000):
            cases.append((f"xcc-s{seed}", random_xcc(seed), k))
    return cases


def run_dlx5(program: str, path: Path, k: int) -> tuple[float, list[int]]:
    """(CPU seconds, the k best costs) of one run of DLX5 (its list on stderr)."""
    with path.open() as given:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [program, f"k{k}"],
            stdin=given,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"{program} on {path}: {done.stderr.strip()[-200:]}")
    costs: list[int] = []
    listing = done.stderr.partition("The optimum cost")[2]
    for cost, repeated in re.findall(r"\$(\d+)(?: \(repeated (\d+) times\))?", listing):
        costs.extend([int(cost)] * int(repeated or 1))
    return seconds, costs


def run_ours(problem: dlx.Problem, k: int) -> tuple[float, dlx.Best]:
    """(CPU seconds, result) of one ``dlx.best``."""
    start = time.process_time()
    result = dlx.best(problem, k)
    return time.process_time() - start, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dlx5", default=None, help="Knuth's dlx5 program")
    parser.add_argument(
        "--out", default=None, help="where the .dlx files go (default: a temporary folder)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs a case, the median timed")
    args = parser.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix="bench_best_"))
    out.mkdir(parents=True, exist_ok=True)
    run_ours(queens(4, 0), 1)  # compiles the kernel (or loads it from numba's cache)
    print(f"{'case':<16} {'k':>5} {'ours s':>8} {'dlx5 s':>8} {'nodes':>9}  agree  costs")
    disagreements = 0
    for name, problem, k in suite():
        path = out / f"{name}.dlx"
        path.write_text(dlx.write(problem, f"{name}: scripts/bench_best.py", knuth=True))
        problem = dlx.read(path)
        ours = [run_ours(problem, k) for _ in range(args.repeat)]
        result = ours[0][1]
        for solution, cost in zip(result.solutions, result.costs, strict=True):
            dlx.check(problem, solution)
            assert cost == sum(problem.option_cost(o) for o in solution)
        ours_s = statistics.median(s for s, _ in ours)
        theirs_s, agree = float("nan"), "-"
        if args.dlx5:
            theirs = [run_dlx5(args.dlx5, path, k) for _ in range(args.repeat)]
            theirs_s = statistics.median(s for s, _ in theirs)
            same = list(result.costs) == theirs[0][1]
            agree = "yes" if same else "NO"
            disagreements += not same
            if not same:
                print(f"  dlx5: {theirs[0][1][:12]}")
        shown = " ".join(map(str, result.costs[:6])) + (" ..." if len(result.costs) > 6 else "")
        print(
            f"{name:<16} {k:>5} {ours_s:>8.3f} {theirs_s:>8.3f} {result.nodes:>9}  {agree:<5}  "
            f"{len(result.costs)}: {shown}"
        )
    print(f"files in {out}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    raise SystemExit(main())
