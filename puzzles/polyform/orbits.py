"""Counting every tiling by the orbits of one piece's placements.

Glossary
--------
- G: the board's symmetry group for the piece set (``symmetry.symmetry_group``); each
  g in G maps the board onto itself and permutes the piece names (``Symmetry.names``).
- *anchor* P: a piece with one copy that every g in G maps to itself (names[P] = P).
- *orbit class*: the representatives (``symmetry.orbit_representatives``) of P's
  placements whose G-orbits have one size; the class of size k holds one placement
  per orbit of k placements.

Why the count is exact
----------------------
Let T(p) be the tilings with P at placement p. A g in G sends a tiling s to g s (cells
moved, names permuted), again a tiling of the same pieces (G maps the piece set onto
itself, copies included), and g s puts P at g(p) since names[P] = P; g^-1 undoes it.
So g is a bijection from T(p) onto T(g p), and |T| is constant on each G-orbit of P's
placements. P has one copy, so each tiling lies in exactly one T(p), and

    all tilings = sum over orbits O of |O| x |T(r_O)|,  r_O one placement of O.

Nothing is assumed about symmetric tilings: a tiling fixed by some g is counted once in
its own T(p), like any other. The placements of one orbit class share the factor k, so
one count of the problem with P restricted to that class's representatives gives
k x (that count) of the sum: one count per orbit size (at most the number of divisors
of |G|), each over about |class| / |P's placements| of the whole tree.

>>> from puzzles.polyform.tiling import make_puzzle, symmetry_group
>>> puzzle = make_puzzle("8x8", "pentominoes,O")
>>> found = plan_orbits(symmetry_group(puzzle), puzzle.pieces, puzzle.placements)
>>> found.describe()
'X at 6 of its 36 placements: 3 orbits of 8, 3 of 4'
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import dlx
from puzzles.common import PuzzleError
from puzzles.polyform import symmetry as sym


@dataclass
class Orbits:
    """The anchor ``piece`` and its representatives by orbit size: ``classes[k]`` holds
    one placement per G-orbit of k placements; ``group`` is G (identity first)."""

    group: list
    piece: str
    classes: dict
    placements: int

    def describe(self) -> str:
        """One line for people."""
        kept = sum(len(r) for r in self.classes.values())
        sizes = sorted(self.classes, reverse=True)
        parts = [f"{len(self.classes[k])} orbits of {k}" for k in sizes]
        parts[1:] = [p.replace(" orbits", "") for p in parts[1:]]
        return f"{self.piece} at {kept} of its {self.placements} placements: {', '.join(parts)}"

    def plans(self) -> list[tuple[int, sym.Plan]]:
        """(k, a plan keeping the anchor at the class of size k) per class, largest k
        first; ``tiling.build`` takes such a plan (it adds no restriction items)."""
        return [
            (k, sym.Plan(self.group, restricted=self.piece, kept=self.classes[k]))
            for k in sorted(self.classes, reverse=True)
        ]


def plan_orbits(group: list, pieces, placements: dict, anchor: str | None = None):
    """The anchor and its orbit classes, or None where they do not pay (G trivial) or do
    not exist (no piece with one copy that G maps to itself).

    Parameters
    ----------
    group : list of symmetry.Symmetry
        G, identity first.
    pieces : sequence of Piece
        The piece set (names and copies).
    placements : dict
        Each piece name's placements (sets of cells).
    anchor : str, optional
        The piece P (default: the valid one with the fewest orbits; ties: the earlier).

    Returns
    -------
    Orbits or None

    Examples
    --------
    >>> from puzzles.polyform.tiling import make_puzzle, symmetry_group
    >>> puzzle = make_puzzle("6x10", "pentominoes")
    >>> plan_orbits(symmetry_group(puzzle), puzzle.pieces, puzzle.placements).describe()
    'X at 8 of its 32 placements: 8 orbits of 4'
    """
    if len(group) == 1:
        return None
    copies = {p.name: p.copies for p in pieces}
    valid = [
        p.name
        for p in pieces
        if p.copies == 1 and all(g.names.get(p.name, p.name) == p.name for g in group)
    ]
    if anchor is not None and anchor not in valid:
        raise PuzzleError(
            f"cannot anchor the count at {anchor}: it needs one copy (it has "
            f"{copies.get(anchor, 0)}), mapped to itself by the board's symmetries"
        )
    best = None
    for name in [anchor] if anchor is not None else valid:
        reps = sym.orbit_representatives(group, placements[name])
        if best is None or len(reps) < len(best[1]):
            best = (name, reps)
    if best is None:
        return None
    name, reps = best
    classes: dict = {}
    for r in reps:
        classes.setdefault(len({g.move(r) for g in group}), []).append(r)
    return Orbits(group, name, classes, len(placements[name]))


def count_by_orbits(orbits: Orbits, build, **search):
    """Count every tiling: one ``dlx.count`` per orbit class (``build(plan)`` makes its
    problem), summed with the classes' orbit sizes as weights.

    A count stopped by a limit stops the classes after it; the sum is then a lower
    bound. With a checkpoint ``F`` in ``search["parallel"]``, the class of size k keeps
    its own, ``F.orbitK``. Returns the ``dlx.Count`` of all tilings (``stats`` summed
    over the counts; ``resumed`` and ``tasks`` summed, or None).
    """
    parallel = search.get("parallel")
    total, stats, resumed, tasks = 0, None, None, None
    complete, stopped_by = True, None  # an anchor with no placement: no tiling
    for k, plan in orbits.plans():
        if parallel is not None and parallel.checkpoint is not None:
            search["parallel"] = replace(parallel, checkpoint=f"{parallel.checkpoint}.orbit{k}")
        result = dlx.count(build(plan), **search)
        total += k * result.solutions
        stats = result.stats if stats is None else _added(stats, result.stats)
        resumed = _sum(resumed, result.resumed)
        tasks = _sum(tasks, result.tasks)
        complete, stopped_by = result.complete, result.stopped_by
        if not complete:
            break
    return dlx.Count(total, complete, stats, stopped_by, resumed, tasks)


def _added(a, b):
    """Two counts' statistics as one search's (times and counters summed)."""
    engines = a.engine if b.engine in a.engine else f"{a.engine}; {b.engine}"
    return replace(
        a,
        solutions=a.solutions + b.solutions,
        nodes=a.nodes + b.nodes,
        updates=a.updates + b.updates,
        seconds=a.seconds + b.seconds,
        engine=engines,
    )


def _sum(a, b):
    """a + b, where None is nothing."""
    return b if a is None else a if b is None else a + b
