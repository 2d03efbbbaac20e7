"""Numbers as users write them: ASCII digits only.

Python's ``int()`` and ``float()`` (and regular expressions' ``\\d``) read every Unicode
digit: ``int("２")`` (fullwidth) and ``int("٢")`` (Arabic-Indic) are 2, ``int("1_0")``
is 10. A file or flag that shows such a character means something else, so every
number the commands read goes through here. Stdlib only.
"""

from __future__ import annotations

import math


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
