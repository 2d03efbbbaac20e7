"""A stopped checkpointed count keeps what its tasks finished: each stopped task says
where it stopped (its frontier), the checkpoint keeps the count before it, and a rerun
searches only what comes after, to the exact count."""

from __future__ import annotations

import os
import re
import signal

import pytest
from shared import DATA, EXPECTED, ctrl_c_at_first_pause, load, records
from test_stopping import ended, start

import dlx
from dlx.parallel.run import _parallel_run

ENGINES = ("dlx", "bitset", "tight")


def count_in_steps(name: str, engine: str, workers: int, steps: int, path, tasks=4):
    """Count ``name`` with a checkpoint, stopped by a node limit (a ``steps``-th of the
    nodes of the whole count) again and again until it is done; the count and the
    number of runs."""
    nodes = dlx.count(load(name), engine=engine).stats.nodes
    node_limit = nodes // steps + 1
    for runs in range(1, 50 * steps):
        parallel = dlx.Parallel(workers=workers, checkpoint=path, tasks=tasks)
        count = dlx.count(load(name), engine=engine, node_limit=node_limit, parallel=parallel)
        if count.complete:
            return int(count), runs
    raise AssertionError("the count never ended")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_count_stopped_inside_its_tasks_goes_on_to_the_exact_count(tmp_path, engine):
    """scott_sym: 65 (data/dlx/EXPECTED.tsv, Knuth's 65 placements of Scott's puzzle
    with the 2x2 square's symmetry broken), counted a sixth of its nodes at a time, in
    one task."""
    path = tmp_path / "run.ckpt"
    total, runs = count_in_steps("scott_sym", engine, 1, 6, path, tasks=1)
    assert total == EXPECTED["scott_sym"] == 65
    assert runs > 3
    kept = records(path)
    assert any("partial" in r for r in kept)  # stopped inside a task, and kept that
    assert [r["task"] for r in kept if "task" in r] == [0]


@pytest.mark.parametrize("engine", ENGINES)
def test_stops_inside_the_tasks_of_a_pool_add_up_to_the_exact_count(tmp_path, engine):
    """pent4x15_sym: 368 (data/dlx/EXPECTED.tsv, the 4x15 pentomino tilings up to
    symmetry), on two workers, each run stopped by a node limit."""
    path = tmp_path / "run.ckpt"
    total, runs = count_in_steps("pent4x15_sym", engine, 2, 4, path)
    assert total == EXPECTED["pent4x15_sym"] == 368
    assert runs > 2
    assert any("partial" in r for r in records(path))


def test_a_stop_that_leaves_a_task_untouched_records_nothing_for_it(tmp_path):
    path = tmp_path / "run.ckpt"
    parallel = dlx.Parallel(workers=1, checkpoint=path, tasks=4)
    dlx.count(load("scott_sym"), engine="dlx", node_limit=200, parallel=parallel)
    partial = [r for r in records(path) if "partial" in r]
    assert len(partial) == 1
    assert partial[0]["frontier"][: len(partial[0]["path"])] == partial[0]["path"]
    assert len(partial[0]["frontier"]) > len(partial[0]["path"])


def test_a_checkpoint_cut_inside_a_partial_record_goes_on(tmp_path):
    """As a kill -9 during the write leaves it: the half line is dropped, and the
    task goes on from its earlier record (scott_sym: 65, as above)."""
    path = tmp_path / "run.ckpt"
    for _ in range(3):
        parallel = dlx.Parallel(workers=1, checkpoint=path, tasks=1)
        dlx.count(load("scott_sym"), engine="dlx", node_limit=300, parallel=parallel)
    text = path.read_bytes()
    last = text.rstrip(b"\n").rsplit(b"\n", 1)[1]
    assert b'"partial"' in last
    path.write_bytes(text[: len(text) - len(last) // 2])
    total, _ = count_in_steps("scott_sym", "dlx", 1, 6, path, tasks=1)
    assert total == EXPECTED["scott_sym"]


def test_a_resumed_bar_starts_at_the_saved_share(tmp_path, monkeypatch):
    """The bar of a rerun starts where the stopped tasks' frontiers say they were."""
    from dlx.driver import results

    starts = []
    real = results.Progress.__init__

    def noting(self, enabled, desc, initial=0.0, **kw):
        starts.append(initial)
        real(self, False, desc, initial=initial, **kw)

    monkeypatch.setattr(results.Progress, "__init__", noting)
    path = tmp_path / "run.ckpt"
    first = _parallel_run(load("scott_sym"), workers=1, checkpoint=path, tasks=1, node_limit=600)
    assert not first.count.complete
    (partial,) = [r for r in records(path) if "partial" in r]
    _parallel_run(load("scott_sym"), workers=1, checkpoint=path, tasks=1, node_limit=1)
    tasks = first.split.tasks
    share = tasks[partial["partial"]].weight * partial["fraction"] / sum(t.weight for t in tasks)
    assert 0 < share < 1
    assert starts[-1] == pytest.approx(share)


def test_a_checkpoint_without_partial_records_still_goes_on(tmp_path):
    path = tmp_path / "run.ckpt"
    dlx.count(load("scott_sym"), parallel=dlx.Parallel(workers=1, checkpoint=path, tasks=4))
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:3]) + "\n")  # the header and two finished tasks
    count = dlx.count(load("scott_sym"), parallel=dlx.Parallel(workers=1, checkpoint=path))
    assert int(count) == EXPECTED["scott_sym"] and count.complete


def wait_for_some_progress(process) -> str:
    """What ``process`` (with a progress bar) wrote on stderr up to a bar above 0%:
    its running task has done some of its work."""
    fd = process.stderr.fileno()
    seen = b""
    while re.search(rb"[1-9][0-9]*%", seen) is None:
        byte = os.read(fd, 1)
        if not byte:
            break
        seen += byte
    return seen.decode(errors="replace")


@pytest.mark.slow
def test_sigterm_keeps_the_running_tasks_finished_part(tmp_path):
    """pent6x10_all: 9356 (data/dlx/EXPECTED.tsv, 4 x 2339 pentomino tilings of 6x10),
    in one task, stopped by SIGTERM once the bar says it has begun."""
    path = tmp_path / "run.ckpt"
    args = ("--count", "--workers", "2", "--tasks", "1", "--checkpoint", str(path))
    process = start(str(DATA / "pent6x10_all.dlx"), *args, progress=True)
    before = wait_for_some_progress(process)
    process.send_signal(signal.SIGTERM)
    _, err = ended(process)
    assert process.returncode == 130, before + err
    (partial,) = records(path)
    assert partial["partial"] == 0 and partial["solutions"] > 0
    parallel = dlx.Parallel(workers=2, checkpoint=path, tasks=1)
    count = dlx.count(load("pent6x10_all"), engine="dlx", parallel=parallel)
    assert int(count) == EXPECTED["pent6x10_all"] and count.complete


@pytest.mark.slow
def test_a_count_killed_midway_goes_on_to_the_exact_count(tmp_path):
    """kill -9 leaves what was written (pent6x10_all: 9356, as above); a stopped run's
    partial line, and the rerun's own stop, come before it."""
    path = tmp_path / "run.ckpt"
    args = ("--count", "--workers", "2", "--tasks", "1", "--checkpoint", str(path))
    for stop in (signal.SIGTERM, signal.SIGKILL):
        process = start(str(DATA / "pent6x10_all.dlx"), *args, progress=True)
        wait_for_some_progress(process)
        process.send_signal(stop)
        ended(process)
    assert [r["partial"] for r in records(path)] == [0]
    parallel = dlx.Parallel(workers=2, checkpoint=path, tasks=1)
    count = dlx.count(load("pent6x10_all"), engine="dlx", parallel=parallel)
    assert int(count) == EXPECTED["pent6x10_all"] and count.complete


def test_ctrl_c_with_one_worker_keeps_the_running_tasks_finished_part(tmp_path):
    """pent6x10_all: 9356 (data/dlx/EXPECTED.tsv, 4 x 2339 pentomino tilings of 6x10),
    in one task run in the command's own process (one worker), Ctrl-C sent once the
    bar says the task has begun: its finished part is kept (a partial record), and a
    rerun goes on to the exact count. (The symmetry-broken file is too short: its first
    reported share can be most of it, and a quiet machine ends the rest before the
    signal lands.)"""
    path = tmp_path / "run.ckpt"
    args = ("--count", "--workers", "1", "--tasks", "1", "--checkpoint", str(path))
    process = start(str(DATA / "pent6x10_all.dlx"), *args, progress=True)
    before = wait_for_some_progress(process)
    process.send_signal(signal.SIGINT)
    _, err = ended(process)
    assert process.returncode == 130, before + err
    assert err.strip().splitlines()[-1].endswith(f"(checkpoint saved to {path})")
    (partial,) = records(path)
    assert partial["partial"] == 0 and partial["solutions"] > 0
    parallel = dlx.Parallel(workers=1, checkpoint=path, tasks=1)
    count = dlx.count(load("pent6x10_all"), engine="dlx", parallel=parallel)
    assert int(count) == EXPECTED["pent6x10_all"] == 9356 and count.complete


def test_ctrl_c_in_a_python_count_keeps_the_running_tasks_finished_part(tmp_path, monkeypatch):
    """pent4x15_sym: 368 (data/dlx/EXPECTED.tsv, as above), in one task run in this
    process, Ctrl-C at the search's first pause: ``Interrupted`` names the checkpoint,
    which keeps the nodes searched before the pause, and a rerun goes on from there."""
    sent = ctrl_c_at_first_pause(monkeypatch)
    path = tmp_path / "run.ckpt"
    parallel = dlx.Parallel(workers=1, checkpoint=path, tasks=1)
    with pytest.raises(dlx.Interrupted) as stop:
        dlx.count(load("pent4x15_sym"), engine="dlx", parallel=parallel)
    assert stop.value.checkpoint == str(path) and stop.value.solutions > 0
    (partial,) = records(path)
    assert partial["partial"] == 0 and partial["nodes"] == sent[0] > 0
    monkeypatch.undo()
    count = dlx.count(load("pent4x15_sym"), engine="dlx", parallel=parallel)
    assert int(count) == EXPECTED["pent4x15_sym"] == 368 and count.complete
