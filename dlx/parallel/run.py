"""Count and stream solutions on every core, or on a Dask cluster, with checkpoints.

The pieces live by concern: ``dlx.parallel.split`` cuts the tree into tasks,
``dlx.parallel.workers``
runs them, ``dlx.parallel.checkpoint`` records the finished ones (and the finished
part of those a stop cut short, ``dlx.parallel.frontier``). This module puts them
together for one count (``run_count``) or one stream (``ParallelSolutionStream``),
from one ``dlx.Parallel`` settings object; ``dlx.api`` decides when to call it.

The progress bar shows the finished tasks' share of the tasks' total weight plus, on
a process pool made here, each running task's weight times its own estimate of the
fraction it has done (``Search.fraction``, sent by the workers every half second); on
Dask or a given executor a task counts only once it finishes.
"""

from __future__ import annotations

import time
from contextlib import closing
from dataclasses import dataclass, field, replace

from dlx import compiling
from dlx.driver.driver import Stats
from dlx.driver.results import Count, GeneratorStream, Progress, Solution
from dlx.engines import DEFAULT, ENGINES, Choice, select, tree_version
from dlx.options import Parallel
from dlx.parallel.checkpoint import Checkpoint, CheckpointError, Tree, recorded_problem
from dlx.parallel.split import Split, split
from dlx.parallel.workers import Job, Runner, TaskResult, connect, dask_client_class, worker_count
from dlx.problem import Problem
from dlx.stopping import Interrupted

__all__ = [
    "CheckpointError",
    "Parallel",
    "ParallelRun",
    "ParallelSolutionStream",
    "split",
]

TASKS_PER_WORKER = 32  # default split: 1 / (32 * workers) is the heaviest task
# with a checkpoint, finer: a task killed before it ends (kill -9) loses its work, and
# an estimate's heaviest tasks can run for many minutes (one-sided pentominoes on 6x15:
# 6 of 325 tasks done in the first minute, 169 of 5,281 with this); a short count pays
# about 0.7 s for it (a stop keeps each running task's finished part: ``frontier``)
CHECKPOINT_TASKS_PER_WORKER = 512


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


def split_parameters(options: Parallel, n_workers: int) -> dict:
    """The split parameters the caller asked for (or the defaults)."""
    if options.split_depth is not None:
        return {"split_depth": int(options.split_depth)}
    if options.tasks is not None:
        return {"tasks": int(options.tasks)}
    per_worker = TASKS_PER_WORKER if options.checkpoint is None else CHECKPOINT_TASKS_PER_WORKER
    return {"tasks": per_worker * n_workers}


def checked_parameters(store: Checkpoint | None, tree: Tree, options: Parallel, asked: dict):
    """The split parameters to use: the checkpoint's, if it has some (and the caller
    asked for none, or the same), else the ones asked for."""
    if store is None:
        return asked
    previous = store.load(tree)
    if previous is None:
        return asked
    explicit = options.tasks is not None or options.split_depth is not None
    if explicit and previous != asked:
        raise CheckpointError(
            f"{store.path}: the checkpoint was made with split {previous}, "
            f"not {asked}; use another file or delete it"
        )
    return previous


def kernel_choice(
    engine: str,
    problem: Problem,
    limit: int | None,
    *,
    options: Parallel,
    forced=(),
    time_limit: float | None = None,
    whole=False,
):
    """The kernel that every task of a parallel count runs (``dlx.engines.select``, its
    probe not continued); for ``auto`` with a checkpoint to go on from, the kernel that
    wrote it (the samples might pick another, whose tasks are not that tree's). A count
    without a solution limit is raced with memos, as its workers count it (with a time
    limit too: raced without them, a kernel without a memo could win on samples alone,
    and count the 2x95 strip of dominoes to its time limit where the bitset kernel's memo
    takes 1,752 nodes); one with a time limit runs no narrow-board probe
    (``LONG_PROBE`` s of tight's count, unbounded here). ``whole``: the caller may count
    the whole problem in its own process instead, where ``auto`` would (a partial 9x9
    sudoku, by the sudoku kernel)."""
    if engine == "auto" and options.checkpoint is not None:
        recorded = recorded_problem(options.checkpoint)
        for name in ENGINES:
            if Tree(problem, forced, name, tree_version=tree_version(name)).recorded_in(recorded):
                return Choice(name, "auto: the kernel that wrote the checkpoint")
        if recorded is not None and recorded.engine in ENGINES:  # another tree version (or
            # problem): that kernel's checkpoint says so in one line
            return Choice(recorded.engine, "auto: the kernel that wrote the checkpoint")
    return select(
        engine,
        problem,
        limit,
        memo=limit is None,
        kept=False,
        whole=whole,
        long_probe=time_limit is None,
        forced=forced,
    )


def run_count(
    problem: Problem,
    options: Parallel,
    *,
    forced=(),
    limit: int | None = None,
    node_limit: int | None = None,
    time_limit: float | None = None,
    progress: bool = False,
    engine: str = DEFAULT,
) -> ParallelRun:
    """Count the solutions of ``problem`` in tasks, as ``options`` say."""
    forced = tuple(int(k) for k in forced)
    engine = kernel_choice(engine, problem, limit, options=options, forced=forced).name
    if limit is not None and limit < 0:
        raise ValueError("limit must be >= 0")
    started = time.time()
    store = Checkpoint(options.checkpoint) if options.checkpoint is not None else None
    client, own_client = None, False
    try:
        client, own_client = connect(options.client, options.dask)
        n_workers = worker_count(client, options.workers)
        tree = Tree(problem, forced, engine, tree_version=tree_version(engine))
        asked = split_parameters(options, n_workers)
        parameters = checked_parameters(store, tree, options, asked)
        warming = compiling.seconds()
        the_split = split(problem, forced, **parameters, engine=engine)  # compiles once, here
        if store is not None:
            store.start(tree, the_split)
        started += compiling.seconds() - warming  # the limit leaves compiling out
        deadline = None if time_limit is None else started + time_limit
        job = Job(problem, forced, limit, False, engine, node_limit, deadline)
        limits = (limit, node_limit, time_limit)
        return _count_tasks(job, the_split, store, options, n_workers, client, progress, limits)
    finally:
        if store is not None:
            store.close()
        if own_client:
            client.close()


def _resume(the_split: Split, store: Checkpoint | None) -> tuple[list, int, int, int, float]:
    """The tasks left to run, and the solutions, nodes, updates and weight done before."""
    tasks = the_split.tasks
    solutions, nodes, updates = the_split.solutions, the_split.nodes, the_split.updates
    done_weight = 0.0
    if store is not None:
        for index, record in store.done.items():
            solutions += int(record["solutions"])
            nodes += int(record.get("nodes", 0))
            updates += int(record.get("updates", 0))
            done_weight += tasks[index].weight
    todo = [t for t in tasks if store is None or t.index not in store.done]
    if store is not None:
        for k, task in enumerate(todo):
            record = store.partial.get(task.index)
            if record is not None:
                solutions += int(record["solutions"])
                nodes += int(record.get("nodes", 0))
                updates += int(record.get("updates", 0))
                done_weight += task.weight * float(record.get("fraction", 0.0))
                todo[k] = replace(task, frontier=tuple(record["frontier"]))
    return todo, solutions, nodes, updates, done_weight


class TaskLoop:
    """The one loop that runs tasks on the workers: ``results(todo)`` yields each
    finished task's result as it comes, and draws the progress bar from the tasks'
    weights (the finished ones, plus each running task's share of its own, as its
    worker reports it). A count folds over it, a stream filters it.

    ``halt``: called with the nodes of the running tasks at each report; the loop
    stops when it returns True. ``on_stop``: called, when the loop ends early, with
    the result of each running task that said where it stopped (``Runner.stop``).
    ``shown``: the solutions the bar shows (the caller's to keep). ``finished``: every
    task of ``todo`` gave its result.
    """

    def __init__(self, job: Job, the_split: Split, options: Parallel, n_workers: int, client,
                 bar: Progress, *, done_weight: float = 0.0, halt=None, on_stop=None):  # fmt: skip
        self.job, self.tasks, self.options = job, the_split.tasks, options
        self.n_workers, self.client, self.bar, self.halt = n_workers, client, bar, halt
        self.on_stop = on_stop
        self.credited: dict[int, float] = {}  # task: the share of it done_weight holds
        self.total_weight = sum(t.weight for t in self.tasks) or 1.0
        self.done_weight = done_weight
        self.shown = 0
        self.finished = False
        self.runner: Runner | None = None

    @property
    def restarts(self) -> int:
        """The times the pool was rebuilt after a worker died."""
        return 0 if self.runner is None else self.runner.restarts

    def _tick(self) -> bool:
        """Draw the bar with the running tasks' shares; whether to stop (``halt``)."""
        running = self.runner.running_tasks()
        partial = sum(self.tasks[i].weight * f for i, (f, _) in running.items())
        self.bar.update((self.done_weight + partial) / self.total_weight, self.shown)
        return self.halt is not None and self.halt(sum(n for _, n in running.values()))

    def results(self, todo, prepare=None):
        """Run the tasks of ``todo`` and yield their results as they finish; the
        workers are shut down when the loop ends (those still running stopped, when
        it ends early: a limit, a stop, the caller closing it). ``prepare``: a task
        goes to the workers as ``prepare(task)``, made as late as it can be (two tasks
        a worker submitted at once), so it may carry what earlier results taught."""
        left = len(todo)
        if left == 0:
            self.finished = True
            return
        options = self.options
        self.runner = Runner(
            self.job,
            workers=self.n_workers,
            client=self.client,
            executor=options.executor,
            mp_context=options.mp_context,
            task_runner=options.task_runner,
        )
        try:
            window, sent = None, todo
            if prepare is not None:
                window, sent = 2 * self.n_workers, (prepare(task) for task in todo)
            for result in self.runner.results(sent, on_tick=self._tick, window=window):
                left -= 1
                if result.complete:
                    weight = self.tasks[result.index].weight
                    self.done_weight += weight * (1.0 - self.credited.pop(result.index, 0.0))
                yield result
                self.bar.update(self.done_weight / self.total_weight, self.shown)
            self.finished = left == 0
        finally:
            try:
                if not self.finished and self.on_stop is not None:
                    for result in self.runner.stop():
                        self.on_stop(result)
            finally:
                self.runner.close(stop_running=not self.finished)


def _count_tasks(
    job: Job, the_split: Split, store, options: Parallel, n_workers, client, progress, limits
) -> ParallelRun:
    """Run the tasks not in the checkpoint and add up the counts (a fold over
    ``TaskLoop``); the node and time limits are checked as tasks report (every
    ``REPORT_SECONDS``), and each task stops at them by itself too."""
    limit, node_limit, time_limit = limits
    t0 = time.perf_counter()
    tasks = the_split.tasks
    total_weight = sum(t.weight for t in tasks) or 1.0
    todo, solutions, nodes, updates, done_weight = _resume(the_split, store)
    run = ParallelRun(None, the_split, resumed=len(tasks) - len(todo))  # type: ignore[arg-type]
    stopped_by = None
    loop = None
    finished = len(todo) == 0
    bar = None

    def over_limit(running_nodes: int = 0) -> str | None:
        """The limit reached, if one is."""
        if limit is not None and solutions >= limit:
            return f"solution limit {limit}"
        if node_limit is not None and nodes + running_nodes >= node_limit:
            return f"node limit {node_limit}"
        if job.deadline is not None and time.time() >= job.deadline:
            return f"time limit {time_limit} s"
        return None

    def halt(running_nodes: int) -> bool:
        nonlocal stopped_by
        stopped_by = over_limit(running_nodes)
        return stopped_by is not None

    def on_stop(result: TaskResult) -> None:
        """Keep what a stopped task says it finished (and its count)."""
        nonlocal solutions, nodes, updates
        run.results.append(result)
        solutions += result.solutions
        nodes += result.nodes
        updates += result.updates
        if store is not None:
            store.record(tasks[result.index], result)

    try:  # (a stop while the bar and the workers start is a stop of the count too)
        bar = Progress(progress, "count", initial=done_weight / total_weight)
        bar.update(done_weight / total_weight, solutions)
        if limit is not None and solutions >= limit:
            stopped_by = f"solution limit {limit}"
        elif todo:
            loop = TaskLoop(job, the_split, options, n_workers, client, bar,
                            done_weight=done_weight, halt=halt, on_stop=on_stop)  # fmt: skip
            loop.shown = solutions
            if store is not None:
                loop.credited = {i: float(r.get("fraction", 0.0)) for i, r in store.partial.items()}
            with closing(loop.results(todo)) as results:
                for result in results:
                    run.results.append(result)
                    solutions += result.solutions
                    nodes += result.nodes
                    updates += result.updates
                    loop.shown = solutions
                    if store is not None:
                        store.record(tasks[result.index], result)
                    stopped_by = over_limit() or (None if result.complete else result.stopped_by)
                    if stopped_by is not None:
                        break
            finished = loop.finished and stopped_by is None
    except KeyboardInterrupt:
        where = store.path if store is not None else None
        raise Interrupted(solutions, where) from None
    finally:
        if loop is not None:
            run.restarts = loop.restarts
        if bar is not None:
            bar.close(1.0 if finished else None, solutions)
    if limit is not None and solutions >= limit:
        solutions, finished = limit, False  # as the serial count: "at least limit"
        stopped_by = f"solution limit {limit}"
    stats = Stats(solutions, nodes, updates, time.perf_counter() - t0 + the_split.seconds)
    resumed = run.resumed if store is not None else None
    run.count = Count(solutions, finished, stats, stopped_by, resumed, len(tasks), run)
    return run


def _parallel_run(
    problem: Problem,
    *,
    workers: int | None = None,
    progress: bool = False,
    forced=(),
    limit: int | None = None,
    node_limit: int | None = None,
    time_limit: float | None = None,
    engine: str = DEFAULT,
    parallel: Parallel | None = None,
    **settings,
) -> ParallelRun:
    """Count the solutions of ``problem`` in tasks and say how each went (for tests
    and benchmarks; ``dlx.count`` returns only the count). The settings come as
    ``parallel=Parallel(...)`` or as keywords; ``workers=0`` is every core, and
    ``workers=None`` (not given) keeps ``parallel``'s workers (every core without it)."""
    if workers is not None:
        settings["workers"] = workers
    options = merge_options(parallel, **settings)
    return run_count(
        problem,
        options,
        forced=forced,
        limit=limit,
        node_limit=node_limit,
        time_limit=time_limit,
        progress=progress,
        engine=engine,
    )


def merge_options(parallel: Parallel | None, **settings) -> Parallel:
    """One ``Parallel`` from an object or from keywords (ValueError for both)."""
    given = {name: value for name, value in settings.items() if value is not None}
    if parallel is None:
        return Parallel(**given)
    workers = given.pop("workers", None)
    if given:
        raise ValueError(f"give {sorted(given)} inside parallel=Parallel(...), not beside it")
    return parallel if workers is None else replace(parallel, workers=workers)


class ParallelSolutionStream(GeneratorStream):
    """Solutions from the workers, a task at a time as tasks finish (in no fixed
    order); ``.stats``, ``.complete`` and ``.stopped_by`` as for ``SolutionStream``."""

    def __init__(
        self,
        problem: Problem,
        limit: int | None,
        options: Parallel,
        *,
        forced=(),
        progress: bool = False,
        engine: str = DEFAULT,
    ):
        self.problem = problem
        self._limit = limit
        self._options = options
        self._forced = tuple(int(k) for k in forced)
        self._progress = progress
        self._engine = select(engine, problem, limit, kept=False, forced=forced).name
        if options.dask is not None:
            dask_client_class()  # fail now, not at the first solution
        self.stats = Stats()
        self.complete = False
        self.stopped_by: str | None = None

    def _run(self):
        """The split's solutions, then each finished task's (a filter over
        ``TaskLoop``), up to the limit."""
        options = self._options
        client, own_client = connect(options.client, options.dask)
        t0 = time.perf_counter()
        loop = None
        bar = Progress(self._progress, "search")
        found = nodes = updates = 0
        finished = False
        try:
            n_workers = worker_count(client, self._options.workers)
            parameters = split_parameters(options, n_workers)
            the_split = split(
                self.problem, self._forced, **parameters, keep_solutions=True, engine=self._engine
            )
            nodes, updates = the_split.nodes, the_split.updates
            for serial in the_split.found:
                if self._limit is not None and found >= self._limit:
                    self.stopped_by = f"solution limit {self._limit}"
                    return
                found += 1
                yield Solution(serial, self.problem)
            job = Job(self.problem, self._forced, self._limit, True, self._engine)
            loop = TaskLoop(job, the_split, options, n_workers, client, bar)
            loop.shown = found
            with closing(loop.results(the_split.tasks)) as results:
                for result in results:
                    nodes += result.nodes
                    updates += result.updates
                    for options_chosen in result.options:
                        if self._limit is not None and found >= self._limit:
                            self.stopped_by = f"solution limit {self._limit}"
                            return
                        found += 1
                        loop.shown = found
                        self.stats = Stats(found, nodes, updates, time.perf_counter() - t0)
                        yield Solution(options_chosen, self.problem)
            finished = loop.finished
            self.complete = finished
        finally:
            self.stats = Stats(found, nodes, updates, time.perf_counter() - t0)
            bar.close(1.0 if finished else None, found)
            if own_client:
                client.close()
