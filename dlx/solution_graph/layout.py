"""Compile a ``dlx.Problem`` into the solution-graph kernel's arrays (numpy only, no numba).

Glossary (see the essay in ``dlx/solution_graph/kernel.py`` for how the kernel uses them)
------------------------------------------------------------------------------
bit
    Every item is one bit of a key of ``words`` uint64 words: the primary items first
    (the *cells*, then the *pieces*: see ``dlx/kernels/bitset/layout.py``, whose piece
    rule this layout takes), then the secondary items.
sweep
    The cells in the order of the Fiedler vector of their graph, as
    ``dlx/kernels/bitset/layout.py`` sweeps them, taken here only where it is fixed by
    the problem alone: the options span strictly less than ``SWEEP_GAIN`` of what they
    span in the declared order, and the eigenvalue is simple (``EIGEN_GAP`` from its
    neighbours: its eigenvector is unique up to sign, the sign that runs the declared
    way). Otherwise the declared order, so that the order of the solutions
    (``ORDER_VERSION``) is the same on every machine: ties are broken by the declared
    index, never by an eigensolver's choice.
key
    The items covered so far: the whole state of a subproblem, since the kernel always
    branches on the first uncovered primary bit, so that the subproblems met along
    different paths with the same key are the same and are built once.
list of a bit
    The options whose lowest primary bit is that bit, in the problem's order: when
    every primary bit before ``b`` is covered, exactly those can cover ``b``.
urgent piece
    A piece with at most ``URGENT_OPTIONS`` options in all (X on a board, or the piece
    that symmetry breaking restricts): while one is uncovered, the kernel branches on the
    one with the fewest options that fit, as the bitset kernel does, before the first
    uncovered cell. The choice depends on the key alone, so keys still repeat.
branching
    ``"cell"`` (the default): urgent pieces, then the first uncovered cell, as above.
    ``"fewest"``: the urgent pieces too, then the uncovered primary item with the fewest
    options that fit (the first of those in bit order), as the tight kernel and Knuth's
    DLX1 branch, from a bitset of
    the options alive at each level (``item_bits``: the options of each item, as bits in
    list order). It too depends on the key alone, and it refutes a subproblem as soon
    as an item has no option left; it orders the solutions differently.

Only plain exact cover fits: every primary item covered exactly once, secondary items at
most once, no colours, no loop items. An option without a primary item is in no list (its
lowest primary bit is past the last), so it is in no solution, as for ``dlx.count`` and
Knuth's DLX6.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from dlx.driver.codes import DONE, OVERFLOW, PAUSED  # noqa: F401 (the kernel's codes)
from dlx.errors import ProblemError
from dlx.kernels.cells import SWEEP_GAIN, cell_graph, span, spans
from dlx.kernels.cells import adjacency as _adjacency
from dlx.kernels.cells import pieces_of as _pieces
from dlx.problem import Problem

FULL = 6  # the node or edge arrays are full: grow them and call again
GROW = 7  # the key table is half full: rehash it into a larger one and call again
BOUND = 8  # the key table holds as many keys as the caller allows
EMPTY, DEAD = -1, -2  # a key table slot: no key; a key whose subproblem has no solution
TERMINAL = 0  # the node of the empty subproblem (every primary item covered)
DEAD_MIN_NODES = 2  # a subproblem of no solution refuted in fewer nodes is not cached
URGENT_OPTIONS = 40  # a piece with at most this many options is branched on first
BRANCHINGS = ("cell", "fewest")  # the rules of branching (see the glossary)
FEWEST_BYTES = 256 << 20  # a certificate branches on "fewest" when its arrays fit in this
NARROW_FRONT = 24  # ... and its options span more cells than this (see choose_branching)
ORDER_VERSION = 2  # the graph's order of solutions (ranks, samples) as fixed by this layout
FRAME_WORDS = 16  # a frame's most words (branching "fewest": dlx/solution_graph/fewest.py)
EIGEN_GAP = 1e-6  # the sweep's eigenvalue must stand this far (relative) from its neighbours

Tables = namedtuple(
    "Tables",
    "words primary_words mask list_start list_option option halo neighbours urgent_bit "
    "urgent_start urgent_option dead_min fewest item_bits item_lo item_hi",
)
State = namedtuple(
    "State",
    "key level_visited cand cand_child cand_start branch_index branch_degree state table dead "
    "node_count node_edge edge_child edge_option acc alive frame_live frame_group frame_map "
    "frame",
)
# ``state``: the kernel's scalars, kept between calls
LEVEL, STEP, NODES, EDGES, ENTRIES, ROOT, VISITED = range(7)
STATE_FIELDS = 7


@dataclass(frozen=True)
class GraphLayout:
    """The kernel's arrays for one problem, options numbered in *list order*.

    ``mask``: uint64[n_options, words], the bits of each option; ``list_start``:
    int64[n_primary + 1] (the list of bit ``b`` is ``list_start[b]:list_start[b + 1]``);
    ``option``: int64[n_options], the problem's index of each option; ``bit_item``: the
    item of each bit (``>= 0``: primary ``p``, ``< 0``: secondary ``~s``, as in
    ``Problem``'s encoding).
    """

    words: int
    n_primary: int
    mask: np.ndarray
    list_start: np.ndarray
    option: np.ndarray
    bit_item: np.ndarray
    halo: np.ndarray
    neighbours: np.ndarray
    urgent_bit: np.ndarray
    urgent_start: np.ndarray
    urgent_option: np.ndarray
    fewest: tuple = ()  # branching "fewest": (item_bits, item_lo, item_hi)
    front: int = 0  # the most cells an option spans, first to last, in the cells' order

    def tables(self) -> Tables:
        """The layout as the kernel takes it."""
        fewest = self.fewest or (
            np.zeros((0, 0), np.uint64), np.zeros(0, np.int64), np.zeros(0, np.int64)
        )  # fmt: skip
        return Tables(
            self.words, (self.n_primary + 63) // 64, self.mask, self.list_start,
            np.arange(len(self.option)), self.option,
            self.halo, self.neighbours, self.urgent_bit, self.urgent_start, self.urgent_option,
            DEAD_MIN_NODES, int(bool(self.fewest)), *fewest,
        )  # fmt: skip


def fewest_bytes(problem: Problem) -> int:
    """The bytes of the arrays that branching ``"fewest"`` adds: ``item_bits`` and the
    options alive at each level."""
    option_words = max((problem.n_options + 63) // 64, 1)
    n_primary = len(problem.primary)
    return 8 * option_words * (n_primary + len(problem.secondary) + n_primary + 2)


def choose_branching(problem: Problem) -> str:
    """The certificate's rule: ``"cell"`` where the options span at most ``NARROW_FRONT``
    cells in the cells' order (a narrow board: keys met again most often when the first
    free cell is taken, as for the bitset kernel's memo; the 6x10 pentominoes, front 24:
    0.27 s against 0.46 with ``"fewest"``) or where ``"fewest"``'s arrays pass
    ``FEWEST_BYTES``; else ``"fewest"`` (fewer subproblems entered: the 9x10 one-sided
    pentominoes, front 36, 4.2 times cheaper; docs/oeis.md)."""
    if fewest_bytes(problem) > FEWEST_BYTES:
        return "cell"
    return "cell" if layout(problem).front <= NARROW_FRONT else "fewest"


def why_not(problem: Problem) -> str | None:
    """Why the graph cannot be built for ``problem`` (None when it can)."""
    if not problem.primary:
        return "the problem has no primary items"
    multiplicity = problem.first_multiplicity()
    if multiplicity is not None:
        name, lo, hi = multiplicity
        return f"item {name!r} has bounds {lo}:{hi} (only exact cover, 1:1, is supported)"
    if problem.loop_edges:
        return "it has loop items"
    entries = problem.entries()  # (the options as compressed rows, items numbered from 1)
    if np.any(entries.colour != 0):
        k = int(entries.option[np.flatnonzero(entries.colour)[0]])
        return f"option {k} gives an item a colour (colours are not supported)"
    return None


def layout(problem: Problem, branching: str = "cell") -> GraphLayout:
    """The graph kernel's arrays for ``problem`` (ProblemError when it does not fit),
    for the rule of ``branching`` (see the glossary)."""
    if branching not in BRANCHINGS:
        raise ProblemError(f"branching must be one of {', '.join(BRANCHINGS)}, not {branching!r}")
    reason = why_not(problem)
    if reason is not None:
        raise ProblemError(f"no solution graph for this problem: {reason}")
    n_primary = len(problem.primary)
    n_items = n_primary + len(problem.secondary)
    entries = problem.entries()
    # items numbered as dlx.kernels.links.layout does: 1..n_primary, then the secondary ones
    option_of, item_of = entries.option, entries.item
    second = n_primary + 1
    n_options = problem.n_options
    pieces = _pieces(option_of, item_of, n_options, second)
    primary = np.arange(1, second)
    is_piece = np.isin(primary, pieces)
    cells = sweep(primary[~is_piece], option_of, item_of, n_options, n_items)
    order = np.concatenate([cells, primary[is_piece], np.arange(second, n_items + 1)])
    bit_of = np.empty(n_items + 1, np.int64)
    bit_of[order] = np.arange(n_items)
    bit = bit_of[item_of]
    lowest = np.full(n_options, n_primary, np.int64)
    np.minimum.at(lowest, option_of, np.where(bit < n_primary, bit, n_primary))
    list_order = np.argsort(lowest, kind="stable")
    position = np.empty(n_options, np.int64)
    position[list_order] = np.arange(n_options)
    words = (n_items + 63) // 64
    mask = np.zeros((n_options, words), np.uint64)
    one = np.left_shift(np.uint64(1), (bit & 63).astype(np.uint64))
    np.bitwise_or.at(mask, (position[option_of], bit >> 6), one)
    list_start = np.searchsorted(lowest[list_order], np.arange(n_primary + 1)).astype(np.int64)
    bit_item = np.where(order < second, order - 1, ~(order - second))
    halo, neighbours = _lone_cells(mask, position[option_of], bit, len(cells))
    urgent = _urgent(bit_of[pieces], position[option_of], bit)
    fewest = _fewest(position[option_of], bit, n_items, n_options) if branching == "fewest" else ()
    on_cell = bit < len(cells)
    return GraphLayout(
        words, n_primary, mask, list_start, list_order.astype(np.int64), bit_item, halo,
        neighbours, *urgent, fewest,
        int(spans(bit, option_of[on_cell], np.flatnonzero(on_cell), n_options).max(initial=0)),
    )  # fmt: skip


def _fewest(entry_row, bit, n_items: int, n_options: int) -> tuple:
    """The arrays of branching ``"fewest"``: ``item_bits``: uint64[n_items, option words],
    bit ``o`` of row ``x`` set when option ``o`` (list order) holds item bit ``x``;
    ``item_lo``, ``item_hi``: the words of each row that hold a bit (empty for none)."""
    option_words = max((n_options + 63) // 64, 1)
    item_bits = np.zeros((n_items, option_words), np.uint64)
    one = np.left_shift(np.uint64(1), (entry_row & 63).astype(np.uint64))
    np.bitwise_or.at(item_bits, (bit, entry_row >> 6), one)
    first = np.full(n_items, option_words, np.int64)
    last = np.full(n_items, -1, np.int64)
    np.minimum.at(first, bit, entry_row >> 6)
    np.maximum.at(last, bit, entry_row >> 6)
    return item_bits, np.minimum(first, last + 1), last + 1


def sweep(cells, option_of, item_of, n_options, n_items) -> np.ndarray:
    """``cells`` in sweep order where that is fixed by the problem and shortens the
    options' spans (see the glossary), else as declared."""
    graph = cell_graph(cells, option_of, item_of, n_options, n_items, np.float64)
    if graph is None:
        return cells
    cell_option, cell_item, laplacian = graph
    n = len(cells)
    values, vectors = np.linalg.eigh(laplacian)
    scale = max(float(values[-1]), 1.0)
    if values[1] - values[0] <= EIGEN_GAP * scale or values[2] - values[1] <= EIGEN_GAP * scale:
        return cells  # no simple eigenvalue: its eigenvector would be the solver's choice
    fiedler = vectors[:, 1] / (np.abs(vectors[:, 1]).max() or 1.0)
    declared = np.arange(n)
    lean = float(fiedler @ (declared - declared.mean()))
    if abs(lean) <= EIGEN_GAP * n * n:
        return cells  # neither way is the declared way
    if lean < 0:
        fiedler = -fiedler
    order = np.lexsort((declared, np.round(fiedler, 6)))  # ties in declared order
    rank = np.empty(n, np.int64)
    rank[order] = declared
    before = span(declared, cell_option, cell_item, n_options)
    after = span(rank, cell_option, cell_item, n_options)
    return cells[order] if after < SWEEP_GAIN * before else cells


def _urgent(piece_bits, entry_row, bit) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The urgent pieces (see the glossary): their bits, fewest options first, and their
    options (list order), ``urgent_option[urgent_start[u]:urgent_start[u + 1]]``."""
    per_bit = np.bincount(bit, minlength=int(bit.max(initial=0)) + 1)
    chosen = sorted((int(per_bit[b]), int(b)) for b in piece_bits if per_bit[b] <= URGENT_OPTIONS)
    lists = [np.sort(entry_row[bit == b]) for _, b in chosen]
    start = np.zeros(len(lists) + 1, np.int64)
    np.cumsum([len(x) for x in lists], out=start[1:])
    options = np.concatenate(lists).astype(np.int64) if lists else np.zeros(0, np.int64)
    return np.array([b for _, b in chosen], np.int64), start, options


def _lone_cells(mask, entry_row, bit, n_cells) -> tuple[np.ndarray, np.ndarray]:
    """``halo``: uint64[n_options, words], the cells next to each option's cells, less
    those that some option of one cell covers; ``neighbours``: uint64[n_cells, words]
    (see ``dlx/kernels/bitset/layout.py``: every option's cells are joined by neighbours). A cell of
    the halo left with no free neighbour once the option is taken can be covered by no
    option. Empty (no pruning) where the cells hold too many pairs."""
    n_options, words = mask.shape
    halo = np.zeros((n_options, words), np.uint64)
    neighbours = np.zeros((max(n_cells, 1), words), np.uint64)
    is_cell = bit < n_cells
    cell_row, cell_bit = entry_row[is_cell], bit[is_cell]
    edges = _adjacency(cell_row, cell_bit, n_cells) if n_cells else None
    if not edges:
        return halo, neighbours
    a, b = np.array(edges, np.int64).T
    for x, y in ((a, b), (b, a)):
        np.bitwise_or.at(
            neighbours, (x, y >> 6), np.left_shift(np.uint64(1), (y & 63).astype(np.uint64))
        )
    np.bitwise_or.at(halo, cell_row, neighbours[cell_bit])
    halo &= ~mask
    size = np.bincount(cell_row, minlength=n_options)
    for x in cell_bit[size[cell_row] == 1]:  # cells that an option of one cell covers
        halo[:, x >> 6] &= ~(np.uint64(1) << np.uint64(x & 63))
    return halo, neighbours


def new_state(
    lay: GraphLayout, nodes: int, edges: int, table: int, limbs: int, dead_bytes: int
) -> State:
    """Empty build arrays: room for ``nodes`` nodes, ``edges`` edges, a key table of
    ``table`` slots (a power of two), counts of ``limbs`` words, a dead cache of about
    ``dead_bytes``; node 0 is the terminal."""
    levels = lay.n_primary + 2
    n_cand = max(len(lay.option), 1)  # a path meets each bit's list at most once
    state = np.zeros(STATE_FIELDS, np.int64)
    state[NODES] = 1
    state[ROOT] = -1
    node_count = np.zeros((nodes, limbs), np.uint64)
    node_count[TERMINAL, 0] = 1
    return State(
        key=np.zeros((levels, lay.words), np.uint64),
        level_visited=np.zeros(levels, np.int64),
        cand=np.zeros(n_cand, np.int64),
        cand_child=np.zeros(n_cand, np.int64),
        cand_start=np.zeros(levels, np.int64),
        branch_index=np.zeros(levels, np.int64),
        branch_degree=np.zeros(levels, np.int64),
        state=state,
        table=empty_table(table, lay.words),
        dead=np.zeros(
            (1 << max(dead_bytes // (8 * lay.words), 1).bit_length() - 1, lay.words), np.uint64
        ),
        node_count=node_count,
        node_edge=np.zeros(nodes + 1, np.int64),
        edge_child=np.zeros(edges, np.int32),
        edge_option=np.zeros(edges, np.int32),
        acc=np.zeros(limbs, np.uint64),
        alive=_alive(lay, levels),
        **_frames(lay, levels),
    )


def _alive(lay: GraphLayout, levels: int) -> np.ndarray:
    """The options alive at each level (branching ``"fewest"``): at level 0, all."""
    if not lay.fewest:
        return np.zeros((1, 1), np.uint64)
    n_options = len(lay.option)
    alive = np.zeros((levels, lay.fewest[0].shape[1]), np.uint64)
    alive[0, : n_options // 64] = ~np.uint64(0)
    if n_options % 64:
        alive[0, n_options // 64] = (np.uint64(1) << np.uint64(n_options % 64)) - np.uint64(1)
    return alive


def _frames(lay: GraphLayout, levels: int) -> dict:
    """The frame's arrays (branching "fewest": ``dlx/solution_graph/fewest.py``), no
    frame open; no words where frames are off."""
    words = FRAME_WORDS if lay.fewest else 0
    return {
        "frame_live": np.zeros((levels, words), np.uint64),
        "frame_group": np.zeros((lay.fewest[0].shape[0] if lay.fewest else 1, words), np.uint64),
        "frame_map": np.zeros(64 * words, np.int64),
        "frame": np.array([-1, 0], np.int64),  # the frame's level (-1: none) and words
    }


def empty_table(slots: int, words: int) -> np.ndarray:
    """A key table of ``slots`` rows, every one ``EMPTY`` (see ``dlx/solution_graph/kernel.py``)."""
    table = np.zeros((slots, words + 1), np.uint64)
    table[:, words] = np.uint64(EMPTY & ((1 << 64) - 1))
    return table
