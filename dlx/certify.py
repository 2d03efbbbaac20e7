"""``python -m dlx.certify PROBLEM.dlx CERTIFICATE``: check a count's certificate.

A certificate (written by ``python -m dlx PROBLEM.dlx --count --certificate FILE``) is
the problem's solution graph as a ZDD in the text format of Knuth's DLX6, after a
header of ``|`` lines; the line ``| count N`` claims N solutions. A ZDD line
``x: (~v?lo:hi)`` is an *edge*: node ``x`` (hexadecimal) takes option ``v`` (decimal,
from 1, in the file's order) and goes on at ``hi``, or tries its next edge ``lo``. A
*node* of the graph is a chain of edges linked by ``lo``, ending at 0; ``1`` is the
terminal (every primary item covered); the last line, ``(~0?0:r)``, names the root r.

This program shares no code with the package (stdlib and numpy, its own ``.dlx``
reader), so that a count is trusted as far as these 300 lines are. It reads the edges
with whole-array operations and checks at once all the nodes that cover the same
number of primary items, level by level from the root:

1. every edge's option is an option of the problem;
2. the option is disjoint from the items covered on the way to its node (secondary
   items at most once, or every time with one colour), so that every path is a
   partial solution; the items covered at a node are the same on every way there;
3. the options of a node's edges are distinct and share a primary item, so that two
   paths that part are two different solutions;
4. every edge into the terminal covers the last primary items: each path is a solution;
5. the number of paths from the root to the terminal is the claimed count.

So the problem has at least the claimed number of solutions, each a path, none twice.
(That no solution is missing is not certified: the graph holds no refutations of the
subproblems it left out.) Every failure is one line naming the certificate's line.
Exit status: 0 valid, 1 invalid, 2 bad input.
"""

from __future__ import annotations

import re
import sys
import time

import numpy as np

_BOUNDS = re.compile(r"^(?:([0-9]+):)?([0-9]+)\|(.+)$")
_DIGIT = np.full(256, 255, np.uint8)  # a byte's hexadecimal value, 255 if none
_DIGIT[np.frombuffer(b"0123456789abcdefABCDEF", np.uint8)] = [*range(16), *range(10, 16)]


class Invalid(Exception):
    """The certificate is wrong (or the problem file unreadable); the message says where."""


class Problem:
    """A ``.dlx`` problem as this checker needs it. Bits: one an item, one a (secondary
    item, colour) pair; per option, uint64 rows (options, words): the bits it ``take``s,
    the bits it ``forbid``s (its items taken plainly or in another colour) and its
    ``primary`` items; ``covers``, the number of its primary items."""

    def __init__(self, text: str, label: str):
        self.bit: dict[str, int] = {}
        self.n_primary, rows = 0, []
        for line_no, line in enumerate(text.splitlines(), start=1):
            words, where = line.split(), f"{label} line {line_no}"
            if words and not words[0].startswith("|"):
                rows.append(self._option(words, where)) if self.bit else self._items(words, where)
        if not self.bit:
            raise Invalid(f"{label}: no item line")
        self.names, pairs, every = list(self.bit), {}, {}
        for bit, colour in (entry for row in rows for entry in row if entry[1] is not None):
            if (bit, colour) not in pairs:
                pairs[bit, colour] = len(self.names)
                every[bit] = every.get(bit, 0) | 1 << len(self.names)
                self.names.append(self.names[bit])
        take, forbid, self.coloured = [], [], [{b for b, c in row if c} for row in rows]
        for row in rows:
            pair = [(b, 1 << pairs[b, c] if c is not None else 0) for b, c in row]
            take.append(sum(p or 1 << b for b, p in pair))
            forbid.append(sum(1 << b | every.get(b, 0) & ~p for b, p in pair))
        n, primary = (len(self.names) + 63) // 64, [t & (1 << self.n_primary) - 1 for t in take]
        self.take, self.forbid, self.primary, self.all_primary = (
            np.frombuffer(b"".join(x.to_bytes(8 * n, "little") for x in xs), "<u8").reshape(-1, n)
            for xs in (take, forbid, primary, [(1 << self.n_primary) - 1])
        )
        self.covers = np.array([p.bit_count() for p in primary], np.int64)

    def _items(self, words: list[str], where: str) -> None:
        """The item line: primary items (bounds 1:1 only), ``|``, secondary items."""
        secondary = False
        for word in words:
            if word == "|":
                secondary = True
            elif _BOUNDS.match(word) and not secondary:
                raise Invalid(f"{where}: item {word!r} has bounds (exact cover only)")
            elif word in self.bit or ":" in word or "|" in word:
                raise Invalid(f"{where}: item {word!r} is declared twice or malformed")
            else:
                self.bit[word] = len(self.bit)
                self.n_primary += not secondary

    def _option(self, words: list[str], where: str) -> list[tuple]:
        """One option line: its (item bit, colour or None) pairs."""
        row = []
        for word in words:
            name, sep, colour = word.partition(":")
            if name not in self.bit:
                raise Invalid(f"{where}: unknown item {name!r}")
            if sep and self.bit[name] < self.n_primary:
                raise Invalid(f"{where}: primary item {name!r} has a colour")
            if any(b == self.bit[name] for b, _ in row):
                raise Invalid(f"{where}: item {name!r} appears twice in the option")
            row.append((self.bit[name], colour if sep else None))
        return row

    def name(self, row: np.ndarray, last: bool = False) -> str:
        """The name of the item of the first (or ``last``) bit of a mask row."""
        mask = sum(int(word) << 64 * w for w, word in enumerate(row))
        return self.names[mask.bit_length() - 1 if last else (mask & -mask).bit_length() - 1]


def _numbers(raw: np.ndarray) -> np.ndarray | None:
    """x, v, lo, hi of edge lines (bytes ending with a newline), int64 (lines, 4), or
    None where a line is not exactly ``x: (~v?lo:hi)``, numbers of 15 digits at most."""
    at = [np.flatnonzero(raw == ord(c)) for c in "\n:~?)"]
    n = len(at[0])
    if [len(a) for a in at] != [n, 2 * n, n, n, n] or not n:
        return None
    end, tilde, ask, close = at[0], at[2], at[3], at[4]
    colon, link = at[1][0::2], at[1][1::2]
    starts = np.stack([np.r_[0, end[:-1] + 1], tilde + 1, ask + 1, link + 1], 1)
    length = np.stack([colon, ask, link, close], 1) - starts
    if (tilde != colon + 3).any() or (close + 1 != end).any() or (raw[colon + 2] != 40).any():
        return None
    if (raw[colon + 1] != 32).any() or length.min() < 1 or length.max() > 15:
        return None
    value, base = np.zeros((n, 4), np.int64), np.array([16, 10, 16, 16])
    for i in range(length.max()):
        live = i < length
        d = _DIGIT[raw[np.where(live, starts + i, starts)]].astype(np.int64)
        if (live & ((d == 255) | (d > 9) & (base == 10))).any():
            return None
        value = np.where(live, value * base + d, value)
    return value


class Certificate:
    """A certificate's claimed count and edges, numbered 0 to m - 1 in the file's
    order: ``x``, ``option``, and ``lo``, ``hi`` as edge numbers (m for the sink 0,
    m + 1 for the terminal 1, m + 2 for an undefined node); ``lo_x``, ``hi_x`` as read."""

    def __init__(self, data: bytes, label: str):
        self.label, self.count, self.header, pos, parts = label, None, 0, 0, []
        while data.startswith(b"|", pos):
            end = data.find(b"\n", pos) % (len(data) + 1)  # -1: the end
            self.header, words = self.header + 1, data[pos + 1 : end].split()
            if len(words) == 2 and words[0] == b"count":
                if not words[1].isdigit():
                    raise Invalid(f"{label} line {self.header}: the count is not a number")
                self.count = int(words[1])
            pos = end + 1
        if self.count is None:
            raise Invalid(f"{label}: no '| count N' line (the count claimed)")
        data = data if data.endswith(b"\n") or pos >= len(data) else data + b"\n"
        raw = np.frombuffer(data, np.uint8)
        while pos < len(data):  # 32 MB at a time
            end = data.find(b"\n", min(pos + (1 << 25), len(data)) - 1) + 1
            parts.append(_numbers(raw[pos:end]))
            if parts[-1] is None:  # the first line that is not an edge, by bisection
                ends, good = np.flatnonzero(raw[pos:end] == 10) + pos + 1, 0
                bad = len(ends)  # the first ``good`` lines are edges, the first ``bad`` not
                while bad - good > 1:
                    half = (good + bad) // 2
                    edges = _numbers(raw[pos : ends[half - 1]]) is not None
                    good, bad = (half, bad) if edges else (good, half)
                line = self.header + sum(map(len, parts[:-1])) + bad
                raise Invalid(f"{label} line {line}: not a line 'x: (~v?lo:hi)'")
            pos = end
        if not parts:
            raise Invalid(f"{label}: no root line '(~0?0:r)'")
        x, self.option, lo, hi = np.concatenate(parts).T
        self.x, self.m, self.lo_x, self.hi_x = x, len(x), lo, hi
        rising = (x[1:] > x[:-1]).all()  # as written: no sort needed
        order = np.arange(self.m) if rising else np.argsort(x, kind="stable")
        bad = np.flatnonzero((x < 2)[order] | np.r_[False, x[order][1:] == x[order][:-1]])
        if len(bad):
            k = order[bad].min()
            line = f"{label} line {self.header + k + 1}"
            raise Invalid(f"{line}: node {x[k]:x} is a sink or defined twice")
        links = np.r_[lo, hi]
        xs = x[order]  # consecutive numbers are found by subtraction
        at = links - xs[0] if xs[-1] - xs[0] == self.m - 1 else np.searchsorted(xs, links)
        at = np.clip(at, 0, self.m - 1)
        edge = np.where(xs[at] == links, order[at], self.m + 2)
        self.lo, self.hi = np.split(np.where(links < 2, self.m + links, edge), 2)
        if self.option[-1] != 0 or lo[-1] != 0:
            raise Invalid(f"{label} line {self.header + self.m}: the last line is not (~0?0:r)")

    def fail(self, k: int, text: str):
        """Invalid: edge ``k``'s line and what is wrong."""
        raise Invalid(f"{self.label} line {self.header + k + 1} (node {self.x[k]:x}): {text}")


def _chains(cert: Certificate, heads: np.ndarray, mark: np.ndarray):
    """The edges of the nodes ``heads`` (first edges) and their nodes (indices into ``heads``);
    links to defined edges, ``lo`` to one of no other node (``mark``: 1 first, 2 later)."""
    m, cur, node = cert.m, heads, np.arange(len(heads))
    edges, nodes = [cur], [node]
    while len(cur):
        lo, hi = cert.lo[cur], cert.hi[cur]
        for k in cur[(lo == m + 2) | (hi == m + 2)][:1]:
            link = cert.lo_x[k] if cert.lo[k] == m + 2 else cert.hi_x[k]
            cert.fail(k, f"it links to node {link:x}, which is not defined")
        for k in cur[(lo == m + 1) | (hi == m)][:1]:
            cert.fail(k, "a link to a sink where an edge is needed")
        go = np.flatnonzero(lo < m)
        twice = mark[lo[go]] != 0
        twice[np.setdiff1d(np.arange(len(go)), np.unique(lo[go], return_index=True)[1])] = True
        for k in cur[go[twice]][:1]:
            cert.fail(k, f"node {cert.lo_x[k]:x} is in two nodes")
        cur, node = lo[go], node[go]
        mark[cur] = 2
        edges.append(cur)
        nodes.append(node)
    return np.concatenate(edges), np.concatenate(nodes)


def _edges(problem: Problem, cert: Certificate, heads, edges, node, base, c):
    """Rules 1 to 4 for one level's edges, grouped by node, their nodes covering ``base``
    (c primary items): the bits covered below each, its level, each node's first."""
    opt = cert.option[edges] - 1
    for k in edges[(opt < 0) | (opt >= len(problem.take))][:1]:
        cert.fail(k, f"option {cert.option[k]} is not an option of the problem")
    for i in np.flatnonzero((node[1:] == node[:-1]) & (opt[1:] == opt[:-1]))[:1] + 1:
        cert.fail(edges[i], f"option {opt[i] + 1} twice in one node")
    clash = problem.forbid[opt] & base
    for i in np.flatnonzero(clash.any(1))[:1]:
        item, k = problem.name(clash[i]), opt[i]
        how = "gives item {!r} another colour" if problem.bit[item] in problem.coloured[k] else ""
        cert.fail(edges[i], f"option {k + 1} " + (how or "covers item {!r} again").format(item))
    starts = np.flatnonzero(np.r_[True, node[1:] != node[:-1]])
    shared = np.bitwise_and.reduceat(problem.primary[opt], starts, axis=0).any(1)
    for k in heads[~shared][:1]:
        cert.fail(k, "the node's options share no primary item")
    child, level = base | problem.take[opt], c + problem.covers[opt]
    for i in np.flatnonzero((cert.hi[edges] == cert.m + 1) & (level < problem.n_primary))[:1]:
        item = problem.name(problem.all_primary[0] & ~child[i], last=True)
        cert.fail(edges[i], f"a path ends with item {item!r} uncovered")
    return child, level, starts


def _states(problem: Problem, cert: Certificate) -> list[tuple]:
    """Rules 1 to 4, level by level (the nodes, known by first edges, covering c primary
    items, c rising): per level its nodes, its edges grouped by node, each node's first."""
    m, root = cert.m, cert.hi[-1]
    if root == m + 2 or root == m + 1 and problem.n_primary:
        cert.fail(m - 1, f"the root {cert.hi_x[-1]:x} is not defined or the terminal")
    mask = np.zeros((m + 2, problem.take.shape[1]), np.uint64)
    has, mark = np.zeros(m + 2, bool), np.zeros(m + 2, np.int8)
    pending, levels = [[] for _ in range(problem.n_primary + 1)], []
    pending[0] += [np.array([root])] if root < m else []
    for c, waiting in enumerate(pending):
        if not waiting:
            continue
        heads = np.unique(np.concatenate(waiting))
        for k in heads[mark[heads] != 0][:1]:
            cert.fail(k, "the edge is in two nodes")
        mark[heads] = 1
        edges, node = _chains(cert, heads, mark)
        n_options = len(problem.take) + 2
        order = np.argsort(node * n_options + np.clip(cert.option[edges], 0, n_options - 1))
        edges, node = edges[order], node[order]
        child, level, starts = _edges(problem, cert, heads, edges, node, mask[heads][node], c)
        levels.append((heads, edges, starts))
        hi = cert.hi[edges]
        inner = np.flatnonzero(hi < m)
        for k in edges[inner[mark[hi[inner]] == 2]][:1]:
            cert.fail(k, f"node {cert.hi_x[k]:x} is in two nodes")
        order = inner[np.argsort(hi[inner], kind="stable")]
        target = hi[order]
        first = np.r_[True, target[1:] != target[:-1]][: len(target)]
        lead = order[first][np.cumsum(first) - 1]  # the first edge into each target
        want = np.where(has[target][:, None], mask[target], child[lead])
        for k in np.sort(edges[order[(child[order] != want).any(1)]])[:1]:
            cert.fail(k, f"node {cert.hi_x[k]:x} is reached with two item sets")
        new = first & ~has[target]
        fresh, lead = target[new], order[new]
        mask[fresh], has[fresh] = child[lead], True
        for step in np.unique(level[lead]):
            pending[step].append(fresh[level[lead] == step])
    return levels


def check(problem_text: str, certificate: bytes, labels=("problem", "certificate")) -> int:
    """The number of solutions a certificate proves (its claimed count), or Invalid
    saying in one line what is wrong.

    >>> problem = "a b c\\na b\\nc\\na\\nb c\\n"
    >>> edges = b"2: (~2?0:1)\\n3: (~4?0:1)\\n4: (~1?0:2)\\n5: (~3?4:3)\\n6: (~0?0:5)\\n"
    >>> check(problem, b"| count 2\\n" + edges)
    2
    >>> check(problem, b"| count 3\\n" + edges)
    Traceback (most recent call last):
    ...
    dlx.certify.Invalid: certificate: it claims 3 solutions, but has 2 paths
    """
    problem = Problem(problem_text, labels[0])
    cert = Certificate(certificate, labels[1])
    levels, found = _states(problem, cert), []
    for kind in (np.float64, np.int64, object):  # rule 5: paths from each node to 1
        paths = np.zeros(cert.m + 2, kind)
        paths[cert.m + 1] = 1
        for heads, edges, starts in reversed(levels):  # every edge covers a primary item
            paths[heads] = np.add.reduceat(paths[cert.hi[edges]], starts)
        found.append(paths[cert.hi[-1]])
        if kind is np.int64 and max(found[0], cert.count) < 2.0**61:
            break
    found = int(found[-1])
    if found != cert.count:
        raise Invalid(f"{labels[1]}: it claims {cert.count} solutions, but has {found} paths")
    return found


def main(argv=None) -> int:
    """The command line; the exit status (0 valid, 1 invalid, 2 bad input)."""
    args, started = sys.argv[1:] if argv is None else list(argv), time.process_time()
    if len(args) != 2 or args[0].startswith("-"):
        print("usage: python -m dlx.certify PROBLEM.dlx CERTIFICATE", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8-sig") as f, open(args[1], "rb") as g:
            text, data = f.read(), g.read()
        found = check(text, data, (args[0], args[1]))
    except (OSError, UnicodeDecodeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except Invalid as e:
        print(f"invalid: {e}", file=sys.stderr)
        return 1
    print(f"valid: {found} solutions ({time.process_time() - started:.1f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
