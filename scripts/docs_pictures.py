"""Draw the pictures of the docs site (docs/img/*.svg) with the project's own SVG output.

Every tiling drawn is checked with ``tiling.faults`` first. Usage::

    python scripts/docs_pictures.py [--out docs/img]
"""

from __future__ import annotations

import argparse
from itertools import islice
from pathlib import Path

from puzzles import slitherlink, sudoku
from puzzles.polyform import symmetry, tiling


def checked(puzzle, tilings: list) -> list:
    """The tilings, each checked against the rules."""
    for t in tilings:
        assert not tiling.faults(puzzle, t), tiling.faults(puzzle, t)
    return tilings


def pictures() -> dict[str, str]:
    """File name to SVG text."""
    main = tiling.make_puzzle("8x8", "pentominoes,O4")
    first = checked(main, list(islice(tiling.distinct_tilings(main), 4)))
    plan = tiling.plan_symmetry(main)
    orbit = checked(main, [symmetry.image(g, first[0]) for g in plan.group])
    hexiamonds = tiling.make_puzzle("6x6", "hexiamonds", lattice="triangular")
    hex_first = checked(hexiamonds, list(islice(tiling.distinct_tilings(hexiamonds), 1)))
    soma = tiling.make_puzzle("3x3x3", "soma")
    soma_first = checked(soma, list(islice(tiling.distinct_tilings(soma), 1)))
    answer = sudoku.solve(sudoku.parse("1...\n..1.\n.1..\n...1"))
    loop = slitherlink.solve(slitherlink.parse("4 4\n1 - - 0\n- - - -\n1 - 2 1\n- 2 3 -"))
    return {
        "main-job.svg": tiling.svg(main, first, unit=16, columns=4),
        "main-job-orbit.svg": tiling.svg(main, orbit, unit=12, columns=8),
        "hexiamonds.svg": tiling.svg(hexiamonds, hex_first, unit=28),
        "soma.svg": tiling.svg(soma, soma_first, unit=28),
        "sudoku.svg": sudoku.svg(answer),
        "slitherlink.svg": slitherlink.svg(loop),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/img"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in pictures().items():
        (args.out / name).write_text(text, encoding="utf-8")
        print(args.out / name, len(text), "bytes")


if __name__ == "__main__":
    main()
