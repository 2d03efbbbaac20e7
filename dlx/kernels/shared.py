"""The memo's table and the counts in limbs, shared by the bitset and tight kernels
(``dlx/kernels/bitset/kernel.py``, ``dlx/kernels/tight/kernel.py``; "Memo" in their
essays) and the counts by the mcc kernel: jitted helpers inlined into each kernel.

The table is uint64[2 * buckets, width], a row per entry: the key's words, the nodes
its subtree took (0: an empty row), then the count's limbs; two rows a bucket, the
subtree that took more nodes kept in the first. A count is ``limbs`` uint64 words,
least significant first, added with carry; a carry out of the top limb makes the
caller return ``OVERFLOW`` (the driver starts again with twice the limbs).

numba's cache keys a kernel on its own file: an edit here does not reach a kernel
cached before it. Each kernel file therefore records this file's digest
(``MEMO_DIGEST``), which ``tests/test_structure.py`` checks; the edit that updates
it there makes numba compile that kernel afresh.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Nothing here allocates: compiled without numba's reference counting (see bitset.py).
PLAIN = {"cache": True, "_nrt": False}

_u = np.uint64  # unsigned indices: no test for negative ones (see dlx/kernels/links/kernel.py)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
MAX_COUNT = (1 << 63) - 1  # what note_count writes when the count is larger


@njit(**PLAIN, inline="always")
def add_count(total, memo, row, col):
    """``total += memo[row, col:]`` (limbs); return False on a carry out of the top, or
    when the entry has more limbs than ``total`` (a search of wider counts, sharing the
    memo, stored it)."""
    carry = _ZERO
    limbs = total.shape[0]
    for k in range(limbs):
        a = total[_u(k)]
        b = memo[_u(row), _u(col + k)]
        s = a + b
        c1 = s < a
        s2 = s + carry
        c2 = s2 < s
        total[_u(k)] = s2
        carry = _ONE if (c1 or c2) else _ZERO
    for k in range(col + limbs, memo.shape[1]):
        if memo[_u(row), _u(k)] != _ZERO:
            return False
    return carry == _ZERO


@njit(**PLAIN, inline="always")
def add_one(total):
    """``total += 1`` (limbs); return False on a carry out of the top."""
    for k in range(total.shape[0]):
        total[_u(k)] += _ONE
        if total[_u(k)] != _ZERO:
            return True
    return False


@njit(**PLAIN, inline="always")
def bucket(h, memo):
    """The first row of the bucket of a key that hashes to ``h`` (two rows a bucket)."""
    return ((h ^ (h >> np.uint64(29))) & np.uint64((memo.shape[0] >> 1) - 1)) << _ONE


@njit(**PLAIN, inline="always")
def find(key, level, h, memo):
    """The row of the memo holding ``key[level]`` (whose hash is ``h``), or -1."""
    first = bucket(h, memo)
    n = key.shape[1]
    for r in range(first, first + _u(2)):
        if memo[r, _u(n)] == _ZERO:
            continue
        same = True
        for w in range(n):
            if memo[r, _u(w)] != key[_u(level), _u(w)]:
                same = False
                break
        if same:
            return np.int64(r)
    return -1


@njit(**PLAIN, inline="always")
def store(key, level, h, memo, total, entry, weight):
    """Keep ``total - entry[level]`` (the subtree's count, found in ``weight`` nodes)
    under ``key[level]``: in the bucket's first row if its entry took no more nodes
    (that entry moves to the second row), else in the second."""
    first = bucket(h, memo)
    n = key.shape[1]
    r = first + _ONE
    held = memo[first, _u(n)]
    if held == _ZERO:
        r = first
    elif held <= weight:
        for w in range(memo.shape[1]):
            memo[first + _ONE, _u(w)] = memo[first, _u(w)]
        r = first
    for w in range(n):
        memo[r, _u(w)] = key[_u(level), _u(w)]
    memo[r, _u(n)] = weight
    borrow = _ZERO
    for k in range(total.shape[0]):
        a = total[_u(k)]
        b = entry[_u(level), _u(k)]
        d = a - b
        b1 = a < b
        d2 = d - borrow
        b2 = d < borrow
        memo[r, _u(n + 1 + k)] = d2
        borrow = _ONE if (b1 or b2) else _ZERO
    for k in range(n + 1 + total.shape[0], memo.shape[1]):
        memo[r, _u(k)] = _ZERO  # what a wider count left in the row


@njit(**PLAIN, inline="always")
def at_least(total, n):
    """Whether the count in ``total`` (limbs) is at least ``n`` (no limit if n < 0)."""
    if n < 0:
        return False
    for k in range(1, total.shape[0]):
        if total[_u(k)]:
            return True
    return total[0] >= np.uint64(n)


@njit(**PLAIN, inline="always")
def note_count(total, stats):
    """``stats[0]``: the count ``total`` (limbs), or ``MAX_COUNT`` when it does not fit."""
    big = total[0] >> np.uint64(63)
    for k in range(1, total.shape[0]):
        big |= total[_u(k)]
    stats[0] = np.int64(total[0]) if big == _ZERO else MAX_COUNT
