"""The links kernel's memo (``kernel.py``): the table of counts keyed on the items
covered; ``LINKS_MEMO_DIGEST`` guards numba's cache as ``lists.py`` explains.
"""

import numpy as np
from numba import njit

from dlx.kernels.links.layout import (
    TOP,
)
from dlx.kernels.links.lists import (
    _next_in_option,
)

# Compiled without numba's reference counting, unsigned indices: see kernel.py.
PLAIN = {"cache": True, "_nrt": False}
_u = np.uint64
# dlx/kernels/links/lists.py's sha256, checked by tests/test_structure.py: numba's cache
# of this file's functions goes stale when that file changes, unless this file changes too
LISTS_DIGEST = "4986ee787cfca4be"


# -- the memo ----------------------------------------------------------------------------
#
# For full counts of problems without colours, multiplicities or loop items, the
# problem left at a node (the active items and the options that avoid every covered
# item) depends only on the set of items covered so far, not on the path that covered
# them. So its count can be kept and reused, as in Nishino et al.'s DXZ ("Dancing with
# decision diagrams", AAAI 2017), without the diagram.
#
# ``level_key[l]`` is that set at level ``l``, one bit per item in ``uint64`` words: the
# key of level ``l + 1`` is made in M6 from level ``l``'s and the option tried
# (``_memo_push``). Before the commit, the child's key is looked up in a direct-mapped
# table (``memo_keys[slot]``; ``memo_counts[slot, 0]`` is 1 for a full slot, and
# ``memo_counts[slot, 1:]`` the count): a hit adds the count and goes on to the next
# option without committing. On leaving a level (M9) that was entered at or below the
# fixed levels and whose subtree took at least ``MEMO_MIN_NODES`` nodes, its count (the
# count now minus the count noted on entry) is stored, overwriting whatever held the
# slot.
#
# Counts of any size: the solutions met one by one are counted in ``progress[SOLUTIONS]``
# (an int64 that no search lives long enough to fill), and the counts that memo hits
# add in ``st.extra``, an unsigned number of K 64-bit limbs (least significant first),
# ``st.level_count[l]`` being its value on entry to level ``l``. The memo stores K
# limbs too. An addition that carries out of the top limb stops the search with
# OVERFLOW; the caller then starts it again with 2K limbs
# (``dlx.driver.driver.Driver.run``), so every
# count is exact, and the total is ``progress[SOLUTIONS] + extra`` as a Python int.
#
# Every stored count is that of a whole subtree, so the table stays exact whatever the
# order of stores and overwrites; it lives as long as the caller keeps it, and the
# subproblems of one parallel count share it within a worker.
#
# The search tree is the same, less the subtrees met before (the README gives the
# node counts measured). Sudoku trees hardly repeat, and their batch searches stop at a
# limit anyway. With no rows in ``memo_keys`` the memo is off (streams, solution limits,
# splits, batches).


@njit(**PLAIN)
def _memo_slot(level_key, level, memo_keys):
    """The table slot of the key of ``level``: a multiply-xorshift hash of its words."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(level_key.shape[1]):
        h = (h ^ level_key[_u(level), _u(w)]) * np.uint64(0xFF51AFD7ED558CCD)
        h ^= h >> np.uint64(29)
    return h & np.uint64(memo_keys.shape[0] - 1)


@njit(**PLAIN)
def _memo_matches(level_key, level, memo_keys, slot):
    """Whether the table's key at ``slot`` is the key of ``level``."""
    for w in range(level_key.shape[1]):
        if memo_keys[slot, _u(w)] != level_key[_u(level), _u(w)]:
            return False
    return True


@njit(**PLAIN)
def _memo_store(st, level, memo_keys, memo_counts, ones):
    """Keep the count of the subtree of ``level`` (``ones`` solutions met one by one, and
    ``st.extra`` minus ``st.level_count[level]``) under its key, in place of the slot's
    old entry; return True if the count does not fit the limbs (OVERFLOW).
    Explicit loops: slice assignments here compile much more slowly."""
    level_key = st.level_key
    slot = _memo_slot(level_key, level, memo_keys)
    for w in range(level_key.shape[1]):
        memo_keys[slot, _u(w)] = level_key[_u(level), _u(w)]
    memo_counts[slot, 0] = 1
    carry = np.uint64(ones)
    borrow = np.uint64(0)
    for w in range(st.extra.shape[0]):
        now = st.extra[w]
        before = st.level_count[level, w]
        difference = now - before - borrow
        borrow = np.uint64(1) if now < before or (now == before and borrow) else np.uint64(0)
        total = difference + carry
        carry = np.uint64(1) if total < carry else np.uint64(0)
        memo_counts[slot, w + 1] = total
    return carry != 0


@njit(inline="always", **PLAIN)
def _memo_add(st, memo_counts, slot):
    """Add the count of memo ``slot`` to ``st.extra``; return True on OVERFLOW."""
    carry = np.uint64(0)
    for w in range(st.extra.shape[0]):
        a = st.extra[w]
        total = a + memo_counts[slot, w + 1]
        high = total < a
        total += carry
        carry = np.uint64(1) if high or total < carry else np.uint64(0)
        st.extra[w] = total
    return carry != 0


@njit(**PLAIN)
def _memo_push(node, level_key, level, x):
    """The key of ``level + 1``: the key of ``level`` and the items of x's option."""
    for w in range(level_key.shape[1]):
        level_key[_u(level + 1), _u(w)] = level_key[_u(level), _u(w)]
    pp = x
    while True:
        cc = node[TOP, _u(pp)]
        word = _u(level + 1), _u(cc >> 6)
        level_key[word] |= np.uint64(1) << np.uint64(cc & 63)
        pp = _next_in_option(node, pp)
        if pp == x:
            break


@njit(inline="always", **PLAIN)
def _memo_seen(st, level, cur, n_fixed, memo_keys, memo_counts):
    """M6 with the memo: push the key of the child of option ``cur``; return the slot
    that holds its count, or -1."""
    _memo_push(st.node, st.level_key, level, cur)
    if level + 1 >= n_fixed:
        slot = _memo_slot(st.level_key, level + 1, memo_keys)
        if memo_counts[slot, 0] != 0 and _memo_matches(st.level_key, level + 1, memo_keys, slot):
            return np.int64(slot)
    return np.int64(-1)
