"""The Python side of the tight kernel: ``TightSearch``, its ``dlx.driver.driver.Driver``.

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

import time
from collections import namedtuple

import numpy as np

from dlx import compiling
from dlx.driver.codes import NO_SPLIT
from dlx.driver.driver import TableBytes, tiny_problem
from dlx.driver.results import BatchResult, flat_sets
from dlx.driver.rows import RowMemo, RowSearch
from dlx.errors import ProblemError
from dlx.kernels.tight.layout import (
    State,
    TightLayout,
    batch_layout,
    layout,
    one_bit,
    root_live,
    root_uncovered,
    tables,
)
from dlx.problem import Problem

MEMO_LEVELS = 1 << 30  # the kernel's default: keep the counts of every level
MEMO_TRIAL = 50_000  # nodes a search runs with its memo before judging it ...
MEMO_PAYS = 0.5  # ... which it keeps if its hits saved this share of its nodes and lookups
MEMO_GLANCE = 5_000  # nodes (its table's first growth: no call of its own) after which ...
MEMO_GLANCE_PAYS = 0.02  # ... a memo on trial that has saved under this share is dropped
MEMO_TRIAL_BYTES = 1 << 20  # the memo's table in its trial ...
MEMO_KEPT_NODES = 200_000  # ... and until its searches have run this many nodes
MEMO_LATE = 2_500  # a fresh memo of a search from the root is used from this node on ...
MEMO_LATE_SHARE = 1 / 3  # ... where at least this share of the entries are secondary
WORD = (1 << 64) - 1  # a key's hash is a sum modulo 2 ** 64
FRAME_WORDS = 16  # a frame's words (the most it holds: 64 * FRAME_WORDS options live)
# A search's frame (see ``dlx/kernels/tight/frames.py``): the groups each option belongs to
# (CSR by option bit), then its rows, numbering, groups and level.
Frame = namedtuple("Frame", "items member_start member live map group level")
NO_FRAMES = (np.zeros(0, np.int64), np.zeros(0, np.int64))  # the members: frames off
ITEM_MASK_BYTES = 8 << 20  # each option's items as a mask while they take this at most
MASK_PASSES = 4  # words of those masks made a word at a time (``_item_masks``)
PARTS = "tight, in part"  # the half of the kernel's parts compiled elsewhere (dlx.compiling)


class TightMemo(RowMemo):
    """A table of subtree counts for full counts of one problem (see "Memo" in
    ``dlx/kernels/tight/kernel.py``), laid out as ``dlx.driver.rows.RowMemo``'s; the
    searches of one problem's subproblems may share it. ``paid``: it has paid its way in
    one search's trial (``TightSearch._judge_memo``), and later searches keep it without
    one."""

    paid = False

    @staticmethod
    def schedule() -> list[tuple[float, float, int]]:
        """``RowMemo.schedule``, its first growth to ``MEMO_TRIAL_BYTES`` only, and on to
        its size at ``MEMO_KEPT_NODES``: the trial runs on a table that the caches hold (most
        memos here fail it, and the lookups in a 16 MiB table cost them more), and a
        memo that passes it grows after it."""
        (seconds, nodes, size), *later = RowMemo.schedule()
        return [(seconds, nodes, MEMO_TRIAL_BYTES), (seconds, MEMO_KEPT_NODES, size), *later]

    @classmethod
    def of(cls, problem: Problem, nbytes: int | None = None) -> TightMemo:
        """A fresh memo for ``problem`` (every problem the kernel takes allows one)."""
        return cls(layout(problem), nbytes)


class TightSearch(RowSearch):
    """One search of a problem by the tight kernel, resumable (see ``dlx.driver.driver.Driver``).

    Parameters
    ----------
    problem : the problem to search.
    memo_levels : keep memo counts of levels ``<= memo_levels`` only (default: all).
    frames : pack the live set into a frame deep down (default; ``False``: never).

    Other Parameters
    ----------------
    forced, prefix, split_depth, node_limit, time_limit, progress, desc, budget : object
        as for ``dlx.driver.driver.Driver``.
    memo : a ``TightMemo`` of this problem, used by full counts only, and dropped where
        it does not pay (``_judge_memo``).
    """

    kind = "tight"
    kernel_module = "dlx.kernels.tight.kernel"

    def __init__(
        self, problem: Problem, *, memo_levels: int | None = None, frames: bool = True, **driver
    ):
        self.memo_levels = MEMO_LEVELS if memo_levels is None else int(memo_levels)
        self.frames = bool(frames)
        self._memo_judged = False
        self._memo_start = 0  # the node from which the memo is used (``_memo_on``)
        super().__init__(problem, **driver)
        self._late_memo = None  # a memo that waits for MEMO_LATE nodes (``_memo_on``) ...
        if self._waits():  # ... set aside: the driver neither grows nor widens it meanwhile
            self._late_memo, self.memo = self.memo, None

    @classmethod
    def warm_up(cls, variant: bool = False) -> None:
        """Compile (or load) the kernel (see ``dlx.compiling``). On a first run (numba's
        cache holds none of it) half of ``search``'s parts (``kernel.parts``) are
        compiled in a second process, on another core, while this one compiles the
        other half; ``search`` is compiled once both are in numba's cache, and loads
        them from it."""
        if compiling.warmed(cls.kind, variant):  # (done, or being done, in this process)
            return
        if not compiling.running_ahead(cls.kind):
            cls.compile_half_ahead()  # (else done, or the whole kernel compiles elsewhere)
        compiling.warm(
            cls.kind, cls.kernel().search, variant, lambda: _warm_up_in_halves(cls, variant)
        )

    @classmethod
    def compile_half_ahead(cls) -> bool:
        """Start compiling the second half of ``search``'s parts in another process
        when numba's cache has nothing of the kernel (``dlx.compiling.ahead``); True
        when started."""
        where = f"{cls.__module__}:{cls.__qualname__}"
        return compiling.ahead(PARTS, cls.kernel_module, where, call="compile_second_half")

    @classmethod
    def compile_second_half(cls) -> None:
        """Compile the second half of ``search``'s parts (what ``compile_half_ahead``'s
        process runs)."""
        _compile(_parts(tiny_problem(False))[1])

    # -- the hooks of ``Driver`` ----------------------------------------------------------

    def _prepare(self, forced: list[int]) -> None:
        """The layout, and the forced options as bits."""
        lay = layout(self.problem)
        self._tables = tables(self._lay_out(lay, forced, lay.table_bytes()))
        wide = self._layout.words > FRAME_WORDS
        self._members = self.problem.layout_of(_members) if self.frames and wide else NO_FRAMES
        self._items = self.problem.layout_of(_item_masks)
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
        rows, groups, bits = self._frame_shape()
        self._frame = Frame(
            self._items,
            *self._members,
            live=np.zeros((rows, FRAME_WORDS), np.uint64),
            map=np.zeros(bits, np.int64),
            group=np.zeros((groups, FRAME_WORDS), np.uint64),
            level=np.array([-1], np.int64),
        )

    def _call(self, budget: int, stream: bool, max_solutions: int | None) -> int:
        """One kernel call; a memo on trial is judged after ``MEMO_TRIAL`` nodes (the
        budget cut to reach them, no further)."""
        if self._late_memo is not None:
            budget = self._memo_wait(budget, stream or max_solutions is not None)
        on_trial = self.memo is not None and not (self._memo_judged or self.memo.paid)
        if on_trial:
            nodes = int(self.kernel_stats[1]) - self._memo_start
            glance = self._glance()
            mark = glance if nodes < glance else MEMO_TRIAL
            budget = min(budget, max(mark - nodes, 1000))
        state = self._state if self.memo is None else self._state._replace(memo=self._memo_table())
        code = self.kernel().search(
            self._tables, state, self._frame, self.forced, self.prefix,
            self.split_depth, budget, -1 if max_solutions is None else max_solutions, stream,
            self.memo_levels,
        )  # fmt: skip
        if on_trial:
            self._judge_memo()
        return code

    def _waits(self) -> bool:
        """Whether the memo waits for ``MEMO_LATE`` nodes (``_memo_on``): a fresh one,
        in a search from the root of a problem whose entries are ``MEMO_LATE_SHARE`` or
        more secondary. A key holds the state of every secondary item, and where they
        are that many, subproblems hardly repeat: of the problems of Knuth's suite and
        ``scripts/bench_kernels.py`` (docs/performance.md), those (queens, de Bruijn's
        cycles, MacMahon's, the windmill, random XCC with colours: 0.49 to 0.80 of
        their entries) saved 0 to 0.007 of their first 5,000 nodes and lookups (0.066,
        XCC: its memo dropped after the trial); every memo that saved more was on a
        problem with at most 0.18 (tilings, Latin squares, sudoku: up to 0.33)."""
        if self.memo is None or self.memo.paid or self.n_fixed:
            return False
        lay = self._layout
        entries = len(lay.option_group)  # every entry, primary or secondary
        secondary = entries - len(lay.option_primary)
        return entries > 0 and secondary >= MEMO_LATE_SHARE * entries

    def tables(self) -> TableBytes:
        """The bytes this search holds now (``TableBytes``), a memo set aside included."""
        held, late = super().tables(), self._late_memo
        return held if late is None else held._replace(memo=late.nbytes, memo_max=late.max_bytes)

    def _memo_wait(self, budget: int, partial: bool) -> int:
        """``budget`` cut to reach ``MEMO_LATE`` nodes while a fresh memo waits for them
        (set aside); there it is used (``_memo_on``). A stream or a limited count
        (``partial``), or a split, drops it, as the driver drops a memo in use."""
        nodes = int(self.kernel_stats[1])
        if partial or self.split_depth != NO_SPLIT:
            self._late_memo = None
        elif nodes < MEMO_LATE:
            return min(budget, MEMO_LATE - nodes)
        else:
            self._memo_on()
        return budget

    def _memo_on(self) -> None:
        """Use the memo from here on, in a search that ran its first ``MEMO_LATE``
        nodes without it (``_waits``): a small count (queens 8, de Bruijn's cycles:
        2,215 nodes or fewer) then pays nothing for it (its keys and lookups cost a
        tenth of such a count, and save nothing there), and a long one loses the hits
        of its first nodes only. The keys of the levels the search is in are made as
        the kernel makes them (``dlx.kernels.tight.kernel._child_key``), and those
        levels keep no count when left (their counts and nodes were not noted on entry:
        their nodes are set past any count's, so that none is ``MEMO_MIN_NODES`` or
        more)."""
        t, s = self._tables, self._state
        for level in range(int(s.state[0])):
            o = int(s.choice[level])
            s.key[level + 1] = s.key[level]
            h = int(s.key_hash[level])
            for b in t.option_key[t.option_key_start[o] : t.option_key_start[o + 1]]:
                bit = np.uint64(1) << np.uint64(b & 63)
                if not s.key[level, b >> 6] & bit:
                    h = (h + int(t.group_hash[b])) & WORD  # wraps as the kernel's sum
                    s.key[level + 1, b >> 6] |= bit
            s.key_hash[level + 1] = h
            s.level_nodes[level] = np.iinfo(np.int64).max
        self._memo_start = int(self.kernel_stats[1])
        self.memo, self._late_memo = self._late_memo, None

    def _judge_memo(self) -> None:
        """Drop the memo for good once it has had ``MEMO_TRIAL`` nodes and saved less
        than ``MEMO_PAYS`` of them and its lookups together (where subproblems rarely
        repeat, as in n queens, keys and lookups cost more than they save; a lookup, a
        read at random in a large table, costs about a node, and where the hits save
        small subtrees near the leaves, as in random XCC with colours, they do not pay
        for the lookups). Counts stay exact: a search without a memo just stores and
        looks up nothing more.

        A memo that pays is marked ``paid``: the tasks of a parallel count that get it
        later (each a search of its own) keep it without a trial. Their first nodes
        would often fail one: a task starts deep in the tree, where the memo has few of
        its subtrees yet, and the hits that pay come later (the cross of
        ``data/polyform/polyominoes2345_cross.txt`` on two cores: docs/performance.md).

        A memo whose hits have saved under ``MEMO_GLANCE_PAYS`` once it has had
        ``MEMO_GLANCE`` nodes (``_glance``) is dropped then, before the trial's end:
        where subproblems never repeat (n queens, de Bruijn cycles, a sudoku with one
        solution) its lookups only cost (queens 11 with it for all its 48,610 nodes
        takes 1.45 times its count without it); a memo that pays has saved more by then
        (Latin squares of order 5: 0.5 of its first 5,000 nodes and lookups; the cross
        0.26)."""
        nodes = int(self.kernel_stats[1]) - self._memo_start
        share = int(self.memo_stats[1]) / max(nodes + int(self.memo_stats[0]), 1)
        if nodes >= MEMO_TRIAL:
            self._memo_judged = True
            if share < MEMO_PAYS:
                self.memo = None
            else:
                self.memo.paid = True
        elif nodes >= self._glance() and share < MEMO_GLANCE_PAYS:
            self._memo_judged = True
            self.memo = None

    def _glance(self) -> int:
        """Nodes after which a memo on trial that has saved next to nothing is dropped:
        ``MEMO_GLANCE`` in a search from the root; a task of a split (a prefix) waits
        for the trial's end, as its first nodes, deep in the tree, find few subtrees in
        its worker's memo yet."""
        return MEMO_GLANCE if len(self.prefix) == 0 else MEMO_TRIAL

    def _search_bytes(self, limbs: int) -> int:
        lay = self._layout
        live = 8 * lay.rows * (lay.words + lay.item_words) + self.memo_stats.nbytes
        rows, groups, bits = self._frame_shape()
        frame = 8 * ((rows + groups) * FRAME_WORDS + bits + 1)
        return self._level_bytes(lay.rows, limbs) + live + frame

    def _frame_shape(self) -> tuple[int, int, int]:
        """The frame's rows, groups and bits (none where frames are off)."""
        if self._members is NO_FRAMES:
            return 0, 0, 0
        return self._layout.rows, len(self._layout.group_start) - 1, 64 * FRAME_WORDS

    def _state_bytes(self) -> int:
        """The state's arrays and the frame's own (its members and the items' masks are
        the problem's, kept with it)."""
        frame = self._frame
        return super()._state_bytes() + sum(a.nbytes for a in frame[3:])

    def sanity(self) -> None:
        """Check the search's rows against its choices (AssertionError naming the fault)."""
        lay = self._layout
        fault = self.kernel().sanity(
            self._tables, self._state, self._frame, root_live(lay), self.memo is not None
        )
        if fault:
            what = {1: "live set", 2: "uncovered items", 3: "key", 4: "choice"}[fault % 8]
            raise AssertionError(f"tight search: the {what} of level {fault // 8} is wrong")


def _warm_up_in_halves(search_class: type, variant: bool) -> None:
    """A tiny search of ``search_class``; where the second half of ``search``'s parts
    is being compiled elsewhere (``TightSearch.warm_up``), the first half compiled here
    first and that process waited for, so that ``search`` loads both."""
    problem = tiny_problem(variant)
    if compiling.running_ahead(PARTS):
        _compile(_parts(problem)[0])
        compiling.wait_ahead(PARTS)
    search_class(problem).run()


def _parts(problem: Problem) -> tuple[list, list]:
    """``dlx.kernels.tight.parts.parts`` for a search of ``problem`` (numba imported)."""
    compiling.kernel_module(TightSearch.kernel_module)
    from dlx.kernels.tight.parts import parts

    return parts(*_arguments(problem))


def _arguments(problem: Problem) -> tuple:
    """The tables, state and frame of a search of ``problem`` as the kernel takes
    them, made without warming the kernel up."""

    class Cold(TightSearch):
        def _warm_up(self) -> None:
            pass

    search = Cold(problem)
    return search._tables, search._state._replace(memo=search._memo_table()), search._frame


def _compile(parts: list) -> None:
    """Compile (or load from numba's cache) each ``(dispatcher, signature)``."""
    for dispatcher, signature in parts:
        dispatcher.compile(signature)


def _item_masks(problem: Problem) -> np.ndarray:
    """uint64[n_options, item_words]: the primary items of each option (bit) of the tight
    layout of ``problem``, as a set (no rows past ``ITEM_MASK_BYTES``; built once). An
    option's items are distinct, so each word is the OR of its items' bits there, an
    option's entries at a time (``reduceat`` over the options that have any; a pass
    a word for up to ``MASK_PASSES`` words)."""
    lay = layout(problem)
    n_options, words = len(lay.option), lay.item_words
    if n_options * words * 8 > ITEM_MASK_BYTES:
        return np.zeros((0, words), np.uint64)
    masks = np.zeros((n_options, words), np.uint64)
    start = lay.option_primary_start
    has = start[1:] > start[:-1]
    if has.all():  # (every option has primary items: no mask)
        has = slice(None)
    first = start[:-1][has]
    if len(first) == 0:
        return masks
    item = lay.option_primary
    bit = one_bit(item)
    if words == 1:
        masks[has, 0] = np.bitwise_or.reduceat(bit, first)
        return masks
    word, zero = item >> 6, np.uint64(0)
    if words > MASK_PASSES:  # a pass a word would cost more than ORing bit by bit
        option = np.repeat(np.arange(n_options), np.diff(start))
        np.bitwise_or.at(masks, (option, word), bit)
        return masks
    for w in range(words):
        masks[has, w] = np.bitwise_or.reduceat(np.where(word == w, bit, zero), first)
    return masks


def _members(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """(member_start, member): the groups of the tight layout of ``problem`` that each
    option (bit) belongs to, as compressed rows: its primary items, and the secondary
    items' groups that list it (built once, ``Problem.layout_of``)."""
    lay = layout(problem)
    size = np.diff(lay.group_start)
    entry_group = np.repeat(np.arange(len(size)), size)
    entry, bit = np.nonzero((lay.group_bits[:, None] >> np.arange(64, dtype=np.uint64)) & 1)
    option = lay.group_word[entry] * 64 + bit
    start = np.zeros(len(lay.option) + 1, np.int64)
    np.cumsum(np.bincount(option, minlength=len(lay.option)), out=start[1:])
    return start, entry_group[entry][np.argsort(option, kind="stable")].astype(np.int64)


# -- batches ----------------------------------------------------------------------------

# item domination in a batch (``propagate="domination"``): by default the items checked
# are those with at most this many live options (see "batches" in ``dlx/kernels/tight/kernel.py``)
DOMINATION_CAP = 2
# the most options an item of a batch may have (``_UNCOVERED_MAX`` in
# ``dlx/kernels/tight/kernel.py``:
# a covered item's count stays above it)
BATCH_MAX_OPTIONS = 1 << 29


# What a batch's kernel call takes (see "batches" in ``dlx/kernels/tight/kernel.py``): its search
# arrays, and where the answers go.
BatchState = namedtuple(
    "BatchState",
    "live count cand cand_start choice branch_index branch_degree pending taken "
    "taken_end dominates dead spare stats",
)
BatchOut = namedtuple("BatchOut", "counts first stats")
# What a batch needs of its problem, built once (``Problem.layout_of``): the layout, as
# the kernel takes it, each option's bit, every option live, the items that may dominate.
BatchKit = namedtuple("BatchKit", "layout tables bit_of root_live dominates")


def _kit(problem: Problem) -> BatchKit:
    """The problem's ``BatchKit``."""
    lay = batch_layout(problem)
    bit_of = np.empty(len(lay.option), np.int64)
    bit_of[lay.option] = np.arange(len(lay.option))
    return BatchKit(lay, tables(lay), bit_of, root_live(lay), _dominates(lay))


def _dominates(lay: TightLayout) -> np.ndarray:
    """uint8[n_primary]: 1 for each primary item two of whose options share another
    primary item (the only items whose domination may kill, with two options or more)."""
    start = lay.option_primary_start.astype(np.int64)
    size = np.diff(start)
    option = np.repeat(np.arange(len(size)), size)
    item = lay.option_primary.astype(np.int64)
    keys = []
    for d in range(1, int(size.max(initial=1))):  # entries d apart in one option
        same = option[d:] == option[:-d]
        a, b = item[:-d][same], item[d:][same]
        keys += [a * lay.n_primary + b, b * lay.n_primary + a]
    flag = np.zeros(lay.n_primary, np.uint8)
    if keys:
        values, times = np.unique(np.concatenate(keys), return_counts=True)
        flag[values[times > 1] // lay.n_primary] = 1
    return flag


def _batch_state(kit: BatchKit) -> BatchState:
    """Fresh arrays for a batch's searches."""
    lay = kit.layout
    rows = lay.rows
    levels = np.zeros(rows, np.int64)
    return BatchState(
        live=np.zeros((rows, lay.words), np.uint64),
        count=np.zeros((rows, lay.n_primary), np.int32),
        cand=np.zeros(rows * lay.max_branches, np.int64),
        cand_start=levels.copy(),
        choice=levels.copy(),
        branch_index=levels.copy(),
        branch_degree=levels.copy(),
        pending=np.zeros(lay.item_words, np.uint64),
        taken=np.zeros(lay.n_primary + 1, np.int64),
        taken_end=levels.copy(),
        dominates=kit.dominates,
        dead=np.zeros(1, np.int64),
        spare=np.zeros(lay.max_branches, np.int64),
        stats=np.zeros(2, np.int64),
    )


def batch(
    problem: Problem,
    forced_sets,
    limit: int = 2,
    *,
    start=None,
    depth=None,
    propagate=None,
    domination: int | None = None,
) -> BatchResult:
    """``dlx.batch`` on the tight kernel: one search of ``problem`` per forced set, all
    in one kernel call (arguments and result as for ``dlx.kernels.links.search.batch``; with
    ``propagate="domination"``, the kernel's own item domination, see "batches" in
    ``dlx/kernels/tight/kernel.py``, of the items with at most ``domination`` live options, default
    ``DOMINATION_CAP``; 1: singles only). The forced options are taken at the root: the
    nodes are the search's below them."""
    if propagate is not None:
        problem = problem.with_propagation(propagate)
    _warm_up_batch()  # first: its tiny batch also pays the layout's one-time imports
    kit = problem.layout_of(_kit)
    lay = kit.layout
    if lay.max_branches > BATCH_MAX_OPTIONS:
        raise ProblemError(f"batch(): an item has more than {BATCH_MAX_OPTIONS} options")
    options, start = flat_sets(forced_sets, start)
    n_sets = len(start) - 1
    if n_sets < 0 or start[0] != 0 or start[-1] != len(options) or np.any(np.diff(start) < 0):
        problem.check_forced(options, start)  # (its error says what is wrong)
    if len(options) and (options.min() < 0 or options.max() >= problem.n_options):
        problem.check_forced(options, start)
    depth = lay.n_primary if depth is None else max(int(depth), 1)
    out = BatchOut(
        counts=np.zeros(n_sets, np.int64),
        first=np.zeros((n_sets, depth + 1), np.int64),  # a last column to see overflow
        stats=np.zeros((n_sets, 2), np.int64),
    )
    cap = _cap(problem.propagate, domination)
    kernel = TightSearch.kernel()
    t0 = time.perf_counter()
    kernel.search_batch(
        kit.tables, _batch_state(kit), kit.root_live, lay.item_size,
        kit.bit_of[options], start, max(int(limit), 1), cap, out,
    )  # fmt: skip
    seconds = time.perf_counter() - t0
    if np.any(out.counts < 0):  # a set whose options clash: say how, as dlx.batch does
        k = int(np.flatnonzero(out.counts < 0)[0])
        clash = options[start[k] : start[k + 1]]
        problem.check_forced(clash)
        raise ProblemError(f"forced options {clash.tolist()} clash")
    if np.any(out.first[:, -1] >= 0):
        raise ProblemError(f"depth {depth} is too small for a first solution")
    first = out.first[:, :-1]
    chosen = np.where(first >= 0, lay.option[np.maximum(first, 0)], -1)
    nodes, updates = out.stats[:, 0], out.stats[:, 1]
    return BatchResult(out.counts, chosen, nodes, updates, seconds, options, start)


def _cap(propagate: str | None, domination: int | None) -> int:
    """The kernel's ``cap``: the most live options of an item checked for domination."""
    if domination is not None and (isinstance(domination, bool) or int(domination) < 1):
        raise ValueError(f"batch(): domination must be an integer >= 1, not {domination!r}")
    if propagate != "domination":
        if domination is not None:
            raise ValueError("batch(): domination= goes with propagate='domination'")
        return 0
    return DOMINATION_CAP if domination is None else int(domination)


def _warm_up_batch() -> None:
    """Make sure ``tight.search_batch`` is compiled before a batch starts timing."""
    compiling.warm(
        "tight batch",
        TightSearch.kernel().search_batch,
        False,
        lambda: batch(tiny_problem(False), [[]]),
    )


compiling.register(TightSearch.warm_up)
compiling.register(_warm_up_batch)
