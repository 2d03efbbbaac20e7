"""Numbers as users write them: ASCII digits only.

Python's ``int()`` and ``float()`` (and regular expressions' ``\\d``) read every Unicode
digit: ``int("２")`` (fullwidth) and ``int("٢")`` (Arabic-Indic) are 2, ``int("1_0")``
is 10. A file or flag that shows such a character means something else, so every
number the commands read goes through here. Stdlib only.

The numbers that Python callers pass (counts, limits, ranks, seeds, node caps, seconds)
go through ``whole``, ``cap`` and ``seconds``: integers as ``operator.index`` takes them
(numpy integers yes; bools, floats, strings and bytes no), any size where the meaning
allows it, NaN refused. Each error names the argument.
"""

from __future__ import annotations

import math
import operator


def is_number(text: str) -> bool:
    """Whether ``text`` is a number in ASCII digits (``２`` and ``٢`` are not)."""
    return text.isascii() and text.isdecimal()


def number(text: str) -> int:
    """The integer ``text`` in ASCII digits, an optional ``-`` first (else ValueError).

    >>> number("12"), number("-3")
    (12, -3)
    """
    if not is_number(text.removeprefix("-")):
        raise ValueError(f"not a number: {text!r}")
    return int(text)


def integer(text: str) -> int:
    """An integer flag (argparse's ``type``): ``number`` with blanks around allowed."""
    return number(text.strip())


def real(text: str) -> float:
    """A finite number of seconds or the like (argparse's ``type``), in ASCII."""
    value = float(text) if text.isascii() and "_" not in text else math.nan
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {text!r}")
    return value


def whole(name: str, value, minimum: int = 0) -> int:
    """``value`` as an int (``operator.index``) of at least ``minimum`` (else
    TypeError or ValueError naming ``name``); bools are refused.

    >>> whole("limit", 3), whole("seed", -2, minimum=None)
    (3, -2)
    >>> whole("limit", 2.5)
    Traceback (most recent call last):
    ...
    TypeError: limit must be an integer, not 2.5
    """
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, not {value!r}")
    try:
        result = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {value!r}") from None
    if minimum is not None and result < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, not {value!r}")
    return result


def cap(name: str, value, largest: int, minimum: int = 0) -> int | None:
    """A cap (``None`` or ``math.inf``: none): an int of at least ``minimum``; one over
    ``largest`` (what the arrays can hold) is no cap either, returned as None.

    >>> cap("max_nodes", 10, 2**62), cap("max_nodes", 2**70, 2**62), cap("n", math.inf, 5)
    (10, None, None)
    """
    if value is None or (isinstance(value, float) and value == math.inf):
        return None
    result = whole(name, value, minimum)
    return None if result > largest else result


def seconds(name: str, value) -> float | None:
    """A time in seconds (``None`` or ``math.inf``: no limit): a real number >= 0, not
    NaN, not a bool or a string.

    >>> seconds("time_limit", 1), seconds("time_limit", math.inf)
    (1.0, None)
    """
    if value is None:
        return None
    if isinstance(value, (bool, str, bytes)):
        raise TypeError(f"{name} must be a number of seconds, not {value!r}")
    try:
        result = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number of seconds, not {value!r}") from None
    if math.isnan(result) or result < 0:
        raise ValueError(f"{name} must be a number of seconds >= 0, not {value!r}")
    return None if result == math.inf else result
