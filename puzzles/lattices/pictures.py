"""Text pictures of cells: one character per cell on a grid of text positions.

Each 2-D lattice places its cells on text positions ``(line from the bottom, column)``
through a pair of functions; these helpers read and write such pictures.
"""

from __future__ import annotations

from puzzles.common import PuzzleError

BLANK = " .\t"


def read_positions(text: str, cell_at, where: str = "picture") -> dict:
    """``{cell: character}`` for each drawn character; ``cell_at(row, column)`` (row 0 =
    bottom line) gives the cell or a reason string when a character may not stand there."""
    lines = text.replace("\r", "").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    drawn = {}
    height = len(lines)
    for k, line in enumerate(lines):
        row = height - 1 - k
        for col, ch in enumerate(line):
            if ch in BLANK:
                continue
            cell = cell_at(row, col)
            if isinstance(cell, str):
                raise PuzzleError(f"{where}: line {k + 1}, column {col + 1}: {cell}")
            if cell is not None:
                drawn[cell] = ch
    return drawn


def write_positions(chars: dict, position, filler: str = ".", parity: int = 0) -> str:
    """A picture from ``{cell: character}``; ``position(cell)`` gives (row, column) with
    row 0 at the bottom; empty positions inside the box get ``filler``.

    The picture starts at the least row and column, moved down so that reading it back
    gives the same cells up to a translation of the lattice: ``parity`` 1 keeps
    column - row even (triangles, hexagons), 2 keeps row and column even (sticks)."""
    placed = {position(c): ch for c, ch in chars.items()}
    rows = [r for r, _ in placed]
    cols = [c for _, c in placed]
    r0, c0 = min(rows), min(cols)
    if parity == 1:
        c0 -= (c0 - r0) % 2
    elif parity == 2:
        r0 -= r0 % 2
        c0 -= c0 % 2
    lines = []
    for r in range(max(rows), r0 - 1, -1):
        line = [filler] * (max(cols) + 1 - c0)
        for (pr, pc), ch in placed.items():
            if pr == r:
                line[pc - c0] = ch
        lines.append("".join(line).rstrip())
    return "\n".join(lines)
