"""Exact symmetry breaking for tilings on any lattice: the plan and its proof.

Glossary
--------
- *board symmetry*: a point-group element of the lattice, followed by the translation
  that brings the board back onto itself; it acts on cells (``Symmetry.cells``).
- *symmetry group* G: the board symmetries that map the piece set onto itself. Such a
  map sends the placements of a piece onto the placements of a piece of the same
  number of copies: itself when the piece may turn over (free 2-D pieces), or its
  mirror image when a reflection meets a one-sided or 3-D piece (``Symmetry.names``,
  the permutation of piece names). A one-sided set that is not mirror-closed loses the
  reflections; the Soma set is mirror-closed, so a reflected solution is a solution.
- G acts on solutions: g s = {(names[n], g(cells)) : (n, cells) in s}; its orbits are
  the *distinct* solutions.

The reasoning behind the restriction
-----------------------------------
1. Pick a piece P with one copy that every g in G maps to itself (names[P] = P). G
   permutes P's placements; keep one placement r per G-orbit. Every solution s can be
   moved by some g in G so that P lands on a kept r, so each class (G-orbit of
   solutions) still has members with P on a kept placement, and two solutions with P on
   different kept placements are never equivalent.
2. Within one kept r, the members of a class with P at r are {h s0 : h in H}, H the
   stabilizer of r in G. If H = {e}, that is one solution: done.
3. If H is bigger, pick a second piece Q with one copy, mapped to itself by every h in
   H, such that no Q placement is fixed by any h != e of H. Then for a solution s0 with
   P at r, the |H| solutions h s0 put Q on the |H| different placements h q (q = Q's
   placement in s0): they are distinct, and exactly one of them puts Q on the least
   placement (by ``key``) of its H-orbit. Forbid, next to P at r, every Q placement
   that is not the least of its H-orbit (a secondary item shared by the option "P at r"
   and those Q options). Exactly one member of each class survives.
4. No solution is symmetric: if g s = s with g != e, move s so that P is at a kept r;
   the conjugate of g then fixes r, so lies in H, and fixes Q's placement (Q is its own
   image and has one copy), which the choice of Q excludes (when H = {e} the conjugate
   is e, so g = e). Hence every class has exactly |G| members and all = distinct x |G|.
5. Without such a Q (or P), the general rule ("filter"): keep step 1 when P exists,
   and among the solutions with P at r keep those that are the least (by
   ``solution_key``) of their H-orbit (H = G when there is no P). Each class keeps
   exactly one member; its stabilizer S lies in H, and the class has |G| / |S| members,
   which gives the exact count of all solutions, symmetric ones included.
6. Between the two ("partial"): when every candidate Q has some placements fixed by an
   h != e of H (a flat piece in a 3-D box lies in a mirror plane), take Q all the same
   (one copy, its own image under H) and forbid, next to P at r, only its *free*
   placements (fixed by no h != e) that are not the least of their H-orbit. The H-orbit
   of a free placement is free, so a class whose members put Q on free placements keeps
   exactly one member, with trivial stabilizer (step 4); a class whose members put Q on
   fixed placements (the H-orbit of a fixed placement is fixed) loses none, and is
   reduced as in step 5. The solutions with Q free need no Python work beyond a look at
   Q's placement, and the tree shrinks with the forbidden placements.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from puzzles.common import PuzzleError
from puzzles.lattices import Lattice


def key(cells) -> tuple:
    """A total order on cell sets: the sorted tuple of cells."""
    return tuple(sorted(cells))


@dataclass
class Symmetry:
    """One element of G: a map of board cells and the permutation of piece names."""

    cells: dict
    names: dict

    def move(self, cells) -> frozenset:
        """The image of a set of board cells."""
        return frozenset(self.cells[c] for c in cells)


def board_symmetries(lattice: Lattice, board) -> list[dict]:
    """The point-group elements (then a translation) that map the board onto itself, as
    cell maps; identity first, rotations before reflections."""
    return _maps_and_matrices(lattice, board)[0]


def symmetry_group(lattice: Lattice, board, pieces, one_sided: bool = False) -> list[Symmetry]:
    """G: the board symmetries that map the piece set onto itself (see the glossary).

    A point-group element g sends the placements of a shape S onto the placements of
    g S, which are those of the piece whose shape has the class of g S under the piece
    motions; pieces of one class are matched in order (so that G acts on names).
    """
    classes: dict[tuple, list] = {}
    for p in pieces:
        classes.setdefault(lattice.canonical(p.shape, one_sided), []).append(p)
    group = []
    for cells_map, m in zip(*_maps_and_matrices(lattice, board), strict=True):
        names = {}
        for members in classes.values():
            image = lattice.canonical(
                [lattice.transform(m, c) for c in members[0].shape], one_sided
            )
            targets = classes.get(image)
            if targets is None or [p.copies for p in targets] != [p.copies for p in members]:
                break
            names.update({a.name: b.name for a, b in zip(members, targets, strict=True)})
        else:
            group.append(Symmetry(cells_map, names))
    return group


def _maps_and_matrices(lattice: Lattice, board):
    """The board symmetries and the point-group matrix of each."""
    maps = []
    mats = []
    for m in lattice.group:
        found = board_symmetries_for(lattice, board, m)
        if found is not None:
            maps.append(found)
            mats.append(m)
    return maps, mats


def board_symmetries_for(lattice: Lattice, board, m):
    """The cell map of matrix ``m`` (then a translation) if it maps the board onto
    itself, else None."""
    board = frozenset(board)
    k = lattice.translate
    low = min(board)
    moved = {c: lattice.transform(m, c) for c in board}
    least = min(moved.values())
    if least[k:] != low[k:]:
        return None
    shift = [low[i] - least[i] for i in range(k)]
    image = {c: tuple(v[i] + shift[i] for i in range(k)) + tuple(v[k:]) for c, v in moved.items()}
    return image if set(image.values()) == board else None


@dataclass
class Plan:
    """How symmetry is broken (see the module docstring).

    ``group``: G (identity first); ``restricted``: the piece P kept once per orbit, at
    the placements ``kept``, whose stabilizers (elements of G fixing them, identity
    first) are ``stabilizers``; ``forbid[k]``: the placements of the breaker Q that may
    not be used together with P at ``kept[k]``; ``filter``: True when solutions must
    still be reduced by ``is_class_representative`` (no breaker, or ``partial``: a
    breaker for the solutions that put it on a free placement, step 6).
    """

    group: list
    restricted: str | None = None
    breaker: str | None = None
    kept: list = field(default_factory=list)
    stabilizers: list = field(default_factory=list)
    forbid: dict = field(default_factory=dict)
    filter: bool = False
    partial: bool = False

    @property
    def group_order(self) -> int:
        """|G|."""
        return len(self.group)

    def describe(self) -> str:
        """One line for people."""
        if self.group_order == 1:
            return "the board has no symmetry"
        text = f"|G| = {self.group_order}"
        if self.restricted is not None:
            text += f"; {self.restricted} kept at {len(self.kept)} places"
            n_fixed = sum(1 for s in self.stabilizers if len(s) > 1)
            if n_fixed and self.breaker and not self.partial:
                text += f", {n_fixed} of them symmetric, broken with {self.breaker}"
            elif n_fixed:
                text += f", {n_fixed} of them symmetric"
        if self.partial:
            text += (
                f"; {self.breaker} breaks the rest where no symmetry fixing "
                f"{self.restricted} fixes it too"
            )
        if self.filter:
            text += "; solutions reduced one by one to their least image"
        return text


class NoSymmetryBreaking(PuzzleError):
    """No exact restriction is available for this piece set and board."""


def _orbit(group, cells) -> set:
    """The G-orbit of a placement."""
    return {g.move(cells) for g in group}


def orbit_representatives(group, places) -> list:
    """The least placement (by ``key``) of each G-orbit, in order."""
    seen: set = set()
    reps = []
    for p in places:
        if p in seen:
            continue
        orbit = _orbit(group, p)
        seen |= orbit
        reps.append(min(orbit, key=key))
    return sorted(reps, key=key)


def plan_symmetry(
    group: list,
    pieces,
    placements: dict,
    restrict: str | None = None,
    breaker: str | None = None,
    fallback: bool = False,
) -> Plan:
    """Choose P (``restrict``) and Q (``breaker``) and list the restrictions.

    By default P is the single-copy piece fixed by G with the fewest kept placements
    (ties: the earlier piece), and Q the valid single-copy piece with the most
    placements (ties: the earlier piece). When no valid P or Q exists, raise
    NoSymmetryBreaking, or with ``fallback`` return a plan that filters solutions.
    """
    plan = Plan(group)
    if len(group) == 1:
        return plan
    copies = {p.name: p.copies for p in pieces}

    def fixed_by(name, elements):
        return all(g.names.get(name, name) == name for g in elements)

    singles = [p.name for p in pieces if p.copies == 1 and fixed_by(p.name, group)]
    if restrict is not None:
        if copies.get(restrict) != 1 or not fixed_by(restrict, group):
            raise NoSymmetryBreaking(
                f"cannot restrict {restrict}: it needs one copy, mapped to itself by the "
                "board's symmetries"
            )
        candidates = [restrict]
    else:
        candidates = singles
    if not candidates:
        if fallback:
            plan.filter = True
            return plan
        raise NoSymmetryBreaking(
            "symmetry breaking needs a piece with a single copy; count all solutions "
            "with --no-symmetry"
        )
    best = None
    for name in candidates:
        kept = orbit_representatives(group, placements[name])
        if best is None or len(kept) < len(best[1]):
            best = (name, kept)
    plan.restricted, reps = best
    plan.kept = reps
    plan.stabilizers = [[g for g in group if g.move(r) == r] for r in reps]
    moves = [h for s in plan.stabilizers for h in s[1:]]
    if not moves:
        return plan
    if breaker is not None:
        if breaker == plan.restricted or copies.get(breaker) != 1:
            raise NoSymmetryBreaking(
                f"{breaker} cannot break symmetry: it must be another piece with a single copy"
            )
        options = [breaker]
    else:
        options = sorted(
            (p.name for p in pieces if p.copies == 1 and p.name != plan.restricted),
            key=lambda n: -len(placements[n]),
        )
    for name in options:
        if fixed_by(name, moves) and all(h.move(q) != q for q in placements[name] for h in moves):
            plan.breaker = name
            break
    else:
        if fallback:
            plan.filter = True
            partial = [n for n in options if fixed_by(n, moves)]
            if partial:  # step 6
                plan.breaker = partial[0]
                plan.partial = True
                _forbid(plan, placements[plan.breaker])
            return plan
        which = breaker if breaker is not None else "no piece with a single copy"
        raise NoSymmetryBreaking(
            f"{plan.restricted} sits on symmetric places but {which} can tell the symmetric "
            "solutions apart (it needs a piece with no symmetry, such as F L N P Y, once); "
            "count all solutions with --no-symmetry"
        )
    _forbid(plan, placements[plan.breaker])
    return plan


def _forbid(plan: Plan, places) -> None:
    """For each symmetric kept place of P, the breaker's free placements that are not the
    least of their orbit under its stabilizer (all placements are free but in step 6)."""
    for k, stab in enumerate(plan.stabilizers):
        if len(stab) > 1:
            plan.forbid[k] = {
                q for q in places if _free(q, stab) and key(q) != min(key(h.move(q)) for h in stab)
            }


def _free(cells, stabilizer) -> bool:
    """True when no element but the identity (first) fixes the placement."""
    return all(h.move(cells) != cells for h in stabilizer[1:])


def solution_key(tiling) -> tuple:
    """A total order on tilings: the sorted (piece, cells) pairs."""
    return tuple(sorted((name, key(cells)) for name, cells in tiling))


def image(g: Symmetry, tiling) -> list:
    """A tiling moved by a symmetry (cells moved, names permuted)."""
    return [(g.names.get(name, name), g.move(cells)) for name, cells in tiling]


def is_class_representative(plan: Plan, tiling) -> tuple[bool, int]:
    """For a filtering plan: (is the tiling kept, size of its stabilizer in G).

    The tiling must be a solution of the restricted problem (P on a kept placement).
    """
    group = plan.group
    if plan.restricted is not None:
        place = next(cells for name, cells in tiling if name == plan.restricted)
        group = plan.stabilizers[plan.kept.index(place)]
    if plan.partial:
        place = next(cells for name, cells in tiling if name == plan.breaker)
        if _free(place, group):  # step 6: the breaker decided
            return True, 1
    own = solution_key(tiling)
    least = own
    fixed = 0
    for h in group:
        other = solution_key(image(h, tiling))
        fixed += other == own
        least = min(least, other)
    return own == least, fixed
