"""Drawing tilings: a letter per piece, and SVG pictures of one tiling or of a gallery.

A piece is drawn as one outlined path (its cells' edges, those shared by two of its
cells cancelled) with its letter at the cell nearest its middle; a polystick as one
stroked path; a 3-D tiling shows its layers side by side. The functions take any
puzzle with ``lattice``, ``board`` and ``names`` (``tiling.Puzzle``); ``tiling.svg``
and ``tiling.letters`` are these.

>>> from puzzles.polyform.tiling import make_puzzle
>>> puzzle = make_puzzle("3x3", "L3,T4,I2")
>>> letters(puzzle)
{'I2': 'I', 'L3': 'L', 'T4': 'T'}
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from puzzles.common import PuzzleError, colour, svg_document
from puzzles.lattices import Lattice

if TYPE_CHECKING:
    from puzzles.polyform.tiling import Puzzle


def letters(puzzle: Puzzle) -> dict[str, str]:
    """One display character per piece: its name's first character (or that in lower
    case, for a mirror image) when free."""
    used: set[str] = set()
    out = {}
    pool = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@$%&=?"
    for name in sorted(puzzle.names, key=lambda n: (len(n) > 1, n)):
        ch = next(c for c in (name[0], name[0].lower(), *pool) if c not in used)
        used.add(ch)
        out[name] = ch
    return out


def outline(loops_of_edges) -> list[list]:
    """Closed loops of vertices from directed edges, edges run both ways cancelled."""
    edges = Counter(loops_of_edges)
    for a, b in list(edges):
        n = min(edges[(a, b)], edges.get((b, a), 0))
        if n:
            edges[(a, b)] -= n
            edges[(b, a)] -= n
    following: dict = {}
    for (a, b), n in edges.items():
        following.setdefault(a, []).extend([b] * n)
    loops = []
    for start in sorted(following):
        while following[start]:
            loop = [start]
            v = following[start].pop()
            while v != start:
                loop.append(v)
                v = following[v].pop()
            loops.append(_corners(loop))
    return loops


def _corners(loop: list) -> list:
    """A loop without the vertices that lie on a straight edge (vertices are (point,
    layer) pairs with integer points)."""

    def straight(a, b, c):
        (ax, ay), (bx, by), (cx, cy) = a[0], b[0], c[0]
        return (bx - ax) * (cy - by) == (by - ay) * (cx - bx)

    n = len(loop)
    kept = [v for k, v in enumerate(loop) if not straight(loop[k - 1], v, loop[(k + 1) % n])]
    return kept or loop


def svg(
    puzzle: Puzzle, tilings: list, unit: float = 24, columns: int | None = None, show=None
) -> str:
    """An SVG drawing of one tiling, or of a list of tilings as a grid.

    Each piece is one outlined path with its letter (sticks: one stroked path); a 3-D
    tiling shows its layers side by side.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle the tilings are of.
    tilings : Tiling or list of Tiling
        One tiling, or several (drawn in ``columns`` columns, default about a square).
    unit : float
        The length of a cell's edge, in pixels.
    show : dict, optional
        The letter of each piece (default ``letters(puzzle)``).

    Returns
    -------
    str
        A standalone SVG document.

    Examples
    --------
    >>> from puzzles.polyform.tiling import distinct_tilings, make_puzzle
    >>> puzzle = make_puzzle("3x3", "L3,T4,I2")
    >>> picture = svg(puzzle, next(distinct_tilings(puzzle)))
    >>> picture.startswith("<svg"), picture.count("<path")
    (True, 3)
    """
    tilings = as_tilings(tilings)
    if not tilings:
        raise PuzzleError("no solution to draw")
    lat = puzzle.lattice
    layers = sorted({lat.layer(c) for c in puzzle.board})
    xs = [p[0] for c in puzzle.board for p in lat.screen_polygon(c)]
    ys = [p[1] for c in puzzle.board for p in lat.screen_polygon(c)]
    x0, y1 = min(xs), max(ys)
    layer_width = max(xs) - x0 + 1
    width = layer_width * len(layers) - 1
    height = y1 - min(ys)

    def point(v, layer):
        sx, sy = lat.to_screen(v)
        return ((sx - x0 + layers.index(layer) * layer_width) * unit, (y1 - sy) * unit)

    n = len(tilings)
    columns = columns or max(1, min(n, round(n**0.5 + 0.5)))
    gap = unit
    w, h = width * unit, height * unit
    index = {name: k for k, name in enumerate(puzzle.names)}
    show = show or letters(puzzle)
    sticks = lat.crossings is not None
    body = []
    for k, tiling in enumerate(tilings):
        left = gap + (k % columns) * (w + gap)
        top = gap + (k // columns) * (h + gap)
        body.append(f'<g transform="translate({left:g},{top:g})">')
        for name, cells in tiling:
            fill = colour(index[name])
            if sticks:
                d = " ".join(
                    "M{:g},{:g} L{:g},{:g}".format(*point(a, 0), *point(b, 0))
                    for a, b in (lat.polygon(c) for c in sorted(cells))
                )
                body.append(f'<path d="{d}" stroke="{fill}" stroke-width="{unit / 5:g}" '
                            'stroke-linecap="round" fill="none"/>')  # fmt: skip
            else:
                edges = []
                for c in cells:
                    poly = [(v, lat.layer(c)) for v in lat.polygon(c)]
                    edges += list(zip(poly, poly[1:] + poly[:1], strict=True))
                d = " ".join(
                    "M" + " L".join("{:g},{:g}".format(*point(*v)) for v in loop) + " Z"
                    for loop in outline(edges)
                )
                body.append(f'<path d="{d}" fill="{fill}" stroke="black" stroke-width="1.5"/>')
            for layer in sorted({lat.layer(c) for c in cells}):
                part = [c for c in cells if lat.layer(c) == layer]
                tx, ty = _label_point(lat, part, point)
                body.append(
                    f'<text x="{tx:.1f}" y="{ty:.1f}" font-size="{unit * 0.5:g}" '
                    f'text-anchor="middle" dominant-baseline="central">{show[name]}</text>'
                )
        body.append("</g>")
    return svg_document(columns * (w + gap) + gap, -(-n // columns) * (h + gap) + gap, body)


def as_tilings(tilings) -> list:
    """A list of tilings: ``tilings`` itself, or ``[tilings]`` when it is one tiling
    (a list of (piece name, cells))."""
    tilings = list(tilings)
    if tilings and isinstance(tilings[0], tuple) and isinstance(tilings[0][0], str):
        return [tilings]
    return tilings


def _label_point(lat: Lattice, cells, point) -> tuple[float, float]:
    """Where a piece's letter goes: the centre of its cell nearest the middle of ``cells``."""
    centres = []
    for c in cells:
        pts = [point(v, lat.layer(c)) for v in lat.polygon(c)]
        centres.append((sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)))
    mx = sum(p[0] for p in centres) / len(centres)
    my = sum(p[1] for p in centres) / len(centres)
    return min(centres, key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2)
