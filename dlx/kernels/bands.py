"""The reads of a live set by the bit-parallel kernels (tight, its batches, mcc, and
the bitset kernel's key): jitted helpers inlined into each kernel.

A live set is one row of uint64 words a level, option ``o`` its bit ``o``; an item's
*band* is the words where it has options (``t.item_band_start``, ``t.item_first_word``,
``t.item_band``: the tight and mcc layouts), a *group* a list of (word, bits) pairs
(``t.group_start``, ``t.group_word``, ``t.group_bits``).

numba's cache keys a kernel on its own file: an edit here does not reach a kernel
cached before it. Each file that imports this one therefore records its digest
(``BANDS_DIGEST``), which ``tests/test_structure.py`` checks; the edit that updates it
there makes numba compile that kernel afresh.

>>> import numpy as np
>>> rows = np.array([[0b1010]], dtype=np.uint64)
>>> int(low(rows[0, 0])), int(has_bit(rows, 0, 3)), int(has_bit(rows, 0, 2))
(1, 1, 0)
"""

import numpy as np
from numba import njit

from dlx.kernels.bits import popcount, trailing_zeros

# Nothing here allocates: compiled without numba's reference counting (see
# dlx/kernels/links/kernel.py).
PLAIN = {"cache": True, "_nrt": False}
# dlx/kernels/bits.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/bits.py changes, unless this file changes with it
BITS_DIGEST = "2ca1aca66e643eb6"

_u = np.uint64  # unsigned indices: no test for negative ones (see dlx/kernels/links/kernel.py)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(**PLAIN, inline="always")
def low(x):
    """The index of the lowest bit set in a nonzero uint64."""
    return np.int64(trailing_zeros(x))


@njit(**PLAIN, inline="always")
def has_bit(rows, level, b):
    """Whether bit ``b`` of row ``level`` is set."""
    return (rows[_u(level), _u(b >> 6)] >> np.uint64(b & 63)) & _ONE


@njit(**PLAIN, inline="always")
def live_options(t, live, level, p):
    """How many options of primary item ``p`` are live at ``level`` (its band)."""
    n = _ZERO
    first = t.item_band_start[_u(p)]
    w = t.item_first_word[_u(p)] - first
    for k in range(first, t.item_band_start[_u(p + 1)]):
        n += popcount(live[_u(level), _u(w + k)] & t.item_band[_u(k)])
    return np.int64(n)


@njit(**PLAIN, inline="always")
def first_live(t, live, level, p):
    """The first live option of primary item ``p`` at ``level`` (-1: none), by its band."""
    first = t.item_band_start[_u(p)]
    w = t.item_first_word[_u(p)] - first
    for k in range(first, t.item_band_start[_u(p + 1)]):
        bits = live[_u(level), _u(w + k)] & t.item_band[_u(k)]
        if bits:
            return (w + k) * 64 + low(bits)
    return -1


@njit(**PLAIN, inline="always")
def gather(t, live, level, g, cand, start):
    """Write the live options of group ``g`` to ``cand[start:]``; return how many."""
    n = 0
    for k in range(t.group_start[_u(g)], t.group_start[_u(g + 1)]):
        w = t.group_word[_u(k)]
        bits = live[_u(level), _u(w)] & t.group_bits[_u(k)]
        while bits:
            cand[_u(start + n)] = w * 64 + low(bits)
            n += 1
            bits &= bits - _ONE
    return n
