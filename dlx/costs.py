"""The k cheapest solutions of a problem whose options have costs (Knuth's DLX5).

A solution costs the sum of its options' costs (``Problem.add_option(..., cost=c)``,
or ``|c`` in a ``.dlx`` file). ``best(problem, k)`` finds the k cheapest solutions by
branch and bound (``dlx/kernels/costs/``): before the search each primary item gets a
*tax*, and each option's cost becomes its *net cost*, its cost less the taxes of its
primary items. The taxes are chosen so that no net cost is negative; then every
solution costs the total tax plus the net costs of its options, so the cheapest option
of every open item bounds the cost of what is left from below, and an option whose net
cost alone reaches the cutoff is never tried; so does the sum over the open items of
their cheapest option's share (see the kernel's essay).

The taxes: first each item gets the least *share* (an option's cost divided by its
number of primary items, rounded down) among its options; then, item by item in order,
the least net cost left among its options, as DLX5 assesses them (so each item has an
option of net cost 0). Both steps keep every net cost at 0 or more.

Options without primary items are never chosen (DLX5 ignores them too).
"""

from __future__ import annotations

import heapq

from dlx.kernels.costs.search import Best, Layout, check_problem, search_best
from dlx.numbers import seconds, whole
from dlx.problem import Problem

__all__ = ["Best", "best"]


def best(
    problem: Problem,
    k: int = 1,
    *,
    node_limit: int | None = None,
    time_limit: float | None = None,
    parallel=None,
    progress: bool = False,
) -> Best:
    """The ``k`` cheapest solutions of ``problem``, in increasing order of cost.

    Among solutions of equal cost, which ones come back depends on the search order (the
    same for the same problem on one core; on several, the order in which tasks
    finish). ``node_limit``/``time_limit`` stop the search early: the result then says
    ``proven=False``. Colours are supported; multiplicities and loop items are not
    (``ProblemError``). ``parallel=dlx.Parallel(...)``: the search in tasks, on every
    core or a Dask cluster, with a checkpoint if it names one (see
    ``dlx.parallel.best``; the node limit is then each task's and the whole run's);
    ``progress``: a bar on stderr (parallel only).

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for items, cost in ((["a"], 3), (["b"], 4), (["a", "b"], 5)):
    ...     _ = p.add_option(items, cost=cost)
    >>> result = best(p, k=2)
    >>> result.costs, result.solutions, result.proven
    ((5, 7), ((2,), (0, 1)), True)
    """
    if not isinstance(problem, Problem):
        raise TypeError(f"best() takes a dlx.Problem, not {type(problem).__name__}")
    k = whole("k", k, minimum=1)
    node_limit = None if node_limit is None else whole("node_limit", node_limit)
    time_limit = seconds("time_limit", time_limit)
    if parallel is not None:
        from dlx.parallel.best import run_best

        limits = {"node_limit": node_limit, "time_limit": time_limit}
        return run_best(problem, k, parallel, **limits, progress=progress)
    check_problem(problem)
    layout = Layout(problem)
    if layout.infeasible:
        return Best((), (), True, None, 0)
    if layout.too_large:
        return _best_python(problem, set(layout.kept.tolist()), k, node_limit, time_limit)
    return search_best(layout, k, node_limit, time_limit)


def _best_python(problem: Problem, kept: set[int], k: int, node_limit, time_limit) -> Best:
    """The k best by streaming every solution (exact for costs of any size; used when
    the costs are too large for the kernel's 64-bit sums); solutions with an option
    outside ``kept`` (one without primary items) are passed over, as the kernel does."""
    from dlx.api import solutions

    stream = solutions(problem, node_limit=node_limit, time_limit=time_limit)
    heap: list[tuple[int, int, tuple[int, ...]]] = []  # (-cost, -order, options)
    for order, solution in enumerate(stream):
        options = tuple(sorted(solution.options))
        if not kept.issuperset(options):
            continue
        cost = sum(problem.option_cost(o) for o in options)
        entry = (-cost, -order, options)
        if len(heap) < k:
            heapq.heappush(heap, entry)
        elif entry > heap[0]:
            heapq.heapreplace(heap, entry)
    ranked = sorted(heap, reverse=True)
    return Best(
        tuple(e[2] for e in ranked),
        tuple(-e[0] for e in ranked),
        stream.complete,
        None if stream.complete else stream.stopped_by,
        int(stream.stats.nodes),
    )
