"""What the puzzle adapters share: errors with positions, text grids, puzzlekit JSON, SVG.

Glossary: a *grid* is a list of rows of *tokens* (strings); positions are reported
1-based as ``line L`` and ``row R, column C`` so users can find them in their file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from dlx.dlxfile import DlxFormatError, decode, read_bytes


class PuzzleError(ValueError):
    """Bad puzzle input; the message names the line or cell at fault."""


def read_text(path) -> str:
    """The text of a UTF-8 file, or of standard input for ``-`` (a byte-order mark is
    dropped; other bytes that are not UTF-8 are refused with their line and column)."""
    label = "<stdin>" if str(path) == "-" else path
    try:
        return decode(read_bytes(path))
    except OSError as e:
        raise PuzzleError(f"{label}: {e.strerror or e}") from None
    except DlxFormatError as e:
        raise PuzzleError(f"{label}: {e}") from None


def content_lines(text: str, comment: str = "#") -> list[tuple[int, str]]:
    """(line number, line) for each line that is neither blank nor a comment."""
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith(comment):
            out.append((n, line.rstrip("\n")))
    return out


def split_grid(lines: list[tuple[int, str]], separated: bool | None = None) -> list[list[str]]:
    """Rows of tokens from numbered lines; refuse ragged rows, naming the line.

    ``separated``: tokens separated by blanks (True), one character each (False), or
    decided by whether the first line contains a blank (None).
    """
    if not lines:
        raise PuzzleError("no grid found (the input is empty)")
    if separated is None:
        separated = " " in lines[0][1].strip() or "\t" in lines[0][1].strip()
    rows = [line.split() if separated else list(line.strip()) for _, line in lines]
    width = len(rows[0])
    for (n, _), row in zip(lines, rows, strict=True):
        if len(row) != width:
            raise PuzzleError(f"line {n}: {len(row)} cells, but the first row has {width}")
    return rows


@dataclass(frozen=True)
class PuzzlekitEntry:
    """One puzzle of a puzzlekit JSON file: its id and its text (``R C`` then rows)."""

    id: str
    text: str


def load_puzzlekit(path, key: str = "puzzles", field: str = "problem") -> list[PuzzlekitEntry]:
    """The entries of a puzzlekit JSON file (``key`` "solutions", ``field`` "solution"
    for an answers file)."""
    try:
        data = json.loads(read_text(path))
        table = data[key]
        return [PuzzlekitEntry(str(k), v[field]) for k, v in table.items()]
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as e:
        raise PuzzleError(f"{path}: not a puzzlekit JSON file with {key!r}: {e}") from None


def puzzlekit_grids(text: str) -> tuple[int, int, list[list[list[str]]]]:
    """Parse puzzlekit text: a line ``R C``, then blocks of R rows of C tokens each.

    Returns R, C and the list of blocks (the clue grid, then e.g. a region grid).
    """
    lines = content_lines(text)
    if not lines:
        raise PuzzleError("empty puzzle")
    n, header = lines[0]
    try:
        rows, cols = (int(v) for v in header.split())
    except ValueError:
        raise PuzzleError(f"line {n}: expected 'ROWS COLUMNS', got {header.strip()!r}") from None
    if rows <= 0 or cols <= 0:
        raise PuzzleError(f"line {n}: the size {rows}x{cols} is empty")
    body = lines[1:]
    if not body or len(body) % rows:
        last = body[-1][0] if body else n
        got = f"{len(body)} grid line{'' if len(body) == 1 else 's'}"
        raise PuzzleError(f"line {last}: {got} after the header, but line {n} says {rows} rows")
    blocks = []
    for b in range(0, len(body), rows):
        block = split_grid(body[b : b + rows], separated=True)
        if len(block[0]) != cols:
            raise PuzzleError(f"line {body[b][0]}: {len(block[0])} columns, expected {cols}")
        blocks.append(block)
    return rows, cols, blocks


PALETTE = [
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0",
    "#f032e6", "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8",
    "#800000", "#aaffc3", "#808000", "#ffd8b1", "#000075", "#808080",
]  # fmt: skip


def colour(k: int) -> str:
    """A distinct fill colour for piece or region number ``k``."""
    return PALETTE[k % len(PALETTE)]


def svg_document(width: float, height: float, body: list[str]) -> str:
    """A standalone SVG document of the given size around ``body`` elements."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}">'
    )
    return (
        "\n".join([head, f'<rect width="{width:g}" height="{height:g}" fill="white"/>', *body])
        + "\n</svg>\n"
    )
