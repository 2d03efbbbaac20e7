"""Compare the graph's generating function and lightest solutions with Knuth's ZDDREAD-gf
and ZDDREAD-minsols-short, on the ZDD the graph writes and on the one DLX6 writes.

    python scripts/zdd_gf_vs_zddread.py --bin PATH/TO/knuth-bin [--random N] FILE.dlx ...

``--bin`` holds Knuth's ``dlx6``, ``zddread-gf`` and ``zddread-minsols-short`` (built by
``build_knuth.sh``). For each .dlx file, and for N random small problems whose solutions
have several sizes (written to .dlx files in a temporary folder), it prints whether

- ``g.generating_function()`` (by size) equals what ZDDREAD-gf prints, on both ZDDs
  (ZDDREAD counts the dummy root's variable 0 too: its exponents are one more);
- ``g.min_cost(None)`` is the length ZDDREAD-minsols-short prints (less the dummy
  root), the solution it prints is among ``g.k_lightest(..., weight=None)``, and it says
  "and more" exactly when several solutions are that short.

Exit status 1 when something disagrees.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import dlx

GF = re.compile(r"coefficients are ([\d ]+) \(\* z\^(\d+)\.\.z\^(\d+)\)")
MINSOL = re.compile(r"^((?: \d+)+) \(length (\d+)\)", re.MULTILINE)


def zddread_gf(binary: Path, zdd: Path) -> dict[int, int]:
    """ZDDREAD-gf's generating function by size, the dummy root taken off."""
    out = subprocess.run([str(binary), str(zdd)], capture_output=True, text=True).stdout
    m = GF.search(out)
    if m is None:
        return {}  # no solution: ZDDREAD prints no coefficient
    low = int(m[2])
    coefficients = [int(c) for c in m[1].split()]
    return {low - 1 + i: c for i, c in enumerate(coefficients) if c}


def zddread_minsols(binary: Path, zdd: Path) -> tuple[frozenset[int], int, bool] | None:
    """ZDDREAD-minsols-short's first lightest solution (option indices from 0), its
    length and whether it says there are more (the dummy root taken off)."""
    out = subprocess.run([str(binary), str(zdd)], capture_output=True, text=True).stdout
    m = MINSOL.search(out)
    if m is None:
        return None
    variables = [int(v) for v in m[1].split()]
    return frozenset(v - 1 for v in variables if v), int(m[2]) - 1, "and more" in out


def random_problem(rng: random.Random) -> dlx.Problem:
    """A small exact-cover problem whose solutions have several sizes."""
    while True:
        n = rng.randint(5, 9)
        p = dlx.Problem(primary=[f"p{i}" for i in range(n)])
        for _ in range(rng.randint(n, 3 * n)):
            p.add_option(rng.sample(p.primary, rng.randint(1, 3)))
        if len(dlx.graph(p).generating_function()) > 1:
            return p


def compare(bin_dir: Path, name: str, problem: dlx.Problem, tmp: Path) -> bool:
    """Print one line of agreement for ``problem``; whether everything agreed."""
    source = tmp / "problem.dlx"
    source.write_text(dlx.write(problem))
    g = dlx.graph(problem)
    ours = tmp / "graph.zdd"
    g.write_zdd(ours)
    theirs = tmp / "dlx6.zdd"
    with open(source) as stdin, open(theirs, "w") as out:
        subprocess.run([str(bin_dir / "dlx6"), "m1"], stdin=stdin, stdout=out,
                       stderr=subprocess.DEVNULL, check=True)  # fmt: skip
    gf = g.generating_function()
    verdicts = []
    for label, zdd in (("graph's ZDD", ours), ("DLX6's ZDD", theirs)):
        same_gf = zddread_gf(bin_dir / "zddread-gf", zdd) == gf
        knuth = zddread_minsols(bin_dir / "zddread-minsols-short", zdd)
        if g.count == 0:
            same_min = knuth is None
        else:
            least = g.min_cost(None)
            lightest = {frozenset(s.options) for _, s in g.k_lightest(gf[least], weight=None)}
            same_min = (
                knuth is not None
                and knuth[1] == least
                and knuth[0] in lightest
                and knuth[2] == (gf[least] > 1)
            )
        verdicts.append(same_gf and same_min)
        print(
            f"{name} ({label}): gf {'same' if same_gf else 'DIFFERENT'}, "
            f"lightest {'same' if same_min else 'DIFFERENT'}"
        )
    print(f"{name}: {g.count} solutions, gf by size {gf}")
    return all(verdicts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, type=Path, help="Knuth's binaries")
    parser.add_argument("--random", type=int, default=20, metavar="N", help="random problems")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    cases = [(name, dlx.read(name)) for name in args.files]
    rng = random.Random(args.seed)
    cases += [(f"random {i}", random_problem(rng)) for i in range(args.random)]
    agreed = 0
    for name, problem in cases:
        with tempfile.TemporaryDirectory() as tmp:
            agreed += compare(args.bin, name, problem, Path(tmp))
    print(f"{agreed} of {len(cases)} problems agree with ZDDREAD-gf and ZDDREAD-minsols-short")
    return 0 if agreed == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
