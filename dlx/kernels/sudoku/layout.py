"""Recognising the 9x9 sudoku problem for the sudoku kernel (``kernel.py``).

The kernel searches one problem only: 324 primary items (each covered once) and the
729 options ``9 i + d`` that put digit ``d`` (0 to 8) in cell ``i`` (row ``i div 9``,
column ``i mod 9``), each covering four items: its cell's, and digit ``d``'s in its row,
its column and its 3x3 box, whatever their names and order. ``puzzles.sudoku`` builds
the empty 9x9 grid's problem so.
"""

from __future__ import annotations

import numpy as np

from dlx.problem import Problem

N_OPTIONS = 729
N_ITEMS = 324


def canonical_items() -> np.ndarray:
    """int[729, 4]: the items of option ``9 i + d``: cell ``i``, then digit ``d`` in
    row, column and box (numbered 0-80, 81-161, 162-242, 243-323)."""
    option = np.arange(N_OPTIONS)
    cell, digit = option // 9, option % 9
    row, column = cell // 9, cell % 9
    box = 3 * (row // 3) + column // 3
    return np.stack(
        [cell, 81 + 9 * row + digit, 162 + 9 * column + digit, 243 + 9 * box + digit], axis=1
    )


def _covers(items: np.ndarray) -> set[tuple[int, ...]]:
    """For ``items`` [729, 4], the set of each item's options (as sorted tuples)."""
    order = np.argsort(items.ravel(), kind="stable")
    option = (np.arange(items.size) // 4)[order]
    return {tuple(row) for row in option.reshape(-1, 9).tolist()}


def why_not(problem: Problem) -> str | None:
    """Why the sudoku kernel cannot search ``problem`` (None: it is the 9x9 sudoku).

    >>> why_not(Problem(primary=["a"]))
    'not the 9x9 sudoku problem: 1 items and 0 options, not 324 and 729'
    """
    return problem.layout_of(_why_not) or None


def _why_not(problem: Problem) -> str:
    """``why_not``, worked out once a problem ("": the kernel takes it; ``layout_of``
    keeps no None)."""
    if len(problem.primary) != N_ITEMS or problem.n_options != N_OPTIONS:
        return (
            f"not the 9x9 sudoku problem: {len(problem.primary)} items and "
            f"{problem.n_options} options, not {N_ITEMS} and {N_OPTIONS}"
        )
    entries = problem.entries()
    if (
        entries.n_secondary
        or len(entries.item) != 4 * N_OPTIONS
        or np.any(np.bincount(entries.option, minlength=N_OPTIONS) != 4)
        or np.any(entries.lo != 1)
        or np.any(entries.hi != 1)
    ):
        return "not the 9x9 sudoku problem: options of four primary items each, covered once"
    items = entries.item.reshape(N_OPTIONS, 4) - 1
    if np.any(np.bincount(items.ravel(), minlength=N_ITEMS) != 9):
        return "not the 9x9 sudoku problem: every item in nine options"
    if _covers(items) != _covers(canonical_items()):
        return "not the 9x9 sudoku problem: option 9 i + d must put digit d in cell i"
    return ""
