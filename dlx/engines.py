"""The search engines (kernels), by name: the one place that makes a ``Search``.

Every search of the package (a serial count or stream, the split into tasks, a
worker's task) is made by ``make_search``, and every memo by ``make_memo``, so a
kernel plugs in as one row of ``ENGINES``: its search class (a subclass of
``dlx.driver.Driver``, whose docstring lists the hooks to fill in) and a memo factory
(``problem -> memo or None``; the memo is the kernel's own business, handed back to
its searches only).

Names: ``"dlx"`` (dancing links, the default); ``"bitset"`` (``dlx/bitset.py``: fills
the first empty item, for tilings); ``"tight"`` (``dlx/tight.py``: branches on the
primary item with the fewest live options, kept by bit operations; no multiplicities);
``"auto"``: the bitset kernel for problems it takes
that look like tilings (``dlx.bitlayout.suits``), else dancing links.
"""

from __future__ import annotations

from typing import NamedTuple

from dlx.bitlayout import suits
from dlx.bitsearch import BitMemo, BitsetSearch
from dlx.problem import Problem
from dlx.search import Memo, Search
from dlx.tightsearch import TightMemo, TightSearch


class Engine(NamedTuple):
    """A kernel: its resumable search class and its memo factory."""

    search: type
    memo: object  # problem -> memo for full counts, or None


ENGINES: dict[str, Engine] = {
    "dlx": Engine(Search, Memo.of),
    "bitset": Engine(BitsetSearch, BitMemo.of),
    "tight": Engine(TightSearch, TightMemo.of),
}
RESERVED: tuple[str, ...] = ()
DEFAULT = "dlx"
CHOICES = ("dlx", "bitset", "tight", "auto")  # what ``engine=`` and ``--engine`` take


def resolve(engine: str | None, problem: Problem | None = None) -> str:
    """The engine that runs ``problem`` under the name ``engine`` (ValueError if none)."""
    name = DEFAULT if engine is None else engine
    propagating = problem is not None and problem.propagate is not None
    if name == "auto":
        return "bitset" if problem is not None and not propagating and suits(problem) else DEFAULT
    if name in ("bitset", "tight") and propagating:
        raise ValueError(
            f"propagate={problem.propagate!r} is a rule of the dlx engine; "
            f"the {name} kernel does not apply it (use engine='dlx' or 'auto')"
        )
    if name in ENGINES:
        return name
    if name in RESERVED:
        raise ValueError(f"engine {name!r} is not available in this version (use 'dlx')")
    known = ", ".join(repr(k) for k in CHOICES)
    raise ValueError(f"unknown engine {name!r} (known: {known})")


def make_search(problem: Problem, engine: str | None = DEFAULT, **options):
    """A resumable search of ``problem`` by ``engine`` (keywords as for ``Search``)."""
    return ENGINES[resolve(engine, problem)].search(problem, **options)


def make_memo(problem: Problem, engine: str | None = DEFAULT):
    """A fresh memo of ``engine`` for full counts of ``problem``, or None where it has
    none that would be exact."""
    return ENGINES[resolve(engine, problem)].memo(problem)
