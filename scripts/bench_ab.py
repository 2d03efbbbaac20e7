"""Compare the engine of two checkouts side by side: the same counts, alternating.

    git worktree add /tmp/before main
    python scripts/bench_ab.py /tmp/before . --rounds 5
    python scripts/bench_ab.py /tmp/before . --rounds 7 --one-process

Each round runs, in a fresh process per checkout (the order alternating from round to
round), warm ``dlx.count`` of the pentomino rectangles and sudokus of ``data/dlx`` and
the main job (8x8 with the 12 pentominoes and the 2x2 square, symmetry broken X:P),
and records the CPU seconds of each count (steadier than wall time on a shared
machine). Prints the medians and minima per checkout and their ratios (after/before).

``--one-process``: the same counts in one process instead, the old package copied to a
temporary ``dlx_before`` (its imports renamed) beside this checkout's ``dlx``, the two
alternating count by count (steadier: no difference between processes).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ["pent3x20_sym", "pent4x15_sym", "pent5x12_sym", "pent6x10_sym", "sudoku_escargot"]
CODE = r"""
import json, sys, time
from pathlib import Path
import dlx
data = Path(sys.argv[1])
runs = int(sys.argv[2])
out = {}
def timed(name, problem, runs):
    dlx.count(problem, limit=1)  # load the kernel outside the timing
    out[name] = []
    for _ in range(runs):
        c0 = time.process_time()
        dlx.count(problem)
        out[name].append(time.process_time() - c0)
for name in sys.argv[4:]:
    timed(name, dlx.parse((data / f"{name}.dlx").read_text()), runs)
if sys.argv[3] == "1":
    from puzzles import polyomino
    z = polyomino.make_puzzle("8x8", "pentominoes", ["O"])
    text = dlx.write(polyomino.build(z, polyomino.plan_symmetry(z, "X", "P")))
    timed("main 8x8+O X:P", dlx.parse(text), max(1, runs // 2))
print(json.dumps(out))
"""


def run_once(checkout: Path, runs: int, main_job: bool) -> dict[str, list[float]]:
    """CPU seconds of each count in a fresh process of ``checkout``."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    command = [sys.executable, "-c", CODE, str(ROOT / "data" / "dlx"), str(runs)]
    command += ["1" if main_job else "0", *FILES]
    out = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{checkout}: {out.stderr.strip().splitlines()[-1]}")
    return json.loads(out.stdout)


def one_process(before: Path, rounds: int, runs: int, main_job: bool) -> dict:
    """CPU seconds of each count, both packages in this process, alternating."""
    import tempfile
    import time

    import dlx

    folder = Path(tempfile.mkdtemp())
    copy = folder / "dlx_before"
    copy.mkdir()
    for source in (before / "dlx").glob("*.py"):
        text = source.read_text()
        text = text.replace("from dlx.", "from dlx_before.").replace(
            "from dlx import", "from dlx_before import"
        )
        (copy / source.name).write_text(text)
    sys.path.insert(0, str(folder))
    import dlx_before

    texts = {name: (ROOT / "data" / "dlx" / f"{name}.dlx").read_text() for name in FILES}
    if main_job:
        from puzzles import polyomino

        z = polyomino.make_puzzle("8x8", "pentominoes", ["O"])
        texts["main 8x8+O X:P"] = dlx.write(
            polyomino.build(z, polyomino.plan_symmetry(z, "X", "P"))
        )
    seconds: dict = {"before": {}, "after": {}}
    for bench, text in texts.items():
        problems = {"before": (dlx_before, dlx_before.parse(text)), "after": (dlx, dlx.parse(text))}
        for module, problem in problems.values():
            module.count(problem, limit=1)
        repeats = rounds * (runs if not bench.startswith("main") else 1)
        for r in range(repeats):
            for name in ("before", "after") if r % 2 == 0 else ("after", "before"):
                module, problem = problems[name]
                c0 = time.process_time()
                module.count(problem)
                seconds[name].setdefault(bench, []).append(time.process_time() - c0)
    return seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the checkout to compare against")
    parser.add_argument("after", type=Path, help="the checkout under test")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3, help="counts per file and round")
    parser.add_argument("--no-main", action="store_true", help="leave the main job out")
    parser.add_argument("--one-process", action="store_true", help="both in this process")
    args = parser.parse_args(argv)
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    seconds: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    if args.one_process:
        sys.path.insert(0, str(trees["after"]))
        seconds = one_process(trees["before"], args.rounds, args.runs, not args.no_main)
    for r in range(0 if args.one_process else args.rounds):
        order = list(trees) if r % 2 == 0 else list(trees)[::-1]
        for name in order:
            for bench, times in run_once(trees[name], args.runs, not args.no_main).items():
                seconds[name].setdefault(bench, []).extend(times)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    print(f"CPU seconds, {args.rounds} rounds of {args.runs} counts; ratio = after / before")
    header = ("count", "before", "after", "ratio", "min before", "min after")
    print("{:18} {:>8} {:>8} {:>6} {:>10} {:>10}".format(*header))
    median = statistics.median
    for bench, before in seconds["before"].items():
        after = seconds["after"][bench]
        print(
            f"{bench:18} {median(before):8.3f} {median(after):8.3f} "
            f"{median(after) / median(before):6.3f} {min(before):10.3f} {min(after):10.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
