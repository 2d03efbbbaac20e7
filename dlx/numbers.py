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

LARGEST = 2**62  # a limit or cap above this is none: no search counts that far by steps
LONGEST = 1e9  # seconds (31 years): a time limit above this is none


class NumberError(TypeError, ValueError):
    """A value that is no number of the kind asked for (a TypeError, and a ValueError
    as the checks before ``dlx.numbers`` raised)."""


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
    """An integer flag (argparse's ``type``): ``number`` with ASCII blanks around allowed."""
    return number(text.strip(" \t\n\r"))


def real(text: str) -> float | None:
    """A time limit in seconds (argparse's ``type``), in ASCII: a finite number; one
    over ``LONGEST`` is no limit (None).

    >>> real("2.5"), real("1e308")
    (2.5, None)
    """
    value = float(text) if text.isascii() and "_" not in text else math.nan
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {text!r}")
    return None if value > LONGEST else value


def _is_bool(value) -> bool:
    """Whether ``value`` is a bool, Python's or numpy's (``numpy.bool_``)."""
    return isinstance(value, bool) or type(value).__name__ in ("bool_", "bool")


def whole(name: str, value, minimum: int | None = 0) -> int:
    """``value`` as an int (``operator.index``) of at least ``minimum`` (else
    NumberError, a TypeError, or ValueError, naming ``name``); bools are refused.

    >>> whole("limit", 3), whole("seed", -2, minimum=None)
    (3, -2)
    >>> whole("limit", 2.5)
    Traceback (most recent call last):
    ...
    dlx.numbers.NumberError: limit must be an integer >= 0, not 2.5
    """
    at_least = "" if minimum is None else f" >= {minimum}"
    if _is_bool(value):
        raise NumberError(f"{name} must be an integer{at_least}, not {value!r}")
    try:
        result = operator.index(value)
    except TypeError:
        raise NumberError(f"{name} must be an integer{at_least}, not {value!r}") from None
    if minimum is not None and result < minimum:
        raise ValueError(f"{name} must be an integer{at_least}, not {value!r}")
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
    """A time in seconds (``None``, ``math.inf`` or over ``LONGEST``: no limit): a real
    number >= 0, not NaN, not a bool, a string or bytes (else NumberError or
    ValueError naming ``name``).

    >>> seconds("time_limit", 1), seconds("time_limit", math.inf), seconds("t", 10**400)
    (1.0, None, None)
    """
    if value is None:
        return None
    if _is_bool(value) or isinstance(value, (str, bytes, bytearray)):
        raise NumberError(f"{name} must be seconds >= 0, not {value!r}")
    try:
        result = float(value)
    except OverflowError:  # an int too large for a float: more than any limit
        result = math.inf if value > 0 else -math.inf
    except (TypeError, ValueError):
        raise NumberError(f"{name} must be seconds >= 0, not {value!r}") from None
    if math.isnan(result) or result < 0:
        raise ValueError(f"{name} must be seconds >= 0, not {value!r}")
    return None if result > LONGEST else result
