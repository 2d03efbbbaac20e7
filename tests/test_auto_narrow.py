"""``auto`` on a long count of a narrow board (``dlx.engines._long_and_narrow``): the
tight kernel probes it for ``narrow_after`` CPU seconds, then the bitset kernel (which
fills the board from one end) counts it; a board's front says which boards are narrow."""

from __future__ import annotations

import dataclasses

import pytest

import dlx
from dlx import engines
from dlx.verify import check
from puzzles.polyform import tiling


def board(spec: str, pieces: str) -> dlx.Problem:
    """A polyform tiling, symmetry broken as ``python -m puzzles polyform`` does."""
    puzzle = tiling.make_puzzle(spec, pieces)
    return tiling.build(puzzle, tiling.plan_symmetry(puzzle, fallback=True))


@pytest.mark.parametrize(
    "spec, pieces, narrow",
    [
        ("3x20", "pentominoes", True),  # front 0.20
        ("6x15", "one-sided-pentominoes", True),  # 0.27
        ("6x10", "pentominoes", False),  # 0.40
        ("9x10", "one-sided-pentominoes", False),  # 0.33
        ("8x8", "pentominoes,O4", False),  # 0.44
    ],
)
def test_long_boards_have_a_small_front(spec, pieces, narrow):
    p = board(spec, pieces)
    assert 0.0 < engines._front(p) < 1.0
    assert engines._narrow(p) is narrow


def test_a_problem_without_pieces_has_front_one():
    p = dlx.Problem(primary=["a", "b"])
    p.add_option(["a", "b"])
    assert engines._front(p) == 1.0


def long_counts(monkeypatch) -> None:
    """Every count long: no first slice, and ``narrow_after`` 0."""
    monkeypatch.setattr(engines, "first_slice", lambda *args, **keywords: (None, None))
    monkeypatch.setattr(engines, "SETTINGS", dataclasses.replace(engines.SETTINGS, narrow_after=0))


def test_a_long_count_on_a_narrow_board_is_the_bitset_kernels(monkeypatch):
    """With every count long the bitset kernel counts a narrow board, and the count is
    the tight kernel's (2: the pentominoes on 3x20, Knuth, TAOCP 7.2.2.1, symmetry
    broken); a count with a limit is not affected."""
    p = board("3x20", "pentominoes")
    long_counts(monkeypatch)
    result = dlx.count(p)
    assert int(result) == 2 == int(dlx.count(p, engine="tight"))
    assert result.stats.engine.startswith("bitset (auto: bitset: not done after")
    fresh = board("3x20", "pentominoes")  # no bitset layout kept on it
    assert not dlx.count(fresh, limit=5).stats.engine.startswith("bitset")
    for solution in dlx.solutions(p):
        check(p, solution.options)


def test_a_short_count_on_a_narrow_board_ends_within_the_probe():
    p = board("3x20", "pentominoes")
    result = dlx.count(p)
    assert int(result) == 2
    assert result.stats.engine.startswith("tight")


def test_a_wide_board_is_never_handed_over(monkeypatch):
    p = board("6x10", "pentominoes")
    long_counts(monkeypatch)
    result = dlx.count(p)
    assert int(result) == 2339  # Haselgrove and Haselgrove (1960)
    assert not result.stats.engine.startswith("bitset (auto: bitset: not done")
