"""A solution graph as a ZDD in the text format of Knuth's DLX6, written and read back.

Glossary
--------
ZDD line
    ``x: (~v?lo:hi)``, hexadecimal node numbers, ``v`` an option's number from 1: the
    family of sets ``{S + {v} for S in hi}`` together with ``lo``. The nodes 0 and 1 are
    the sinks (no set; the empty set); lines come bottom-up (``lo`` and ``hi`` already
    defined), and the last one is a dummy root ``(~0?0:r)``.
chain
    A graph node's edges are the ZDD nodes met by following ``lo`` from a node until the
    sink 0: each offers an option ``v`` and goes on at ``hi``. ``write_zdd`` chains a
    node's edges from its last to its first, so reading the chain backwards gives them
    in the graph's order again: a written graph reads back with the same arrays.
what is checked on reading
    Every path is a solution: at each node, every edge's option covers primary items
    disjoint from those its child covers below, and all edges cover the same primary
    items in all (the items left open at that node); an option's secondary items meet
    none of those any path below its child covers; the root covers every primary item.
"""

from __future__ import annotations

import re

import numpy as np

from dlx.errors import ProblemError

TERMINAL = 0  # the graph's node of the empty subproblem (DLX6's sink 1)
_LINE = re.compile(r"([0-9a-f]+): \(~(\d+)\?([0-9a-f]+):([0-9a-f]+)\)")


def zdd_lines(g, options=None, forced: int | None = None):
    """The lines of ``Graph.write_zdd`` (see the glossary), in chunks of many lines;
    with ``options``, the graph's option ``j`` written as ``options[j]``; with ``forced``
    (a part of a certificate: the graph of a problem once option ``forced`` is taken),
    the root is one edge more, of option ``forced``, into the graph's root."""
    edge_start, child = g.node_edge, g.edge_child.astype(np.int64)
    option = g.edge_option if options is None else np.asarray(options)[g.edge_option]
    top = edge_start[1:] + 1  # the ZDD number of a node's last edge (+2, -1)
    top[TERMINAL] = 1
    n_edges = len(child)
    owner = np.repeat(np.arange(len(edge_start) - 1), np.diff(edge_start))
    for lo in range(0, n_edges, 1 << 16):
        hi = min(lo + (1 << 16), n_edges)
        e = np.arange(lo, hi)
        low = np.where(e == edge_start[owner[lo:hi]], 0, e + 1)
        rows = zip((e + 2).tolist(), (option[lo:hi] + 1).tolist(),
                   low.tolist(), top[child[lo:hi]].tolist(), strict=True)  # fmt: skip
        yield "".join(f"{x:x}: (~{v}?{a:x}:{b:x})\n" for x, v, a, b in rows)
    root = int(top[g.root]) if g.root >= 0 else 0
    if forced is not None:
        yield f"{n_edges + 2:x}: (~{forced + 1}?0:{root:x})\n"
        n_edges, root = n_edges + 1, n_edges + 2
    yield f"{n_edges + 2:x}: (~0?0:{root:x})\n"


def parse(lines, n_options: int, where: str) -> tuple[dict[int, tuple[int, int, int]], int]:
    """The ZDD's nodes ``{x: (v, lo, hi)}`` and its root (``hi`` of the dummy root);
    ProblemError naming the line at fault."""
    nodes: dict[int, tuple[int, int, int]] = {}
    last = None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        m = _LINE.fullmatch(line.strip())
        if m is None:
            raise ProblemError(f"{where}:{number}: not a ZDD line: {line.strip()[:60]!r}")
        x, v, lo, hi = int(m[1], 16), int(m[2]), int(m[3], 16), int(m[4], 16)
        if x < 2 or x in nodes or not all(y < 2 or y in nodes for y in (lo, hi)):
            raise ProblemError(f"{where}:{number}: node {x:x} is not new or not bottom-up")
        if v > n_options:
            raise ProblemError(f"{where}:{number}: no option {v} (the problem has {n_options})")
        nodes[x] = (v, lo, hi)
        last = (number, x)
    if last is None:
        raise ProblemError(f"{where}: no ZDD line")
    v, lo, root = nodes.pop(last[1])
    if v != 0 or lo != 0 or root == 1:
        raise ProblemError(f"{where}:{last[0]}: the last line is not a dummy root (~0?0:r)")
    return nodes, root


def _chain(nodes, x: int, where: str) -> list[tuple[int, int]]:
    """The edges ``(option, hi)`` of the graph node ``x`` (see the glossary), in order."""
    out = []
    while x > 1:
        v, lo, hi = nodes[x]
        if v == 0:
            raise ProblemError(f"{where}: node {x:x} has no option (~0)")
        out.append((v - 1, hi))
        x = lo
    if x == 1:
        raise ProblemError(f"{where}: a chain ends at the sink 1: not a solution graph")
    return out[::-1]


def arrays(nodes, root: int, where: str):
    """The graph of a parsed ZDD: ``(counts, node_edge, edge_child, edge_option, root)``,
    nodes numbered as the build numbers them (when finished, in a depth-first walk that
    takes the edges in order), the terminal 0, nodes of no solution left out."""
    number = {1: TERMINAL}
    counts, node_edge, edge_child, edge_option = [1], [0, 0], [], []
    chains: dict[int, list[tuple[int, int]]] = {}
    dead = {0}
    stack = [root] if root > 1 else []
    while stack:
        x = stack[-1]
        if x in number or x in dead:
            stack.pop()
            continue
        if x not in chains:
            chains[x] = _chain(nodes, x, where)
            pending = [h for _, h in chains[x] if h not in number and h not in dead]
            if pending:
                stack.extend(reversed(pending))  # the first edge's child first: post-order
                continue
        stack.pop()
        nodes_live = [(k, number[h]) for k, h in chains.pop(x) if h in number]
        if not nodes_live:
            dead.add(x)  # no solution below: like the sink 0
            continue
        number[x] = len(counts)
        counts.append(sum(counts[c] for _, c in nodes_live))
        edge_option.extend(k for k, _ in nodes_live)
        edge_child.extend(c for _, c in nodes_live)
        node_edge.append(len(edge_child))
    return counts, node_edge, edge_child, edge_option, number.get(root, -2)


def check_paths(problem, node_edge, edge_child, edge_option, root: int, where: str) -> None:
    """ProblemError unless every path of the graph is a solution (see the glossary)."""
    n_primary = len(problem.primary)
    primary_of, secondary_of = [], []
    primary = set(problem.primary)
    index = {name: j for j, name in enumerate(problem.primary)}
    index.update({name: j for j, name in enumerate(problem.secondary)})
    for k in range(problem.n_options):
        p = s = 0
        for name, _ in problem.option_entries(k):
            if name in primary:
                p |= 1 << index[name]
            else:
                s |= 1 << index[name]
        primary_of.append(p)
        secondary_of.append(s)
    covered, touched = [0], [0]
    for n in range(1, len(node_edge) - 1):
        first = None
        union = 0
        for e in range(node_edge[n], node_edge[n + 1]):
            k, c = edge_option[e], edge_child[e]
            if not primary_of[k] or primary_of[k] & covered[c] or secondary_of[k] & touched[c]:
                raise ProblemError(f"{where}: option {k + 1} does not fit below it: not a solution")
            mine = primary_of[k] | covered[c]
            if first is None:
                first = mine
            elif mine != first:
                raise ProblemError(f"{where}: two paths from one node cover different items")
            union |= secondary_of[k] | touched[c]
        covered.append(first)
        touched.append(union)
    if root >= 0 and covered[root] != (1 << n_primary) - 1:
        raise ProblemError(f"{where}: the solutions leave primary items uncovered")
