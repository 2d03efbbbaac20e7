"""Stopping: Ctrl-C and SIGTERM stop a run with one line and status 130, workers die
with their parent, and an abandoned parallel stream stops its workers."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from shared import DATA, load

import dlx

ROOT = DATA.parent.parent
LONG = str(DATA / "pent6x10_all.dlx")  # long enough to be stopped midway ...
SLOW = ("--engine", "dlx")  # ... by dancing links (auto's pick may count it in 1 s)


def children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (Linux /proc)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found |= {int(c) for c in (task / "children").read_text().split()}
        except OSError:
            pass
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (not a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def start(*args: str, progress: bool = False) -> subprocess.Popen:
    """``python -m dlx`` with ``args``, started in its own session."""
    bar = "--progress" if progress else "--no-progress"
    command = [sys.executable, "-m", "dlx", *args, *SLOW, bar]
    return subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def wait_for_the_bar(process: subprocess.Popen) -> str:
    """What ``process`` (started with ``progress=True``) wrote on stderr up to its
    progress bar's first ``%``: its search is under way (the kernel loaded or compiled
    before the bar starts), however long that took on a busy machine."""
    # byte by byte from the descriptor: what a buffered read took ahead would be lost
    # to ``communicate``, which reads the descriptor itself
    fd = process.stderr.fileno()
    seen = b""
    while b"%" not in seen:
        byte = os.read(fd, 1)
        if not byte:
            break
        seen += byte
    return seen.decode(errors="replace")


def wait_for_workers(process: subprocess.Popen, n: int) -> set[int]:
    """The worker processes of ``process`` once ``n`` of them run."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = children(process.pid)
        if len(workers) >= n:
            time.sleep(0.5)  # let them take tasks
            return children(process.pid)
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError("the workers did not start")


def ended(process: subprocess.Popen, seconds: float = 30) -> tuple[str, str]:
    """The output of ``process`` once it ends; killed (and the test failed) if it has
    not ended within ``seconds``, so that no hung child outlives the test."""
    try:
        return process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"the command did not end within {seconds} s")


def gone(pids: set[int], seconds: float = 5.0) -> bool:
    """Whether every process of ``pids`` ends within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc and prctl")
def test_workers_die_with_a_killed_parent():
    process = start(LONG, "--count", "--workers", "2")
    workers = wait_for_workers(process, 2)
    process.kill()
    process.wait()
    assert gone(workers)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc")
@pytest.mark.parametrize("workers", ["1", "2"])
def test_sigterm_stops_as_ctrl_c_does(tmp_path, workers):
    checkpoint = tmp_path / "run.ckpt"
    extra = ["--checkpoint", str(checkpoint)] if workers == "2" else []
    process = start(LONG, "--count", "--workers", workers, *extra, progress=workers == "1")
    pids = wait_for_workers(process, 2) if workers == "2" else set()
    before = wait_for_the_bar(process) if workers == "1" else ""  # the count under way
    process.send_signal(signal.SIGTERM)
    out, err = ended(process)
    err = before + err
    assert process.returncode == 130, err
    assert "Traceback" not in err
    line = err.strip().splitlines()[-1]
    assert line.startswith("interrupted: at least ") and " solution" in line
    if workers == "2":
        assert line.endswith(f"(checkpoint saved to {checkpoint})")
    assert out == ""
    assert gone(pids)


def _as_some_runners_start_programs() -> None:
    """(In the child, before exec) stop signals blocked, SIGCHLD ignored."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc")
def test_stops_where_the_parent_blocked_signals_and_ignored_sigchld(expected):
    """A parent that blocks SIGTERM and ignores SIGCHLD (as some CI runners do): the
    count with workers is exact, and SIGTERM still stops it with one line."""
    flags = ["--count", "--workers", "2", "--no-progress"]
    done = subprocess.run(
        [sys.executable, "-m", "dlx", str(DATA / "pent6x10_sym.dlx"), *flags],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=_as_some_runners_start_programs,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.split()[0] == str(expected["pent6x10_sym"])
    process = subprocess.Popen(
        [sys.executable, "-m", "dlx", LONG, *SLOW, *flags],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_as_some_runners_start_programs,
    )
    pids = wait_for_workers(process, 2)
    process.send_signal(signal.SIGTERM)
    out, err = ended(process)
    assert process.returncode == 130 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1].startswith("interrupted: at least ")
    assert gone(pids)


def test_a_pool_where_sigchld_is_ignored(expected):
    """Counts with workers in a process that ignores SIGCHLD: exact, and one stopped by
    its time limit ends (its pool's workers are joined)."""
    previous = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        count = dlx.count(load("pent6x10_sym"), parallel=dlx.Parallel(workers=2))
        assert count.complete and count.solutions == expected["pent6x10_sym"]
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # (the pool undid it)
        start = time.monotonic()
        count = dlx.count(  # dancing links: the bit kernels finish it within the second
            load("pent6x10_all"), time_limit=1, engine="dlx", parallel=dlx.Parallel(workers=2)
        )
        assert not count.complete and time.monotonic() - start < 10
    finally:
        signal.signal(signal.SIGCHLD, previous)


def test_interrupts_wait_for_the_end_of_a_deferring_block():
    """Ctrl-C inside ``interrupts_deferred`` (around the pool's waits, which leave locks
    held when interrupted halfway and then hang the shutdown) raises after the block."""
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with dlx.stopping.interrupts_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # (the handler has run by now)
            reached.append("end of block")
    assert reached == ["end of block"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_in_a_count_tells_how_far_it_got(monkeypatch):
    """A Ctrl-C between two kernel calls (raised at the third budget: a count that ends
    sooner on a fast machine cannot leave it to land after the test)."""
    import _thread

    from dlx.driver import driver

    p = load("pent6x10_all")
    dlx.count(p, node_limit=100, engine="dlx")  # load the kernel first
    calls = []
    next_budget = driver.Driver.next_budget

    def interrupted_at_the_third(self, max_solutions):
        calls.append(1)
        if len(calls) == 3:
            _thread.interrupt_main()  # as Ctrl-C does
        return next_budget(self, max_solutions)

    monkeypatch.setattr(driver.Driver, "next_budget", interrupted_at_the_third)
    with pytest.raises(dlx.Interrupted) as stopped:
        dlx.count(p, engine="dlx")
    assert stopped.value.solutions is not None and stopped.value.solutions >= 0
    assert dlx.stopping.message(stopped.value).startswith("interrupted: at least ")


def test_a_closed_parallel_stream_stops_its_workers():
    stream = dlx.solutions(load("pent6x10_all"), parallel=dlx.Parallel(workers=2))
    first = next(stream)
    dlx.check(stream.problem, first.options)
    assert multiprocessing.active_children()
    stream.close()
    deadline = time.monotonic() + 5
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()


def test_an_abandoned_parallel_stream_stops_its_workers():
    def take_one():
        for s in dlx.solutions(load("pent6x10_all"), parallel=dlx.Parallel(workers=2)):
            return s  # the stream is dropped here

    assert take_one() is not None
    deadline = time.monotonic() + 5
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()


SWALLOWED = """
import ctypes, os, signal, sys, time
import dlx

def body():
    def callback():  # as llvmlite's object cache calls back while numba loads a kernel
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.2)  # the handler raises in here, and ctypes drops the exception
    ctypes.CFUNCTYPE(None)(callback)()
    print("ran on", dlx.count(dlx.read(sys.argv[1]), engine="dlx"), flush=True)
    return 0

sys.exit(dlx.stopping.run_command(body))
"""


def test_a_stop_swallowed_by_a_callback_still_stops_the_search():
    """A SIGTERM whose KeyboardInterrupt is raised inside a ctypes callback is dropped
    there ("Exception ignored"); the search's next step raises it again: one line, 130."""
    done = subprocess.run(
        [sys.executable, "-c", SWALLOWED, str(DATA / "pent3x20_sym.dlx")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert "Exception ignored" in done.stderr  # (the interrupt was swallowed indeed)
    assert done.returncode == 130 and "ran on" not in done.stdout, done.stdout
    assert done.stderr.strip().splitlines()[-1] == "interrupted"


def test_run_command_gives_130_and_one_line(capsys):
    def body():
        raise dlx.Interrupted(7, "x.ckpt")

    assert dlx.stopping.run_command(body) == 130
    assert (
        capsys.readouterr().err
        == "interrupted: at least 7 solutions (checkpoint saved to x.ckpt)\n"
    )
    assert os.getpid()  # the test process itself is still here


def test_a_stop_signal_within_llvmlite_is_noted_not_raised():
    """A KeyboardInterrupt raised while llvmlite runs lands in a ctypes callback, which
    prints it with its traceback and drops it: there the handler only notes the stop,
    and ``stop_if_swallowed`` raises it at the search's next step."""
    from dlx import stopping

    namespace = {"sys": sys}
    code = compile("def here():\n    return sys._getframe()\n", "/x/llvmlite/binding/y.py", "exec")
    exec(code, namespace)
    stopping._NOTED[0] = 0
    stopping._raise_interrupt(signal.SIGINT, namespace["here"]())
    assert stopping._NOTED[0] == 1
    with pytest.raises(KeyboardInterrupt):
        stopping.stop_if_swallowed()
    assert stopping._NOTED[0] == 0
    with pytest.raises(KeyboardInterrupt):
        stopping._raise_interrupt(signal.SIGINT, sys._getframe())
    stopping._NOTED[0] = 0
