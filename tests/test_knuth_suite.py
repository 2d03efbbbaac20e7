"""Our counts against Knuth's programs' on problems written by his own generators.

``data/knuth/`` holds the small cases of the suite ``scripts/knuth_suite.py`` writes
(queens, queendom, de Bruijn cycles, motley dissections, windmill dominoes, polyominoes,
polyiamonds, polycubes, sudoku), each ``.dlx`` file as his generator wrote it, and
``COUNTS.tsv``: the number of solutions his SSXCC or SSMCC found on it (the program is
named on each line). Every kernel that takes a file must find that many, and where
there are few, each solution goes through the independent checker.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import dlx
from dlx.verify import check

KNUTH = Path(__file__).resolve().parent.parent / "data" / "knuth"
FEW = 200  # solutions few enough to check one by one


def _counts() -> dict:
    """``{name: (count, his program)}`` from ``COUNTS.tsv``."""
    rows = (KNUTH / "COUNTS.tsv").read_text().splitlines()[1:]
    return {n: (int(c), p) for n, c, p, *_ in (r.split("\t") for r in rows)}


COUNTS = _counts()
KERNELS = [k for k in dlx.ENGINE_CHOICES if k != "auto"]


def _takes(problem, kernel: str) -> bool:
    """True when ``kernel`` takes ``problem`` (a kernel refuses with ProblemError)."""
    try:
        dlx.count(problem, 1, engine=kernel, node_limit=1)
    except dlx.ProblemError:
        return False
    return True


def test_every_file_has_its_count():
    assert sorted(COUNTS) == sorted(p.stem for p in KNUTH.glob("*.dlx"))


SLOW = {"hexiamonds6x6", "queens13"}  # a second or more with some kernels


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in sorted(COUNTS)]
)
@pytest.mark.parametrize("kernel", [*KERNELS, "auto"])
def test_count_equals_knuths(name, kernel):
    problem = dlx.read(KNUTH / f"{name}.dlx")
    if not _takes(problem, kernel):
        pytest.skip(f"{kernel} refuses {name}")
    expected, program = COUNTS[name]
    found = dlx.count(problem, engine=kernel)
    assert found.complete
    assert found == expected, f"{program} counts {expected} on {name}"


@pytest.mark.parametrize("name", sorted(n for n, (c, _) in COUNTS.items() if c <= FEW))
def test_each_solution_checked(name):
    problem = dlx.read(KNUTH / f"{name}.dlx")
    for kernel in KERNELS:
        if not _takes(problem, kernel):
            continue
        seen = set()
        for solution in dlx.solutions(problem, engine=kernel):
            check(problem, solution.options)
            seen.add(frozenset(solution.options))
        assert len(seen) == COUNTS[name][0], kernel
