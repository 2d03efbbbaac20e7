"""The sudoku kernel's batch call (``dlx.batch(..., engine="sudoku")``)."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from dlx import compiling
from dlx.driver.results import BatchResult, flat_sets
from dlx.errors import ProblemError
from dlx.kernels.sudoku.layout import canonical_items, why_not
from dlx.problem import Problem


def batch(
    problem: Problem,
    forced_sets,
    limit: int = 2,
    *,
    start=None,
    depth=None,
    propagate=None,
    workers: int = 1,
) -> BatchResult:
    """``dlx.batch`` on the sudoku kernel: one search of the 9x9 sudoku problem (see
    ``dlx.kernels.sudoku.layout``) per forced set (the givens), all in one kernel call;
    arguments and result as for ``dlx.kernels.links.search.batch`` (``propagate`` is
    ignored: the kernel's forced moves are its own, see ``kernel.py``). The forced
    options are taken at the root: the nodes are the search's below them. ``workers``
    threads (0: one a core) each search a slice of the sets (the kernel holds no GIL).

    >>> p = sudoku_problem()
    >>> result = batch(p, [[0, 10, 20]], limit=2)
    >>> result.counts.tolist()
    [2]
    """
    why = why_not(problem)
    if why is not None:
        raise ProblemError(f"batch(): {why}")
    _warm_up_batch()
    search_batch = _kernel().search_batch
    options, start = flat_sets(forced_sets, start)
    n_sets = len(start) - 1
    if n_sets < 0 or start[0] != 0 or start[-1] != len(options) or np.any(np.diff(start) < 0):
        problem.check_forced(options, start)  # (its error says what is wrong)
    if len(options) and (options.min() < 0 or options.max() >= problem.n_options):
        problem.check_forced(options, start)
    depth = 81 if depth is None else max(int(depth), 1)
    counts = np.zeros(n_sets, np.int64)
    first = np.zeros((n_sets, 81), np.int64)
    stats = np.zeros((n_sets, 2), np.int64)
    t0 = time.perf_counter()
    limit = max(int(limit), 1)
    threads = (os.cpu_count() or 1) if workers == 0 else max(int(workers), 1)
    threads = min(threads, max(n_sets, 1))
    edges = np.linspace(0, n_sets, threads + 1).astype(np.int64).tolist()
    slices = [slice(a, b) for a, b in zip(edges[:-1], edges[1:], strict=True) if b > a]
    if len(slices) <= 1:
        search_batch(options, start, limit, first, counts, stats)
    else:
        with ThreadPoolExecutor(len(slices)) as pool:
            done = [
                pool.submit(
                    search_batch,
                    options,
                    start[s.start : s.stop + 1],
                    limit,
                    first[s],
                    counts[s],
                    stats[s],
                )
                for s in slices
            ]
            for future in done:
                future.result()
    seconds = time.perf_counter() - t0
    if np.any(counts < 0):  # a set whose options clash: say how, as dlx.batch does
        k = int(np.flatnonzero(counts < 0)[0])
        clash = options[start[k] : start[k + 1]]
        problem.check_forced(clash)
        raise ProblemError(f"forced options {clash.tolist()} clash")
    if depth < 81 and np.any(first[:, depth:] >= 0):
        raise ProblemError(f"depth {depth} is too small for a first solution")
    return BatchResult(counts, first[:, :depth], stats[:, 0], stats[:, 1], seconds, options, start)


def sudoku_problem() -> Problem:
    """The empty 9x9 grid's problem in the kernel's own numbering (items named by
    number), for tests and warm-ups."""
    problem = Problem(primary=[str(j) for j in range(324)])
    for items in canonical_items().tolist():
        problem.add_option([str(j) for j in items])
    return problem


def _kernel():
    """The kernel's module (and numba with it), imported on first use: importing the
    registry (``dlx.engines``) loads no numba, so that a command gets to its first
    compile (or starts one in another process) sooner."""
    return compiling.kernel_module("dlx.kernels.sudoku.kernel")


def _warm_up_batch() -> None:
    """Make sure ``kernel.search_batch`` is compiled before a batch starts timing."""
    compiling.warm(
        "sudoku batch", _kernel().search_batch, False, lambda: batch(sudoku_problem(), [[0]], 1)
    )


compiling.register(_warm_up_batch)
