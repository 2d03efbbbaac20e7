"""The Python side of the bitset kernel: ``BitsetSearch``, its ``dlx.driver.driver.Driver``.

``BitsetSearch`` takes the arguments of every driver (and the kernel's own choices)
and answers the same calls, so the progress bar, limits, Ctrl-C, streams, splits,
workers, Dask and checkpoints work with either kernel. Branch numbers (the paths of a
split) are those of the bitset kernel's own tree: a split made with one kernel must be
run with the same kernel.

Counts are exact at any size: the kernel keeps them in uint64 limbs, and when one
outgrows them (``OVERFLOW``) the driver starts again with twice as many; the memo's
entries stay valid (``BitMemo.widen``) and make the second run quick.
"""

from __future__ import annotations

import numpy as np

from dlx import compiling
from dlx.driver.rows import RowMemo, RowSearch
from dlx.kernels.bitset.layout import BitLayout, State, Tables, layout, sanity
from dlx.problem import Problem

URGENT, MEMO_LEVELS = True, 1 << 30  # the kernel's defaults (see ``options``)


def _tables(lay: BitLayout) -> Tables:
    """The layout as the kernel takes it."""
    return Tables(
        lay.words, lay.n_cells, lay.mask, lay.test_mask,
        lay.list_start, lay.group_start, lay.slot_group, lay.bit_slots, lay.option_slot,
        lay.halo,
        lay.primary_mask,
        lay.option_counter_start, lay.option_counter,
        lay.counter_lo.astype(np.uint64), lay.counter_hi.astype(np.uint64),
        lay.urgent_bit, lay.urgent_start, lay.urgent_option,
        lay.cell_mask, lay.neighbours, lay.piece_bit, lay.piece_counter,
        lay.piece_size_start, lay.piece_size, lay.option_hash,
    )  # fmt: skip


class BitMemo(RowMemo):
    """The bitset kernel's table of subtree counts (see "Memo" in
    ``dlx/kernels/bitset/kernel.py``; the table itself: ``RowMemo``)."""

    @classmethod
    def of(cls, problem: Problem, nbytes: int | None = None) -> BitMemo:
        """A fresh memo for ``problem`` (every problem the kernel takes allows one)."""
        return cls(layout(problem), nbytes)


class BitsetSearch(RowSearch):
    """One search of a problem by the bitset kernel, resumable (see ``dlx.driver.driver.Driver``).

    Parameters
    ----------
    problem : the problem to search.
    urgent, prune_cap, memo_levels : the kernel's choices (see ``dlx/kernels/bitset/kernel.py``):
        branch on urgent items first; judge the regions of at most ``prune_cap`` cells
        next to the option just taken (default 1: lone cells only, checked without a
        fill; 0: no pruning); keep memo counts of levels ``<= memo_levels`` only
        (default: with pieces, the levels of the first two thirds of them plus one, where
        lookup pays for its hashing; else all).

    Other Parameters
    ----------------
    forced, prefix, split_depth, node_limit, time_limit, progress, desc, budget : object
        as for ``dlx.driver.driver.Driver``.
    memo : a ``BitMemo`` of this problem, used by full counts only.
    """

    kind = "bitset"
    kernel_module = "dlx.kernels.bitset.kernel"
    prefix_dtype = np.int64

    def __init__(
        self,
        problem: Problem,
        *,
        urgent: bool = URGENT,
        prune_cap: int | None = None,
        memo_levels: int | None = None,
        **driver,
    ):
        self._choices = (urgent, prune_cap, memo_levels)
        super().__init__(problem, **driver)

    # -- the hooks of ``Driver`` ----------------------------------------------------------

    def _prepare(self, forced: list[int]) -> None:
        """The layout, the kernel's choices, and the forced options in list order."""
        lay = self._lay_out(layout(self.problem), forced)
        self._tables = _tables(lay)
        urgent, prune_cap, memo_levels = self._choices
        cap = 1 if prune_cap is None else int(prune_cap)
        if memo_levels is None:
            pieces = len(lay.piece_bit) if lay.n_cells else 0
            # each copy past a piece's first is a level more (dominoes*95: 95 levels)
            extra = lay.counter_hi[lay.piece_counter[lay.piece_counter >= 0]] - 1
            extra = int(extra.sum()) if pieces else 0
            memo_levels = 2 * pieces // 3 + 1 + extra if pieces else MEMO_LEVELS
        self.options = np.array([int(bool(urgent)), cap, int(memo_levels)], np.int64)
        self._regions = None  # lone cells need no fill (the kernel is compiled without)
        if cap > 1 and lay.n_cells:
            marks = np.zeros((3, lay.words), np.uint64)
            self._regions = (marks, np.zeros(max(lay.n_bits, 1), np.int64))

    def _new_state(self, limbs: int) -> None:
        """Fresh search arrays (at the root), counts in ``limbs`` words."""
        lay = self._layout
        rows = lay.max_level + 2
        n_sums = lay.n_cells // 64 + 1
        self._state = State(
            **self._level_arrays(rows, limbs),
            # at the root every piece that some list holds is free (see ``BitLayout``)
            free=np.repeat(np.bitwise_or.reduce(lay.bit_slots, axis=0)[None, :], rows, axis=0),
            reach=np.zeros(n_sums, np.uint64),
            spare=np.zeros(n_sums, np.uint64),
        )

    def _search_bytes(self, limbs: int) -> int:
        lay = self._layout
        rows = lay.max_level + 2
        regions = 0 if self._regions is None else 8 * (3 * lay.words + max(lay.n_bits, 1))
        free = 8 * rows * lay.bit_slots.shape[1] + 16 * (lay.n_cells // 64 + 1)
        return self._level_bytes(rows, limbs) + free + regions

    def _state_bytes(self) -> int:
        regions = 0 if self._regions is None else sum(a.nbytes for a in self._regions)
        return super()._state_bytes() + regions

    def _call(self, budget: int, stream: bool, max_solutions: int | None) -> int:
        return self.kernel().search(
            self._tables, self._state._replace(memo=self._memo_table()), self._regions,
            self.forced, self.prefix, self.split_depth, budget,
            -1 if max_solutions is None else max_solutions, stream, self.options,
        )  # fmt: skip

    def sanity(self) -> None:
        """Check the search's arrays at a pause (``sanity`` in ``dlx.kernels.bitset.layout``)."""
        sanity(self._layout, self._state, self.n_fixed)

    def _variant(self) -> bool:
        """True for the specialisation with region pruning's fill (``prune_cap`` > 1)."""
        return self._regions is not None

    @classmethod
    def warm_up(cls, variant: bool = False) -> None:
        """Compile (or load) the kernel: without the fill, or with it (``variant``)."""
        if not variant:
            super().warm_up()
            return
        problem = Problem(primary=["a", "b"])  # two cells: a fill to compile
        problem.add_option(["a", "b"])
        compiling.warm(
            "bitset with regions",
            cls.kernel().search,
            False,
            lambda: cls(problem, prune_cap=2).run(),
        )

    @classmethod
    def warm_up_every(cls) -> None:
        """Compile (or load) both specialisations: without and with the fill."""
        cls.warm_up(False)
        cls.warm_up(True)


compiling.register(BitsetSearch.warm_up_every)
