"""Draw the docs' gallery of uniformly random tilings: docs/gallery.md and its SVGs.

    python scripts/gallery.py [--seed 2026] [--out docs]

Each picture is drawn from a solution graph (``dlx.graph``), exactly uniformly: the
main job's board (the 8x8 board by the 12 pentominoes and the 2x2 square, one tiling
per class of the board's 8 symmetries: 16,146 classes, each drawn as its
representative) and the domino tilings of the 14x14 board (OEIS A004003). The page
gives each picture's count, seed and ranks, so that anyone can redraw it with
``Graph.unrank``.
"""

from __future__ import annotations

import argparse
import datetime
from pathlib import Path

import dlx
from puzzles import polyomino
from puzzles.polyform import tiling

MAIN_PICTURES = 6
DOMINO_PICTURES = 2
DOMINO_SIDE = 14


def _domino_problem(puzzle) -> dlx.Problem:
    """The domino tilings of ``puzzle``'s board: a primary item per cell, an option per
    domino placement (the tiling command's problem counts its 98 copies with an item of
    bounds 98:98, which the graph does not take; here the cells alone say it all)."""
    (piece,) = puzzle.pieces
    problem = dlx.Problem(primary=[tiling.cell_item(c) for c in tiling.cell_order(puzzle.board)])
    for place in puzzle.placements[piece.name]:
        problem.add_option([tiling.cell_item(c) for c in sorted(place)], name=piece.name)
    return problem


def _domino_tiling(solution) -> list:
    """A solution of ``_domino_problem`` as (piece name, cells) pairs."""
    return [
        (name, frozenset(tuple(int(v) for v in item.split(",")) for item in row))
        for name, row in zip(solution.names, solution.rows, strict=True)
    ]


def _draw(g, seed: int, k: int, decode):
    """``k`` tilings drawn with ``seed``: (ranks, tilings)."""
    drawn = list(g.sample(k, seed=seed))
    for s in drawn:
        dlx.check(g.problem, s.options)
    return [g.rank(s) for s in drawn], [decode(s) for s in drawn]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default="docs", help="the docs folder")
    args = parser.parse_args()
    out = Path(args.out)
    (out / "gallery").mkdir(parents=True, exist_ok=True)

    main_puzzle = polyomino.make_puzzle("8x8", "pentominoes", ["O"])
    plan = polyomino.plan_symmetry(main_puzzle)
    assert not plan.filter  # one solution per class: uniform over the classes
    g = dlx.graph(tiling.build(main_puzzle, plan))
    ranks, tilings = _draw(g, args.seed, MAIN_PICTURES, lambda s: tiling.decode(main_puzzle, s))
    for t in tilings:
        assert not tiling.faults(main_puzzle, t)
    main_svg = polyomino.svg(main_puzzle, tilings, columns=3)
    (out / "gallery" / "main-8x8.svg").write_text(main_svg)
    main_line = (g.count, ranks, g.stats)

    side = DOMINO_SIDE
    domino_puzzle = polyomino.make_puzzle(f"{side}x{side}", f"I2*{side * side // 2}")
    d = dlx.graph(_domino_problem(domino_puzzle))
    d_ranks, d_tilings = _draw(d, args.seed, DOMINO_PICTURES, _domino_tiling)
    for t in d_tilings:
        assert not tiling.faults(domino_puzzle, t)
    (out / "gallery" / f"dominoes-{side}.svg").write_text(
        polyomino.svg(domino_puzzle, d_tilings, columns=DOMINO_PICTURES)
    )
    page = _page(args.seed, main_line, (d.count, d_ranks, d.stats), side)
    (out / "gallery.md").write_text(page)
    print(f"wrote {out / 'gallery.md'} and {out / 'gallery'}/*.svg")


def _page(seed: int, main_line, domino_line, side: int) -> str:
    """The text of docs/gallery.md."""
    count, ranks, stats = main_line
    d_count, d_ranks, d_stats = domino_line
    today = datetime.date.today().isoformat()
    return f"""# Gallery: uniformly random tilings

Each picture below is a tiling drawn **exactly uniformly** at random from the
solution graph of its problem (`dlx.graph`, see [the solution graph](graph.md)): a
random rank below the count (`random.Random({seed}).randrange(count)`), then the
tiling of that rank (`Graph.unrank`). Redraw them with
`python scripts/gallery.py --seed {seed}` (made {today}).

## The main job: 12 pentominoes and the 2x2 square on the 8x8 board

One tiling per class of the board's 8 symmetries: **{count:,} classes** (129,168
tilings in all, none of them symmetric), so each class is as likely as any other.
The ranks drawn: {", ".join(f"{r:,}" for r in ranks)}.

![six uniformly random tilings of the 8x8 board](gallery/main-8x8.svg)

The same from the command line (a picture of each, and their text on stdout):

```sh
python -m puzzles pentomino --board 8x8 --extra O \\
    --sample {MAIN_PICTURES} --seed {seed} --svg sample.svg
```

({stats})

## Dominoes on the {side}x{side} board

**{d_count:,}** domino tilings (OEIS A004003, beyond 2^64: counted exactly through
the graph). The ranks drawn: {", ".join(f"{r:,}" for r in d_ranks)}.

![two uniformly random domino tilings of the {side}x{side} board](gallery/dominoes-{side}.svg)

A uniformly random domino tiling of a large square shows the *arctic circle*: near
the corners the dominoes freeze into brick walls, inside the circle they mix.

({d_stats})
"""


if __name__ == "__main__":
    main()
