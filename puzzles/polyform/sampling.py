"""Uniformly random tilings: ``random_tilings`` / ``random_tiling`` in Python, and
``--sample K [--seed S]`` of the tiling commands.

The tilings are drawn from the solution graph of the command's problem (``dlx.graph``),
each by ``unrank`` of a uniformly random rank (``random.Random(seed).randrange``), so
that a draw is exactly uniform over the problem's solutions:

- with ``--no-symmetry``, over all tilings;
- with symmetry breaking whose plan keeps exactly one solution per class (no filter:
  see ``symmetry.plan_symmetry``), over the classes, each shown as its representative;
- where the plan still reduces solutions one by one (``plan.filter``), by rejection:
  a draw that is not its class's representative (``is_class_representative``) is drawn
  again. Each class has exactly one representative among the solutions, so what is
  kept is uniform over the classes too. Past ``MAX_TRIES`` draws an answer, the
  command refuses in one line and suggests ``--no-symmetry``.

Draws are independent: a sample may repeat a tiling.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

import dlx
from dlx.numbers import integer
from puzzles.command import Request
from puzzles.common import Answers, PuzzleError, TimeLimit
from puzzles.polyform import symmetry as sym
from puzzles.polyform import tiling

MAX_TRIES = 1000  # draws for one answer, at most, when rejecting non-representatives


@dataclass
class Sample:
    """What ``--sample`` asks for; ``graph``: the solution graph, once built."""

    size: int
    seed: int | None = None
    max_nodes: int | None = None
    graph: object = field(default=None, repr=False)
    plan: object = field(default=None, repr=False)  # the symmetry plan drawn under


@dataclass
class _Account:
    """How the draws went, as ``common.Answers`` reads it from a stream."""

    stats: dlx.Stats
    complete: bool = True
    stopped_by: str | None = None


def add_arguments(parser) -> None:
    """The flags of ``--sample``."""
    parser.add_argument(
        "--sample",
        type=integer,
        metavar="K",
        help="K tilings drawn uniformly at random from the solution graph (with repeats): "
        "over the classes with symmetry breaking, over all tilings with --no-symmetry",
    )
    parser.add_argument("--seed", type=integer, help="the seed of --sample (default: random)")
    parser.add_argument(
        "--max-graph-nodes",
        type=integer,
        metavar="N",
        help="refuse a solution graph of more than N nodes (default: as many as fit in 2 GB)",
    )


def from_flags(request: Request) -> Sample | None:
    """The sample the flags ask for (None: none), refusing flags that do not go with it
    (a sample lists its answers: ``settle``)."""
    own = request.options
    if own.sample is None:
        for flag, value in (("--seed", own.seed), ("--max-graph-nodes", own.max_graph_nodes)):
            if value is not None:
                raise PuzzleError(f"{flag} goes with --sample")
        return None
    if own.sample < 1:
        raise PuzzleError(f"--sample must be at least 1, not {own.sample}")
    if own.max_graph_nodes is not None and own.max_graph_nodes < 1:
        raise PuzzleError(f"--max-graph-nodes must be at least 1, not {own.max_graph_nodes}")
    given = {
        "count": request.count,
        "unique": request.unique,
        "all": request.all,
        "limit": request.limit,
        "checkpoint": request.checkpoint,
    }
    for flag, value in given.items():
        if value:
            raise PuzzleError(f"--sample draws K tilings: it takes no --{flag}")
    return Sample(own.sample, own.seed, own.max_graph_nodes)


def settle(request: Request) -> Request:
    """The request of a tiling command: with ``--sample``, it lists every draw."""
    return replace(request, all=True) if request.options.sample is not None else request


def answers(tilings, make_answer, search: dict) -> Answers:
    """The sampled tilings of ``tilings`` as the command's answers (``make_answer(pieces)``
    makes one); ``search``: the command's ``time_limit`` and ``progress``."""
    sample = tilings.sample
    puzzle, plan = tilings.puzzle, tilings.plan()
    problem = tiling.build(puzzle, plan)
    limit = search.get("time_limit")
    if isinstance(limit, TimeLimit):  # what building left, its timer stopped
        limit = limit.left()
    try:
        g = dlx.graph(
            problem,
            max_nodes=sample.max_nodes,
            time_limit=limit,
            progress=bool(search.get("progress")),
        )
    except dlx.ProblemError as e:
        raise PuzzleError(f"--sample: {e}") from None
    sample.graph, sample.plan = g, plan
    account = _Account(dlx.Stats(solutions=g.count, nodes=g.stats.visited, seconds=g.stats.seconds))
    if not g.count:
        return Answers(iter(()), account=account)
    return Answers(_draws(g, puzzle, plan, sample, make_answer), account=account)


def _draws(g, puzzle, plan, sample: Sample, make_answer, hint: str = "give --no-symmetry"):
    """``sample.size`` answers, each drawn uniformly (see the module's docstring);
    ``hint``: how to draw from all tilings instead, in the caller's words."""
    rng = random.Random(sample.seed)
    for _ in range(sample.size):
        for _ in range(MAX_TRIES):
            pieces = tiling.decode(puzzle, g.unrank(rng.randrange(g.count)))
            if plan is None or not plan.filter or sym.is_class_representative(plan, pieces)[0]:
                yield make_answer(pieces)
                break
        else:
            raise PuzzleError(
                f"--sample: no class representative in {MAX_TRIES} draws under this "
                f"symmetry breaking; {hint} to draw from all tilings"
            )


def random_tilings(
    puzzle: tiling.Puzzle,
    size: int,
    *,
    seed: int | None = None,
    symmetry: bool = True,
    max_nodes: int | None = None,
) -> list[tiling.Tiling]:
    """``size`` tilings of ``puzzle`` drawn uniformly at random, independently (a tiling
    may come twice), from its solution graph (``dlx.graph``, built once per call): over
    the classes under the board's symmetries by default, each shown as its class's
    representative (as ``distinct_tilings`` gives it), over all tilings with
    ``symmetry=False``; empty when the puzzle has no tiling.

    Parameters
    ----------
    puzzle : Puzzle
        From ``make_puzzle``.
    size : int
        How many draws (at least 1).
    seed : int, optional
        The seed of the draws: the same seed, the same tilings (default: random).
    symmetry : bool
        Draw classes (default) or, with False, tilings.
    max_nodes : int, optional
        Refuse (``PuzzleError``) a solution graph of more nodes (default: as many as
        fit in 2 GB).

    Examples
    --------
    >>> from puzzles.polyform import make_puzzle, random_tilings
    >>> puzzle = make_puzzle("3x20", "pentominoes")
    >>> drawn = random_tilings(puzzle, 3, seed=1, symmetry=False)
    >>> len(drawn), drawn == random_tilings(puzzle, 3, seed=1, symmetry=False)
    (3, True)
    """
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ValueError(f"random_tilings(): size must be an integer >= 1, not {size!r}")
    plan = tiling.plan_symmetry(puzzle, fallback=True) if symmetry else None
    try:
        g = dlx.graph(tiling.build(puzzle, plan), max_nodes=max_nodes)
    except dlx.ProblemError as e:
        raise PuzzleError(f"random_tilings(): {e}") from None
    if not g.count:
        return []
    sample = Sample(size, seed)
    return list(_draws(g, puzzle, plan, sample, lambda t: t, "give symmetry=False"))


def random_tiling(
    puzzle: tiling.Puzzle,
    *,
    seed: int | None = None,
    symmetry: bool = True,
    max_nodes: int | None = None,
) -> tiling.Tiling | None:
    """One tiling of ``puzzle`` drawn uniformly at random (None: it has none); the
    arguments are ``random_tilings``'s.

    Examples
    --------
    >>> from puzzles.polyform import make_puzzle, random_tiling
    >>> print(random_tiling(make_puzzle("5x3", "F,P,U"), seed=7))
    PPFUU
    PPFFU
    PFFUU
    """
    drawn = random_tilings(puzzle, 1, seed=seed, symmetry=symmetry, max_nodes=max_nodes)
    return drawn[0] if drawn else None


def drawn_from(sample: Sample) -> str:
    """What the tilings were drawn from: all tilings, the classes (one solution each),
    or the classes by rejection among the graph's solutions.

    >>> from types import SimpleNamespace
    >>> print(drawn_from(Sample(2, graph=SimpleNamespace(count=9356))))
    drawn uniformly from 9356 tilings
    """
    g, plan = sample.graph, sample.plan
    if g is None:
        return "drawn from no graph"
    if plan is None:
        return f"drawn uniformly from {g.count} tilings"
    if not plan.filter:
        return f"drawn uniformly from {g.count} classes of tilings under the board's symmetries"
    return f"drawn uniformly over the classes, by rejection among {g.count} solutions"


def summary(sample: Sample) -> str:
    """What the sample was drawn from and the graph's size, for ``--stats``."""
    g = sample.graph
    return "no graph built" if g is None else f"{drawn_from(sample)}; {g.stats}"
