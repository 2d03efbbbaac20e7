"""n queens as exact cover with colours: an example problem for the benchmarks and
the tests (no command: its answers are the solutions' option names).

Glossary: an item a rank (``r0`` ... ``rN-1``) and a file (``c0`` ...), primary (one
queen each); an item a diagonal, secondary (at most one queen): ``aK`` holds the
squares with ``i + j == K``, ``bK`` those with ``i - j + n - 1 == K``. An option a
square ``i,j`` (its name), covering its rank, file and both diagonals. Known counts
(OEIS A000170): 92 for n = 8, 73,712 for 13, 2,279,184 for 15.

>>> import dlx
>>> print(dlx.count(queens(8)))
92
"""

from __future__ import annotations

import dlx
from dlx.numbers import whole

LARGEST = 2000  # the side of the largest board (four million options)


def queens(n: int) -> dlx.Problem:
    """n queens: ranks and files primary, both diagonals secondary; the option of
    square (i, j) named ``"i,j"``; ``n`` a whole number up to ``LARGEST`` (n * n
    options)."""
    n = whole("n", n)
    if n > LARGEST:
        raise ValueError(f"n must be at most {LARGEST} (n * n options), not {n}")
    p = dlx.Problem(
        primary=[f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)],
        secondary=[f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)],
    )
    for i in range(n):
        for j in range(n):
            p.add_option([f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"], name=f"{i},{j}")
    return p
