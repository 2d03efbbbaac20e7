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

import math
import mmap

import numpy as np

from dlx import compiling
from dlx.driver.driver import MIN_BUDGET, Driver, forced_nodes
from dlx.kernels.bitset.layout import BitLayout, State, Tables, layout, sanity
from dlx.kernels.links.layout import array_bytes
from dlx.problem import Problem

MEMO_FIRST_BYTES = 64 << 10  # the memo table at first (one-limb counts) ...
MEMO_GROW_NODES = 5_000  # ... until its searches have run this many nodes, then
MEMO_BYTES = 16 << 20  # this ...
MEMO_BIG_BYTES = 64 << 20  # ... and this, once they have run MEMO_GROW_AFTER seconds
MEMO_GROW_AFTER = 2.0
HUGE_PAGE = 2 << 20  # bytes of a huge page (x86-64, arm64 with 4 KiB pages)
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


class BitMemo:
    """A table of subtree counts for full counts of one problem (see "Memo" in
    ``dlx/kernels/bitset/kernel.py``); the searches of one problem's subproblems may share it.

    ``table``: uint64[2 * buckets, width], a row per entry (the key's words, the nodes
    its subtree took, 0 for an empty row, then the count's limbs), two rows a bucket;
    ``buckets`` is the largest power of two that keeps it within ``nbytes`` (for one
    limb), and ``width`` a power of two, so that a bucket of a key of up to three
    words is one 64-byte cache line. A table of ``HUGE_PAGE`` bytes or more is
    anonymous memory: untouched pages cost nothing, and Linux may back it with huge
    pages (fewer TLB misses). It starts small (``nbytes`` when given) and grows as its
    searches run on (``used_for``, ``steps``): the first touch of a huge page zeroes
    all of it, which would cost a small count more than its search.
    """

    def __init__(self, lay: BitLayout, nbytes: int | None = None, limbs: int = 1):
        self.layout = lay
        start = nbytes or MEMO_FIRST_BYTES
        self.table = _table(lay.key_words, limbs, start)
        self.seconds = 0.0  # of the searches that used it
        self.nodes = 0  # ... and their nodes
        self.steps = [step for step in self.schedule() if step[2] > start]
        self.max_bytes = max(self.table.nbytes, MEMO_BIG_BYTES)  # see ``limit``

    @staticmethod
    def schedule() -> list[tuple[float, float, int]]:
        """When the table grows: (seconds, or nodes, of its searches; the size then), in
        order. To ``MEMO_BYTES`` soon (a small table forgets too much for a count that
        goes on, and a trial of the tight kernel's memo on it would undersell it); past
        ``MEMO_GROW_AFTER`` seconds, to ``MEMO_BIG_BYTES``, which a long count repays
        and a short one would pay for in page faults."""
        return [
            (math.inf, MEMO_GROW_NODES, MEMO_BYTES),
            (MEMO_GROW_AFTER, math.inf, MEMO_BIG_BYTES),
        ]

    def limit(self, nbytes: int) -> None:
        """Grow to no more than ``nbytes`` (stay as it is if it is there already): wider
        counts then make the table fewer rows, not more bytes."""
        self.max_bytes = max(min(self.max_bytes, nbytes), self.table.nbytes)

    def cut(self, budget: int) -> int:
        """``budget`` (nodes of a kernel call) cut to reach the table's next growth by
        nodes, no further (``MIN_BUDGET`` at least)."""
        if not self.steps or math.isinf(self.steps[0][1]):
            return budget
        return min(budget, max(int(self.steps[0][1]) - self.nodes, MIN_BUDGET))

    def used_for(self, seconds: float, nodes: int = 0) -> None:
        """Note ``seconds`` and ``nodes`` more of search with this memo, and grow as
        ``steps`` say (never past ``max_bytes``; empty: a memo only forgets)."""
        self.seconds += seconds
        self.nodes += nodes
        size = 0
        while any(self.seconds >= t or self.nodes >= n for t, n, _ in self.steps):
            size = self.steps.pop(0)[2]  # to the last step due (by time, or by nodes)
        rows, width = self.table.shape
        more = 2 * _buckets_of(width, min(size, self.max_bytes)) // rows if size else 1
        if more > 1:
            self.table = _anonymous((rows * more, width))

    @classmethod
    def of(cls, problem: Problem, nbytes: int | None = None) -> BitMemo:
        """A fresh memo for ``problem`` (every problem the kernel takes allows one)."""
        return cls(layout(problem), nbytes)

    @property
    def nbytes(self) -> int:
        """The table's size in bytes."""
        return self.table.nbytes

    table_bytes = nbytes

    def widen(self, limbs: int) -> None:
        """Hold counts of ``limbs`` words (the entries kept are still exact)."""
        width = _row_width(self.layout.key_words, limbs)
        if width > self.table.shape[1] and self.table.shape[0] * width * 8 > self.max_bytes:
            self.table = _anonymous((2 * _buckets_of(width, self.max_bytes), width))  # forgets
        elif width > self.table.shape[1]:  # the limbs past the old ones are 0 in every row
            wider = _anonymous((self.table.shape[0], width))
            wider[:, : self.table.shape[1]] = self.table
            self.table = wider


def _table(key_words: int, limbs: int, nbytes: int) -> np.ndarray:
    """An empty memo table of at most ``nbytes`` (for one limb; see ``BitMemo``)."""
    return _anonymous((2 * _buckets(key_words, nbytes), _row_width(key_words, limbs)))


def _buckets(key_words: int, nbytes: int) -> int:
    """Buckets of a memo table of at most ``nbytes`` for one limb: a power of two."""
    return _buckets_of(_row_width(key_words, 1), nbytes)


def _buckets_of(width: int, nbytes: int) -> int:
    """Buckets of rows of ``width`` words in at most ``nbytes``: a power of two, >= 8."""
    buckets = max(nbytes // (16 * width), 8)
    return 1 << (buckets.bit_length() - 1)


def _row_width(key_words: int, limbs: int) -> int:
    """Words of a memo row: a power of two that holds a key, its weight and a count."""
    need = key_words + 1 + limbs
    return 1 << (need - 1).bit_length()


def _anonymous(shape: tuple[int, int]) -> np.ndarray:
    """A zeroed uint64 array of ``shape`` in its own anonymous mapping (page-aligned,
    advised to use huge pages where the system has them); under ``HUGE_PAGE`` bytes, an
    ordinary array (from the heap, whose pages are mapped already: a fresh mapping's
    page faults cost a small count several times its search)."""
    nbytes = shape[0] * shape[1] * 8
    if nbytes < HUGE_PAGE or not hasattr(mmap, "MAP_ANONYMOUS"):  # or not a Unix
        return np.zeros(shape, np.uint64)
    # private: a process forked later gets a copy, never the same table
    region = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            region.madvise(mmap.MADV_HUGEPAGE)
        except OSError:  # no transparent huge pages here: plain pages then
            pass
    return np.frombuffer(region, np.uint64).reshape(shape)


NO_MEMO = np.zeros((0, 4), np.uint64)  # the table of a kernel call without a memo


class LayoutSearch(Driver):
    """The hooks of ``dlx.driver.driver.Driver`` that read a kernel's state the same way for
    the bitset and tight kernels: a ``State`` (``self._state``) with the count's limbs
    (``total``), ``state`` (level, step), ``choice``, ``branch_index`` and
    ``branch_degree`` by level; a layout (``self._layout``) whose ``option`` maps the
    kernel's option numbers to the problem's; a memo of that layout whose ``table``
    widens to the count's limbs (``BitMemo``)."""

    def _lay_out(self, lay, forced: list[int]):
        """Keep ``lay`` (``self._layout``), set ``self.forced`` (the forced options in
        the kernel's numbering, checked as the dancing-links search checks them) and
        fresh ``kernel_stats`` (kept across restarts); return ``lay``."""
        self._layout = lay
        self._layout_nbytes = array_bytes(lay)  # asked for again and again: fixed
        if forced:
            forced_nodes(self.problem, forced, [0, len(forced)])
        position = np.empty(len(lay.option), np.int64)
        position[lay.option] = np.arange(len(lay.option))
        self.forced = position[np.asarray(forced, np.int64)] if forced else np.zeros(0, np.int64)
        self.kernel_stats = np.zeros(3, np.int64)
        return lay

    def _memo_fits(self, memo) -> bool:
        return memo.layout is self._layout

    def _level_arrays(self, rows: int, limbs: int) -> dict[str, np.ndarray]:
        """The fields of a fresh ``State`` that both kernels keep alike: the key and
        the branches of each of ``rows`` levels, the count in ``limbs`` words (and at
        each level's entry), ``state`` (level, step) and ``stats`` (``kernel_stats``)."""
        lay = self._layout
        levels = np.zeros(rows, np.int64)
        return {
            "key": np.zeros((rows, lay.key_words), np.uint64),
            "key_hash": np.zeros(rows, np.uint64),
            "cand": np.zeros(rows * lay.max_branches, np.int64),
            "cand_start": levels.copy(),
            "choice": levels.copy(),
            "branch_index": levels.copy(),
            "branch_degree": levels.copy(),
            "level_nodes": levels.copy(),
            "state": np.zeros(2, np.int64),
            "stats": self.kernel_stats,
            "total": np.zeros(limbs, np.uint64),
            "level_entry": np.zeros((rows, limbs), np.uint64),
            "memo": NO_MEMO,
        }

    def _level_bytes(self, rows: int, limbs: int) -> int:
        """Bytes of ``_level_arrays(rows, limbs)``, before making them."""
        lay = self._layout
        words = rows * (lay.key_words + 1 + lay.max_branches + 5 + limbs) + 2 + 3 + limbs
        return 8 * words

    def _layout_bytes(self) -> int:
        return self._layout_nbytes

    def _state_bytes(self) -> int:
        return array_bytes(self._state) - self._state.memo.nbytes

    def _memo_table(self) -> np.ndarray:
        """The memo's table for the next kernel call (an empty one without a memo)."""
        if self.memo is None:
            return NO_MEMO
        self.memo.widen(self.limbs)
        return self.memo.table

    def _branches(self) -> tuple[np.ndarray, np.ndarray]:
        return self._state.branch_index, self._state.branch_degree

    @property
    def limbs(self) -> int:
        """The words of a count."""
        return len(self._state.total)

    @property
    def solutions(self) -> int:
        """The exact count so far."""
        return sum(int(v) << (64 * k) for k, v in enumerate(self._state.total))

    @property
    def level(self) -> int:
        """The current depth of the search."""
        return int(self._state.state[0])

    def current_options(self) -> tuple[int, ...]:
        """The options chosen at levels 0..level-1 (problem numbering)."""
        chosen = self._state.choice[: self.level]
        return tuple(int(k) for k in self._layout.option[chosen])


class BitsetSearch(LayoutSearch):
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


compiling.register(BitsetSearch.warm_up)
