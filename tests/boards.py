"""Board problems the tests share."""

from __future__ import annotations

import dlx
from puzzles.queens import queens  # noqa: F401 (the tests' n queens: a public example)


def dominoes(height: int, width: int) -> dlx.Problem:
    """Domino tilings of a rectangle: a primary item per cell, an option per domino
    (the n x 2 strip has ``fibonacci(n + 1)``)."""
    p = dlx.Problem(primary=[f"{r},{c}" for r in range(height) for c in range(width)])
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < height and c + dc < width:
                    p.add_option([f"{r},{c}", f"{r + dr},{c + dc}"])
    return p


def fibonacci(n: int) -> int:
    """F(n), F(1) = F(2) = 1."""
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def queens_ok(n: int, names) -> bool:
    """The queens of a solution attack nothing (independent of the encoding)."""
    cells = [tuple(map(int, name.split(","))) for name in names]
    return (
        len(cells) == n
        and len({i for i, _ in cells}) == n
        and len({j for _, j in cells}) == n
        and len({i + j for i, j in cells}) == n
        and len({i - j for i, j in cells}) == n
    )


def rooks(n: int) -> dlx.Problem:
    """n non-attacking rooks on an n x n board."""
    p = dlx.Problem(primary=[f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)])
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}"])
    return p
