"""Compile a ``dlx.Problem`` into the tight kernel's arrays (numpy only, no numba).

Glossary (see the essay in ``dlx/kernels/tight/kernel.py`` for how the kernel uses them)
------------------------------------------------------------------------
option bit
    Each option is a bit of a *live set* of ``words`` uint64 words: the options still
    compatible with those chosen. Options are sorted by their first primary item, so
    that the options of an item (a cell, say) lie in a band of nearby words.
group
    A set of options, kept sparse: the words where it has options and their bits
    (``group_word[group_start[g]:group_start[g + 1]]`` and ``group_bits[...]``). Group
    ``p`` (for ``p < n_primary``) holds the options of primary item ``p``; the other
    groups belong to secondary items: ``(j, none)`` holds every option of ``j``, and
    ``(j, c)`` those of ``j`` whose colour is not ``c`` (no colour counts as another).
conflict groups of an option
    Taking an option kills the options of the groups of its entries: those of its
    primary and uncoloured secondary items, and for ``j:c`` the options that give
    ``j`` another colour (or none). This is exact for XCC: what stays live is what
    may still be chosen with it.
conflict mask
    ``conflict[k]``: the OR of option ``k``'s conflict groups as ``words`` dense words,
    so that taking it is one pass over the live set (``live & ~conflict[k]``). Kept
    while the table stays within ``CONFLICT_BYTES``; past that the layout has none
    (``conflict`` has no rows) and the kernel clears group by group.
key bit
    For the memo: one bit per primary item (covered) and one per (secondary item,
    colour) that some option uses; a node's key is the OR of its options' key bits,
    and it determines the live set below it exactly.

Only problems whose primary items all have bounds 1:1 fit (no multiplicities), and
no loop items.
"""

from __future__ import annotations

import functools
from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from dlx.driver.tables import array_bytes, check_bytes
from dlx.errors import ProblemError
from dlx.problem import Problem

CONFLICT_BYTES = 8 << 20  # dense conflict masks up to this size; past it, groups alone
# a live set of this many words (up to a cache line) is counted whole for each item:
# the same loop for every item is quicker than its band's own (no mispredicted exits);
# with 4 words or fewer, the bands are short and quicker (n queens 15 has 4)
FULL_BAND_WORDS = range(5, 9)
# past those, bands are padded with zero words to a multiple of this many (up to the whole
# live set): the compiled popcount loop takes 16 words a turn (4 vectors of 4 where LLVM
# vectorizes it with AVX2 or AVX-512) and the rest one by one, in a loop of its own whose
# exit is mispredicted; padded, that loop never runs
BAND_WORDS = 16
HASH_SEED = 20261126  # the memo's random words: the same on every run and machine
_BIT = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))  # the 64 words of one bit
_BIT.flags.writeable = False
_NONE = np.iinfo(np.int64).max  # no item (an option's first item, where it has none)
_ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)

# What the kernel takes: the arrays of a problem and those of one search, one argument
# each (see ``dlx/kernels/tight/kernel.py`` for both).
Tables = namedtuple(
    "Tables",
    "words n_primary key_words option_primary_start option_primary option_group_start "
    "option_group group_start group_word group_bits item_first_word item_band_start "
    "item_band option_key_start option_key group_hash conflict size_low size_high",
)
State = namedtuple(
    "State",
    "live uncovered key key_hash cand cand_start choice branch_index branch_degree "
    "level_nodes state stats total level_entry memo memo_stats",
)


@dataclass(frozen=True)
class TightLayout:
    """The kernel's arrays for one problem; ``option[b]`` is the problem's option of
    bit ``b`` (options in *bit order*, see ``_bit_order``), and options below are bits.

    ``option_primary[option_primary_start[k]:option_primary_start[k + 1]]``: the
    primary items of option ``k``; ``option_group[option_group_start[k]:...]``: its
    conflict groups; groups as in the glossary (``group_word`` int64, ``group_bits``
    uint64; group ``p`` holds the options of primary item ``p``);
    ``item_band[item_band_start[p]:item_band_start[p + 1]]``: the same options as the
    dense words ``item_first_word[p]`` on of the live set (a band, the zero words inside
    it included: read without indirection; the whole live set when its words are in
    ``FULL_BAND_WORDS``; past those, padded with zero words to a multiple of
    ``BAND_WORDS`` or the whole set); ``item_size``: int32[n_primary], its options;
    ``option_key[option_key_start[k]:...]``: the key bits of option ``k``;
    ``group_hash``: uint64[n_groups], a random word per key bit (a key hashes to the
    sum of those of its bits); ``conflict``: uint64[n_options, words], each option's
    conflict mask (uint64[0, words]: none, past ``CONFLICT_BYTES``).
    """

    option: np.ndarray
    n_options: int
    n_primary: int
    words: int
    key_words: int
    option_primary_start: np.ndarray
    option_primary: np.ndarray
    option_group_start: np.ndarray
    option_group: np.ndarray
    group_start: np.ndarray
    group_word: np.ndarray
    group_bits: np.ndarray
    item_first_word: np.ndarray
    item_band_start: np.ndarray
    item_band: np.ndarray
    item_size: np.ndarray
    option_key_start: np.ndarray
    option_key: np.ndarray
    group_hash: np.ndarray
    conflict: np.ndarray
    max_branches: int

    @property
    def rows(self) -> int:
        """Levels of a search's arrays: one per primary item, the root and one more."""
        return self.n_primary + 2

    @property
    def item_words(self) -> int:
        """Words of a set of primary items."""
        return (self.n_primary + 63) // 64

    def search_bytes(self, limbs: int = 1) -> int:
        """Bytes of one search's arrays (``dlx.kernels.tight.search.TightSearch``)."""
        per_row = 8 * (self.words + self.item_words + self.key_words + 8)
        return self.rows * (per_row + 8 * self.max_branches + 8 * limbs)

    def table_bytes(self) -> int:
        """Bytes of the layout's own arrays (counted once: its build and each search of
        it ask)."""
        return self._nbytes

    @functools.cached_property
    def _nbytes(self) -> int:
        return array_bytes(self)

    @functools.cached_property
    def _tables(self) -> Tables:
        return _tables(self)


def tables(lay: TightLayout) -> Tables:
    """The layout as the kernel takes it (made once, each search of it reads it)."""
    return lay._tables


def _tables(lay: TightLayout) -> Tables:
    """``tables``, made afresh."""
    return Tables(
        lay.words, lay.n_primary, lay.key_words,
        lay.option_primary_start, lay.option_primary,
        lay.option_group_start, lay.option_group,
        lay.group_start, lay.group_word, lay.group_bits,
        lay.item_first_word, lay.item_band_start, lay.item_band,
        lay.option_key_start, lay.option_key, lay.group_hash, lay.conflict,
        *_size_range(lay.option_primary_start),
    )  # fmt: skip


def _size_range(option_primary_start: np.ndarray) -> tuple[int, int]:
    """The fewest and the most primary items of an option ((0, 0): no option)."""
    size = option_primary_start[1:] - option_primary_start[:-1]
    return (int(np.minimum.reduce(size)), int(np.maximum.reduce(size))) if len(size) else (0, 0)


def _entries(problem: Problem) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The problem's entries (``Problem.entries``): (option of each, item code of each:
    ``p`` for primary item p, ``~s`` for secondary item s, colour of each: 0 for none)."""
    entries = problem.layout_of(Problem.entries)  # kept: the other kernels read it too
    n_primary = len(entries.lo)
    code = np.where(entries.item <= n_primary, entries.item - 1, n_primary - entries.item)
    return entries.option, code, entries.colour


def why_not(problem: Problem) -> str | None:
    """Why the tight kernel cannot search ``problem`` (None when it can); worked out once
    while the problem stays as it is (``Problem.layout_of``: ``auto`` asks it before the
    layout, which asks it again)."""
    return problem.layout_of(_why_not) or None


def _why_not(problem: Problem) -> str:
    """``why_not``, "" where the kernel takes ``problem``."""
    if not problem.primary:
        return "the problem has no primary items"
    if problem.loop_edges:
        return "it has loop items"
    multiplicity = problem.first_multiplicity()
    if multiplicity is not None:
        name, lo, hi = multiplicity
        return f"primary item {name!r} has bounds {lo}:{hi} (the tight kernel takes 1:1 only)"
    return ""


def fits(problem: Problem) -> bool:
    """Whether the tight kernel can search ``problem`` (see ``why_not``)."""
    return why_not(problem) is None


def layout(problem: Problem) -> TightLayout:
    """The tight arrays of ``problem`` (built once while the problem stays as it is,
    kept by ``Problem.layout_of``).

    A ``ProblemError`` says why a problem does not fit, or what its tables would need
    past ``dlx.driver.tables.MAX_BYTES``.
    """
    return problem.layout_of(_build)


def _build(problem: Problem, order=None) -> TightLayout:
    """The tight arrays of ``problem`` (options in the bit order ``order``, default
    ``_bit_order``), or ProblemError saying why there are none."""
    reason = why_not(problem)
    if reason is not None:
        raise ProblemError(f"the tight kernel cannot search this problem: {reason}")
    result = _compile(problem, order or _bit_order)
    check_bytes("tight", result.table_bytes() + result.search_bytes(), "use engine='dlx'")
    return result


def _starts(owner: np.ndarray, n: int) -> np.ndarray:
    """int64[n + 1]: where each of ``n`` owners' run starts when ``owner`` is sorted."""
    start = np.zeros(n + 1, np.int64)
    np.bincount(owner, minlength=n).cumsum(out=start[1:])
    return start


def _sparse(group: np.ndarray, option: np.ndarray, n_groups: int):
    """Groups as sparse masks: (group_start, group_word, group_bits) from the pairs
    (group, option) (each pair once)."""
    word = option >> 6
    key = group * (int(word.max()) + 1) + word if len(word) else group  # (group, word)
    order = key.argsort(kind="stable")
    key = key[order]
    new = np.empty(len(key), bool)  # the first pair of each (group, word)
    new[:1] = True
    np.not_equal(key[1:], key[:-1], out=new[1:])
    first = new.nonzero()[0]
    bit = one_bit(option)[order]
    bits = np.bitwise_or.reduceat(bit, first) if len(first) else np.zeros(0, np.uint64)
    at = order[first]
    return _starts(group[at], n_groups), word[at].astype(np.int64, copy=False), bits


def one_bit(index: np.ndarray) -> np.ndarray:
    """uint64: for each integer of ``index``, the word of its bit within its word (bit
    ``index & 63``), read off a table (a shift of each costs twice as much).

    >>> one_bit(np.array([0, 3, 64, 127])).tolist()
    [1, 8, 1, 9223372036854775808]
    """
    return _BIT[index & 63]


def _conflicts(option_group_start, option_group, group_start, group_word, group_bits, words):
    """uint64[n_options, words]: each option's conflict groups ORed into one dense mask,
    or uint64[0, words] when that table would pass ``CONFLICT_BYTES``. Each group is
    made a dense row of words (where those rows take at most ``CONFLICT_BYTES``), and
    each option's rows are ORed together, some options at a time (their rows at most
    ``CONFLICT_BYTES`` too)."""
    n_options = len(option_group_start) - 1
    n_groups = len(group_start) - 1
    if n_options * words * 8 > CONFLICT_BYTES:
        return np.zeros((0, words), np.uint64)
    per_option = option_group_start[1:] - option_group_start[:-1]
    if n_groups * words * 8 > CONFLICT_BYTES or not per_option.all():
        return _conflicts_sparse(option_group_start, option_group, group_start, group_word,
                                 group_bits, words)  # fmt: skip
    rows = np.zeros((n_groups, words), np.uint64)
    rows[_owners(group_start), group_word] = group_bits
    conflict = np.empty((n_options, words), np.uint64)
    most = int(per_option.max()) if n_options else 1
    step = max(CONFLICT_BYTES // (8 * words * max(most, 1)), 1)
    for lo in range(0, n_options, step):
        hi = min(lo + step, n_options)
        first, last = option_group_start[lo], option_group_start[hi]
        conflict[lo:hi] = np.bitwise_or.reduceat(
            rows[option_group[first:last]], option_group_start[lo:hi] - first, axis=0
        )
    return conflict


def _owners(start: np.ndarray) -> np.ndarray:
    """int64: the owner of each member of compressed rows that start at ``start``."""
    return np.arange(len(start) - 1).repeat(start[1:] - start[:-1])


def _conflicts_sparse(option_group_start, option_group, group_start, group_word, group_bits,
                      words):  # fmt: skip
    """``_conflicts``, group by group into the table (where the groups' dense rows
    would be too many, or an option has no group)."""
    n_options = len(option_group_start) - 1
    per_option = np.diff(option_group_start)
    group = option_group
    size = group_start[group + 1] - group_start[group]
    pair_option = np.repeat(np.repeat(np.arange(n_options), per_option), size)
    first = np.repeat(group_start[group], size)
    within = np.arange(len(first)) - np.repeat(np.cumsum(size) - size, size)
    entry = first + within
    conflict = np.zeros((n_options, words), np.uint64)
    np.bitwise_or.at(conflict, (pair_option, group_word[entry]), group_bits[entry])
    return conflict


def _bands(group_start, group_word, group_bits, n_primary, words) -> dict[str, np.ndarray]:
    """The primary items' groups as dense bands of words (see ``TightLayout``); each
    band the whole live set when its words are in ``FULL_BAND_WORDS``; past those, a
    multiple of ``BAND_WORDS`` words (or the whole set)."""
    first = np.zeros(n_primary, np.int64)
    length = np.zeros(n_primary, np.int64)
    start, end = group_start[:n_primary], group_start[1 : n_primary + 1]
    used = end > start  # each group's words are in increasing order (``_sparse``)
    if words in FULL_BAND_WORDS:
        length[:] = words
    elif words < FULL_BAND_WORDS.start and used.all():  # (every item has options)
        first = group_word[start]
        length = group_word[end - 1] - first + 1
    else:
        first[used] = group_word[start[used]]
        length[used] = group_word[end[used] - 1] - first[used] + 1
        if words >= FULL_BAND_WORDS.stop:  # padded, moved back if it would pass the end
            length[used] = np.minimum(-(-length[used] // BAND_WORDS) * BAND_WORDS, words)
            first[used] = np.minimum(first[used], words - length[used])
    band_start = np.zeros(n_primary + 1, np.int64)
    length.cumsum(out=band_start[1:])
    band = np.zeros(int(band_start[-1]), np.uint64)
    owner = np.arange(n_primary).repeat(end - start)
    k = slice(int(group_start[0]), int(group_start[n_primary]))
    band[band_start[owner] + group_word[k] - first[owner]] = group_bits[k]
    return {"item_first_word": first, "item_band_start": band_start, "item_band": band}


def _secondary_groups(option_of, code, colour, n_primary):
    """The groups of the secondary entries: (group of each such entry, member pairs
    (group, option), the number of groups), groups numbered from ``n_primary``. A group
    is a pair (item j, colour c) in use, in sorted order; its members are the options
    that clash with it: every option of j when c is 0 (no colour), else those of j with
    another colour, each group's in entry order."""
    secondary = code < 0
    item = ~code[secondary]
    shade = colour[secondary]
    owner = option_of[secondary]
    if not len(item):
        return np.zeros(0, np.int64), (np.zeros(0, np.int64), np.zeros(0, np.int64)), n_primary
    shades = int(shade.max()) + 1
    if shades == 1:  # no colours: each item one group, every entry of it a member
        pair, inverse = _unique(item.astype(np.int64))
        entry_group = n_primary + inverse.reshape(-1).astype(np.int64)
        return entry_group, (entry_group, owner), n_primary + len(pair)
    pair, inverse = _unique(item.astype(np.int64) * shades + shade)
    entry_group = n_primary + inverse.reshape(-1).astype(np.int64)
    pair_item, pair_shade = pair // shades, pair % shades
    by_item = item.argsort(kind="stable")  # each item's entries, in entry order
    per_item = np.bincount(item)
    size = per_item[pair_item]  # a group's candidates: every entry of its item, ...
    start = (per_item.cumsum() - per_item)[pair_item]  # ... from here in ``by_item``
    group = np.arange(len(pair)).repeat(size)
    entry = by_item[np.arange(len(group)) + (start - (size.cumsum() - size)).repeat(size)]
    group_shade = pair_shade[group]
    clash = (group_shade == 0) | (shade[entry] != group_shade)
    return entry_group, (n_primary + group[clash], owner[entry[clash]]), n_primary + len(pair)


def _unique(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(key, return_inverse=True)`` of non-negative int64 keys, by a table of
    the keys present where their range is small (no sort)."""
    span = int(key.max()) + 1 if len(key) else 0
    if span > 8 * len(key) + 1024:
        return np.unique(key, return_inverse=True)
    present = np.zeros(span, bool)
    present[key] = True
    return present.nonzero()[0], (present.cumsum() - 1)[key]


def _bit_order(option_of, code, n_options) -> np.ndarray:
    """The problem's options in bit order, so that the options of an item lie in a band
    of nearby words: of two orders, the one whose bands (``_band_words``) are fewer
    words in all. One sorts by the first *small* primary item of each option (one with
    at most the median number of options: a tiling's cells, not its pieces, when the
    pieces come first), the other by its first primary item (the cells, when they come
    first and the pieces have as many options as a cell: a 3-D box); options without
    such an item by their first primary item, those without primary items last."""
    primary = code >= 0
    item = code[primary]
    size = np.bincount(item)
    small = primary.copy()
    if len(size):  # no primary entry (no option at all): nothing is small
        small[primary] = size[item] <= _median(size)
    first = np.empty(n_options, np.int64)
    first.fill(_NONE)
    np.minimum.at(first, option_of[primary], item)
    first_small = np.empty(n_options, np.int64)
    first_small.fill(_NONE)
    np.minimum.at(first_small, option_of[small], code[small])
    by_small = np.lexsort((first, first_small))
    if n_options <= 64:  # one word: every band is one word in any order
        return by_small
    orders = [by_small, first.argsort(kind="stable")]
    if (by_small == orders[1]).all():  # one order (the small items come first): no bands
        return by_small  # to count
    return min(orders, key=lambda order: _band_words(order, option_of[primary], code[primary]))


def _median(values: np.ndarray) -> float:
    """``np.median(values)`` of a non-empty 1-D array, by one sort (``np.median``'s
    checks cost as much as a small layout's sort).

    >>> _median(np.array([3, 1, 2, 9])), _median(np.array([4, 1, 7]))
    (2.5, 4.0)
    """
    ordered = values.copy()
    ordered.sort()
    half = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[half])
    return (float(ordered[half - 1]) + float(ordered[half])) / 2


def _band_words(order, option_of, item) -> int:
    """The words of all the items' bands when the options take bits in ``order``
    (``option_of``, ``item``: the primary entries)."""
    bit_of = np.empty(len(order), np.int64)
    bit_of[order] = np.arange(len(order))
    word = bit_of[option_of] >> 6
    n = int(item.max(initial=-1)) + 1
    low = np.full(n, _NONE, np.int64)
    high = np.full(n, -1, np.int64)
    np.minimum.at(low, item, word)
    np.maximum.at(high, item, word)
    has = high >= 0
    return int((high[has] - low[has] + 1).sum())


def _last_item_order(option_of, code, n_options) -> np.ndarray:
    """The problem's options by their primary items, the last declared first (a sudoku's
    cell, row, column and box items: by box, then column, row and cell); options without
    primary items last."""
    primary = code >= 0
    owner, item = option_of[primary], code[primary]
    order = np.lexsort((-item, owner))  # each option's items, the last declared first
    owner, item = owner[order], item[order]
    width = int(np.bincount(owner, minlength=n_options).max(initial=0))
    keys = np.full((max(width, 1), n_options), np.iinfo(np.int64).max, np.int64)
    rank = np.arange(len(owner)) - np.searchsorted(owner, owner)
    keys[rank, owner] = item
    return np.lexsort(keys[::-1])


def batch_layout(problem: Problem) -> TightLayout:
    """The tight arrays of ``problem`` for batches of small searches: of the bit orders
    by first small item (``_bit_order``) and by last item (``_last_item_order``), the
    one whose primary items' groups take fewer words (taking an option clears its
    groups' words, and a batch's searches take little else). Built once, like
    ``layout``."""
    return problem.layout_of(_build_batch)


def _build_batch(problem: Problem) -> TightLayout:
    """``batch_layout``'s arrays."""
    option_of, code, _ = _entries(problem)
    primary = code >= 0
    words = []
    for order in (_bit_order, _last_item_order):
        bit_of = np.empty(problem.n_options, np.int64)
        bit_of[order(option_of, code, problem.n_options)] = np.arange(problem.n_options)
        pairs = code[primary] * (problem.n_options // 64 + 1) + bit_of[option_of[primary]] // 64
        words.append(len(np.unique(pairs)))
    return _build(problem, _last_item_order if words[1] < words[0] else _bit_order)


def _compile(problem: Problem, order=_bit_order) -> TightLayout:
    """Build the arrays (see ``TightLayout``), options in the bit order ``order``."""
    n_options = problem.n_options
    n_primary = len(problem.primary)
    option_of, code, colour = _entries(problem)
    option = order(option_of, code, n_options)
    bit_of = np.empty(n_options, np.int64)
    bit_of[option] = np.arange(n_options)
    option_of = bit_of[option_of]
    primary = code >= 0
    item, owner = code[primary], option_of[primary]  # the primary entries
    entry_group, (sec_g, sec_o), n_groups = _secondary_groups(option_of, code, colour, n_primary)
    group_start, group_word, group_bits = _sparse(
        np.concatenate([item, sec_g]), np.concatenate([owner, sec_o]), n_groups
    )
    group = code.astype(np.int64)  # a copy: the primary items' groups are their codes
    group[~primary] = entry_group
    by_option = option_of.argsort(kind="stable")  # each option's entries, in entry order
    option_group_start, option_group = _starts(option_of, n_options), group[by_option]
    option_primary_start = _starts(owner, n_options).astype(np.int32)  # small: read at
    option_primary = option_group[primary[by_option]].astype(np.int32)  # random
    # key bits: the primary items, then each (secondary item, colour) group
    option_key_start, option_key = option_group_start, option_group
    key_words = max((n_groups + 63) // 64, 1)
    words = max((n_options + 63) // 64, 1)
    item_size = np.bincount(item, minlength=n_primary).astype(np.int32)
    group_hash = _hash_words(n_groups)
    return TightLayout(
        option=option,
        n_options=n_options,
        n_primary=n_primary,
        words=words,
        key_words=key_words,
        option_primary_start=option_primary_start,
        option_primary=option_primary,
        option_group_start=option_group_start,
        option_group=option_group,
        group_start=group_start,
        group_word=group_word,
        group_bits=group_bits,
        **_bands(group_start, group_word, group_bits, n_primary, words),
        item_size=item_size,
        option_key_start=option_key_start,
        option_key=option_key,
        group_hash=group_hash,
        conflict=_conflicts(
            option_group_start, option_group, group_start, group_word, group_bits, words
        ),
        max_branches=max(int(item_size.max(initial=0)), 1),
    )


def _hash_words(n: int) -> np.ndarray:
    """uint64[n]: the first ``n`` random words of ``HASH_SEED`` (a fresh copy), drawn
    once for as many as a power of two at least ``n`` (a generator costs as much to make
    as a small layout)."""
    return _hash_prefix(max(n, 1).bit_length())[:n].copy()


@functools.cache
def _hash_prefix(bits: int) -> np.ndarray:
    """uint64[2 ** bits]: the random words of ``HASH_SEED`` (the same first words
    whatever the length)."""
    rng = np.random.default_rng(HASH_SEED)
    return rng.integers(0, 1 << 64, size=1 << bits, dtype=np.uint64, endpoint=False)


def _all(n: int, words: int) -> np.ndarray:
    """uint64[words]: bits ``0..n-1`` set."""
    mask = np.zeros(words, np.uint64)
    full, rest = divmod(n, 64)
    mask[:full] = _ALL_BITS
    if rest:
        mask[full] = np.uint64((1 << rest) - 1)
    return mask


def root_live(lay: TightLayout) -> np.ndarray:
    """uint64[words]: every option live."""
    return _all(lay.n_options, lay.words)


def root_uncovered(lay: TightLayout) -> np.ndarray:
    """uint64[item_words]: every primary item uncovered."""
    return _all(lay.n_primary, lay.item_words)
