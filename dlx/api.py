"""The public calls: ``count``, ``solutions``, ``first``, ``is_unique`` (and ``batch``).

This is the one place that decides how a search runs:

- which kernel (``engine``: ``"auto"``, the default, times the kernels that take the
  problem on samples of it and runs the fastest: see ``dlx.driver.choose``; or a kernel's
  name, to force it: see ``dlx.engines``), and
- serial or parallel: a search is parallel (cut into tasks by ``dlx.parallel.split``, run by
  ``dlx.parallel.workers``) when it is given ``parallel=dlx.Parallel(...)``, the one object
  that holds the settings of a split (``workers``: ``0``, the default, for every core
  this process may use, ``1`` for this process alone, the tasks one by one, e.g. to
  keep a checkpoint; ``tasks``, ``split_depth``, ``checkpoint``, ``client``, ...).
  The settings given as loose keywords (``workers=``, ``tasks=``, ``checkpoint=``,
  ...) are deprecated: they still work in this release, with a DeprecationWarning.

Counts are exact at any size, whichever kernel runs. The protocol a kernel follows
(``dlx.driver.driver.Driver``; ``dlx/kernels/links/kernel.py`` for the dancing-links one):
it keeps its
counts in K unsigned 64-bit limbs (least significant first; K = 1 to start, its memo
storing K limbs per entry too); an addition that carries out of the top limb returns
the code ``dlx.driver.codes.OVERFLOW``, and the driver then starts the search again from
scratch with counts of 2K limbs (``Driver.run``); its ``solutions`` (and
``stats.solutions``) is the exact Python int. Everything above a search (splits,
workers, parallel sums, checkpoints, ``Count``) holds Python ints.
"""

from __future__ import annotations

import warnings
from dataclasses import replace

from dlx import engines, numbers
from dlx.driver.driver import option_indices
from dlx.driver.results import Count, Solution, SolutionStream, count_search
from dlx.options import ALL_CORES, Parallel
from dlx.problem import Problem
from dlx.stopping import Interrupted

__all__ = ["Parallel", "batch", "count", "first", "is_unique", "solutions"]


def _check_call(name: str, problem, limit, node_limit, time_limit):
    """Refuse what is not a problem, and limits that are not whole numbers >= 0 (or
    seconds >= 0), naming the argument (``dlx.numbers``); return the limits, a limit
    too large to reach (over ``numbers.LARGEST``) as None: no limit."""
    if not isinstance(problem, Problem):
        raise TypeError(
            f"{name}() takes a dlx.Problem, not {type(problem).__name__} "
            "(build one with dlx.Problem(...) or dlx.parse(text))"
        )
    return (
        numbers.cap(f"{name}(): limit", limit, numbers.LARGEST),
        numbers.cap(f"{name}(): node_limit", node_limit, numbers.LARGEST),
        numbers.seconds(f"{name}(): time_limit", time_limit),
    )


def _prepare(name: str, problem, forced, propagate, limit, node_limit, time_limit):
    """The problem to search (with its propagation rule) and its limits (see
    ``_check_call``); the forced options checked before any kernel sees them (``auto``
    hands them to several)."""
    limits = _check_call(name, problem, limit, node_limit, time_limit)
    indices = option_indices("forced", forced)
    if indices:  # (a problem with none never builds the dancing-links arrays here)
        problem.check_forced(indices)
    if propagate is not None:
        problem = problem.with_propagation(propagate)
    return (problem, *limits)


LOOSE = (
    "workers",
    "tasks",
    "split_depth",
    "checkpoint",
    "client",
    "dask",
    "executor",
    "mp_context",
)


def _parallel_settings(name: str, parallel: Parallel | None, loose: dict) -> Parallel | None:
    """The settings of a parallel search, or None for a serial one: ``parallel``, or
    the deprecated loose keywords (``workers=``, ``tasks=``, ...), with a warning."""
    unknown = sorted(set(loose) - set(LOOSE))
    if unknown:
        raise TypeError(f"{name}() got an unexpected keyword argument {unknown[0]!r}")
    if parallel is not None and not isinstance(parallel, Parallel):
        raise TypeError(f"{name}(): parallel must be a dlx.Parallel, not {parallel!r}")
    if not loose:
        return parallel
    keywords = ", ".join(f"{k}=" for k in sorted(loose))
    inside = ", ".join(f"{k}=..." for k in sorted(loose))
    warnings.warn(
        f"{name}(): the keywords {keywords} are deprecated and go in the next release: "
        f"give parallel=dlx.Parallel({inside}) instead",
        DeprecationWarning,
        stacklevel=3,
    )
    has_workers = "workers" in loose
    workers = loose.pop("workers", 1)
    workers = ALL_CORES if workers is None else workers  # None: all cores, as before
    given = {key: value for key, value in loose.items() if value is not None}
    if parallel is not None:
        if given:
            raise ValueError(f"give {sorted(given)} inside parallel=Parallel(...), not beside it")
        return replace(parallel, workers=workers) if has_workers else parallel
    options = Parallel(workers=workers, **given)
    if options.workers != 1 or options.elsewhere():
        return options
    if given:
        raise ValueError(
            f"{', '.join(f'{k}=' for k in sorted(given))} split the search for several "
            "workers: give parallel=dlx.Parallel(...) (workers=1: the tasks in this process)"
        )
    return None


def _select(
    engine: str, problem: Problem, limit: int | None, chooser=None, **keywords
) -> engines.Choice:
    """``engines.select`` (or ``chooser``, called alike); Ctrl-C while ``auto``
    measures the kernels is an interrupted search (``dlx.Interrupted``: at least 0
    solutions), as it is later."""
    try:
        return (chooser or engines.select)(engine, problem, limit, **keywords)
    except Interrupted:
        raise
    except KeyboardInterrupt:
        raise Interrupted(0) from None


def _counted_by_choice(choice, here: bool, ended: bool) -> bool:
    """Whether ``auto``'s choice for a parallel count ended the count itself (a small
    count, done while the leading kernel was timed: where it may have ``ended`` here,
    ``_here`` but for a time limit, which a count already done has not reached), or is
    a whole count to run in this process (a partial 9x9 sudoku's, by the sudoku
    kernel: only where it may be counted ``here``), so that no worker need start."""
    search = choice.search
    whole = choice.name in engines.BATCH_KERNELS  # its search not run yet: runs here
    return search is not None and ((ended and search.done) or (here and whole))


def _here(options: Parallel, node_limit, time_limit) -> bool:
    """Whether a parallel count may be counted in this process instead: it has no node
    or time limit (the choice runs without them) and only processes of this machine's
    pool to run its tasks (a checkpoint, Dask, a client, an executor or a task runner of
    the caller's would be left without their tasks)."""
    given = (options.checkpoint, options.dask, options.client, options.executor)
    plain = node_limit is None and time_limit is None
    return plain and all(x is None for x in (*given, options.task_runner))


def count(
    problem: Problem,
    limit: int | None = None,
    *,
    forced=(),
    node_limit: int | None = None,
    time_limit: float | None = None,
    progress: bool = False,
    engine: str = engines.DEFAULT,
    propagate: str | None = None,
    parallel: Parallel | None = None,
    **deprecated,
) -> Count:
    """Count the solutions of ``problem`` with no Python work per solution.

    ``limit`` stops at that many solutions; ``node_limit``/``time_limit`` stop the
    search early; the result then has ``complete=False``. ``parallel``: a
    ``dlx.Parallel`` to cut the search into tasks run on several processes (see the
    module's docstring); ``engine`` picks the kernel, ``propagate`` a propagation
    rule (``Problem.with_propagation``). The loose keywords of earlier versions
    (``workers=``, ``tasks=``, ``checkpoint=``, ``client=``, ...) still work, with a
    DeprecationWarning.

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for k in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(k)
    >>> print(count(p))
    2
    """
    problem, limit, node_limit, time_limit = _prepare(
        "count", problem, forced, propagate, limit, node_limit, time_limit
    )
    options = _parallel_settings("count", parallel, deprecated)
    if options is not None:
        from dlx.parallel import run as parallel

        here = _here(options, node_limit, time_limit)
        choice = _select(
            engine,
            problem,
            limit,
            parallel.kernel_choice,
            options=options,
            forced=forced,
            time_limit=time_limit,
            whole=here,
        )
        if _counted_by_choice(choice, here, _here(options, node_limit, None)):
            result = count_search(choice.search, limit, progress)
        else:
            result = parallel.run_count(
                problem,
                options,
                forced=forced,
                limit=limit,
                node_limit=node_limit,
                time_limit=time_limit,
                progress=progress,
                engine=choice.name,
            ).count
    else:
        choice, search = _serial(problem, engine, limit, forced, node_limit, time_limit, progress)
        result = count_search(search, limit, progress)
    result.stats.engine = choice.describe()
    return result


def _serial(problem: Problem, engine: str, limit, forced, node_limit, time_limit, progress):
    """The kernel's choice and the search of a serial count (``auto``'s may have run)."""
    search_options = dict(forced=forced, node_limit=node_limit, time_limit=time_limit)
    choice = _select(
        engine, problem, limit, memo=limit is None, progress=progress, **search_options
    )
    search = choice.search or engines.make_search(
        problem,
        choice.name,
        progress=progress,
        memo=engines.make_memo(problem, choice.name) if limit is None else None,
        **search_options,
    )
    return choice, search


def count_started(
    problem: Problem, node_limit: int, go_on, *, engine: str = engines.DEFAULT
) -> Count:
    """A serial count of ``problem`` stopped at ``node_limit`` nodes and then, where
    ``go_on`` (called with that ``Count``) gives a number of seconds, the same search
    gone on with for at most that long (never counted again from the start): how the
    command line's default count tries a small count on one core first."""
    problem, _, node_limit, _ = _prepare("count", problem, (), None, None, node_limit, None)
    choice, search = _serial(problem, engine, None, (), node_limit, None, False)
    result = count_search(search, None, False)
    seconds = None if result.complete else go_on(result)
    if seconds is not None:
        search.go_on_for(seconds)
        result = count_search(search, None, False)
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
    engine: str = engines.DEFAULT,
    propagate: str | None = None,
    parallel: Parallel | None = None,
    **deprecated,
):
    """Stream the solutions of ``problem``, stopping after ``limit`` of them.

    A parallel stream (``parallel=dlx.Parallel(...)``) yields its solutions a task at
    a time, in no fixed order, and takes no node or time limit nor checkpoint.
    Keywords as for ``count``.

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for k in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(k)
    >>> [s.options for s in solutions(p)]
    [(0, 1), (2,)]
    """
    problem, limit, node_limit, time_limit = _prepare(
        "solutions", problem, forced, propagate, limit, node_limit, time_limit
    )
    options = _parallel_settings("solutions", parallel, deprecated)
    choice = _select(engine, problem, limit, kept=False, forced=forced)  # a race, then dropped
    if options is not None:
        from dlx.parallel.run import ParallelSolutionStream

        if node_limit is not None or time_limit is not None:
            raise ValueError("a parallel solutions() takes no node or time limit")
        if options.checkpoint is not None:
            raise ValueError("a checkpoint records counts: solutions() takes none")
        return ParallelSolutionStream(
            problem, limit, options, forced=forced, progress=progress, engine=choice.name
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


BATCH_ENGINES = {name: row.batch for name, row in engines.ENGINES.items() if row.batch}
BATCH_ENGINES.update({name: row.batch for name, row in engines.BATCH_KERNELS.items()})


def batch(
    problem: Problem,
    forced_sets,
    limit: int = 2,
    *,
    start=None,
    depth=None,
    propagate=None,
    engine: str = "dlx",
    domination: int | None = None,
    workers: int = 1,
):
    """Search ``problem`` once per set of forced options, all in one kernel call.

    Meant for many small searches on one problem (e.g. sudoku givens): the problem is
    laid out once and each search forces its own options; counts stop at ``limit``.
    ``forced_sets`` is a list of option lists, or a flat array of options with
    ``start`` offsets (set ``k`` is ``forced_sets[start[k]:start[k+1]]``); ``depth``
    bounds the options a solution adds beyond the forced ones; ``propagate`` as for
    ``count`` (both kernels apply ``"domination"``); ``engine``: ``"dlx"`` (dancing
    links) or ``"tight"`` (``dlx/kernels/tight/kernel.py``: the tightest item first, its own
    item domination; no multiplicities) or ``"sudoku"`` (``dlx/kernels/sudoku/kernel.py``:
    the 9x9 sudoku problem only, on bitboards). ``limit`` >= 1 (None: no limit). ``domination``
    (tight only, with ``propagate="domination"``): check the items with at most this
    many live options (default 2; 1: singles only, taken in place). ``workers``
    (sudoku only): threads, each searching a slice of the sets (0: one a core).
    Returns a ``dlx.BatchResult``.

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for option in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(option)
    >>> result = batch(p, [[0], [2], []], engine="tight")
    >>> result.counts.tolist(), result.first
    ([1, 1, 2], [(0, 1), (2,), (0, 1)])
    """
    limit = _check_call("batch", problem, limit, None, None)[0]
    if limit == 0:  # (the kernels stop after a solution is found, so count at least 1)
        raise ValueError("batch(): limit must be an integer >= 1, not 0")
    limit = numbers.LARGEST if limit is None else limit
    if engine not in BATCH_ENGINES:
        known = ", ".join(repr(k) for k in BATCH_ENGINES)
        raise ValueError(f"batch(): unknown engine {engine!r} (known: {known})")
    run = BATCH_ENGINES[engine]
    options = {"start": start, "depth": depth, "propagate": propagate}
    if domination is not None:
        if engine != "tight":
            raise ValueError("batch(): domination= is a setting of the tight engine")
        options["domination"] = domination
    workers = numbers.whole("workers", workers)
    if workers != 1:
        if engine != "sudoku":
            raise ValueError("batch(): workers= is a setting of the sudoku engine")
        options["workers"] = workers
    return run(problem, forced_sets, limit, **options)
