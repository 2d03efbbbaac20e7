"""Limits, progress and interruption of a search."""

from __future__ import annotations

from pathlib import Path

import pytest
from boards import queens, queens_ok
from shared import DATA

import dlx
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


def test_time_limit_stops_early():
    p = dlx.read(DATA / "pent6x10_all.dlx")
    result = dlx.count(p, time_limit=0.2, engine="dlx")  # (the bit kernels take 0.1 to 0.3 s)
    assert not result.complete and "time limit" in result.stopped_by
    assert result.stats.seconds < 2


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


def test_ctrl_c_stops_quickly_and_problem_survives():
    import _thread
    import threading
    import time

    p = dlx.read(DATA / "pent6x10_all.dlx")
    dlx.count(p, node_limit=1000)  # compile first
    timer = threading.Timer(0.3, _thread.interrupt_main)
    t0 = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        dlx.count(p)
    assert time.perf_counter() - t0 < 1.3
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
