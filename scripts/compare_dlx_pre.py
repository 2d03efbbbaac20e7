"""``dlx.preprocess`` beside Knuth's DLX-PRE: the options and items each leaves.

Every case is a problem written by one of Knuth's generators (queens-dlx,
de-bruijn-dlx, windmill-dominoes-dlx, macmahon-triangles-dlx, polyomino-dlx,
polyiamond-dlx, sudoku-dlx; the inputs are given below) or a ``.dlx`` file of
``data/dlx``. Both preprocess it; the items they keep (primary and secondary, as sets)
and the options they keep (as multisets of option lines: an option's items in its
order) must be the same. One line of a table a case.

Nothing of Knuth's is in this project: ``--knuth DIR`` names a folder holding his
``dlx-pre`` and ``--generators DIR`` one holding his generators, built from a snapshot
of his CWEB programs (``ascherer/cwebtest``: ``ctangle`` then ``gcc``).

    python scripts/compare_dlx_pre.py --knuth KNUTH_BIN --generators GEN_BIN
    python scripts/compare_dlx_pre.py ... --write-expected data/dlxpre  # the test's files

``--write-expected DIR`` also writes, for the small cases the test keeps
(``tests/test_preprocess.py``), the input as ``NAME.dlx`` and DLX-PRE's output as
``NAME.pre``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import dlx

ROOT = Path(__file__).resolve().parent.parent

PENTOMINOES = """F 01 02 10 11 21
I 00 01 02 03 04
L 00 01 02 03 10
N 00 01 02 12 13
P 00 01 02 10 11
T 00 10 20 11 12
U 00 01 11 21 20
V 00 01 02 10 20
W 00 10 11 21 22
X 10 01 11 21 12
Y 00 01 02 03 11
Z 00 10 11 12 22
"""
TETRIAMONDS = """T1 00 00' 10 01
T2 00 00' 10 01
I1 00 00' 10 10'
I2 00 00' 10 10'
C1 00 00' 01 01'
C2 00 00' 01 01'
"""
SUDOKU = {
    "wikipedia": "53..7....|6..195...|.98....6.|8...6...3|4..8.3..1|7...2...6|.6....28.|...419..5"
    "|....8..79",
    "eastermonster": "1.......2|.9.4...5.|..6...7..|.5.9.3...|....7....|...85..4.|7.....6..|"
    ".3...9.8.|..2.....1",
    "sparse": "53..7....|6...9....|.98......|8...6....|4..8.....|7...2....|.6.......|...4.....|"
    "....8....",
}


def _pentomino_box(m: int, n: int) -> str:
    """polyomino-dlx's box line for an m x n rectangle (digits 0-9a-z)."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    return f"[0-{digits[m - 1]}][0-{digits[n - 1]}]"


HEXAGON = ["00+", "10", "10+", "01", "01+", "11"]  # macmahon-triangles-dlx's own example

# name, generator, arguments, standard input
CASES = [
    *((f"queens{n}", "queens-dlx", [str(n)], None) for n in (6, 8, 10, 13)),
    *(
        (f"debruijn{p}{q}{n}", "de-bruijn-dlx", [str(p), str(q), str(n)], None)
        for p, q, n in ((1, 2, 4), (0, 2, 5), (1, 3, 6), (2, 3, 6), (1, 5, 6), (2, 5, 7))
    ),
    *(
        (f"windmill{m}x{n}", "windmill-dominoes-dlx", [str(m), str(n)], None)
        for m, n in ((2, 3), (3, 4), (4, 4), (4, 5))
    ),  # fmt: skip
    ("macmahon_hexagon", "macmahon-triangles-dlx", HEXAGON, None),
    *(
        (f"pent{m}x{n}", "polyomino-dlx", [], _pentomino_box(m, n) + "\n" + PENTOMINOES)
        for m, n in ((3, 20), (4, 15), (5, 12), (6, 10))
    ),
    (
        "pent8x8_O",
        "polyomino-dlx",
        [],
        _pentomino_box(8, 8) + "\n" + PENTOMINOES + "O 00 01 10 11\n",
    ),
    ("tetriamonds3x4", "polyiamond-dlx", [], "[0-2][0-3] [0-2][0-3]'\n" + TETRIAMONDS),
    ("tetriamonds2x6", "polyiamond-dlx", [], "[0-1][0-5] [0-1][0-5]'\n" + TETRIAMONDS),
    *((f"sudoku_{k}", "sudoku-dlx", [], v.replace("|", "\n") + "\n") for k, v in SUDOKU.items()),
]
KEPT = ("queens6", "debruijn124", "windmill2x3", "tetriamonds3x4", "sudoku_sparse")


def generate(generators: Path, program: str, arguments, stdin) -> str:
    """What a generator of Knuth's writes."""
    done = subprocess.run(
        [str(generators / program), *arguments], input=stdin, capture_output=True, text=True
    )
    if done.returncode != 0 or not done.stdout:
        raise SystemExit(f"{program} {' '.join(arguments)} failed: {done.stderr.strip()}")
    return done.stdout


def knuth_preprocess(knuth: Path, text: str) -> tuple[str, str]:
    """DLX-PRE's output and its summary line."""
    done = subprocess.run([str(knuth / "dlx-pre")], input=text, capture_output=True, text=True)
    summary = [line for line in done.stderr.splitlines() if line.startswith("Removed")]
    return done.stdout, (summary[-1] if summary else done.stderr.strip())


def kept_sets(text: str) -> tuple[set[str], set[str], Counter]:
    """The primary items, secondary items and option lines of a ``.dlx`` text."""
    lines = [
        ln.split() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("|")
    ]
    if not lines:
        return set(), set(), Counter()
    head = lines[0]
    cut = head.index("|") if "|" in head else len(head)
    options = Counter(" ".join(words) for words in lines[1:])
    return set(head[:cut]), set(head[cut + 1 :]), options


def ours(problem: dlx.Problem) -> tuple[str, dlx.Reduction, float]:
    """Our reduced problem as text, what we removed, and the CPU seconds it took."""
    started = time.process_time()
    reduced, reduction = dlx.preprocess(problem)
    return dlx.write(reduced), reduction, time.process_time() - started


def compare(name: str, text: str, knuth: Path, expected: Path | None) -> bool:
    """One line of the table; whether both kept the same."""
    problem = dlx.parse(text)
    theirs, summary = knuth_preprocess(knuth, text)
    mine, reduction, seconds = ours(problem)
    same = kept_sets(theirs) == kept_sets(mine)
    a, b, c = kept_sets(theirs)
    print(
        f"{name:18} {problem.n_options:6} {len(problem.primary) + len(problem.secondary):5}"
        f" {sum(c.values()):6} {len(a) + len(b):5} {len(reduction.options_removed):6}"
        f" {len(reduction.items_removed):5} {reduction.rounds:4} {seconds:7.2f}"
        f"  {'same' if same else 'DIFFERENT'}  | {summary}"
    )
    if expected is not None and name in KEPT:
        (expected / f"{name}.dlx").write_text(text)
        (expected / f"{name}.pre").write_text(theirs)
    return same


def main(argv=None) -> int:
    """Run every case; the exit status is 1 when a case differs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--knuth", type=Path, required=True, help="folder with dlx-pre")
    parser.add_argument("--generators", type=Path, required=True, help="folder of generators")
    parser.add_argument("--data", type=Path, default=ROOT / "data" / "dlx", help=".dlx files")
    parser.add_argument("--write-expected", type=Path, default=None, metavar="DIR")
    args = parser.parse_args(argv)
    print(
        f"{'case':18} {'opts':>6} {'items':>5} {'K opts':>6} {'K its':>5} {'-opts':>6}"
        f" {'-its':>5} {'rnds':>4} {'our s':>7}  result  | DLX-PRE's summary"
    )
    differ = 0
    for name, program, arguments, stdin in CASES:
        text = generate(args.generators, program, arguments, stdin)
        differ += not compare(name, text, args.knuth, args.write_expected)
    for path in sorted(args.data.glob("*.dlx")):
        differ += not compare(path.stem, path.read_text(), args.knuth, None)
    print(f"{differ} case(s) differ", file=sys.stderr)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
