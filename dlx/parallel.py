"""Count and stream solutions on every core, or on a Dask cluster, with checkpoints.

Glossary
--------
subproblem (task)
    A node of the search tree, named by its *path*: the branch numbers taken at the
    levels below the forced options. ``Search(problem, prefix=path)`` replays exactly
    the subtree below it, so a task travels as a short tuple of ints.
weight
    A task's share of the tree, ``1 / (product of the branching degrees above it)``
    (Knuth's estimate, ``Search.path_weight``); the weights of all tasks add up to 1
    when every branch is an option.
split
    The list of tasks, made in the parent. By default the root is expanded breadth
    first and every node heavier than ``1 / tasks`` is replaced by its children
    (``Search(prefix=path, split_depth=...)``), so big subtrees are split deeper than
    small ones; with ``split_depth=d`` every node at depth ``d`` is a task instead.
    Solutions met while splitting (nodes above the tasks with nothing left to cover)
    are counted by the split itself. Tasks run heaviest first.
checkpoint
    A text file of JSON lines: a header (a digest of the problem's arrays and forced
    options, the split's parameters, a digest of the tasks), then one line per
    finished task with its count, each written and fsync'ed as the task finishes. A
    rerun with the same file skips the finished tasks; a half-written last line (a
    kill during the write) is dropped.

Workers are a ``concurrent.futures`` executor: a ``ProcessPoolExecutor`` made here
(rebuilt, and its unfinished tasks resubmitted, when a worker dies), Dask's
``client.get_executor()``, or one passed in. The problem goes to each worker once
(the pool's initializer, or ``client.scatter``). The numba kernel is compiled (or
loaded from numba's cache) in the parent by the split, before any worker starts;
forked workers inherit it and spawned or Dask workers load it from the cache.

The progress bar shows the finished tasks' share of the tasks' total weight plus, on
a process pool made here, each running task's weight times its own estimate of the
fraction it has done (``Search.fraction``, sent by the workers every half second); on
Dask or a given executor a task counts only once it finishes.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from queue import Empty

import numpy as np

from dlx import kernel
from dlx.problem import Problem
from dlx.search import Count, GeneratorStream, Memo, Progress, Search, Solution, Stats

TASKS_PER_WORKER = 32  # default split: 1 / (32 * workers) is the heaviest task
MAX_SPLIT_LEVELS = 64  # never expand a path longer than this
MAX_TASKS = 200_000  # stop expanding once the split has this many tasks
MAX_RESTARTS = 5  # give up when the pool breaks this many times in one run
REPORT_SECONDS = 0.5  # a pool's workers report a running task's progress this often
CHECKPOINT_FORMAT = "dlx-checkpoint"
CHECKPOINT_VERSION = 1


class CheckpointError(ValueError):
    """A checkpoint file that does not belong to this problem and split, or is damaged."""


# -- the split ------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """A subproblem: its number in the split, its path and its share of the tree."""

    index: int
    path: tuple[int, ...]
    weight: float


@dataclass(frozen=True)
class Split:
    """The tasks of a problem, plus the solutions, nodes and updates of the split
    (``found``: the solutions themselves, if kept)."""

    tasks: tuple[Task, ...]
    solutions: int
    nodes: int
    updates: int
    seconds: float
    parameters: dict
    found: tuple[tuple[int, ...], ...] = ()

    @property
    def settled_weight(self) -> float:
        """The share of the tree the split itself settled (no task below it)."""
        return max(0.0, 1.0 - sum(t.weight for t in self.tasks))

    def digest(self) -> str:
        """A digest of the task paths (to tell two splits apart)."""
        text = ";".join(",".join(map(str, t.path)) for t in self.tasks)
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def _leaves(search: Search, stream: bool, leaves: list, found: list) -> None:
    """Run a splitting search to the end: its leaves as (path, weight), its solutions."""
    while True:
        code = search.run(stream=stream)
        if code == kernel.LEAF:
            leaves.append((tuple(search.path()), search.path_weight()))
        elif code == kernel.SOLUTION:
            found.append(search.current_options())
        elif code == kernel.DONE:
            return
        elif code != kernel.PAUSED:
            raise RuntimeError(f"unexpected kernel code {code} while splitting")


def split(
    problem: Problem,
    forced=(),
    *,
    tasks: int = 64,
    split_depth: int | None = None,
    keep_solutions: bool = False,
) -> Split:
    """Split the search tree of ``problem`` into subproblems.

    Parameters
    ----------
    tasks : aim for subproblems no heavier than ``1 / tasks`` of the tree (the split
        usually has several times as many, as a node's children share its weight).
    split_depth : if given, every node at this depth (below the forced options) is a
        subproblem, and ``tasks`` is ignored.
    keep_solutions : keep the solutions met while splitting (``Split.found``).

    Returns
    -------
    Split: the tasks, heaviest first, numbered 0, 1, ...

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for k in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(k)
    >>> s = split(p, split_depth=1)
    >>> [t.path for t in s.tasks], s.solutions
    ([(0,)], 1)
    """
    forced = tuple(int(k) for k in forced)
    t0 = time.perf_counter()
    solutions = nodes = updates = 0
    final: list[tuple[tuple[int, ...], float]] = []
    found: list[tuple[int, ...]] = []
    if split_depth is not None:
        parameters = {"split_depth": int(split_depth)}
        search = Search(problem, forced=forced, split_depth=len(forced) + int(split_depth))
        _leaves(search, keep_solutions, final, found)
        solutions, nodes, updates = (int(v) for v in search.kernel_stats)
    else:
        if tasks < 1:
            raise ValueError("tasks must be >= 1")
        parameters = {"tasks": int(tasks)}
        max_weight = 1.0 / tasks
        queue = deque([((), 1.0)])
        while queue:
            path, weight = queue.popleft()
            if (
                weight <= max_weight
                or len(path) >= MAX_SPLIT_LEVELS
                or len(final) + len(queue) >= MAX_TASKS
            ):
                final.append((path, weight))
                continue
            depth = len(forced) + len(path) + 1
            search = Search(problem, forced=forced, prefix=path, split_depth=depth)
            children: list = []
            _leaves(search, keep_solutions, children, found)
            stats = search.stats
            solutions += stats.solutions
            nodes += stats.nodes
            updates += stats.updates
            queue.extend(children)
    final.sort(key=lambda pw: -pw[1])  # stable: equal weights keep the search's order
    numbered = tuple(Task(k, path, weight) for k, (path, weight) in enumerate(final))
    seconds = time.perf_counter() - t0
    return Split(numbered, solutions, nodes, updates, seconds, parameters, tuple(found))


# -- the workers ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Job:
    """What every task of one run shares: the problem, forced options, limit, mode."""

    problem: Problem
    forced: tuple[int, ...]
    limit: int | None
    stream: bool
    crash: tuple[int, str] | None = None  # test hook: (task index, marker file)


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


_WORKER_JOB: _Job | None = None
_WORKER_MEMO: tuple = (None, None)  # (job, its Memo): shared by the job's tasks here
_PROGRESS_QUEUE = None  # in a pool's worker: where to send (task, fraction done)


def _init_worker(job: _Job, progress_queue=None) -> None:
    """Pool initializer: keep the job (and the progress queue) in the worker process."""
    global _WORKER_JOB, _PROGRESS_QUEUE
    _WORKER_JOB = job
    _PROGRESS_QUEUE = progress_queue


def _cache_misses() -> int:
    """How many times this process looked for the kernel in numba's cache and missed."""
    return sum(kernel.search.stats.cache_misses.values())


def _job_memo(job: _Job) -> Memo | None:
    """The memo of this process for ``job`` (full counts only): a subtree counted in one
    task is not searched again in a later task of the same job in this process."""
    global _WORKER_MEMO
    if job.stream or job.limit is not None:
        return None
    if _WORKER_MEMO[0] is not job:
        _WORKER_MEMO = (job, Memo.of(job.problem))
    return _WORKER_MEMO[1]


def _run_task(task: Task, job: _Job | None = None) -> TaskResult:
    """Search one subproblem to the end (or the limit) and return its count."""
    job = job if job is not None else _WORKER_JOB
    if job is None:
        raise RuntimeError("the worker was not given a job")
    if job.crash is not None and job.crash[0] == task.index:
        marker = job.crash[1]
        if not os.path.exists(marker):
            with open(marker, "w") as f:
                f.write(str(os.getpid()))
            os._exit(13)  # test hook: die in the middle of a task, once
    misses_before = _cache_misses()
    cpu_before = time.process_time()
    search = Search(job.problem, forced=job.forced, prefix=task.path, memo=_job_memo(job))
    found = []
    queue = _PROGRESS_QUEUE if job is _WORKER_JOB else None
    last_report = time.perf_counter()
    while True:
        code = search.run(stream=job.stream, max_solutions=job.limit)
        if code == kernel.SOLUTION:
            found.append(search.current_options())
        elif code != kernel.PAUSED:
            break
        if queue is not None and time.perf_counter() - last_report >= REPORT_SECONDS:
            last_report = time.perf_counter()
            queue.put_nowait((task.index, search.fraction()))
    s = search.stats
    cpu_seconds = time.process_time() - cpu_before
    misses = _cache_misses() - misses_before
    delay = os.environ.get("DLX_TEST_TASK_SLEEP")  # test hook: slow tasks down
    if delay:
        time.sleep(float(delay))
    return TaskResult(
        task.index,
        s.solutions,
        s.nodes,
        s.updates,
        s.seconds,
        search.done,
        os.getpid(),
        misses,
        cpu_seconds,
        tuple(found),
    )


def _worker_count(client, workers: int | None) -> int:
    """How many tasks run at once: the Dask cluster's threads, or the local workers."""
    if client is not None:
        return _dask_threads(client)
    return _default_workers() if workers is None else workers


def _default_workers() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class _Runner:
    """Runs tasks on an executor and yields their results as they finish.

    ``kind`` is "pool" (a process pool made and rebuilt here), "dask" (a Dask client),
    "given" (an executor passed in, used as is) or "inline" (one worker: this process).
    """

    def __init__(self, job: _Job, *, workers: int, client=None, executor=None, mp_context=None):
        self.job = job
        self.workers = workers
        self.client = client
        self.mp_context = mp_context
        self.restarts = 0
        self._job_arg = ()
        if client is not None:
            self.kind = "dask"
            self.executor = client.get_executor(pure=False)
            # hash=False: a fresh key, never one that an earlier run is releasing
            self._job_arg = (client.scatter(job, broadcast=True, hash=False),)
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
        context = self.mp_context or multiprocessing.get_context()
        self.progress_queue = context.Queue()
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=context,
            initializer=_init_worker,
            initargs=(self.job, self.progress_queue),
        )

    def running_fractions(self) -> dict[int, float]:
        """The latest fraction done of running tasks, from the workers' reports."""
        queue = getattr(self, "progress_queue", None)
        while queue is not None:
            try:
                index, fraction = queue.get_nowait()
            except Empty:
                break
            self.running[index] = fraction
        return self.running

    def results(self, tasks, on_tick=None):
        """Yield a TaskResult for each task, in the order they finish; call ``on_tick``
        every ``REPORT_SECONDS`` while waiting."""
        pending: dict = {}
        self.running: dict[int, float] = {}
        if self.kind == "inline":
            for task in tasks:
                yield _run_task(task, self.job)
            return
        for task in tasks:
            pending[self.executor.submit(_run_task, task, *self._job_arg)] = task
        while pending:
            timeout = REPORT_SECONDS if on_tick is not None else None
            done, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
            if on_tick is not None:
                on_tick()
            broken = False
            for future in done:
                try:
                    result = future.result()
                except BrokenProcessPool:
                    if self.kind != "pool":
                        raise
                    broken = True
                    continue
                del pending[future]
                self.running.pop(result.index, None)
                yield result
            if broken:
                pending = self._restart(pending)

    def _restart(self, pending: dict) -> dict:
        """Rebuild a broken pool and resubmit its unfinished tasks."""
        self.restarts += 1
        if self.restarts > MAX_RESTARTS:
            raise RuntimeError(f"worker processes died {self.restarts} times; giving up")
        unfinished = []
        for future, task in pending.items():
            if future.done() and future.exception() is None:
                unfinished.append((future, task))  # finished after all: keep its result
            else:
                unfinished.append((None, task))
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.executor = self._new_pool()
        self.running.clear()
        resubmitted = {}
        for future, task in unfinished:
            if future is None:
                future = self.executor.submit(_run_task, task)
            resubmitted[future] = task
        return resubmitted

    def close(self, stop_running: bool) -> None:
        """Shut the executor down; ``stop_running`` ends tasks still running."""
        if self.kind == "pool":
            if stop_running:
                for process in list((getattr(self.executor, "_processes", None) or {}).values()):
                    process.terminate()
            self.executor.shutdown(wait=True, cancel_futures=True)
            self.progress_queue.close()
        elif self.kind == "dask":
            if stop_running:
                for future in list(self.executor._futures):
                    future.cancel()
            self.executor.shutdown(wait=not stop_running)
            self._job_arg[0].release()


def _dask_client_class():
    """``dask.distributed.Client``, or an ImportError that says what to install."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ImportError(
            "searching on Dask needs the dask.distributed package (pip install 'dask[distributed]')"
        ) from None
    return Client


def _connect(client, dask):
    """A Dask client from ``client=`` or an address in ``dask=`` (None if neither), and
    whether it was made here (and must be closed here)."""
    if client is not None or dask is None:
        return client, False
    return _dask_client_class()(dask), True


def _dask_threads(client) -> int:
    """The number of worker threads of a Dask cluster."""
    return max(1, sum(client.nthreads().values()))


# -- checkpoints ----------------------------------------------------------------------


def problem_digest(problem: Problem, forced=()) -> str:
    """A digest of the problem's kernel arrays and the forced options."""
    arrays = problem.arrays()
    h = hashlib.sha256()
    for a in (arrays.node, arrays.item, arrays.option_of_node, arrays.first_node):
        h.update(str(a.shape).encode())
        h.update(np.ascontiguousarray(a).tobytes())
    h.update(f"{arrays.second} {arrays.has_bounds} {arrays.max_level}".encode())
    h.update(("forced " + ",".join(str(int(k)) for k in forced)).encode())
    return h.hexdigest()[:32]


def _read_lines(path: str) -> list[dict]:
    """The complete lines of a checkpoint; a half-written last line is cut off the file."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.rfind(b"\n") + 1
    if end < len(data):
        with open(path, "r+b") as f:
            f.truncate(end)
            f.flush()
            os.fsync(f.fileno())
    records = []
    for line_no, line in enumerate(data[:end].splitlines(), start=1):
        try:
            records.append(json.loads(line))
        except ValueError:
            raise CheckpointError(f"{path}: line {line_no} is not valid JSON") from None
    return records


class Checkpoint:
    """An append-only record of finished tasks (see the module's glossary)."""

    def __init__(self, path: str):
        self.path = str(path)
        self.header: dict | None = None
        self.done: dict[int, dict] = {}
        self._file = None

    def load(self, digest: str) -> dict | None:
        """Read the file if it exists; return the split parameters it was made with."""
        if not os.path.exists(self.path):
            return None
        records = _read_lines(self.path)
        if not records:
            return None
        header = records[0]
        if header.get("format") != CHECKPOINT_FORMAT:
            raise CheckpointError(f"{self.path}: not a dlx checkpoint (line 1)")
        if header.get("version") != CHECKPOINT_VERSION:
            raise CheckpointError(f"{self.path}: checkpoint version {header.get('version')}")
        if header.get("problem") != digest:
            raise CheckpointError(
                f"{self.path}: this checkpoint belongs to a different problem (or other "
                "forced options); use another file or delete it"
            )
        self.header = header
        for line_no, record in enumerate(records[1:], start=2):
            if "task" not in record or "solutions" not in record:
                raise CheckpointError(f"{self.path}: line {line_no} is not a task record")
            self.done[int(record["task"])] = record
        return header["split"]

    def start(self, digest: str, the_split: Split) -> None:
        """Check the file against the split (or write its header); open it to append."""
        if self.header is not None:
            if (
                self.header.get("tasks") != len(the_split.tasks)
                or self.header.get("tasks_digest") != the_split.digest()
            ):
                raise CheckpointError(
                    f"{self.path}: the split differs from the checkpoint's (another engine "
                    "version?); use another file or delete it"
                )
            for index, record in self.done.items():
                if not 0 <= index < len(the_split.tasks) or tuple(record.get("path", ())) != (
                    the_split.tasks[index].path
                ):
                    raise CheckpointError(f"{self.path}: task {index} does not match the split")
            self._file = open(self.path, "a", encoding="utf-8")
            return
        self.header = {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "problem": digest,
            "split": the_split.parameters,
            "tasks": len(the_split.tasks),
            "tasks_digest": the_split.digest(),
            "split_solutions": the_split.solutions,
        }
        self._file = open(self.path, "w", encoding="utf-8")
        self._write(self.header)

    def _write(self, record: dict) -> None:
        """Append one line and make it durable."""
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def record(self, task: Task, result: TaskResult) -> None:
        """Record a finished task."""
        self.done[task.index] = {"task": task.index, "solutions": result.solutions}
        self._write(
            {
                "task": task.index,
                "path": list(task.path),
                "solutions": result.solutions,
                "nodes": result.nodes,
                "updates": result.updates,
                "seconds": round(result.seconds, 4),
            }
        )

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None


# -- counting -------------------------------------------------------------------------


@dataclass
class ParallelRun:
    """The details of a parallel count: the result, the split, and each task's result.

    ``resumed`` is the number of tasks taken from the checkpoint; ``restarts`` the
    number of times the pool was rebuilt after a worker died.
    """

    count: Count
    split: Split
    results: list[TaskResult] = field(default_factory=list)
    resumed: int = 0
    restarts: int = 0


def _split_parameters(tasks, split_depth, n_workers) -> dict:
    """The split parameters the caller asked for (or the defaults)."""
    if split_depth is not None:
        return {"split_depth": int(split_depth)}
    return {"tasks": int(tasks) if tasks is not None else TASKS_PER_WORKER * n_workers}


def parallel_run(
    problem: Problem,
    *,
    workers: int | None = None,
    progress: bool = False,
    forced=(),
    limit: int | None = None,
    node_limit: int | None = None,
    time_limit: float | None = None,
    tasks: int | None = None,
    split_depth: int | None = None,
    checkpoint=None,
    client=None,
    dask: str | None = None,
    executor: Executor | None = None,
    mp_context=None,
    _crash: tuple[int, str] | None = None,
) -> ParallelRun:
    """Count the solutions of ``problem`` on several processes; see ``parallel_count``."""
    forced = tuple(int(k) for k in forced)
    if workers is not None and workers < 1:
        raise ValueError("workers must be >= 1 (or None for all cores)")
    if limit is not None and limit < 0:
        raise ValueError("limit must be >= 0")
    client, own_client = _connect(client, dask)
    try:
        n_workers = _worker_count(client, workers)
        asked = _split_parameters(tasks, split_depth, n_workers)
        digest = problem_digest(problem, forced)
        store = Checkpoint(checkpoint) if checkpoint is not None else None
        parameters = asked
        if store is not None:
            previous = store.load(digest)
            if previous is not None:
                explicit = tasks is not None or split_depth is not None
                if explicit and previous != asked:
                    raise CheckpointError(
                        f"{store.path}: the checkpoint was made with split {previous}, "
                        f"not {asked}; use another file or delete it"
                    )
                parameters = previous
        the_split = split(problem, forced, **parameters)  # compiles the kernel once, here
        if store is not None:
            store.start(digest, the_split)
        try:
            return _count_tasks(
                problem,
                forced,
                the_split,
                store,
                n_workers=n_workers,
                client=client,
                executor=executor,
                mp_context=mp_context,
                progress=progress,
                limit=limit,
                node_limit=node_limit,
                time_limit=time_limit,
                crash=_crash,
            )
        finally:
            if store is not None:
                store.close()
    finally:
        if own_client:
            client.close()


def _count_tasks(
    problem,
    forced,
    the_split: Split,
    store: Checkpoint | None,
    *,
    n_workers,
    client,
    executor,
    mp_context,
    progress,
    limit,
    node_limit,
    time_limit,
    crash,
) -> ParallelRun:
    """Run the tasks not in the checkpoint and add up the counts."""
    t0 = time.perf_counter()
    tasks = the_split.tasks
    total_weight = sum(t.weight for t in tasks) or 1.0
    solutions, nodes, updates = the_split.solutions, the_split.nodes, the_split.updates
    done_weight = 0.0
    resumed = 0
    if store is not None:
        for index, record in store.done.items():
            solutions += int(record["solutions"])
            nodes += int(record.get("nodes", 0))
            updates += int(record.get("updates", 0))
            done_weight += tasks[index].weight
            resumed += 1
    todo = [t for t in tasks if store is None or t.index not in store.done]
    run = ParallelRun(None, the_split, resumed=resumed)  # type: ignore[arg-type]
    stopped_by = None
    bar = Progress(progress, "count")
    bar.update(done_weight / total_weight, solutions)
    job = _Job(problem, forced, limit, False, crash)
    runner = None
    finished = len(todo) == 0
    if limit is not None and solutions >= limit:
        stopped_by = f"solution limit {limit}"
    elif todo:
        runner = _Runner(
            job, workers=n_workers, client=client, executor=executor, mp_context=mp_context
        )
    try:
        if runner is not None:
            left = len(todo)

            def show_progress():
                running = runner.running_fractions()
                partial = sum(tasks[i].weight * f for i, f in running.items())
                bar.update((done_weight + partial) / total_weight, solutions)

            for result in runner.results(todo, on_tick=show_progress if progress else None):
                task = tasks[result.index]
                run.results.append(result)
                solutions += result.solutions
                nodes += result.nodes
                updates += result.updates
                left -= 1
                if result.complete:
                    done_weight += task.weight
                    if store is not None:
                        store.record(task, result)
                bar.update(done_weight / total_weight, solutions)
                if limit is not None and solutions >= limit:
                    stopped_by = f"solution limit {limit}"
                    break
                if node_limit is not None and nodes >= node_limit:
                    stopped_by = f"node limit {node_limit}"
                    break
                if time_limit is not None and time.perf_counter() - t0 >= time_limit:
                    stopped_by = f"time limit {time_limit} s"
                    break
            finished = left == 0 and stopped_by is None
    finally:
        if runner is not None:
            runner.close(stop_running=not finished)
            run.restarts = runner.restarts
        bar.close(1.0 if finished else None, solutions)
    if limit is not None and solutions >= limit:
        solutions, finished = limit, False  # as the serial count: "at least limit"
        stopped_by = f"solution limit {limit}"
    stats = Stats(solutions, nodes, updates, time.perf_counter() - t0 + the_split.seconds)
    run.count = Count(solutions, finished, stats, stopped_by)
    return run


def parallel_count(problem: Problem, **options) -> Count:
    """Count the solutions of ``problem`` on several processes or a Dask cluster.

    Parameters
    ----------
    workers : processes to use (None: every core); ignored with a Dask client.
    forced, limit, node_limit, time_limit, progress : as for ``dlx.count`` (the node
        and time limits are checked each time a task finishes).
    tasks : the split's granularity (default 32 per worker; see ``split``).
    split_depth : split at this depth instead.
    checkpoint : a file recording finished tasks; a rerun with it skips them.
    client : a ``dask.distributed.Client``; or ``dask``: a scheduler address.
    executor : any ``concurrent.futures.Executor`` to run the tasks on.

    Returns
    -------
    Count: exact when ``complete`` is True.

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b", "c"])
    >>> for k in (["a"], ["b"], ["c"], ["a", "b"], ["b", "c"]):
    ...     _ = p.add_option(k)
    >>> print(parallel_count(p, workers=1, split_depth=1))
    3
    """
    return parallel_run(problem, **options).count


# -- streaming ------------------------------------------------------------------------


class ParallelSolutionStream(GeneratorStream):
    """Solutions from the workers, a task at a time as tasks finish (in no fixed
    order); ``.stats``, ``.complete`` and ``.stopped_by`` as for ``SolutionStream``."""

    def __init__(self, problem: Problem, limit: int | None, options: dict):
        self.problem = problem
        self._limit = limit
        self._options = options
        if options.get("dask") is not None:
            _dask_client_class()  # fail now, not at the first solution
        self.stats = Stats()
        self.complete = False
        self.stopped_by: str | None = None

    def _run(self):
        options = dict(self._options)
        forced = tuple(int(k) for k in options.pop("forced", ()))
        workers = options.pop("workers", None)
        progress = options.pop("progress", False)
        tasks = options.pop("tasks", None)
        split_depth = options.pop("split_depth", None)
        client, own_client = _connect(options.pop("client", None), options.pop("dask", None))
        executor = options.pop("executor", None)
        mp_context = options.pop("mp_context", None)
        if options:
            raise TypeError(f"solutions(workers=...) does not take {sorted(options)}")
        t0 = time.perf_counter()
        runner = None
        bar = Progress(progress, "search")
        found = nodes = updates = 0
        finished = False
        try:
            n_workers = _worker_count(client, workers)
            parameters = _split_parameters(tasks, split_depth, n_workers)
            the_split = split(self.problem, forced, **parameters, keep_solutions=True)
            nodes, updates = the_split.nodes, the_split.updates
            for serial in the_split.found:
                if self._limit is not None and found >= self._limit:
                    self.stopped_by = f"solution limit {self._limit}"
                    return
                found += 1
                yield Solution(serial, self.problem)
            total_weight = sum(t.weight for t in the_split.tasks) or 1.0
            done_weight = 0.0
            job = _Job(self.problem, forced, self._limit, True)
            runner = _Runner(
                job, workers=n_workers, client=client, executor=executor, mp_context=mp_context
            )

            def show_progress():
                running = runner.running_fractions()
                partial = sum(the_split.tasks[i].weight * f for i, f in running.items())
                bar.update((done_weight + partial) / total_weight, found)

            ticks = show_progress if progress else None
            for result in runner.results(the_split.tasks, on_tick=ticks):
                nodes += result.nodes
                updates += result.updates
                done_weight += the_split.tasks[result.index].weight
                for options_chosen in result.options:
                    if self._limit is not None and found >= self._limit:
                        self.stopped_by = f"solution limit {self._limit}"
                        return
                    found += 1
                    self.stats = Stats(found, nodes, updates, time.perf_counter() - t0)
                    yield Solution(options_chosen, self.problem)
                bar.update(done_weight / total_weight, found)
            finished = True
            self.complete = True
        finally:
            self.stats = Stats(found, nodes, updates, time.perf_counter() - t0)
            if runner is not None:
                runner.close(stop_running=not finished)
            bar.close(1.0 if finished else None, found)
            if own_client:
                client.close()


def parallel_solutions(problem: Problem, limit: int | None = None, **options):
    """Stream the solutions of ``problem`` found by several workers.

    Each task sends its solutions when it finishes, so they come task by task, in no
    fixed order; the set equals the serial one. Options as for ``parallel_count``
    (no checkpoint).

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for k in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(k)
    >>> sorted(s.options for s in parallel_solutions(p, workers=1, split_depth=1))
    [(0, 1), (2,)]
    """
    return ParallelSolutionStream(problem, limit, options)
