"""Board problems the tests share."""

from __future__ import annotations

import dlx


def dominoes(height: int, width: int) -> dlx.Problem:
    """Domino tilings of a rectangle: a primary item per cell, an option per domino."""
    p = dlx.Problem(primary=[f"{r},{c}" for r in range(height) for c in range(width)])
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < height and c + dc < width:
                    p.add_option([f"{r},{c}", f"{r + dr},{c + dc}"])
    return p
