"""The dancing-links kernel's array layout: the one module that builds and reads it.

Pure numpy (no numba import): a problem is compiled to arrays here, forced options are
checked and turned into nodes here, and a search's working arrays are made here.
``dlx/kernels/links/kernel.py`` explains what the arrays mean (its essay) and imports
its field numbers from this module.

Glossary
--------
``Arrays``
    A problem compiled once (``arrays(problem)``, kept by ``Problem.layout_of``): links,
    bounds, loop items.
``SearchState``
    One search's own arrays (copies of the links plus the per-level and loop arrays),
    handed to the kernel as one argument.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from dlx.errors import ProblemError
from dlx.problem import PROPAGATIONS, Entries, Problem

# The field numbers below are compiled into the kernel as constants: numba's cache
# does not notice an edit here, so after changing one, clear the cache (``__pycache__``)
# or touch ``dlx/kernels/links/kernel.py``.

# node[field, x] and item[field, i]
TOP, ULINK, DLINK, COLOR = 0, 1, 2, 3
PREV, NEXT, BOUND, SLACK = 0, 1, 2, 3
NODE_FIELDS = ITEM_FIELDS = 4

# level_data[level, field]: the per-level arrays of the search, packed
CHOICE, BEST, FIRST_TWEAK, BRANCH_INDEX, BRANCH_DEGREE, MEMO_SOLUTIONS, MEMO_NODES = range(7)
DOMINATION_MARK = 7  # the length of the domination trail before the level's option
SINGLES_MARK = 8  # the length of the domination's singles stack before the level's option
SINGLES_FLOOR = 9  # the singles stack's entries below this are covered (checked at M3)
LEVEL_FIELDS = 10

# domination[field]: the rule's setting and trail (see "Item domination" in the kernel)
DOMINATION_LENGTH, DOMINATION_TOP, DOMINATION_TRAIL = 0, 1, 2
DOMINATION_MAX_LENGTH = 2  # an item with more options left is not checked (README: 2 measured best)

# progress[field]: where a search stands between calls, and its counters
LEVEL, STEP, SOLUTIONS, NODES, UPDATES = range(5)
PROGRESS_FIELDS = 5

# loop items: loop_edge[item, field], loop_vertex[vertex, field], loop_total[field]
LOOP_U, LOOP_V, LOOP_ON, LOOP_STATE, LOOP_SAVED, LOOP_FORBIDDEN, LOOP_MARK = range(7)
LOOP_EDGE_FIELDS = 7
MATE, DEGREE, LENGTH, FIRST_EDGE = range(4)
LOOP_VERTEX_FIELDS = 4
LOOP_ON_EDGES, LOOP_CLOSED, LOOP_BAD, LOOP_TRAIL = range(4)
LOOP_TOTAL_FIELDS = 4
EDGE_OFF, EDGE_JOINED, EDGE_CLOSING, EDGE_BAD, EDGE_SETTLED = range(5)

MAX_NODES = 1 << 31  # int32 links

MEMO_BYTES = 1 << 23  # the memo table, at most (see README for the table sizes measured)
MEMO_MAX_ITEMS = 4095  # no memo beyond: each child's key (64 words here) is copied, hashed
MEMO_MIN_SLOTS = 16
KEY_BITS = 64  # items per word of a memo key


@dataclass(frozen=True)
class Arrays:
    """A problem compiled for the kernel (see ``dlx/kernels/links/kernel.py`` for the layout).

    ``node``: int32[NODE_FIELDS, n_nodes]; ``item``: int32[ITEM_FIELDS, n_items + 1];
    ``second``: the first secondary item; ``option_of_node``: int32[n_nodes], the option
    of each node (-1 for headers and spacers); ``first_node``: int32[n_options], the
    first node of each option; ``max_level``: an upper bound on the depth of the search
    tree; ``loop_edge``: int32[n_items + 1, LOOP_EDGE_FIELDS] for problems with loop
    items (else None), ``n_vertices`` their vertices, and the loop items at vertex ``v``:
    ``loop_incident[loop_first_edge[v]:loop_first_edge[v + 1]]``.
    """

    node: np.ndarray
    item: np.ndarray
    second: int
    has_bounds: bool
    option_of_node: np.ndarray
    first_node: np.ndarray
    max_level: int
    loop_edge: np.ndarray | None = None
    n_vertices: int = 0
    loop_first_edge: np.ndarray | None = None
    loop_incident: np.ndarray | None = None

    @property
    def n_items(self) -> int:
        """Primary and secondary items."""
        return self.item.shape[1] - 1

    @property
    def n_options(self) -> int:
        """Options."""
        return len(self.first_node)

    def option_length(self, options: np.ndarray) -> np.ndarray:
        """int64: the items of each of ``options`` (valid option numbers): to the next
        option's first node, or the end, less the spacer."""
        following = options + 1
        end = self.first_node[np.minimum(following, self.n_options - 1)].astype(np.int64)
        end[following >= self.n_options] = self.node.shape[1]
        return end - self.first_node[options] - 1


def arrays(problem: Problem) -> Arrays:
    """The problem laid out for the kernel: built once while the problem stays as it is
    (``Problem.layout_of``), so every search of a problem, from any thread, reads the
    same arrays.

    >>> p = Problem(primary=["a", "b"])
    >>> _ = p.add_option(["a", "b"])
    >>> arrays(p).n_options, arrays(p) is arrays(p)
    (1, True)
    """
    return problem.layout_of(_build)


def _build(problem: Problem) -> Arrays:
    """``arrays(problem)``, built (kept by ``layout_of``)."""
    built = compile_options(problem.layout_of(Problem.entries), problem.n_options)
    loops = problem.loop_items()
    return with_loop_edges(built, loops) if loops else built


def compile_options(entries: Entries, n_options: int) -> Arrays:
    """Lay a problem out as in Knuth's DLX3 (see the essay in ``dlx/kernels/links/kernel.py``).

    ``entries``: the problem's options as compressed rows (``Problem.entries``: item
    numbers from 1, the primary items first, with their colours and bounds) of
    ``n_options`` options.
    """
    lo, hi = entries.lo, entries.hi
    n_primary = len(lo)
    n_items = n_primary + entries.n_secondary
    second = n_primary + 1
    ids = entries.item
    colour = entries.colour
    option_of_entry = entries.option
    length = np.bincount(option_of_entry, minlength=n_options).astype(np.int64)
    start = np.concatenate(([0], np.cumsum(length))).astype(np.int64)
    # node of entry j of option k: n_items + 2 + j + k (one spacer before each option)
    entry_node = n_items + 2 + np.arange(len(ids)) + option_of_entry
    n_nodes = n_items + 2 + len(ids) + n_options
    if n_nodes >= MAX_NODES:
        raise ProblemError(f"the problem is too large (more than {MAX_NODES} nodes)")
    node = np.zeros((NODE_FIELDS, n_nodes), dtype=np.int32)
    node[TOP, entry_node] = ids
    node[COLOR, entry_node] = colour
    first_node = (n_items + 2 + start[:-1] + np.arange(n_options)).astype(np.int32)
    last_node = first_node + length - 1
    spacer_after = last_node + 1
    node[TOP, spacer_after] = -(np.arange(n_options) + 1)
    node[ULINK, spacer_after] = first_node
    node[DLINK, first_node - 1] = last_node
    _link_lists(node, ids, entry_node, n_items)
    item = np.zeros((ITEM_FIELDS, n_items + 1), dtype=np.int32)
    ring = np.arange(second)  # root 0 and the primary items, circularly linked
    item[PREV, ring] = np.roll(ring, 1)
    item[NEXT, ring] = np.roll(ring, -1)
    secondary = np.arange(second, n_items + 1)
    item[PREV, secondary] = secondary
    item[NEXT, secondary] = secondary
    lo = np.asarray(lo, dtype=np.int64)
    hi = np.asarray(hi, dtype=np.int64)
    item[BOUND, 1:second] = hi
    item[SLACK, 1:second] = hi - lo
    option_of_node = np.full(n_nodes, -1, dtype=np.int32)
    option_of_node[entry_node] = option_of_entry
    has_bounds = bool(np.any(lo != 1) or np.any(hi != 1))
    max_level = int(hi.sum()) + n_primary + 1
    return Arrays(node, item, second, has_bounds, option_of_node, first_node, max_level)


def _link_lists(node, ids, entry_node, n_items: int) -> None:
    """The vertical lists: each item's nodes in the order of the options."""
    order = np.argsort(ids, kind="stable")
    sorted_nodes = entry_node[order]
    sorted_ids = ids[order]
    node[TOP, : n_items + 1] = np.bincount(ids, minlength=n_items + 1)
    headers = np.arange(n_items + 1)
    node[ULINK, headers] = headers
    node[DLINK, headers] = headers
    if len(sorted_nodes):
        same_next = np.empty(len(sorted_nodes), dtype=bool)
        same_next[:-1] = sorted_ids[1:] == sorted_ids[:-1]
        same_next[-1] = False
        same_prev = np.empty(len(sorted_nodes), dtype=bool)
        same_prev[0] = False
        same_prev[1:] = same_next[:-1]
        down = np.where(same_next, np.roll(sorted_nodes, -1), sorted_ids)
        up = np.where(same_prev, np.roll(sorted_nodes, 1), sorted_ids)
        node[DLINK, sorted_nodes] = down
        node[ULINK, sorted_nodes] = up
        node[DLINK, sorted_ids[~same_prev]] = sorted_nodes[~same_prev]
        node[ULINK, sorted_ids[~same_next]] = sorted_nodes[~same_next]
    node[:, 0] = 0


def with_loop_edges(arrays: Arrays, edges: dict[int, tuple[int, int, int]]) -> Arrays:
    """``arrays`` with loop items: secondary item ``s`` -> (u, v, 'on' colour id)."""
    n_items = arrays.n_items
    second = arrays.second
    loop_edge = np.zeros((n_items + 1, LOOP_EDGE_FIELDS), dtype=np.int32)
    for s, (u, v, colour) in edges.items():
        loop_edge[second + s, :LOOP_STATE] = (u, v, colour)
    n_vertices = 1 + max(max(u, v) for u, v, _ in edges.values())
    ends = np.array([(u, v) for u, v, _ in edges.values()], dtype=np.int64)
    items = second + np.fromiter(edges, dtype=np.int64, count=len(edges))
    vertex = ends.ravel()
    order = np.argsort(vertex, kind="stable")
    loop_incident = np.repeat(items, 2)[order].astype(np.int32)
    loop_first_edge = np.zeros(n_vertices + 1, dtype=np.int32)
    loop_first_edge[1:] = np.cumsum(np.bincount(vertex, minlength=n_vertices))
    fields = {f: getattr(arrays, f) for f in arrays.__dataclass_fields__}
    fields.update(
        loop_edge=loop_edge,
        n_vertices=n_vertices,
        loop_first_edge=loop_first_edge,
        loop_incident=loop_incident,
    )
    return Arrays(**fields)


# -- forced options -------------------------------------------------------------------


def anchor_nodes(arrays: Arrays) -> np.ndarray:
    """The first node of each option on a primary item with bounds 1:1 (-1 for none):
    the node through which the kernel forces the option."""
    begin = int(arrays.first_node[0]) if len(arrays.first_node) else arrays.node.shape[1]
    top = arrays.node[TOP, begin:].astype(np.int64)
    usable = (top > 0) & (top < arrays.second)
    checked = np.where(usable, top, 0)
    usable &= (arrays.item[BOUND, checked] == 1) & (arrays.item[SLACK, checked] == 0)
    position = np.where(usable, np.arange(begin, begin + len(top)), np.iinfo(np.int64).max)
    following = np.minimum.accumulate(position[::-1])[::-1]  # the next usable node
    first = arrays.first_node.astype(np.int64)
    spacer = np.append(first[1:] - 1, arrays.node.shape[1])
    anchor = following[first - begin] if len(first) else first
    return np.where(anchor < spacer, anchor, -1)


# -- one search's arrays --------------------------------------------------------------


class SearchState(NamedTuple):
    """The arrays one search works on, handed to the kernel as one argument.

    ``node``, ``item``: copies of the problem's links (changed in place, restored when
    the search ends); ``level_data``: int64[max_level, LEVEL_FIELDS], a row per level;
    ``progress``: int64[PROGRESS_FIELDS] (level, step, solutions, nodes, updates);
    ``level_key``: uint64[max_level + 1, words], the memo's key of each level;
    ``extra``: uint64[limbs], the count added by memo hits (K limbs, least significant
    first), and ``level_count``: uint64[max_level, limbs], its value on entry to each
    level; ``domination``: int64[DOMINATION_TRAIL + n_nodes]: the longest list checked
    (0: the rule is off), the trail's length, then the trail (nodes of hidden options);
    ``work``: int64[5 (n_items + 1)], five rows of ``n_items + 1`` end to end (None
    when the rule is off: numba then compiles the search without it): the rule's stack
    of items to check (entries from 1; 0 holds the stamp counter), its length and a
    flag per item, the stamps of ``dlx.kernels.links.domination._common_items``, the singles
    stack (its length at 0)
    and a flag per item;
    ``second``, ``has_bounds``: as in ``Arrays``.
    """

    node: np.ndarray
    item: np.ndarray
    level_data: np.ndarray
    progress: np.ndarray
    level_key: np.ndarray
    extra: np.ndarray
    level_count: np.ndarray
    domination: np.ndarray
    work: np.ndarray | None
    second: int
    has_bounds: bool


class LoopState(NamedTuple):
    """One search's loop-item arrays (see "Loop items" in ``dlx/kernels/links/kernel.py``):
    ``edge``: int32[n_items + 1, LOOP_EDGE_FIELDS]; ``vertex``: int32[n_vertices + 1,
    LOOP_VERTEX_FIELDS]; ``incident``: int32[2 * loop items]; ``total``:
    int32[LOOP_TOTAL_FIELDS]; ``trail``: int32[n_options + n_items + 1], the hidden
    options (node numbers) and settled items (negated), in order."""

    edge: np.ndarray
    vertex: np.ndarray
    incident: np.ndarray
    total: np.ndarray
    trail: np.ndarray


def new_loop_state(arrays: Arrays) -> LoopState | None:
    """Fresh loop-item arrays for one search (None without loop items: numba then
    compiles the search without the loop code)."""
    if arrays.loop_edge is None:
        return None
    vertex = np.zeros((arrays.n_vertices + 1, LOOP_VERTEX_FIELDS), dtype=np.int32)
    vertex[:, FIRST_EDGE] = arrays.loop_first_edge
    total = np.zeros(LOOP_TOTAL_FIELDS, dtype=np.int32)
    # at most one trail entry per option and one per secondary item
    trail = np.zeros(arrays.n_options + arrays.item.shape[1], dtype=np.int32)
    return LoopState(arrays.loop_edge.copy(), vertex, arrays.loop_incident, total, trail)


def new_state(
    arrays: Arrays,
    max_level: int,
    key_words: int = 1,
    limbs: int = 1,
    propagate: str | None = None,
) -> SearchState:
    """Fresh arrays for one search of depth at most ``max_level``, counting with
    ``limbs`` 64-bit limbs (``propagate``: "domination" turns item domination on)."""
    if propagate not in PROPAGATIONS:
        raise ProblemError(f"propagate={propagate!r}: the choices are None and 'domination'")
    on = propagate == "domination"
    domination = np.zeros(DOMINATION_TRAIL + (arrays.node.shape[1] if on else 0), np.int64)
    domination[DOMINATION_LENGTH] = DOMINATION_MAX_LENGTH if on else 0
    return SearchState(
        arrays.node.copy(),
        arrays.item.copy(),
        np.zeros((max_level, LEVEL_FIELDS), np.int64),
        np.zeros(PROGRESS_FIELDS, np.int64),
        np.zeros((max_level + 1, key_words), np.uint64),
        np.zeros(limbs, np.uint64),
        np.zeros((max_level, limbs), np.uint64),
        domination,
        np.zeros(5 * arrays.item.shape[1], np.int64) if on else None,
        arrays.second,
        arrays.has_bounds,
    )


def state_bytes(
    arrays: Arrays, max_level: int, key_words: int = 1, limbs: int = 1, on: bool = False
) -> int:
    """Bytes of ``new_state(arrays, max_level, key_words, limbs, propagate)`` and of
    ``new_loop_state(arrays)``, before allocating them (``on``: item domination)."""
    items = arrays.item.shape[1]
    words = max_level * LEVEL_FIELDS + PROGRESS_FIELDS + (max_level + 1) * key_words
    words += limbs + max_level * limbs + DOMINATION_TRAIL
    if on:
        words += arrays.node.shape[1] + 5 * items
    nbytes = arrays.node.nbytes + arrays.item.nbytes + 8 * words  # links, then int64s
    if arrays.loop_edge is not None:
        loop = arrays.n_vertices + 1
        nbytes += arrays.loop_edge.nbytes + 4 * (loop * LOOP_VERTEX_FIELDS + LOOP_TOTAL_FIELDS)
        nbytes += 4 * (arrays.n_options + items)
    return nbytes


def limbs_value(limbs: np.ndarray) -> int:
    """The Python int of an unsigned number in 64-bit limbs, least significant first."""
    return sum(int(v) << (64 * k) for k, v in enumerate(limbs.tolist()))


# -- the memo ------------------------------------------------------------------------


def memo_allowed(arrays: Arrays) -> bool:
    """Whether a memo of subtree counts is exact for these arrays: no colours, bounds
    or loop items (the problem left at a node is then a function of the items covered),
    and few enough items for the keys."""
    return not (
        arrays.has_bounds
        or arrays.loop_edge is not None
        or arrays.n_items > MEMO_MAX_ITEMS
        or np.any(arrays.node[COLOR] != 0)
    )


def memo_shape(arrays: Arrays, nbytes: int = MEMO_BYTES, limbs: int = 1) -> tuple[int, int]:
    """(slots, words) of a memo table of at most ``nbytes``: a key of ``words`` uint64,
    a full-slot flag and a count of ``limbs`` uint64 per slot, slots a power of two
    (the hash is masked)."""
    words = (arrays.item.shape[1] + KEY_BITS - 1) // KEY_BITS
    slots = max(nbytes // (8 * (words + 1 + limbs)), MEMO_MIN_SLOTS)
    return 1 << (slots.bit_length() - 1), words
