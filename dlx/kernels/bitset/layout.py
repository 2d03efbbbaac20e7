"""Compile a ``dlx.Problem`` into the bitset kernel's arrays (numpy only, no numba).

Glossary (see the essay in ``dlx/kernels/bitset/kernel.py`` for how the kernel uses them)
--------------------------------------------------------------------------
bit
    An item kept as one bit of a mask of ``words`` uint64 words: every primary item
    with bounds 1:1 and every secondary item. Primary bits come first, in the order
    the problem declares them (the adapter chooses the order by declaring its items
    in it), except that *piece* bits go after the other primary bits; secondary bits
    come last.
counter
    A primary item with other bounds (``lo:hi``): the kernel counts its uses.
piece
    When every option holds exactly one of the items that begin options (Knuth's
    convention: an option is its piece's name, then the cells), those items are the
    pieces and the other primary bits are *cells*; otherwise there are no pieces and
    no region pruning.
list of a bit
    The options whose lowest primary bit (in the order) is that bit: when the first
    uncovered bit is ``b``, exactly those can cover it.
urgent item
    A primary bit with at most ``URGENT_OPTIONS`` options in all, a piece if the
    problem has pieces (X, the piece with the fewest places, or the one that the
    symmetry plan restricts to a handful of places): the kernel branches on it before
    the first uncovered cell. (Not a counter: branching on one would meet each set of
    its options once per order.)
sweep
    The order of the cells when the declared one is poor: a problem read from a
    ``.dlx`` file declares its cells in whatever order its author wrote them (row by
    row along a board's long side, say), and branching on the first uncovered cell
    then meets long fronts. The cells sorted by the Fiedler vector of the graph in
    which two cells are joined as often as options hold both (the eigenvector of the
    second smallest eigenvalue of its Laplacian) sweep the board along its longest
    extent, a short front at a time. The sweep replaces the declared order only when
    the options span (last position less first, on average) at most
    ``dlx.kernels.cells.SWEEP_GAIN`` of what they span in it, so an adapter's deliberate
    order stays.
adjacency
    Two cells are neighbours when an edge of the maximum spanning tree of some option
    joins them, the weight of a pair being the share of the options holding either
    cell that hold both: each option's cells are connected, so an option that fits lies
    in one region of the uncovered cells. On polyomino boards (holes or none) and
    polyiamond and polyhex ones this gives the grid's edges.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from dlx.driver.codes import ADVANCE, BACKDOWN, FORWARD, OVERFLOW  # noqa: F401 (earlier callers read OVERFLOW here)
from dlx.errors import ProblemError
from dlx.kernels.cells import MAX_PAIRS, adjacency, pieces_of, spans, sweep
from dlx.problem import Entries, Problem

MAX_BITS = 4096  # items kept as bits, at most (64 words)
URGENT_OPTIONS = 40  # an item with at most this many options is branched on first
SUITS_SECONDARY = 0.25  # a tiling: at most this share of its options holds a secondary item
HASH_SEED = 20261124  # the memo's random words: the same on every run and machine


# What the kernel takes: the arrays of a problem (``BitLayout``) and those of one
# search (``dlx.kernels.bitset.search``), one argument each (see
# ``dlx/kernels/bitset/kernel.py`` for both).
Tables = namedtuple(
    "Tables",
    "words n_cells mask test_mask list_start group_start slot_group bit_slots "
    "option_slot halo primary_mask option_counter_start option_counter "
    "counter_lo counter_hi urgent_bit urgent_start urgent_option "
    "cell_mask neighbours piece_bit piece_counter piece_size_start piece_size option_hash",
)
State = namedtuple(
    "State",
    "key free cand cand_start choice branch_index branch_degree level_nodes state stats "
    "key_hash total level_entry memo reach spare",
)


@dataclass(frozen=True)
class BitLayout:
    """The kernel's arrays for one problem; options are numbered in *list order*.

    ``mask``: uint64[n_options, words]; ``test_mask``: the same less the bit of the
    option's piece (tested once per group), without the words past its last bit (a
    board of up to 64 cells: one word); ``primary_mask``: uint64[words], the
    primary bits; a bit's list is split into *groups* of options of one piece:
    ``group_start[g]:group_start[g + 1]``. Pieces are numbered (their *slots*; with no
    pieces, one slot holds every group): ``slot_group[b, p]`` is the group of piece
    ``p`` in the list of bit ``b`` (-1: none), ``bit_slots``: uint64[n_primary_bits,
    slot_words] the pieces that have one, ``option_slot``: int64[n_options] the piece of
    each option when it is a bit (used up once taken), else -1; ``halo``:
    uint64[n_options, words], the cells next to each option's cells; ``max_size``: the
    most cells of an option; ``option``: int64[n_options], the problem's
    option index of each; ``list_start``: int64[n_primary_bits + 1] (the list of bit
    ``b`` is ``list_start[b]:list_start[b + 1]``); ``option_counter_start`` and
    ``option_counter`` (CSR, int64): the counters of each option; ``counter_lo``,
    ``counter_hi``: int64[n_counters]; ``urgent_bit``:
    int64[n_urgent], the urgent items, their options
    ``urgent_option[urgent_start[u]:urgent_start[u + 1]]``; ``cell_mask``:
    uint64[words]; ``neighbours``: uint64[n_bits, words] (cells only); ``option_hash``:
    uint64[n_options], what taking the option adds to a key's hash (``_option_hash``);
    ``piece_bit`` /
    ``piece_counter``: int64[n_pieces]; piece ``p``'s option sizes in cells
    ``piece_size[piece_size_start[p]:piece_size_start[p + 1]]``; ``bit_item``: the
    item number (``dlx.problem.Entries`` numbering) of each bit.
    """

    words: int
    n_bits: int
    n_primary_bits: int
    n_cells: int
    mask: np.ndarray
    test_mask: np.ndarray
    primary_mask: np.ndarray
    group_start: np.ndarray
    slot_group: np.ndarray
    bit_slots: np.ndarray
    option_slot: np.ndarray
    halo: np.ndarray
    max_size: int
    option: np.ndarray
    list_start: np.ndarray
    option_counter_start: np.ndarray
    option_counter: np.ndarray
    counter_lo: np.ndarray
    counter_hi: np.ndarray
    urgent_bit: np.ndarray
    urgent_start: np.ndarray
    urgent_option: np.ndarray
    cell_mask: np.ndarray
    neighbours: np.ndarray
    piece_bit: np.ndarray
    piece_counter: np.ndarray
    piece_size_start: np.ndarray
    piece_size: np.ndarray
    bit_item: np.ndarray
    option_hash: np.ndarray
    max_level: int
    max_branches: int

    @property
    def key_words(self) -> int:
        """Words of a memo key: the covered mask, then one word per counter."""
        return self.words + len(self.counter_lo)


def why_not(problem: Problem) -> str | None:
    """Why the bitset kernel cannot search ``problem`` (None when it can)."""
    if problem.loop_edges:  # before the entries: a loop problem can be huge
        return "it has loop items"
    try:
        entries = problem.layout_of(Problem.entries)  # kept: the line-up reads it too
    except ProblemError as e:
        return str(e)
    if np.any(entries.colour != 0):
        return "it has colours"
    n_primary = len(entries.lo)
    exact = (entries.lo == 1) & (entries.hi == 1)
    n_bits = int(exact.sum()) + entries.n_secondary
    if n_bits > MAX_BITS:
        return f"it has {n_bits} items with bounds 1:1 or secondary (at most {MAX_BITS})"
    primary_bit = np.zeros(n_primary + entries.n_secondary + 1, bool)
    primary_bit[1 : n_primary + 1] = exact
    has_bit = np.bincount(entries.option[primary_bit[entries.item]], minlength=problem.n_options)
    if not (has_bit > 0).all():
        k = int(np.flatnonzero(has_bit == 0)[0])
        return f"option {k} covers no primary item with bounds 1:1"
    return None


def fits(problem: Problem) -> bool:
    """Whether the bitset kernel can search ``problem`` (see ``why_not``)."""
    return why_not(problem) is None


def layout(problem: Problem) -> BitLayout:
    """The bitset arrays of ``problem`` (built once while the problem stays as it is,
    kept by ``Problem.layout_of``)."""
    return problem.layout_of(_build)


def _build(problem: Problem) -> BitLayout:
    """The bitset arrays of ``problem``, or ProblemError saying why there are none."""
    reason = why_not(problem)
    if reason is not None:
        raise ProblemError(f"the bitset kernel cannot search this problem: {reason}")
    return _compile(problem.entries(), problem.n_options)


@dataclass(frozen=True)
class _Items:
    """How the items are kept (see the glossary): the pieces (item numbers) and which
    items they are, the cells in their order, each bit's item and each item's bit (-1:
    a counter), the counters' items and each item's counter (-1: a bit)."""

    pieces: np.ndarray
    is_piece: np.ndarray
    cells: np.ndarray
    bit_item: np.ndarray
    bit_of: np.ndarray
    counters: np.ndarray
    counter_of: np.ndarray
    n_primary_bits: int

    @property
    def words(self) -> int:
        """uint64 words of a mask."""
        return max((len(self.bit_item) + 63) // 64, 1)


def _compile(entries: Entries, n_options: int) -> BitLayout:
    """Build the arrays (see ``BitLayout``), step by step: the items as bits and
    counters, the options' masks in list order and their groups, the counters of each
    option, the urgent items, and the cells' adjacency for region pruning."""
    items = _classify(entries, n_options)
    entry_bit = items.bit_of[entries.item]
    entry_counter = items.counter_of[entries.item]
    lowest, piece_item = _lowest_bits(entries, items, entry_bit, n_options)
    order = np.lexsort((piece_item, lowest))  # list order -> problem option
    position = np.empty(n_options, np.int64)
    position[order] = np.arange(n_options)
    mask, test_mask = _masks(entries, items, entry_bit, position, n_options)
    fields = _groups(items, lowest[order], piece_item[order])
    fields.update(_counters(entries, items, entry_counter, position, n_options))
    fields.update(_urgent(entries, items, position))
    fields.update(_regions(entries, items, entry_bit, position, piece_item, mask))
    list_length = np.diff(fields["list_start"])
    urgent_length = np.diff(fields["urgent_start"])
    max_branches = int(max(list_length.max(initial=0), urgent_length.max(initial=0), 1))
    return BitLayout(
        words=items.words,
        n_bits=len(items.bit_item),
        n_primary_bits=items.n_primary_bits,
        mask=mask,
        test_mask=test_mask,
        primary_mask=_bits_mask(range(items.n_primary_bits), items.words),
        max_size=int(fields["piece_size"].max(initial=0)),
        option=order.astype(np.int64),
        bit_item=items.bit_item.astype(np.int64),
        option_hash=_option_hash(position[entries.option], entry_bit, entry_counter, n_options),
        max_level=items.n_primary_bits + 1,
        max_branches=max_branches,
        **fields,
    )


def _classify(entries: Entries, n_options: int) -> _Items:
    """The items as bits (cells, then pieces, then secondary items) and counters."""
    option_of, item_of = entries.option, entries.item
    second = len(entries.lo) + 1
    n_items = len(entries.lo) + entries.n_secondary
    primary = np.arange(1, second)
    exact = (entries.lo == 1) & (entries.hi == 1)
    pieces = pieces_of(option_of, item_of, n_options, second)
    is_piece = np.zeros(n_items + 1, bool)
    is_piece[pieces] = True
    cells = primary[exact & ~is_piece[primary]]
    cells = sweep(cells, option_of, item_of, n_options, n_items)
    piece_bits = primary[exact & is_piece[primary]]
    counters = primary[~exact]
    bit_item = np.concatenate([cells, piece_bits, np.arange(second, n_items + 1)])
    bit_of = np.full(n_items + 1, -1, np.int64)
    bit_of[bit_item] = np.arange(len(bit_item))
    counter_of = np.full(n_items + 1, -1, np.int64)
    counter_of[counters] = np.arange(len(counters))
    n_primary_bits = len(cells) + len(piece_bits)
    return _Items(pieces, is_piece, cells, bit_item, bit_of, counters, counter_of, n_primary_bits)


def _lowest_bits(entries: Entries, items: _Items, entry_bit, n_options: int):
    """Each option's lowest primary bit (its list) and its piece's item (-1: none)."""
    option_of, item_of = entries.option, entries.item
    is_primary_bit = (entry_bit >= 0) & (entry_bit < items.n_primary_bits)
    lowest = np.full(n_options, items.n_primary_bits, np.int64)
    np.minimum.at(lowest, option_of[is_primary_bit], entry_bit[is_primary_bit])
    is_piece_entry = items.is_piece[item_of]
    piece_item = np.full(n_options, -1, np.int64)
    piece_item[option_of[is_piece_entry]] = item_of[is_piece_entry]
    return lowest, piece_item


def _bits_mask(bits, words: int) -> np.ndarray:
    """uint64[words] with ``bits`` set."""
    mask = np.zeros(words, np.uint64)
    for b in bits:
        mask[b >> 6] |= np.uint64(1) << np.uint64(b & 63)
    return mask


def _masks(entries: Entries, items: _Items, entry_bit, position, n_options: int):
    """``mask`` and ``test_mask`` (less the piece's own bit, which the group's guard
    tests; only the words up to the last one held), rows in list order."""
    mask = np.zeros((n_options, items.words), np.uint64)
    has_bit = entry_bit >= 0
    rows = position[entries.option[has_bit]]
    bits = entry_bit[has_bit]
    one = np.left_shift(np.uint64(1), (bits & 63).astype(np.uint64))
    np.bitwise_or.at(mask, (rows, bits >> 6), one)
    test_mask = mask.copy()
    guarded = items.is_piece[entries.item[has_bit]]
    np.bitwise_xor.at(test_mask, (rows[guarded], bits[guarded] >> 6), one[guarded])
    held = np.flatnonzero(test_mask.any(axis=0))
    test_mask = np.ascontiguousarray(test_mask[:, : held[-1] + 1 if len(held) else 1])
    return mask, test_mask


def _groups(items: _Items, sorted_lowest, sorted_piece) -> dict:
    """The lists and their groups (options of one piece), the pieces' slots: the
    fields ``group_start``, ``slot_group``, ``bit_slots``, ``option_slot`` and
    ``list_start`` of ``BitLayout`` (the options' lowest bits and pieces given in list
    order)."""
    n_options = len(sorted_lowest)
    n_primary_bits = items.n_primary_bits
    new_group = np.ones(n_options, bool)
    new_group[1:] = (sorted_lowest[1:] != sorted_lowest[:-1]) | (
        sorted_piece[1:] != sorted_piece[:-1]
    )
    group_start = np.append(np.flatnonzero(new_group), n_options).astype(np.int64)
    group_piece = sorted_piece[group_start[:-1]]
    group_lowest = sorted_lowest[group_start[:-1]]
    slot_of = np.zeros(len(items.bit_of), np.int64)  # with no pieces, every group is slot 0's
    slot_of[items.pieces] = np.arange(len(items.pieces))
    n_slots = max(len(items.pieces), 1)
    slot_group = np.full((n_primary_bits, n_slots), -1, np.int64)
    bit_slots = np.zeros((n_primary_bits, (n_slots + 63) // 64), np.uint64)
    listed = group_lowest < n_primary_bits
    g_bit, g_slot = group_lowest[listed], slot_of[np.maximum(group_piece[listed], 0)]
    slot_group[g_bit, g_slot] = np.flatnonzero(listed)
    np.bitwise_or.at(
        bit_slots,
        (g_bit, g_slot >> 6),
        np.left_shift(np.uint64(1), (g_slot & 63).astype(np.uint64)),
    )
    piece = np.maximum(sorted_piece, 0)
    option_slot = np.where((sorted_piece >= 0) & (items.bit_of[piece] >= 0), slot_of[piece], -1)
    list_start = np.searchsorted(sorted_lowest, np.arange(n_primary_bits + 1))
    return {
        "group_start": group_start,
        "slot_group": slot_group,
        "bit_slots": bit_slots,
        "option_slot": option_slot.astype(np.int64),
        "list_start": list_start.astype(np.int64),
    }


def _counters(entries: Entries, items: _Items, entry_counter, position, n_options) -> dict:
    """The counters of each option (CSR, list order) and the counters' bounds."""
    has_counter = entry_counter >= 0
    c_rows = position[entries.option[has_counter]]
    c_order = np.argsort(c_rows, kind="stable")
    option_counter_start = np.zeros(n_options + 1, np.int64)
    np.cumsum(np.bincount(c_rows, minlength=n_options), out=option_counter_start[1:])
    return {
        "option_counter_start": option_counter_start,
        "option_counter": entry_counter[has_counter][c_order].astype(np.int64),
        "counter_lo": entries.lo[items.counters - 1].astype(np.int64),
        "counter_hi": entries.hi[items.counters - 1].astype(np.int64),
    }


def _urgent(entries: Entries, items: _Items, position) -> dict:
    """The urgent items (few options in all; with pieces, pieces only) and their
    options in list order."""
    option_of, item_of = entries.option, entries.item
    n_of_item = np.bincount(item_of, minlength=len(items.bit_of))
    primary = np.arange(1, len(entries.lo) + 1)
    branch_items = items.pieces if len(items.pieces) else primary  # cells never go first
    urgent = [
        int(i) for i in branch_items if 0 < n_of_item[i] <= URGENT_OPTIONS and items.bit_of[i] >= 0
    ]
    urgent.sort(key=lambda i: (n_of_item[i], i))
    urgent_lists = [np.sort(position[option_of[item_of == i]]) for i in urgent]
    urgent_start = np.zeros(len(urgent) + 1, np.int64)
    np.cumsum([len(x) for x in urgent_lists], out=urgent_start[1:])
    urgent_option = np.concatenate(urgent_lists) if urgent else np.zeros(0, np.int64)
    return {
        "urgent_bit": np.array([items.bit_of[i] for i in urgent], np.int64),
        "urgent_start": urgent_start,
        "urgent_option": urgent_option.astype(np.int64),
    }


def _regions(entries: Entries, items: _Items, entry_bit, position, piece_item, mask) -> dict:
    """The cells, their adjacency and each option's halo, and the pieces' sizes, for
    region pruning (none without pieces, or with too many pairs of cells)."""
    n_options, words = mask.shape
    n_bits = len(items.bit_item)
    fields = {
        "n_cells": 0,
        "cell_mask": np.zeros(words, np.uint64),
        "neighbours": np.zeros((n_bits, words), np.uint64),
        "halo": np.zeros((n_options, words), np.uint64),
        "piece_bit": np.zeros(0, np.int64),
        "piece_counter": np.zeros(0, np.int64),
        "piece_size_start": np.zeros(1, np.int64),
        "piece_size": np.zeros(0, np.int64),
    }
    n_cells = len(items.cells)
    if not len(items.pieces) or not n_cells:
        return fields
    option_of = entries.option
    is_cell = (entry_bit >= 0) & (entry_bit < n_cells)
    edges = adjacency(option_of[is_cell], entry_bit[is_cell], n_bits)
    if edges is None:
        return fields
    neighbours, halo = fields["neighbours"], fields["halo"]
    for a, b in edges:
        neighbours[a, b >> 6] |= np.uint64(1) << np.uint64(b & 63)
        neighbours[b, a >> 6] |= np.uint64(1) << np.uint64(a & 63)
    np.bitwise_or.at(halo, position[option_of[is_cell]], neighbours[entry_bit[is_cell]])
    halo &= ~mask
    size_of_option = np.bincount(option_of[is_cell], minlength=n_options)
    sizes = [np.unique(size_of_option[piece_item == i]) for i in items.pieces]
    piece_size_start = np.zeros(len(items.pieces) + 1, np.int64)
    np.cumsum([len(s) for s in sizes], out=piece_size_start[1:])
    fields.update(
        n_cells=n_cells,
        cell_mask=_bits_mask(range(n_cells), words),
        piece_bit=np.array([items.bit_of[i] for i in items.pieces], np.int64),
        piece_counter=np.array([items.counter_of[i] for i in items.pieces], np.int64),
        piece_size_start=piece_size_start,
        piece_size=np.concatenate(sizes).astype(np.int64),
    )
    return fields


def _option_hash(entry_row, entry_bit, entry_counter, n_options) -> np.ndarray:
    """Each option's share of a memo key's hash: a key hashes to the sum (mod 2**64) of a
    fixed random word per bit covered and per use of each counter, so a child's hash is
    its parent's plus the option's, known before the child is made (see "Memo" in
    ``dlx/kernels/bitset/kernel.py``)."""
    rng = np.random.default_rng(HASH_SEED)
    n_bits = int(entry_bit.max(initial=-1)) + 1
    n_counters = int(entry_counter.max(initial=-1)) + 1
    word = rng.integers(0, 1 << 64, size=n_bits + n_counters, dtype=np.uint64, endpoint=False)
    entry_word = np.where(entry_bit >= 0, entry_bit, n_bits + entry_counter)
    held = (entry_bit >= 0) | (entry_counter >= 0)
    total = np.zeros(n_options, np.uint64)
    np.add.at(total, entry_row[held], word[entry_word[held]])  # wraps: a sum mod 2**64
    return total


def suits(problem: Problem) -> bool:
    """Whether ``problem`` looks like a tiling, where filling the first empty cell is the
    right rule: the bitset kernel takes it (``fits``) and it looks like a flat tiling
    (``flat_tiling``)."""
    return fits(problem) and flat_tiling(problem)


def front(problem: Problem) -> int:
    """The widest span of an option over the cells (its last cell's position less its
    first) in the order the kernel fills them (declared, or the sweep): about the width
    of the front of uncovered cells that a search keeps open, so of the states its memo
    keys on (on one-sided pentominoes: 12 on 3x30, 20 on 5x18, 24 on 6x15 and 6x10, 32
    on 8x8, 36 on 9x10). Read off the options, no layout (2 to 4 ms on those).

    >>> p = Problem(primary=["P", "Q", "a", "b", "c"])
    >>> _ = p.add_options([["P", "a", "b"], ["Q", "c"], ["P", "b", "c"], ["Q", "a"]])
    >>> front(p)
    1
    """
    entries = problem.layout_of(Problem.entries)
    cells = _classify(entries, problem.n_options).cells  # in the order filled
    index = np.full(len(entries.lo) + entries.n_secondary + 2, -1, np.int64)
    index[cells] = np.arange(len(cells))
    held = index[entries.item] >= 0
    order = np.arange(len(cells))
    each = spans(order, entries.option[held], index[entries.item[held]], problem.n_options)
    return int(each.max(initial=0))


def flat_tiling(problem: Problem) -> bool:
    """Whether ``problem`` looks like a flat tiling, read off its options alone (no
    layout: building one takes 10 to 60 ms, as long as a small count): it has pieces
    and cells (primary items of bounds 1:1 that are not pieces), its options' pairs of
    cells are few enough for region pruning (``dlx.kernels.cells.MAX_PAIRS``), most
    pieces (three in four) go to more than ``URGENT_OPTIONS`` places (are not urgent),
    and at most ``SUITS_SECONDARY`` of its options hold a secondary item. In a sudoku
    every "piece" (a cell of the grid) has at most 9 options; in polysticks most
    options hold a crossing point (a secondary item; a symmetry-breaking item is held
    by a few pieces' options): there the item of fewest options is the better guess.
    The layout's own fields say the same (``tests/test_auto.py`` checks it).

    >>> p = Problem(primary=["a", "b"])
    >>> _ = p.add_option(["a", "b"])
    >>> flat_tiling(p)
    False
    """
    entries = problem.layout_of(Problem.entries)
    second = len(entries.lo) + 1
    on_secondary = np.unique(entries.option[entries.item >= second])
    if len(on_secondary) > SUITS_SECONDARY * problem.n_options:
        return False
    pieces = pieces_of(entries.option, entries.item, problem.n_options, second)
    exact = np.zeros(second, bool)
    exact[1:] = (entries.lo == 1) & (entries.hi == 1)
    is_piece = np.zeros(second, bool)
    is_piece[pieces] = True
    cell = exact & ~is_piece
    if len(pieces) == 0 or not cell.any():
        return False
    on_cell = entries.item < second
    on_cell[on_cell] = cell[entries.item[on_cell]]
    per_option = np.bincount(entries.option[on_cell], minlength=problem.n_options)
    if int(np.sum(per_option * (per_option - 1) // 2)) > MAX_PAIRS:
        return False
    places = np.bincount(entries.item, minlength=second)[pieces]
    urgent = exact[pieces] & (places > 0) & (places <= URGENT_OPTIONS)
    return 4 * int(np.sum(urgent)) <= len(pieces)


def sanity(lay: BitLayout, state: State, n_fixed: int) -> None:
    """Check a bitset search's arrays at a pause (Knuth's ``sanity()`` for this kernel;
    for tests): at each level ``l`` up to the current one, ``key[l]`` is the OR of the
    masks of the options chosen above it, which cover no bit twice, and its counter
    words count their uses within bounds; ``free[l]`` is the root's free pieces less
    those used; ``key_hash[l]`` the sum of the options' hashes; each level above the
    current one took branch ``branch_index[l] < branch_degree[l]`` of its candidates.
    Raise AssertionError naming the level and the fault."""
    level, step = (int(v) for v in state.state)
    assert step in (FORWARD, ADVANCE, BACKDOWN), f"unknown step {step}"
    assert 0 <= level < len(state.choice), f"level {level} out of range"
    assert 0 <= n_fixed, "negative fixed levels"
    chosen = state.choice[:level]
    words, n_counters = lay.words, len(lay.counter_lo)
    covered = np.zeros(words, np.uint64)
    uses = np.zeros(n_counters, np.int64)
    free = np.bitwise_or.reduce(lay.bit_slots, axis=0)
    digest = np.uint64(0)
    for depth in range(level + 1):
        key = state.key[depth]
        assert np.array_equal(key[:words], covered), f"level {depth}: key is not the OR of masks"
        assert np.array_equal(key[words:].astype(np.int64), uses), f"level {depth}: counters"
        assert np.all(uses <= lay.counter_hi), f"level {depth}: a counter above its bound"
        assert np.array_equal(state.free[depth], free), f"level {depth}: free pieces"
        assert state.key_hash[depth] == digest, f"level {depth}: key hash"
        if depth == level:
            break
        o = int(chosen[depth])
        index, degree = int(state.branch_index[depth]), int(state.branch_degree[depth])
        assert 0 <= index < degree, f"level {depth}: branch {index} of {degree}"
        start = int(state.cand_start[depth])
        assert int(state.cand_start[depth + 1]) == start + degree, f"level {depth}: cand_start"
        assert int(state.cand[start + index]) == o, f"level {depth}: choice is not the branch"
        assert not np.any(covered & lay.mask[o]), f"level {depth}: option {o} covers a bit twice"
        covered = covered | lay.mask[o]
        for j in range(lay.option_counter_start[o], lay.option_counter_start[o + 1]):
            uses[lay.option_counter[j]] += 1
        slot = int(lay.option_slot[o])
        if slot >= 0:
            free = free.copy()
            free[slot >> 6] &= ~(np.uint64(1) << np.uint64(slot & 63))
        with np.errstate(over="ignore"):
            digest = digest + lay.option_hash[o]
    solutions, nodes, _ = (int(v) for v in state.stats)
    assert nodes >= level, f"{nodes} nodes entered, at level {level}"
    if not np.any(state.total[1:]) and state.total[0] < np.uint64(1 << 63):
        assert solutions == int(state.total[0]), "stats[0] is not the count"
