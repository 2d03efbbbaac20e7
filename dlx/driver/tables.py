"""What a search's tables take, the one cap every kernel keeps (``MAX_BYTES``), and
the sizes written for people."""

from __future__ import annotations

import numpy as np

from dlx.errors import ProblemError

MAX_BYTES = 2 << 30  # one search's tables (layout, search arrays, memo), at most


def array_bytes(obj) -> int:
    """Bytes of the numpy arrays among the fields of ``obj`` (a dataclass or named
    tuple; an array held by two fields counts once; other fields count nothing)."""
    fields = obj if isinstance(obj, tuple) else vars(obj).values()
    return sum({id(v): v.nbytes for v in fields if isinstance(v, np.ndarray)}.values())


def check_bytes(kernel: str, need: int, advice: str) -> None:
    """ProblemError if a search's tables, ``need`` bytes, pass ``MAX_BYTES`` (the one
    cap of every kernel), saying what to do (``advice``)."""
    if need > MAX_BYTES:
        raise ProblemError(
            f"the {kernel} kernel would need {size(need)} for this problem's tables "
            f"(at most {size(MAX_BYTES)}): {advice}"
        )


def size(nbytes: int) -> str:
    """``nbytes`` in the largest binary unit it has one of (``1.5 GiB``, ``200 B``)."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if nbytes >= 1 << shift:
            return f"{nbytes / (1 << shift):.1f} {unit}"
    return f"{nbytes} B"
