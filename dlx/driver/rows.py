"""The row-search base of the bit-parallel kernels (bitset and tight): ``RowSearch``,
the hooks of ``Driver`` that read their states alike, and ``RowMemo``, their table of
subtree counts (its rows laid out as both kernels' jitted code reads them).
"""

from __future__ import annotations

import math
import mmap

import numpy as np

from dlx.driver.driver import MIN_BUDGET, Driver
from dlx.driver.tables import array_bytes

MEMO_FIRST_BYTES = 64 << 10  # the memo table at first (one-limb counts) ...
MEMO_GROW_NODES = 5_000  # ... until its searches have run this many nodes, then
MEMO_BYTES = 16 << 20  # this ...
MEMO_BIG_BYTES = 64 << 20  # ... and this, once they have run MEMO_GROW_AFTER seconds
MEMO_GROW_AFTER = 2.0
HUGE_PAGE = 2 << 20  # bytes of a huge page (x86-64, arm64 with 4 KiB pages)


class RowMemo:
    """A table of subtree counts for full counts of one problem (see "Memo" in
    ``dlx/kernels/bitset/kernel.py``), for the bit-parallel kernels (each subclasses it
    with its ``of``); the searches of one problem's subproblems may share it.

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

    def __init__(self, lay, nbytes: int | None = None, limbs: int = 1):
        """``lay``: the kernel's layout of the problem (its ``key_words`` words a key)."""
        self.layout = lay
        start = nbytes or MEMO_FIRST_BYTES
        self._shape = _table_shape(lay.key_words, limbs, start)
        self._table = None  # made at its first use (``table``)
        self.seconds = 0.0  # of the searches that used it
        self.nodes = 0  # ... and their nodes
        self.steps = [step for step in self.schedule() if step[2] > start]
        self.max_bytes = max(self.nbytes, MEMO_BIG_BYTES)  # see ``limit``

    @property
    def table(self) -> np.ndarray:
        """The table, made at its first use: a memo that a search sets aside and never
        uses (``dlx.kernels.tight.search.TightSearch._waits``) costs no table."""
        if self._table is None:
            self._table = _anonymous(self._shape)
        return self._table

    @table.setter
    def table(self, table: np.ndarray) -> None:
        self._table, self._shape = table, table.shape

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
        self.max_bytes = max(min(self.max_bytes, nbytes), self.nbytes)

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
        rows, width = self._shape
        more = 2 * _buckets_of(width, min(size, self.max_bytes)) // rows if size else 1
        if more > 1:
            self.table = _anonymous((rows * more, width))

    @property
    def nbytes(self) -> int:
        """The table's size in bytes (made or not)."""
        return 8 * self._shape[0] * self._shape[1]

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
    return _anonymous(_table_shape(key_words, limbs, nbytes))


def _table_shape(key_words: int, limbs: int, nbytes: int) -> tuple[int, int]:
    """The shape of ``_table(key_words, limbs, nbytes)``."""
    return 2 * _buckets(key_words, nbytes), _row_width(key_words, limbs)


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


class RowSearch(Driver):
    """The hooks of ``dlx.driver.driver.Driver`` that read a kernel's state the same way for
    the bitset and tight kernels: a ``State`` (``self._state``) with the count's limbs
    (``total``), ``state`` (level, step), ``choice``, ``branch_index`` and
    ``branch_degree`` by level; a layout (``self._layout``) whose ``option`` maps the
    kernel's option numbers to the problem's; a memo of that layout whose ``table``
    widens to the count's limbs (``RowMemo``)."""

    def _lay_out(self, lay, forced: list[int], nbytes: int | None = None):
        """Keep ``lay`` (``self._layout``) and its bytes (``nbytes``, where the layout
        knows them), set ``self.forced`` (the forced options in the kernel's numbering,
        checked as the dancing-links search checks them) and fresh ``kernel_stats``
        (kept across restarts); return ``lay``."""
        self._layout = lay
        self._layout_nbytes = array_bytes(lay) if nbytes is None else nbytes  # fixed
        self.forced = np.zeros(0, np.int64)
        if forced:
            self.problem.check_forced(forced)
            position = np.empty(len(lay.option), np.int64)
            position[lay.option] = np.arange(len(lay.option))
            self.forced = position[np.asarray(forced, np.int64)]
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
