"""Named polyforms: the piece catalogue of every lattice, and piece-set specs.

Names and shapes are Polyform Puzzler's (David Goodger, puzzler/puzzles/polyiamonds.py,
polyhexes.py, polycubes.py, polysticks.py: the facts, typed here as cell lists in its
coordinates, see ``puzzles.lattices``); the polyominoes keep this project's names (the
pentomino letters, I1 I2 I3 L3 I4 O4 T4 S4 L4, H01..H35 for the hexominoes in the order
of ``puzzles.polyomino``). A mirrored one-sided piece is named with a prime: ``F'``.

Glossary
--------
- *family*: all polyforms of one lattice (``polyiamonds``), sized by a range
  (``polyiamonds:4-6``); a *set*: a named list of pieces (``hexiamonds``, ``soma``).
- *free* pieces turn over (2-D); *one-sided* pieces only rotate, and a one-sided set
  holds both mirror images of each chiral piece. 3-D pieces always only rotate: the
  ``polycubes`` family counts mirror images as different pieces (OEIS A038119).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from puzzles.common import PuzzleError, read_text
from puzzles.lattices import LATTICES, Lattice
from puzzles.polyform.boards import read_cell_list

# -- the catalogue: one cell list per piece ("x,y[,z] ...", Polyform Puzzler's cells) ---

IAMONDS = {
    "T1": "0,0,0",
    "D2": "0,0,0 0,0,1",
    "I3": "0,0,0 0,0,1 1,0,0",
    "I4": "0,0,0 0,0,1 1,0,0 1,0,1",
    "C4": "0,0,0 0,0,1 1,0,0 1,-1,1",
    "T4": "0,0,0 0,0,1 1,0,0 0,1,0",
    "I5": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0",
    "C5": "0,0,0 0,0,1 1,0,0 1,-1,1 0,-1,1",
    "L5": "0,0,0 0,0,1 1,0,0 1,0,1 1,1,0",
    "P5": "0,0,0 0,0,1 1,0,0 1,0,1 0,1,0",
    "I6": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 2,0,1",
    "P6": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 1,1,0",
    "J6": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 0,-1,1",
    "E6": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 1,-1,1",
    "V6": "0,0,0 0,0,1 1,0,0 1,0,1 0,1,0 0,1,1",
    "H6": "0,0,0 0,0,1 1,0,0 1,0,1 1,-1,1 2,-1,0",
    "S6": "0,0,0 0,0,1 1,0,0 1,0,1 0,-1,1 1,1,0",
    "X6": "0,0,0 0,0,1 1,0,0 1,0,1 0,1,0 1,-1,1",
    "C6": "0,0,0 0,0,1 1,0,0 1,0,1 1,1,0 1,1,1",
    "G6": "0,0,0 0,0,1 1,0,0 1,0,1 1,1,0 0,1,1",
    "F6": "0,0,0 0,0,1 1,0,0 1,0,1 0,1,0 1,1,0",
    "O6": "0,0,0 0,0,1 1,0,0 0,-1,1 1,-1,0 1,-1,1",
    "I7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 2,0,1 3,0,0",
    "P7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 2,0,1 0,1,0",
    "E7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 2,0,1 1,1,0",
    "L7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 2,0,1 2,1,0",
    "H7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 1,1,0 1,1,1",
    "G7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 1,1,0 0,1,1",
    "M7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 1,1,0 0,1,0",
    "T7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 0,1,0 0,-1,1",
    "X7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 0,1,0 1,-1,1",
    "Q7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 0,1,0 2,-1,1",
    "R7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 0,-1,1 0,-1,0",
    "J7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 0,-1,1 1,-1,0",
    "F7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 0,-1,1 1,-1,1",
    "C7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 0,-1,1 2,-1,1",
    "Y7": "0,0,0 0,0,1 1,0,0 1,0,1 2,0,0 1,-1,1 1,-1,0",
    "Z7": "0,0,0 0,0,1 1,0,0 1,0,1 1,-1,1 2,-1,0 2,-1,1",
    "B7": "0,0,0 0,0,1 1,0,0 1,0,1 0,1,0 0,1,1 1,-1,1",
    "A7": "0,0,0 0,0,1 1,0,0 1,0,1 0,-1,1 1,-1,1 2,-1,0",
    "W7": "0,0,0 0,0,1 1,0,0 1,0,1 1,-1,1 2,-1,0 1,1,0",
    "D7": "0,0,0 0,0,1 1,0,0 0,-1,1 1,-1,0 1,-1,1 0,1,0",
    "U7": "0,0,0 0,0,1 1,0,0 1,0,1 1,1,0 1,1,1 0,1,0",
    "V7": "0,0,0 0,0,1 1,0,0 1,0,1 1,1,0 0,1,1 0,2,0",
    "N7": "0,0,0 0,0,1 1,0,0 1,0,1 0,-1,1 1,1,0 1,1,1",
    "S7": "0,0,0 0,0,1 1,0,0 1,0,1 0,-1,1 1,1,0 0,1,1",
}
HEXES = {
    "H1": "0,0",
    "I2": "0,0 1,0",
    "I3": "0,0 1,0 2,0",
    "V3": "0,0 1,0 1,1",
    "A3": "0,0 1,0 0,1",
    "I4": "0,0 1,0 2,0 3,0",
    "J4": "0,0 1,0 2,0 2,1",
    "P4": "0,0 1,0 2,0 1,1",
    "S4": "0,0 1,0 1,1 2,1",
    "U4": "0,0 -1,1 1,0 1,1",
    "Y4": "0,0 1,0 2,-1 1,1",
    "O4": "0,0 1,0 0,1 1,1",
    "A5": "0,0 1,0 2,0 1,1 2,-1",
    "B5": "0,0 1,0 2,0 1,1 2,1",
    "C5": "0,0 1,0 2,0 2,1 -1,1",
    "D5": "0,0 1,0 2,0 0,1 1,1",
    "E5": "0,0 1,0 1,1 2,0 3,0",
    "F5": "0,0 1,0 2,0 0,1 2,1",
    "G5": "0,0 1,0 1,1 2,1 3,0",
    "H5": "0,0 1,0 1,1 0,2 2,1",
    "I5": "0,0 1,0 2,0 3,0 4,0",
    "J5": "0,0 1,0 2,0 3,0 3,1",
    "L5": "0,0 1,0 2,0 2,1 2,2",
    "N5": "0,0 1,0 2,0 2,1 3,1",
    "P5": "0,0 1,0 2,0 2,1 3,0",
    "Q5": "0,0 1,0 2,0 2,1 1,-1",
    "R5": "0,0 1,0 2,0 2,1 1,2",
    "S5": "0,0 1,0 2,0 2,1 0,-1",
    "T5": "0,0 1,0 2,0 2,1 2,-1",
    "U5": "0,0 1,0 1,1 -1,1 -1,2",
    "V5": "0,0 1,0 2,0 0,1 0,2",
    "W5": "0,0 1,0 1,1 2,1 2,2",
    "X5": "0,0 1,0 2,0 0,1 2,-1",
    "Y5": "0,0 1,0 2,0 2,1 3,-1",
}
CUBES = {
    "M": "0,0,0",
    "D": "0,0,0 1,0,0",
    "I3": "0,0,0 1,0,0 2,0,0",
    "V3": "0,0,0 1,0,0 0,1,0",
    "I4": "0,0,0 1,0,0 2,0,0 3,0,0",
    "L4": "0,0,0 -1,0,0 1,0,0 1,1,0",
    "T4": "0,0,0 1,0,0 2,0,0 1,1,0",
    "S4": "0,0,0 -1,0,0 0,1,0 1,1,0",
    "O4": "0,0,0 1,0,0 0,1,0 1,1,0",
    "B4": "0,0,0 0,1,0 1,0,0 0,1,1",
    "P4": "0,0,0 0,1,0 1,0,0 0,0,1",
    "A4": "0,0,0 0,1,0 1,0,0 1,0,1",
    "L15": "0,0,0 -1,0,0 1,0,0 1,1,0 -1,0,1",
    "L25": "0,0,0 -1,0,0 1,0,0 1,1,0 0,0,1",
    "L35": "0,0,0 -1,0,0 1,0,0 1,1,0 1,0,1",
    "L45": "0,0,0 -1,0,0 1,0,0 1,1,0 1,1,1",
    "J15": "0,0,0 -1,0,0 1,0,0 1,1,0 -1,0,-1",
    "J25": "0,0,0 -1,0,0 1,0,0 1,1,0 0,0,-1",
    "J45": "0,0,0 -1,0,0 1,0,0 1,1,0 1,1,-1",
    "N15": "0,0,0 -1,0,0 0,1,0 1,1,0 -1,0,-1",
    "N25": "0,0,0 -1,0,0 0,1,0 1,1,0 0,0,-1",
    "S15": "0,0,0 -1,0,0 0,1,0 1,1,0 -1,0,1",
    "S25": "0,0,0 -1,0,0 0,1,0 1,1,0 0,0,1",
    "T15": "0,0,0 -1,-1,0 -1,0,0 -1,1,0 -1,0,1",
    "T25": "0,0,0 -1,-1,0 -1,0,0 -1,1,0 0,0,1",
    "V15": "0,0,0 -1,0,0 0,1,0 -1,0,1 -1,-1,1",
    "V25": "0,0,0 -1,0,0 0,1,0 0,1,1 1,1,1",
    "Q5": "0,0,0 1,0,0 0,1,0 1,1,0 0,0,1",
    "A5": "0,0,0 1,0,0 1,1,0 0,0,1 1,1,1",
}
SOMA = {
    "V": "0,0,0 0,1,0 1,0,0",
    "L": "0,0,0 0,1,0 1,0,0 2,0,0",
    "T": "0,0,0 0,1,0 1,0,0 0,-1,0",
    "Z": "0,0,0 0,1,0 1,0,0 1,-1,0",
    "A": "0,0,0 0,1,0 1,0,0 1,0,1",
    "B": "0,0,0 0,1,0 1,0,0 1,0,-1",
    "P": "0,0,0 0,1,0 1,0,0 0,0,1",
}
STICKS = {
    "I1": "0,0,0",
    "I2": "0,0,0 1,0,0",
    "V2": "0,0,0 0,0,1",
    "I3": "0,0,0 1,0,0 2,0,0",
    "L3": "0,0,0 1,0,0 2,0,1",
    "T3": "0,0,0 1,0,0 1,0,1",
    "Z3": "0,1,0 1,0,1 1,0,0",
    "U3": "0,0,1 0,0,0 1,0,1",
    "I": "0,0,0 1,0,0 2,0,0 3,0,0",
    "L": "0,0,0 1,0,0 2,0,0 3,0,1",
    "Y": "0,0,0 1,0,0 2,0,0 2,0,1",
    "V": "0,0,0 1,0,0 2,0,1 2,1,1",
    "T": "0,0,0 1,0,0 1,0,1 1,1,1",
    "X": "0,1,0 1,1,0 1,0,1 1,1,1",
    "U": "0,0,0 1,0,0 0,0,1 2,0,1",
    "N": "0,0,0 1,0,0 2,0,1 2,1,0",
    "J": "0,0,0 1,0,0 2,0,1 1,1,0",
    "H": "0,0,0 1,0,0 1,0,1 1,1,0",
    "F": "0,0,0 1,0,0 0,0,1 1,0,1",
    "Z": "0,0,1 0,1,0 1,1,0 2,1,1",
    "R": "0,0,1 0,1,0 1,1,0 1,1,1",
    "W": "0,0,0 1,0,1 1,1,0 2,1,1",
    "P": "0,0,1 0,1,0 1,0,1 1,0,0",
    "O": "0,0,0 1,0,1 0,1,0 0,0,1",
}

# The polyominoes, drawn (any character is a cell; the shape is what matters).
OMINOES = {
    "I1": "I",
    "I2": "II",
    "I3": "III",
    "L3": "LL\nL.",
    "I4": "IIII",
    "O4": "OO\nOO",
    "T4": "TTT\n.T.",
    "S4": ".SS\nSS.",
    "L4": "LLL\nL..",
    "F": ".FF\nFF.\n.F.",
    "I": "IIIII",
    "L": "LLLL\nL...",
    "N": "NN..\n.NNN",
    "P": "PP\nPP\nP.",
    "T": "TTT\n.T.\n.T.",
    "U": "U.U\nUUU",
    "V": "V..\nV..\nVVV",
    "W": "W..\nWW.\n.WW",
    "X": ".X.\nXXX\n.X.",
    "Y": ".Y..\nYYYY",
    "Z": "ZZ.\n.Z.\n.ZZ",
}
PENTOMINOES = list("FILNPTUVWXYZ")


@dataclass(frozen=True)
class Piece:
    """A named shape (normalised) and how many copies of it the set holds."""

    name: str
    shape: frozenset
    copies: int = 1

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.shape)


@dataclass(frozen=True)
class Family:
    """All polyforms of one lattice, with the named set of each size that has one."""

    lattice: str
    sets: dict  # size -> set name


FAMILIES = {
    "polyominoes": Family(
        "square",
        {1: "monomino", 2: "domino", 3: "trominoes", 4: "tetrominoes", 5: "pentominoes",
         6: "hexominoes"},
    ),
    "polyiamonds": Family(
        "triangular",
        {1: "moniamond", 2: "diamond", 3: "triamond", 4: "tetriamonds", 5: "pentiamonds",
         6: "hexiamonds", 7: "heptiamonds"},
    ),
    "polyhexes": Family(
        "hexagonal",
        {1: "monohex", 2: "dihex", 3: "trihexes", 4: "tetrahexes", 5: "pentahexes"},
    ),
    "polycubes": Family(
        "cubic",
        {1: "monocube", 2: "dicube", 3: "tricubes", 4: "tetracubes", 5: "pentacubes"},
    ),
    "polysticks": Family(
        "sticks", {1: "monostick", 2: "disticks", 3: "tristicks", 4: "tetrasticks"}
    ),
}  # fmt: skip


def cells_from_text(text: str) -> frozenset:
    """The cells of a catalogue entry ``"x,y[,z] x,y[,z] ..."``."""
    return frozenset(tuple(int(v) for v in cell.split(",")) for cell in text.split())


@dataclass(frozen=True)
class PieceSet:
    """A named set: its lattice and its pieces (name -> shape), in order."""

    lattice: str
    shapes: dict


@cache
def named_sets() -> dict[str, PieceSet]:
    """Every named free set, by name (the one-sided ones are made on request)."""
    square = LATTICES["square"]
    omino = {name: square.normalise(square.read_picture(p, name)) for name, p in OMINOES.items()}
    sets = {}

    def add(name, lattice, table, names=None):
        lat = LATTICES[lattice]
        sets[name] = PieceSet(
            lattice,
            {n: lat.normalise(table[n] if isinstance(table[n], frozenset)
                              else cells_from_text(table[n])) for n in names or table},
        )  # fmt: skip

    add("monomino", "square", omino, ["I1"])
    add("domino", "square", omino, ["I2"])
    add("trominoes", "square", omino, ["I3", "L3"])
    add("tetrominoes", "square", omino, ["I4", "O4", "T4", "S4", "L4"])
    add("pentominoes", "square", omino, PENTOMINOES)
    sets["hexominoes"] = PieceSet("square", hexominoes())
    by_size = {}
    for table, lattice in ((IAMONDS, "triangular"), (HEXES, "hexagonal"), (CUBES, "cubic")):
        for name, text in table.items():
            by_size.setdefault((lattice, len(text.split())), []).append(name)
        for size, set_name in FAMILIES[_family_of(lattice)].sets.items():
            if (lattice, size) in by_size:
                add(set_name, lattice, table, by_size[(lattice, size)])
    planar = {f"{n}5": omino[n] for n in PENTOMINOES}
    cubic = LATTICES["cubic"]
    solid = {n: frozenset((x, y, 0) for x, y in s) for n, s in planar.items()}
    sets["pentacubes"] = PieceSet(
        "cubic", {**sets["pentacubes"].shapes, **{n: cubic.normalise(s) for n, s in solid.items()}}
    )
    sets["solid-pentominoes"] = PieceSet(
        "cubic", {n[0]: cubic.normalise(s) for n, s in solid.items()}
    )
    add("soma", "cubic", SOMA)
    sticks = {}
    for name, text in STICKS.items():
        sticks.setdefault(len(text.split()), []).append(name)
    for size, set_name in FAMILIES["polysticks"].sets.items():
        add(set_name, "sticks", STICKS, sticks[size])
    return sets


def _family_of(lattice: str) -> str:
    """The family name of a lattice."""
    return next(f for f, fam in FAMILIES.items() if fam.lattice == lattice)


def hexominoes() -> dict[str, frozenset]:
    """The 35 free hexominoes, named H01..H35 in ``puzzles.polyomino``'s order (by the
    least sorted (row, column) list of their orientations, row = -y, column = x)."""
    square = LATTICES["square"]

    def key(shape):
        views = []
        for o in square.orientations(shape):
            rc = [(-y, x) for x, y in o]
            r0 = min(r for r, _ in rc)
            c0 = min(c for _, c in rc)
            views.append(tuple(sorted((r - r0, c - c0) for r, c in rc)))
        return min(views)

    shapes = sorted(square.polyforms(6), key=key)
    return {f"H{k:02d}": s for k, s in enumerate(shapes, start=1)}


def mirror(lattice: Lattice, shape) -> frozenset:
    """The mirror image of a shape."""
    reflection = lattice.group[lattice.n_rotations]
    return lattice.normalise(lattice.transform(reflection, c) for c in shape)


def one_sided(lattice: Lattice, shapes: dict) -> dict:
    """A one-sided set: each piece, then after each chiral piece its mirror ``NAME'``."""
    out = {}
    for name, shape in shapes.items():
        out[name] = shape
        flipped = mirror(lattice, shape)
        if lattice.canonical(flipped, True) != lattice.canonical(shape, True):
            out[name + "'"] = flipped
    return out


def family_pieces(family: str, sizes, one_sided_set: bool = False) -> PieceSet:
    """Every polyform of the given sizes (free, or one-sided), named where a named set
    exists, else ``SIZE_K`` in the order of canonical forms."""
    fam = FAMILIES[family]
    lattice = LATTICES[fam.lattice]
    shapes = {}
    for n in sizes:
        if n in fam.sets and fam.sets[n] in named_sets():
            named = named_sets()[fam.sets[n]].shapes
        else:
            named = {f"{n}_{k}": s for k, s in enumerate(lattice.polyforms(n), start=1)}
        shapes.update(one_sided(lattice, named) if one_sided_set else named)
    return PieceSet(fam.lattice, shapes)


# -- piece-set specs --------------------------------------------------------------------


@dataclass
class Selection:
    """The result of ``parse_pieces``: a lattice, pieces, and whether they are one-sided."""

    lattice: str
    pieces: list
    one_sided: bool = False


SET_HELP = (
    "sets: "
    + ", ".join(
        ["monomino", "domino", "trominoes", "tetrominoes", "pentominoes", "hexominoes",
         "tetriamonds", "pentiamonds", "hexiamonds", "heptiamonds", "tetrahexes",
         "pentahexes", "soma", "tetracubes", "solid-pentominoes", "pentacubes",
         "tetrasticks"]
    )
    + "; families with sizes: "
    + ", ".join(f"{f}:A-B" for f in FAMILIES)
    + "; 'one-sided-' before a 2-D set or family"
)  # fmt: skip


def parse_pieces(spec: str, lattice: str | None = None, option: str = "pieces") -> Selection:
    """Pieces from a spec: sets, families with sizes, names, ``-NAME``, ``NAME*K``, files.

    Tokens are separated by commas or blanks and read in order: a set (``hexiamonds``),
    a family with sizes (``polyiamonds:1-5``, ``polyhexes:4``), either with
    ``one-sided-`` in front for 2-D lattices; a piece name (looked up in the sets named
    before it, then in the lattice's families); ``-NAME`` removes a piece named before;
    ``NAME*K`` asks for K copies in all (of a piece named before too); a file of pieces
    (a picture in the lattice's text, each character a piece, or a cell-list file
    ``lattice: ...`` with ``NAME x y [z]`` lines).
    The lattice comes from ``lattice``, else from the first set or family. On the
    square lattice ``O`` names the 2x2 square (``O4``; see ``ALIASES``).

    Parameters
    ----------
    spec : str
        The tokens, e.g. ``"pentominoes,O"``, ``"one-sided-tetriamonds"``.
    lattice : str, optional
        The lattice the pieces are on.
    option : str
        What errors call the spec (``pieces``; the commands say ``--pieces``).

    Returns
    -------
    Selection
        The lattice, the pieces (``Piece``: name, shape, copies) and whether they are
        one-sided.

    Examples
    --------
    >>> s = parse_pieces("tetrasticks,-H")
    >>> s.lattice, len(s.pieces)
    ('sticks', 15)
    >>> [(p.name, p.copies) for p in parse_pieces("pentominoes,O*2").pieces][-2:]
    [('Z', 1), ('O4', 2)]
    >>> [p.copies for p in parse_pieces("pentominoes,I*2").pieces if p.name == "I"]
    [2]
    """
    tokens = [t for t in re.split(r"[,\s]+", spec) if t]
    if not tokens:
        raise PuzzleError(f"{option}: no piece given")
    if lattice is None:
        for token in tokens:
            found = _set_of(token.lstrip("-").split("*")[0])
            if found is not None:
                lattice = found[0].lattice
                break
        else:
            lattice = "square"
    lat = LATTICES[lattice]
    pieces: dict[str, Piece] = {}
    context: dict[str, frozenset] = {}
    sided = False
    for position, token in enumerate(tokens, start=1):
        where = f"{option}, item {position} {token!r}"
        copies = 1
        m = re.fullmatch(r"(.+?)\*([0-9]+)", token)
        if m:
            token, copies = m.group(1), int(m.group(2))
            if copies < 1:
                raise PuzzleError(f"{where}: the number of copies must be at least 1")
        if token.startswith("-") and len(token) > 1:
            name = token[1:] if token[1:] in pieces else alias(lattice, token[1:])
            if name not in pieces:
                raise PuzzleError(f"{where}: no piece {name!r} to remove")
            del pieces[name]
            continue
        found = _set_of(token)
        if found is not None:
            piece_set, is_one_sided = found
            if piece_set.lattice != lattice:
                raise PuzzleError(
                    f"{where}: a set of the {piece_set.lattice} lattice, but the pieces "
                    f"are on the {lattice} lattice"
                )
            sided |= is_one_sided
            context.update(piece_set.shapes)
            for name, shape in piece_set.shapes.items():
                _add(pieces, Piece(name, shape, copies), lat, where, exact=m is not None)
            continue
        name = token if token in context else alias(lattice, token)
        shape = context.get(name) or _lattice_names(lattice).get(name)
        if shape is not None:
            _add(pieces, Piece(name, shape, copies), lat, where, exact=m is not None)
            continue
        if Path(token).is_file():
            for p in read_piece_file(read_text(token), lattice, token):
                _add(pieces, Piece(p.name, p.shape, p.copies * copies), lat, where)
            continue
        raise PuzzleError(
            f"{where}: unknown piece or set on the {lattice} lattice (one of another lattice: "
            f"name that lattice); {SET_HELP}"
        )
    if not pieces:
        raise PuzzleError(f"{option}: every piece was removed")
    return Selection(lattice, list(pieces.values()), sided)


def _add(pieces: dict, piece: Piece, lattice: Lattice, where: str, exact: bool = False) -> None:
    """Add a piece (copies add up, unless ``exact``: ``NAME*K``, K copies in all); refuse
    one name for two shapes."""
    if not piece.name or piece.name[0] in "-+!" or any(ch in piece.name for ch in ",:*| "):
        raise PuzzleError(f"{where}: {piece.name!r} cannot be a piece name")
    if not lattice.is_connected(piece.shape):
        raise PuzzleError(f"{where}: piece {piece.name!r} is not connected")
    old = pieces.get(piece.name)
    if old is None:
        pieces[piece.name] = piece
    elif lattice.canonical(old.shape) != lattice.canonical(piece.shape):
        raise PuzzleError(f"{where}: two different pieces are named {piece.name!r}")
    else:
        copies = piece.copies if exact else old.copies + piece.copies
        pieces[piece.name] = Piece(piece.name, old.shape, copies)


def _set_of(token: str):
    """(PieceSet, one-sided) for a set or family token, or None."""
    sided = token.startswith("one-sided-")
    base = token[len("one-sided-") :] if sided else token
    m = re.fullmatch(r"([a-z]+):([0-9]+)(?:-([0-9]+))?", base)
    if m and m.group(1) in FAMILIES:
        low = int(m.group(2))
        high = int(m.group(3) or low)
        if not 1 <= low <= high <= 8:
            raise PuzzleError(f"{token}: sizes must run from 1 to 8 at most")
        found = family_pieces(m.group(1), range(low, high + 1), sided)
    elif base in named_sets():
        found = named_sets()[base]
        if sided:
            found = PieceSet(found.lattice, one_sided(LATTICES[found.lattice], found.shapes))
    else:
        return None
    if sided and not LATTICES[found.lattice].pieces_turn_over:
        raise PuzzleError(f"{token}: 3-D pieces are always one-sided (they only rotate)")
    return found, sided


ALIASES = {"square": {"O": "O4", "Z4": "S4", "J4": "L4", "V3": "L3", "D": "I2", "M": "I1"}}


def alias(lattice: str, name):
    """The catalogue's name for ``name`` on a lattice (``O`` is ``O4``, the 2x2 square,
    on the square lattice); other names unchanged.

    >>> alias("square", "O"), alias("square", "F"), alias("hexagonal", "O")
    ('O4', 'F', 'O')
    """
    return ALIASES.get(lattice, {}).get(name, name)


@cache
def _lattice_names(lattice: str) -> dict:
    """Piece names of a lattice's named family sets (sizes 1 to 7)."""
    family = FAMILIES[_family_of(lattice)]
    out = {}
    for set_name in family.sets.values():
        if set_name in named_sets():
            out.update(named_sets()[set_name].shapes)
    return out


def read_piece_file(text: str, lattice: str, where: str) -> list[Piece]:
    """Pieces from a file: a cell list (``lattice:`` line, then ``NAME x y [z]`` lines)
    or a picture in the lattice's text, one character per piece (groups of one
    character are copies and must have one shape)."""
    lat = LATTICES[lattice]
    if text.lstrip().lower().startswith("lattice"):
        listed, named = read_cell_list(text, where, named=True)
        if listed != lattice:
            raise PuzzleError(f"{where}: pieces on the {listed} lattice, expected {lattice}")
        cells_of = named
    else:
        cells_of = {}
        for cell, ch in lat.read_picture(text, where).items():
            cells_of.setdefault(ch, set()).add(cell)
    pieces = []
    for name, cells in cells_of.items():
        groups = lat.components(cells)
        first = lat.normalise(groups[0])
        for g in groups[1:]:
            if lat.canonical(g) != lat.canonical(first):
                raise PuzzleError(
                    f"{where}: the cells of piece {name!r} form groups of different shapes"
                )
        pieces.append(Piece(name, first, len(groups)))
    if not pieces:
        raise PuzzleError(f"{where}: no piece drawn")
    return pieces
