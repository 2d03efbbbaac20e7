"""What the puzzle adapters share: errors with positions, text grids, puzzlekit JSON, SVG,
and the streams of answers their searches give.

Glossary: a *grid* is a list of rows of *tokens* (strings); positions are reported
1-based as ``line L`` and ``row R, column C`` so users can find them in their file. An
*answer* is an adapter's decoded solution: ``str(answer)`` is its text, and Jupyter
shows it as a picture (``_repr_svg_``).
"""

from __future__ import annotations

import difflib
import inspect
import json
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import dlx
from dlx import DlxFormatError
from dlx.numbers import is_number, number  # noqa: F401 (ASCII digits only, for every adapter)
from dlx.stopping import TimeLimitReached


class PuzzleError(ValueError):
    """Bad puzzle input; the message names the line or cell at fault."""


def read_text(path) -> str:
    """The text of a UTF-8 file, or of standard input for ``-`` (a byte-order mark is
    dropped; other bytes that are not UTF-8 are refused with their line and column)."""
    label = "<stdin>" if str(path) == "-" else path
    try:
        return dlx.read_text(path)
    except OSError as e:
        raise PuzzleError(f"{label}: {e.strerror or e}") from None
    except DlxFormatError as e:
        raise PuzzleError(f"{label}: {e}") from None


def content_lines(text: str, comment: str = "#") -> list[tuple[int, str]]:
    """(line number, line) for each line that is neither blank nor a comment."""
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith(comment):
            out.append((n, line.rstrip("\n")))
    return out


def split_grid(lines: list[tuple[int, str]], separated: bool | None = None) -> list[list[str]]:
    """Rows of tokens from numbered lines; refuse ragged rows, naming the line.

    ``separated``: tokens separated by blanks (True), one character each (False), or
    decided by whether the first line contains a blank (None).
    """
    if not lines:
        raise PuzzleError("no grid found (the input is empty)")
    if separated is None:
        separated = " " in lines[0][1].strip() or "\t" in lines[0][1].strip()
    rows = [line.split() if separated else list(line.strip()) for _, line in lines]
    width = len(rows[0])
    for (n, _), row in zip(lines, rows, strict=True):
        if len(row) != width:
            raise PuzzleError(f"line {n}: {len(row)} cells, but the first row has {width}")
    return rows


@dataclass(frozen=True)
class PuzzlekitEntry:
    """One puzzle of a puzzlekit JSON file: its id and its text (``R C`` then rows)."""

    id: str
    text: str


def puzzlekit_entries(text: str, key: str = "puzzles", field: str = "problem") -> list:
    """The entries of a puzzlekit JSON text (``key`` "solutions", ``field`` "solution"
    for an answers file)."""
    try:
        table = json.loads(text)[key]
        return [PuzzlekitEntry(str(k), v[field]) for k, v in table.items()]
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as e:
        raise PuzzleError(f"not a puzzlekit JSON file with {key!r}: {e}") from None


def load_puzzlekit(path, key: str = "puzzles", field: str = "problem") -> list[PuzzlekitEntry]:
    """The entries of a puzzlekit JSON file (see ``puzzlekit_entries``)."""
    try:
        return puzzlekit_entries(read_text(path), key, field)
    except PuzzleError as e:
        raise PuzzleError(f"{path}: {e}") from None


def puzzlekit_grids(text: str) -> tuple[int, int, list[list[list[str]]]]:
    """Parse puzzlekit text: a line ``R C``, then blocks of R rows of C tokens each.

    Returns R, C and the list of blocks (the clue grid, then e.g. a region grid).
    """
    lines = content_lines(text)
    if not lines:
        raise PuzzleError("empty puzzle")
    n, header = lines[0]
    try:
        rows, cols = (number(v) for v in header.split())
    except ValueError:
        raise PuzzleError(f"line {n}: expected 'ROWS COLUMNS', got {header.strip()!r}") from None
    if rows <= 0 or cols <= 0:
        raise PuzzleError(f"line {n}: the size {rows}x{cols} is empty")
    body = lines[1:]
    if not body or len(body) % rows:
        last = body[-1][0] if body else n
        got = f"{len(body)} grid line{'' if len(body) == 1 else 's'}"
        raise PuzzleError(f"line {last}: {got} after the header, but line {n} says {rows} rows")
    blocks = []
    for b in range(0, len(body), rows):
        block = split_grid(body[b : b + rows], separated=True)
        if len(block[0]) != cols:
            raise PuzzleError(f"line {body[b][0]}: {len(block[0])} columns, expected {cols}")
        blocks.append(block)
    return rows, cols, blocks


PALETTE = [
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0",
    "#f032e6", "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8",
    "#800000", "#aaffc3", "#808000", "#ffd8b1", "#000075", "#808080",
]  # fmt: skip


def colour(k: int) -> str:
    """A distinct fill colour for piece or region number ``k``."""
    return PALETTE[k % len(PALETTE)]


def svg_document(width: float, height: float, body: list[str]) -> str:
    """A standalone SVG document of the given size around ``body`` elements."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}">'
    )
    return (
        "\n".join([head, f'<rect width="{width:g}" height="{height:g}" fill="white"/>', *body])
        + "\n</svg>\n"
    )


def svg_stack(pictures: list[str], gap: float = 10) -> str:
    """One SVG document with the given SVG documents one below the other."""
    import re

    body, width, y = [], 0.0, gap
    for picture in pictures:
        size = re.search(r'width="([\d.]+)" height="([\d.]+)"', picture)
        w, h = float(size.group(1)), float(size.group(2))
        inner = picture.split(">", 1)[1].rsplit("</svg>", 1)[0]
        body.append(f'<svg x="{gap:g}" y="{y:g}" width="{w:g}" height="{h:g}">{inner}</svg>')
        width, y = max(width, w), y + h + gap
    return svg_document(width + 2 * gap, y, body)


# -- what every adapter's public functions share ----------------------------------------


class Answer:
    """Base of the adapters' answers: ``str()`` is the adapter's ``render`` (the text, as
    in a file, ending with a newline), Jupyter shows its ``svg``, and ``to_json()`` gives
    plain lists of numbers."""

    def __str__(self) -> str:
        return self._adapter().render(self)

    def _repr_svg_(self) -> str:
        return self._adapter().svg(self)

    def _adapter(self):
        return sys.modules[type(self).__module__]

    def to_json(self):
        raise NotImplementedError


class Answers:
    """A puzzle's answers, streamed (iterate once). Once it ends, ``complete`` says
    whether the search finished (False: a limit stopped it, named by ``stopped_by``) and
    ``nodes`` how many search nodes it took.

    ``stream``: a ``dlx.SolutionStream``, or any iterable whose ``account`` has
    ``complete``, ``stopped_by`` and ``stats`` as a stream has; ``decode`` turns a
    solution into an answer; ``keep`` filters the answers, and ``limit`` stops after
    that many kept.
    """

    def __init__(self, stream, decode: Callable | None = None, keep=None, limit=None, account=None):
        self.stream = stream
        self.decode = decode
        self.keep = keep
        self.limit = limit
        self.account = stream if account is None else account
        self._cut = False

    def __iter__(self) -> Iterator:
        kept = 0
        if self.limit is not None and self.limit <= 0:
            self._cut = True
            return
        for solution in self.stream:
            answer = solution if self.decode is None else self.decode(solution)
            if self.keep is not None and not self.keep(answer):
                continue
            yield answer
            kept += 1
            if self.limit is not None and kept >= self.limit:
                self._cut = True
                return

    @property
    def complete(self) -> bool:
        """True when the whole search tree was searched."""
        return self.account.complete and not self._cut

    @property
    def stopped_by(self) -> str | None:
        """The limit that stopped the search, if one did."""
        return f"solution limit {self.limit}" if self._cut else self.account.stopped_by

    @property
    def nodes(self) -> int:
        """Search nodes so far."""
        return self.account.stats.nodes

    @property
    def engine(self) -> str:
        """The kernel that searched, and why ("" where the search does not say)."""
        return self.account.stats.engine

    @property
    def tables(self):
        """What the search's tables take (``dlx.Stats.tables``; None where not said)."""
        return self.account.stats.tables


class PuzzleCount(dlx.Count):
    """A puzzle's count as the command layer prints it: a ``dlx.Count`` (the number,
    ``complete``, ``stopped_by``, ``stats``, and for a parallel count its ``tasks`` and
    those a checkpoint held, ``resumed``), whose ``lines()`` are printed in place of the
    number and whose ``to_json()`` joins its JSON entry. Here: the number alone ("at
    least N" when unfinished) and nothing more; an adapter whose count says more
    subclasses it (the tilings' ``tiling.Counts``).

    >>> c = PuzzleCount.of(dlx.Count(3, complete=False, stopped_by="solution limit 3"))
    >>> c.lines(), c.to_json(), c.stopped_by
    ('at least 3', {}, 'solution limit 3')
    """

    @classmethod
    def of(cls, count: dlx.Count) -> PuzzleCount:
        """``count`` as a PuzzleCount: itself when it is one."""
        if isinstance(count, PuzzleCount):
            return count
        fields = (count.complete, count.stats, count.stopped_by, count.resumed, count.tasks)
        return cls(int(count), *fields)

    def lines(self) -> str:
        """The text of the count: ``N``, or ``at least N`` when unfinished."""
        return str(int(self)) if self.complete else f"at least {int(self)}"

    def to_json(self) -> dict:
        """What the count adds to its JSON entry (beside ``count`` and ``complete``)."""
        return {}


# the keywords of an adapter's search (``dlx.count``'s): a command's hooks are given
# these, the parallel settings as one ``dlx.Parallel`` made by the command layer
SEARCH_KEYWORDS = ("time_limit", "node_limit", "progress", "parallel")
# every keyword of ``dlx.count`` (what the tiling functions take: ``engine`` too)
DLX_KEYWORDS = tuple(
    k for k, p in inspect.signature(dlx.count).parameters.items() if p.kind == p.KEYWORD_ONLY
)
# deprecated: the parallel settings as loose keywords (give ``parallel=dlx.Parallel(...)``)
LOOSE = ("workers", "checkpoint", "dask")

# A problem's memory, estimated before it is built: Problem's lists of names and the
# kernel's arrays take about this much per option entry (blank slitherlinks, 100x100
# to 1000x1000); a problem over MAX_PROBLEM_BYTES is refused at once, saying so.
BYTES_PER_ENTRY = 160
MAX_PROBLEM_BYTES = 2 << 30


def refuse_larger(entries: int, what: str) -> None:
    """Refuse, in one line and before building it, a problem of about ``entries``
    option entries that would take more than MAX_PROBLEM_BYTES."""
    need = entries * BYTES_PER_ENTRY
    if need > MAX_PROBLEM_BYTES:
        raise PuzzleError(
            f"{what}: its problem would take about {need / 2**30:.1f} GiB ({entries:,} "
            f"option entries); the limit is {MAX_PROBLEM_BYTES / 2**30:.0f} GiB"
        )


RING_AGAIN = 0.05  # seconds between a building time limit's rings, until it is taken


class TimeLimit(float):
    """A time limit in seconds that counts from its making (before the puzzle's problem
    is built): ``dlx_search`` passes on what is left of it. Within ``building()``,
    a limit that passes before the search starts raises ``dlx.stopping.TimeLimitReached``
    (a SIGALRM timer, main thread only), so that building counts too.

    The timer's exception can land where Python swallows it (a gc callback, a
    finaliser): there it is dropped silently, ``rang`` keeps that it passed, the timer
    rings again every ``RING_AGAIN`` seconds, and the hand-over to the search
    (``left``) and the end of ``building()`` raise it for good."""

    def __new__(cls, seconds: float):
        limit = super().__new__(cls, seconds)
        limit.started = time.monotonic()
        limit.armed = False
        limit.rang = False
        return limit

    def left(self) -> float:
        """The seconds left; the search starts now, so the timer is stopped
        (TimeLimitReached if it rang while building, its exception swallowed)."""
        rang = self.armed and self.rang
        self._disarm()
        if rang:
            raise self._reached()
        return max(float(self) - (time.monotonic() - self.started), 0.0)

    def _reached(self) -> TimeLimitReached:
        return TimeLimitReached(f"time limit {float(self):g} s reached while building")

    def _disarm(self) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self.armed = False

    def _ring(self, signum, frame):
        # The timer rings again every RING_AGAIN seconds until disarmed: an exception
        # raised where Python swallows it (a gc callback, a finaliser) is raised again.
        if self.armed:
            self.rang = True
            raise self._reached()

    def _quiet(self, report):
        """``sys.unraisablehook`` while building: this limit's swallowed exception is
        not reported (it is raised again), anything else is."""
        if not isinstance(report.exc_value, TimeLimitReached):
            self._hook(report)

    @contextmanager
    def building(self):
        """Within: the limit raises TimeLimitReached until the search starts."""
        usable = (
            hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
        )
        if not usable:
            yield self
            return
        previous = signal.signal(signal.SIGALRM, self._ring)
        self._hook, sys.unraisablehook = sys.unraisablehook, self._quiet
        self.armed = True
        signal.setitimer(signal.ITIMER_REAL, max(float(self), 1e-3), RING_AGAIN)
        try:
            yield self
            swallowed = self.armed and self.rang  # never handed over to a search
        finally:
            self._disarm()
            signal.signal(signal.SIGALRM, previous)
            sys.unraisablehook = self._hook
        if swallowed:
            raise self._reached()


def dlx_search(search: dict, accepted=SEARCH_KEYWORDS) -> dict:
    """The keywords of ``dlx.count`` and ``dlx.solutions`` for an adapter's ``search``
    (names among ``accepted``): as given, but those that are None left out (a parallel
    stream takes no ``node_limit``) and a ``TimeLimit`` given as what is left of it.
    Any other name is refused, naming the adapter's function that was called.

    The loose ``workers=`` (1, the default: this process; 0: every core),
    ``checkpoint=`` and ``dask=`` still work, with a DeprecationWarning: they are
    given as ``parallel=dlx.Parallel(...)``.

    >>> dlx_search({"time_limit": 2.0, "node_limit": None, "parallel": dlx.Parallel(workers=2)})
    {'time_limit': 2.0, 'parallel': Parallel(workers=2)}
    """
    unknown = sorted(set(search) - set(accepted) - set(LOOSE))
    if unknown:
        close = difflib.get_close_matches(unknown[0], [*accepted, *LOOSE], 1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise TypeError(f"{_called()}() got an unexpected keyword argument {unknown[0]!r}{hint}")
    options = {k: v for k, v in search.items() if v is not None and k not in LOOSE}
    if isinstance(options.get("time_limit"), TimeLimit):  # building took some of it
        options["time_limit"] = options["time_limit"].left()
    loose = {k: search[k] for k in LOOSE if k in search}
    if loose:
        options["parallel"] = _loose_parallel(loose, options.get("parallel"))
        if options["parallel"] is None:
            del options["parallel"]
    return options


def _loose_parallel(loose: dict, parallel):
    """The ``dlx.Parallel`` of the deprecated loose keywords (None: this process), with
    a DeprecationWarning naming the call to make instead."""
    inside = ", ".join(f"{k}=..." for k in loose)
    warnings.warn(
        f"{_called()}(): {', '.join(f'{k}=' for k in loose)} will go: give "
        f"parallel=dlx.Parallel({inside}) instead",
        DeprecationWarning,
        stacklevel=_outside(),
    )
    if parallel is not None:
        raise TypeError(f"give {', '.join(loose)} inside parallel=dlx.Parallel(...), not beside it")
    workers = loose.get("workers", 1)
    checkpoint, dask = loose.get("checkpoint"), loose.get("dask")
    if workers != 1 or checkpoint is not None or dask is not None:  # tasks, on one worker too
        return dlx.Parallel(workers=workers, checkpoint=checkpoint, dask=dask)
    return None


def _called() -> str:
    """The name of the ``puzzles`` function that its user called (the outermost of the
    package's frames on the stack)."""
    frame, name = sys._getframe(1), "search"
    while frame is not None:
        if frame.f_globals.get("__name__", "").startswith("puzzles"):
            name = frame.f_code.co_name
        elif name != "search":
            break
        frame = frame.f_back
    return name


def _outside() -> int:
    """The ``stacklevel`` of a warning raised in ``_loose_parallel``: the first frame
    outside the ``puzzles`` package."""
    frame, level = sys._getframe(1), 1  # (the frame that calls warnings.warn is level 1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("puzzles"):
        frame, level = frame.f_back, level + 1
    return level


def stream(problem, decode, limit=None, forced=(), **search) -> Answers:
    """The answers of ``problem``: its solutions decoded one by one (``search``: the
    adapter's, see ``dlx_search``)."""
    return Answers(dlx.solutions(problem, limit, forced=forced, **dlx_search(search)), decode)


def only(puzzles: list, what: str = "puzzle"):
    """The one puzzle of a text; refuse a text with none or several."""
    if len(puzzles) != 1:
        raise PuzzleError(
            f"the text holds {len(puzzles)} {what}s, not one: use parse_all for a file of many"
        )
    return puzzles[0]


def as_puzzle(text_or_puzzle, parse: Callable):
    """A parsed puzzle: ``text_or_puzzle`` itself, or the one puzzle of its text; a
    TypeError naming the caller for anything else of Python's own (a list, bytes...)."""
    if isinstance(text_or_puzzle, str):
        return parse(text_or_puzzle)
    if type(text_or_puzzle).__module__ == "builtins":
        caller = sys._getframe(1).f_code.co_name
        raise TypeError(
            f"{parse.__module__}.{caller}() takes a puzzle's text (a str) or a puzzle from "
            f"{parse.__module__}.parse, not {type(text_or_puzzle).__name__}"
        )
    return text_or_puzzle
