"""Tasks on Dask workers that a stopped run can reach: each carries its run's token.

A stopped count asks its running tasks to say where they stopped (their frontier,
``dlx.parallel.frontier``), so that a checkpoint keeps their finished part. A process
pool's workers share an event for that; Dask's workers do not share anything with the
run, so the run sends every worker a message (``client.run``) naming its token, and
each of its tasks, which looks at the token at its pauses, stops at the next one. The
answer names the run's tasks running on each worker; the run cancels the others
(queued ones have done nothing). The call is abandoned after ``CALL_SECONDS``: a dead
scheduler costs a stop no more than that, and its tasks are then simply lost, as
tasks cut short always were (a lost cluster is asked nothing more, not even to cancel).

``DaskExecutor`` submits the tasks: each a ``concurrent.futures.Future`` that takes
its result from Dask's once that is done, through ``Future.result``, which waits
again when the worker holding the result died meanwhile and it is computed again
(``client.get_executor()``'s futures read the status at that moment and fail with a
TypeError: a worker killed at the wrong time failed the whole count).
"""

from __future__ import annotations

import threading
import weakref
from concurrent.futures import Future
from functools import partial

CALL_SECONDS = 2.0  # a stop's call to the cluster is abandoned after this long
RESULT_SECONDS = 1.0  # a task's result is awaited this long at a time

_STOPPED: set[str] = set()  # in a worker: the tokens of the runs asked to stop
_RUNNING: dict[str, set[int]] = {}  # in a worker: each run's tasks running now
_LOCK = threading.Lock()  # guards both (a worker may run tasks in several threads)
_CURRENT = threading.local()  # in a worker's thread: the token of its task's run


def stop_asked() -> bool:
    """Whether the run of the Dask task running in this thread was asked to stop."""
    token = getattr(_CURRENT, "token", None)
    return token is not None and token in _STOPPED


def run_task(task_runner, token: str, task, job):
    """On a Dask worker: ``task_runner(task, job)`` as a task of the run ``token``,
    which stops at its next pause (``stop_asked``) once that run asks it to."""
    _CURRENT.token = token
    with _LOCK:
        _RUNNING.setdefault(token, set()).add(task.index)
    try:
        return task_runner(task, job)
    finally:
        with _LOCK:
            running = _RUNNING.get(token, set())
            running.discard(task.index)
            if not running:
                _RUNNING.pop(token, None)
        _CURRENT.token = None


def stop_run(token: str) -> list[int]:
    """On a Dask worker (through ``client.run``): ask the run ``token``'s tasks to stop;
    the indices of its tasks running here."""
    with _LOCK:
        _STOPPED.add(token)
        return sorted(_RUNNING.get(token, ()))


def ask_to_stop(client, token: str, seconds: float = CALL_SECONDS) -> set[int] | None:
    """Ask every worker of ``client``'s cluster to stop the run ``token``; the indices of
    its tasks that were running, or None if the cluster did not answer within
    ``seconds`` (then nothing more is to be asked of it).

    Examples
    --------
    >>> print(ask_to_stop(None, "no cluster"))  # a cluster that does not answer
    None
    """
    answer: dict = {}

    def ask() -> None:
        try:
            answer["running"] = client.run(stop_run, token)
        except Exception:  # noqa: BLE001 - a lost scheduler or worker: nothing to wait for
            pass

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    thread.join(seconds)
    running = answer.get("running")
    if running is None:
        return None
    return {index for indices in running.values() for index in indices}


class DaskExecutor:
    """What ``dlx.parallel.workers.Runner`` asks of an executor, on a Dask client:
    ``submit`` (a ``concurrent.futures.Future``) and ``shutdown``. A future cancelled
    leaves its Dask task to ``shutdown(cancel_futures=True)``, which cancels every task
    still on the cluster in one call (one call a task would take seconds for thousands).

    Examples
    --------
    >>> from dask.distributed import Client  # doctest: +SKIP
    >>> with Client(processes=False, dashboard_address=None) as client:  # doctest: +SKIP
    ...     DaskExecutor(client).submit(sum, [1, 2, 3]).result()
    6
    """

    def __init__(self, client):
        self.client = client
        self.futures: weakref.WeakSet = weakref.WeakSet()  # Dask's, still referred to

    def submit(self, function, *args) -> Future:
        """Run ``function(*args)`` on the cluster."""
        task = self.client.submit(function, *args, pure=False)
        self.futures.add(task)
        mirror: Future = Future()
        task.add_done_callback(partial(_pass_on, mirror))
        return mirror

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        """Cancel the tasks still on the cluster (``cancel_futures``); ``wait`` is
        accepted for the interface (a run that waited for its tasks has them all)."""
        if not cancel_futures:
            return
        try:
            self.client.cancel(list(self.futures))
        except Exception:  # noqa: BLE001 - a lost cluster: nothing is left to end
            pass


def _pass_on(mirror: Future, task) -> None:
    """A Dask callback: give the mirror the task's result or exception (nothing for a
    mirror cancelled: nobody waits for it). The result is awaited ``RESULT_SECONDS`` at
    a time, as long as the client is open: Dask runs these callbacks in one thread,
    which Python joins at exit, so a wait on a closed client must end."""
    if mirror.cancelled():
        return
    while True:
        try:
            result = task.result(timeout=RESULT_SECONDS)
        except TimeoutError as error:
            if getattr(task.client, "status", "closed") not in ("closing", "closed"):
                continue
            _set(mirror, error=error)
        except BaseException as error:  # noqa: BLE001 - passed on to whoever waits
            _set(mirror, error=error)
        else:
            _set(mirror, result=result)
        return


def _set(mirror: Future, result=None, error: BaseException | None = None) -> None:
    """Give the mirror its result or exception, unless it was cancelled."""
    if not mirror.set_running_or_notify_cancel():
        return
    if error is not None:
        mirror.set_exception(error)
    else:
        mirror.set_result(result)
