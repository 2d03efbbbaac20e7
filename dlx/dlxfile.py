"""Knuth's ``.dlx`` text format, read and written (the rules of DLX1, DLX2 and DLX3).

- Lines whose first non-blank character is ``|`` are comments; blank lines are skipped.
- The first other line names the items: primary items, then ``|`` (a word of its own),
  then secondary items. A primary item may carry bounds: ``u|name`` (exactly u times)
  or ``l:u|name`` (between l and u times).
- Every later line is an option: item names separated by blanks; ``x:c`` gives the
  secondary item ``x`` the colour ``c``. A word ``|n`` after the first item (``n`` in
  decimal digits) adds ``n`` to the option's cost, as in DLX5 (several add up).

DLX5 and DLX6 read item names of at most 8 characters (bytes) and colours of one:
``write(problem, knuth=True)`` renames the others and says so in a comment.
"""

from __future__ import annotations

import os
import re
import time

from dlx import outputs
from dlx.numbers import is_number
from dlx.problem import Problem, ProblemError
from dlx.stopping import TimeLimitReached

_BOUNDS = re.compile(r"^(?:([0-9]+):)?([0-9]+)\|(.+)$")  # ASCII digits only


class DlxFormatError(ProblemError):
    """A malformed ``.dlx`` file; the message starts with ``line N:``."""


def _item_line(problem: Problem, words: list[str], line_no: int) -> None:
    """Declare the items named on the first line."""

    def fail(reason: str):
        raise DlxFormatError(f"line {line_no}: {reason}")

    secondary = False
    for word in words:
        if word == "|":
            if secondary:
                fail("the item line contains '|' twice")
            secondary = True
            continue
        lo = hi = 1
        name = word
        m = _BOUNDS.match(word)
        if m:
            if secondary:
                fail(f"secondary item {m.group(3)!r} cannot have bounds")
            hi = int(m.group(2))
            lo = int(m.group(1)) if m.group(1) is not None else hi
            name = m.group(3)
            if hi == 0:
                fail(f"item {name!r} has upper bound 0")
            if lo > hi:
                fail(f"item {name!r}: lower bound {lo} exceeds upper bound {hi}")
        if "|" in name:
            fail(f"illegal '|' in item name {word!r}")
        if ":" in name:
            fail(f"illegal ':' in item name {word!r}")
        if problem.item_kind(name) is not None:
            fail(f"item {name!r} is declared twice")
        try:
            if secondary:
                problem.add_secondary(name)
            else:
                problem.add_primary(name, lo, hi)
        except ProblemError as e:
            fail(str(e))


def _cost(word: str, line_no: int) -> int:
    """The cost of a word ``|n``."""
    digits = word[1:]
    if not is_number(digits):
        raise DlxFormatError(f"line {line_no}: cost {word!r} is not '|' followed by decimal digits")
    return int(digits)


CHECK_LINES = 4096  # lines read between two looks at the clock


def parse(text: str, deadline: float | None = None) -> Problem:
    """Read a problem in Knuth's ``.dlx`` format.

    >>> p = parse('''| a comment
    ... a b c | x
    ... a b x:1
    ... c x:1
    ... ''')
    >>> p.primary, p.secondary, p.n_options
    (['a', 'b', 'c'], ['x'], 2)

    ``deadline`` (a ``time.monotonic()`` value): raise ``TimeLimitReached`` once it passes.
    """
    problem: Problem | None = None
    for line_no, line in enumerate(text.splitlines(), start=1):
        if deadline is not None and line_no % CHECK_LINES == 0 and time.monotonic() > deadline:
            raise TimeLimitReached(f"time limit reached while reading line {line_no}")
        stripped = line.strip()
        if not stripped or stripped.startswith("|"):
            continue
        words = stripped.split()
        if problem is None:
            problem = Problem()
            _item_line(problem, words, line_no)
            continue
        entries = []
        cost = 0
        for word in words:
            if word.startswith("|"):
                cost += _cost(word, line_no)
                continue
            name, sep, colour = word.partition(":")
            if not name:
                raise DlxFormatError(f"line {line_no}: empty item name in {word!r}")
            kind = problem.item_kind(name)
            if kind is None:
                raise DlxFormatError(f"line {line_no}: unknown item {name!r}")
            if sep and kind == "primary":
                raise DlxFormatError(f"line {line_no}: primary item {name!r} cannot have a colour")
            if sep and not colour:
                raise DlxFormatError(f"line {line_no}: item {name!r} has an empty colour")
            if name in (e[0] for e in entries):
                raise DlxFormatError(f"line {line_no}: item {name!r} appears twice in one option")
            entries.append((name, colour if sep else None))
        problem.add_option([name if c is None else (name, c) for name, c in entries], cost=cost)
    if problem is None:
        raise DlxFormatError("line 1: no item line (the file is empty or all comments)")
    return problem


def decode(data: bytes) -> str:
    """The text of UTF-8 bytes (a leading byte-order mark dropped); bytes that are not
    UTF-8 raise ``DlxFormatError`` naming their line and column.

    >>> decode(b"\\xef\\xbb\\xbfa b")
    'a b'
    >>> decode(b"a\\nb \\xff")
    Traceback (most recent call last):
    ...
    dlx.dlxfile.DlxFormatError: line 2, column 3: byte 0xff is not UTF-8
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        start = e.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        line_start = data.rfind(b"\n", 0, start) + 1
        line = data.count(b"\n", 0, start) + 1
        column = len(data[line_start:start].decode("utf-8-sig")) + 1
        bad = data[start]
        raise DlxFormatError(
            f"line {line}, column {column}: byte {bad:#04x} is not UTF-8"
        ) from None


def _check_path(path, called: str) -> None:
    """Refuse (TypeError) a ``path`` that is not one: an int would open a file descriptor."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{called}() takes a path (str or os.PathLike), not {type(path).__name__}")


def read_bytes(path) -> bytes:
    """The bytes of a file, or of standard input for ``-`` (an input: no output of the
    command reading it may name it, see ``dlx.outputs``)."""
    import sys

    _check_path(path, "read_bytes")
    outputs.note_input(path)
    if str(path) == "-":
        stdin = sys.stdin
        return stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode()
    with open(path, "rb") as f:
        return f.read()


def read_text(path) -> str:
    """The text of a UTF-8 file, or of standard input for ``-`` (see ``decode``; an
    OSError as ``open`` raises it)."""
    _check_path(path, "read_text")
    return decode(read_bytes(path))


def read(path, deadline: float | None = None) -> Problem:
    """Read a ``.dlx`` file (``-`` for standard input); errors name the file and line."""
    _check_path(path, "read")
    label = "<stdin>" if str(path) == "-" else str(path)
    data = read_bytes(path)
    try:
        return parse(decode(data), deadline)
    except DlxFormatError as e:
        raise DlxFormatError(f"{label}: {e}") from None


def _check_word(name: str) -> str:
    """A name fit for the text format."""
    if not name or any(c.isspace() for c in name) or "|" in name or ":" in name:
        raise ProblemError(f"name {name!r} cannot be written in the .dlx format")
    return name


def format_option(problem: Problem, k: int, items=None, colours=None) -> str:
    """Option ``k`` as one line of the format (its cost not included); ``items`` and
    ``colours`` map names to the names to write (see ``knuth_names``)."""
    words = []
    for name, colour in problem.option_entries(k):
        name = items.get(name, name) if items else name
        if colour is None:
            words.append(_check_word(name))
        else:
            colour = colours.get(colour, colour) if colours else colour
            words.append(f"{name}:{_check_word(colour)}")
    return " ".join(words)


KNUTH_NAME = 8  # the longest item name (in bytes) that DLX5 and DLX6 read
COLOUR_CHARACTERS = [
    c for c in map(chr, range(33, 127)) if c not in ":|"
]  # one-character colours, for the colours renamed


def knuth_names(problem: Problem) -> tuple[dict[str, str], dict[str, str], list[str]]:
    """The renamings that make a problem readable by DLX5 and DLX6 (item names of at
    most 8 bytes, one-byte colours): item -> new name, colour -> new colour, and one
    note a renaming. Raises ``ProblemError`` when there are more colours than
    one-character names.

    >>> p = Problem(primary=["a", "longer_than_8"], secondary=["x"])
    >>> _ = p.add_option(["a", "x:red"])
    >>> knuth_names(p)[2]
    ["item 'longer_than_8' written as '#1'", "colour 'red' written as '!'"]
    """
    names = problem.primary + problem.secondary
    taken = set(names)
    items = {}
    for j, name in enumerate(names):
        if len(name.encode()) > KNUTH_NAME:
            new = f"#{j}"
            while new in taken:
                new += "#"
            taken.add(new)
            items[name] = new
    used = sorted(
        {c for k in range(problem.n_options) for _, c in problem.option_entries(k) if c},
        key=lambda c: (len(c.encode()) > 1, c),
    )
    colours = {}
    if any(len(c.encode()) > 1 for c in used):
        if len(used) > len(COLOUR_CHARACTERS):
            raise ProblemError(
                f"{len(used)} colours: DLX5 and DLX6 take one-character colours, "
                f"at most {len(COLOUR_CHARACTERS)} of them"
            )
        free = [c for c in COLOUR_CHARACTERS if c not in used]
        for colour in used:
            if len(colour.encode()) > 1:
                colours[colour] = free.pop(0)
    notes = [f"item {a!r} written as {b!r}" for a, b in items.items()]
    notes += [f"colour {a!r} written as {b!r}" for a, b in colours.items()]
    return items, colours, notes


def write(problem: Problem, comment: str | None = None, *, knuth: bool = False) -> str:
    """The problem in Knuth's ``.dlx`` format (``parse(write(p))`` rebuilds ``p``); an
    option's cost, when not 0, as ``|n`` at the end of its line. ``knuth=True``: item
    names and colours that DLX5 and DLX6 cannot read are renamed (``knuth_names``), a
    comment line a renaming.

    >>> p = Problem(primary=["a", "b"])
    >>> _ = p.add_option(["a", "b"], cost=7)
    >>> print(write(p), end="")
    a b
    a b |7
    """
    if not isinstance(problem, Problem):
        raise TypeError(f"write() takes a dlx.Problem, not {type(problem).__name__}")
    if problem.loop_edges:
        raise DlxFormatError("the .dlx format has no way to write loop items")
    items, colours, notes = knuth_names(problem) if knuth else ({}, {}, [])
    lines = []
    if comment:
        lines.extend(f"| {c}" for c in comment.splitlines())
    lines.extend(f"| renamed for DLX5/DLX6: {note}" for note in notes)
    words = []
    for name in problem.primary:
        lo, hi = problem.bounds(name)
        name = _check_word(items.get(name, name))
        if (lo, hi) == (1, 1):
            words.append(name)
        elif lo == hi:
            words.append(f"{hi}|{name}")
        else:
            words.append(f"{lo}:{hi}|{name}")
    if problem.secondary:
        words.append("|")
        words.extend(_check_word(items.get(name, name)) for name in problem.secondary)
    lines.append(" ".join(words))
    for k in range(problem.n_options):
        line = format_option(problem, k, items, colours)
        cost = problem.option_cost(k)
        lines.append(f"{line} |{cost}" if cost else line)
    return "\n".join(lines) + "\n"
