"""The tight kernel's parts that numba compiles as functions of their own, for a first
run that compiles them on two cores.

``kernel.search`` calls a few jitted functions that numba compiles on their own and
LLVM inlines (``FORCED`` in ``dlx/kernels/tight/kernel.py``: *try*, once in a frame and
once out, and the memo's steps; ``frames.open_frame`` is a plain call). When numba
compiles ``search``, it loads each of them from its cache if it is there for the
signature ``search`` calls it with (the inlining is the same: the cache keeps their
code as LLVM bitcode too). So a first run compiles one half of them in a second process
(``TightSearch.compile_second_half``) while it compiles the other half itself, then
``search`` (``TightSearch.warm_up``).
"""

from __future__ import annotations

from numba import typeof, types

from dlx.kernels.tight import frames, kernel, leaves


def parts(t, s, f) -> tuple[list, list]:
    """``search``'s parts compiled on their own, each with the signature that
    ``search`` (or *try*) calls it with on the arguments ``t``, ``s``, ``f`` (as
    ``search`` takes them): two lists of ``(dispatcher, signature)`` of about equal
    compile time, the first for this process, the second for the other (whose *try*
    in a frame compiles the memo's lookup and the forced leaves too: numba compiles a
    callee it meets, unless it is in its cache already).

    >>> from dlx.kernels.tight.search import _arguments, tiny_problem
    >>> here, there = parts(*_arguments(tiny_problem(False)))
    >>> [d.__name__ for d, _ in here], [d.__name__ for d, _ in there]
    (['_memo_keep', 'open_frame', '_memo_lookup', 'forced_out', '_try_option'], ['_try_option'])
    """
    tables, state, frame = typeof(t), typeof(s), typeof(f)
    i, b = types.int64, types.boolean

    def try_option(framed: bool) -> tuple:
        return (tables, state, frame, i, i, types.literal(framed), b, i, i, b)

    memo = (t.option_key_start, t.option_key, t.group_hash, s.key, s.key_hash, s.memo)
    lookup = (*(typeof(a) for a in memo), typeof(s.memo_stats), i, i, b)
    kept = (s.key, s.key_hash, s.memo, s.total, s.level_entry, s.level_nodes)
    here = [
        (kernel._memo_keep, (*(typeof(a) for a in kept), i, i)),
        (frames.open_frame, (frame, typeof(s.live), i, i)),
        (kernel._memo_lookup, lookup),
        (leaves.forced_out, (tables, state, i, b, i)),
        (kernel._try_option, try_option(False)),
    ]
    return here, [(kernel._try_option, try_option(True))]
