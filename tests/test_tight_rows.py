"""The tight kernel's frames at their full width (``FRAME_WORDS`` = 16, the width whose
rows ``dlx/kernels/tight/frames.py`` reads as one vector) and the dead item found after
a forced one: counts those of the kernel without frames, nodes no more."""

from __future__ import annotations

import numpy as np
from numba import njit

from dlx.driver.codes import PAUSED
from dlx.kernels.tight import frames
from dlx.kernels.tight.search import TightSearch
from puzzles.polyform import tiling


@njit(cache=False)
def _rows(a, i, b, j):
    """``frames.and_count`` and ``frames.and_any`` of two rows, compiled."""
    return frames.and_count(a, np.uint64(i), b, np.uint64(j)), frames.and_any(
        a, np.uint64(i), b, np.uint64(j)
    )


def test_row_vectors_agree_with_numpy():
    """The vector count and test of ``a[i] & b[j]`` are numpy's, zero rows included."""
    rng = np.random.default_rng(7)
    a = rng.integers(0, 2**63, (5, frames.WIDE), dtype=np.uint64) << np.uint64(1)
    b = rng.integers(0, 2**63, (6, frames.WIDE), dtype=np.uint64)
    b[2] = 0
    b[3, 15] = np.uint64(1) << np.uint64(63)  # a bit of the last word only
    a[4] = 0
    a[4, 15] = ~np.uint64(0)
    for i in range(5):
        for j in range(6):
            both = a[i] & b[j]
            expected = sum(bin(int(x)).count("1") for x in both)
            assert _rows(a, i, b, j) == (expected, expected > 0)


def test_full_width_frames_count_the_same():
    """The pentominoes on 6x10 (2,339 tilings, symmetry broken; 2,056 options: frames of
    16 words open), paused every 5,000 nodes with its rows checked: the count without
    frames, in no more nodes (a dead item after a forced one ends the node)."""
    z = tiling.make_puzzle("6x10", "pentominoes")
    problem = tiling.build(z, tiling.plan_symmetry(z))
    results = []
    for on in (True, False):
        search = TightSearch(problem, budget=5000, frames=on)
        while search.run() == PAUSED:
            search.sanity()
        results.append((search.solutions, search.kernel_stats[1]))
    (framed, nodes), (plain, plain_nodes) = results
    assert framed == plain == 2339 and nodes < plain_nodes
