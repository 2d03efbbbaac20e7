"""Limits, progress and interruption of a search."""

from __future__ import annotations

from pathlib import Path

import pytest
from boards import queens, queens_ok
from shared import DATA

import dlx
from dlx.driver import driver
from dlx.kernels.links import kernel

# -- limits, progress, interruption ---------------------------------------------------


def test_node_limit_is_reported_incomplete():
    p = dlx.read(DATA / "pent6x10_sym.dlx")
    result = dlx.count(p, node_limit=5000)
    assert not result.complete
    assert "at least" in str(result) and "node limit" in str(result)
    assert int(result) == result.solutions  # a number, "at least" (issue 18.2)
    stream = dlx.solutions(p, node_limit=5000)
    list(stream)
    assert not stream.complete and stream.stats.nodes <= 5000


class FakeClock:
    """A stand-in for the ``time`` module of one module of ``dlx``: ``perf_counter`` and
    ``monotonic`` read a clock that moves ``step`` seconds at each reading (or by
    ``advance``), so that a time limit's stop depends on the code, not the machine."""

    def __init__(self, step: float = 0.0):
        self.now = 1000.0
        self.step = step

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now

    monotonic = perf_counter


def test_time_limit_stops_early(monkeypatch):
    """The time limit is checked before every kernel call: with a clock that moves 0.1 s
    at each reading, a 0.35 s limit stops the search after a few calls."""
    p = dlx.read(DATA / "pent6x10_all.dlx")
    dlx.count(p, node_limit=10, engine="dlx")  # the kernel compiled or loaded first
    monkeypatch.setattr(driver, "time", FakeClock(step=0.1))
    calls = []
    next_budget = driver.Driver.next_budget
    monkeypatch.setattr(
        driver.Driver, "next_budget", lambda self, m: calls.append(1) or next_budget(self, m)
    )
    result = dlx.count(p, time_limit=0.35, engine="dlx")
    assert not result.complete and result.stopped_by == "time limit 0.35 s"
    assert 2 <= len(calls) <= 3  # three readings a kernel call: 0.3 s of this clock


def test_limit_and_uniqueness():
    p = queens(8)
    assert len(list(dlx.solutions(p, limit=5))) == 5
    limited = dlx.count(p, limit=10)
    assert limited.solutions == 10 and not limited.complete
    assert not dlx.is_unique(p)
    assert dlx.is_unique(queens(1))
    assert dlx.first(queens(3)) is None
    assert queens_ok(8, dlx.first(p).names)


def test_progress_grows_to_one(capsys, paused_search):
    p = dlx.read(DATA / "pent4x15_sym.dlx")
    search = paused_search(p, budget=2000)
    fractions = []
    while search.run() == kernel.PAUSED:
        fractions.append(search.fraction())
    assert len(fractions) > 5
    assert all(0 <= a <= b <= 1 for a, b in zip(fractions, fractions[1:], strict=False))
    assert search.fraction() == 1.0
    dlx.count(p, progress=True)
    err = capsys.readouterr().err
    assert "100.0%" in err and "368 solutions" in err


def test_ctrl_c_stops_at_the_next_step_and_problem_survives(monkeypatch):
    """A Ctrl-C during a search is raised before the next kernel call (the kernel runs
    in short budgets), and the problem is searched again from scratch afterwards."""
    import _thread

    p = dlx.read(DATA / "pent6x10_all.dlx")
    dlx.count(p, node_limit=1000)  # compile first
    calls = []
    next_budget = driver.Driver.next_budget

    def interrupted_at_the_third(self, max_solutions):
        calls.append(1)
        if len(calls) == 3:
            _thread.interrupt_main()  # as Ctrl-C does, between two kernel calls
        return next_budget(self, max_solutions)

    monkeypatch.setattr(driver.Driver, "next_budget", interrupted_at_the_third)
    with pytest.raises(KeyboardInterrupt):
        dlx.count(p, engine="dlx")
    assert len(calls) <= 4  # at most the call under way ends
    monkeypatch.undo()
    assert dlx.count(dlx.read(DATA / "pent3x20_sym.dlx")).solutions == 2
    assert dlx.count(p, node_limit=100).stats.nodes == 100


def test_no_jit_pure_python_agrees(tmp_path):
    """The kernel's Python source gives the same answers with numba switched off."""
    import os
    import subprocess
    import sys

    code = (
        "import sys; sys.path.insert(0, 'tests'); import dlx; from boards import queens;"
        "print(dlx.count(queens(6)).solutions, len(list(dlx.solutions(queens(5)))))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["4", "10"]
