"""Words of the messages: a count with its noun, singular or plural. Stdlib only (the
commands import it before numpy)."""

from __future__ import annotations


def plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1 (nouns that take an "s").

    >>> plural(1, "solution"), plural(0, "solution"), plural(2, "sample")
    ('1 solution', '0 solutions', '2 samples')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
