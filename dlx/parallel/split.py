"""Cutting a search tree into subproblems (tasks) for workers.

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
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from dataclasses import dataclass

from dlx import compiling
from dlx.driver.codes import DONE, LEAF, PAUSED, SOLUTION
from dlx.engines import DEFAULT, make_search, resolve
from dlx.problem import Problem

MAX_SPLIT_LEVELS = 64  # never expand a path longer than this
MAX_TASKS = 200_000  # stop expanding once the split has this many tasks


@dataclass(frozen=True)
class Task:
    """A subproblem: its number in the split, its path and its share of the tree;
    ``frontier``: where an earlier run of it stopped (``dlx.parallel.frontier``), for
    a task that goes on from there."""

    index: int
    path: tuple[int, ...]
    weight: float
    frontier: tuple[int, ...] | None = None


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


def _leaves(search, stream: bool, leaves: list, found: list) -> None:
    """Run a splitting search to the end: its leaves as (path, weight), its solutions."""
    while True:
        code = search.run(stream=stream)
        if code == LEAF:
            leaves.append((tuple(search.path()), search.path_weight()))
        elif code == SOLUTION:
            found.append(search.current_options())
        elif code == DONE:
            return
        elif code != PAUSED:
            raise RuntimeError(f"unexpected kernel code {code} while splitting")


def split(
    problem: Problem,
    forced=(),
    *,
    tasks: int = 64,
    split_depth: int | None = None,
    keep_solutions: bool = False,
    engine: str = DEFAULT,
) -> Split:
    """Split the search tree of ``problem`` into subproblems.

    Parameters
    ----------
    tasks : aim for subproblems no heavier than ``1 / tasks`` of the tree (the split
        usually has several times as many, as a node's children share its weight).
    split_depth : if given, every node at this depth (below the forced options) is a
        subproblem, and ``tasks`` is ignored.
    keep_solutions : keep the solutions met while splitting (``Split.found``).
    engine : the kernel whose search tree is split (see ``dlx.engines``).

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
    engine = resolve(engine, problem)  # "auto": one choice for every node of the split
    t0, warming = time.perf_counter(), compiling.seconds()
    solutions = nodes = updates = 0
    final: list[tuple[tuple[int, ...], float]] = []
    found: list[tuple[int, ...]] = []
    if split_depth is not None:
        parameters = {"split_depth": int(split_depth)}
        search = make_search(
            problem, engine, forced=forced, split_depth=len(forced) + int(split_depth)
        )
        _leaves(search, keep_solutions, final, found)
        stats = search.stats
        solutions, nodes, updates = stats.solutions, stats.nodes, stats.updates
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
            search = make_search(problem, engine, forced=forced, prefix=path, split_depth=depth)
            children: list = []
            _leaves(search, keep_solutions, children, found)
            stats = search.stats
            solutions += stats.solutions
            nodes += stats.nodes
            updates += stats.updates
            queue.extend(children)
    final.sort(key=lambda pw: -pw[1])  # stable: equal weights keep the search's order
    numbered = tuple(Task(k, path, weight) for k, (path, weight) in enumerate(final))
    seconds = time.perf_counter() - t0 - (compiling.seconds() - warming)  # not compiling
    return Split(numbered, solutions, nodes, updates, seconds, parameters, tuple(found))
