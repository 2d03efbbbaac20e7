"""The solution-graph kernel: the DAG of an exact-cover problem's subproblems, counted.

Every ``@njit(cache=True)`` function this kernel calls lives in this file;
``dlx/solution_graph/layout.py`` builds its arrays and ``dlx/solution_graph/graph.py`` drives it.

Data structures
---------------
A subproblem is its *key*, the bits covered so far (``words`` uint64 words, primary
bits first). The kernel branches on an urgent piece while one is uncovered (see
``dlx/solution_graph/layout.py``), else on the first uncovered primary bit ``b``, over the
options of ``b``'s list that fit (``mask & key == 0``) and leave no lone cell (a free
cell with no free neighbour, which no option could cover: ``halo``, ``neighbours``), so
a key decides its children, and two paths that cover the same items meet in one node:
the search tree folded into a DAG. The key of level ``l`` is ``key[l]``; a child's is its parent's
with the option's mask or-ed in, so going back up is ``level -= 1``.

With branching ``"fewest"`` (``t.fewest``), when no urgent piece is left, it branches
instead on the uncovered primary bit with the fewest options alive (the first of those),
over those options, from a bitset of the options alive at each level, kept in a compact
*frame* deep down: ``dlx/solution_graph/fewest.py`` (whose digest this file records).
It too depends on the key alone, so the memo stays exact.

Nodes are numbered when their subproblem is finished (post-order), so a child's number
is always below its parent's: the numbers are a topological order. Node 0 is the
*terminal*, the empty subproblem (every primary bit covered), with one solution. A node
with no solution gets no number (``DEAD``): the graph holds only nodes that count.

The *key table* (``table``, a row a slot: the key's words, then its node) is open
addressing with linear probing: the key of every node (``EMPTY``: a free slot). The
subproblems with no solution, far more, go to the *dead cache* (``dead``, a key a row,
one row per hash): a new one overwrites what its row held, so the cache only forgets
(a forgotten one is refuted again), and one refuted in fewer than ``dead_min``
nodes is not kept (it is refuted again about as fast as it would be looked up). The
key of no subproblem is all zeros (the root's is never looked up), so an empty row
holds nothing. When a level's options are known, the slots of all its children are
prefetched at once (the hash stands in ``cand_child`` until the child is known). A key is looked up
before its subproblem is entered; a key on the current path is never met again below
it (every option covers a bit), so only finished keys need be found.

Edges are flat arrays: node ``n``'s are ``node_edge[n]:node_edge[n + 1]``, each a child
(``edge_child``) and the option taken (``edge_option``, the problem's index), in list
order. ``node_count[n]`` is the node's number of solutions in ``limbs`` uint64 words,
least significant first: the sum of its children's, added with carry; a carry out of the
top returns ``OVERFLOW`` before anything is written, and the caller widens the counts.

The candidates of level ``l`` are ``cand[cand_start[l]:cand_start[l] + branch_degree[l]]``
and their children, once known, ``cand_child`` (``DEAD`` for none); ``branch_index[l]``
is the one being tried. A path meets each bit's list at most once, so ``cand`` needs no
more room than there are options.

Resuming: ``state`` holds the level, the step and the counters; a call stops after a
budget of subproblems entered (``PAUSED``), when the node or edge arrays are full
(``FULL``) or the key table half full (``GROW``): the caller grows them and calls
again; and when the table holds as many keys as it may (``BOUND``).
"""

import numpy as np
from numba import njit

from dlx.kernels.bits import prefetch_row as _prefetch
from dlx.kernels.bits import trailing_zeros
from dlx.solution_graph.fewest import (
    NO_OPTION,
    alive_at,
    candidates,
    choose,
    frame_at,
    lone_cell,
)
from dlx.solution_graph.layout import (
    BOUND,
    DEAD,
    DONE,
    EDGES,
    EMPTY,
    ENTRIES,
    FULL,
    GROW,
    LEVEL,
    NODES,
    OVERFLOW,
    PAUSED,
    ROOT,
    STEP,
    TERMINAL,
    VISITED,
)

# dlx/kernels/bits.py's sha256, checked by tests/test_structure.py: numba's cache of this
# kernel goes stale when dlx/kernels/bits.py changes, unless this file changes with it
BITS_DIGEST = "2ca1aca66e643eb6"
# dlx/solution_graph/fewest.py's sha256, checked by tests/test_structure.py (as above)
FEWEST_DIGEST = "27733dbaffd8b65b"

FORWARD, ADVANCE, FINISH = 0, 1, 2
# Nothing but ``unrank`` allocates: compiled without numba's reference counting, which
# would incref and decref every array of the namedtuples handed to each helper (as
# ``dlx/kernels/bitset/kernel.py`` does)
PLAIN = {"cache": True, "_nrt": False}
_MIX = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xBF58476D1CE4E5B9)
_ZERO = np.uint64(0)
_ONE = np.uint64(1)


@njit(**PLAIN, inline="always")
def _hash(keys, row, words):
    """A hash of ``keys[row, :words]``."""
    h = _ZERO
    for w in range(words):
        h = (h ^ keys[row, w]) * _MIX
        h ^= h >> np.uint64(32)
    h *= _MIX2  # the finish of splitmix64: every bit of the key reaches the low bits
    h ^= h >> np.uint64(29)
    return h


@njit(**PLAIN, inline="always")
def _child_hash(key, row, mask, o):
    """``_hash`` of ``key[row] | mask[o]`` (the key of the child of option ``o``)."""
    h = _ZERO
    for w in range(key.shape[1]):
        h = (h ^ (key[row, w] | mask[o, w])) * _MIX
        h ^= h >> np.uint64(32)
    h *= _MIX2
    h ^= h >> np.uint64(29)
    return h


@njit(**PLAIN, inline="always")
def _node_of(table, slot):
    """The node (DEAD, EMPTY) in a slot of the key table."""
    return np.int64(table[slot, table.shape[1] - 1])


@njit(**PLAIN)
def _find(table, keys, row, h):
    """The slot of ``keys[row]`` (whose hash is ``h``) in the key table, or the free
    slot where it would go."""
    last = np.uint64(table.shape[0] - 1)
    slot = np.int64(h & last)
    words = table.shape[1] - 1
    while True:
        if _node_of(table, slot) == EMPTY:
            return slot
        same = True
        for w in range(words):
            if table[slot, w] != keys[row, w]:
                same = False
                break
        if same:
            return slot
        slot = (slot + 1) & np.int64(last)


@njit(**PLAIN)
def rehash(old, table):
    """Move every key of the ``old`` key table into ``table`` (empty, larger)."""
    words = table.shape[1] - 1
    for slot in range(old.shape[0]):
        if _node_of(old, slot) != EMPTY:
            new = _find(table, old, slot, _hash(old, slot, words))
            for w in range(words + 1):
                table[new, w] = old[slot, w]


@njit(**PLAIN, inline="always")
def _first_free(key, level, primary_words, n_primary_mask_last):
    """The first primary bit not covered at ``level`` (-1 if none)."""
    for w in range(primary_words):
        free = ~key[level, w]
        if w == primary_words - 1:
            free &= n_primary_mask_last
        if free:
            return w * 64 + np.int64(trailing_zeros(free))
    return -1


@njit(**PLAIN, inline="always")
def _covers_all(key, row, primary_words, last_mask):
    """Whether ``key[row]`` covers every primary bit."""
    for w in range(primary_words - 1):
        if key[row, w] != ~_ZERO:
            return False
    return (key[row, primary_words - 1] & last_mask) == last_mask


@njit(**PLAIN, inline="always")
def _fits(t, key, row, o):
    """Whether option ``o`` fits ``key[row]``."""
    for w in range(t.words):
        if t.mask[o, w] & key[row, w]:
            return False
    return True


@njit(**PLAIN)
def _urgent(t, key, row):
    """The urgent piece to branch on at ``key[row]`` (see ``dlx/solution_graph/layout.py``): the
    uncovered one with the fewest options that fit; -1 for none, NO_OPTION when one has
    no option left."""
    best, best_n = -1, 1 << 62
    for u in range(t.urgent_bit.shape[0]):
        b = t.urgent_bit[u]
        if (key[row, b >> 6] >> np.uint64(b & 63)) & _ONE:
            continue
        n = 0
        for j in range(t.urgent_start[u], t.urgent_start[u + 1]):
            if _fits(t, key, row, t.urgent_option[j]):
                n += 1
        if n == 0:
            return NO_OPTION
        if n < best_n:
            best, best_n = u, n
    return best


@njit(**PLAIN, inline="always")
def _candidates(t, key, row, options, first, stop, cand, start):
    """Write the options ``options[first:stop]`` that fit ``key[row]`` and leave no lone
    cell to ``cand[start:]``; return how many."""
    n = 0
    for j in range(first, stop):
        o = options[j]
        if _fits(t, key, row, o) and not lone_cell(t, key, row, o):
            cand[start + n] = o
            n += 1
    return n


@njit(**PLAIN, inline="always")
def _branch(t, s, level, primary_words, last_mask):
    """Write the candidates of ``level`` (the options of the item branched on that fit
    and leave no lone cell) to ``cand[cand_start[level]:]``; return how many."""
    key, start = s.key, s.cand_start[level]
    o = -1
    if t.fewest:
        if level > 0:
            o = s.cand[s.cand_start[level - 1] + s.branch_index[level - 1]]
        alive_at(t, s, level, o)
    u = _urgent(t, key, level)
    if u == NO_OPTION:
        return 0
    if u >= 0:
        first, stop = t.urgent_start[u], t.urgent_start[u + 1]
        return _candidates(t, key, level, t.urgent_option, first, stop, s.cand, start)
    if t.fewest:
        b = choose(t, s, level, primary_words, last_mask, o)
        if b < 0:
            return 0
        n = candidates(t, s, level, b, start)
        if n > 1:
            frame_at(t, s, level)
        return n
    b = _first_free(key, level, primary_words, last_mask)
    first, stop = t.list_start[b], t.list_start[b + 1]
    return _candidates(t, key, level, t.list_option, first, stop, s.cand, start)


@njit(**PLAIN)
def _sum_children(s, start, n):
    """``acc`` = the sum of the counts of the live children ``cand_child[start:start +
    n]``; return (how many live, whether the sum fit)."""
    acc = s.acc
    limbs = acc.shape[0]
    for k in range(limbs):
        acc[k] = _ZERO
    live = 0
    for j in range(start, start + n):
        c = s.cand_child[j]
        if c < 0:
            continue
        live += 1
        carry = _ZERO
        for k in range(limbs):
            a = acc[k]
            total = a + s.node_count[c, k]
            c1 = total < a
            total2 = total + carry
            c2 = total2 < total
            acc[k] = total2
            carry = _ONE if (c1 or c2) else _ZERO
        if carry:
            return live, False
    return live, True


@njit(**PLAIN, inline="always")
def _dead_slot(dead, h):
    """The row of the dead cache for a key of hash ``h`` (other bits than the table's)."""
    return np.int64((h >> np.uint64(32)) & np.uint64(dead.shape[0] - 1))


@njit(**PLAIN, inline="always")
def _is_dead(dead, key, row, h):
    """Whether the dead cache holds ``key[row]`` (hash ``h``)."""
    r = _dead_slot(dead, h)
    for w in range(key.shape[1]):
        if dead[r, w] != key[row, w]:
            return False
    return True


@njit(**PLAIN)
def _finish(t, s, level, max_entries):
    """Number the finished subproblem of ``level`` and store its key (or, when it has no
    solution, keep it in the dead cache); return its node (DEAD), or FULL, GROW, BOUND or
    OVERFLOW (as ``-code - 10``)."""
    st = s.state
    table = s.table
    words = s.key.shape[1]
    start = s.cand_start[level]
    live, fits = _sum_children(s, start, s.branch_degree[level])
    if not fits:
        return -OVERFLOW - 10
    if not live:
        if st[VISITED] - s.level_visited[level] >= t.dead_min:
            r = _dead_slot(s.dead, _hash(s.key, level, words))
            for w in range(words):
                s.dead[r, w] = s.key[level, w]
        return DEAD
    if 2 * (st[ENTRIES] + 1) > table.shape[0]:
        return -GROW - 10
    if st[ENTRIES] >= max_entries:
        return -BOUND - 10
    node = st[NODES]
    if node + 1 >= s.node_count.shape[0] or st[EDGES] + live > s.edge_child.shape[0]:
        return -FULL - 10
    e = st[EDGES]
    for j in range(start, start + s.branch_degree[level]):
        c = s.cand_child[j]
        if c >= 0:
            s.edge_child[e] = c
            s.edge_option[e] = t.option[s.cand[j]]
            e += 1
    for k in range(s.acc.shape[0]):
        s.node_count[node, k] = s.acc[k]
    s.node_edge[node + 1] = e
    st[EDGES] = e
    st[NODES] = node + 1
    slot = _find(table, s.key, level, _hash(s.key, level, words))
    for w in range(words):
        table[slot, w] = s.key[level, w]
    table[slot, words] = np.uint64(node)
    st[ENTRIES] += 1
    return node


@njit(**PLAIN)
def build(t, s, node_budget, max_entries):
    """Build (or go on building) the graph until done, the budget of subproblems
    entered, a full array or an overflow.

    Parameters
    ----------
    t : dlx.solution_graph.layout.Tables
    s : dlx.solution_graph.layout.State
    node_budget : int, subproblems this call may enter.
    max_entries : int, the most keys the table may hold (then ``BOUND``).

    Returns
    -------
    int: DONE (``state[ROOT]`` the root's node, or DEAD), PAUSED, FULL, GROW, OVERFLOW
    or BOUND.
    """
    st = s.state
    key = s.key
    level = st[LEVEL]
    step = st[STEP]
    stop = st[VISITED] + node_budget
    n_primary = t.list_start.shape[0] - 1
    pw = t.primary_words
    rest = n_primary - 64 * (pw - 1)
    last_mask = ~_ZERO if rest == 64 else (_ONE << np.uint64(rest)) - _ONE
    code = DONE
    while True:
        if step == FORWARD:
            if st[VISITED] >= stop:
                code = PAUSED
                break
            st[VISITED] += 1
            s.level_visited[level] = st[VISITED]
            start = s.cand_start[level]
            n = _branch(t, s, level, pw, last_mask)
            last = np.uint64(s.table.shape[0] - 1)
            for j in range(start, start + n):  # the children's slots, loaded at once
                h = _child_hash(key, level, t.mask, s.cand[j])
                s.cand_child[j] = np.int64(h)
                _prefetch(s.table, np.int64(h & last))
                _prefetch(s.dead, _dead_slot(s.dead, h))
            s.branch_degree[level] = n
            s.branch_index[level] = 0
            s.cand_start[level + 1] = start + n
            step = ADVANCE
        elif step == ADVANCE:
            i = s.branch_index[level]
            if i >= s.branch_degree[level]:
                step = FINISH
                continue
            j = s.cand_start[level] + i
            o = s.cand[j]
            for w in range(t.words):
                key[level + 1, w] = key[level, w] | t.mask[o, w]
            if _covers_all(key, level + 1, pw, last_mask):
                s.cand_child[j] = TERMINAL
                s.branch_index[level] = i + 1
                continue
            h = np.uint64(s.cand_child[j])  # its hash, until its node is known
            slot = _find(s.table, key, level + 1, h)
            node = _node_of(s.table, slot)
            if node != EMPTY or _is_dead(s.dead, key, level + 1, h):
                s.cand_child[j] = DEAD if node == EMPTY else node
                s.branch_index[level] = i + 1
                continue
            level += 1
            step = FORWARD
        else:
            node = _finish(t, s, level, max_entries)
            if node < DEAD:
                code = -node - 10
                break
            if level == 0:
                st[ROOT] = node
                code = DONE
                break
            level -= 1
            s.cand_child[s.cand_start[level] + s.branch_index[level]] = node
            s.branch_index[level] += 1
            step = ADVANCE
    st[LEVEL] = level
    st[STEP] = step
    return code


@njit(cache=True)  # allocates its scratch: with reference counting
def unrank(node_edge, edge_child, edge_option, node_count, root, ranks, out):
    """The solutions of ranks ``ranks[i]`` (uint64[k, limbs], each below the root's
    count) into ``out[i]`` (int64[k, depth], options in the order taken, -1 after):
    at each node, go down the first edge whose child's count exceeds what is left of
    the rank, less the counts of the edges passed."""
    limbs = ranks.shape[1]
    rest = np.zeros(limbs, np.uint64)
    for i in range(ranks.shape[0]):
        for k in range(limbs):
            rest[k] = ranks[i, k]
        node = root
        depth = 0
        while node != TERMINAL:
            for e in range(node_edge[node], node_edge[node + 1]):
                c = edge_child[e]
                below = False  # rest < node_count[c]?
                for k in range(limbs - 1, -1, -1):
                    if rest[k] != node_count[c, k]:
                        below = rest[k] < node_count[c, k]
                        break
                if below:
                    out[i, depth] = edge_option[e]
                    depth += 1
                    node = c
                    break
                borrow = _ZERO
                for k in range(limbs):
                    a = rest[k]
                    d = a - node_count[c, k]
                    b1 = a < node_count[c, k]
                    d2 = d - borrow
                    b2 = d < borrow
                    rest[k] = d2
                    borrow = _ONE if (b1 or b2) else _ZERO
        for d in range(depth, out.shape[1]):
            out[i, d] = -1
