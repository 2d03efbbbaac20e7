"""The settings of a parallel search, in one object (``dlx.Parallel``)."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import Any

from dlx import numbers
from dlx.numbers import whole

ALL_CORES = 0  # workers=0: every core this process may use


@dataclass(frozen=True)
class Parallel:
    """How a search is cut into tasks and where the tasks run.

    Parameters
    ----------
    workers : processes to run the tasks on: ``0`` (the default) every core this
        process may use, ``1`` this process alone (the tasks one by one, e.g. to keep
        a checkpoint); ignored with a Dask client.
    tasks : the split's granularity: tasks no heavier than ``1 / tasks`` of the tree
        (default 32 per worker; see ``dlx.parallel.split.split``).
    split_depth : split at this depth instead (every node there is a task).
    checkpoint : a file recording finished tasks (of a count, or of ``dlx.best``); a
        rerun skips them.
    client : a ``dask.distributed.Client``; or ``dask``: a scheduler's address.
    executor : any ``concurrent.futures.Executor`` to run the tasks on.
    mp_context : the ``multiprocessing`` context of a process pool made here.
    task_runner : a picklable function ``(task, job=None) -> TaskResult`` that runs
        one task (default ``dlx.parallel.workers.run_task``; tests inject theirs).

    Notes
    -----
    Passing ``parallel=Parallel(...)`` to ``dlx.count`` or ``dlx.solutions`` is the one
    way to ask for a parallel search (the split is made even with ``workers=1``).

    >>> Parallel(tasks=8)
    Parallel(tasks=8)
    >>> Parallel(workers=2, checkpoint="count.ckpt")
    Parallel(workers=2, checkpoint='count.ckpt')
    """

    workers: int = ALL_CORES
    tasks: int | None = None
    split_depth: int | None = None
    checkpoint: Any = None
    client: Any = None
    dask: str | None = None
    executor: Any = None
    mp_context: Any = None
    task_runner: Any = None

    def __post_init__(self) -> None:
        # the numbers as ``dlx.numbers`` takes them (numpy integers yes, floats no); a
        # split depth over ``numbers.LARGEST``, deeper than any tree, is taken as that
        whole("workers", self.workers)
        if self.tasks is not None:
            object.__setattr__(self, "tasks", whole("tasks", self.tasks, minimum=1))
        if self.split_depth is not None:
            depth = whole("split_depth", self.split_depth)
            object.__setattr__(self, "split_depth", min(depth, numbers.LARGEST))

    def __repr__(self) -> str:
        given = ", ".join(
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if getattr(self, f.name) != f.default
        )
        return f"Parallel({given})"

    def elsewhere(self) -> bool:
        """Whether the tasks run on an executor or cluster given by the caller."""
        return self.client is not None or self.dask is not None or self.executor is not None


def default_workers() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def resolve_workers(workers: int) -> int:
    """``workers`` as a number of processes: 0 is every core; ValueError below 0."""
    workers = whole("workers", workers)
    return default_workers() if workers == ALL_CORES else workers
