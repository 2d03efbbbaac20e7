"""The public calls decide serial or parallel, and which engine, in one place."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
from boards import queens
from shared import DATA, EXPECTED, load

import dlx
from dlx import engines
from dlx.options import default_workers, resolve_workers

ROOT = DATA.parent.parent


def test_parallel_is_said_one_way():
    """``parallel=dlx.Parallel(...)`` asks for a split; ``workers=1`` runs its tasks in
    this process, ``0`` (the default) on every core. (Queens 10 for the tasks: a count
    that ends in its kernel's first slice, as queens 6 does, is counted there.)"""
    p = queens(6)
    inline = dlx.count(queens(10), parallel=dlx.Parallel(workers=1, tasks=8))
    assert inline.complete and inline.solutions == 724 and inline.tasks >= 1  # A000170
    assert dlx.count(p, parallel=dlx.Parallel(workers=2, split_depth=1)) == 4
    assert dlx.Parallel().workers == 0 and repr(dlx.Parallel(tasks=8)) == "Parallel(tasks=8)"
    stream = dlx.solutions(p, parallel=dlx.Parallel(workers=1, split_depth=1))
    found = set()
    for solution in stream:
        dlx.check(p, solution.options)
        found.add(frozenset(solution.options))
    assert found == {frozenset(s.options) for s in dlx.solutions(p)} and len(found) == 4
    with pytest.raises(TypeError, match="parallel must be a dlx.Parallel"):
        dlx.count(p, parallel=4)
    with pytest.raises(TypeError, match="unexpected keyword argument 'wokers'"):
        dlx.count(p, wokers=2)


def test_loose_parallel_keywords_still_work_with_a_warning():
    """The one test of the deprecated spellings (the suite fails on any other use:
    pyproject.toml's filterwarnings)."""
    p = queens(6)
    with pytest.warns(DeprecationWarning, match=r"parallel=dlx.Parallel\(tasks=..., workers=...\)"):
        assert dlx.count(p, workers=2, tasks=8) == 4
    with (
        pytest.warns(DeprecationWarning),
        pytest.raises(ValueError, match="tasks= split the search"),
    ):
        dlx.count(p, workers=1, tasks=8)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="split_depth="):
        dlx.solutions(p, split_depth=1)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="inside parallel="):
        dlx.count(p, parallel=dlx.Parallel(tasks=8), split_depth=2)
    with pytest.warns(DeprecationWarning):  # workers beside parallel= sets its workers
        assert dlx.count(p, workers=1, parallel=dlx.Parallel(tasks=8)) == 4
    with pytest.warns(DeprecationWarning):  # None, as before: every core
        assert dlx.count(p, workers=None).solutions == 4
    with pytest.warns(DeprecationWarning, match="private"):
        from dlx.parallel import parallel_run
    assert parallel_run(p, workers=1, split_depth=1).count == 4
    module = importlib.import_module("dlx.parallel")
    assert not hasattr(module, "parallel_count") and not hasattr(module, "parallel_solutions")


def test_workers_has_one_meaning():
    assert resolve_workers(0) == default_workers()
    assert resolve_workers(3) == 3
    for bad in (-1, 1.5, True, None):
        with pytest.raises(ValueError, match="workers must be an integer >= 0"):
            dlx.Parallel(workers=bad)
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match="workers must be an integer >= 0"):
            resolve_workers(bad)
    assert dlx.count(queens(6), parallel=dlx.Parallel(workers=0)).solutions == 4


def test_engines_by_name():
    p = queens(5)
    assert dlx.count(p, engine="dlx") == dlx.count(p, engine="auto")
    assert dlx.count(p, engine="bitset") == dlx.count(p, engine="dlx")
    with pytest.raises(ValueError, match="engine 'nope'"):
        dlx.count(p, engine="nope")
    with pytest.raises(ValueError, match="engine 'nope'"):
        dlx.solutions(p, engine="nope", parallel=dlx.Parallel(workers=2))
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
    assert dlx.count(p, parallel=dlx.Parallel(workers=2)) == serial
    assert dlx.count(p, parallel=dlx.Parallel(workers=1, split_depth=1)) == serial


def test_import_does_not_load_numba():
    code = "import sys, dlx; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "False", out.stderr
