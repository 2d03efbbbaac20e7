"""Known counts: queens, the data files, rooks, bounds and multisets."""

from __future__ import annotations

import math

import numpy as np
import pytest
from boards import queens, queens_ok, rooks
from shared import DATA, EXPECTED, option_sets

import dlx
from dlx.kernels.links import kernel, layout
from dlx.verify import check

# -- known counts -----------------------------------------------------------------------


@pytest.mark.parametrize("n, expected", [(1, 1), (4, 2), (6, 4), (8, 92), (10, 724)])
def test_queens(n, expected):
    p = queens(n)
    stream = dlx.solutions(p)
    found = 0
    for s in stream:
        check(p, s.options)
        assert queens_ok(n, s.names)
        found += 1
    assert found == expected
    assert stream.complete
    assert dlx.count(p).solutions == expected


FAST_FILES = sorted(
    name for name in EXPECTED if not name.startswith(("pent6x10", "pent5x12", "pent4x15_all"))
)


@pytest.mark.parametrize("name", FAST_FILES)
def test_dlx_files_stream_equals_count(name):
    p = dlx.read(DATA / f"{name}.dlx")
    found = option_sets(dlx.solutions(p))
    assert len(found) == EXPECTED[name]
    result = dlx.count(p)
    assert result.complete and result.solutions == EXPECTED[name]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(EXPECTED) - set(FAST_FILES)))
def test_dlx_files_stream_equals_count_slow(name):
    test_dlx_files_stream_equals_count(name)


def test_pent6x10_sym_count_and_links_restored():
    p = dlx.read(DATA / "pent6x10_sym.dlx")
    search = dlx.Search(p)
    while search.run() != kernel.DONE:
        pass
    assert search.stats.solutions == 2339
    assert np.array_equal(search.node, layout.arrays(p).node)
    assert np.array_equal(search.item, layout.arrays(p).item)


def test_rooks_is_n_factorial():
    assert dlx.count(rooks(8)).solutions == math.factorial(8)


@pytest.mark.parametrize("n, k", [(5, 1), (5, 2), (7, 3), (9, 9), (12, 5)])
def test_choose_k_of_n(n, k):
    """One item needing exactly k of n identical options: C(n, k) solutions."""
    p = dlx.Problem(primary=["x"], bounds={"x": (k, k)})
    for _ in range(n):
        p.add_option(["x"])
    found = option_sets(dlx.solutions(p))
    assert len(found) == math.comb(n, k)
    assert dlx.count(p).solutions == math.comb(n, k)


def test_between_bounds_counts_every_subset_size():
    """An item covered 2..4 times by 6 options: C(6,2)+C(6,3)+C(6,4)."""
    p = dlx.Problem(primary=["x"], bounds={"x": (2, 4)})
    for _ in range(6):
        p.add_option(["x"])
    assert dlx.count(p).solutions == 15 + 20 + 15


def dominoes_and_monominoes(copies: bool) -> dlx.Problem:
    """Tile a 2x4 board with 2 dominoes and 4 monominoes, as copies or distinct pieces."""
    cells = [f"{r}{c}" for r in range(2) for c in range(4)]
    pieces = {"D": 2, "M": 4}
    if copies:
        p = dlx.Problem(primary=list(pieces) + cells, bounds={k: (v, v) for k, v in pieces.items()})
        names = {k: [k] for k in pieces}
    else:
        names = {k: [f"{k}{i}" for i in range(v)] for k, v in pieces.items()}
        p = dlx.Problem(primary=[n for group in names.values() for n in group] + cells)
    for r in range(2):
        for c in range(4):
            for name in names["M"]:
                p.add_option([name, f"{r}{c}"])
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < 2 and c + dc < 4:
                    for name in names["D"]:
                        p.add_option([name, f"{r}{c}", f"{r + dr}{c + dc}"])
    return p


def test_multiset_count_equals_distinct_copies_over_factorials():
    distinct = dlx.count(dominoes_and_monominoes(copies=False)).solutions
    multiset = option_sets(dlx.solutions(dominoes_and_monominoes(copies=True)))
    assert distinct > 0
    assert len(multiset) * math.factorial(2) * math.factorial(4) == distinct
