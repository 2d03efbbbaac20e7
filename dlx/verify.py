"""The test oracle: an independent solution checker and a naive reference solver.

Neither uses the kernel or the compiled arrays: they read the problem through its
public accessors and check the definition directly.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from dlx.numbers import whole
from dlx.problem import Problem


class InvalidSolution(AssertionError):
    """A claimed solution that breaks the problem's rules; the message says which."""


def check(problem: Problem, options) -> None:
    """Raise InvalidSolution unless ``options`` (indices) solve ``problem``.

    Primary items must be covered between their bounds, by options that each cover one
    at least (as in Knuth's programs, which ignore the others); a secondary item may be used
    by one option without a colour, or by any number of options that agree on its colour.
    With loop items (``Problem.add_loop_edge``), the edges that get their 'on' colour
    must form exactly one cycle. An entry that is not an integer (``operator.index``)
    is a TypeError.
    """
    options = [whole("an option of a solution", k, minimum=None) for k in options]
    if len(set(options)) != len(options):
        raise InvalidSolution(f"an option is chosen twice: {options}")
    primary = set(problem.primary)
    cover: Counter[str] = Counter()
    colours: dict[str, list[str | None]] = {}
    for k in options:
        if not 0 <= k < problem.n_options:
            raise InvalidSolution(f"no option {k}")
        if not any(name in primary for name, _ in problem.option_entries(k)):
            raise InvalidSolution(f"option {k} covers no primary item (never chosen)")
        for name, colour in problem.option_entries(k):
            if name in primary:
                cover[name] += 1
            else:
                colours.setdefault(name, []).append(colour)
    for name in problem.primary:
        lo, hi = problem.bounds(name)
        if not lo <= cover[name] <= hi:
            raise InvalidSolution(f"item {name!r} covered {cover[name]} times, not {lo}..{hi}")
    for name, used in colours.items():
        if len(used) > 1 and (None in used or len(set(used)) > 1):
            raise InvalidSolution(f"secondary item {name!r} used inconsistently: {used}")
    loop = problem.loop_edges
    if loop:
        on_edges = [(u, v) for name, (u, v, on) in loop.items() if on in colours.get(name, ())]
        if not is_single_cycle(on_edges):
            raise InvalidSolution(f"the on-edges {sorted(on_edges)} are not one cycle")


def is_single_cycle(edges) -> bool:
    """True when the edges (vertex pairs) form exactly one cycle: at least one edge,
    every vertex touched by two of them, all connected."""
    if not edges:
        return False
    touching: dict[int, list[int]] = {}
    for u, v in edges:
        touching.setdefault(u, []).append(v)
        touching.setdefault(v, []).append(u)
    if any(len(ends) != 2 for ends in touching.values()):
        return False
    start = next(iter(touching))
    seen = {start}
    todo = [start]
    while todo:
        for w in touching[todo.pop()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return len(seen) == len(touching)


def is_solution(problem: Problem, options) -> bool:
    """True when ``options`` solve ``problem``."""
    try:
        check(problem, options)
    except InvalidSolution:
        return False
    return True


def naive_solutions(problem: Problem, max_options: int = 16) -> set[frozenset[int]]:
    """Every solution, by trying every subset of the options (small problems only)."""
    max_options = whole("max_options", max_options)
    n = problem.n_options
    if n > max_options:
        raise ValueError(f"{n} options is too many for the naive solver")
    found = set()
    for size in range(n + 1):
        for subset in combinations(range(n), size):
            if is_solution(problem, subset):
                found.add(frozenset(subset))
    return found
