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
"""

from __future__ import annotations

import threading

CALL_SECONDS = 2.0  # a stop's call to the cluster is abandoned after this long

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
