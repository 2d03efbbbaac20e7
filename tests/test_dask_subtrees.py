"""A stopped count on Dask keeps what its running tasks finished, as a pool's does: the
run asks every worker to stop its tasks (``dlx.parallel.dask_tasks``), each says where
it stopped, the checkpoint keeps the count before that, and a rerun goes on to the
exact count. A cluster that does not answer the stop costs it a bounded wait."""

from __future__ import annotations

import threading
import time

import pytest
from shared import EXPECTED, ctrl_c_at_first_pause, load, records

import dlx
from dlx.parallel import dask_tasks


def test_ctrl_c_on_dask_keeps_the_running_tasks_finished_part(dask_client, tmp_path, monkeypatch):
    """pent4x15_sym: 368 (data/dlx/EXPECTED.tsv, the 4x15 pentomino tilings up to
    symmetry), in one task on an in-process Dask worker, Ctrl-C at the search's first
    pause: ``Interrupted`` names the checkpoint, whose partial record keeps the nodes
    searched before the stop, and a rerun on Dask goes on to the exact count."""

    def until_asked_to_stop():  # the main thread, stopping, asks this task to stop
        for _ in range(6000):
            if dask_tasks.stop_asked():
                break
            time.sleep(0.01)

    sent = ctrl_c_at_first_pause(monkeypatch, until_asked_to_stop)
    path = tmp_path / "run.ckpt"
    parallel = dlx.Parallel(client=dask_client, checkpoint=path, tasks=1)
    with pytest.raises(dlx.Interrupted) as stop:
        dlx.count(load("pent4x15_sym"), engine="dlx", parallel=parallel)
    assert stop.value.checkpoint == str(path) and stop.value.solutions > 0
    (partial,) = records(path)
    assert partial["partial"] == 0 and partial["nodes"] >= sent[0] > 0
    assert partial["frontier"][: len(partial["path"])] == partial["path"]
    monkeypatch.undo()
    count = dlx.count(load("pent4x15_sym"), engine="dlx", parallel=parallel)
    assert int(count) == EXPECTED["pent4x15_sym"] == 368 and count.complete


def test_counts_stopped_by_node_limits_on_dask_add_up_to_the_exact_count(dask_client, tmp_path):
    """pent4x15_sym: 368 (as above), on Dask, each run stopped by a node limit (a
    quarter of the whole count's nodes) until it is done: the running tasks' finished
    parts are kept (partial records), and the runs add up to the count."""
    problem = load("pent4x15_sym")
    node_limit = dlx.count(problem, engine="dlx").stats.nodes // 4 + 1
    path = tmp_path / "run.ckpt"
    parallel = dlx.Parallel(client=dask_client, checkpoint=path, tasks=4)
    runs = 0
    while runs < 200:
        runs += 1
        count = dlx.count(problem, engine="dlx", node_limit=node_limit, parallel=parallel)
        if count.complete:
            break
    assert int(count) == EXPECTED["pent4x15_sym"] and count.complete
    assert runs > 2
    assert any("partial" in r for r in records(path))


class SilentCluster:
    """A client whose cluster never answers (a scheduler that died mid-call)."""

    def __init__(self):
        self.asked = threading.Event()

    def run(self, function, *args):
        self.asked.set()
        time.sleep(3600)


class LostCluster:
    """A client whose scheduler is gone."""

    def run(self, function, *args):
        raise OSError("Timed out trying to connect to tcp://127.0.0.1:1")


def test_a_stop_that_the_cluster_does_not_answer_waits_a_bounded_time():
    silent = SilentCluster()
    t0 = time.monotonic()
    assert dask_tasks.ask_to_stop(silent, "run", seconds=0.1) is None
    assert silent.asked.is_set() and time.monotonic() - t0 < 60  # not the hour it sleeps
    assert dask_tasks.ask_to_stop(LostCluster(), "run") is None


def test_a_stop_names_only_the_runs_own_running_tasks():
    """Two runs' tasks on one worker: stopping one names its task and stops only it."""
    seen = {}
    go_on = threading.Event()

    def task_runner(task, job):
        seen[task.index] = job
        go_on.wait(60)
        return dask_tasks.stop_asked()

    from dlx.parallel.split import Task

    results = {}
    threads = [
        threading.Thread(
            target=lambda t=token, i=index: results.update(
                {t: dask_tasks.run_task(task_runner, t, Task(i, (), 1.0), None)}
            )
        )
        for token, index in (("a", 3), ("b", 5))
    ]
    for thread in threads:
        thread.start()
    for _ in range(6000):
        if len(seen) == 2:
            break
        time.sleep(0.01)
    assert dask_tasks.stop_run("a") == [3]
    go_on.set()
    for thread in threads:
        thread.join()
    assert results == {"a": True, "b": False}
    assert dask_tasks.stop_run("b") == []  # nothing of it runs any more


def test_a_task_whose_result_was_lost_and_computed_again_gives_its_result(dask_client):
    """A Dask future whose status is not "finished" when its result came (the worker
    holding it died meanwhile): the mirror waits for the result again, instead of
    failing as ``client.get_executor()``'s futures do."""

    class Relost:
        """A finished Dask future whose result must be fetched twice."""

        status = "lost"

        def result(self, timeout=None):
            self.status = "finished"
            return 42

    from concurrent.futures import Future

    mirror = Future()
    dask_tasks._pass_on(mirror, Relost())
    assert mirror.result(timeout=5) == 42
    executor = dask_tasks.DaskExecutor(dask_client)
    assert executor.submit(sum, [1, 2, 3]).result(timeout=60) == 6
    slow = executor.submit(time.sleep, 30)
    assert slow.cancel()
    executor.shutdown(wait=False, cancel_futures=True)
