"""The finished part of a stopped task: a frontier, and the subtrees after it.

Glossary
--------
frontier
    The node a stopped search was about to enter, named by its path from the root
    (the task's path, then the branches below it). A kernel pauses only as it enters
    a node, and it searches the task's subtree depth first with branches in order, so
    the subtrees whose paths come before the frontier (in the order of their branch
    numbers) are finished and counted, and the frontier's subtree and every later
    one are untouched. A checkpoint keeps a stopped task's frontier with its count.
rest
    What is left of a task once its search stopped at a frontier ``F``: the subtree at
    ``F``, then, for each level of ``F`` from the deepest up to the task's own, the
    later siblings of ``F``'s node at that level (found by a one-level split below
    their parent; a sibling that is already a solution is a step of its own). Running
    the rest's subtrees in that order is the task's search from ``F`` on, so a search
    stopped there has its own frontier, which is the task's.
"""

from __future__ import annotations

from dlx.driver.codes import DONE, LEAF, PAUSED, SOLUTION
from dlx.engines import make_search

SOLVED = "solved"  # a step of the rest that is one solution (a sibling with nothing to cover)


def rest(job, task_path: tuple[int, ...], frontier: tuple[int, ...]):
    """The steps left of the task at ``task_path`` stopped at ``frontier``, in search
    order: ``(path, None)`` to search the subtree at ``path``, ``(path, SOLVED)`` for
    a sibling that is a solution; and the (nodes, updates) the one-level splits took."""
    steps = [(tuple(frontier), None)]
    nodes = updates = 0
    for depth in range(len(frontier) - 1, len(task_path) - 1, -1):
        search = make_search(
            job.problem,
            job.engine,
            forced=job.forced,
            prefix=frontier[:depth],
            split_depth=len(job.forced) + depth + 1,
        )
        while True:
            code = search.run(stream=True)
            if code in (LEAF, SOLUTION):
                path = tuple(search.path())
                if len(path) > depth and path[depth] > frontier[depth]:
                    steps.append((path, SOLVED if code == SOLUTION else None))
            elif code == DONE:
                break
            elif code != PAUSED:
                raise RuntimeError(f"unexpected kernel code {code} while finding a rest")
        nodes += search.stats.nodes
        updates += search.stats.updates
    return steps, nodes, updates


def stopped_at(search, step_path: tuple[int, ...]) -> tuple[int, ...]:
    """The frontier of a search of the subtree at ``step_path`` that stopped (paused)
    before it was done: the node it was about to enter, or ``step_path`` itself while
    it was still replaying the path down to it."""
    path = tuple(search.path())
    return path if len(path) >= len(step_path) else tuple(step_path)


def fraction_before(search, task_path: tuple[int, ...]) -> float:
    """Knuth's estimate of the share of the task's subtree that comes before the node
    a stopped search was about to enter (the branches taken below the task's path)."""
    index, degree = search._branches()
    start = len(search.forced) + len(task_path)
    fraction, scale = 0.0, 1.0
    for level in range(start, search.level):
        d = max(int(degree[level]), 1)
        scale /= d
        fraction += min(int(index[level]), d - 1) * scale
    return fraction
