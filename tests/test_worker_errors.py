"""Workers that cannot run the tasks give one line, not a traceback."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading

import pytest
import runners
from shared import DATA, load, watchdog

import dlx
from dlx.cli import main

ROOT = DATA.parent.parent


def test_workers_that_keep_dying_give_up_with_one_line():
    with pytest.raises(dlx.WorkerError, match="died 6 times"):
        crashing = dlx.Parallel(workers=2, task_runner=runners.always_crash)
        dlx.count(load("pent3x20_sym"), parallel=crashing)


def test_cli_says_so_in_one_line(capsys, monkeypatch):
    pytest.importorskip("dask.distributed")  # without Dask the command says that instead
    monkeypatch.setattr(dlx.parallel.workers, "CONNECT_SECONDS", 1)
    with socket.socket() as server:  # a port that accepts and never speaks Dask
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        held = []
        threading.Thread(target=lambda: held.append(server.accept()), daemon=True).start()
        args = [str(DATA / "scott_sym.dlx"), "--count", "--dask", f"tcp://127.0.0.1:{port}"]
        assert main([*args, "--no-progress"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith(f"error: no Dask scheduler answered at tcp://127.0.0.1:{port}")


def test_a_scheduler_without_workers_is_named():
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None)
    try:
        with distributed.Client(cluster) as client:
            with pytest.raises(dlx.WorkerError, match="has no workers"):
                dlx.count(load("pent3x20_sym"), parallel=dlx.Parallel(client=client))
    finally:
        cluster.close()


SCHEDULER = """
import time
from dask.distributed import LocalCluster
cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                       dashboard_address=None, scheduler_kwargs={"protocol": "tcp"})
print(cluster.scheduler_address, flush=True)
time.sleep(300)
"""


def test_a_scheduler_dying_mid_run_is_one_line():
    """The scheduler (with its worker) killed while a count runs on it: the count stops
    with one line and exit status 1, no traceback, no hang."""
    pytest.importorskip("dask.distributed")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    scheduler = subprocess.Popen(
        [sys.executable, "-c", SCHEDULER], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        with watchdog(scheduler):
            address = scheduler.stdout.readline().strip()
        command = [sys.executable, "-m", "dlx", str(DATA / "pent6x10_all.dlx"), "--count"]
        child = subprocess.Popen(
            [*command, "--dask", address, "--tasks", "400", "--progress"],
            cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=0,
        )  # fmt: skip
        seen = ""
        with watchdog(child, scheduler):
            while not re.search(r"\b[1-9]\d* solutions$", seen):  # tasks are finishing
                seen += child.stderr.read(1) or pytest.fail(f"no progress shown: {seen!r}")
            scheduler.kill()
            err = child.stderr.read()
        assert child.wait(timeout=60) == 1, err
    finally:
        scheduler.kill()
        scheduler.wait()
    assert "Traceback" not in err
    last = re.split(r"[\r\n]", err.strip())[-1]
    assert last.startswith(f"error: the Dask cluster at {address} lost a task"), err
    assert child.stdout.read() == ""  # no count printed as if it were one
