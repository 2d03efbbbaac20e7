"""The adapter protocol of ``python -m puzzles``: what a command declares (``Command``)
and what it is asked (``Request``).

Each adapter module declares its command once, as ``COMMAND = Command(...)``, and
``puzzles.cli.COMMANDS`` names the module that holds it (with its help, for the
listing). The command layer (``puzzles.cli``) adds the shared flags, parses the command
line once into a frozen ``Request`` and calls the command's hooks with it; no hook
writes into it (a hook that derives another request returns
``dataclasses.replace(request, ...)``).

A command's hooks (the first three required; the others have a default):

- ``read(text, request) -> list``: its puzzles, from the FILE's text (None when no
  FILE was given or the command reads none) and its own flags (``request.options``);
  a puzzle's ``label`` names it in messages, its ``summary()`` (if any) adds to
  ``--stats``;
- ``solutions(puzzle, limit, **search)``: a ``common.Answers``, and
  ``count(puzzle, limit, **search)``: a ``dlx.Count`` (``search``: ``time_limit``,
  ``progress`` and ``parallel``, ``dlx``'s keywords: the processes to search on, one
  ``dlx.Parallel`` made by the layer from ``--workers``, ``--checkpoint`` and
  ``--dask`` (``Request.parallel``), or None for this process; ``common.dlx_search``
  passes them on). Answers have ``str()``, ``to_json()`` and ``_repr_svg_()``; a
  count is printed as a ``common.PuzzleCount`` (a plain ``dlx.Count`` made one):
  its ``lines()`` (the number, or the tiling commands' "all solutions: N" and
  "distinct solutions: M" of ``tiling.Counts``), its ``to_json()`` added to the JSON
  entry;
- ``add_arguments(group)``: its own flags only (the shared ones are added by the layer);
- ``act(request, text) -> str | Iterator[str] | (text, status) | None``: an action of
  its own that replaces solving (sudoku's ``--generate``, ``--explain`` and ``--hint``),
  giving what to print (an iterator of texts is written as it comes) and the exit
  status (0 if not given); None to solve as usual;
- ``tally(puzzles, limit, workers) -> [(count, first answer, nodes)]``: many puzzles in one call
  (sudoku's batch kernel; ``workers``: its threads), used when no time limit is asked for
  and either one worker is asked for or ``threaded(puzzles)`` says the batch runs them on
  threads (else each puzzle is a search of its own on the workers);
- ``lines(puzzles, workers, limit) -> (text, counts, nodes, labels) | None``: for a plain
  solve (first answers, no other flag) or ``--unique``, a batch searched in one step
  (``puzzles.lines``): the first answers' text (a line each), the counts up to
  ``limit`` (an int array), the nodes and the labels; None: one puzzle at a time;
- ``draw(answers) -> str``: one SVG of several answers (default: one below the other);
- ``settle(request) -> Request``: the request its puzzles are searched with, once they
  are read (the tilings' ``--sample`` lists every draw: ``all=True``);
- ``announce(puzzle) -> str``: a line the layer says on standard error once a puzzle is
  read, when a progress bar is wanted (the tilings' "N cells, ...; building the
  problem...");
- ``exports(puzzle, request) -> list[Export]``: files the layer writes once a puzzle is
  read, each named on standard error ("wrote FILE (NOTE)"; polyform's ``--dlx``).

The hooks translate: none prints, writes a file or searches by itself; what is said or
written beside the answers, the layer says and writes from what they return.

and its settings: ``epilog`` (what its flags mean for it, at the end of ``--help``),
``input`` (where its puzzles come from: ``Input``), ``workers`` (the default of
``--workers`` for counts; lists stream on one process), ``count_by_default`` (count
when no mode is asked for; ``--limit N`` then lists N solutions, and ``--out FILE``
alone lists every solution into FILE) and ``outputs`` (its own flags that name a file
it writes, refused when it names an input).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields, make_dataclass
from functools import lru_cache
from typing import Any

import dlx


class Input(enum.Enum):
    """Where a command's puzzles come from."""

    FILE = "a FILE of puzzles, required"
    FILE_OR_FLAGS = "a FILE, or none: its read makes the puzzle from its flags"
    FILE_OR_STDIN = "a FILE, else standard input (unless an action needs neither)"
    FLAGS = "its flags alone (its read refuses a FILE)"


@dataclass(frozen=True)
class Request:
    """One run of a command, as the command line asked it: the shared flags, typed, and
    the command's own (``options``: a frozen dataclass whose fields are their
    ``argparse`` names). Frozen: a derived request is ``dataclasses.replace(request, ...)``.
    """

    file: str | None = None  # the puzzle FILE, "-" for standard input
    count: bool = False
    unique: bool = False
    all: bool = False
    limit: int | None = None
    json: bool = False
    out: str | None = None
    svg: str | None = None
    time_limit: float | None = None
    workers: int | None = None  # None: the command's default (``Command.workers``)
    checkpoint: str | None = None
    dask: str | None = None  # a Dask scheduler's address (the tiling commands' --dask)
    progress: bool | None = None  # None: a bar when standard error is a terminal
    stats: bool = False
    options: Any = None  # the command's own flags

    @property
    def parallel(self) -> dlx.Parallel | None:
        """The processes a search runs on, as ``dlx`` takes them: one ``dlx.Parallel``
        of ``workers``, ``checkpoint`` and ``dask``, or None for this process alone.

        >>> Request(workers=2, checkpoint="c.ckpt").parallel
        Parallel(workers=2, checkpoint='c.ckpt')
        >>> print(Request(workers=1).parallel)
        None
        """
        if self.workers in (1, None) and self.checkpoint is None and self.dask is None:
            return None
        workers = 1 if self.workers is None else self.workers
        return dlx.Parallel(workers=workers, checkpoint=self.checkpoint, dask=self.dask)

    @classmethod
    def from_namespace(cls, namespace, name: str = "command") -> Request:
        """The request of an ``argparse`` namespace: its shared flags as fields, the
        others as ``options`` (a frozen dataclass named for the command)."""
        values = dict(vars(namespace))
        shared = {f.name: values.pop(f.name) for f in fields(cls) if f.name in values}
        return cls(**shared, options=_options_class(name, tuple(values))(**values))


@lru_cache(maxsize=64)
def _options_class(name: str, flags: tuple[str, ...]) -> type:
    """The frozen dataclass of a command's own flags, made once per command (making one
    takes a millisecond or two: a run of many small puzzles notices)."""
    return make_dataclass(f"{name.title()}Options", list(flags), frozen=True)


Action = str | Iterator[str] | tuple[str, int] | None


@dataclass(frozen=True)
class Export:
    """A file a command asks the layer to write: its path, its text, and the note of
    the line that names it ("wrote PATH (NOTE)")."""

    path: str
    text: str
    note: str


@dataclass(frozen=True, kw_only=True)
class Command:
    """A command of ``python -m puzzles``, as its adapter declares it (see the module's
    docstring for each hook)."""

    name: str
    help: str
    read: Callable[[str | None, Request], list]
    solutions: Callable[..., Any]
    count: Callable[..., Any]
    add_arguments: Callable[[Any], None] | None = None
    act: Callable[[Request, str | None], Action] | None = None
    tally: Callable[[list, int], list] | None = None
    threaded: Callable[[list], bool] | None = None
    lines: Callable[[Any, int, int], Any] | None = None
    draw: Callable[[list], str] | None = None
    settle: Callable[[Request], Request] | None = None
    announce: Callable[[Any], str] | None = None
    exports: Callable[[Any, Request], list[Export]] | None = None
    epilog: str | None = None
    input: Input = Input.FILE
    workers: int = 1
    count_by_default: bool = False
    outputs: tuple[str, ...] = ()  # own flags naming a file written, e.g. "--dlx"


def asks_search(command: Command, request: Request) -> bool:
    """Whether the command line asks for a search by a flag of its own (a mode, an
    output of answers, a checkpoint, ``--json``, ``--stats``, or the command's, such as
    the tilings' ``--sample``), not by the command's default: a run that wrote a file
    it was asked for (``--dlx FILE``) searches only then."""
    if command.settle is not None:
        request = command.settle(request)
    asked = (request.count, request.unique, request.all, request.limit, request.out)
    return any(asked) or any((request.svg, request.json, request.stats, request.checkpoint))
