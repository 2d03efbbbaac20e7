"""Every kernel on one suite of problems: seconds, nodes, ``auto``'s choice, Knuth beside.

For each case the script counts the problem with every kernel of ``dlx.ENGINE_CHOICES``
that takes it (a kernel that refuses it shows "-"), then with ``auto``, interleaved
(each kernel once, then again, ``--runs`` times), warm (each kernel has counted the
problem once before the clock starts, which compiles it or loads it from numba's
cache), on one core; the seconds are the median CPU time of the ``dlx.count`` calls.
A case that takes less than ``MIN_TIMING`` is counted again and again until its timing
has run that long, its time the mean (as ``timeit``'s autorange: a millisecond count
is otherwise at the mercy of one page fault or collection).
Every count is asserted against the case's known count (its source is named with the
case). With ``--knuth DIR`` (a folder holding Knuth's ``dlx1`` and ``ssxcc``) each
problem is also written as a ``.dlx`` file and timed with both (CPU seconds from start
to exit), in the same rounds; the ratio column is seconds / SSXCC's.

    python scripts/bench_kernels.py --quick                 # a subset, under a minute
    python scripts/bench_kernels.py --runs 3 --knuth DIR    # the whole suite
    python scripts/bench_kernels.py --only queens13 --runs 5
    python scripts/bench_kernels.py --quick --fresh         # layouts in the counts' time

A problem is built once and counted again and again, so that a kernel's layout is
built at its first count only; ``--fresh`` counts problems built afresh (outside the
timing), as a command does, so that each kernel's layout and ``auto``'s line-up are in
its time.

The sudoku case counts each of the first 200 forum-hardest puzzles (to 2 solutions:
solved and proved unique) as its own ``dlx.count`` with the givens forced; its seconds
are those of all 200 (Knuth's programs are not run on it: 200 process starts).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's packages

from knuth import PROGRAMS as KNUTH  # noqa: E402  (this script's folder)
from knuth import timed as knuth_timed  # noqa: E402

import dlx  # noqa: E402
from puzzles import sudoku  # noqa: E402
from puzzles.polyform import tiling  # noqa: E402
from puzzles.queens import queens  # noqa: E402

KERNELS = tuple(name for name in dlx.ENGINE_CHOICES if name != "auto")
MIN_TIMING = 0.05  # CPU seconds of one timing at least (see the module)


@dataclass
class Case:
    """A benchmark case: its counts (each a problem, forced options, a limit), the total
    count expected and where that number comes from."""

    name: str
    jobs: list = field(repr=False)  # [(problem, forced, limit)]
    expected: int
    source: str


def tiling_case(
    name: str, board, pieces: str, expected: int, source: str, symmetry=True, lattice=None
):
    """A polyform tiling, symmetry broken as ``python -m puzzles polyform`` does."""
    puzzle = tiling.make_puzzle(board, pieces, lattice=lattice)
    plan = tiling.plan_symmetry(puzzle, fallback=True) if symmetry else None
    return Case(name, [(tiling.build(puzzle, plan), (), None)], expected, source)


def long_hexagon() -> frozenset:
    """The 4x10 long hexagon of triangles (Polyform Puzzler's Hexiamonds4x10LongHexagon:
    0 <= x < 10, 0 <= y < 4, 1 < x + y + z <= 11)."""
    return frozenset(
        (x, y, z) for x in range(10) for y in range(4) for z in range(2) if 1 < x + y + z <= 11
    )


def latin(n: int) -> dlx.Problem:
    """Latin squares of order n: each cell one symbol, each symbol once per row and column."""
    cells = [f"{r}{c}" for r in range(n) for c in range(n)]
    rows = [f"r{r}{s}" for r in range(n) for s in range(n)]
    columns = [f"c{c}{s}" for c in range(n) for s in range(n)]
    p = dlx.Problem(primary=cells + rows + columns)
    for r in range(n):
        for c in range(n):
            for s in range(n):
                p.add_option([f"{r}{c}", f"r{r}{s}", f"c{c}{s}"])
    return p


def random_xcc(seed: int, primary: int, secondary: int, options: int) -> dlx.Problem:
    """Random XCC: each option 1 to 3 primary items and 1 to 3 secondary items, each of
    those with one of 3 colours (fixed seed: the same problem on every run)."""
    rng = random.Random(seed)
    names = [f"p{k}" for k in range(primary)]
    colours = [f"s{k}" for k in range(secondary)]
    p = dlx.Problem(primary=names, secondary=colours)
    for _ in range(options):
        items = rng.sample(names, rng.randint(1, 3))
        items += [f"{s}:{rng.choice('xyz')}" for s in rng.sample(colours, rng.randint(1, 3))]
        p.add_option(items)
    return p


def sudoku_case(n: int) -> Case:
    """The first ``n`` forum-hardest sudokus, each counted to 2 with its givens forced."""
    text = (ROOT / "data/sudoku/forum_hardest_1106.txt").read_text()
    puzzles = sudoku.parse_all(text)[:n]
    jobs = [(sudoku.build(s), sudoku.forced(s), 2) for s in puzzles]
    return Case(f"sudoku{n}", jobs, n, "each has one solution (the list's own claim)")


PP = "Polyform Puzzler (github.com/tiwo/puzzler), puzzler/puzzles/"
CASES = {
    "6x10": lambda: tiling_case(
        "6x10", "6x10", "pentominoes", 2339, "2,339 distinct: " + PP + "pentominoes.py"
    ),
    "8x8+O": lambda: tiling_case(
        "8x8+O", "8x8", "pentominoes,O4", 16146, "129,168 all / 8: README, the main job"
    ),
    "8x8+O-all": lambda: tiling_case(
        "8x8+O-all", "8x8", "pentominoes,O4", 129168, "README, the main job", symmetry=False
    ),
    "3x4x5": lambda: tiling_case(
        "3x4x5",
        "3x4x5",
        "solid-pentominoes",
        4036,
        "the restricted problem's count; puzzles.polyform reduces it to 3,940 distinct: "
        + PP
        + "solid_pentominoes.py (tests/test_polyform.py)",
    ),  # fmt: skip
    "bedlam": lambda: tiling_case(
        "bedlam",
        "4x4x4",
        str(ROOT / "data/polyform/bedlam_pieces.txt"),
        19186,
        "19,186 up to rotation: Simon Tatham's bedlam.c (github.com/rdebath/sgt, puzzles/bedlam.c)",
        lattice="cubic",
    ),  # fmt: skip
    "tetrasticks": lambda: tiling_case(
        "tetrasticks", "5x5", "tetrasticks,-H", 72, "72 omitting H: " + PP + "tetrasticks.py"
    ),
    "hexiamonds": lambda: tiling_case(
        "hexiamonds",
        long_hexagon(),
        "hexiamonds",
        856,
        "856: " + PP + "hexiamonds.py, Hexiamonds4x10LongHexagon",
    ),  # fmt: skip
    "tetrahexes": lambda: tiling_case(
        "tetrahexes", "7x4", "tetrahexes", 9, "9: " + PP + "tetrahexes.py, Tetrahexes4x7"
    ),
    "one-sided3x30": lambda: tiling_case(
        "one-sided3x30",
        "3x30",
        "one-sided-pentominoes",
        46,
        "46: " + PP + "pentominoes.py, OneSidedPentominoes3x30",
    ),  # fmt: skip
    "queens13": lambda: Case("queens13", [(queens(13), (), None)], 73712, "OEIS A000170"),
    "queens15": lambda: Case("queens15", [(queens(15), (), None)], 2279184, "OEIS A000170"),
    "latin5": lambda: Case("latin5", [(latin(5), (), None)], 161280, "OEIS A002860"),
    "xcc-colours": lambda: Case(
        "xcc-colours", [(random_xcc(25, 40, 12, 340), (), None)], 714554, "Knuth's SSXCC, this seed"
    ),
    "sudoku200": lambda: sudoku_case(200),
}
QUICK = ("6x10", "tetrasticks", "hexiamonds", "tetrahexes", "queens13", "latin5", "xcc-colours")
HEAVY = ("8x8+O-all",)  # one run each, whatever --runs says


def cpu_count(case: Case, engine: str, fresh=None):
    """(CPU seconds, nodes, count, the kernel that ran) of the case's counts (seconds:
    the mean of as many rounds as take ``MIN_TIMING``), or None when the kernel refuses
    a problem of it. ``fresh``: the case's maker, to count problems built afresh each
    round (built outside the timing): every layout is then in the count's time."""
    seconds = rounds = 0
    while seconds < MIN_TIMING:
        if fresh is not None:
            case = fresh()
        nodes = found = 0
        ran = set()
        for problem, forced, limit in case.jobs:
            t0 = time.process_time()
            try:
                result = dlx.count(problem, limit, forced=forced, engine=engine)
            except (ValueError, dlx.ProblemError):
                return None
            seconds += time.process_time() - t0
            nodes += result.stats.nodes
            found += result.solutions
            ran.add(getattr(result.stats, "engine", engine).split(" ")[0])
        rounds += 1
    return seconds / rounds, nodes, found, "/".join(sorted(ran))


def warm(case: Case) -> list[str]:
    """Count each problem's start with every kernel (compiled or loaded before timing);
    the kernels that take the case."""
    takes = []
    for engine in KERNELS:
        try:
            for problem, forced, _ in case.jobs[:1]:
                dlx.count(problem, 1, forced=forced, engine=engine, node_limit=100)
            takes.append(engine)
        except (ValueError, dlx.ProblemError):
            pass
    return takes


def bench(case: Case, runs: int, knuth: Path | None, scratch: Path, fresh=None) -> None:
    """Time one case and print its lines (``fresh``: see ``cpu_count``)."""
    takes = warm(case)
    runs = 1 if case.name in HEAVY else runs
    timings: dict[str, list] = {name: [] for name in [*takes, "auto"]}
    dlx_file = None
    if knuth is not None and len(case.jobs) == 1 and not case.jobs[0][1]:
        dlx_file = scratch / f"{case.name}.dlx"
        text = dlx.write(case.jobs[0][0])
        dlx_file.write_text(text)
        coloured = ":" in text.split("\n", 1)[1]  # DLX1 takes no colours
        timings.update({p: [] for p in KNUTH if not (coloured and p == "dlx1")})
    for _ in range(runs):
        for name in timings:
            if name in KNUTH:
                s, n, c = knuth_timed(knuth / name, dlx_file)
                timings[name].append((s, n, c, name))
            else:
                timings[name].append(cpu_count(case, name, fresh))
    for name, results in timings.items():
        counts = {r[2] for r in results}
        assert counts == {case.expected}, f"{case.name}, {name}: {counts} != {case.expected}"
    seconds = {name: statistics.median(r[0] for r in rs) for name, rs in timings.items()}
    reference = seconds.get("ssxcc")
    best = min(seconds[name] for name in takes)
    cells = []
    for name in [*KERNELS, "auto", *KNUTH]:
        if name not in seconds:
            cells.append(f"{name} {'-':>8}" if name in KERNELS or dlx_file else "")
            continue
        ratio = f" ({seconds[name] / reference:4.2f})" if reference else ""
        nodes = timings[name][0][1]
        picked = (
            f" [{timings[name][-1][3]}] /best {seconds[name] / best:4.2f}" if name == "auto" else ""
        )
        cells.append(f"{name} {_seconds(seconds[name])} {nodes:>12,}{ratio}{picked}")
    print(f"{case.name:14} {case.expected:>9,}  " + "  ".join(c for c in cells if c), flush=True)


def _seconds(s: float) -> str:
    """Seconds, in milliseconds under 0.01 s (three decimals say nothing there)."""
    return f"{s:8.3f} s" if s >= 0.01 else f"{s * 1e3:7.3f} ms"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a subset: " + " ".join(QUICK))
    parser.add_argument("--only", nargs="+", choices=sorted(CASES), metavar="NAME")
    parser.add_argument("--knuth", type=Path, metavar="DIR", help="where dlx1 and ssxcc are")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="each count on its problem built afresh (layouts timed)",
    )
    args = parser.parse_args(argv)
    names = args.only or (QUICK if args.quick else list(CASES))
    print(f"load average before: {os.getloadavg()}; kernels: {', '.join(KERNELS)}")
    print("seconds: median CPU of --runs counts, warm (ratio to SSXCC in parentheses)")
    with tempfile.TemporaryDirectory(prefix="bench_kernels_") as scratch:
        for name in names:
            fresh = CASES[name] if args.fresh else None
            bench(CASES[name](), args.runs, args.knuth, Path(scratch), fresh)
    print(f"load average after: {os.getloadavg()} ({time.strftime('%H:%M')})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
