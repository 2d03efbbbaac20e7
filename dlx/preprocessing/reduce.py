"""``preprocess``: a problem with the options and items that can never matter removed,
as Knuth's DLX-PRE removes them (the rules: ``dlx/preprocessing/kernel.py``).

Glossary
--------
*removed option*
    An option that no solution can hold: one without a primary item, or one that
    leaves some primary item with no option compatible with it.
*forced item*
    An item ``c`` such that every option of some primary item ``p`` holds ``c``
    (without a colour): covering ``p`` covers ``c``, so ``c`` is removed, with every
    option that holds ``c`` but not ``p``.
*kept*
    The option of the original problem that each option of the reduced one came from:
    a solution ``S`` of the reduced problem is the solution ``{kept[k] for k in S}`` of
    the original, and the counts are equal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dlx import compiling
from dlx.numbers import whole
from dlx.problem import Problem, ProblemError

__all__ = ["Reduction", "preprocess"]


@dataclass(frozen=True)
class Reduction:
    """What ``preprocess`` did: the ``rounds`` it ran (the last one changes nothing,
    unless the limit stopped it), the original index of each option ``kept`` (in order:
    option ``k`` of the reduced problem is option ``kept[k]`` of the original), the
    ``options_removed`` (original indices), the ``items_removed`` (names, in the
    problem's order), ``forced`` (each item removed because a primary item forces it:
    item -> that primary item) and ``infeasible`` (the primary item found without a
    usable option, when the problem has no solution; None otherwise)."""

    rounds: int
    kept: tuple[int, ...]
    options_removed: tuple[int, ...]
    items_removed: tuple[str, ...]
    forced: dict[str, str]
    infeasible: str | None

    def __str__(self) -> str:
        options, items = len(self.options_removed), len(self.items_removed)
        text = (
            f"preprocessing removed {options} option{'s' * (options != 1)} and "
            f"{items} item{'s' * (items != 1)} ({len(self.forced)} forced) in "
            f"{self.rounds} round{'s' * (self.rounds != 1)}"
        )
        if self.infeasible is not None:
            text += f"; primary item {self.infeasible!r} cannot be covered: no solution"
        return text


def _arrays(problem: Problem):
    """The kernel's arrays (``dlx/preprocessing/kernel.py``) for ``problem``."""
    entries = problem.entries()
    n_primary = len(entries.lo)
    n_items = n_primary + entries.n_secondary
    item = (entries.item - 1).astype(np.int64)
    owner = entries.option.astype(np.int64)
    counts = np.bincount(owner, minlength=problem.n_options)
    option_start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    list_entry = np.argsort(item, kind="stable").astype(np.int64)  # option order within
    list_start = np.concatenate(([0], np.cumsum(np.bincount(item, minlength=n_items))))
    has_primary = np.bincount(owner[item < n_primary], minlength=problem.n_options) > 0
    alive = has_primary.astype(np.uint8)
    colour = entries.colour.astype(np.int64)
    list_start = list_start.astype(np.int64)
    return item, colour, owner, option_start, list_start, list_entry, n_primary, alive


def preprocess(problem: Problem, rounds: int | None = None) -> tuple[Problem, Reduction]:
    """The problem with the options and items removed that Knuth's DLX-PRE removes, and
    what was removed. The reduced problem has as many solutions as ``problem``, one for
    one (``Reduction.kept`` maps its options to the original's); its options keep their
    names, costs and order, less their removed items.

    ``rounds``: at most that many rounds (None: until one changes nothing; DLX-PRE's
    ``t<rounds + 1>``; an integer >= 0, else TypeError or ValueError). A problem
    found to have no solution comes back as one primary item and no options
    (``Reduction.infeasible`` names it), as DLX-PRE writes it.
    Exact covers only: a primary item with bounds other than 1:1 is a ProblemError.

    Examples
    --------
    The first example of DLX-PRE (Knuth's (3)): everything reduces to three singletons.

    >>> p = Problem(primary=["A", "B", "C", "D", "E"], secondary=["F", "G"])
    >>> for option in ("C E F", "A D G", "B C F", "A D", "B G", "D E G"):
    ...     _ = p.add_option(option.split())
    >>> reduced, reduction = preprocess(p)
    >>> reduced.primary, reduced.secondary, reduction.kept
    (['A', 'B', 'E'], [], (0, 3, 4))
    >>> print(reduction)
    preprocessing removed 3 options and 4 items (4 forced) in 3 rounds
    """
    if not isinstance(problem, Problem):
        raise TypeError(f"preprocess() takes a dlx.Problem, not {type(problem).__name__}")
    if rounds is not None:
        rounds = whole("rounds", rounds)
    multiplicity = problem.first_multiplicity()
    if multiplicity is not None:
        name, lo, hi = multiplicity
        raise ProblemError(
            f"preprocessing takes exact covers only: item {name!r} has bounds {lo}:{hi}"
        )
    *arrays, alive = _arrays(problem)
    done, infeasible, gone, forced_by = _kernel().reduce(
        *arrays, alive, -1 if rounds is None else rounds
    )
    names = problem.primary + problem.secondary
    if infeasible >= 0:
        reduced = Problem(primary=[names[infeasible]])
        return reduced, Reduction(
            rounds=int(done),
            kept=(),
            options_removed=tuple(range(problem.n_options)),
            items_removed=tuple(n for n in names if n != names[infeasible]),
            forced={},
            infeasible=names[infeasible],
        )
    return _rebuild(problem, alive, gone, forced_by, int(done))


def _rebuild(problem: Problem, alive, gone, forced_by, rounds: int):
    """The reduced problem, and its Reduction, from the kernel's answer."""
    names = problem.primary + problem.secondary
    removed = {names[i] for i in np.flatnonzero(gone)}
    reduced = Problem(
        primary=[n for n in problem.primary if n not in removed],
        secondary=[n for n in problem.secondary if n not in removed],
        propagate=problem.propagate,
    )
    for name, (u, v, on) in problem.loop_edges.items():
        if name not in removed:
            reduced.add_loop_edge(name, u, v, on)
    kept = [int(o) for o in np.flatnonzero(alive)]
    for o in kept:
        entries = [e for e in problem.option(o) if e.partition(":")[0] not in removed]
        reduced.add_option(entries, name=problem.option_name(o), cost=problem.option_cost(o))
    forced = {names[i]: names[f] for i, f in enumerate(forced_by) if f >= 0}
    return reduced, Reduction(
        rounds=rounds,
        kept=tuple(kept),
        options_removed=tuple(int(o) for o in np.flatnonzero(alive == 0)),
        items_removed=tuple(n for n in names if n in removed),
        forced=forced,
        infeasible=None,
    )


def _kernel():
    """The preprocessing kernel, imported and compiled (or loaded from numba's cache) on
    first use, the compile said on stderr (``dlx.compiling``)."""
    module = compiling.kernel_module("dlx.preprocessing.kernel")
    compiling.warm("preprocess", module.reduce, False, _warm_up)
    return module


def _warm_up() -> None:
    """The kernel run once, on a problem of one option."""
    problem = Problem(primary=["a"])
    problem.add_option(["a"])
    preprocess(problem)


compiling.register(_kernel)
