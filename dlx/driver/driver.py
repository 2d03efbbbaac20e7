"""The driver under every kernel: the Python loop around a resumable search.

A kernel (``dlx/kernels/*/kernel.py``) is a numba function that runs a
search for a budget of nodes and returns a code (``dlx.driver.codes``); its arrays hold where
it stopped, so the next call goes on. ``Driver`` is everything around that call that
does not depend on the kernel, written once:

- the *budget*: the first call gets ``FIRST_BUDGET`` nodes, each later one about
  ``CALL_SECONDS`` of work at the speed just measured (``next_budget``,
  ``adapt_budget``), unless the search was given a fixed ``budget``;
- the *limits*: nodes, wall time (from the search's creation) and solutions, checked
  between calls (``stopped_by`` says which one stopped the search);
- the *clock*: ``seconds`` in the kernel, the compile notice kept out of every timing
  (the kernel is warmed up, through ``dlx.compiling``, before the clock starts);
- the *overflow restart*: a count that outgrows its uint64 limbs (``OVERFLOW``) makes
  the search start again with twice as many;
- the *memo*, used by full counts only (off for good at the first stream, limit or
  split);
- the *progress*: Knuth's estimate of the fraction done (``fraction``), the path of
  branch numbers (``path``, ``path_weight``: what a split records), ``stats``.

Hooks
-----
A kernel's search class subclasses ``Driver`` and fills in these (see
``dlx.kernels.links.search.Search``, ``dlx.kernels.bitset.search.BitsetSearch`` and
``dlx.kernels.tight.search.TightSearch``; a kernel whose state reads as the bit-parallel
kernels' subclasses ``dlx.driver.rows.RowSearch``, which fills in ``level``,
``solutions``, ``limbs``, ``_branches``, ``current_options`` and ``_memo_fits``; a
kernel that shares another one's layout and arrays subclasses that kernel's class and
sets only ``kind`` and ``kernel_module``):

``kind``, ``kernel_module``
    Class attributes: the kernel's name in the compile notice (``dlx.compiling``) and
    the module holding its jitted ``search`` (imported at the first search, not before:
    ``import dlx`` loads no numba).
``_prepare(forced)``
    Lay the problem out (the layout module's cached layout) and set ``self.forced``,
    an array of the forced options in the kernel's own numbering (``forced`` is a list
    of option indices, already checked to be ints). Raise ``ProblemError`` for a
    problem or forced set the kernel cannot take.
``_memo_fits(memo)``
    Whether ``memo`` was made for this problem as laid out now.
``_new_state(limbs)``
    Fresh search arrays at the root, counts in ``limbs`` uint64 words; must set
    ``self.kernel_stats`` (int64[3]: solutions met one by one, nodes, updates).
``_call(budget, stream, max_solutions)``
    One kernel call (``self.memo`` is the memo to use, or None); return its code.
``level``, ``solutions``, ``limbs``
    Properties: the current depth, the exact count so far, the words of a count.
``_branches()``
    ``(branch_index, branch_degree)``: arrays indexed by level (the branch taken at
    each level and the number of branches there).
``current_options()``
    The options (the problem's numbering) chosen at levels ``0..level-1``.
``sanity()``
    Check the search's arrays at a pause; raise AssertionError naming the fault.
``_layout_bytes()``, ``_search_bytes(limbs)``, ``_state_bytes()``
    Bytes of the layout's arrays, of one search's arrays with counts in ``limbs``
    words (worked out from the layout, before they exist), and of the search's arrays
    as they are. The driver refuses a search whose layout and arrays pass
    ``dlx.driver.tables.MAX_BYTES`` before making them
    (``dlx.driver.tables.check_bytes``), and keeps
    the memo within what is left (``tables``).
``_variant()`` (optional)
    The kernel's specialisation for this problem (e.g. loop items), warmed up apart.

The memo object (the kernel's business) has ``table_bytes`` (its size now),
``max_bytes`` (what it may grow to) and ``limit(nbytes)`` (grow to no more), and may
have ``used_for(seconds, nodes)``, told the seconds and nodes of every call that used
it, and ``cut(budget)``, the budget of the next call cut to its liking. On
``OVERFLOW`` the driver calls ``_new_state(2 * self.limbs)`` and goes on (the memo
widens itself, or the hook makes a wider one).

A new kernel's search class takes in ``__init__`` only the kernel's own keywords and
passes the rest to ``super().__init__``; lays the problem out and checks the forced
options in ``_prepare``; calls the kernel in ``_call``; registers its warm-up
(``compiling.register(TheClass.warm_up)``), and its kernel has its usual first compile
time in ``dlx.compiling.USUAL`` and its row in ``dlx.engines.ENGINES``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from dlx import compiling
from dlx.driver import tables
from dlx.driver.codes import DONE, LIMIT, NO_SPLIT, OVERFLOW, PAUSED
from dlx.errors import ProblemError
from dlx.problem import Problem
from dlx.stopping import stop_if_swallowed
from dlx.words import plural

CALL_SECONDS = 0.1  # target duration of one kernel call
FIRST_BUDGET = 20_000  # nodes in the first call, before the speed is known
MIN_BUDGET = 1000  # nodes per call, at least, once the speed is known
MAX_BUDGET = 1 << 40


@dataclass
class Stats:
    """Search statistics: solutions found, nodes entered, link updates, seconds, and the
    kernel that ran with why (``engine``, set by ``count`` and ``solutions``)."""

    solutions: int = 0
    nodes: int = 0
    updates: int = 0
    seconds: float = 0.0
    engine: str = ""
    tables: TableBytes | None = None

    def __str__(self) -> str:
        rate = self.nodes / self.seconds if self.seconds > 0 else 0.0
        line = (
            f"{plural(self.solutions, 'solution')}, {plural(self.nodes, 'node')}, "
            f"{self.updates} updates, "
            f"{self.seconds:.3f} s ({rate / 1e6:.2f} M nodes/s)"
        )
        return line if self.tables is None else f"{self.tables}\n{line}"  # a note may follow


class TableBytes(NamedTuple):
    """The bytes one search holds: the layout's arrays, the search's own, the memo's
    table now and what it may grow to (``dlx.driver.tables.MAX_BYTES`` in all, at most)."""

    layout: int
    search: int
    memo: int = 0
    memo_max: int = 0

    @property
    def total(self) -> int:
        """Bytes held now."""
        return self.layout + self.search + self.memo

    def __str__(self) -> str:
        mb = [f"{v / 1e6:.3g}" for v in (self.total, *self)]
        memo = f", memo {mb[3]}" if self.memo else ""
        if self.memo_max > self.memo:
            memo += f" growing to {mb[4]}"
        return f"tables: {mb[0]} MB (layout {mb[1]}, search {mb[2]}{memo})"


def tree_fraction(branch_index, branch_degree, start: int, stop: int) -> float:
    """Knuth's estimate of the fraction done, from levels ``start..stop-1``: if the
    choice at level l is branch k_l (from 0) of d_l, ``sum_l k_l / (d_1 ... d_l)``."""
    fraction = 0.0
    scale = 1.0
    for level in range(start, stop):
        d = max(int(branch_degree[level]), 1)
        k = min(int(branch_index[level]), d - 1)
        scale /= d
        fraction += k * scale
    return fraction + 0.5 * scale if stop > start else fraction


def option_indices(argument: str, options) -> list[int]:
    """``options`` as a list of option indices (ProblemError naming ``argument``)."""
    if isinstance(options, (str, bytes)) or not hasattr(options, "__iter__"):
        raise ProblemError(f"{argument} must be a list of option indices, not {options!r}")
    indices = []
    for k in options:
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
            raise ProblemError(
                f"{argument} must be a list of option indices (ints, as add_option returns), "
                f"not one holding {k!r}"
            )
        if not -(2**63) <= k < 2**63:  # (no option has such an index)
            raise ProblemError(f"{argument} option {k} does not exist")
        indices.append(int(k))
    return indices


def tiny_problem(loop: bool) -> Problem:
    """A problem of one option (a triangle of loop edges when ``loop``): what a warm-up
    searches to compile the kernel."""
    if not loop:
        problem = Problem(primary=["a"])
        problem.add_option(["a"])
        return problem
    problem = Problem(primary=["a"], secondary=["ab", "bc", "ca"])
    for u, v, e in ((0, 1, "ab"), (1, 2, "bc"), (2, 0, "ca")):
        problem.add_loop_edge(e, u, v, on="1")
    problem.add_option(["a", "ab:1", "bc:1", "ca:1"])
    return problem


class Driver:
    """One search of a problem by one kernel, resumable (see the module's docstring).

    Parameters
    ----------
    problem : Problem
    forced : option indices that every solution must contain (each must have a
        primary item with bounds 1:1); they are part of the solutions reported.
    prefix : branch numbers to follow at the first levels (a subproblem of a split).
    split_depth : stop at this depth and report leaves (see ``dlx.parallel.split``).
    node_limit, time_limit : stop early (the result then says it is incomplete); the
        time limit is wall time from the search's creation (the call of ``count`` or
        ``solutions``), checked between kernel calls (a tenth of a second each).
    progress : show a tqdm progress bar on stderr (``desc`` its label).
    memo : the kernel's memo of this problem, used by full counts only (``run`` with
        ``stream=False`` and no ``max_solutions``, no ``split_depth``): a subtree met
        before adds its count without being searched again.
    budget : nodes per kernel call (None: about ``CALL_SECONDS`` of work, adapted to the
        measured speed); a small budget makes many pauses (tests use it).
    """

    kind = "search"  # the kernel's name in the compile notice
    kernel_module = "dlx.kernels.links.kernel"  # the module of its jitted ``search``
    prefix_dtype = np.int64  # the kernel's type of branch numbers

    def __init__(
        self,
        problem: Problem,
        *,
        forced=(),
        prefix=(),
        split_depth: int | None = None,
        node_limit: int | None = None,
        time_limit: float | None = None,
        progress: bool = False,
        desc: str = "search",
        memo=None,
        budget: int | None = None,
    ):
        self.problem = problem
        self._prepare(option_indices("forced", forced))
        self.prefix = np.asarray(list(prefix), dtype=self.prefix_dtype)
        if self.prefix.size and self.prefix.min() < 0:
            raise ProblemError("a subproblem's branch numbers must be >= 0")
        self.n_fixed = len(self.forced) + len(self.prefix)
        self.split_depth = NO_SPLIT if split_depth is None else int(split_depth)
        if split_depth is not None and self.split_depth < self.n_fixed:
            raise ProblemError(f"split depth {split_depth} is above the fixed levels")
        if memo is not None and not self._memo_fits(memo):
            raise ProblemError("this memo was made for another problem (or before a change)")
        self.memo = memo
        self._fit_tables()
        self._new_state(1)
        self._warm_up()  # before any clock starts
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.progress_enabled = progress
        self.desc = desc
        self.seconds = 0.0  # in the kernel
        self.started = time.perf_counter()  # the time limit is wall time from here,
        self.warming = compiling.seconds()  # less the compiling done meanwhile (auto's race)
        self.done = False
        self.stopped_by: str | None = None
        self.fixed_budget = None if budget is None else max(int(budget), 1)
        self._budget = FIRST_BUDGET if budget is None else self.fixed_budget

    # -- the hooks a kernel's class fills in (see the module's docstring) ---------------

    def _prepare(self, forced: list[int]) -> None:
        raise NotImplementedError

    def _memo_fits(self, memo) -> bool:
        raise NotImplementedError

    def _new_state(self, limbs: int) -> None:
        raise NotImplementedError

    def _call(self, budget: int, stream: bool, max_solutions: int | None) -> int:
        raise NotImplementedError

    def _branches(self) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    @property
    def level(self) -> int:
        """The current depth of the search."""
        raise NotImplementedError

    @property
    def solutions(self) -> int:
        """The exact count so far."""
        raise NotImplementedError

    @property
    def limbs(self) -> int:
        """The words of a count."""
        raise NotImplementedError

    def current_options(self) -> tuple[int, ...]:
        """The options chosen at levels 0..level-1 (the problem's numbering)."""
        raise NotImplementedError

    def sanity(self) -> None:
        """Check the search's arrays (for tests, at any pause); AssertionError if bad."""
        raise NotImplementedError

    def _variant(self) -> bool:
        """The kernel's specialisation for this problem, warmed up apart."""
        return False

    def _layout_bytes(self) -> int:
        raise NotImplementedError

    def _search_bytes(self, limbs: int) -> int:
        raise NotImplementedError

    def _state_bytes(self) -> int:
        raise NotImplementedError

    # -- the bytes it holds ---------------------------------------------------------------

    def _fit_tables(self) -> None:
        """Refuse a search whose layout and arrays would pass ``dlx.driver.tables.MAX_BYTES``
        (before making the arrays); keep the memo's growth within what is left, and
        drop a memo that does not fit at all."""
        need = self._layout_bytes() + self._search_bytes(1)
        tables.check_bytes(
            self.kind, need, "split the problem into smaller ones (or try another engine)"
        )
        if self.memo is not None:
            room = tables.MAX_BYTES - need
            if self.memo.table_bytes > room:
                self.memo = None
            else:
                self.memo.limit(room)

    def tables(self) -> TableBytes:
        """The bytes this search holds now (``TableBytes``)."""
        memo = (0, 0) if self.memo is None else (self.memo.table_bytes, self.memo.max_bytes)
        return TableBytes(self._layout_bytes(), self._state_bytes(), *memo)

    def table_bytes(self) -> int:
        """The bytes this search holds now: layout, search arrays and memo."""
        return self.tables().total

    # -- the kernel, compiled before any clock starts -------------------------------------

    @classmethod
    def kernel(cls):
        """The kernel's module, imported (and compiled or loaded from numba's cache) on
        first use."""
        return compiling.kernel_module(cls.kernel_module)

    @classmethod
    def cache_misses(cls) -> int:
        """How many times this process looked for the kernel in numba's cache and missed."""
        return sum(cls.kernel().search.stats.cache_misses.values())

    @classmethod
    def warm_up(cls, variant: bool = False) -> None:
        """Compile (or load) the kernel for ``variant`` (see ``dlx.compiling``)."""
        compiling.warm(
            cls.kind, cls.kernel().search, variant, lambda: cls(tiny_problem(variant)).run()
        )

    @classmethod
    def in_cache(cls) -> bool:
        """Whether numba's cache holds the kernel (``dlx.compiling.in_cache``)."""
        return compiling.in_cache(cls.kind, cls.kernel().search)

    @classmethod
    def compile_ahead(cls) -> bool:
        """Start compiling the kernel in another process when numba's cache has nothing
        of it (``dlx.compiling.ahead``); True when started."""
        return compiling.ahead(cls.kind, cls.kernel_module, f"{cls.__module__}:{cls.__qualname__}")

    def _warm_up(self) -> None:
        """Warm the kernel up for this search's problem."""
        type(self).warm_up(self._variant())

    def go_on_for(self, seconds: float) -> None:
        """Lift a stopped search's limits, but a time limit ``seconds`` from now: the
        next ``run`` goes on from where it stopped (no node searched again)."""
        self.node_limit, self.stopped_by = None, None
        self.time_limit = self.elapsed() + seconds

    def elapsed(self) -> float:
        """Wall seconds since the search was made, less any compiling meanwhile."""
        return time.perf_counter() - self.started - (compiling.seconds() - self.warming)

    # -- the state, read the same way for every kernel ----------------------------------

    @property
    def nodes(self) -> int:
        """Nodes searched so far (``stats.nodes``, without the rest of ``stats``)."""
        return int(self.kernel_stats[1])

    @property
    def stats(self) -> Stats:
        """Statistics so far (after a restart with wider counts, as the kernel keeps them)."""
        _, n, u = self.kernel_stats.tolist()
        return Stats(self.solutions, n, u, self.seconds, tables=self.tables())

    def fraction(self) -> float:
        """Estimated fraction of this search's tree done so far."""
        if self.done:
            return 1.0
        index, degree = self._branches()
        return tree_fraction(index, degree, self.n_fixed, self.level)

    def path(self) -> list[int]:
        """Branch numbers from the first free level to the current one."""
        index, _ = self._branches()
        return [int(k) for k in index[len(self.forced) : self.level]]

    def path_weight(self) -> float:
        """The share of the whole tree below the current node (1 / product of degrees)."""
        _, degree = self._branches()
        weight = 1.0
        for d in degree[len(self.forced) : self.level]:
            weight /= max(int(d), 1)
        return weight

    # -- running -------------------------------------------------------------------------

    def next_budget(self, max_solutions: int | None) -> int | None:
        """The node budget of the next kernel call, or None (``stopped_by`` set) when
        the node, time or solution limit says stop."""
        budget = self._budget
        if self.node_limit is not None:
            left = self.node_limit - int(self.kernel_stats[1])
            if left <= 0:
                self.stopped_by = f"node limit {self.node_limit}"
                return None
            budget = min(budget, left)
        if self.time_limit is not None and self.elapsed() >= self.time_limit:
            self.stopped_by = f"time limit {self.time_limit} s"
            return None
        if max_solutions is not None and self.solutions >= max_solutions:
            self.stopped_by = f"solution limit {max_solutions}"
            return None
        return budget

    def adapt_budget(self, done_nodes: int, seconds: float) -> None:
        """Set the next budget to about ``CALL_SECONDS`` of work at the speed just
        measured (unless the search was given a fixed budget)."""
        if self.fixed_budget is None and seconds > 0 and done_nodes > 0:
            rate = done_nodes / seconds
            self._budget = int(min(max(rate * CALL_SECONDS, MIN_BUDGET), MAX_BUDGET))

    def run(self, stream: bool = False, max_solutions: int | None = None) -> int:
        """Run until a stopping event; return the kernel's code (DONE, SOLUTION,
        PAUSED, LEAF, or LIMIT for a node, time or solution limit)."""
        if self.done:
            return DONE
        if max_solutions is not None:
            max_solutions = int(max_solutions)
        if self.memo is not None and (
            stream or max_solutions is not None or self.split_depth != NO_SPLIT
        ):
            self.memo = None  # the memo holds full counts only; off for good
        while True:
            stop_if_swallowed()  # a Ctrl-C or SIGTERM lost in a callback (dlx.stopping)
            budget = self.next_budget(max_solutions)
            if budget is None:
                return LIMIT
            if self.memo is not None and hasattr(self.memo, "cut"):
                budget = self.memo.cut(budget)
            t0 = time.perf_counter()
            nodes_before = int(self.kernel_stats[1])
            code = self._call(budget, stream, max_solutions)
            dt = time.perf_counter() - t0
            self.seconds += dt
            if self.memo is not None and hasattr(self.memo, "used_for"):
                self.memo.used_for(dt, max(int(self.kernel_stats[1]) - nodes_before, 0))
            if code == OVERFLOW:  # a count outgrew its limbs: start again, twice as wide
                self._new_state(2 * self.limbs)
                continue
            if code == PAUSED:
                self.adapt_budget(int(self.kernel_stats[1]) - nodes_before, dt)
            elif code == LIMIT:
                self.stopped_by = f"solution limit {max_solutions}"
            elif code == DONE:
                self.done = True
            return code
