"""The Python side of the tight kernel: ``TightSearch``, its ``dlx.driver.Driver``.

``TightSearch`` takes the arguments of every driver (and the kernel's own choice,
``memo_levels``) and answers the same calls, so the progress bar, limits, Ctrl-C,
streams, splits, workers, Dask and checkpoints work with it. Branch numbers (the paths
of a split) are those of the tight kernel's own tree: a split made with one kernel
must be run with the same kernel.

Counts are exact at any size: the kernel keeps them in uint64 limbs, and when one
outgrows them (``OVERFLOW``) the driver starts again with twice as many; the memo's
entries stay valid and make the second run quick. The memo is on trial: after
``MEMO_TRIAL`` nodes a search drops it unless it pays (``TightSearch._judge_memo``).
"""

from __future__ import annotations

import numpy as np

from dlx import compiling
from dlx.bitsearch import MEMO_BYTES, BitMemo, LayoutSearch
from dlx.problem import Problem
from dlx.tightlayout import State, layout, root_live, root_uncovered, tables

MEMO_LEVELS = 1 << 30  # the kernel's default: keep the counts of every level
MEMO_TRIAL = 50_000  # nodes a search runs with its memo before judging it ...
MEMO_PAYS = 0.5  # ... which it keeps if its hits saved at least this share of them


class TightMemo(BitMemo):
    """A table of subtree counts for full counts of one problem (see "Memo" in
    ``dlx/tight.py``), laid out as ``dlx.bitsearch.BitMemo``'s; the searches of one
    problem's subproblems may share it."""

    @classmethod
    def of(cls, problem: Problem, nbytes: int = MEMO_BYTES) -> TightMemo:
        """A fresh memo for ``problem`` (every problem the kernel takes allows one)."""
        return cls(layout(problem), nbytes)


class TightSearch(LayoutSearch):
    """One search of a problem by the tight kernel, resumable (see ``dlx.driver.Driver``).

    Parameters
    ----------
    problem : the problem to search.
    memo_levels : keep memo counts of levels ``<= memo_levels`` only (default: all).

    Other Parameters
    ----------------
    forced, prefix, split_depth, node_limit, time_limit, progress, desc, budget : object
        as for ``dlx.driver.Driver``.
    memo : a ``TightMemo`` of this problem, used by full counts only, and dropped where
        it does not pay (``_judge_memo``).
    """

    kind = "tight"
    kernel_module = "dlx.tight"

    def __init__(self, problem: Problem, *, memo_levels: int | None = None, **driver):
        self.memo_levels = MEMO_LEVELS if memo_levels is None else int(memo_levels)
        self._memo_judged = False
        super().__init__(problem, **driver)

    # -- the hooks of ``Driver`` ----------------------------------------------------------

    def _prepare(self, forced: list[int]) -> None:
        """The layout, and the forced options as bits."""
        self._tables = tables(self._lay_out(layout(self.problem), forced))
        self.memo_stats = np.zeros(2, np.int64)  # the memo's lookups, nodes saved

    def _new_state(self, limbs: int) -> None:
        """Fresh search arrays (at the root), counts in ``limbs`` words."""
        lay = self._layout
        live = np.zeros((lay.rows, lay.words), np.uint64)
        live[0] = root_live(lay)
        uncovered = np.zeros((lay.rows, lay.item_words), np.uint64)
        uncovered[0] = root_uncovered(lay)
        self._state = State(
            **self._level_arrays(lay.rows, limbs),
            live=live,
            uncovered=uncovered,
            memo_stats=self.memo_stats,
        )

    def _call(self, budget: int, stream: bool, max_solutions: int | None) -> int:
        """One kernel call; a memo on trial is judged after ``MEMO_TRIAL`` nodes (the
        budget cut to reach them, no further)."""
        on_trial = self.memo is not None and not self._memo_judged
        if on_trial:
            budget = min(budget, max(MEMO_TRIAL - int(self.kernel_stats[1]), 1000))
        code = self.kernel().search(
            self._tables, self._state._replace(memo=self._memo_table()), self.forced, self.prefix,
            self.split_depth, budget, -1 if max_solutions is None else max_solutions, stream,
            self.memo_levels,
        )  # fmt: skip
        if on_trial:
            self._judge_memo()
        return code

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

    def table_bytes(self) -> int:
        """Bytes this search holds: the layout's tables (``TightLayout.table_bytes``),
        its own arrays (``TightLayout.search_bytes``) and its memo's table, if any; the
        first two are refused past ``dlx.tightlayout.MAX_BYTES`` when the layout is
        built, with the figure."""
        memo = 0 if self.memo is None else self.memo.nbytes
        return self._layout.table_bytes() + self._layout.search_bytes(self.limbs) + memo

    def sanity(self) -> None:
        """Check the search's rows against its choices (AssertionError naming the fault)."""
        lay = self._layout
        fault = self.kernel().sanity(
            self._tables, self._state, root_live(lay), self.memo is not None
        )
        if fault:
            what = {1: "live set", 2: "uncovered items", 3: "key", 4: "choice"}[fault % 8]
            raise AssertionError(f"tight search: the {what} of level {fault // 8} is wrong")


compiling.register(TightSearch.warm_up)
