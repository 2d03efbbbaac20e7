"""Parallel counting and streaming (dlx.parallel.run): equal to the serial search, whatever
the split, the number of workers, dead workers, kills and restarts from a checkpoint."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import runners
from boards import dominoes
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import problems

import dlx
from dlx.cli import main
from dlx.dlxfile import format_option
from dlx.parallel.run import CheckpointError, run_count, split
from dlx.verify import check, naive_solutions

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "dlx"
EXPECTED = {
    name: int(n)
    for name, n in (line.split("\t") for line in (DATA / "EXPECTED.tsv").read_text().splitlines())
}
# the files cheap enough to count many times (each well under a second)
CHEAP = [
    "pent3x20_all",
    "pent3x20_sym",
    "scott_sym",
    "sudoku_escargot",
    "sudoku_eastermonster",
    "sudokuk_escargot",
]
# (workers, split options): several worker counts, each with another split
SETTINGS = [
    (1, {"split_depth": 2}),
    (2, {}),
    (2, {"split_depth": 0}),
    (2, {"split_depth": 1}),
    (3, {"tasks": 7}),
    (3, {"split_depth": 3}),
]


TWO = dlx.Parallel(workers=2)


def load(name: str) -> dlx.Problem:
    """A problem from data/dlx."""
    return dlx.read(DATA / f"{name}.dlx")


@pytest.fixture(scope="module")
def serial_counts():
    """Serial counts of the cheap files, checked against EXPECTED.tsv."""
    counts = {}
    for name in CHEAP:
        result = dlx.count(load(name))
        assert result.complete and result.solutions == EXPECTED[name]
        counts[name] = result.solutions
    return counts


@pytest.mark.parametrize("name", CHEAP)
def test_parallel_count_equals_serial(name, serial_counts):
    problem = load(name)
    for workers, options in SETTINGS:
        run = run_count(problem, dlx.Parallel(workers=workers, **options))
        assert run.count.complete, (workers, options)
        assert run.count.solutions == serial_counts[name], (workers, options)
        assert run.restarts == 0
        assert sum(r.cache_misses for r in run.results) == 0  # no worker compiled
        if workers > 1:  # in the workers (how they share the tasks depends on the load)
            assert os.getpid() not in {r.pid for r in run.results}


def test_workers_keep_a_memo_across_their_tasks():
    """The 12,988,816 domino tilings of 8x8 in a few thousand nodes: each worker's
    tasks share one memo (a plain search would enter a node per tiling at least). Each
    kernel by name: ``auto`` picks one by timing, so its node count is not fixed."""
    for engine, most in (("dlx", 20000), ("tight", 20000), ("bitset", 200000)):
        run = run_count(dominoes(8, 8), dlx.Parallel(workers=2, tasks=64), engine=engine)
        assert run.count.complete and run.count.solutions == 12988816, engine
        assert len(run.split.tasks) >= 64
        assert sum(r.nodes for r in run.results) < most, engine


def test_split_covers_the_tree():
    problem = load("pent3x20_all")
    for options in ({"tasks": 50}, {"split_depth": 2}):
        s = split(problem, **options)
        weights = [t.weight for t in s.tasks]
        assert weights == sorted(weights, reverse=True)
        assert [t.index for t in s.tasks] == list(range(len(s.tasks)))
        assert len({t.path for t in s.tasks}) == len(s.tasks)
        # every branch is an option here, so the weights add up to the whole tree
        assert sum(weights) + s.settled_weight == pytest.approx(1.0)
    deep = split(problem, tasks=50)
    assert max(t.weight for t in deep.tasks) <= 1 / 50
    assert len({len(t.path) for t in deep.tasks}) > 1  # heavy subtrees split deeper


def test_solutions_stream_equals_serial():
    for name in ("scott_sym", "pent3x20_all"):
        problem = load(name)
        serial = [s.options for s in dlx.solutions(problem)]  # each kernel's own order
        for workers, options in ((2, {}), (3, {"split_depth": 1})):
            stream = dlx.solutions(problem, parallel=dlx.Parallel(workers=workers, **options))
            found = [s.options for s in stream]
            for options_chosen in found:
                check(problem, options_chosen)
            assert len(found) == len(serial) == EXPECTED[name]
            assert {frozenset(s) for s in found} == {frozenset(s) for s in serial}
            assert stream.complete and stream.stats.solutions == len(serial)


def test_solutions_stream_limit():
    problem = load("scott_sym")
    stream = dlx.solutions(problem, 5, parallel=dlx.Parallel(workers=2))
    found = list(stream)
    assert len(found) == 5 and not stream.complete
    assert stream.stopped_by == "solution limit 5"
    serial = {frozenset(s.options) for s in dlx.solutions(problem)}  # (any kernel's order)
    assert {frozenset(s.options) for s in found} <= serial


def test_solutions_above_the_split_are_streamed():
    # 3 of the 4 solutions are found by the split itself (two levels, tasks=1000)
    p = dlx.Problem(primary=["a", "b", "c"])
    for option in (["a", "b", "c"], ["a"], ["b"], ["c"], ["a", "b"], ["b", "c"]):
        p.add_option(option)
    serial = {frozenset(s.options) for s in dlx.solutions(p)}
    assert len(serial) == 4
    for options in ({"tasks": 1000}, {"split_depth": 1}, {"split_depth": 2}):
        parallel = dlx.Parallel(workers=2, **options)
        found = [s.options for s in dlx.solutions(p, parallel=parallel)]
        assert len(found) == 4 and set(map(frozenset, found)) == serial
        assert dlx.count(p, parallel=parallel).solutions == 4


def test_forced_options_and_limit():
    problem = load("pent3x20_all")
    first = dlx.first(problem)
    forced = first.options[:1]
    serial = dlx.count(problem, forced=forced)
    assert serial.complete and 0 < serial.solutions < EXPECTED["pent3x20_all"]
    parallel = dlx.count(problem, forced=forced, parallel=dlx.Parallel(workers=2, split_depth=1))
    assert parallel == serial
    limited = dlx.count(load("scott_sym"), limit=10, parallel=TWO)
    assert not limited.complete and limited.solutions == 10
    assert limited.stopped_by == "solution limit 10"
    assert "at least 10" in str(limited)
    everything = dlx.count(load("scott_sym"), limit=1000, parallel=TWO)
    assert everything.complete and everything.solutions == EXPECTED["scott_sym"]


def test_node_limit_stops_early():
    parallel = dlx.Parallel(workers=2, tasks=100)
    result = dlx.count(load("pent3x20_all"), node_limit=1000, parallel=parallel)
    assert not result.complete and result.stopped_by == "node limit 1000"


@pytest.mark.slow
def test_spawned_workers_load_the_kernel_from_the_cache():
    problem = load("pent3x20_sym")
    run = run_count(
        problem, dlx.Parallel(workers=2, mp_context=multiprocessing.get_context("spawn"))
    )
    assert run.count.solutions == EXPECTED["pent3x20_sym"] and run.count.complete
    assert sum(r.cache_misses for r in run.results) == 0


def test_dead_worker_is_replaced(tmp_path):
    problem = load("scott_sym")
    marker = tmp_path / "crashed"
    runner = runners.CrashOnce(3, str(marker))
    run = run_count(problem, dlx.Parallel(workers=2, split_depth=2, task_runner=runner))
    assert marker.exists()  # a worker did die on task 3 ...
    assert run.restarts == 1  # ... the pool was rebuilt ...
    assert run.count.complete and run.count.solutions == EXPECTED["scott_sym"]  # ... exact
    assert sorted(r.index for r in run.results) == list(range(len(run.split.tasks)))


def _task_lines(path: Path) -> list[dict]:
    """The task records of a checkpoint file (not a half-written last line)."""
    return [json.loads(line) for line in path.read_text().split("\n")[1:-1]]


def test_checkpoint_resume(tmp_path):
    problem = load("scott_sym")
    path = tmp_path / "scott.ckpt"
    first = run_count(problem, dlx.Parallel(workers=2, tasks=40, checkpoint=path))
    assert first.count.solutions == EXPECTED["scott_sym"] and first.resumed == 0
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + len(first.split.tasks)
    # a rerun finds every task done and runs none
    again = run_count(problem, dlx.Parallel(workers=2, checkpoint=path))
    assert again.count.solutions == EXPECTED["scott_sym"] and again.count.complete
    assert again.resumed == len(first.split.tasks) and again.results == []
    # keep 5 tasks and a half-written line: the rest is rerun, the half line dropped
    path.write_text("\n".join(lines[:6]) + "\n" + lines[6][:17])
    resumed = run_count(problem, dlx.Parallel(workers=1, checkpoint=path))
    assert resumed.resumed == 5 and len(resumed.results) == len(first.split.tasks) - 5
    assert resumed.count.solutions == EXPECTED["scott_sym"] and resumed.count.complete
    indices = [r["task"] for r in _task_lines(path)]
    assert sorted(indices) == list(range(len(first.split.tasks)))


def test_bad_checkpoint_refused(tmp_path, capsys):
    path = tmp_path / "run.ckpt"
    dlx.count(load("scott_sym"), parallel=dlx.Parallel(workers=2, checkpoint=path))
    with pytest.raises(CheckpointError, match="different problem"):
        dlx.count(load("pent3x20_sym"), parallel=dlx.Parallel(workers=2, checkpoint=path))
    with pytest.raises(CheckpointError, match="different problem"):
        dlx.count(load("scott_sym"), forced=[0], parallel=dlx.Parallel(workers=2, checkpoint=path))
    with pytest.raises(CheckpointError, match="split"):
        dlx.count(load("scott_sym"), parallel=dlx.Parallel(workers=2, tasks=3, checkpoint=path))
    assert main([str(DATA / "pent3x20_sym.dlx"), "--count", "--checkpoint", str(path)]) == 2
    assert "different problem" in capsys.readouterr().err
    junk = tmp_path / "junk.ckpt"
    junk.write_text('{"hello": 1}\n')
    with pytest.raises(CheckpointError, match="not a dlx checkpoint"):
        dlx.count(load("scott_sym"), parallel=dlx.Parallel(workers=2, checkpoint=junk))


def test_cli_kill_and_resume(tmp_path):
    path = tmp_path / "scott.ckpt"
    command = [
        sys.executable,
        str(ROOT / "tests" / "runners.py"),  # python -m dlx, its tasks slowed down
        str(DATA / "scott_sym.dlx"),
        "--count",
        "--workers",
        "2",
        "--tasks",
        "30",
        "--checkpoint",
        str(path),
        "--no-progress",
    ]
    process = subprocess.Popen(command, cwd=ROOT, start_new_session=True, stdout=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and len(path.read_text().splitlines()) >= 6:
            break
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGKILL)  # the CLI and its workers, at once
    process.wait()
    assert process.returncode == -signal.SIGKILL
    done_before = {r["task"] for r in _task_lines(path)}
    assert len(done_before) >= 5
    with open(path, "a") as f:
        f.write('{"task": 99999, "solu')  # as if killed in the middle of a write
    rerun = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert int(rerun.stdout) == EXPECTED["scott_sym"]
    assert f"{len(done_before)} of" in rerun.stderr  # the summary says what was resumed
    indices = [r["task"] for r in _task_lines(path)]
    assert len(indices) == len(set(indices))  # the finished tasks were not run again
    assert done_before <= set(indices)
    header = json.loads(path.read_text().splitlines()[0])
    assert sorted(indices) == list(range(header["tasks"]))


def test_cli_parallel(capsys):
    name = "scott_sym"
    assert main([str(DATA / f"{name}.dlx"), "--count", "--workers", "2", "--no-progress"]) == 0
    assert int(capsys.readouterr().out) == EXPECTED[name]
    problem = load(name)
    lines = {format_option(problem, k): k for k in range(problem.n_options)}
    assert main([str(DATA / f"{name}.dlx"), "--workers", "0", "--no-progress"]) == 0
    blocks = capsys.readouterr().out.strip().split("\n\n")
    found = set()
    for block in blocks:
        options = tuple(lines[line] for line in block.splitlines())
        check(problem, options)
        found.add(frozenset(options))
    assert len(blocks) == len(found) == EXPECTED[name]
    assert main([str(DATA / f"{name}.dlx"), "--checkpoint", "x.ckpt"]) == 2
    assert main([str(DATA / f"{name}.dlx"), "--count", "--workers", "-1"]) == 2


def test_dask_count_and_stream(dask_client, capsys):
    problem = load("pent3x20_sym")
    result = dlx.count(problem, parallel=dlx.Parallel(client=dask_client))
    assert result.complete and result.solutions == EXPECTED["pent3x20_sym"]
    result = dlx.count(problem, parallel=dlx.Parallel(client=dask_client, split_depth=1))
    assert result.solutions == EXPECTED["pent3x20_sym"]
    found = [s.options for s in dlx.solutions(problem, parallel=dlx.Parallel(client=dask_client))]
    for options in found:
        check(problem, options)
    assert len(found) == EXPECTED["pent3x20_sym"]
    assert set(map(frozenset, found)) == {frozenset(s.options) for s in dlx.solutions(problem)}
    address = dask_client.scheduler.address
    file = str(DATA / "scott_sym.dlx")
    assert main([file, "--count", "--dask", address, "--no-progress"]) == 0
    assert int(capsys.readouterr().out) == EXPECTED["scott_sym"]


def test_dask_missing_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import fails
    with pytest.raises(ImportError, match="dask"):
        dlx.count(load("scott_sym"), parallel=dlx.Parallel(dask="tcp://127.0.0.1:1"))
    assert main([str(DATA / "scott_sym.dlx"), "--count", "--dask", "tcp://127.0.0.1:1"]) == 2
    assert "pip install" in capsys.readouterr().err


@settings(max_examples=60, deadline=None)
@given(problems(max_secondary=2, max_options=10), st.integers(0, 4), st.integers(1, 20))
def test_random_problems_split_like_serial(problem, depth, tasks):
    # MCC problems: a subproblem replays the tweaks and null choices of its prefix.
    # Compared with the serial search, solution for solution (see the exact-cover
    # test above for the independent checker).
    serial = sorted(s.options for s in dlx.solutions(problem))
    for options in ({"split_depth": depth}, {"tasks": tasks}):
        inline = dlx.Parallel(**options)  # the tasks one by one, in this process
        found = sorted(s.options for s in dlx.solutions(problem, parallel=inline))
        assert found == serial
        result = dlx.count(problem, parallel=inline)
        assert result.complete and result.solutions == len(serial)


@settings(max_examples=40, deadline=None)
@given(
    problems(bounds=False, max_secondary=2, max_options=10), st.integers(0, 4), st.integers(1, 20)
)
def test_random_colour_problems_against_the_naive_solver(problem, depth, tasks):
    expected = naive_solutions(problem)
    for options in ({"split_depth": depth}, {"tasks": tasks}):
        stream = dlx.solutions(problem, parallel=dlx.Parallel(**options))
        found = [frozenset(s.options) for s in stream]
        assert len(found) == len(expected) and set(found) == expected
