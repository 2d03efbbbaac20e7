"""The hostile families, to rerun (``python scripts/hostile.py``, or ``pytest -m slow
tests/test_hostile.py -s``): checkpoints tampered with, kill -9 and resume, every input
format mutated over every command (from a file and from standard input), hostile
numbers on every number flag, signals from the moment the handlers are in. Each family
prints ``hostile: FAMILY: N cases`` (``HOSTILE_SCALE=k`` tries k times as many).

What must hold: an exact count or a one-line refusal (exit status 2), never a wrong
count with status 0, a traceback or a hang."""

from __future__ import annotations

import os
import random
import signal
import statistics
import subprocess
import sys
import time

import pytest
from shared import DATA, EXPECTED, watchdog
from test_fuzz import COMMANDS, command_on, mutate
from test_numbers import PARSERS, _number_flags
from test_trust_io import stdin_from

from dlx.cli import main
from puzzles.cli import main as puzzles

pytestmark = pytest.mark.slow

SCALE = int(os.environ.get("HOSTILE_SCALE", "1"))
ROOT = DATA.parent.parent
SCOTT = str(DATA / "scott_sym.dlx")


def _report(family: str, cases: int) -> None:
    """The line ``scripts/hostile.py`` adds up."""
    print(f"\nhostile: {family}: {cases} cases", flush=True)


def _count_args(checkpoint, *more: str) -> list[str]:
    return [SCOTT, "--count", "--workers", "1", "--checkpoint", str(checkpoint), "--no-progress"]


def _exact_or_refused(status: int, out: str, err: str, expected: int, case) -> None:
    """An exact count with status 0, or one line on stderr with status 2."""
    assert "Traceback" not in err, (case, err)
    if status == 0:
        assert out.strip() == str(expected), (case, out, err)
    else:
        assert status == 2 and len(err.strip().splitlines()) == 1, (case, status, err)


# -- checkpoints tampered with ------------------------------------------------------------


def _tamperings(data: bytes, other: bytes, older: bytes, rng: random.Random):
    """(name, bytes) of a finished checkpoint's file damaged or replaced."""
    lines = data.split(b"\n")[:-1]
    for k in sorted(rng.sample(range(1, len(data)), 6)):
        yield f"cut at byte {k}", data[:k]
    for _ in range(6):
        k = rng.randrange(len(data))
        yield (
            f"byte {k} flipped",
            data[:k] + bytes([data[k] ^ (1 << rng.randrange(8))]) + data[k + 1 :],
        )
    for _ in range(4):
        a, b = rng.sample(range(len(lines)), 2)
        swapped = list(lines)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        yield f"lines {a + 1} and {b + 1} swapped", b"\n".join(swapped) + b"\n"
        yield f"line {a + 1} doubled", b"\n".join(lines[: a + 1] + lines[a:]) + b"\n"
        yield f"line {a + 1} deleted", b"\n".join(lines[:a] + lines[a + 1 :]) + b"\n"
    yield "another problem's checkpoint", other
    yield "another problem's record appended", data + other.split(b"\n")[1] + b"\n"
    yield "an older copy replayed", older
    yield "empty", b""


def test_checkpoints_tampered_with(tmp_path, capsys):
    rng = random.Random(42)
    path, other_path = tmp_path / "c.ckpt", tmp_path / "other.ckpt"
    assert main(_count_args(path, "--node-limit", "20000")) == 0  # stopped part way
    older = path.read_bytes()
    assert main(_count_args(path)) == 0
    data = path.read_bytes()
    pent = [str(DATA / "pent3x20_sym.dlx"), "--count", "--workers", "1", "--no-progress"]
    assert main([*pent, "--checkpoint", str(other_path)]) == 0
    other = other_path.read_bytes()
    capsys.readouterr()
    cases = 0
    for _ in range(SCALE):
        for name, damaged in _tamperings(data, other, older, rng):
            path.write_bytes(damaged)
            status = main(_count_args(path))
            out, err = capsys.readouterr()
            _exact_or_refused(status, out, err, EXPECTED["scott_sym"], name)
            assert not (tmp_path / "c.ckpt.lock").exists(), name
            cases += 1
    _report("checkpoints tampered with", cases)


# -- kill -9, then resume -----------------------------------------------------------------


def test_kill_9_and_resume(tmp_path, capsys):
    rng = random.Random(9)
    problem = "pent6x10_sym"
    cases = 0
    for trial in range(5 * SCALE):
        path = tmp_path / f"k{trial}.ckpt"
        args = [str(DATA / f"{problem}.dlx"), "--count", "--engine", "dlx", "--workers"]
        args += [str(rng.choice([1, 2])), "--checkpoint", str(path), "--no-progress"]
        child = subprocess.Popen(
            [sys.executable, "-m", "dlx", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        with watchdog(child, seconds=300):
            while child.poll() is None and (not path.exists() or path.stat().st_size < 300):
                time.sleep(0.02)
            time.sleep(rng.uniform(0, 1.5))
            child.kill()
            child.wait()
        assert main(args) == 0
        out, err = capsys.readouterr()
        assert out.strip() == str(EXPECTED[problem]), (trial, err)
        assert not os.path.exists(str(path) + ".lock")
        cases += 1
    _report("kill -9 and resume", cases)


# -- every input format over every command --------------------------------------------------


EXTRAS = ["", "²", "🂡", "\x00", "é", "\r\n", "\ufeff", "99999999999999999999", "-1", "３"]


def _clean(status: int, err: str, case) -> None:
    """A run on bad input: exit 0 or 1, or 2 with one line; never a traceback."""
    assert "Traceback" not in err, (case, err)
    if status == 2:
        assert err.count("\n") == 1 and err.startswith("error: "), (case, err)
    else:
        assert status in (0, 1), (case, status, err)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_input_format_mutated(name, tmp_path, capsys):
    rng = random.Random(name)
    argv, seed = COMMANDS[name]
    cases = 0
    for _ in range(25 * SCALE):
        data = mutate(seed.encode(), rng, rng.choice(EXTRAS))
        status, err = command_on(name, data, tmp_path, capsys)
        _clean(status, err, data)
        cases += 1
        if "FILE" in argv[:2]:  # the same bytes read from standard input
            path = tmp_path / "stdin.txt"
            path.write_bytes(data)
            dashed = ["-" if a == "FILE" else a for a in argv]
            with stdin_from(path):
                status = main(dashed[1:]) if name == "dlx" else puzzles(dashed)
            _clean(status, capsys.readouterr().err, ("stdin", data))
            cases += 1
    _report(f"{name} input mutated", cases)


# -- hostile numbers on every number flag ---------------------------------------------------

BAD_NUMBERS = ["３", "1_0", "٣", "0x10", "+-1", "", "1.5.", "nan", "inf", "1e", " ", "¹"]
BASE = {  # a command line each flag is added to
    "dlx": [SCOTT, "--count", "--no-progress"],
    "pentomino": ["pentomino", "--board", "3x20", "--count", "--no-progress"],
    "polyform": ["polyform", "--board", "3x20", "--pieces", "pentominoes", "--no-progress"],
    "sudoku": ["sudoku", "--generate", "1", "--no-progress"],
}


@pytest.mark.parametrize("name", PARSERS)
def test_hostile_numbers_on_every_flag(name, capsys):
    base = BASE.get(name, [name, str(ROOT / "data" / "pipes" / "example.txt")])
    cases = 0
    for flag, _ in _number_flags(PARSERS[name]()):
        for text in BAD_NUMBERS:
            argv = [*base, f"{flag}={text}"]
            try:
                status = main(argv) if name == "dlx" else puzzles(argv)
            except SystemExit as stop:  # argparse refuses the value
                status = stop.code
            err = capsys.readouterr().err
            assert status == 2 and "Traceback" not in err and flag in err, (argv, status, err)
            cases += 1
    _report(f"{name} number flags", cases)


# -- signals from the moment the handlers are in --------------------------------------------


def _caught(pid: int) -> int | None:
    """The signals process ``pid`` has handlers for (Linux's SigCgt), or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return int(line.split()[1], 16)
    except OSError:
        return None
    return 0


ENTRY_POINTS = {
    "dlx": ["dlx", str(DATA / "pent6x10_all.dlx"), "--count", "--workers", "1"],
    "puzzles": ["puzzles", "pentomino", "--board", "6x10", "--count", "--workers", "1"],
}


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def _start_entry(entry: str, stdout) -> subprocess.Popen:
    """``python -m`` the entry point ``entry`` with no progress bar, from this clone."""
    return subprocess.Popen(
        [sys.executable, "-m", *ENTRY_POINTS[entry], "--no-progress"],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_signals_once_the_handlers_are_in(entry):
    """Ctrl-C or SIGTERM at any moment after the handler is set: one line, 130. Prints
    when the handler was set (from the process's start, as Linux's SigCgt shows it)."""
    rng = random.Random(entry)
    ready, pythons, cases = [], [], 0
    for trial in range(8 * SCALE):
        started = time.monotonic()
        child = _start_entry(entry, subprocess.PIPE)
        with watchdog(child, seconds=120):
            python = None  # when Python's own Ctrl-C handler was set
            while (_caught(child.pid) or 0) & (1 << (signal.SIGTERM - 1)) == 0:
                assert child.poll() is None
                if python is None and (_caught(child.pid) or 0) & (1 << (signal.SIGINT - 1)):
                    python = time.monotonic() - started
                time.sleep(0.0005)
            ready.append(time.monotonic() - started)
            pythons.append(ready[-1] if python is None else python)
            time.sleep(rng.uniform(0, 0.15))
            signum = rng.choice([signal.SIGINT, signal.SIGTERM])
            child.send_signal(signum)
            out, err = child.communicate()
        lines = [line for line in err.splitlines() if not line.startswith("dlx: compil")]
        assert "Traceback" not in err, err
        if child.returncode != 0:  # (0: it finished before the signal came)
            assert child.returncode in (130, -signal.SIGINT), (trial, child.returncode, err)
            assert len(lines) == 1 and lines[0].startswith("interrupted"), err
        cases += 1
    print(
        f"\nhostile: {entry}: handler set {1000 * statistics.median(ready):.0f} ms after the "
        f"start (median; max {1000 * max(ready):.0f} ms); Python's own Ctrl-C handler "
        f"{1000 * statistics.median(pythons):.0f} ms (max {1000 * max(pythons):.0f} ms)"
    )
    _report(f"signals to python -m {entry}", cases)


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_signals_at_fixed_moments_after_the_start(entry):
    """Ctrl-C and SIGTERM 0.02 to 0.15 s after the start, counted by outcome and
    printed: how wide the window before the handlers is on this machine now (a busy
    machine widens it: reported, not asserted, but never a hang)."""
    outcomes: dict[tuple[float, str], dict[str, int]] = {}
    cases = 0
    for delay in (0.02, 0.03, 0.04, 0.05, 0.1, 0.15):
        for signum in (signal.SIGINT, signal.SIGTERM):
            for _ in range(5 * SCALE):
                child = _start_entry(entry, subprocess.DEVNULL)
                with watchdog(child, seconds=120):
                    time.sleep(delay)
                    child.send_signal(signum)
                    err = child.communicate()[1]
                one_line = child.returncode == 130 and err.strip() == "interrupted"
                kind = "one line" if one_line else "traceback" if "Traceback" in err else "silent"
                tally = outcomes.setdefault((delay, signum.name), {})
                tally[kind] = tally.get(kind, 0) + 1
                cases += 1
    for (delay, name), tally in outcomes.items():
        print(f"\nhostile: {entry}: {name} at {delay:.2f} s: {tally}", end="")
    _report(f"signals at fixed moments to python -m {entry}", cases)
