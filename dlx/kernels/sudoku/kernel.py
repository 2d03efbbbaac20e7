"""The sudoku kernel: the 9x9 sudoku problem (324 items, 729 options) searched on
bitboards, many puzzles in one call.

Every ``@njit(cache=True)`` function this kernel calls lives in this file (numba's cache
only notices edits to the file a function is defined in); ``dlx/kernels/sudoku/layout.py``
recognises the problem and ``dlx/kernels/sudoku/search.py`` drives the kernel.

Data structures
---------------
Option ``k`` of the canonical numbering puts digit ``d = k mod 9`` in cell
``i = k div 9`` (cell ``i`` is row ``i div 9``, column ``i mod 9``). The options still
live at a node are nine *digit boards*, each three *band words*: ``rows[l, 3 d + b]``
has bit ``9 r + c`` set when digit ``d`` may still go in cell ``(3 b + r, c)`` (a band
is three rows, 27 bits). ``rows[l, 27 + b]`` is the band's *open* cells: those whose
item is not covered yet. A chosen option keeps its own bit on its digit board; an
item is covered when its cell is closed (cell items) or when its digit board has no
open bit left in its unit (row, column and box items). Three more words say what
changed since each forced-move scan last looked: the digits (``HIDDEN``, ``LOCKED``) and
the bands (``NAKED``). A node's 33 words are its parent's, changed: nothing is ever
undone, and going back up is ``level -= 1``. The search allocates nothing, so it is
compiled without numba's reference counts, its steps inlined into ``_search_one``, and
a node is read as ``rows[level, w]``, never as a view of its row.

Knuth's steps, in the words of the other kernels:

- *Cover* (``_place``): option (``i``, ``d``) taken: digit ``d`` leaves every other
  cell of ``i``'s row, column and box (``peer``), the other digits leave ``i``, ``i``
  is closed.
- *Forced moves* (``_propagate``, until none applies): a cell item with one live option
  (a naked single) or none (dead), found for a band's cells at once by counting its
  digit boards bit-sliced; a row, column or box item with one live option (a hidden
  single), found for all a digit's units at once;
  and, per digit and band (or stack of three columns), the options that no way of
  covering the band's three row items and three box items together can use: the
  band's 3x3 segments (row by box) that hold the digit must contain a permutation
  (one segment a row and a box); segments in none are dropped, and a band with none is
  dead (``lock``, a table of the 512 segment patterns). This is item domination
  (pointing and claiming) and a little more.
- *Choose*: an open cell with two live options if any (the one whose two digits
  reach the most cells, see ``_choose``), else the first with the fewest; one branch
  a digit, tried in order.
- *Back down*: the parent's next digit; a node that found a contradiction has none.

The nodes are the branches tried (the forced moves are not nodes); the updates the
options covered, forced moves included.
"""

from __future__ import annotations

import numpy as np
from numba import config, njit
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

WORDS = 33  # a node's words: 27 digit-band words, the 3 bands' open cells, 3 dirty sets
OPEN = 27  # rows[l, OPEN + b]: band b's open cells
HIDDEN = 30  # rows[l, HIDDEN]: the digits whose boards changed since the last hidden scan
LOCKED = 31  # rows[l, LOCKED]: ... and since the last lock scan
NAKED = 32  # rows[l, NAKED]: the bands that lost options since the last naked scan
ROW = 0x1FF  # the 9 bits of a band's first row
BOX = 0x1C0E07  # the 9 bits of a band's first box
COLUMN = 0x40201  # the 3 bits of a band's first column
PLAIN = {"cache": True, "_nrt": False}  # the search allocates nothing: no reference counts


if config.DISABLE_JIT:  # (numba's intrinsic runs compiled only)

    def _low(word):
        """The lowest set bit's position in a nonzero word."""
        return (int(word) & -int(word)).bit_length() - 1

    def _ones(word):
        """How many bits of a word are set."""
        return bin(int(word) & ((1 << 64) - 1)).count("1")

else:

    @intrinsic
    def _ones(typingctx, word):
        """How many bits of a word are set (one instruction)."""

        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])

        return word(word), codegen

    @njit(cache=True)
    def _low(word):
        """The lowest set bit's position in a nonzero word."""
        return trailing_zeros(word)


@njit(cache=True)
def tables():
    """The kernel's tables: ``peer[i, b]`` (cell i's row, column and box in band b, i
    excluded), ``lock[s]`` (for a 3x3 segment pattern s, bit 3 r + k for segment (r, k),
    the segments that lie on a permutation; 0 when none does) and ``expand[s]`` (the
    band bits of a segment pattern)."""
    peer = np.zeros((81, 3), np.int64)
    for i in range(81):
        r, c = i // 9, i % 9
        for j in range(81):
            s, t = j // 9, j % 9
            if j != i and (s == r or t == c or (s // 3 == r // 3 and t // 3 == c // 3)):
                peer[i, j // 27] |= 1 << (j % 27)
    lock = np.zeros(512, np.int64)
    for s in range(512):
        for a in range(3):  # the six permutations: rows 0, 1, 2 to boxes a, b, 3 - a - b
            for b in range(3):
                if b != a:
                    perm = (1 << a) | (1 << (3 + b)) | (1 << (6 + 3 - a - b))
                    if s & perm == perm:
                        lock[s] |= perm
    expand = np.zeros(512, np.int64)
    for s in range(512):
        for seg in range(9):
            if (s >> seg) & 1:
                expand[s] |= 7 << (9 * (seg // 3) + 3 * (seg % 3))
    chunk = np.zeros(512, np.int64)
    for x in range(512):
        for k in range(3):
            if (x >> (3 * k)) & 7:
                chunk[x] |= 1 << k
    return peer, lock, expand, chunk


@njit(**PLAIN, inline="always")
def _place(rows, at, cell, digit, peer) -> bool:
    """Cover option (cell, digit) at ``level``; False when it is not live (dead)."""
    b, shift = cell // 27, cell % 27
    bit = 1 << shift
    if not rows[at, 3 * digit + b] & bit or not rows[at, OPEN + b] & bit:
        return False
    changed = 0
    for e in range(9):  # every digit leaves the cell (``digit`` comes back below)
        word = rows[at, 3 * e + b]
        changed |= ((word >> shift) & 1) << e
        rows[at, 3 * e + b] = word & ~bit
    bands = 1 << b
    for c in range(3):
        word = rows[at, 3 * digit + c]
        bands |= int(word & peer[cell, c] != 0) << c
        rows[at, 3 * digit + c] = word & ~peer[cell, c]
    rows[at, 3 * digit + b] |= bit
    rows[at, NAKED] |= bands
    rows[at, OPEN + b] &= ~bit
    rows[at, HIDDEN] |= changed
    rows[at, LOCKED] |= changed
    return True


@njit(**PLAIN, inline="always")
def _take(rows, at, cell, digit, peer) -> bool:
    """``_place``, where the cell may have been closed with this digit already."""
    b, bit = cell // 27, 1 << (cell % 27)
    if rows[at, OPEN + b] & bit:
        return _place(rows, at, cell, digit, peer)
    return (rows[at, 3 * digit + b] & bit) != 0


@njit(**PLAIN, inline="always")
def _segments(word, chunk):
    """A band word's 3x3 segment pattern: bit 3 r + k when row r, box k holds a bit
    (``chunk[x]``: the boxes a row's 9 bits x touch)."""
    return chunk[word & ROW] | (chunk[(word >> 9) & ROW] << 3) | (chunk[word >> 18] << 6)


@njit(**PLAIN, inline="always")
def _lock_bands(rows, at, lock, expand, chunk) -> int:
    """Drop each digit's options that lie on no permutation of its band's segments,
    and of its stacks'; -1 dead, else how many words changed."""
    changed = 0
    todo = rows[at, LOCKED]
    rows[at, LOCKED] = 0
    while todo:
        d = _low(todo)
        todo &= todo - 1
        w0, w1, w2 = rows[at, 3 * d], rows[at, 3 * d + 1], rows[at, 3 * d + 2]
        if _ones(w0) + _ones(w1) + _ones(w2) == 9 and not (
            w0 & rows[at, OPEN] or w1 & rows[at, OPEN + 1] or w2 & rows[at, OPEN + 2]
        ):
            continue  # the digit is in all its nine cells: nothing to drop
        before = changed
        for b in range(3):
            word = rows[at, 3 * d + b]
            keep = lock[_segments(word, chunk)]
            if keep == 0:
                return -1
            new = word & expand[keep]
            if new != word:
                rows[at, 3 * d + b] = new
                rows[at, NAKED] |= 1 << b
                changed += 1
        for k in range(3):  # stack k: bands as its boxes, its three columns as lines
            s = 0
            for b in range(3):
                word = rows[at, 3 * d + b]
                folded = (word | (word >> 9) | (word >> 18)) >> (3 * k)
                s |= (folded & 7) << (3 * b)
            keep = lock[s]
            if keep == 0:
                return -1
            if keep != s:  # band b keeps the stack's columns (keep >> 3 b) & 7
                for b in range(3):
                    columns = ((keep >> (3 * b)) & 7) * COLUMN
                    rows[at, 3 * d + b] &= ~(BOX << (3 * k)) | (columns << (3 * k))
                rows[at, NAKED] = 7
                changed += 1
        if changed != before:
            rows[at, HIDDEN] |= 1 << d
            rows[at, LOCKED] |= 1 << d
    return changed


@njit(**PLAIN, inline="always")
def _naked(rows, at, peer) -> int:
    """Cover every open cell with one live option; -1 dead (a cell with none), else
    how many were covered."""
    placed = 0
    bands = rows[at, NAKED]
    rows[at, NAKED] = 0
    while bands:
        b = _low(bands)
        bands &= bands - 1
        live = rows[at, OPEN + b]
        ones = 0
        twos = 0
        for d in range(9):
            word = rows[at, 3 * d + b] & live
            twos |= ones & word
            ones |= word
        if live & ~ones:
            return -1
        single = ones & ~twos & live
        while single:
            bit = single & -single
            single ^= bit
            cell = 27 * b + _low(bit)
            digits = _digits(rows, at, cell)
            if not digits or not _place(rows, at, cell, _low(digits), peer):
                return -1
            placed += 1
    return placed


@njit(**PLAIN, inline="always")
def _lone(word) -> int:
    """The bits of a band word that are alone in their row or their box."""
    out = 0
    for u in range(3):
        part = word & (ROW << (9 * u))
        out |= part if part & (part - 1) == 0 else 0
        box = word & (BOX << (3 * u))
        out |= box if box & (box - 1) == 0 else 0
    return out


@njit(**PLAIN, inline="always")
def _hidden(rows, at, peer) -> int:
    """Cover every row, column and box item with one live option; -1 dead, else how
    many were covered."""
    placed = 0
    todo = rows[at, HIDDEN]
    rows[at, HIDDEN] = 0
    while todo:
        d = _low(todo)
        todo &= todo - 1
        w0 = rows[at, 3 * d] & rows[at, OPEN]
        w1 = rows[at, 3 * d + 1] & rows[at, OPEN + 1]
        w2 = rows[at, 3 * d + 2] & rows[at, OPEN + 2]
        if not (w0 | w1 | w2):
            continue  # the digit is in every cell it goes in
        ones = 0
        twos = 0
        for u in range(9):  # the nine rows' parts, counted by column
            word = w0 if u < 3 else w1 if u < 6 else w2
            part = (word >> (9 * (u % 3))) & ROW
            twos |= ones & part
            ones |= part
        columns = (ones & ~twos) * COLUMN  # columns with one live option, in every row
        for b in range(3):
            word = w0 if b == 0 else w1 if b == 1 else w2
            single = word & columns | _lone(word)
            while single:
                if not _take(rows, at, 27 * b + _low(single), d, peer):
                    return -1
                single &= single - 1
                placed += 1
    return placed


@njit(**PLAIN, inline="always")
def _propagate(rows, at, peer, lock, expand, chunk) -> int:
    """Forced moves at ``level`` until none applies; -1 dead, else the options covered."""
    placed = 0
    while True:
        k = _naked(rows, at, peer)
        if k < 0:
            return -1
        placed += k
        if k:
            continue
        k = _hidden(rows, at, peer)
        if k < 0:
            return -1
        placed += k
        if k:
            continue
        k = _lock_bands(rows, at, lock, expand, chunk)
        if k < 0:
            return -1
        if k == 0:
            return placed


@njit(**PLAIN, inline="always")
def _choose(rows, at, peer) -> int:
    """The open cell to branch on; -1 when every cell is closed. A cell with two live
    options if any: the one whose options reach the most, scored by the places its two
    digits still have among its peers, and three times those places that are cells of two
    options (each becomes a single if the digit goes here); else the first cell with
    the fewest live options."""
    p0 = p1 = p2 = 0  # each band's open cells of two live options
    for b in range(3):
        live = rows[at, OPEN + b]
        ones = 0
        twos = 0
        threes = 0
        for d in range(9):
            word = rows[at, 3 * d + b] & live
            threes |= twos & word
            twos |= ones & word
            ones |= word
        if b == 0:
            p0 = twos & ~threes & live
        elif b == 1:
            p1 = twos & ~threes & live
        else:
            p2 = twos & ~threes & live
    if p0 | p1 | p2:
        best, most = -1, -1
        o0, o1, o2 = rows[at, OPEN], rows[at, OPEN + 1], rows[at, OPEN + 2]
        for b in range(3):
            pair = p0 if b == 0 else p1 if b == 1 else p2
            while pair:
                cell = 27 * b + _low(pair)
                pair &= pair - 1
                q0, q1, q2 = peer[cell, 0], peer[cell, 1], peer[cell, 2]
                digits = _digits(rows, at, cell)
                score = 0
                while digits:
                    d = _low(digits)
                    digits &= digits - 1
                    w0 = rows[at, 3 * d] & q0
                    w1 = rows[at, 3 * d + 1] & q1
                    w2 = rows[at, 3 * d + 2] & q2
                    score += _ones(w0 & o0) + _ones(w1 & o1) + _ones(w2 & o2)
                    score += 3 * (_ones(w0 & p0) + _ones(w1 & p1) + _ones(w2 & p2))
                if score > most:
                    best, most = cell, score
        return best
    best, fewest = -1, 10
    for b in range(3):
        live = rows[at, OPEN + b]
        while live:
            bit = live & -live
            live ^= bit
            n = 0
            for d in range(9):
                if rows[at, 3 * d + b] & bit:
                    n += 1
            if n < fewest:
                best, fewest = 27 * b + _low(bit), n
    return best


@njit(**PLAIN, inline="always")
def _digits(rows, at, cell) -> int:
    """The live digits of an open cell, as bits."""
    b, shift = cell // 27, cell % 27
    out = 0
    for d in range(9):
        out |= ((rows[at, 3 * d + b] >> shift) & 1) << d
    return out


@njit(**PLAIN)
def _record(rows, at, given, first, k) -> None:
    """Write a solution's options (cells not given) into ``first[k]``, -1 padded."""
    n = 0
    for cell in range(81):
        b, bit = cell // 27, 1 << (cell % 27)
        if given[cell]:
            continue
        for d in range(9):
            if rows[at, 3 * d + b] & bit:
                if n < first.shape[1]:
                    first[k, n] = 9 * cell + d
                n += 1
                break


@njit(**PLAIN, inline="always")
def _root(rows, peer, options, lo, hi, given) -> bool:
    """``rows[0]``: the empty grid (every digit open everywhere, every scan due), then the
    canonical options ``options[lo:hi]`` placed, their cells marked in ``given``; False
    when they clash."""
    for w in range(27):
        rows[0, w] = (1 << 27) - 1
    for b in range(3):
        rows[0, OPEN + b] = (1 << 27) - 1
    rows[0, HIDDEN] = rows[0, LOCKED] = (1 << 9) - 1
    rows[0, NAKED] = 7
    given[:] = False
    for j in range(lo, hi):
        cell, digit = options[j] // 9, options[j] % 9
        given[cell] = True
        if not _place(rows, 0, cell, digit, peer):
            return False
    return True


@njit(**PLAIN)
def _search_one(rows, cell_of, rest, given, limit, tabs, first, k, stats, stop):
    """Search from the root ``rows[0]`` (givens covered) up to ``limit`` solutions, or
    until ``stop[0]`` is set (another thread may set it); the count (the first solution
    in ``first[k]``, nodes and updates in ``stats[k]``)."""
    peer, lock, expand, chunk = tabs
    count = 0
    level = 0
    fresh = True  # rows[level] is to be propagated and entered
    while True:
        if fresh:
            placed = _propagate(rows, level, peer, lock, expand, chunk)
            fresh = False
            if placed >= 0:
                stats[k, 1] += placed
                cell = _choose(rows, level, peer)
                if cell < 0:
                    count += 1
                    if count == 1:
                        _record(rows, level, given, first, k)
                    if count >= limit:
                        return count
                else:
                    cell_of[level] = cell
                    rest[level] = _digits(rows, level, cell)
                    level += 1
        while True:  # back down to a level with a digit left to try
            level -= 1
            if level < 0:
                return count
            if rest[level]:
                break
        digits = rest[level]
        d = _low(digits)
        rest[level] = digits & (digits - 1)
        for w in range(WORDS):
            rows[level + 1, w] = rows[level, w]
        level += 1
        if stop[0]:
            return count
        stats[k, 0] += 1
        stats[k, 1] += 1
        _place(rows, level, cell_of[level - 1], d, peer)
        fresh = True


@njit(cache=True, nogil=True)
def search_batch(options, start, limit, first, counts, stats):
    """One search a puzzle: puzzle ``k`` forces the canonical options
    ``options[start[k]:start[k + 1]]`` (int64); ``counts[k]`` gets its solutions up to
    ``limit`` (-1 when its forced options clash), ``first[k]`` its first solution's
    options beyond the forced ones (-1 padded), ``stats[k]`` its nodes and updates."""
    tabs = tables()
    peer = tabs[0]
    rows = np.zeros((82, WORDS), np.int64)
    cell_of = np.zeros(82, np.int64)
    rest = np.zeros(82, np.int64)
    given = np.zeros(81, np.bool_)
    never = np.zeros(1, np.int64)
    first[:, :] = -1
    for k in range(len(start) - 1):
        if not _root(rows, peer, options, start[k], start[k + 1], given):
            counts[k] = -1
            continue
        counts[k] = _search_one(rows, cell_of, rest, given, limit, tabs, first, k, stats, never)


@njit(cache=True, nogil=True)
def count_from(givens, live, limit, stats, stop, first):
    """One search of a partial grid: the canonical options ``givens`` (int64) covered
    at the root, then every option ``k`` of an open cell with ``live[k]`` False
    dropped; its solutions up to ``limit`` (-1 when the givens clash), or those found
    when ``stop[0]`` was set, its nodes and updates added to ``stats[0]``, its first
    solution's options beyond the givens in ``first[0]`` (int64[1, 81], -1 padded)."""
    tabs = tables()
    peer = tabs[0]
    rows = np.zeros((82, WORDS), np.int64)
    given = np.zeros(81, np.bool_)
    if not _root(rows, peer, givens, 0, len(givens), given):
        return -1
    for k in range(729):
        cell = k // 9
        if not live[k] and not given[cell]:
            rows[0, 3 * (k % 9) + cell // 27] &= ~(1 << (cell % 27))
    first[:, :] = -1
    cell_of = np.zeros(82, np.int64)
    rest = np.zeros(82, np.int64)
    return _search_one(rows, cell_of, rest, given, limit, tabs, first, 0, stats, stop)
