"""Running tasks: in this process, on a process pool made here, or on Dask.

Workers are a ``concurrent.futures`` executor: a ``ProcessPoolExecutor`` made here
(rebuilt, and its unfinished tasks resubmitted, when a worker dies), a Dask client's
(``dlx.parallel.dask_tasks.DaskExecutor``), or one passed in. The problem goes to
each worker once (the pool's initializer, or ``client.scatter``). The kernel is compiled (or loaded
from numba's cache) in the parent by the split, before any worker starts; forked
workers inherit it and spawned or Dask workers load it from the cache.

A task runner is a function ``(task, job=None) -> TaskResult`` (``run_task`` unless
one is given: tests inject theirs); with ``job`` None it runs the job its worker
process was given. A stopped run asks its running tasks to say where they stopped:
a pool's through an event its workers share, Dask's through ``dlx.parallel.dask_tasks``.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
import uuid
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import islice
from queue import Empty

from dlx.driver.codes import PAUSED, SOLUTION
from dlx.engines import DEFAULT, ENGINES, make_memo, make_search
from dlx.errors import WorkerError
from dlx.options import resolve_workers
from dlx.parallel.dask_tasks import DaskExecutor, ask_to_stop
from dlx.parallel.dask_tasks import run_task as run_dask_task
from dlx.parallel.dask_tasks import stop_asked as dask_stop_asked
from dlx.parallel.frontier import SOLVED, fraction_before, rest, stopped_at
from dlx.parallel.split import Task
from dlx.problem import Problem
from dlx.stopping import children_can_be_waited_for, interrupts_deferred, stops_requested

MAX_RESTARTS = 5  # give up when the pool breaks this many times in one run
CONNECT_SECONDS = 5  # wait this long for a Dask scheduler to answer


REPORT_SECONDS = 0.5  # a pool's workers report a running task's progress this often
STOP_SECONDS = 5.0  # a stopped run waits this long for its tasks to say where they stopped


@dataclass(frozen=True)
class Job:
    """What every task of one run shares: the problem, forced options, limit, mode,
    and the engine that searches."""

    problem: Problem
    forced: tuple[int, ...]
    limit: int | None
    stream: bool
    engine: str = DEFAULT
    node_limit: int | None = None  # each task's, at most
    deadline: float | None = None  # wall clock (time.time()) at which every task stops


@dataclass(frozen=True)
class TaskResult:
    """A finished task: its count (capped by the limit), stats, and where it ran
    (``seconds``: wall-clock time in the kernel; ``cpu_seconds``: the worker's CPU time).

    ``cache_misses``: how many times the kernel missed numba's cache during the task
    (0 when the worker inherited it or loaded it from the cache, i.e. did not compile).
    """

    index: int
    solutions: int
    nodes: int
    updates: int
    seconds: float
    complete: bool
    pid: int
    cache_misses: int
    cpu_seconds: float
    options: tuple[tuple[int, ...], ...] = ()
    stopped_by: str | None = None  # the limit that stopped an incomplete task
    frontier: tuple[int, ...] | None = None  # where a stopped count's task stopped
    fraction: float = 0.0  # Knuth's estimate of the task's share before the frontier


_WORKER_JOB: Job | None = None
_WORKER_MEMO: tuple = (None, None)  # (job, its Memo): shared by the job's tasks here
_PROGRESS_QUEUE = None  # in a pool's worker: where to send (task, fraction done)
_STOP_EVENT = None  # in a pool's worker: set when the run stops (tasks report a frontier)
_REQUESTED: list = []  # a task run in this process: the stop signals that asked it to stop
_INLINE_REPORT = None  # a task run in this process: called with (task, fraction done, nodes)


PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when its parent dies (Linux), and leave Ctrl-C
    to the parent (it stops the pool); exit now if the parent is already gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl
            pass
    if os.getppid() != parent:
        os._exit(1)


def _init_worker(job: Job, progress_queue=None, parent: int | None = None, stop=None) -> None:
    """Pool initializer: keep the job (and the progress queue and stop event) in the
    worker process, which dies with its parent."""
    global _WORKER_JOB, _PROGRESS_QUEUE, _STOP_EVENT
    if parent is not None:
        _die_with_parent(parent)
    _WORKER_JOB = job
    _PROGRESS_QUEUE = progress_queue
    _STOP_EVENT = stop


def _cache_misses(engine: str) -> int:
    """How many times this process looked for the engine's kernel in numba's cache and
    missed (0 for an engine that does not say)."""
    misses = getattr(ENGINES[engine].search, "cache_misses", None)
    return misses() if misses is not None else 0


def _job_memo(job: Job):
    """The memo of this process for ``job`` (full counts only): a subtree counted in one
    task is not searched again in a later task of the same job in this process."""
    global _WORKER_MEMO
    if job.stream or job.limit is not None:
        return None
    if _WORKER_MEMO[0] is not job:
        _WORKER_MEMO = (job, make_memo(job.problem, job.engine))
    return _WORKER_MEMO[1]


def _keep_memo(job: Job, memo) -> None:
    """Keep a memo a task had to widen (a count outgrew it) for the job's next tasks."""
    global _WORKER_MEMO
    if _WORKER_MEMO[0] is job and memo is not None and memo is not _WORKER_MEMO[1]:
        _WORKER_MEMO = (job, memo)


def worker_job(job):
    """``job``, or (None) the job this worker process was given (a task runner's)."""
    job = job if job is not None else _WORKER_JOB
    if job is None:
        raise RuntimeError("the worker was not given a job")
    return job


def _stop_asked() -> bool:
    """Whether the run this worker serves asked its tasks to stop (a pool's worker or
    a Dask worker), or a stop signal asked the task running in this process to stop
    (one worker)."""
    if _REQUESTED or (_STOP_EVENT is not None and _STOP_EVENT.is_set()):
        return True
    return dask_stop_asked()


def _search_step(job: Job, task: Task, path, nodes_before: int, found: list, counting: bool):
    """Search the subtree at ``path`` (one step of a task) until it is done or stops;
    return the search. ``nodes_before``: the nodes the task took before this step (a
    node limit is the task's)."""
    time_limit = None if job.deadline is None else max(job.deadline - time.time(), 0.0)
    node_limit = None if job.node_limit is None else max(job.node_limit - nodes_before, 0)
    search = make_search(
        job.problem,
        job.engine,
        forced=job.forced,
        prefix=path,
        memo=_job_memo(job),
        node_limit=node_limit,
        time_limit=time_limit,
    )
    queue = _PROGRESS_QUEUE if job is _WORKER_JOB else None
    last_report = time.perf_counter()
    while True:
        code = search.run(stream=job.stream, max_solutions=job.limit)
        if code == SOLUTION:
            found.append(search.current_options())
        elif code != PAUSED:
            break
        if _stop_asked():  # (a count then says where it stopped: ``run_task``)
            search.stopped_by = "stopped"
            break
        report = queue.put_nowait if queue is not None else _INLINE_REPORT
        if report is not None and time.perf_counter() - last_report >= REPORT_SECONDS:
            last_report = time.perf_counter()
            report((task.index, search.fraction(), nodes_before + search.stats.nodes))
    _keep_memo(job, search.memo)
    return search


def run_task(task: Task, job: Job | None = None) -> TaskResult:
    """Search one subproblem to the end (or the limit) and return its count (the
    default task runner; ``job`` None: the job this worker process was given). A count
    that stops (a limit, or the run's stop) says where (``TaskResult.frontier``), and
    a task with a frontier searches only what comes after it (``frontier.rest``)."""
    job = worker_job(job)
    misses_before = _cache_misses(job.engine)
    cpu_before = time.process_time()
    counting = not job.stream and job.limit is None
    steps, nodes, updates = [(task.path, None)], 0, 0
    if task.frontier is not None:
        steps, nodes, updates = rest(job, task.path, task.frontier)
    solutions, seconds, found = 0, 0.0, []
    frontier, fraction, stopped_by = None, 0.0, None
    finding = nodes  # the rest's nodes count in the stats, not against the node limit
    for path, kind in steps:
        over = job.node_limit is not None and nodes - finding >= job.node_limit
        if counting and (_stop_asked() or over):
            stopped_by = "stopped" if _stop_asked() else f"node limit {job.node_limit}"
            frontier = path
            break
        if kind == SOLVED:
            solutions += 1
            continue
        search = _search_step(job, task, path, nodes - finding, found, counting)
        s = search.stats
        solutions, nodes, updates, seconds = (
            solutions + s.solutions, nodes + s.nodes, updates + s.updates, seconds + s.seconds
        )  # fmt: skip
        if not search.done:
            stopped_by = search.stopped_by
            if counting:
                frontier = stopped_at(search, path)
                fraction = fraction_before(search, task.path)
            break
    return TaskResult(
        task.index,
        solutions,
        nodes,
        updates,
        seconds,
        stopped_by is None,
        os.getpid(),
        _cache_misses(job.engine) - misses_before,
        time.process_time() - cpu_before,
        tuple(found),
        stopped_by,
        frontier,
        fraction,
    )


def worker_count(client, workers: int | None) -> int:
    """How many tasks run at once: the Dask cluster's threads, or the local workers."""
    if client is not None:
        return _dask_threads(client)
    return resolve_workers(workers)


class Runner:
    """Runs tasks on an executor and yields their results as they finish.

    ``kind`` is "pool" (a process pool made and rebuilt here), "dask" (a Dask client),
    "given" (an executor passed in, used as is) or "inline" (one worker: this process).
    """

    def __init__(
        self,
        job: Job,
        *,
        workers: int,
        client=None,
        executor=None,
        mp_context=None,
        task_runner=None,
    ):
        self.job = job
        self.task_runner = run_task if task_runner is None else task_runner
        self.workers = workers
        self.client = client
        self.mp_context = mp_context
        self.restarts = 0
        self._job_arg = ()
        if client is not None:
            self.kind = "dask"
            self.executor = DaskExecutor(client)
            self.token = uuid.uuid4().hex  # this run's name on the workers
            # hash=False: a fresh key, never one that an earlier run is releasing
            try:
                self._job_arg = (client.scatter(job, broadcast=True, hash=False),)
            except Exception as e:  # noqa: BLE001 - a worker without dlx, a lost scheduler
                raise _dask_failed(client, "could not take the job", e) from None
        elif executor is not None:
            self.kind = "given"
            self.executor = executor
            self._job_arg = (job,)
        elif workers == 1:
            self.kind = "inline"  # tasks run one by one in this process, as they are asked for
            self.executor = None
            self._job_arg = (job,)
        else:
            self.kind = "pool"
            self.executor = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        """A fresh process pool that holds the job and a queue for progress reports."""
        children_can_be_waited_for()
        context = self.mp_context or multiprocessing.get_context()
        self.progress_queue = context.Queue()
        self.stop_event = context.Event()
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=context,
            initializer=_init_worker,
            initargs=(self.job, self.progress_queue, os.getpid(), self.stop_event),
        )

    def stop(self, grace: float = STOP_SECONDS) -> list[TaskResult]:
        """Ask the running tasks to stop (a process pool made here, or Dask) and return
        the results that come within ``grace`` seconds: each says where its task
        stopped. Tasks not yet started are cancelled. With one worker: the result of
        the task that a stop signal stopped (``_inline_results``), if any."""
        if self.kind == "inline":
            stopped, self.stopped = getattr(self, "stopped", []), []
            return stopped
        pending = getattr(self, "pending", None)
        if self.kind not in ("pool", "dask") or not pending:
            return []
        running = set()  # the tasks to wait for (a pool's: those that cannot be cancelled)
        if self.kind == "dask":
            running = ask_to_stop(self.client, self.token)
            if running is None:
                return []  # the cluster is lost
        for future, task in pending.items():
            if task.index not in running:
                future.cancel()
        if self.kind == "pool":
            self.stop_event.set()
        done: set = set()
        try:
            with interrupts_deferred():
                done, _ = wait(pending, timeout=grace)
        except KeyboardInterrupt:
            pass  # a second stop: the run is stopping already
        results = []
        for future in done:
            if not future.cancelled() and future.exception() is None:
                results.append(future.result())
        return results

    def _inline_results(self, tasks, on_tick=None):
        """The results of ``tasks`` run one by one in this process; the running task
        reports as a pool's do (``on_tick`` then draws the bar; each task keeps to the
        limits by itself). A Ctrl-C or SIGTERM asks the running task to stop at its next
        pause (``dlx.stopping.stops_requested``) and say where, as a pool's tasks do:
        ``stop`` returns that result, and KeyboardInterrupt goes on (a finished task's
        result is yielded first)."""
        global _REQUESTED, _INLINE_REPORT
        self.stopped: list[TaskResult] = []

        def report(progress: tuple[int, float, int]) -> None:
            self.running = {progress[0]: progress[1:]}
            if on_tick is not None:
                on_tick()

        for task in tasks:
            with stops_requested() as requested:
                _REQUESTED, _INLINE_REPORT = requested, report
                try:
                    result = self.task_runner(task, self.job)
                finally:
                    _REQUESTED, _INLINE_REPORT = [], None
                    self.running = {}
            if requested:
                if result.complete:
                    yield result
                else:
                    self.stopped.append(result)
                raise KeyboardInterrupt
            yield result

    def running_tasks(self) -> dict[int, tuple[float, int]]:
        """The latest (fraction done, nodes) of running tasks, from the workers' reports
        (a process pool made here only)."""
        queue = getattr(self, "progress_queue", None)
        while queue is not None:
            try:
                index, fraction, nodes = queue.get_nowait()
            except Empty:
                break
            self.running[index] = (fraction, nodes)
        return self.running

    def results(self, tasks, on_tick=None, window: int | None = None):
        """Yield a TaskResult for each task, in the order they finish; call ``on_tick``
        every ``REPORT_SECONDS`` while waiting, and stop early when it returns True.
        ``window``: at most this many tasks submitted at once, the next taken from
        ``tasks`` (an iterable, read lazily) as each finishes (None: all at once)."""
        pending: dict = {}
        self.pending = pending
        self.running: dict[int, tuple[float, int]] = {}
        if self.kind == "inline":
            yield from self._inline_results(tasks, on_tick)
            return
        source = iter(tasks)
        with interrupts_deferred():
            pending = self._submit([(None, task) for task in islice(source, window)])
            self.pending = pending
        while pending:
            with interrupts_deferred():  # (Ctrl-C within REPORT_SECONDS)
                done, _ = wait(pending, timeout=REPORT_SECONDS, return_when=FIRST_COMPLETED)
            if on_tick is not None and on_tick():
                return
            broken = False
            for future in done:
                try:
                    result = future.result()
                except BrokenProcessPool:
                    if self.kind != "pool":
                        raise
                    broken = True
                    continue
                except Exception as e:  # noqa: BLE001 - the cluster's failure, in one line
                    if self.kind != "dask":
                        raise
                    raise _dask_failed(self.client, "lost a task", e) from None
                del pending[future]
                self.running.pop(result.index, None)
                yield result
            if broken:
                pending = self.pending = self._restart(pending)
            if window is not None:
                with interrupts_deferred():
                    more = [(None, task) for task in islice(source, window - len(pending))]
                    pending.update(self._submit(more))

    def _restart(self, pending: dict) -> dict:
        """Rebuild a broken pool and resubmit its unfinished tasks."""
        unfinished = []
        for future, task in pending.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                unfinished.append((future, task))  # finished after all: keep its result
            else:
                unfinished.append((None, task))
        self._rebuild()
        return self._submit(unfinished)

    def _rebuild(self) -> None:
        """A new pool for a broken one; a WorkerError once it broke too often."""
        self.restarts += 1
        if self.restarts > MAX_RESTARTS:
            raise WorkerError(
                f"worker processes died {self.restarts} times (out of memory? killed?); giving up"
            )
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.executor = self._new_pool()
        self.running.clear()

    def _submit(self, tasks: list) -> dict:
        """Submit each (future or None, task) without a future; a pool that breaks while
        tasks go in (a worker died on the first ones) is rebuilt and they go in again."""
        call = (self.task_runner,)
        if self.kind == "dask":
            call = (run_dask_task, self.task_runner, self.token)
        while True:
            try:
                return {
                    future or self.executor.submit(*call, task, *self._job_arg): task
                    for future, task in tasks
                }
            except BrokenProcessPool:
                if self.kind != "pool":
                    raise
                self._rebuild()

    def close(self, stop_running: bool) -> None:
        """Shut the executor down; ``stop_running`` ends tasks still running."""
        if self.kind == "pool":
            if stop_running:
                for process in list((getattr(self.executor, "_processes", None) or {}).values()):
                    process.kill()  # (SIGTERM may be blocked where they came from)
            try:
                self.executor.shutdown(wait=True, cancel_futures=True)
            except RuntimeError:  # closed from the pool's own thread (a stream's __del__)
                self.executor.shutdown(wait=False, cancel_futures=True)
            self.progress_queue.close()
        elif self.kind == "dask":
            self.executor.shutdown(wait=not stop_running, cancel_futures=stop_running)
            self._job_arg[0].release()


def _dask_failed(client, what: str, error: BaseException) -> WorkerError:
    """A one-line WorkerError for a Dask cluster that failed the run."""
    reason = (str(error).strip().splitlines() or [""])[0]
    reason = f"{type(error).__name__}: {reason}" if reason else type(error).__name__
    try:
        address = client.scheduler.address
    except Exception:  # noqa: BLE001 - the scheduler may be gone
        address = "?"
    return WorkerError(
        f"the Dask cluster at {address} {what} ({reason}); did its scheduler stop, or "
        "do its workers lack the dlx package?"
    )


def dask_client_class():
    """``dask.distributed.Client``, or an ImportError that says what to install."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ImportError(
            "searching on Dask needs the dask.distributed package (pip install 'dask[distributed]')"
        ) from None
    return Client


def _quiet_dask_logs() -> None:
    """Silence dask.distributed's own logs: a client made here (``dask=``) that loses its
    scheduler logs tracebacks as it tries to reconnect, and this module says what
    failed in one line instead."""
    libraries = ("distributed", "tornado", "asyncio")  # and what it runs on
    existing = [n for n in logging.root.manager.loggerDict if n.startswith(libraries)]
    for name in {*libraries, *existing}:  # later loggers inherit from the libraries' own
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def connect(client, dask):
    """A Dask client from ``client=`` or an address in ``dask=`` (None if neither), and
    whether it was made here (and must be closed here); WorkerError if no scheduler
    answers at the address within ``CONNECT_SECONDS``."""
    if client is not None or dask is None:
        return client, False
    client_class = dask_client_class()
    try:
        _probe(dask)
        _quiet_dask_logs()
        return client_class(dask, timeout=CONNECT_SECONDS), True
    except Exception as e:  # OSError, TimeoutError, ValueError for a bad address, ...
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise WorkerError(
            f"no Dask scheduler answered at {dask} within {CONNECT_SECONDS} s ({reason})"
        ) from None


def _probe(address: str) -> None:
    """Connect to ``address`` and shake hands as Dask does, within ``CONNECT_SECONDS``
    (a port that accepts and never answers would hang the client); raise if it fails."""
    import asyncio

    from distributed.comm import connect as dask_connect

    async def attempt():
        comm = await dask_connect(address, timeout=CONNECT_SECONDS)
        await comm.close()

    outcome: dict = {}

    def run():
        try:
            asyncio.run(asyncio.wait_for(attempt(), CONNECT_SECONDS))
            outcome["ok"] = True
        except BaseException as e:  # noqa: BLE001 - reported to the caller
            outcome["error"] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS + 1)
    if "ok" not in outcome:
        error = outcome.get("error")
        if error is None or isinstance(error, (asyncio.TimeoutError, TimeoutError)):
            raise TimeoutError("it accepted the connection but did not answer as Dask does")
        raise error


def _dask_threads(client) -> int:
    """The number of worker threads of a Dask cluster (WorkerError if it has none)."""
    threads = sum(client.nthreads().values())
    if threads == 0:
        raise WorkerError(f"the Dask scheduler at {client.scheduler.address} has no workers")
    return threads
