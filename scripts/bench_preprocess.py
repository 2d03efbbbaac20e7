"""Does preprocessing (``dlx.preprocess``, Knuth's DLX-PRE rules) pay before a count?

    python scripts/bench_preprocess.py --rounds 5
    python scripts/bench_preprocess.py --rounds 5 --engine tight --files pent6x10_sym

For each file (``data/dlx`` by default, more with ``--extra FILE.dlx``), one process
alternates, round by round, a warm ``dlx.count`` of the problem freshly read (A) and
``dlx.preprocess`` of it followed by a count of the reduced problem (B), each on one
core (a plain serial count); both include laying the problem out for the kernel, as
the command does, and not the reading. CPU seconds (``time.process_time``: steadier
than wall time on a shared machine), medians over the rounds; B's preprocessing alone
beside it. The counts must agree. The last column is B/A: below 1, preprocessing paid.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import dlx

ROOT = Path(__file__).resolve().parent.parent
FILES = [
    "pent3x20_all",
    "pent3x20_sym",
    "pent4x15_sym",
    "pent5x12_sym",
    "pent6x10_sym",
    "scott_sym",
    "sudoku_escargot",
    "sudokuk_escargot",
]


def cpu(function, *arguments, **keywords):
    """(result, CPU seconds) of ``function(*arguments, **keywords)``."""
    started = time.process_time()
    result = function(*arguments, **keywords)
    return result, time.process_time() - started


def measure(text: str, rounds: int, engine: str):
    """Medians of (A: count, B: preprocess + count, B's preprocessing), the count, the
    engines that ran and what preprocessing removed."""
    dlx.count(dlx.parse(text), limit=1, engine=engine)  # the kernels loaded untimed
    reduced, reduction = dlx.preprocess(dlx.parse(text))
    dlx.count(reduced, limit=1, engine=engine)
    plain, whole, pre = [], [], []
    for _ in range(rounds):
        problem = dlx.parse(text)
        a, seconds_a = cpu(dlx.count, problem, engine=engine)
        problem = dlx.parse(text)
        (reduced, reduction), seconds_pre = cpu(dlx.preprocess, problem)
        b, seconds_b = cpu(dlx.count, reduced, engine=engine)
        if a.solutions != b.solutions:
            raise SystemExit(f"counts differ: {a.solutions} and {b.solutions}")
        plain.append(seconds_a)
        whole.append(seconds_pre + seconds_b)
        pre.append(seconds_pre)
    medians = [statistics.median(x) for x in (plain, whole, pre)]
    engines = tuple(str(r.stats.engine).split()[0] for r in (a, b))
    return medians, a.solutions, engines, reduction


def main(argv=None) -> None:
    """Print one line a file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--engine", default="auto")
    parser.add_argument("--files", nargs="*", default=FILES, help="names in data/dlx")
    parser.add_argument("--extra", nargs="*", default=[], type=Path, help="more .dlx files")
    args = parser.parse_args(argv)
    paths = [ROOT / "data" / "dlx" / f"{name}.dlx" for name in args.files] + args.extra
    print(
        f"{'file':20} {'solutions':>10} {'-opts':>6} {'A count s':>10} {'B pre+count':>12}"
        f" {'pre s':>7} {'B/A':>6}  engines A, B"
    )
    for path in paths:
        text = path.read_text()
        (a, b, pre), solutions, engines, reduction = measure(text, args.rounds, args.engine)
        print(
            f"{path.stem:20} {solutions:>10} {len(reduction.options_removed):>6} {a:>10.3f}"
            f" {b:>12.3f} {pre:>7.3f} {b / a if a else float('nan'):>6.2f}"
            f"  {engines[0]}, {engines[1]}"
        )


if __name__ == "__main__":
    main()
