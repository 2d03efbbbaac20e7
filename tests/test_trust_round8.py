"""Trust nothing, round 8: the tight kernel's compile in a second process
(``dlx.compiling.ahead``) when that process hangs or this one is stopped while waiting
for it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest

import dlx
from dlx import compiling

SLEEPER = [sys.executable, "-c", "import time; time.sleep(120)"]


@contextmanager
def helper(kind: str):
    """Within: a compile of ``kind`` said to run ahead in another process, which in fact
    sleeps (a hung helper); it is ended afterwards whatever happened."""
    process = subprocess.Popen(SLEEPER, stdout=subprocess.PIPE)
    compiling._ahead[kind] = (process, time.time())
    try:
        yield process
    finally:
        compiling._ahead.pop(kind, None)
        if process.poll() is None:
            process.kill()
        process.wait()


@contextmanager
def ctrl_c_after(seconds: float):
    """Within: KeyboardInterrupt raised ``seconds`` (wall) in, as Ctrl-C does."""

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_ctrl_c_while_waiting_for_the_other_process_ends_it():
    """Ctrl-C while this process waited for the other one's compile: this one exited
    (130), the other one compiled on (it was no longer listed, so nothing at exit
    ended it)."""
    with helper("hostile part") as process:
        with pytest.raises(KeyboardInterrupt), ctrl_c_after(0.2):
            compiling.wait_ahead("hostile part")
        compiling._stop_ahead()  # (what runs at exit)
        assert process.poll() is not None


def test_a_hung_compile_in_the_other_process_is_given_up(monkeypatch, capsys):
    """A second process that never ends (stopped, or stuck) held this one forever:
    after ``AHEAD_PATIENCE`` seconds it is ended and this process compiles alone."""
    monkeypatch.setattr(compiling, "AHEAD_PATIENCE", 0.3)
    with helper("hostile part") as process, ctrl_c_after(60):  # (a hang fails the test)
        assert compiling.wait_ahead("hostile part") is False
        assert process.poll() is not None
    err = capsys.readouterr().err
    assert "hostile part" in err and "compiling it here" in err, err


# -- a signal in the first milliseconds ---------------------------------------------------

# A sitecustomize that notes, at the import of ``dlx.stopping`` (or ``signal``, whichever
# comes first: both come before the handlers of ``stop_from_the_start``), whether Ctrl-C
# would still be Python's KeyboardInterrupt, a traceback then.
WATCH = """
import sys, _signal

def _watch(event, args):
    if event == "import" and args[0] in ("signal", "dlx.stopping") and not _seen:
        _seen.append(args[0])
        default = _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler
        with open({path!r}, "w") as f:
            f.write(("traceback at " if default else "one line at ") + args[0])

_seen = []
sys.addaudithook(_watch)
"""


@pytest.mark.parametrize("package", ["dlx", "dlx.certify", "puzzles"])
def test_ctrl_c_is_one_line_from_the_first_line_of_ours(tmp_path, package):
    """``python -m dlx``: from the first line of ``dlx/__init__.py`` until
    ``stop_from_the_start``, the imports of ``dlx.stopping`` (``signal``, ``threading``,
    ``enum``: a few milliseconds) ran under Python's own Ctrl-C, a KeyboardInterrupt
    traceback and status -2 (about 1 in 8 of the signals sent 20 to 30 ms in).
    ``python -m puzzles`` imported ``dlx.stopping`` under Python's handler (fails before
    2026-11-29: "traceback at dlx.stopping")."""
    import os

    note = tmp_path / "note.txt"
    (tmp_path / "sitecustomize.py").write_text(WATCH.format(path=str(note)))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), root]))
    done = subprocess.run(
        [sys.executable, "-m", package, "--version"], env=env, capture_output=True, timeout=120
    )
    assert done.returncode in (0, 2), done.stderr  # (dlx.certify has no --version)
    assert note.read_text().startswith("one line at "), note.read_text()


# -- a default count past its serial start --------------------------------------------------


def _no_pool(*args, **kwargs):
    raise AssertionError("a worker pool started")


def test_a_count_its_serial_start_estimates_small_starts_no_worker(monkeypatch, capsys):
    """Knuth's pentominoes 6x10 (3.4 M nodes, under a second on one core) passed the
    serial start's 1,000,000 nodes, and a worker pool started: 2.6 to 2.8 s on all cores
    against 1.7 to 1.9 s on one. The start's estimate of the whole count now decides.
    9356 tilings: data/dlx/EXPECTED.tsv (2339 up to symmetry, times 4)."""
    from shared import DATA, EXPECTED

    from dlx import cli
    from dlx.parallel import run as parallel_run

    monkeypatch.setattr(parallel_run, "run_count", _no_pool)
    monkeypatch.setattr(cli, "SMALL_COUNT_SECONDS", 1e9)  # (whatever the machine's load)
    assert cli.main(["--count", "--no-progress", str(DATA / "pent6x10_all.dlx")]) == 0
    assert capsys.readouterr().out == f"{EXPECTED['pent6x10_all']}\n"


def test_a_count_its_estimate_misjudged_goes_on_in_parallel(monkeypatch, capsys):
    """An estimate that was wrong (the serial count stopped by its time bound): the count
    is made on every core, exact all the same."""
    from shared import DATA, EXPECTED

    from dlx import cli

    real, asked = cli.count, []

    def count(problem, **keywords):
        asked.append(keywords)
        return real(problem, **keywords)

    def count_started(problem, node_limit, go_on, **keywords):
        start = dlx.Count(0, False)
        start.fraction = 0.5  # (a start that estimates its count small)
        assert go_on(start) == 2 * cli.SMALL_COUNT_SECONDS
        return dlx.Count(0, False, stopped_by="time limit")  # (as if it were too long)

    monkeypatch.setattr(cli, "count", count)
    monkeypatch.setattr(cli, "count_started", count_started)
    monkeypatch.setattr(cli, "SMALL_COUNT_SECONDS", 1e9)
    assert cli.main(["--count", "--no-progress", str(DATA / "pent6x10_all.dlx")]) == 0
    assert capsys.readouterr().out == f"{EXPECTED['pent6x10_all']}\n"
    assert [k.get("parallel") is not None for k in asked] == [True]
