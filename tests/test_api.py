"""The public calls decide serial or parallel, and which engine, in one place."""

from __future__ import annotations

import subprocess
import sys

import pytest
from boards import queens
from shared import DATA, EXPECTED, load

import dlx
from dlx import engines
from dlx.options import default_workers, resolve_workers

ROOT = DATA.parent.parent


def test_workers_one_with_split_settings_is_refused_not_parallel():
    p = queens(6)
    with pytest.raises(ValueError, match="tasks= split the search"):
        dlx.count(p, workers=1, tasks=8)
    with pytest.raises(ValueError, match="split_depth="):
        dlx.solutions(p, split_depth=1)
    inline = dlx.count(p, parallel=dlx.Parallel(tasks=8))  # asked for: split, one process
    assert inline.complete and inline.solutions == 4 and inline.tasks >= 1
    with pytest.raises(ValueError, match="inside parallel="):
        dlx.count(p, parallel=dlx.Parallel(tasks=8), split_depth=2)


def test_workers_has_one_meaning():
    assert resolve_workers(0) == resolve_workers(None) == default_workers()
    assert resolve_workers(3) == 3
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="workers must be an integer >= 0"):
            resolve_workers(bad)
    assert dlx.count(queens(6), workers=0).solutions == 4


def test_engines_by_name():
    p = queens(5)
    assert dlx.count(p, engine="dlx") == dlx.count(p, engine="auto")
    assert dlx.count(p, engine="bitset") == dlx.count(p, engine="dlx")
    with pytest.raises(ValueError, match="engine 'nope'"):
        dlx.count(p, engine="nope")
    with pytest.raises(ValueError, match="engine 'nope'"):
        dlx.solutions(p, engine="nope", workers=2)
    search = engines.make_search(p, "dlx", budget=5)
    assert isinstance(search, dlx.Search)
    assert isinstance(engines.make_memo(p, "dlx"), dlx.Memo)
    coloured = dlx.Problem(primary=["a"], secondary=["x"])
    coloured.add_option(["a", "x:red"])
    assert engines.make_memo(coloured, "dlx") is None  # colours: the memo would not be exact


def test_counts_equal_across_modes(expected):
    p = load("scott_sym")
    serial = dlx.count(p)
    assert serial.solutions == expected["scott_sym"] == EXPECTED["scott_sym"]
    assert dlx.count(p, workers=2) == serial
    assert dlx.count(p, parallel=dlx.Parallel(split_depth=1)) == serial


def test_import_does_not_load_numba():
    code = "import sys, dlx; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "False", out.stderr
