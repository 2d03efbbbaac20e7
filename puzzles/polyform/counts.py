"""The count of a tiling puzzle: all, distinct and symmetric tilings in one result.

``count_tilings`` (in ``tiling``, which gives this name too) returns a ``Counts``; the
tiling commands print its ``lines()``.
"""

from __future__ import annotations

import dlx
from puzzles.common import PuzzleCount


class Counts(PuzzleCount):
    """A count of tilings: all and distinct solutions (None when unknown), symmetric
    classes (None when unknown), whether the count finished (if not, each number is
    "at least"; the limit that stopped it is ``stopped_by``), and how they were found
    (``how``); for a parallel count, its ``tasks`` and how many of them a checkpoint
    held (``resumed``).

    As a ``dlx.Count`` (an int) it is the distinct tilings, or all of them where the
    distinct ones are unknown (no symmetry breaking); the tiling commands print its
    ``lines()``. Its repr leaves out ``how`` and ``stats`` (printed, they are
    paragraphs).

    >>> counts = Counts(8, 2, 0, True, "by hand")
    >>> counts, int(counts)
    (Counts(all=8, distinct=2, symmetric=0, complete=True), 2)
    >>> counts.to_json()
    {'all': 8, 'distinct': 2, 'symmetric': 0}
    >>> print(Counts(4, None, None, False, "", stopped_by="solution limit 4").lines())
    all solutions: at least 4
    distinct solutions: ?
    """

    def __new__(
        cls,
        all: int | None,
        distinct: int | None,
        symmetric: int | None,
        complete: bool,
        how: str,
        stats: dlx.Stats | None = None,
        stopped_by: str | None = None,
        resumed: int | None = None,
        tasks: int | None = None,
    ):
        found = (distinct if distinct is not None else all) or 0
        self = super().__new__(cls, found, complete, stats, stopped_by, resumed, tasks)
        self.all, self.distinct, self.symmetric, self.how = all, distinct, symmetric, how
        return self

    @classmethod
    def of_count(cls, count: dlx.Count, all, distinct, symmetric, how: str) -> Counts:
        """The Counts of a ``dlx.Count`` (its completion, statistics, stop and tasks)."""
        return cls(all, distinct, symmetric, count.complete, how, count.stats,
                   count.stopped_by, count.resumed, count.tasks)  # fmt: skip

    def __reduce__(self):
        fields = (self.all, self.distinct, self.symmetric, self.complete, self.how)
        return (Counts, (*fields, self.stats, self.stopped_by, self.resumed, self.tasks))

    def __repr__(self) -> str:
        stop = "" if self.complete else f", stopped_by={self.stopped_by!r}"
        return (
            f"Counts(all={self.all}, distinct={self.distinct}, symmetric={self.symmetric}, "
            f"complete={self.complete}{stop})"
        )

    def lines(self) -> str:
        """``all solutions: N``, ``distinct solutions: M`` (``?``: unknown, ``at least``:
        unfinished) and ``symmetric classes: K`` where some are symmetric."""

        def show(n):
            return "?" if n is None else str(n) if self.complete else f"at least {n}"

        text = f"all solutions: {show(self.all)}\ndistinct solutions: {show(self.distinct)}"
        if self.symmetric:
            text += f"\nsymmetric classes: {show(self.symmetric)}"
        return text

    def to_json(self) -> dict:
        """The counts for ``--json``: all, distinct and symmetric as numbers (or null)."""
        return {"all": self.all, "distinct": self.distinct, "symmetric": self.symmetric}
