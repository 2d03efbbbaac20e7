"""The Python side of the bitset kernel: ``BitsetSearch``, a drop-in for ``Search``.

``BitsetSearch`` takes the same arguments as ``dlx.search.Search`` and answers the same
calls (``run``, ``fraction``, ``path``, ``path_weight``, ``current_options``, ``stats``,
``kernel_stats``, ``level``, ``done``, ``stopped_by``, ``seconds``), so the progress bar,
limits, Ctrl-C, streams, splits, workers, Dask and checkpoints work with either kernel.
Branch numbers (the paths of a split) are those of the bitset kernel's own tree: a
split made with one kernel must be run with the same kernel.

Counts are exact at any size: the kernel keeps them in uint64 limbs, and when one
outgrows them (``OVERFLOW``) the search starts again with twice as many; the memo's
entries stay valid and make the second run quick.
"""

from __future__ import annotations

import mmap
import time

import numpy as np

from dlx import compiling
from dlx.bitlayout import BitLayout, State, Tables, layout
from dlx.codes import DONE, LIMIT, NO_SPLIT, OVERFLOW, PAUSED
from dlx.errors import ProblemError
from dlx.problem import Problem
from dlx.search import FIRST_BUDGET, Stats, adapt_budget, forced_nodes, next_budget, tree_fraction

MEMO_BYTES = 16 << 20  # the memo table at first (one-limb counts)
MEMO_BIG_BYTES = 64 << 20  # ... and once its searches have run MEMO_GROW_AFTER seconds
MEMO_GROW_AFTER = 2.0
URGENT, MEMO_LEVELS = True, 1 << 30  # the kernel's defaults (see ``options``)


def _kernel():
    """The numba kernel, imported (and compiled or loaded from numba's cache) on first use."""
    from dlx import bitset

    return bitset


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


class BitMemo:
    """A table of subtree counts for full counts of one problem (see "Memo" in
    ``dlx/bitset.py``); the searches of one problem's subproblems may share it.

    ``table``: uint64[2 * buckets, width], a row per entry (the key's words, the nodes
    its subtree took, 0 for an empty row, then the count's limbs), two rows a bucket;
    ``buckets`` is the largest power of two that keeps it within ``nbytes`` (for one
    limb), and ``width`` a power of two, so that a bucket of a key of up to three
    words is one 64-byte cache line. The table is anonymous memory: untouched pages
    cost nothing, and Linux may back it with huge pages (fewer TLB misses).
    """

    def __init__(self, lay: BitLayout, nbytes: int = MEMO_BYTES, limbs: int = 1):
        self.layout = lay
        self.table = _table(lay.key_words, limbs, nbytes)
        self.seconds = 0.0  # of the searches that used it
        self.grown = nbytes >= MEMO_BIG_BYTES

    def used_for(self, seconds: float) -> None:
        """Note ``seconds`` more of search with this memo; past ``MEMO_GROW_AFTER`` in
        all, the table grows to ``MEMO_BIG_BYTES`` (empty: a memo only forgets), which
        a long count repays and a short one would pay for in page faults."""
        self.seconds += seconds
        if not self.grown and self.seconds >= MEMO_GROW_AFTER:
            limbs = self.table.shape[1] - self.layout.key_words - 1
            self.table = _table(self.layout.key_words, limbs, MEMO_BIG_BYTES)
            self.grown = True

    @classmethod
    def of(cls, problem: Problem, nbytes: int = MEMO_BYTES) -> BitMemo:
        """A fresh memo for ``problem`` (every problem the kernel takes allows one)."""
        return cls(layout(problem), nbytes)

    @property
    def nbytes(self) -> int:
        """The table's size in bytes."""
        return self.table.nbytes

    def widen(self, limbs: int) -> None:
        """Hold counts of ``limbs`` words (the entries kept are still exact)."""
        width = _row_width(self.layout.key_words, limbs)
        if width > self.table.shape[1]:  # the limbs past the old ones are 0 in every row
            wider = _anonymous((self.table.shape[0], width))
            wider[:, : self.table.shape[1]] = self.table
            self.table = wider


def _table(key_words: int, limbs: int, nbytes: int) -> np.ndarray:
    """An empty memo table of at most ``nbytes`` (for one limb; see ``BitMemo``)."""
    width = _row_width(key_words, limbs)
    buckets = max(nbytes // (16 * _row_width(key_words, 1)), 8)
    return _anonymous((2 * (1 << (buckets.bit_length() - 1)), width))


def _row_width(key_words: int, limbs: int) -> int:
    """Words of a memo row: a power of two that holds a key, its weight and a count."""
    need = key_words + 1 + limbs
    return 1 << (need - 1).bit_length()


def _anonymous(shape: tuple[int, int]) -> np.ndarray:
    """A zeroed uint64 array of ``shape`` in its own anonymous mapping (page-aligned,
    advised to use huge pages where the system has them)."""
    nbytes = shape[0] * shape[1] * 8
    if not hasattr(mmap, "MAP_ANONYMOUS"):  # not a Unix: an ordinary array
        return np.zeros(shape, np.uint64)
    # private: a process forked later gets a copy, never the same table
    region = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            region.madvise(mmap.MADV_HUGEPAGE)
        except OSError:  # no transparent huge pages here: plain pages then
            pass
    return np.frombuffer(region, np.uint64).reshape(shape)


_NO_MEMO = np.zeros((0, 4), np.uint64)


class BitsetSearch:
    """One search of a problem by the bitset kernel, resumable (see ``Search``).

    Parameters
    ----------
    problem, forced, prefix, split_depth, node_limit, time_limit, progress, desc :
        as for ``dlx.search.Search``.
    memo : a ``BitMemo`` of this problem, used by full counts only.
    budget : nodes per kernel call (None: about ``CALL_SECONDS`` of work).
    urgent, prune_cap, memo_levels : the kernel's choices (see ``dlx/bitset.py``):
        branch on urgent items first; judge the regions of at most ``prune_cap`` cells
        next to the option just taken (default 1: lone cells only, checked without a
        fill; 0: no pruning); keep memo counts of levels ``<= memo_levels`` only
        (default: with pieces, the levels of the first two thirds of them plus one, where
        lookup pays for its hashing; else all).
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
        memo: BitMemo | None = None,
        budget: int | None = None,
        urgent: bool = URGENT,
        prune_cap: int | None = None,
        memo_levels: int | None = None,
    ):
        self.problem = problem
        lay = layout(problem)
        self._layout = lay
        self._tables = _tables(lay)
        forced = [int(k) for k in forced]
        forced_nodes(problem, forced, [0, len(forced)])  # the checks (and errors) of Search
        position = np.empty(len(lay.option), np.int64)
        position[lay.option] = np.arange(len(lay.option))
        self.forced = position[np.asarray(forced, np.int64)] if forced else np.zeros(0, np.int64)
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
        cap = 1 if prune_cap is None else int(prune_cap)
        if memo_levels is None:
            pieces = len(lay.piece_bit) if lay.n_cells else 0
            memo_levels = 2 * pieces // 3 + 1 if pieces else MEMO_LEVELS
        self.options = np.array([int(bool(urgent)), cap, int(memo_levels)], np.int64)
        self._regions = None  # lone cells need no fill (the kernel is compiled without)
        if cap > 1 and lay.n_cells:
            marks = np.zeros((3, lay.words), np.uint64)
            self._regions = (marks, np.zeros(max(lay.n_bits, 1), np.int64))
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
        self._new_state(limbs=1)
        compiling.warm_up_bitset()  # before any clock starts

    @staticmethod
    def cache_misses() -> int:
        """How many times this process looked for the kernel in numba's cache and missed."""
        return sum(_kernel().search.stats.cache_misses.values())

    def _new_state(self, limbs: int) -> None:
        """Fresh search arrays (at the root), counts in ``limbs`` words."""
        lay = self._layout
        rows = lay.max_level + 2
        n_sums = lay.n_cells // 64 + 1
        levels = np.zeros(rows, np.int64)
        self._state = State(
            key=np.zeros((rows, lay.key_words), np.uint64),
            # at the root every piece that some list holds is free (see ``BitLayout``)
            free=np.repeat(np.bitwise_or.reduce(lay.bit_slots, axis=0)[None, :], rows, axis=0),
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
            reach=np.zeros(n_sums, np.uint64),
            spare=np.zeros(n_sums, np.uint64),
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
        """Statistics so far (``updates``: the options tested)."""
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
            state = self._state._replace(memo=self._memo_table(stream, max_solutions))
            t0 = time.perf_counter()
            nodes_before = int(self.kernel_stats[1])
            code = _kernel().search(
                self._tables, state, self._regions, self.forced, self.prefix, self.split_depth,
                budget, -1 if max_solutions is None else max_solutions, stream, self.options,
            )  # fmt: skip
            dt = time.perf_counter() - t0
            self.seconds += dt
            if self.memo is not None:
                self.memo.used_for(dt)
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
