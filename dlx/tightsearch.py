"""The Python side of the tight kernel: ``TightSearch``, a drop-in for ``Search``.

``TightSearch`` takes the same arguments as ``dlx.search.Search`` and answers the same
calls as ``dlx.bitsearch.BitsetSearch`` (``run``, ``fraction``, ``path``,
``path_weight``, ``current_options``, ``stats``, ``kernel_stats``, ``level``, ``done``,
``stopped_by``, ``seconds``), so the progress bar, limits, Ctrl-C, streams, splits,
workers, Dask and checkpoints work with it. Branch numbers (the paths of a split) are
those of the tight kernel's own tree: a split made with one kernel must be run with
the same kernel.

Counts are exact at any size: the kernel keeps them in uint64 limbs, and when one
outgrows them (``OVERFLOW``) the search starts again with twice as many; the memo's
entries stay valid and make the second run quick.
"""

from __future__ import annotations

import time

import numpy as np

from dlx import compiling
from dlx.bitsearch import BitMemo
from dlx.errors import ProblemError
from dlx.layout import DONE, LIMIT, NO_SPLIT, OVERFLOW, PAUSED
from dlx.problem import Problem
from dlx.search import FIRST_BUDGET, Stats, adapt_budget, forced_nodes, next_budget, tree_fraction
from dlx.tightlayout import State, TightLayout, layout, root_live, root_uncovered, tables

MEMO_LEVELS = 1 << 30  # the kernel's default: keep the counts of every level
MEMO_TRIAL = 50_000  # nodes a search runs with its memo before judging it ...
MEMO_PAYS = 0.5  # ... which it keeps if its hits saved at least this share of them


def _kernel():
    """The numba kernel, imported (and compiled or loaded from numba's cache) on first use."""
    from dlx import tight

    return tight


def warm_up() -> None:
    """Make sure the tight kernel is compiled (or loaded) before a search starts timing."""
    compiling.USUAL.setdefault("tight", "usually 3 to 15 s")
    compiling._warm(
        "tight", _kernel().search, False, lambda: TightSearch(compiling._tiny(False)).run()
    )


class TightMemo(BitMemo):
    """A table of subtree counts for full counts of one problem (see "Memo" in
    ``dlx/tight.py``), laid out as ``dlx.bitsearch.BitMemo``'s; the searches of one
    problem's subproblems may share it."""

    @classmethod
    def of(cls, problem: Problem, nbytes: int | None = None) -> TightMemo | None:
        """A fresh memo for ``problem`` (every problem the kernel takes allows one)."""
        from dlx.bitsearch import MEMO_BYTES

        return cls(layout(problem), MEMO_BYTES if nbytes is None else nbytes)


_NO_MEMO = np.zeros((0, 4), np.uint64)


class TightSearch:
    """One search of a problem by the tight kernel, resumable (see ``Search``).

    Parameters
    ----------
    problem, forced, prefix, split_depth, node_limit, time_limit, progress, desc :
        as for ``dlx.search.Search``.
    memo : a ``TightMemo`` of this problem, used by full counts only.
    budget : nodes per kernel call (None: about ``CALL_SECONDS`` of work).
    memo_levels : keep memo counts of levels ``<= memo_levels`` only (default: all).
        The memo is dropped where it does not pay (``_judge_memo``).
    """

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
        memo: TightMemo | None = None,
        budget: int | None = None,
        memo_levels: int | None = None,
    ):
        self.problem = problem
        lay = layout(problem)
        self._layout: TightLayout = lay
        self._tables = tables(lay)
        forced = [int(k) for k in forced]
        forced_nodes(problem, forced, [0, len(forced)])  # the checks (and errors) of Search
        bit_of = np.empty(lay.n_options, np.int64)
        bit_of[lay.option] = np.arange(lay.n_options)
        self.forced = bit_of[np.asarray(forced, np.int64)] if forced else np.zeros(0, np.int64)
        self.prefix = np.asarray(list(prefix), dtype=np.int64)
        if self.prefix.size and self.prefix.min() < 0:
            raise ProblemError("a subproblem's branch numbers must be >= 0")
        self.n_fixed = len(self.forced) + len(self.prefix)
        self.split_depth = NO_SPLIT if split_depth is None else int(split_depth)
        if split_depth is not None and self.split_depth < self.n_fixed:
            raise ProblemError(f"split depth {split_depth} is above the fixed levels")
        if memo is not None and memo.layout is not lay:
            raise ProblemError("this memo was made for another problem (or before a change)")
        self.memo = memo
        self._memo_judged = False
        self.memo_levels = MEMO_LEVELS if memo_levels is None else int(memo_levels)
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.progress_enabled = progress
        self.desc = desc
        self.seconds = 0.0  # in the kernel
        self.started = time.perf_counter()  # the time limit is wall time from here
        self.done = False
        self.stopped_by: str | None = None
        self.fixed_budget = None if budget is None else max(int(budget), 1)
        self._budget = FIRST_BUDGET if budget is None else self.fixed_budget
        self.kernel_stats = np.zeros(3, np.int64)
        self.memo_stats = np.zeros(2, np.int64)  # the memo's lookups, nodes saved
        self._new_state(limbs=1)
        warm_up()  # before any clock starts

    @staticmethod
    def cache_misses() -> int:
        """How many times this process looked for the kernel in numba's cache and missed."""
        return sum(_kernel().search.stats.cache_misses.values())

    def _new_state(self, limbs: int) -> None:
        """Fresh search arrays (at the root), counts in ``limbs`` words."""
        lay = self._layout
        rows = lay.rows
        levels = np.zeros(rows, np.int64)
        live = np.zeros((rows, lay.words), np.uint64)
        live[0] = root_live(lay)
        uncovered = np.zeros((rows, lay.item_words), np.uint64)
        uncovered[0] = root_uncovered(lay)
        self._state = State(
            live=live,
            uncovered=uncovered,
            key=np.zeros((rows, lay.key_words), np.uint64),
            key_hash=np.zeros(rows, np.uint64),
            cand=np.zeros(rows * lay.max_branches, np.int64),
            cand_start=levels.copy(),
            choice=levels.copy(),
            branch_index=levels.copy(),
            branch_degree=levels.copy(),
            level_nodes=levels.copy(),
            state=np.zeros(2, np.int64),
            stats=self.kernel_stats,
            total=np.zeros(limbs, np.uint64),
            level_entry=np.zeros((rows, limbs), np.uint64),
            memo=_NO_MEMO,
            memo_stats=self.memo_stats,
        )

    @property
    def limbs(self) -> int:
        """The words of a count."""
        return len(self._state.total)

    @property
    def solutions(self) -> int:
        """The exact count so far."""
        return sum(int(v) << (64 * k) for k, v in enumerate(self._state.total))

    @property
    def stats(self) -> Stats:
        """Statistics so far (``updates``: the options' items counted down)."""
        _, n, u = (int(v) for v in self.kernel_stats)
        return Stats(self.solutions, n, u, self.seconds)

    @property
    def level(self) -> int:
        """The current depth of the search."""
        return int(self._state.state[0])

    def fraction(self) -> float:
        """Estimated fraction of this search's tree done so far."""
        if self.done:
            return 1.0
        s = self._state
        return tree_fraction(s.branch_index, s.branch_degree, self.n_fixed, self.level)

    def path(self) -> list[int]:
        """Branch numbers from the first free level to the current one."""
        return [int(k) for k in self._state.branch_index[len(self.forced) : self.level]]

    def path_weight(self) -> float:
        """The share of the whole tree below the current node (1 / product of degrees)."""
        weight = 1.0
        for d in self._state.branch_degree[len(self.forced) : self.level]:
            weight /= max(int(d), 1)
        return weight

    def current_options(self) -> tuple[int, ...]:
        """The options chosen at levels 0..level-1 (problem numbering)."""
        chosen = self._state.choice[: self.level]
        return tuple(int(k) for k in self._layout.option[chosen])

    def sanity(self) -> None:
        """Check the search's rows against its choices (AssertionError naming the fault)."""
        lay = self._layout
        fault = _kernel().sanity(self._tables, self._state, root_live(lay), self.memo is not None)
        if fault:
            what = {1: "live set", 2: "uncovered items", 3: "key", 4: "choice"}[fault % 8]
            raise AssertionError(f"tight search: the {what} of level {fault // 8} is wrong")

    def _memo_table(self, stream: bool, max_solutions: int | None) -> np.ndarray:
        """The memo's table for this call (none for streams, limits and splits)."""
        if self.memo is not None and (
            stream or max_solutions is not None or self.split_depth != NO_SPLIT
        ):
            self.memo = None  # the memo holds full counts only; off for good
        if self.memo is None:
            return _NO_MEMO
        self.memo.widen(self.limbs)
        return self.memo.table

    def _judge_memo(self) -> None:
        """Drop the memo for good once it has had ``MEMO_TRIAL`` nodes and saved less
        than ``MEMO_PAYS`` of them (where subproblems rarely repeat, as in n queens,
        keys and lookups cost more than they save). Counts stay exact: a search without
        a memo just stores and looks up nothing more."""
        nodes = int(self.kernel_stats[1])
        if nodes >= MEMO_TRIAL:
            self._memo_judged = True
            if int(self.memo_stats[1]) < MEMO_PAYS * nodes:
                self.memo = None

    def run(self, stream: bool = False, max_solutions: int | None = None) -> int:
        """Run until a stopping event; return the kernel's code (or LIMIT)."""
        if self.done:
            return DONE
        if max_solutions is not None:
            max_solutions = int(max_solutions)
        while True:
            budget = next_budget(self, self.solutions, max_solutions)
            if budget is None:
                return LIMIT
            if self.memo is not None and not self._memo_judged:  # judged at MEMO_TRIAL
                budget = min(budget, max(MEMO_TRIAL - int(self.kernel_stats[1]), 1000))
            state = self._state._replace(memo=self._memo_table(stream, max_solutions))
            t0 = time.perf_counter()
            nodes_before = int(self.kernel_stats[1])
            code = _kernel().search(
                self._tables, state, self.forced, self.prefix, self.split_depth, budget,
                -1 if max_solutions is None else max_solutions, stream, self.memo_levels,
            )  # fmt: skip
            dt = time.perf_counter() - t0
            self.seconds += dt
            if self.memo is not None:
                self.memo.used_for(dt)
                self._judge_memo()
            if code == OVERFLOW:
                self._new_state(limbs=2 * self.limbs)  # start again, counts twice as wide
                continue
            if code == PAUSED:
                adapt_budget(self, int(self.kernel_stats[1]) - nodes_before, dt)
                return code
            if code == LIMIT:
                self.stopped_by = f"solution limit {max_solutions}"
            if code == DONE:
                self.done = True
            return code
