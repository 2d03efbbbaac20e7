"""Compile a ``dlx.Problem`` into the multiplicity kernel's arrays (numpy only, no numba).

Glossary (see the essay in ``dlx/kernels/mcc/kernel.py`` for how the kernel uses them)
------------------------------------------------------------------------------------
option bit
    Each option is a bit of a *live set* of ``words`` uint64 words: the options that
    may still be chosen. Options are sorted by their first primary item, so that an
    item's options lie in a band of nearby words.
band
    The options of primary item ``p`` as dense words: ``item_band[item_band_start[p]:
    item_band_start[p + 1]]`` are words ``item_first_word[p]`` on of a live set.
slack
    ``slack[p] = hi - lo`` of primary item ``p``: how many of its coverings are optional.
conflict mask
    ``conflict[k]``: the options that can never be chosen beside option ``k``: ``k``
    itself, those that share a primary item of bounds ``hi = 1`` with it, and those
    that share a secondary item with it without agreeing on its colour. Sharing a
    primary item whose ``hi`` is larger is no conflict: the kernel counts such an item's
    coverings and clears its band when it is full.

Loop items are not taken; nor are problems whose conflict masks would pass
``CONFLICT_BYTES`` (the kernel has no other way to clear conflicts), or whose search
arrays (a row a level, as deep as options can be taken and items retired) would pass
``dlx.driver.tables.MAX_BYTES``.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from dlx.driver.tables import MAX_BYTES, array_bytes, check_bytes, size
from dlx.errors import ProblemError
from dlx.problem import Problem

CONFLICT_BYTES = 64 << 20  # the largest table of dense conflict masks

# What the kernel takes: the arrays of a problem and those of one search, one argument
# each (see ``dlx/kernels/mcc/kernel.py`` for both).
Tables = namedtuple(
    "Tables",
    "words n_primary option_primary_start option_primary slack "
    "item_first_word item_band_start item_band conflict",
)
State = namedtuple(
    "State",
    "live bound active best need choice branch_index branch_degree state stats total",
)


@dataclass(frozen=True)
class MccLayout:
    """The kernel's arrays for one problem; ``option[b]`` is the problem's option of
    bit ``b``, and options below are bits.

    ``option_primary[option_primary_start[k]:option_primary_start[k + 1]]``: the
    primary items of option ``k`` (int32); ``slack``, ``hi``: int32[n_primary], each
    primary item's ``hi - lo`` and ``hi``; bands as in the glossary (``item_first_word``
    and ``item_band_start`` int64, ``item_band`` uint64); ``item_size``:
    int64[n_primary], its options; ``conflict``: uint64[n_options, words].
    """

    option: np.ndarray
    n_options: int
    n_primary: int
    words: int
    option_primary_start: np.ndarray
    option_primary: np.ndarray
    slack: np.ndarray
    hi: np.ndarray
    item_first_word: np.ndarray
    item_band_start: np.ndarray
    item_band: np.ndarray
    item_size: np.ndarray
    conflict: np.ndarray

    @property
    def rows(self) -> int:
        """Levels of a search's arrays: each level takes an option or retires an item,
        at most ``min(hi, options)`` options an item; the root and one more."""
        taken = int(np.minimum(self.hi, self.item_size).sum())
        return min(taken, self.n_options) + self.n_primary + 2

    @property
    def item_words(self) -> int:
        """Words of a set of primary items."""
        return (self.n_primary + 63) // 64

    def search_bytes(self, limbs: int = 1) -> int:
        """Bytes of one search's arrays (``dlx.kernels.mcc.search.MccSearch``)."""
        per_row = 8 * (self.words + self.item_words + 6 + limbs) + 4 * self.n_primary
        return self.rows * per_row

    def table_bytes(self) -> int:
        """Bytes of the layout's own arrays."""
        return array_bytes(self)


def tables(lay: MccLayout) -> Tables:
    """The layout as the kernel takes it."""
    return Tables(
        lay.words, lay.n_primary, lay.option_primary_start, lay.option_primary,
        lay.slack, lay.item_first_word, lay.item_band_start, lay.item_band,
        lay.conflict,
    )  # fmt: skip


def why_not(problem: Problem) -> str | None:
    """Why the multiplicity kernel cannot search ``problem`` (None when it can); worked
    out once while the problem stays as it is (kept by ``Problem.layout_of``: ``auto``'s
    line-up asks it before the layout is built)."""
    return problem.layout_of(_why_not) or None


def _why_not(problem: Problem) -> str:
    """``why_not``, "" where the kernel takes ``problem``."""
    if not problem.primary:
        return "the problem has no primary items"
    if problem.loop_edges:
        return "it has loop items"
    words = (problem.n_options + 63) // 64
    if problem.n_options * words * 8 > CONFLICT_BYTES:
        return f"its {problem.n_options} options are too many for dense conflict masks"
    need = _search_bytes(problem, words)
    if need > MAX_BYTES:
        return f"its search arrays would take {size(need)}"
    return ""


def _search_bytes(problem: Problem, words: int) -> int:
    """Bytes of one search's arrays (``MccLayout.search_bytes``), from the problem's
    entries alone."""
    entries = problem.layout_of(Problem.entries)
    n_primary = len(entries.lo)
    item = entries.item[entries.item <= n_primary] - 1
    item_size = np.bincount(item, minlength=n_primary)
    taken = int(np.minimum(entries.hi, item_size).sum())
    rows = min(taken, problem.n_options) + n_primary + 2
    return rows * (8 * (words + (n_primary + 63) // 64 + 7) + 4 * n_primary)


def refuses(problem: Problem) -> str | None:
    """Why ``auto`` leaves ``problem`` to the other kernels: ``why_not``, or no
    multiplicities (every primary item 1:1 is the tight and bitset kernels' ground)."""
    if problem.primary and problem.first_multiplicity() is None:
        return "every primary item has bounds 1:1 (the tight kernel's)"
    return why_not(problem)


def layout(problem: Problem) -> MccLayout:
    """The arrays of ``problem`` (built once while the problem stays as it is, kept by
    ``Problem.layout_of``); a ``ProblemError`` says why a problem does not fit.

    >>> p = Problem(primary=["a", "b"], bounds={"a": (1, 2)})
    >>> for option in (["a"], ["a", "b"]):
    ...     _ = p.add_option(option)
    >>> lay = layout(p)
    >>> lay.slack.tolist(), lay.hi.tolist(), lay.conflict[:, 0].tolist()
    ([1, 0], [2, 1], [1, 2])
    """
    return problem.layout_of(_build)


def _build(problem: Problem) -> MccLayout:
    """``layout``'s arrays, or ProblemError saying why there are none."""
    reason = why_not(problem)
    if reason is not None:
        raise ProblemError(f"the mcc kernel cannot search this problem: {reason}")
    result = _compile(problem)
    check_bytes("mcc", result.table_bytes() + result.search_bytes(), "use engine='dlx'")
    return result


def _entries(problem: Problem):
    """(option of each entry, item code: ``p`` for primary item p, ``~s`` for secondary
    item s, colour: 0 for none, lo, hi)."""
    entries = problem.layout_of(Problem.entries)  # kept: the other kernels read it too
    n_primary = len(entries.lo)
    code = np.where(entries.item <= n_primary, entries.item - 1, n_primary - entries.item)
    return entries.option, code, entries.colour, entries.lo, entries.hi


def _bit_order(option_of, code, n_options) -> np.ndarray:
    """The options sorted by their first primary item (stable); those without one last."""
    first = np.full(n_options, np.iinfo(np.int64).max, np.int64)
    primary = code >= 0
    np.minimum.at(first, option_of[primary], code[primary])
    return np.argsort(first, kind="stable")


def _conflicts(option_of, code, colour, hi, n_options, words) -> np.ndarray:
    """uint64[n_options, words]: each option's conflict mask (see the glossary). Each
    item's options, and each (secondary item, colour) pair's options of another colour,
    are made dense rows of words; an option's mask is its own bit ORed with the rows of
    its entries (a primary item of ``hi`` above 1: none), some options at a time (their
    rows at most ``CONFLICT_BYTES``). ``option_of``: each entry's option bit, the
    entries of an option together."""
    if n_options == 0:
        return np.zeros((0, words), np.uint64)
    one = np.uint64(1)
    bit = one << (option_of & 63).astype(np.uint64)
    word = option_of >> 6
    primary = code >= 0
    n_primary = len(hi)
    n_items = n_primary + int((~code[~primary]).max(initial=-1)) + 1
    item_row = np.where(primary, code, n_primary + ~code)  # rows: the items, then a zero row
    rows = np.zeros((n_items + 1) * words, np.uint64)
    np.bitwise_or.at(rows, item_row * words + word, bit)
    rows = rows.reshape(n_items + 1, words)
    clash = ~primary | (hi[np.maximum(code, 0)] == 1)
    entry_row = np.where(clash, item_row, n_items)
    coloured = ~primary & (colour > 0)
    if coloured.any():  # a coloured entry's row: its item's options of another colour
        shades = int(colour.max()) + 1
        pair, inverse = np.unique(
            item_row[coloured] * shades + colour[coloured], return_inverse=True
        )
        inverse = inverse.reshape(-1)
        same = np.zeros(len(pair) * words, np.uint64)
        np.bitwise_or.at(same, inverse * words + word[coloured], bit[coloured])
        rows = np.concatenate([rows, rows[pair // shades] & ~same.reshape(len(pair), words)])
        entry_row[coloured] = n_items + 1 + inverse
    starts = np.flatnonzero(np.r_[True, option_of[1:] != option_of[:-1]])  # each option's
    conflict = np.zeros((n_options, words), np.uint64)
    step = max(CONFLICT_BYTES // (8 * words * max(int(np.diff(starts).max(initial=1)), 1)), 1)
    for lo in range(0, len(starts), step):
        first, last = starts[lo], starts[lo + step] if lo + step < len(starts) else len(code)
        conflict[option_of[starts[lo : lo + step]]] = np.bitwise_or.reduceat(
            rows[entry_row[first:last]], starts[lo : lo + step] - first, axis=0
        )
    every = np.arange(n_options)
    conflict[every, every >> 6] |= one << (every & 63).astype(np.uint64)
    return conflict


def _bands(option_of, code, n_primary, words) -> dict[str, np.ndarray]:
    """The primary items' options as dense bands of words (see ``MccLayout``)."""
    primary = code >= 0
    item, option = code[primary], option_of[primary]
    first = np.zeros(n_primary, np.int64)
    last = np.full(n_primary, -1, np.int64)
    np.maximum.at(last, item, option >> 6)
    first[:] = words
    np.minimum.at(first, item, option >> 6)
    first = np.where(last >= 0, first, 0)
    length = np.where(last >= 0, last - first + 1, 0)
    band_start = np.zeros(n_primary + 1, np.int64)
    np.cumsum(length, out=band_start[1:])
    band = np.zeros(int(band_start[-1]), np.uint64)
    at = band_start[item] + (option >> 6) - first[item]
    np.bitwise_or.at(band, at, np.uint64(1) << (option & 63).astype(np.uint64))
    return {"item_first_word": first, "item_band_start": band_start, "item_band": band}


def _compile(problem: Problem) -> MccLayout:
    """Build the arrays (see ``MccLayout``)."""
    n_options = problem.n_options
    option_of, code, colour, lo, hi = _entries(problem)
    n_primary = len(lo)
    option = _bit_order(option_of, code, n_options)
    bit_of = np.empty(n_options, np.int64)
    bit_of[option] = np.arange(n_options)
    option_of = bit_of[option_of]
    words = max((n_options + 63) // 64, 1)
    primary = code >= 0
    order = np.argsort(option_of[primary], kind="stable")
    start = np.zeros(n_options + 1, np.int64)
    np.cumsum(np.bincount(option_of[primary], minlength=n_options), out=start[1:])
    return MccLayout(
        option=option,
        n_options=n_options,
        n_primary=n_primary,
        words=words,
        option_primary_start=start.astype(np.int32),
        option_primary=code[primary][order].astype(np.int32),
        slack=(hi - lo).astype(np.int32),
        hi=hi.astype(np.int32),
        **_bands(option_of, code, n_primary, words),
        item_size=np.bincount(code[primary], minlength=n_primary).astype(np.int64),
        conflict=_conflicts(option_of, code, colour, hi, n_options, words),
    )


def root_live(lay: MccLayout) -> np.ndarray:
    """uint64[words]: every option live."""
    mask = np.zeros(lay.words, np.uint64)
    full, rest = divmod(lay.n_options, 64)
    mask[:full] = np.uint64(0xFFFFFFFFFFFFFFFF)
    if rest:
        mask[full] = np.uint64((1 << rest) - 1)
    return mask
