"""The tight kernel's reads of its bit sets, shared by its search (``kernel.py``) and
its batches (``batch.py``); ``TIGHT_BANDS_DIGEST`` in each guards numba's cache (it
keys a function on its own file only), checked by ``tests/test_structure.py``.
"""

import numpy as np
from numba import njit

from dlx.kernels.bits import trailing_zeros

# Nothing here allocates: compiled without numba's reference counting (see bitset.py).
PLAIN = {"cache": True, "_nrt": False}
# dlx/kernels/bits.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/bits.py changes, unless this file changes with it
BITS_DIGEST = "2ca1aca66e643eb6"

_u = np.uint64  # unsigned indices: no test for negative ones (see dlx/kernels/links/kernel.py)
_ONE = np.uint64(1)


@njit(**PLAIN, inline="always")
def _low(x):
    """The index of the lowest bit set in a nonzero uint64."""
    return np.int64(trailing_zeros(x))


@njit(**PLAIN, inline="always")
def _has_bit(rows, level, b):
    """Whether bit ``b`` of row ``level`` is set."""
    return (rows[_u(level), _u(b >> 6)] >> np.uint64(b & 63)) & _ONE


@njit(**PLAIN, inline="always")
def _gather(t, live, level, g, cand, start):
    """Write the live options of group ``g`` to ``cand[start:]``; return how many."""
    n = 0
    for k in range(t.group_start[_u(g)], t.group_start[_u(g + 1)]):
        w = t.group_word[_u(k)]
        bits = live[_u(level), _u(w)] & t.group_bits[_u(k)]
        while bits:
            cand[_u(start + n)] = w * 64 + _low(bits)
            n += 1
            bits &= bits - _ONE
    return n
