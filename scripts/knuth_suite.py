"""Write a suite of exact-cover problems with Knuth's own generators, for bench_knuth.py.

Knuth's generators (``queens-dlx``, ``queendom-dlx``, ``de-bruijn-dlx``,
``macmahon-triangles-dlx``, ``motley-dlx``, ``windmill-dominoes-dlx``, ``polyomino-dlx``,
``polyiamond-dlx``, ``polycube-dlx``, ``sudoku-dlx``) are CWEB programs in a snapshot of
``ascherer/cwebtest``. This script takes that snapshot (a git directory or a checkout),
tangles each generator with ``ctangle`` and compiles it with ``gcc`` in a scratch folder,
then runs it on the fixed parameters of ``CASES`` and writes ``NAME.dlx`` for each case
into the output folder, with ``suite.tsv``: one line a case, its name, its solution
limit (0: count every solution; K: stop at the K-th, for the cases that take his
programs too long to count) and the generator's command line (its standard input, for
the generators that read one, is written beside it as ``NAME.in``). Nothing of Knuth's goes into
this project: the generators run here and only their output is written.

    python scripts/knuth_suite.py GIT_DIR OUT_DIR            # the whole suite
    python scripts/knuth_suite.py GIT_DIR OUT_DIR --only queens

The polyform generators read their pieces' typical cells on standard input; the pieces
here come from ``puzzles.polyform.pieces`` (Polyform Puzzler's shapes), their cells
written in Knuth's coordinates (``xy``, ``xy'`` for the triangle pointing down, ``xyz``).
The suite's sizes (CPU seconds of SSXCC or SSMCC, one core) run from a hundredth of a
second to several minutes; ``docs/performance.md`` gives the measured times.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's packages

from puzzles.polyform.pieces import parse_pieces  # noqa: E402

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Case:
    """One problem of the suite: a generator, its arguments and standard input."""

    name: str
    generator: str
    args: tuple = ()
    stdin: str = ""
    limit: int = 0  # stop at this many solutions (0: count them all)


def _cell(cell, triangular: bool) -> str:
    """Knuth's name of a cell: ``xy``, ``xy'`` (a triangle pointing down) or ``xyz``."""
    if triangular:
        return DIGITS[cell[0]] + DIGITS[cell[1]] + ("'" if cell[2] else "")
    return "".join(DIGITS[v] for v in cell)


def pieces(spec: str, copies: int = 1) -> str:
    """The lines ``NAME cell cell ...`` of a set of pieces, cells shifted to 0 and up;
    ``copies`` > 1 writes each name as ``copies|NAME`` (a multiplicity)."""
    selection = parse_pieces(spec)
    triangular = selection.lattice == "triangular"
    lines = []
    for piece in selection.pieces:
        shape = sorted(piece.shape)
        lows = [min(c[k] for c in shape) for k in range(len(shape[0]))]
        if triangular:
            lows[2] = 0
        moved = [tuple(v - low for v, low in zip(c, lows, strict=True)) for c in shape]
        name = f"{copies}|{piece.name}" if copies > 1 else piece.name
        lines.append(" ".join([name] + [_cell(c, triangular) for c in moved]))
    return "\n".join(lines) + "\n"


def sudoku(line: str) -> str:
    """The nine lines ``sudoku-dlx`` reads, from an 81-character puzzle."""
    return "\n".join(line[9 * r : 9 * r + 9] for r in range(9)) + "\n"


def hexiamond(name: str) -> tuple:
    """The six triangles of one hexiamond, as ``macmahon-triangles-dlx`` wants them."""
    shape = [p for p in parse_pieces("hexiamonds").pieces if p.name == name][0].shape
    low_x, low_y = min(c[0] for c in shape), min(c[1] for c in shape)
    cells = sorted((c[0] - low_x, c[1] - low_y, c[2]) for c in shape)
    return tuple(f"{x}{y}" + ("+" if z else "") for x, y, z in cells)


# Sudoku: Arto Inkala's 2010 puzzle and the "Easter monster" (one solution each), a
# 17-clue puzzle of Gordon Royle's list with two clues taken away (many completions).
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
EASTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
ROYLE = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."


def _clear(puzzle: str, cells) -> str:
    """The puzzle with the givens at ``cells`` (0-80) taken away."""
    return "".join("." if i in cells else v for i, v in enumerate(puzzle))


PENTOMINOES = "pentominoes"
TRIAMONDS45 = "tetriamonds,pentiamonds"

CASES = (
    Case("queens8", "queens-dlx", ("8",)),
    Case("queens11", "queens-dlx", ("11",)),
    Case("queens13", "queens-dlx", ("13",)),
    Case("queens14", "queens-dlx", ("14",)),
    Case("queens15", "queens-dlx", ("15",)),
    Case("queendom5_3", "queendom-dlx", ("5", "3")),
    Case("queendom8_5", "queendom-dlx", ("8", "5")),
    Case("queendom9_5", "queendom-dlx", ("9", "5")),
    Case("queendom10_5", "queendom-dlx", ("10", "5")),
    Case("debruijn_0_2_4", "de-bruijn-dlx", ("0", "2", "4")),
    Case("debruijn_1_3_5", "de-bruijn-dlx", ("1", "3", "5")),
    Case("debruijn_2_4_6", "de-bruijn-dlx", ("2", "4", "6")),
    Case("debruijn_1_5_6", "de-bruijn-dlx", ("1", "5", "6"), limit=5_000_000),
    Case("macmahon_bar", "macmahon-triangles-dlx", hexiamond("I6")),
    Case(  # his own example: the hexagon
        "macmahon_hexagon",
        "macmahon-triangles-dlx",
        ("00+", "10", "10+", "01", "01+", "11"),
        limit=3_000_000,
    ),
    Case("motley4_4", "motley-dlx", ("4", "4")),
    Case("motley5_5", "motley-dlx", ("5", "5")),
    Case("motley6_6", "motley-dlx", ("6", "6")),
    Case("motley7_7", "motley-dlx", ("7", "7")),
    Case("windmill4_5", "windmill-dominoes-dlx", ("4", "5")),
    Case("pentominoes3x20", "polyomino-dlx", stdin="[0-2][0-j]\n" + pieces(PENTOMINOES)),
    Case("pentominoes5x12", "polyomino-dlx", stdin="[0-4][0-b]\n" + pieces(PENTOMINOES)),
    Case("pentominoes6x10", "polyomino-dlx", stdin="[0-5][0-9]\n" + pieces(PENTOMINOES)),
    Case(
        "hexiamonds6x6", "polyiamond-dlx", stdin="[0-5][0-5] [0-5][0-5]'\n" + pieces("hexiamonds")
    ),
    Case(
        "hexiamonds3x12", "polyiamond-dlx", stdin="[0-b][0-2] [0-b][0-2]'\n" + pieces("hexiamonds")
    ),
    Case(
        "triamonds45_twice4x8",
        "polyiamond-dlx",
        stdin="[0-7][0-3] [0-7][0-3]'\n" + pieces(TRIAMONDS45, copies=2),
        limit=4_000_000,
    ),
    Case("soma3x3x3", "polycube-dlx", stdin="[0-2][0-2][0-2]\n" + pieces("soma")),
    Case("tetracubes2x4x4", "polycube-dlx", stdin="[0-1][0-3][0-3]\n" + pieces("tetracubes")),
    Case("sudoku_inkala", "sudoku-dlx", stdin=sudoku(INKALA)),
    Case("sudoku_easter", "sudoku-dlx", stdin=sudoku(EASTER)),
    Case("sudoku_royle_less2", "sudoku-dlx", stdin=sudoku(_clear(ROYLE, (17, 23)))),
)


def build(source: Path, generators, scratch: Path) -> dict:
    """Tangle and compile each generator in ``scratch``: ``{name: executable}``."""
    git_dir = source / ".git" if (source / ".git").exists() else source
    env = dict(os.environ, CWEBINPUTS=".")
    built = {}
    for name in sorted(set(generators)):
        web = scratch / f"{name}.w"
        if (source / f"{name}.w").is_file():
            shutil.copy(source / f"{name}.w", web)
        else:
            text = subprocess.run(
                ["git", f"--git-dir={git_dir}", "show", f"HEAD:{name}.w"],
                capture_output=True,
                check=True,
            ).stdout
            web.write_bytes(text)
        subprocess.run(
            ["ctangle", "-bhp", web.name], cwd=scratch, env=env, check=True, capture_output=True
        )
        program = scratch / name
        subprocess.run(
            ["gcc", "-O2", "-w", "-std=gnu89", "-o", str(program), f"{name}.c", "-lm"],
            cwd=scratch,
            check=True,
        )
        built[name] = program
    return built


def write_suite(source: Path, out: Path, only: str | None = None) -> list:
    """Build the generators and write the suite's ``.dlx`` files and ``suite.tsv``."""
    cases = [c for c in CASES if only is None or only in c.name]
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="knuth-generators-") as scratch:
        built = build(source, [c.generator for c in cases], Path(scratch))
        rows = []
        for case in cases:
            done = subprocess.run(
                [case.generator, *case.args],
                executable=built[case.generator],
                input=case.stdin,
                capture_output=True,
                text=True,
            )  # (his generators' main returns no value: the exit status means nothing)
            if not done.stdout.strip():
                raise SystemExit(f"{case.name}: {case.generator} says {done.stderr.strip()!r}")
            (out / f"{case.name}.dlx").write_text(done.stdout)
            command = " ".join([case.generator, *case.args])
            if case.stdin:
                (out / f"{case.name}.in").write_text(case.stdin)
                command += f" < {case.name}.in"
            rows.append(f"{case.name}\t{case.limit}\t{command}")
    (out / "suite.tsv").write_text("name\tlimit\tgenerator\n" + "\n".join(rows) + "\n")
    return cases


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="ascherer/cwebtest: a git dir or checkout")
    parser.add_argument("out", type=Path, help="the folder to write the suite into")
    parser.add_argument("--only", help="only the cases whose name contains this")
    args = parser.parse_args(argv)
    cases = write_suite(args.source, args.out, args.only)
    print(f"wrote {len(cases)} problems into {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
