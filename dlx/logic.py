"""Reasoning before guessing: the logical steps of an exact-cover problem, one by one.

A person solving a puzzle by hand does not search: they apply simple rules, each step
small enough to explain, and guess only when no rule applies. This module does that
for any exact-cover problem (colours allowed; every primary item covered exactly once),
in plain Python: it runs once per puzzle, to explain it or grade it, never in a search.

The rules, simplest first:

- **forced option** (``"single"``): an uncovered primary item with exactly one option
  left; every solution takes it. In sudoku: a naked single (a cell item) or a hidden
  single (a row-, column- or box-digit item).
- **item domination** (``"domination"``, the first reduction of Knuth's DLX-PRE, as the
  kernel's ``propagate="domination"``): if every option left to primary item p also
  covers primary item c, the options of c that miss p are in no solution. In sudoku:
  pointing (p a box-digit, c a row- or column-digit) and claiming (the other way).

Taking an option covers its items: the options that share a primary item with it, or
clash with it on a secondary item (no colour, or another colour), are removed. Every
step keeps this invariant: each solution that contains the forced options contains
every option taken and none of those removed. When no rule applies the problem is
*stuck*: the step names the item a search would branch on (fewest options left, the
first declared among equals, as the kernel's choice) and its options; given a solution,
``explain`` then *guesses* that solution's option and goes on (after a guess, the
invariant holds for the solutions that contain the guesses).

>>> from dlx import Problem
>>> p = Problem(primary=["a", "b", "c", "d"])
>>> for option in (["a", "c"], ["a", "c", "d"], ["b", "c"], ["b"], ["d"]):
...     _ = p.add_option(option)
>>> for step in explain(p):
...     print(step.kind, step.item, step.other, step.option, step.removed, step.options)
domination a c None (2,) (0, 1)
single b None 3 () (3,)
stuck a None None () (0, 1)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from dlx.problem import Problem, ProblemError

__all__ = ["RULES", "Logic", "Step", "explain"]

RULES = ("single", "domination")  # simplest first; a step's ``kind`` is one of these or
# "guess" (an option of a stuck item taken from a solution), "stuck" (no rule applies),
# "solved" (every primary item covered) or "dead" (an item has no option left)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the reasoning.

    - ``kind``: ``"single"``, ``"domination"``, ``"guess"``, ``"stuck"``, ``"solved"``
      or ``"dead"`` (see ``RULES``);
    - ``item``: the primary item the step is about (the single's item; the dominating
      item p; the item guessed on, or to branch on; the item with no option left);
    - ``other``: the dominated item c (domination only);
    - ``option``: the option taken (single, guess);
    - ``removed``: the options the step removed (for a single or a guess, those that
      clash with the option taken; for domination, the options of c without p);
    - ``options``: the options the item had left before the step (stuck, guess,
      domination: p's options; single: the one option).
    """

    kind: str
    item: str | None = None
    other: str | None = None
    option: int | None = None
    removed: tuple[int, ...] = ()
    options: tuple[int, ...] = ()


class Logic:
    """The state of a problem being reasoned about: the options taken and those left.

    ``problem``: every primary item must have bounds 1:1 (no loop items); ``forced``:
    options taken before the first step (a puzzle's givens). Raises ProblemError for a
    problem it cannot reason about or forced options that clash.
    """

    def __init__(self, problem: Problem, forced=()):
        if not isinstance(problem, Problem):
            raise TypeError(f"Logic takes a dlx.Problem, not {type(problem).__name__}")
        if problem.loop_edges:
            raise ProblemError("step-by-step logic does not handle loop items")
        multiplicity = problem.first_multiplicity()
        if multiplicity is not None:
            name, lo, hi = multiplicity
            raise ProblemError(
                f"item {name!r} has bounds {lo}:{hi}; step-by-step logic needs every "
                "primary item covered exactly once"
            )
        self.problem = problem
        self.primary = problem.primary
        rank = {name: k for k, name in enumerate(self.primary)}
        self._primary_of: list[tuple[int, ...]] = []  # option -> its primary items
        self._secondary_of: list[tuple[tuple[str, str | None], ...]] = []
        self._left: list[set[int]] = [set() for _ in self.primary]  # item -> options left
        self._users: dict[str, set[int]] = {}  # secondary item -> options left using it
        for k in range(problem.n_options):
            mine, theirs = [], []
            for name, colour in problem.option_entries(k):
                if name in rank:
                    mine.append(rank[name])
                    self._left[rank[name]].add(k)
                else:
                    theirs.append((name, colour))
                    self._users.setdefault(name, set()).add(k)
            self._primary_of.append(tuple(mine))
            self._secondary_of.append(tuple(theirs))
        self.alive = set(range(problem.n_options))
        self.taken: list[int] = []
        self.covered: set[int] = set()
        for k in forced:
            if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < problem.n_options:
                raise ProblemError(f"forced option {k!r} does not exist")
            if k not in self.alive:
                clash = next(j for j in self.taken if self._clashes(j, k))
                raise ProblemError(f"forced options {clash} and {k} clash")
            self.take(k)

    # -- the state ------------------------------------------------------------------

    def options_left(self, item: str) -> list[int]:
        """The options left that cover primary item ``item`` (none once it is covered)."""
        return sorted(self._left[self.primary.index(item)])

    def _clashes(self, j: int, k: int) -> bool:
        """Whether options j and k cannot both be taken."""
        if set(self._primary_of[j]) & set(self._primary_of[k]):
            return True
        colours = dict(self._secondary_of[j])
        return any(
            name in colours and (colour is None or colours[name] != colour)
            for name, colour in self._secondary_of[k]
        )

    def remove(self, k: int) -> None:
        """Remove option ``k`` from the options left."""
        self.alive.discard(k)
        for i in self._primary_of[k]:
            self._left[i].discard(k)
        for name, _ in self._secondary_of[k]:
            self._users[name].discard(k)

    def take(self, k: int) -> tuple[int, ...]:
        """Take option ``k``: cover its items, remove it and every option that clashes
        with it; return those (``k`` left out), in order."""
        removed = set()
        for i in self._primary_of[k]:
            removed |= self._left[i]
            self.covered.add(i)
        for name, colour in self._secondary_of[k]:
            removed |= {
                j
                for j in self._users[name]
                if colour is None or dict(self._secondary_of[j])[name] != colour
            }
        removed.discard(k)
        self.remove(k)
        for j in removed:
            self.remove(j)
        self.taken.append(k)
        return tuple(sorted(removed))

    # -- the rules ------------------------------------------------------------------

    def _uncovered(self) -> list[int]:
        """The primary items not covered yet, in declaration order."""
        return [i for i in range(len(self.primary)) if i not in self.covered]

    def _single(self, items: list[int]) -> Step | None:
        """The first item with exactly one option left, taken."""
        for i in items:
            if len(self._left[i]) == 1:
                (k,) = self._left[i]
                return Step("single", self.primary[i], None, k, self.take(k), (k,))
        return None

    def _domination(self, items: list[int]) -> Step | None:
        """The first item p (fewest options left first) whose options all cover an item
        c that has options without p: those removed."""
        for p in sorted(items, key=lambda i: len(self._left[i])):
            left = self._left[p]
            common = set.intersection(*(set(self._primary_of[k]) for k in left)) - {p}
            for c in sorted(common):
                removed = tuple(sorted(self._left[c] - left))
                if removed:
                    for k in removed:
                        self.remove(k)
                    return Step(
                        "domination",
                        self.primary[p],
                        self.primary[c],
                        removed=removed,
                        options=tuple(sorted(left)),
                    )
        return None

    def step(self, rules=RULES) -> Step:
        """Apply the simplest rule of ``rules`` that applies, and return its step; or
        return a ``"solved"``, ``"dead"`` or ``"stuck"`` step (changing nothing)."""
        unknown = set(rules) - set(RULES)
        if unknown:
            raise ValueError(f"unknown rule {sorted(unknown)[0]!r}: the rules are {RULES}")
        items = self._uncovered()
        if not items:
            return Step("solved")
        for i in items:
            if not self._left[i]:
                return Step("dead", self.primary[i])
        for rule in RULES:
            if rule in rules:
                found = self._single(items) if rule == "single" else self._domination(items)
                if found is not None:
                    return found
        branch = min(items, key=lambda i: len(self._left[i]))
        return Step("stuck", self.primary[branch], options=tuple(sorted(self._left[branch])))

    def guess(self, stuck: Step, solution) -> Step:
        """Take the option of ``stuck``'s item that ``solution`` (option indices) has."""
        chosen = set(solution) & set(stuck.options)
        if len(chosen) != 1:
            raise ValueError(f"the solution has {len(chosen)} options of item {stuck.item!r}")
        (k,) = chosen
        return Step("guess", stuck.item, None, k, self.take(k), stuck.options)


def explain(problem: Problem, forced=(), solution=None, rules=RULES) -> Iterator[Step]:
    """The steps of reasoning about ``problem`` with ``forced`` options taken, simplest
    rule first (see the module): each single and domination, until a last step that is
    ``"solved"``, ``"dead"`` or ``"stuck"``. Given ``solution`` (option indices of a
    solution that contains ``forced``), a stuck state is followed by a ``"guess"`` step
    taking the solution's option, and the reasoning goes on.

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b", "c", "d"])
    >>> for option in (["a", "b"], ["a", "c"], ["b", "c"], ["c", "d"], ["b", "d"]):
    ...     _ = p.add_option(option)
    >>> [(s.kind, s.item, s.option) for s in explain(p, solution=[0, 3])]
    [('stuck', 'a', None), ('guess', 'a', 0), ('single', 'c', 3), ('solved', None, None)]
    """
    logic = Logic(problem, forced)
    while True:
        step = logic.step(rules)
        if step.kind == "stuck" and solution is not None:
            yield step
            step = logic.guess(step, solution)
        yield step
        if step.kind in ("solved", "dead", "stuck"):
            return
