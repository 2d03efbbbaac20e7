"""The first-compilation notice (``dlx.compiling``): said at once when numba's cache is
empty or stale, after a second otherwise, never when the kernel loads quickly."""

import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from dlx import compiling

ROOT = Path(__file__).resolve().parent.parent


def fake_dispatcher(index: dict):
    """Something shaped like a numba dispatcher whose cache index is ``index``."""
    cache_file = SimpleNamespace(_load_index=lambda: index)
    return SimpleNamespace(overloads={}, _cache=SimpleNamespace(_cache_file=cache_file))


@pytest.fixture
def fresh(monkeypatch):
    """No kernel warmed up yet in this process, as far as ``compiling`` knows."""
    monkeypatch.setattr(compiling, "_done", set())
    monkeypatch.setattr(compiling, "NOTICE_AFTER", 0.05)


def test_empty_cache_is_said_at_once(fresh, capsys):
    said_before = []
    compiling.warm(
        "search",
        fake_dispatcher({}),
        False,
        lambda: said_before.append(capsys.readouterr().err),
    )
    assert said_before[0].startswith("dlx: compiling the search kernel (first run only")
    assert "dlx: compiled in" in capsys.readouterr().err


def test_fresh_cache_quick_load_says_nothing(fresh, capsys):
    before = compiling.seconds()
    compiling.warm("search", fake_dispatcher({"key": "data"}), True, lambda: None)
    assert capsys.readouterr().err == ""
    assert compiling.seconds() >= before


def test_slow_warm_up_is_said_after_a_while(fresh, capsys):
    compiling.warm("batch", fake_dispatcher({"key": "data"}), True, lambda: time.sleep(0.3))
    err = capsys.readouterr().err
    assert "compiling the batch kernel for loop items" in err and "compiled in" in err


def test_once_per_kind(fresh):
    calls = []
    for _ in range(3):
        compiling.warm("search", fake_dispatcher({"k": 1}), False, lambda: calls.append(1))
    compiling.warm("search", fake_dispatcher({"k": 1}), True, lambda: calls.append(1))
    assert len(calls) == 2


def test_no_jit_says_nothing(fresh, capsys):
    compiling.warm("search", lambda *a: None, False, lambda: pytest.fail("ran"))
    assert capsys.readouterr().err == ""


@pytest.mark.slow
def test_first_run_in_an_empty_cache(tmp_path):
    """A real first run: the notice is the first thing on stderr, the answer is right."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    path = tmp_path / "p.txt"
    path.write_text("..\n..\n")
    argv = [sys.executable, "-m", "puzzles", "slitherlink", str(path), "--count"]
    run = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert run.stdout == "13\n"
    assert run.stderr.startswith("dlx: compiling the search kernel for loop items")
    again = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert "compiling" not in again.stderr


def test_warm_up_all_leaves_every_kind_ready(capsys):
    from dlx.kernels.links import kernel

    compiling.warm_up_all()
    assert len(kernel.search.signatures) >= 2 and len(kernel.search_batch.signatures) >= 2
    compiling.warm_up_all()  # once per process: nothing more to do or say


def test_parallel_count_leaves_compiling_out(monkeypatch):
    """The first warm-up (here a fake compilation of 1 s) counts neither in a parallel
    count's seconds nor against its time limit, as in a serial count."""
    import dlx

    def slow_first_warm_up(loop: bool) -> None:
        if not compiling._spent[1:]:  # the first call only
            time.sleep(1.0)
            compiling._spent[0] += 1.0
            compiling._spent.append(1.0)

    dlx.Search.warm_up(False)  # the real kernel loaded first: only the fake is slow
    monkeypatch.setattr(compiling, "_spent", [0.0])
    monkeypatch.setattr(dlx.Search, "warm_up", staticmethod(slow_first_warm_up))
    problem = dlx.Problem(primary=["a", "b", "c"])
    for option in (["a"], ["b"], ["c"], ["a", "b"], ["b", "c"]):
        problem.add_option(option)
    count = dlx.count(  # the dancing-links kernel: its warm-up is the fake one
        problem, parallel=dlx.Parallel(workers=1, tasks=4), time_limit=0.8, engine="dlx"
    )
    assert count == 3 and count.complete  # not cut by the 0.8 s limit
    assert compiling._spent[0] == 1.0 and count.stats.seconds < 0.8
