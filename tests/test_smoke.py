"""Quick end-to-end checks of the engine on known counts."""

import dlx
from dlx.verify import check


def queens(n: int) -> dlx.Problem:
    """n queens: rows and columns primary, diagonals secondary."""
    rows = [f"r{i}" for i in range(n)]
    cols = [f"c{j}" for j in range(n)]
    diagonals = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    p = dlx.Problem(primary=rows + cols, secondary=diagonals)
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"], name=f"{i}{j}")
    return p


def test_eight_queens_count_and_stream():
    p = queens(8)
    found = list(dlx.solutions(p))
    for s in found:
        check(p, s.options)
    assert len(found) == 92
    assert dlx.count(p).solutions == 92
