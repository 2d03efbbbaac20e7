"""The k cheapest solutions on every core, or on a Dask cluster, with checkpoints
(``dlx.best(problem, k, parallel=dlx.Parallel(...))``).

The tree is split as a count's is (``dlx.parallel.split``, on the dancing-links
kernel's tree): a task is a node of it, named by its path, and its subtree holds the
solutions that contain the options chosen on the path, each solution in one task (or
met by the split itself). A task runs the branch-and-bound kernel of ``dlx.costs`` with
those options chosen before it starts and with a *cutoff*: the k-th best cost known
when the task was sent (the best solutions are kept here, from the split's solutions
and the finished tasks' lists); it returns its own cheapest solutions under the cutoff,
at most k. The cutoff only tightens as results come in, and each task is sent as late
as it can be (``TaskLoop``'s ``prepare``) so that it goes with the tightest one. The k
best of the split's solutions and of all the tasks' lists are the k best: a solution
cheaper than the final k-th best cost is under every cutoff, so its task returned it,
unless its task found k cheaper ones.

Among solutions of equal cost, which ones come back depends on the order in which the
tasks finished; the costs do not.

A checkpoint (``Checkpoint(kind="best")``) records each finished task with its list,
costs and options; a rerun takes the lists back, starts from their cutoff and runs the
tasks left, with the same costs as an answer.
"""

from __future__ import annotations

import bisect
import hashlib
import time
from contextlib import closing
from dataclasses import dataclass, replace

from dlx.driver.codes import DONE, LEAF, PAUSED
from dlx.driver.results import Progress
from dlx.engines import make_search, tree_version
from dlx.kernels.costs.search import Best, Layout, check_problem, search_best
from dlx.options import Parallel
from dlx.parallel.checkpoint import CHECKPOINT_VERSION, Checkpoint, CheckpointError, Tree
from dlx.parallel.run import TaskLoop, checked_parameters, split_parameters
from dlx.parallel.split import split
from dlx.parallel.workers import connect, worker_count, worker_job
from dlx.problem import Problem, ProblemError
from dlx.stopping import Interrupted

SPLIT_ENGINE = "dlx"  # the kernel whose tree the split cuts (its paths name the tasks)


@dataclass(frozen=True)
class BestJob:
    """What every task of one run shares: the problem, k and the limits."""

    problem: Problem
    k: int
    node_limit: int | None = None  # each task's, at most
    deadline: float | None = None  # wall clock (time.time()) at which every task stops


@dataclass(frozen=True)
class BestTask:
    """A task as it goes to a worker: the split's task and the cutoff it was sent with
    (a total cost; None while fewer than k solutions are known)."""

    index: int
    path: tuple[int, ...]
    weight: float
    cutoff: int | None


@dataclass(frozen=True)
class BestTaskResult:
    """A finished task: its cheapest solutions under its cutoff (cheapest first)."""

    index: int
    costs: tuple[int, ...]
    solutions: tuple[tuple[int, ...], ...]
    nodes: int
    seconds: float
    complete: bool
    stopped_by: str | None = None


_WORKER_LAYOUT: tuple = (None, None)  # (job, its Layout): shared by the job's tasks here


def _layout(job: BestJob) -> Layout:
    """The kernel's layout of the job's problem, made once in each process."""
    global _WORKER_LAYOUT
    if _WORKER_LAYOUT[0] is not job:
        _WORKER_LAYOUT = (job, Layout(job.problem))
    return _WORKER_LAYOUT[1]


def path_options(problem: Problem, path: tuple[int, ...]) -> tuple[int, ...]:
    """The options chosen on ``path`` in the split's tree."""
    search = make_search(_plain(problem), SPLIT_ENGINE, prefix=path, split_depth=len(path))
    while True:
        code = search.run(stream=True)
        if code == LEAF:
            return search.current_options()
        if code == DONE or code != PAUSED:
            raise RuntimeError(f"the path {path} names no node of the split's tree")


def run_best_task(task: BestTask, job: BestJob | None = None) -> BestTaskResult:
    """Find the task's k cheapest solutions under its cutoff (the task runner of a
    parallel ``dlx.best``; ``job`` None: the job this worker process was given)."""
    job = worker_job(job)
    t0 = time.perf_counter()
    layout = _layout(job)
    chosen = path_options(job.problem, task.path)
    state = layout.task_state(job.k, chosen, task.cutoff)
    time_limit = None if job.deadline is None else max(job.deadline - time.time(), 0.0)
    found = search_best(layout, job.k, job.node_limit, time_limit, state, chosen)
    return BestTaskResult(
        task.index,
        found.costs,
        found.solutions,
        found.nodes,
        time.perf_counter() - t0,
        found.proven,
        found.stopped_by,
    )


class _Kept:
    """The k cheapest solutions known, as (cost, options) in increasing order."""

    def __init__(self, k: int):
        self.k = k
        self.rows: list[tuple[int, tuple[int, ...]]] = []

    def add(self, cost: int, solution) -> None:
        """Keep ``solution`` if it is among the k cheapest so far."""
        row = (int(cost), tuple(sorted(int(o) for o in solution)))
        if len(self.rows) == self.k and row >= self.rows[-1]:
            return
        bisect.insort(self.rows, row)
        del self.rows[self.k :]

    def cutoff(self) -> int | None:
        """The cost a new solution must beat (None until k are known)."""
        return self.rows[-1][0] if len(self.rows) == self.k else None


@dataclass(frozen=True)
class BestTree:
    """The tree a best run's checkpoint records: the split's tree (the problem without
    propagation, searched by the split's kernel) and the options' costs."""

    problem: Problem
    engine = SPLIT_ENGINE  # (a best run records no stopped task: no frontier in its tree)

    @property
    def tree_version(self) -> int:
        """The version of the split's kernel's tree (``Tree.tree_version``)."""
        return tree_version(SPLIT_ENGINE)

    def digest(self, version: int = CHECKPOINT_VERSION) -> str:
        """The digest of the split's tree in checkpoint ``version``, and the costs."""
        costs = ",".join(str(self.problem.option_cost(o)) for o in range(self.problem.n_options))
        tree = Tree(_plain(self.problem), (), SPLIT_ENGINE, tree_version=self.tree_version)
        text = f"{tree.digest(version)} best {costs}"
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def _plain(problem: Problem) -> Problem:
    """The problem without propagation (the split's tree is the plain one)."""
    return problem if problem.propagate is None else problem.with_propagation(None)


def _resumed(store: Checkpoint | None, kept: _Kept, k: int) -> tuple[set[int], int]:
    """Take the finished tasks' lists from the checkpoint into ``kept``: their
    numbers and nodes."""
    if store is None:
        return set(), 0
    if store.header is not None and store.header.get("k") != k:
        raise CheckpointError(
            f"{store.path}: the checkpoint keeps the {store.header.get('k')} best, "
            f"not the {k} best; use another file or delete it"
        )
    nodes = 0
    for index, record in store.done.items():
        costs, options = record.get("costs"), record.get("options")
        if not (isinstance(costs, list) and isinstance(options, list)) or len(costs) != len(
            options
        ):
            raise CheckpointError(f"{store.path}: task {index} has no list of the best")
        for cost, solution in zip(costs, options, strict=True):
            kept.add(cost, solution)
        nodes += int(record.get("nodes", 0))
    return set(store.done), nodes


def run_best(
    problem: Problem,
    k: int,
    options: Parallel,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
    progress: bool = False,
) -> Best:
    """The k cheapest solutions of ``problem`` in tasks, as ``options`` say (see the
    module's docstring; ``dlx.best`` checks the arguments and calls this)."""
    check_problem(problem)
    layout = Layout(problem)
    if layout.infeasible:
        return Best((), (), True, None, 0)
    if layout.too_large:
        raise ProblemError(
            "costs this large are summed exactly on one core only: call dlx.best without parallel"
        )
    deadline = None if time_limit is None else time.time() + time_limit
    store = None
    if options.checkpoint is not None:
        store = Checkpoint(options.checkpoint, kind="best", fields={"k": k})
    client, own_client = None, False
    try:
        client, own_client = connect(options.client, options.dask)
        n_workers = worker_count(client, options.workers)
        tree = BestTree(problem)
        asked = split_parameters(options, n_workers)
        parameters = checked_parameters(store, tree, options, asked)
        the_split = split(_plain(problem), **parameters, keep_solutions=True, engine=SPLIT_ENGINE)
        if store is not None:
            store.start(tree, the_split)
        kept = _Kept(k)
        for solution in the_split.found:
            kept.add(sum(problem.option_cost(o) for o in solution), solution)
        done, nodes = _resumed(store, kept, k)
        job = BestJob(problem, k, node_limit, deadline)
        limits = (node_limit, time_limit)
        run = _BestRun(job, the_split, store, kept, nodes + the_split.nodes, limits)
        return run.loop(replace(options, task_runner=run_best_task), n_workers, client, done,
                        progress)  # fmt: skip
    finally:
        if store is not None:
            store.close()
        if own_client:
            client.close()


class _BestRun:
    """The fold of a parallel ``dlx.best`` over ``TaskLoop``: each task's list into the
    k best kept, its record into the checkpoint, the limits checked."""

    def __init__(self, job: BestJob, the_split, store, kept: _Kept, nodes: int, limits):
        self.job, self.split, self.store, self.kept = job, the_split, store, kept
        self.nodes = nodes
        self.node_limit, self.time_limit = limits
        self.stopped_by: str | None = None

    def over_limit(self) -> str | None:
        """The limit reached, if one is."""
        if self.node_limit is not None and self.nodes >= self.node_limit:
            return f"node limit {self.node_limit}"
        if self.job.deadline is not None and time.time() >= self.job.deadline:
            return f"time limit {self.time_limit:g} s"
        return None

    def halt(self, running_nodes: int) -> bool:
        """Whether to stop while tasks run (``TaskLoop``'s ``halt``)."""
        self.stopped_by = self.over_limit()
        return self.stopped_by is not None

    def prepare(self, task) -> BestTask:
        """The task with the cutoff known now."""
        return BestTask(task.index, task.path, task.weight, self.kept.cutoff())

    def loop(self, options: Parallel, n_workers: int, client, done: set, progress) -> Best:
        """Run the tasks not ``done`` and keep the k best of their lists."""
        tasks = self.split.tasks
        todo = [t for t in tasks if t.index not in done]
        done_weight = sum(tasks[i].weight for i in done)
        bar = None
        loop = None
        finished = not todo
        try:
            bar = Progress(
                progress, "best", initial=done_weight / (sum(t.weight for t in tasks) or 1)
            )
            loop = TaskLoop(self.job, self.split, options, n_workers, client, bar,
                            done_weight=done_weight, halt=self.halt)  # fmt: skip
            with closing(loop.results(todo, prepare=self.prepare)) as results:
                for result in results:
                    self.take(tasks[result.index], result)
                    loop.shown = len(self.kept.rows)
                    self.stopped_by = self.over_limit() or (
                        None if result.complete else result.stopped_by
                    )
                    if self.stopped_by is not None:
                        break
            finished = loop.finished and self.stopped_by is None
        except KeyboardInterrupt:
            where = self.store.path if self.store is not None else None
            raise Interrupted(None, where) from None
        finally:
            if bar is not None:
                bar.close(1.0 if finished else None, len(self.kept.rows))
        rows = self.kept.rows
        return Best(
            tuple(s for _, s in rows),
            tuple(c for c, _ in rows),
            finished,
            None if finished else self.stopped_by,
            self.nodes,
        )

    def take(self, task, result: BestTaskResult) -> None:
        """Keep a finished task's solutions among the best; record it if complete."""
        self.nodes += result.nodes
        for cost, solution in zip(result.costs, result.solutions, strict=True):
            self.kept.add(cost, solution)
        if result.complete and self.store is not None:
            self.store.record_fields(
                task,
                {
                    "solutions": len(result.costs),
                    "nodes": result.nodes,
                    "costs": list(result.costs),
                    "options": [list(s) for s in result.solutions],
                    "seconds": round(result.seconds, 4),
                },
            )
