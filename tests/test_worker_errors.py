"""Workers that cannot run the tasks give one line, not a traceback."""

from __future__ import annotations

import socket
import threading

import pytest
import runners
from shared import DATA, load

import dlx
from dlx.cli import main


def test_workers_that_keep_dying_give_up_with_one_line():
    with pytest.raises(dlx.WorkerError, match="died 6 times"):
        crashing = dlx.Parallel(task_runner=runners.always_crash)
        dlx.count(load("pent3x20_sym"), workers=2, parallel=crashing)


def test_cli_says_so_in_one_line(capsys, monkeypatch):
    monkeypatch.setattr(dlx.workers, "CONNECT_SECONDS", 1)
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
                dlx.count(load("pent3x20_sym"), client=client)
    finally:
        cluster.close()
