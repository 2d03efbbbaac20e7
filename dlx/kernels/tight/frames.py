"""The tight kernel's frames: a live set packed into a few words deep down.

Below the root the live set thins out fast (on the one-sided pentominoes in 9x10, a
few hundred of 3,546 options are live twelve levels down, a few dozen at fourteen),
while each item's band keeps its width: choosing the tightest item still counts 16 to
56 words an item, mostly zero. So when a node that branches (two options or more) has
at most ``64 * words`` options live (``words``: the frame's width, the columns of
``f.live``, ``FRAME_WORDS`` in ``dlx/kernels/tight/search.py``), no more than its
live set's words, and no frame is open above it, the kernel opens a *frame* there: its
live options, numbered ``0..m-1`` in bit order (``f.map[i]`` is the option of frame
bit ``i``), and each group's live options as ``words`` words of frame bits
(``f.group[g]``: a primary item's *band* within the frame, or the options a conflict
group kills). Every level below the frame's own keeps its live set as frame bits
(``f.live[l]``); counting an item's live options is then one pass over ``words``
words, and taking option ``o`` clears the frame rows of its conflict groups (``live &
~f.group[g]`` for each ``g`` in ``o``'s groups), which is exactly the frame's share of
``live & ~conflict[o]``. The candidates of a level in the frame are frame bits, in the
same order as their options' bits: the tree and its branch numbers are those of the
kernel without frames. The frame closes when the search leaves its level
(``f.level[0] = NO_FRAME``).

As the child's frame row is made before the child is entered, a child left with
primary items and no live option at all is known dead there and not entered (a count
of 0, as the kernel counts a child with one item left): the nodes are fewer than
without frames, the solutions and branch numbers the same.

A node in a frame is also known dead when *choose* meets an item with one live option
(a forced move, which it would take) before an item with none: the items after the
forced one are then tested for a live option (``dead_after``, a test for zero, cheaper
than a count), and the node ends there instead of in the forced moves below it. Most
nodes deep in the 9x10's tree are such dead ends.

Rows of ``WIDE`` (16) words, the frame's width, are read as one vector of 16 words
(``and_count``, ``and_any``: LLVM's vector operations, on AVX-512 two 512-bit ANDs and
popcounts; numba's own loops over a run-time width use 256-bit vectors).

Opening a frame costs a pass over its options' groups (``f.member``: the groups each
option belongs to, primary items and the conflict groups of secondary items), paid
back by the nodes below it.

The arrays (``dlx.kernels.tight.search.Frame``): ``member_start``, ``member`` int64
(CSR by option bit; no rows: frames off), ``live`` uint64[rows, words], ``map``
int64[64 * words], ``group`` uint64[n_groups, words], ``level`` int64[1].

numba's cache keys a kernel on its own file: ``kernel.py`` records this file's digest
(``TIGHT_FRAMES_DIGEST``, checked by ``tests/test_structure.py``).
"""

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from dlx.kernels.bands import low as _low
from dlx.kernels.bits import popcount as _popcount

# Nothing here allocates: compiled without numba's reference counting (see bitset.py).
PLAIN = {"cache": True, "_nrt": False}
# dlx/kernels/bits.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/bits.py changes, unless this file changes with it
BITS_DIGEST = "2ca1aca66e643eb6"
# dlx/kernels/bands.py's sha256, checked by tests/test_structure.py: numba's cache of this
# file goes stale when dlx/kernels/bands.py changes, unless this file changes with it
BANDS_DIGEST = "c07b239f6ce16d0f"

NO_FRAME = -1
WIDE = 16  # the frame's width (``FRAME_WORDS``) whose rows ``and_count`` reads in one go

_u = np.uint64
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


if config.DISABLE_JIT:  # the intrinsics, in pure Python

    def and_count(a, i, b, j):
        """The bits set in ``a[i] & b[j]`` (rows of ``WIDE`` words)."""
        return sum(bin(int(x) & int(y)).count("1") for x, y in zip(a[i], b[j], strict=True))

    def and_any(a, i, b, j):
        """Whether ``a[i] & b[j]`` has a bit set (rows of ``WIDE`` words)."""
        return any(int(x) & int(y) for x, y in zip(a[i], b[j], strict=True))

else:

    def _rows_and(context, builder, signature, args):
        """``a[i] & b[j]`` as one vector of ``WIDE`` words (C-contiguous uint64 rows)."""
        vector = ir.VectorType(ir.IntType(64), WIDE)
        rows = []
        for k in (0, 2):
            kind, array, index = signature.args[k], args[k], args[k + 1]
            data = context.make_array(kind)(context, builder, array).data
            at = builder.mul(index, ir.Constant(ir.IntType(64), WIDE))
            at = builder.bitcast(builder.gep(data, [at]), vector.as_pointer())
            rows.append(builder.load(at, align=8))
        return builder.and_(*rows), vector

    def _reduce(builder, name, vector, value):
        """LLVM's ``llvm.vector.reduce.NAME`` of ``value``."""
        kind = ir.FunctionType(ir.IntType(64), [vector])
        name = f"llvm.vector.reduce.{name}.v{WIDE}i64"
        return builder.call(cgutils.get_or_insert_function(builder.module, kind, name), [value])

    @intrinsic
    def and_count(typingctx, a, i, b, j):
        """The bits set in ``a[i] & b[j]``, rows of ``WIDE`` words of C-contiguous uint64
        arrays, as one vector (on AVX-512, two 512-bit ANDs and popcounts and a
        horizontal sum: numba's own loops use 256-bit vectors)."""

        def codegen(context, builder, signature, args):
            both, vector = _rows_and(context, builder, signature, args)
            kind = ir.FunctionType(vector, [vector])
            ctpop = cgutils.get_or_insert_function(builder.module, kind, f"llvm.ctpop.v{WIDE}i64")
            return _reduce(builder, "add", vector, builder.call(ctpop, [both]))

        if a.layout != "C" or b.layout != "C":
            return None
        return types.uint64(a, types.uint64, b, types.uint64), codegen

    @intrinsic
    def and_any(typingctx, a, i, b, j):
        """Whether ``a[i] & b[j]`` has a bit set (as ``and_count``, a test for zero)."""

        def codegen(context, builder, signature, args):
            both, vector = _rows_and(context, builder, signature, args)
            ored = _reduce(builder, "or", vector, both)
            return builder.icmp_unsigned("!=", ored, ir.Constant(ir.IntType(64), 0))

        if a.layout != "C" or b.layout != "C":
            return None
        return types.boolean(a, types.uint64, b, types.uint64), codegen


@njit(**PLAIN, inline="always")
def in_frame(f, level):
    """Whether ``level``'s live set is in the open frame (its own level included)."""
    return 0 <= f.level[0] <= level


@njit(**PLAIN, inline="always")
def live_count(t, live, level):
    """How many options are live at ``level`` (the whole live set)."""
    n = _ZERO
    for w in range(t.words):
        n += _popcount(live[_u(level), _u(w)])
    return np.int64(n)


@njit(**PLAIN, inline="always")
def opens(t, f, s, level, n):
    """Whether a frame opens at ``level``, a node of ``n`` branches and no frame open:
    frames on, two branches or more, a live set wider than a frame that fits one."""
    if f.member_start.shape[0] == 0 or n < 2 or f.level[0] != NO_FRAME:
        return False
    words = f.live.shape[1]
    return t.words > words and live_count(t, s.live, level) <= 64 * words


@njit(**PLAIN)
def open_frame(f, live, level, words):
    """Open the frame at ``level`` (``live``: the search's live sets, ``words`` wide):
    number its live options, make each group's frame row and the level's frame live set
    (every frame bit). Compiled once, out of line (called, not inlined: it runs once a
    frame, and its loops would cost the kernel's compile more than its call costs)."""
    for g in range(f.group.shape[0]):
        for w in range(f.live.shape[1]):
            f.group[_u(g), _u(w)] = _ZERO
    m = 0
    for w in range(words):
        bits = live[_u(level), _u(w)]
        while bits:
            f.map[_u(m)] = w * 64 + _low(bits)
            bits &= bits - _ONE
            m += 1
    # the groups' rows bit by bit, each bit in every word in turn: the options one after
    # the other (which share groups) set different words, not one word again and again
    for b in range(64):
        bit = _ONE << np.uint64(b)
        for i in range(b, m, 64):
            o = f.map[_u(i)]
            for j in range(f.member_start[_u(o)], f.member_start[_u(o + 1)]):
                f.group[_u(f.member[_u(j)]), _u(i >> 6)] |= bit
    for w in range(f.live.shape[1]):
        k = m - 64 * w
        if k >= 64:
            f.live[_u(level), _u(w)] = ~_ZERO
        elif k > 0:
            f.live[_u(level), _u(w)] = (_ONE << np.uint64(k)) - _ONE
        else:
            f.live[_u(level), _u(w)] = _ZERO
    f.level[0] = level


@njit(**PLAIN, inline="always")
def count_in(f, level, g):
    """How many of group ``g``'s options are live at ``level`` (in the frame)."""
    if f.live.shape[1] == WIDE:
        return np.int64(and_count(f.live, _u(level), f.group, _u(g)))
    n = _ZERO
    for w in range(f.live.shape[1]):
        n += _popcount(f.live[_u(level), _u(w)] & f.group[_u(g), _u(w)])
    return np.int64(n)


@njit(**PLAIN, inline="always")
def has_live(f, level, g):
    """Whether any of group ``g``'s options is live at ``level`` (in the frame)."""
    if f.live.shape[1] == WIDE:
        return and_any(f.live, _u(level), f.group, _u(g))
    for w in range(f.live.shape[1]):
        if f.live[_u(level), _u(w)] & f.group[_u(g), _u(w)]:
            return True
    return False


@njit(**PLAIN, inline="always")
def dead_after(f, uncovered, level, w, items):
    """Whether an uncovered item after a forced one (the rest of word ``w``'s bits
    ``items``, then the words after it) has no live option at ``level`` (in the frame):
    the forced move's child would be dead."""
    while True:
        while items:
            if not has_live(f, level, w * 64 + _low(items)):
                return True
            items &= items - _ONE
        w += 1
        if w >= uncovered.shape[1]:
            return False
        items = uncovered[_u(level), _u(w)]


@njit(**PLAIN, inline="always")
def gather(f, level, g, cand, start):
    """Write the frame bits of group ``g``'s options live at ``level`` to
    ``cand[start:]``; return how many."""
    n = 0
    for w in range(f.live.shape[1]):
        bits = f.live[_u(level), _u(w)] & f.group[_u(g), _u(w)]
        while bits:
            cand[_u(start + n)] = w * 64 + _low(bits)
            n += 1
            bits &= bits - _ONE
    return n


@njit(**PLAIN, inline="always")
def clear(t, f, level, o):
    """Frame row ``level + 1``: row ``level`` less option ``o``'s conflict groups;
    return the options cleared, and whether any option is left."""
    child = level + 1
    words = f.live.shape[1]
    for w in range(words):
        f.live[_u(child), _u(w)] = f.live[_u(level), _u(w)]
    for j in range(t.option_group_start[_u(o)], t.option_group_start[_u(o + 1)]):
        g = t.option_group[_u(j)]
        for w in range(words):
            f.live[_u(child), _u(w)] &= ~f.group[_u(g), _u(w)]
    updates = _ZERO
    left = _ZERO
    for w in range(words):
        updates += _popcount(f.live[_u(level), _u(w)] ^ f.live[_u(child), _u(w)])
        left |= f.live[_u(child), _u(w)]
    return updates, left != _ZERO


@njit(**PLAIN)
def live_agrees(t, s, f, level, live):
    """Whether the search's live set of ``level`` (its frame row, in a frame) is
    ``live`` (for ``sanity``)."""
    if not in_frame(f, level):
        for w in range(t.words):
            if s.live[level, w] != live[w]:
                return False
        return True
    n = 0
    for w in range(t.words):
        n += _popcount(live[w])
    for i in range(64 * f.live.shape[1]):
        if (f.live[level, i >> 6] >> np.uint64(i & 63)) & _ONE:
            o = f.map[i]
            if not (live[o >> 6] >> np.uint64(o & 63)) & _ONE:
                return False
            n -= 1
    return n == 0
