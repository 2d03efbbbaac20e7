"""The Python side of the multiplicity kernel: ``MccSearch``, its ``dlx.driver.driver.Driver``.

``MccSearch`` takes the arguments of every driver and answers the same calls, so the
progress bar, limits, Ctrl-C, streams, splits, workers, Dask and checkpoints work with
it. Branch numbers (the paths of a split) are those of this kernel's own tree: a split
made with one kernel must be run with the same kernel. It keeps no memo.
"""

from __future__ import annotations

import numpy as np

from dlx import compiling
from dlx.driver.rows import RowSearch
from dlx.driver.tables import array_bytes
from dlx.kernels.mcc.layout import State, layout, root_live, tables
from dlx.problem import Problem


def no_memo(problem: Problem) -> None:
    """The kernel's memo factory: it keeps none (``None`` for every problem)."""
    return None


class MccSearch(RowSearch):
    """One search of a problem by the multiplicity kernel, resumable (see
    ``dlx.driver.driver.Driver``; the keywords are the driver's).

    >>> from dlx import Problem
    >>> p = Problem(primary=["a"], bounds={"a": (1, 2)})
    >>> for option in (["a"], ["a"], ["a"]):
    ...     _ = p.add_option(option)
    >>> search = MccSearch(p)
    >>> _ = search.run()
    >>> search.solutions  # three single options, three pairs
    6
    """

    kind = "mcc"
    kernel_module = "dlx.kernels.mcc.kernel"

    def _prepare(self, forced: list[int]) -> None:
        """The layout, and the forced options as bits."""
        self._tables = tables(self._lay_out(layout(self.problem), forced))

    def _memo_fits(self, memo) -> bool:
        return False

    def _new_state(self, limbs: int) -> None:
        """Fresh search arrays (at the root), counts in ``limbs`` words."""
        lay = self._layout
        rows = lay.rows
        live = np.zeros((rows, lay.words), np.uint64)
        live[0] = root_live(lay)
        active = np.zeros((rows, lay.item_words), np.uint64)
        full, rest = divmod(lay.n_primary, 64)  # every primary item active at the root
        active[0, :full] = ~np.uint64(0)
        if rest:
            active[0, full] = (np.uint64(1) << np.uint64(rest)) - np.uint64(1)
        bound = np.zeros((rows, lay.n_primary), np.int32)
        bound[0] = lay.hi
        levels = np.zeros(rows, np.int64)
        self._state = State(
            live=live,
            bound=bound,
            active=active,
            best=levels.copy(),
            need=levels.copy(),
            choice=levels.copy(),
            branch_index=levels.copy(),
            branch_degree=levels.copy(),
            state=np.zeros(2, np.int64),
            stats=self.kernel_stats,
            total=np.zeros(limbs, np.uint64),
        )

    def _call(self, budget: int, stream: bool, max_solutions: int | None) -> int:
        """One kernel call."""
        return self.kernel().search(
            self._tables, self._state, self.forced, self.prefix, self.split_depth, budget,
            -1 if max_solutions is None else max_solutions, stream,
        )  # fmt: skip

    def _search_bytes(self, limbs: int) -> int:
        return self._layout.search_bytes(limbs)

    def _state_bytes(self) -> int:
        return array_bytes(self._state)

    def current_options(self) -> tuple[int, ...]:
        """The options chosen at levels 0..level-1 (problem numbering; null choices
        left out)."""
        chosen = self._state.choice[: self.level]
        return tuple(int(k) for k in self._layout.option[chosen[chosen >= 0]])

    def sanity(self) -> None:
        """Check the search's rows against its choices (AssertionError naming the fault)."""
        lay = self._layout
        fault = self.kernel().sanity(self._tables, self._state, root_live(lay), lay.hi)
        if fault:
            what = {1: "live set", 2: "bounds", 3: "active items", 4: "choice"}[fault % 8]
            raise AssertionError(f"mcc search: the {what} of level {fault // 8} is wrong")


compiling.register(MccSearch.warm_up)
