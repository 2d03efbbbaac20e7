"""What the engine's tests share: the data files and their known counts, and small
helpers that check what a search reports."""

from __future__ import annotations

import json
import os
import signal
import threading
from contextlib import contextmanager
from pathlib import Path

import numpy as np

import dlx
from dlx.driver import codes
from dlx.kernels.links import layout
from dlx.verify import check

DATA = Path(__file__).resolve().parent.parent / "data" / "dlx"
# data/dlx/EXPECTED.tsv: counts from Knuth's programs (see data/dlx/SOURCES.md)
EXPECTED = dict(
    (name, int(n)) for name, n in (line.split() for line in (DATA / "EXPECTED.tsv").open())
)
NO_JIT = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


@contextmanager
def watchdog(*processes, seconds: float = 120):
    """Within: the child ``processes`` are killed once ``seconds`` have passed, so that a
    test whose child hangs fails (its reads end) instead of hanging the suite."""
    timer = threading.Timer(seconds, lambda: [p.kill() for p in processes])
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def examples(n: int) -> int:
    """``n`` hypothesis examples, or a few when the kernel runs as plain Python."""
    return max(10, n // 50) if NO_JIT else n


def load(name: str) -> dlx.Problem:
    """A problem from data/dlx."""
    return dlx.read(DATA / f"{name}.dlx")


def option_sets(stream) -> set[frozenset[int]]:
    """The solutions of a stream as sets of option indices, each one checked."""
    found = set()
    for s in stream:
        check(s.problem, s.options)
        key = frozenset(s.options)
        assert key not in found, "a solution was reported twice"
        found.add(key)
    return found


def run_to_end(search):
    """Run a search until it is done, checking its links at every pause."""
    while search.run() != codes.DONE:
        search.sanity()
    search.sanity()
    return search


def stream_to_end(search) -> list[tuple[int, ...]]:
    """Stream a search (of any engine) to its end, checking its arrays at every pause
    and solution (``sanity``); the solutions' options."""
    found = []
    while True:
        code = search.run(stream=True)
        search.sanity()
        if code == codes.SOLUTION:
            found.append(search.current_options())
        elif code == codes.DONE:
            return found
        else:
            assert code == codes.PAUSED, code


def checked_solutions(search) -> list[tuple[int, ...]]:
    """Every solution a search streams (``stream_to_end``: ``sanity`` at each pause),
    each one through ``dlx.check``."""
    found = stream_to_end(search)
    for options in found:
        check(search.problem, options)
    return found


def as_set(found) -> set[frozenset[int]]:
    """Solutions as a set of option sets (the order of the options chosen varies)."""
    return {frozenset(s) for s in found}


def assert_links_restored(search, problem: dlx.Problem) -> None:
    """Every link array is back to its initial state."""
    arrays = layout.arrays(problem)
    assert np.array_equal(search.node, arrays.node)
    assert np.array_equal(search.item, arrays.item)


def dominoes(rows: int, columns: int | None = None):
    """Domino tilings of a rows x columns board (square when ``columns`` is None): a
    primary item per cell."""
    import dlx

    columns = rows if columns is None else columns
    p = dlx.Problem(primary=[f"{r},{c}" for r in range(rows) for c in range(columns)])
    for r in range(rows):
        for c in range(columns):
            if c + 1 < columns:
                p.add_option([f"{r},{c}", f"{r},{c + 1}"])
            if r + 1 < rows:
                p.add_option([f"{r},{c}", f"{r + 1},{c}"])
    return p


def records(path) -> list[dict]:
    """The records of a checkpoint (its header left out)."""
    return [json.loads(line) for line in Path(path).read_text().splitlines()[1:]]


def ctrl_c_at_first_pause(monkeypatch, then=lambda: None) -> list[int]:
    """Make the parallel runner's first search, at its first pause, send this process a
    Ctrl-C (then call ``then``: a wait, say); the list returned gets that search's nodes
    at the signal."""
    from dlx.parallel import workers

    real = workers.make_search
    sent: list[int] = []

    def search_stopped_at_its_first_pause(*args, **keywords):
        search = real(*args, **keywords)
        run = search.run

        def run_then_ctrl_c(*args, **keywords):
            code = run(*args, **keywords)
            if not sent:
                sent.append(search.nodes)
                os.kill(os.getpid(), signal.SIGINT)
                then()
            return code

        search.run = run_then_ctrl_c
        return search

    monkeypatch.setattr(workers, "make_search", search_stopped_at_its_first_pause)
    return sent
