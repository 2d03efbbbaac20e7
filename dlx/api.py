"""The public calls: ``count``, ``solutions``, ``first``, ``is_unique`` (and ``batch``).

This is the one place that decides how a search runs:

- which kernel (``engine``: ``"auto"``, the default, races the kernels on the problem
  and continues the winner: see ``dlx.choose``; or a kernel's name: see ``dlx.engines``), and
- serial or parallel. ``workers`` means the same everywhere: a number of processes,
  ``0`` (or None) for every core this process may use, ``1`` for this process alone.
  A search is parallel (cut into tasks by ``dlx.split``, run by ``dlx.workers``) when
  ``workers`` is not 1, when the tasks go to a Dask cluster or an executor, or when a
  ``parallel=dlx.Parallel(...)`` settings object is given (with ``workers=1`` its
  tasks then run one by one in this process, e.g. to keep a checkpoint). The split's
  settings may also come as keywords (``tasks=``, ``split_depth=``, ``checkpoint=``,
  ...); with ``workers=1`` and no ``parallel=`` they are refused rather than quietly
  turning the search parallel.

Counts are exact at any size, whichever kernel runs. The protocol a kernel follows
(``dlx.search.Search`` and ``dlx/kernel.py`` for the dancing-links one): it counts the
solutions it meets one by one in an int64, and the counts its memo adds in K unsigned
64-bit limbs (least significant first; K = 1 to start, the memo storing K limbs per
entry too); an addition that carries out of the top limb returns the code
``dlx.layout.OVERFLOW``, and the search's Python class then starts again from scratch
with a memo of 2K limbs (``Memo.wider()``) and reports ``PAUSED``; its ``solutions``
(and ``stats.solutions``) is the exact Python int. Everything above a search (splits,
workers, parallel sums, checkpoints, ``Count``) holds Python ints.
"""

from __future__ import annotations

import numbers

from dlx import engines
from dlx.options import Parallel
from dlx.problem import Problem
from dlx.search import (
    Count,
    Solution,
    SolutionStream,
    _option_indices,
    batch,
    count_search,
    forced_nodes,
)

__all__ = ["Parallel", "batch", "count", "first", "is_unique", "solutions"]


def _check_call(name: str, problem, limit, node_limit, time_limit) -> None:
    """Refuse what is not a problem, and negative limits, naming the argument."""
    if not isinstance(problem, Problem):
        raise TypeError(
            f"{name}() takes a dlx.Problem, not {type(problem).__name__} "
            "(build one with dlx.Problem(...) or dlx.parse(text))"
        )
    for argument, value in (("limit", limit), ("node_limit", node_limit)):
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0
        ):
            raise ValueError(f"{name}(): {argument} must be an integer >= 0, not {value!r}")
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real) or time_limit < 0
    ):
        raise ValueError(f"{name}(): time_limit must be seconds >= 0, not {time_limit!r}")


def _prepare(name: str, problem, forced, propagate, limit, node_limit, time_limit):
    """The problem to search (with its propagation rule); the forced options checked
    before any kernel sees them (``auto`` hands them to several)."""
    _check_call(name, problem, limit, node_limit, time_limit)
    indices = _option_indices("forced", forced)
    forced_nodes(problem, indices, [0, len(indices)])
    if propagate is not None:
        problem = problem.with_propagation(propagate)
    return problem


def _parallel_settings(workers, parallel: Parallel | None, **settings) -> Parallel | None:
    """The settings of a parallel search, or None for a serial one (see the module)."""
    given = {name: value for name, value in settings.items() if value is not None}
    if parallel is not None:
        if given:
            raise ValueError(f"give {sorted(given)} inside parallel=Parallel(...), not beside it")
        return parallel
    options = Parallel(**given)
    if workers != 1 or options.elsewhere():
        return options
    if given:
        keywords = ", ".join(f"{name}=" for name in sorted(given))
        raise ValueError(
            f"{keywords} split the search for several workers: give workers=N (0: all "
            "cores), or parallel=dlx.Parallel(...) to split it in this process"
        )
    return None


def count(
    problem: Problem,
    limit: int | None = None,
    *,
    forced=(),
    node_limit: int | None = None,
    time_limit: float | None = None,
    progress: bool = False,
    workers: int | None = 1,
    engine: str = engines.DEFAULT,
    propagate: str | None = None,
    parallel: Parallel | None = None,
    tasks: int | None = None,
    split_depth: int | None = None,
    checkpoint=None,
    client=None,
    dask: str | None = None,
    executor=None,
    mp_context=None,
) -> Count:
    """Count the solutions of ``problem`` with no Python work per solution.

    ``limit`` stops at that many solutions; ``node_limit``/``time_limit`` stop the
    search early; the result then has ``complete=False``. ``workers`` and
    ``parallel`` (or its fields as keywords) as in the module's docstring;
    ``engine`` picks the kernel.

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for k in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(k)
    >>> print(count(p))
    2
    """
    problem = _prepare("count", problem, forced, propagate, limit, node_limit, time_limit)
    options = _parallel_settings(
        workers,
        parallel,
        tasks=tasks,
        split_depth=split_depth,
        checkpoint=checkpoint,
        client=client,
        dask=dask,
        executor=executor,
        mp_context=mp_context,
    )
    if options is not None:
        from dlx.parallel import run_count

        choice = engines.select(engine, problem, limit, forced=forced)
        result = run_count(
            problem,
            options,
            workers=workers,
            forced=forced,
            limit=limit,
            node_limit=node_limit,
            time_limit=time_limit,
            progress=progress,
            engine=choice.name,
        ).count
    else:
        search_options = dict(forced=forced, node_limit=node_limit, time_limit=time_limit)
        choice = engines.select(
            engine, problem, limit, memo=limit is None, progress=progress, **search_options
        )
        search = choice.search or engines.make_search(
            problem,
            choice.name,
            progress=progress,
            memo=engines.make_memo(problem, choice.name) if limit is None else None,
            **search_options,
        )
        result = count_search(search, limit, progress)
    result.stats.engine = choice.describe()
    return result


def solutions(
    problem: Problem,
    limit: int | None = None,
    *,
    forced=(),
    node_limit: int | None = None,
    time_limit: float | None = None,
    progress: bool = False,
    workers: int | None = 1,
    engine: str = engines.DEFAULT,
    propagate: str | None = None,
    parallel: Parallel | None = None,
    tasks: int | None = None,
    split_depth: int | None = None,
    client=None,
    dask: str | None = None,
    executor=None,
    mp_context=None,
):
    """Stream the solutions of ``problem``, stopping after ``limit`` of them.

    A parallel stream (see the module's docstring) yields its solutions a task at a
    time, in no fixed order. Keywords as for ``count``.

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for k in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(k)
    >>> [s.options for s in solutions(p)]
    [(0, 1), (2,)]
    """
    problem = _prepare("solutions", problem, forced, propagate, limit, node_limit, time_limit)
    options = _parallel_settings(
        workers,
        parallel,
        tasks=tasks,
        split_depth=split_depth,
        client=client,
        dask=dask,
        executor=executor,
        mp_context=mp_context,
    )
    choice = engines.select(engine, problem, limit, forced=forced)  # a race, then dropped
    if options is not None:
        from dlx.parallel import ParallelSolutionStream

        if node_limit is not None or time_limit is not None:
            raise ValueError("solutions(workers=...) takes no node or time limit")
        if options.checkpoint is not None:
            raise ValueError("a checkpoint records counts: solutions() takes none")
        return ParallelSolutionStream(
            problem,
            limit,
            options,
            workers=workers,
            forced=forced,
            progress=progress,
            engine=choice.name,
        )
    search = engines.make_search(
        problem,
        choice.name,
        forced=forced,
        node_limit=node_limit,
        time_limit=time_limit,
        progress=progress,
    )
    return SolutionStream(search, limit, choice.describe())


def first(problem: Problem, **options) -> Solution | None:
    """The first solution, or None if there is none (keywords as for ``solutions``)."""
    stream = solutions(problem, limit=1, **options)
    for solution in stream:
        return solution
    if not stream.complete:
        raise TimeoutError(f"no solution found before the {stream.stopped_by}")
    return None


def is_unique(problem: Problem, **options) -> bool:
    """True when ``problem`` has exactly one solution (stops at the second; keywords as
    for ``count``)."""
    result = count(problem, limit=2, **options)
    if result.solutions < 2 and not result.complete:
        raise TimeoutError(f"uniqueness undecided: {result}")
    return result.solutions == 1
