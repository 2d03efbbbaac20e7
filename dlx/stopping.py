"""Stopping a run cleanly: Ctrl-C and SIGTERM alike, one line, exit status 130.

A search stopped by Ctrl-C (or SIGTERM, inside ``terminate_as_interrupt``) raises
``Interrupted``, a KeyboardInterrupt that knows how far it got: ``dlx.count`` gives it
the solutions counted so far and the checkpoint that keeps the finished tasks. The
command lines (``python -m dlx``, and the puzzle commands through ``run_command``)
print ``message(error)`` and exit with 130, leaving no worker behind.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from contextlib import contextmanager

from dlx.starting import INTERRUPTED_STATUS, running  # (130: 128 + SIGINT, as shells say)


class Interrupted(KeyboardInterrupt):
    """A search stopped by Ctrl-C or SIGTERM: ``solutions`` found at least (None if
    unknown), ``checkpoint`` the file that keeps the finished tasks (or None)."""

    def __init__(self, solutions: int | None = None, checkpoint=None):
        super().__init__(solutions)
        self.solutions = solutions
        self.checkpoint = checkpoint


class TimeLimitReached(Exception):
    """The time limit passed before a search could start (while reading its input)."""


def message(error: BaseException) -> str:
    """The one line a command prints when ``error`` stopped it."""
    solutions = getattr(error, "solutions", None)
    checkpoint = getattr(error, "checkpoint", None)
    text = "interrupted"
    if solutions is not None:
        text += f": at least {solutions} solution{'' if solutions == 1 else 's'}"
    if checkpoint is not None:
        text += f" (checkpoint saved to {checkpoint})"
    return text


_NOTED = [0]  # stop signals taken by ``_raise_interrupt`` (see ``stop_if_swallowed``)


def _raise_interrupt(signum, frame):
    """Ctrl-C and SIGTERM handler within ``run_command``: note the stop, and raise
    KeyboardInterrupt, unless the signal came while llvmlite runs (it calls back into
    Python from C while numba loads or saves a kernel, and an exception raised in such a
    callback is printed with its traceback and dropped): then the noted stop is raised
    by ``stop_if_swallowed`` at the search's next step."""
    _NOTED[0] += 1
    if not _within_llvmlite(frame):
        raise KeyboardInterrupt


def _within_llvmlite(frame) -> bool:
    """Whether ``frame`` or a frame that called it is llvmlite's code."""
    while frame is not None:
        if "llvmlite" in frame.f_code.co_filename:
            return True
        frame = frame.f_back
    return False


def stop_if_swallowed() -> None:
    """Raise KeyboardInterrupt if a stop signal came within ``run_command`` and the
    search goes on: its KeyboardInterrupt was swallowed. One raised inside a ctypes
    callback is printed as "Exception ignored" and dropped, and llvmlite calls back
    into Python while numba loads or saves a kernel: the command would have run to its
    end with status 0. The search drivers call this between kernel calls; an interrupt
    that propagated has left the search, which then makes no such call."""
    if _NOTED[0]:
        _NOTED[0] = 0
        raise KeyboardInterrupt


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def children_can_be_waited_for() -> None:
    """Undo an ignored SIGCHLD inherited from the parent (some supervisors and CI
    runners start programs so): with it the kernel reaps child processes at once, a
    process pool cannot join its workers (its manager thread spins) and every child's
    exit status reads 0. Main thread only (where signals can be set)."""
    if threading.current_thread() is threading.main_thread():
        if signal.getsignal(signal.SIGCHLD) is signal.SIG_IGN:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)


def stop_signals_delivered() -> None:
    """For a command line: Ctrl-C and SIGTERM reach this process even where its parent
    left them blocked (a signal mask survives exec). (An ignored Ctrl-C stays ignored:
    so shells start jobs in the background; an ignored SIGCHLD is undone by the pools,
    ``children_can_be_waited_for``.)"""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def _stop_at_once(signum, frame):
    """Before a command's body runs there is nothing to save: one line, exit 130."""
    try:
        os.write(2, b"interrupted\n")
    finally:
        os._exit(INTERRUPTED_STATUS)


def stop_from_the_start() -> None:
    """The first thing ``python -m dlx`` and ``python -m puzzles`` do, before numpy and
    numba are imported: Ctrl-C and SIGTERM print "interrupted" and exit with 130 (not
    a KeyboardInterrupt traceback from an import half done, not a silent death).
    ``run_command`` then takes over. An ignored Ctrl-C stays ignored."""
    stop_signals_delivered()
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) is not signal.SIG_IGN or signum == signal.SIGTERM:
            signal.signal(signum, _stop_at_once)


def stop_from_the_start_if_run(package: str) -> None:
    """``stop_from_the_start`` where Python is looking for ``package``, or a module in it,
    to run (``python -m dlx``, ``python -m dlx.certify``, ``python -m puzzles``): then
    the package's ``__init__``, which calls this first, is the first code of ours that
    runs, and a Ctrl-C from there on is one line and status 130, not the traceback of
    an import cut short. (While Python looks, ``sys.argv[0]`` is ``-m``; the module's
    name is in ``sys.orig_argv``.) ``DLX_TEST_PAUSE_FILE``, for tests: then create that
    file and wait up to a minute, to be signalled at a point the test knows."""
    if not running(package):
        return
    stop_from_the_start()
    pause = os.environ.get("DLX_TEST_PAUSE_FILE")
    if pause:
        open(pause, "w").close()
        time.sleep(60)


@contextmanager
def _ctrl_c_raises():
    """Within: Ctrl-C raises KeyboardInterrupt (noted, ``_raise_interrupt``), also after
    ``stop_from_the_start``; an ignored Ctrl-C stays ignored."""
    main_thread = threading.current_thread() is threading.main_thread()
    handler = signal.getsignal(signal.SIGINT) if main_thread else None
    ours = handler is _stop_at_once or handler is signal.default_int_handler
    if ours:
        signal.signal(signal.SIGINT, _raise_interrupt)
    try:
        yield
    finally:
        if ours:
            signal.signal(signal.SIGINT, handler)


@contextmanager
def terminate_as_interrupt():
    """Within: SIGTERM raises KeyboardInterrupt in the main thread, as Ctrl-C does."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def interrupts_deferred():
    """Within: Ctrl-C (and SIGTERM where it raises as Ctrl-C does) wait for the block
    to end, then raise KeyboardInterrupt. For code that must not stop halfway:
    ``concurrent.futures.wait`` takes a lock per future and, interrupted between two,
    leaves them held, and the pool's shutdown then waits forever. Main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {}
    for signum in STOP_SIGNALS:
        handler = signal.getsignal(signum)
        if handler is signal.default_int_handler or handler is _raise_interrupt:
            previous[signum] = signal.signal(signum, lambda n, frame: caught.append(n))
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if caught:
        raise KeyboardInterrupt


@contextmanager
def stops_requested():
    """Within: the first Ctrl-C or SIGTERM (where it would raise KeyboardInterrupt) is
    a request, noted in the list this yields, for a loop that looks at it at its
    pauses and stops where it can say how far it got; a second one raises at once (as
    the handler it stands in for would). The caller raises KeyboardInterrupt when the
    list is not empty. Main thread only (elsewhere nothing is noted)."""
    requested: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield requested
        return
    previous = {}

    def note(signum, frame):
        if requested:
            previous[signum](signum, frame)
        requested.append(signum)

    for signum in STOP_SIGNALS:
        handler = signal.getsignal(signum)
        if handler is signal.default_int_handler or handler is _raise_interrupt:
            previous[signum] = signal.signal(signum, note)
    try:
        yield requested
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def close_open_bars() -> None:
    """Close the tqdm bars still open (a stop can land between a bar's first drawing and
    the code that would close it), so that the stop's line starts a line of its own."""
    std = sys.modules.get("tqdm.std")
    if std is None:
        return
    classes, seen = [std.tqdm], []
    while classes:  # the class and its subclasses (tqdm.auto's): each keeps its bars
        cls = classes.pop()
        seen.append(cls)
        classes.extend(cls.__subclasses__())
    for cls in seen:
        for bar in list(cls.__dict__.get("_instances", ())):
            try:
                bar.close()
            except Exception:  # a bar half made: nothing more to tidy
                pass


def run_command(command, *args, **keywords) -> int:
    """Run a command's body (which returns its exit status) so that Ctrl-C and SIGTERM
    print ``message`` on stderr and give status 130, without a traceback."""
    stop_signals_delivered()
    _NOTED[0] = 0
    with _ctrl_c_raises(), terminate_as_interrupt():
        try:
            return command(*args, **keywords)
        except KeyboardInterrupt as error:
            close_open_bars()
            print(message(error), file=sys.stderr, flush=True)
            return INTERRUPTED_STATUS
        finally:
            _NOTED[0] = 0
