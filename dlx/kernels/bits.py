"""The processor's bit instructions that the bit-parallel kernels use, as numba
intrinsics (inlined into each caller): ``trailing_zeros`` (the lowest set bit),
``popcount`` (the bits set in a word) and ``prefetch_row`` (a hint to load a row of a
2-D array into the caches). Under ``NUMBA_DISABLE_JIT`` each has a pure-Python version.

numba's cache keys a kernel on its own file: an edit here does not reach a kernel
cached before it. Each kernel file that imports this one therefore records its digest
(``BITS_DIGEST``), which ``tests/test_structure.py`` checks; the edit that updates it
there makes numba compile that kernel afresh.

>>> import numpy as np
>>> from numba import njit
>>> njit(lambda w: (popcount(w), trailing_zeros(w)))(np.uint64(0b1000))
(1, 3)
"""

from __future__ import annotations

from llvmlite import ir
from numba import config, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

__all__ = ["popcount", "prefetch_row", "trailing_zeros"]

if config.DISABLE_JIT:  # the intrinsics have no pure-Python versions

    def trailing_zeros(x):  # noqa: F811
        """The number of zero bits below the lowest bit set."""
        x = int(x)
        return (x & -x).bit_length() - 1

    def popcount(x):
        """The number of bits set in a uint64."""
        return bin(int(x)).count("1")

    def prefetch_row(array, row):
        """Nothing to do without JIT."""

else:

    @intrinsic
    def popcount(typingctx, x):
        """The number of bits set in a uint64 (the processor's popcount)."""

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            kind = ir.FunctionType(i64, [i64])
            ctpop = cgutils.get_or_insert_function(builder.module, kind, "llvm.ctpop.i64")
            return builder.call(ctpop, [args[0]])

        return types.uint64(types.uint64), codegen

    @intrinsic
    def prefetch_row(typingctx, array, row):
        """Ask the processor to load row ``row`` of a 2-D ``array`` into its caches (a
        hint: nothing waits for it)."""

        def codegen(context, builder, signature, args):
            ary = context.make_array(signature.args[0])(context, builder, args[0])
            zero = context.get_constant(types.intp, 0)
            pointer = cgutils.get_item_pointer(
                context, builder, signature.args[0], ary, [args[1], zero]
            )
            byte_pointer = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            kind = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
            prefetch = cgutils.get_or_insert_function(builder.module, kind, "llvm.prefetch.p0")
            # a read, kept in every cache level, of data
            builder.call(prefetch, [builder.bitcast(pointer, byte_pointer), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return types.none(array, row), codegen
