"""Fixtures the tests share (helpers to import are in ``shared.py``, boards in
``boards.py``, hypothesis strategies in ``strategies.py``)."""

from __future__ import annotations

import os
import signal

import pytest
from shared import EXPECTED, load

import dlx

# The suite runs as from a terminal, whatever started it: a shell that runs it in the
# background (`... &` without job control) ignores Ctrl-C; some CI runners block SIGINT
# and SIGTERM or ignore SIGCHLD (then no child's exit status can be read). Children
# inherit all of that, and the tests of stopping and of worker pools need it undone.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGCHLD})
for _signum, _usual in [
    (signal.SIGINT, signal.default_int_handler),
    (signal.SIGTERM, signal.SIG_DFL),
    (signal.SIGCHLD, signal.SIG_DFL),
]:
    if signal.getsignal(_signum) is signal.SIG_IGN:
        signal.signal(_signum, _usual)


# Progress bars into a pipe are drawn at every pause, as on a terminal: the tests of
# stopping read the count so far from them (users' logs get LOG_SECONDS between draws).
os.environ.setdefault("DLX_PROGRESS_SECONDS", "0")


@pytest.fixture(scope="session")
def expected() -> dict[str, int]:
    """Known counts of the data files, by stem (data/dlx/EXPECTED.tsv)."""
    return EXPECTED


@pytest.fixture
def paused_search():
    """A factory of searches that pause every ``budget`` nodes (default 997), so that a
    test sees the state survive many resumptions: ``paused_search(problem, **keywords)``."""

    def make(problem: dlx.Problem | str, budget: int = 997, **keywords):
        if isinstance(problem, str):
            problem = load(problem)
        return dlx.Search(problem, budget=budget, **keywords)

    return make


@pytest.fixture(scope="module")
def dask_client():
    """A small in-process Dask cluster (the tests that use it skip without
    dask.distributed)."""
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()
