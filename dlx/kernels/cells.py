"""What the bit-parallel layouts (the bitset kernel's, the solution graph's) read of a
tiling's cells, numpy only: the piece items (``pieces_of``), the cells' neighbours
(``adjacency``) and a better order of the cells (``sweep``); the glossary of
``dlx.kernels.bitset.layout`` says what each means."""

from __future__ import annotations

import numpy as np

MAX_PAIRS = 4_000_000  # no region pruning when options hold more pairs of cells
SWEEP_MAX_CELLS = 1024  # no sweep for more cells (a dense eigensolver: n^3)
SWEEP_MAX_ENTRIES = 4_000_000  # nor for more options x cells (a dense incidence)
SWEEP_GAIN = 0.8  # the sweep is taken where options span at most this share as much


def pieces_of(option_of, item_of, n_options, second) -> np.ndarray:
    """The piece items (see the glossary), or none: sorted item numbers."""
    first = np.ones(len(option_of), bool)
    first[1:] = option_of[1:] != option_of[:-1]
    candidates = np.unique(item_of[first])
    if np.any(candidates >= second):
        return np.zeros(0, np.int64)
    per_option = np.bincount(option_of[np.isin(item_of, candidates)], minlength=n_options)
    if np.all(per_option == 1) and len(candidates) < len(np.unique(item_of)):
        return candidates
    return np.zeros(0, np.int64)


def _root(parent: dict, c: int) -> int:
    """The root of ``c`` in a union-find forest (halving the path on the way)."""
    while parent[c] != c:
        parent[c] = parent[parent[c]]
        c = parent[c]
    return c


def adjacency(cell_option, cell_bit, n_bits) -> list[tuple[int, int]] | None:
    """Edges between cells: each option's maximum spanning tree (see the glossary), a
    pair weighed by the share of the options holding either cell that hold both (raw
    counts of the options holding both joined cells two apart near a board's corners,
    where few options reach the corner's own edges)."""
    held = np.bincount(cell_bit, minlength=n_bits)  # options holding each cell
    order = np.argsort(cell_option, kind="stable")
    cell_option, cell_bit = cell_option[order], cell_bit[order]
    bounds = np.flatnonzero(np.diff(cell_option)) + 1
    groups = np.split(cell_bit, bounds)
    if sum(len(g) * (len(g) - 1) // 2 for g in groups) > MAX_PAIRS:
        return None
    pair_count: dict[tuple[int, int], int] = {}
    for g in groups:
        cells = sorted(int(c) for c in g)
        for a in range(len(cells)):
            for b in range(a + 1, len(cells)):
                key = (cells[a], cells[b])
                pair_count[key] = pair_count.get(key, 0) + 1
    edges: set[tuple[int, int]] = set()
    for g in groups:
        cells = sorted(int(c) for c in g)
        if len(cells) < 2:
            continue
        pairs = sorted(
            ((cells[a], cells[b]) for a in range(len(cells)) for b in range(a + 1, len(cells))),
            key=lambda ab: -pair_count[ab] / (held[ab[0]] + held[ab[1]] - pair_count[ab]),
        )
        parent = {c: c for c in cells}
        joined = 1
        for a, b in pairs:
            ra, rb = _root(parent, a), _root(parent, b)
            if ra != rb:
                parent[ra] = rb
                edges.add((a, b))
                joined += 1
                if joined == len(cells):
                    break
    return sorted(edges)


def spans(rank, cell_option, cell_item, n_options) -> np.ndarray:
    """Each option's distance between its first and last cell, when cell ``c`` has
    position ``rank[c]`` (the options that hold a cell only)."""
    pos = rank[cell_item]
    hi = np.full(n_options, -1, np.int64)
    lo = np.full(n_options, len(rank), np.int64)
    np.maximum.at(hi, cell_option, pos)
    np.minimum.at(lo, cell_option, pos)
    held = hi >= 0
    return (hi - lo)[held]


def span(rank, cell_option, cell_item, n_options) -> float:
    """The mean over options of the distance between their first and last cell, when
    cell ``c`` has position ``rank[c]``."""
    each = spans(rank, cell_option, cell_item, n_options)
    return float(each.mean()) if len(each) else 0.0


def cell_graph(cells, option_of, item_of, n_options, n_items, dtype=np.float32):
    """Where a sweep is tried (at least 3 cells, at most ``SWEEP_MAX_CELLS``, the
    incidence at most ``SWEEP_MAX_ENTRIES``): the option and cell index of each entry
    on a cell, and the Laplacian of the graph that joins two cells held by one option
    (the incidence in ``dtype``; float64); else None."""
    n = len(cells)
    if n < 3 or n > SWEEP_MAX_CELLS or n * n_options > SWEEP_MAX_ENTRIES:
        return None
    index = np.full(n_items + 1, -1, np.int64)
    index[cells] = np.arange(n)
    held = index[item_of] >= 0
    cell_option, cell_item = option_of[held], index[item_of[held]]
    incidence = np.zeros((n_options, n), dtype)
    incidence[cell_option, cell_item] = 1.0
    joined = (incidence.T @ incidence).astype(np.float64)
    np.fill_diagonal(joined, 0.0)
    return cell_option, cell_item, np.diag(joined.sum(axis=1)) - joined


def sweep(cells, option_of, item_of, n_options, n_items) -> np.ndarray:
    """``cells`` in sweep order where that shortens the options' spans (see the
    glossary), else as declared."""
    graph = cell_graph(cells, option_of, item_of, n_options, n_items)
    if graph is None:
        return cells
    cell_option, cell_item, laplacian = graph
    n = len(cells)
    fiedler = np.linalg.eigh(laplacian)[1][:, 1]
    fiedler /= np.abs(fiedler).max() or 1.0
    declared = np.arange(n)
    if fiedler @ (declared - declared.mean()) < 0:  # the sweep runs the declared way
        fiedler = -fiedler
    # rounded, ties in declared order: the same order on every machine
    order = np.lexsort((declared, np.round(fiedler, 6)))
    rank = np.empty(n, np.int64)
    rank[order] = declared
    before = span(declared, cell_option, cell_item, n_options)
    after = span(rank, cell_option, cell_item, n_options)
    return cells[order] if after <= SWEEP_GAIN * before else cells
