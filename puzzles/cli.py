"""``python -m puzzles COMMAND FILE [options]``: one command layer for every puzzle.

Every command reads a FILE of one or more puzzles (``-``: standard input), solves them
one by one, and takes the same shared flags with the same meaning:

- (default) print each puzzle's first solution; ``--limit N`` up to N solutions,
  ``--all`` every one; ``--count`` the number of solutions; ``--unique`` whether there
  is exactly one (the exit status is then 1 when one is not);
- ``--json``: one JSON document (grids as arrays of numbers, solutions as lists);
  ``--out FILE`` writes the answers there instead of standard output; ``--svg FILE``
  draws the solutions shown (or each puzzle's first, with ``--count``/``--unique``);
- ``--time-limit S`` stops each puzzle's search after S seconds (an unfinished count
  prints "at least N"); ``--workers N`` searches on N processes (0: every core);
  ``--checkpoint FILE`` (with ``--count``, one puzzle) records finished parts of the
  search so that a rerun goes on where it stopped;
  ``--progress/--no-progress`` (default: a bar when standard error is a terminal);
  ``--stats`` prints each puzzle's search nodes on standard error, and the kernel
  that searched it with why (``auto`` measures: see ``dlx.driver.choose``).

Solutions go to standard output, a one-line summary to standard error; bad input is
refused in one line naming the file, line and cell (exit status 2).

How a command joins: its adapter module declares ``COMMAND = puzzles.command.Command(...)``
(its name, help, hooks and settings: see ``puzzles.command``), and ``COMMANDS`` here
names that module with the command's help (``--help`` lists the commands without
importing their modules; ``command_of`` checks the two helps agree). The command line
is parsed once into a frozen ``puzzles.command.Request`` that every hook is given;
nothing writes into it (the defaults this layer settles, such as a command's default
count or workers, make a new one with ``dataclasses.replace``).

Ctrl-C or SIGTERM stops a command with one line, "interrupted: at least N solutions"
where N is known (``dlx.Interrupted``: the count so far, or the answers listed so far),
and exit status 130 (``dlx.stopping.run_command``, as ``python -m dlx`` does).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import NamedTuple

from dlx import CheckpointError, Interrupted, WorkerError, compiling
from dlx.arguments import Parser
from dlx.numbers import integer, real
from dlx.outputs import OutputError, Outputs, check_all, open_text, run_writing
from dlx.stopping import TimeLimitReached
from dlx.words import plural
from puzzles.command import Command, Input, Request, asks_search
from puzzles.common import PuzzleCount, PuzzleError, TimeLimit, read_text, svg_stack
from puzzles.lines import print_lines


class Listed(NamedTuple):
    """A command's line in ``COMMANDS``: the module that declares it (its ``COMMAND``)
    and the command's one-line help, listed by ``--help`` without importing the module
    (``command_of`` refuses a command whose help is not this one)."""

    module: str
    help: str


COMMANDS = {  # each command's name: its module and help
    "pentomino": Listed("puzzles.polyomino", "tile a board with polyominoes (count, list, draw)"),
    "polyform": Listed(
        "puzzles.polyform.cli",
        "tile a board of any lattice (polyiamonds, polyhexes, polycubes, polysticks)",
    ),
    "sudoku": Listed("puzzles.sudoku", "solve, count or generate sudoku (any size, jigsaw, X)"),
    "tectonic": Listed("puzzles.tectonic", "solve tectonic / suguru"),
    "loop": Listed("puzzles.loop", "infinity loop: turn tiles until every pipe meets a pipe"),
    "pipes": Listed("puzzles.pipes", "place a given set of pipe tiles on a board"),
    "slitherlink": Listed("puzzles.slitherlink", "draw the single loop of a slitherlink"),
    "rectangles": Listed(
        "puzzles.rectangles", "tile a board with rectangles, each kind once (OEIS A360498 and kin)"
    ),
}

DESCRIPTION = """\
Solve, count and draw puzzles by exact cover (Knuth's dancing links).

Each command reads a file of one or more puzzles (- for standard input) and prints
each puzzle's first solution (the tiling commands pentomino and polyform take their
puzzle from --board and --pieces, and count); the same flags work for every command:
  --count, --unique, --all, --limit N   what to find (count, prove unique, list)
  --json, --out FILE, --svg FILE        how to answer (JSON, to a file, as pictures)
  --time-limit S, --workers N           how long and on how many processes
  --progress / --no-progress            a progress bar on stderr"""

EXAMPLES = """\
examples (from the repository's root):
  python -m puzzles pentomino --board 8x8 --extra O
  python -m puzzles sudoku data/sudoku/17_clue_first1000.txt --unique
  python -m puzzles tectonic data/tectonic/Suguru_puzzles.json --svg tectonic.svg
  python -m puzzles loop data/infinity_loop/infinity_loop_test40x40.txt --count
  python -m puzzles pipes data/pipes/example.txt --all --connected
  python -m puzzles slitherlink data/slitherlink/sample_puzzles.json --json

'python -m puzzles COMMAND --help' lists a command's options."""

SVG_MAX = 100  # pictures drawn at most
BATCH = 2000  # puzzles per batch call (the progress bar moves between calls)
NO_LIMIT = 1 << 40  # a count's limit when none is given (batches)


def version() -> str:
    """The installed distribution's version (see ``dlx.__version__``)."""
    import dlx

    return dlx.__version__


def command_of(name: str) -> Command:
    """The command ``name`` (``COMMANDS``), as its module declares it."""
    listed = COMMANDS[name]
    found = importlib.import_module(listed.module).COMMAND
    if not isinstance(found, Command) or found.name != name:
        raise TypeError(f"{listed.module}.COMMAND is not the Command {name!r}")
    if found.help != listed.help:
        raise TypeError(f"{listed.module}.COMMAND's help is not the one COMMANDS lists")
    return found


def _parser() -> argparse.ArgumentParser:
    """The top-level parser: the list of commands, for users."""
    parser = Parser(
        prog="python -m puzzles",
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, listed in COMMANDS.items():  # (no command's module imported)
        sub.add_parser(name, help=listed.help, add_help=False)
    return parser


def add_shared_arguments(parser: argparse.ArgumentParser, workers: int = 1, file=True) -> None:
    """The flags every command shares, with one meaning everywhere."""
    if file:
        parser.add_argument("file", metavar="FILE", help="puzzle file; - for standard input")
    else:
        parser.add_argument("file", nargs="?", help=argparse.SUPPRESS)  # refused: one line
    shared = parser.add_argument_group("shared options")
    mode = shared.add_mutually_exclusive_group()
    mode.add_argument("--count", action="store_true", help="print each puzzle's solution count")
    mode.add_argument(
        "--unique", action="store_true", help="say whether each has exactly one (exit 1 if not)"
    )
    mode.add_argument("--all", action="store_true", help="print every solution")
    shared.add_argument(
        "--limit",
        type=integer,
        metavar="N",
        help="at most N solutions a puzzle: printed (default 1), or counted",
    )
    shared.add_argument("--json", action="store_true", help="answer in JSON on standard output")
    shared.add_argument("--out", metavar="FILE", help="write the answers to FILE, not stdout")
    shared.add_argument("--svg", metavar="FILE", help="draw the solutions as SVG into FILE")
    shared.add_argument(
        "--time-limit", type=real, metavar="S", help="stop each puzzle's search after S seconds"
    )
    default = f"{workers} for counts, 1 for lists" if workers != 1 else "1"
    shared.add_argument(
        "--workers",
        type=integer,
        metavar="N",
        help=f"search on N processes, 0 for every core (default {default})",
    )
    shared.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="with --count, one puzzle: record finished parts of the search in FILE; "
        "a rerun with the same FILE goes on from there",
    )
    shared.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress bar on stderr (default: when stderr is a terminal)",
    )
    shared.add_argument(
        "--stats", action="store_true", help="print each puzzle's search nodes on stderr"
    )


def parse_request(command: Command, argv: list[str]) -> Request:
    """The request of a command's arguments (``--help`` and errors exit, as argparse's)."""
    parser = Parser(
        prog=f"python -m puzzles {command.name}",
        description=command.help,
        epilog=command.epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    if command.add_arguments is not None:
        command.add_arguments(parser.add_argument_group(f"{command.name} options"))
    add_shared_arguments(parser, command.workers, command.input is Input.FILE)
    return Request.from_namespace(parser.parse_args(argv), command.name)


def main(argv=None) -> int:
    """Run ``python -m puzzles``; exit status 2 for bad input."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        _parser().print_help()
        return 2
    if argv[0] not in COMMANDS:
        _parser().parse_args(argv)  # --help, --version, or an error naming the command
        return 2
    chosen = command_of(argv[0])
    request = parse_request(chosen, argv[1:])
    # Ctrl-C or SIGTERM: "interrupted: at least N solutions", exit 130, no traceback
    # a closed, full or broken standard output: one line (or, for ``| head``, none)
    return run_writing(_run_or_refuse, chosen, request)


def _run_or_refuse(command: Command, request: Request) -> int:
    """``run``, with bad input refused in one line (exit status 2), and no output
    naming an input (a file read by the command, ``dlx.outputs``)."""
    own = {flag: getattr(request.options, flag[2:].replace("-", "_")) for flag in command.outputs}
    paths = {"--out": request.out, "--svg": request.svg, **own, "--checkpoint": request.checkpoint}
    try:
        with Outputs(paths, [request.file]) as outputs:
            outputs.check_writable("--out", "--svg", *command.outputs)
            return run(command, request)
    except (PuzzleError, CheckpointError, OutputError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except WorkerError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


# -- running a command ------------------------------------------------------------------


@dataclass
class Outcome:
    """What the search of one puzzle gave: the solutions found (the count, with
    ``--count``), whether the search finished (else what stopped it), and its nodes;
    with ``--count``, the count itself (``PuzzleCount``: what is printed of it)."""

    found: int = 0
    complete: bool = True
    stopped_by: str | None = None
    nodes: int = 0
    count: PuzzleCount | None = None  # the adapter's count, when counted
    engine: str = ""  # the kernel that searched, and why (``dlx.Stats.engine``)
    tables: object = None  # what its tables take (``dlx.Stats.tables``), where said

    @classmethod
    def counted(cls, count: PuzzleCount) -> Outcome:
        """The outcome of a count."""
        stats = count.stats
        return cls(int(count), count.complete, count.stopped_by, stats.nodes, count,
                   stats.engine, stats.tables)  # fmt: skip


def _check(request: Request) -> None:
    """Refuse flags that make no sense, naming them."""
    if request.limit is not None and request.limit < 1:
        raise PuzzleError("--limit must be at least 1")
    if request.time_limit is not None and not request.time_limit > 0:
        raise PuzzleError("--time-limit must be more than 0 seconds")
    if request.workers is not None and request.workers < 0:
        raise PuzzleError("--workers must be at least 0 (0: every core)")


def run(command: Command, request: Request) -> int:
    """Read the puzzles, search each one as the flags say, print the answers as they
    come (a puzzle at a time)."""
    _check(request)
    takes_file = command.input is not Input.FLAGS  # (else ``read`` refuses a FILE itself)
    text = None if request.file is None or not takes_file else read_text(request.file)
    output = command.act(request, text) if command.act is not None else None
    if output is not None:
        return _write_action(output, request.out)
    if text is None and command.input is Input.FILE_OR_STDIN:
        text, request = _standard_input(), replace(request, file="-")
        check_all()  # no output is the file standard input reads (before any set-up)
    if text is None and command.input is Input.FILE:
        raise PuzzleError("give a puzzle FILE")
    name = "<stdin>" if request.file == "-" else request.file if takes_file else None
    t_read, compiling_before = time.perf_counter(), compiling.seconds()
    try:
        puzzles = command.read(text, request)
    except PuzzleError as e:
        raise PuzzleError(f"{name}: {e}" if name else str(e)) from None
    reading = time.perf_counter() - t_read - (compiling.seconds() - compiling_before)
    progress = sys.stderr.isatty() if request.progress is None else request.progress
    wrote = _announce_and_export(command, request, puzzles, progress)
    if wrote and not asks_search(command, request):
        return 0  # (``--dlx FILE`` alone: the file was asked for, not a search)
    request = _settled(command, request, puzzles, name)
    check_all()  # every input is read (board and piece files too): none is an output
    t0, compiling_before = time.perf_counter(), compiling.seconds()
    with _output(request.out) as sink:
        printer = Printer(command, request, sink, len(puzzles))
        if not print_lines(command, puzzles, request, progress, printer, BATCH):
            for k, outcome in enumerate(_search_all(command, puzzles, request, progress, printer)):
                printer.end(k, puzzles[k], outcome)
        printer.close()
    seconds = time.perf_counter() - t0 - (compiling.seconds() - compiling_before)
    if request.svg:
        printer.draw(request.svg)
    nodes = printer.nodes
    rate = ""  # reading: parsing, and what a command's read builds ahead (sudoku's set-up)
    if len(puzzles) > 1 and seconds:
        rate = f" ({len(puzzles) / seconds:,.0f} puzzles/s; reading and set-up {reading:.3f} s)"
    puzzles_text = f"{len(puzzles)} puzzles, " if len(puzzles) > 1 else ""
    if not (request.count or request.unique):
        puzzles_text += f"{plural(printer.found, 'solution')}{printer.sampled_from}, "
    print(f"{puzzles_text}{nodes} nodes, {seconds:.3f} s{rate}{printer.resumed}", file=sys.stderr)
    return printer.status


def _announce_and_export(command: Command, request: Request, puzzles: list, progress) -> int:
    """What a command's hooks ask said and written once its puzzles are read: a line
    on stderr when a bar is wanted (``announce``), files with a line naming each
    (``exports``); the number of files written."""
    if not (progress and command.announce is not None) and command.exports is None:
        return 0  # (not a puzzle read: a command may make each only when it is read)
    written = 0
    for puzzle in puzzles:
        if progress and command.announce is not None:
            print(command.announce(puzzle), file=sys.stderr)
        for export in command.exports(puzzle, request) if command.exports is not None else ():
            with open_text(export.path) as f:
                f.write(export.text)
            print(f"wrote {export.path} ({export.note})", file=sys.stderr)
            written += 1
    return written


def _write_action(output, out: str | None) -> int:
    """Write what a command's ``act`` gave (a text, or texts as they come, and perhaps
    the exit status) to ``out`` or standard output; its exit status."""
    output, status = output if isinstance(output, tuple) else (output, 0)
    with _output(out) as sink:
        try:
            for piece in [output] if isinstance(output, str) else output:  # or streamed
                sink.write(piece)
                sink.flush()  # each piece kept, even if Ctrl-C comes next
        except KeyboardInterrupt:  # (a search's count inside an action says nothing)
            raise Interrupted() from None
    return status


def _settled(command: Command, request: Request, puzzles: list, name: str | None) -> Request:
    """The request the puzzles are searched with: the command's own ``settle``, then
    its default mode and workers; flags that do not go with it refused."""
    if command.settle is not None:
        request = command.settle(request)
    if command.count_by_default and not (request.unique or request.all or request.limit):
        count = request.count or not request.out  # --out FILE alone: every solution there
        request = replace(request, count=count, all=not count)
    if request.checkpoint is not None and not request.count:  # (after a default count)
        raise PuzzleError("--checkpoint goes with --count (it records a count's progress)")
    if request.checkpoint is not None and len(puzzles) > 1:
        raise PuzzleError(f"--checkpoint counts one puzzle; {name} holds {len(puzzles)}")
    if request.workers is None:  # the command's default counts; lists stream on one process
        request = replace(request, workers=command.workers if request.count else 1)
    if request.time_limit is not None and request.workers != 1 and not request.count:
        raise PuzzleError("--time-limit with --workers other than 1 needs --count")
    return request


def _standard_input() -> str:
    """The puzzles of standard input when no FILE is given: read when it is a pipe or a
    file, refused in one line when it is a terminal (nobody would type a puzzle there)."""
    if sys.stdin is None or sys.stdin.isatty():
        raise PuzzleError("give a puzzle FILE (- for standard input), or pipe puzzles in")
    return read_text("-")


def _search_all(command: Command, puzzles: list, request: Request, progress: bool, printer):
    """Search every puzzle, yielding its Outcome once its answers went to ``printer``:
    in batches where the adapter has them, else one by one, with one bar over the
    puzzles when there are several."""
    tally = command.tally
    threads = request.workers == 1 or (command.threaded and command.threaded(puzzles))
    batched = tally is not None and request.time_limit is None and threads
    batched = batched and len(puzzles) > 1  # one puzzle: a search with its own bar
    several = request.all or (request.limit or 1) > 1  # answers a puzzle
    if batched and not request.count and not request.unique and several:
        batched = False  # several answers a puzzle: streams
    bar = None
    if progress and len(puzzles) > 1:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(puzzles), desc="puzzles", unit="puzzle", leave=False)
    try:
        if batched:
            limit = (request.limit or NO_LIMIT) if request.count else 2 if request.unique else 1
            for start in range(0, len(puzzles), BATCH):
                chunk = puzzles[start : start + BATCH]
                for p, (n, answer, nodes) in zip(
                    chunk, tally(chunk, limit, request.workers), strict=True
                ):
                    printer.begin(p)
                    if answer is not None:
                        printer.answer(answer)
                    complete = n < limit or (request.unique and n >= 2)
                    stop = None if complete else f"solution limit {limit}"
                    counted = PuzzleCount(n, complete, stopped_by=stop) if request.count else None
                    yield Outcome(n, complete, stop, nodes, counted)
                if bar is not None:
                    bar.update(len(chunk))
            return
        search = {"progress": progress and bar is None, "parallel": request.parallel}
        if request.time_limit is not None:
            search["time_limit"] = request.time_limit
        for p in puzzles:
            printer.begin(p)
            yield _search_timed(command, p, request, search, printer)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()


def _search_timed(command: Command, puzzle, request: Request, search: dict, printer) -> Outcome:
    """``_search_one`` with the time limit counted from before the puzzle's problem is
    built (building that outlasts it stops there)."""
    if request.time_limit is None:
        return _search_one(command, puzzle, request, search, printer)
    limit = TimeLimit(request.time_limit)
    asked = f"time limit {request.time_limit:g} s"
    try:
        with limit.building():
            outcome = _search_one(
                command, puzzle, request, {**search, "time_limit": limit}, printer
            )
    except TimeLimitReached:
        stop = f"{asked} (while building the problem)"
        counted = PuzzleCount(0, False, stopped_by=stop) if request.count else None
        return Outcome(0, False, stop, count=counted)
    if outcome.stopped_by is not None and outcome.stopped_by.startswith("time limit"):
        outcome.stopped_by = asked  # (the search had what building left of it)
    return outcome


def _search_one(command: Command, puzzle, request: Request, search: dict, printer) -> Outcome:
    """One puzzle's search, in the mode the flags ask for; its answers go to
    ``printer`` as they are found."""
    if request.count:
        counted = PuzzleCount.of(command.count(puzzle, request.limit, **search))
        if request.svg and counted:  # the picture needs an answer
            for answer in command.solutions(puzzle, 1):  # (on this process)
                printer.answer(answer)
        return Outcome.counted(counted)
    limit = 2 if request.unique else request.limit if request.limit else None if request.all else 1
    answers = command.solutions(puzzle, limit, **search)
    found = 0
    try:
        for answer in answers:
            found += 1  # found, even if Ctrl-C comes while it is written
            printer.answer(answer)
    except KeyboardInterrupt as e:
        if not isinstance(e, Interrupted) or e.solutions is None:
            raise Interrupted(found) from None
        raise
    complete = answers.complete or (request.unique and found >= 2)
    nodes, engine, tables = answers.nodes, answers.engine, answers.tables
    return Outcome(found, complete, answers.stopped_by, nodes, engine=engine, tables=tables)


class Printer:
    """Writes each puzzle's answers as they come (text or JSON, a puzzle a line),
    then its count or verdict; keeps the answers to draw for ``--svg``, the exit status and
    the nodes."""

    def __init__(self, command: Command, request: Request, sink, n_puzzles: int):
        self.command, self.request, self.sink = command, request, sink
        self.many = n_puzzles > 1
        self.status = 0
        self.nodes = 0
        self.found = 0  # solutions of every puzzle
        self.drawn: list = []  # answers to draw
        self.entries = 0  # JSON entries written
        self.blocks = False  # multi-line answers written (a blank line between puzzles)
        self.resumed = ""  # with --checkpoint: what the checkpoint held (as python -m dlx)
        self.sampled_from = ""  # with --sample: what the solutions were drawn from
        if request.json:
            sink.write('{"puzzles": [\n')

    def begin(self, puzzle) -> None:
        """A new puzzle: nothing of it written yet."""
        self.label = getattr(puzzle, "label", "") or f"puzzle {self.entries + 1}"
        self.shown = 0
        self.solutions: list = []

    def answer(self, answer) -> None:
        """One answer of the current puzzle: written (when solving), kept for JSON and
        drawn for ``--svg``."""
        request = self.request
        if request.svg and len(self.drawn) < SVG_MAX:
            self.drawn.append(answer)
        if request.count or request.unique:
            return
        if request.json:
            self.solutions.append(answer.to_json())
            return
        text = str(answer).rstrip("\n")
        block = "\n" in text
        if block and (self.shown or self.blocks):
            self.sink.write("\n")  # a blank line between multi-line answers
        if block and self.many and not self.shown:
            self.sink.write(f"# {self.label}\n")
        self.sink.write(text + "\n")
        self.shown += 1
        self.blocks |= block

    def end(self, k: int, puzzle, o: Outcome) -> None:
        """The current puzzle's search is over: its count or verdict, notes, JSON entry."""
        request = self.request
        prefix = f"{self.label}: " if self.many else ""
        self.nodes += o.nodes
        self.found += o.found
        drawn_from = getattr(puzzle, "drawn_from", None)  # --sample: what it drew from
        self.sampled_from = f" {drawn_from()}" if drawn_from is not None and drawn_from() else ""
        if request.stats:
            summary = getattr(puzzle, "summary", None)
            extra = f" ({summary()})" if summary is not None else ""
            print(f"{prefix}{o.nodes} nodes{extra}", file=sys.stderr)
            if o.engine:
                print(f"{prefix}engine: {o.engine}", file=sys.stderr)
            if o.tables is not None:
                print(f"{prefix}{o.tables}", file=sys.stderr)
        if not o.complete and o.stopped_by and not o.stopped_by.startswith("solution limit"):
            print(f"note: {prefix}search stopped by the {o.stopped_by}", file=sys.stderr)
        entry: dict = {"label": self.label}
        line = None
        if request.count:
            line = o.count.lines()
            entry.update(count=o.found, complete=o.complete)
            if request.checkpoint is not None and o.count.tasks is not None:
                done = f"{o.count.resumed} of {o.count.tasks} subproblems were done before"
                self.resumed = f"; {request.checkpoint}: {done}"
            entry.update(o.count.to_json())
            self.status = self.status or int(o.complete and o.found == 0)
        elif request.unique:
            if o.found >= 2:
                line, unique = "not unique", False
            elif not o.complete:
                line, unique = f"undecided ({o.stopped_by})", None
            else:
                line, unique = ("unique", True) if o.found == 1 else ("no solution", False)
            entry.update(unique=unique, count=o.found, complete=o.complete)
            self.status = self.status or int(unique is not True)
        else:
            if not o.found:
                why = "no solution" if o.complete else f"no solution found ({o.stopped_by})"
                print(f"{prefix}{why}", file=sys.stderr)
                self.status = 1
            entry.update(solutions=self.solutions, complete=o.complete)
        if not o.complete:
            entry["stopped_by"] = o.stopped_by
        entry["nodes"] = o.nodes
        if request.json:  # a puzzle a line
            self.sink.write((",\n" if self.entries else "") + json.dumps(entry))
        elif line is not None:
            self.sink.write(prefix + line + "\n")
        self.entries += 1

    def close(self) -> None:
        """Finish the JSON document."""
        if self.request.json:
            self.sink.write("\n]}\n")

    def draw(self, path: str) -> None:
        """Write the answers kept to ``path``: the command's ``draw(answers)`` where it
        has one (the tilings' gallery), else their pictures one below the other."""
        if not self.drawn:
            raise PuzzleError("--svg: no solution to draw")
        draw = self.command.draw
        if draw is not None:
            picture = draw(self.drawn)
        else:
            pictures = [answer._repr_svg_() for answer in self.drawn]
            picture = pictures[0] if len(pictures) == 1 else svg_stack(pictures)
        with open_text(path) as f:
            f.write(picture)


def _output(path: str | None):
    """The file ``path`` opened for writing, or standard output."""
    return open_text(path) if path else nullcontext(sys.stdout)
