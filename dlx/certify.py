"""``python -m dlx.certify PROBLEM.dlx CERTIFICATE``: check a count's certificate.

A certificate (``python -m dlx PROBLEM.dlx --count --certificate FILE``) is the
solution graph as a ZDD in Knuth's DLX6 text format, after a header of ``|`` lines;
``| count N`` claims N solutions. A line ``x: (~v?lo:hi)`` is an *edge*: node ``x``
(hexadecimal) takes option ``v`` (decimal, from 1, in the file's order) and goes on
at ``hi``, or tries its next edge ``lo``. A
*node* of the graph is a chain of edges linked by ``lo``, ending at 0; ``1`` is the
terminal (every primary item covered); the last line, ``(~0?0:r)``, names the root r.

This program shares no code with the package (stdlib and numpy, its own ``.dlx`` reader),
so a count is trusted as far as these 300 lines are. It reads the edges with whole-array
operations and checks at once the nodes that cover as many primary items, from the root:

1. every edge's option is an option of the problem;
2. the option is disjoint from the items covered on the way to its node (secondary
   items at most once, or every time with one colour), so that every path is a
   partial solution; the items covered at a node are the same on every way there;
3. the options of a node's edges are distinct and share a primary item, so that two
   paths that part are two different solutions;
4. every edge into the terminal covers the last primary items: each path is a solution;
5. the number of paths from the root to the terminal is the claimed count.

So the problem has at least the claimed number of solutions, each a path, none twice
(that none is missing is not certified: the graph holds no refutations). Every failure
is one line naming the certificate's line. Exit status: 0 valid, 1 invalid, 2 bad input.
"""

from __future__ import annotations

import sys
import time

import numpy as np

_CHUNK = 1 << 20  # bytes of edge lines read at a time (1 MB: temporaries stay in cache)
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
        self.bit, rows = {}, []  # item name: bit; per option (bit, colour or None) pairs
        for line_no, line in enumerate(text.splitlines(), start=1):
            words, where = line.split(), f"{label} line {line_no}"
            if words and not words[0].startswith("|"):
                rows.append(self._option(words, where)) if self.bit else self._items(words, where)
        if not self.bit:
            raise Invalid(f"{label}: no item line")
        self.names, pairs, every = list(self.bit), {}, {}
        for bit, colour in (entry for row in rows for entry in row if entry[1] is not None):
            if (bit, colour) not in pairs:  # a new bit, named as its item
                every[bit] = every.get(bit, 0) | 1 << len(self.names)
                pairs[bit, colour] = len(self.names)
                self.names.append(self.names[bit])
        take, forbid, self.coloured = [], [], [{b for b, c in row if c is not None} for row in rows]
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
        for word in (word for word in words if word != "|"):
            if word in self.bit or ":" in word or "|" in word:  # bounds: exact cover only
                raise Invalid(f"{where}: item {word!r} declared twice or with bounds")
            self.bit[word] = len(self.bit)
        self.n_primary = words.index("|") if "|" in words else len(words)

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
    bad = (tilde != colon + 3) | (close + 1 != end) | (raw[colon + 1] != 32)
    bad |= raw[colon + 2] != 40  # ": (~" and ")" at their places
    if bad.any() or length.min() < 1 or length.max() > 15:
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
    """A certificate's count and edges 0 to m - 1 in the file's order: ``x``, ``option``,
    ``lo``, ``hi`` as edges (m: the sink 0, m + 1: 1, m + 2: undefined), ``lo_x``, ``hi_x``."""

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
        while pos < len(data):  # _CHUNK bytes of whole lines at a time
            end = data.find(b"\n", min(pos + _CHUNK, len(data)) - 1) + 1
            parts.append(_numbers(chunk := raw[pos:end]))
            if parts[-1] is None:  # white space may end a line (a CR before the newline)
                text = b"\n".join(map(bytes.rstrip, data[pos:end].split(b"\n")))
                parts[-1] = _numbers(chunk := np.frombuffer(text, np.uint8))
            if parts[-1] is None:  # the first line that is not an edge, by bisection
                ends = np.flatnonzero(chunk == 10) + 1  # the first ``good`` lines are edges,
                good, bad = 0, len(ends)  # the first ``bad`` lines are not
                while bad - good > 1:
                    half = (good + bad) // 2
                    edges = _numbers(chunk[: ends[half - 1]]) is not None
                    good, bad = (half, bad) if edges else (good, half)
                line = self.header + sum(map(len, parts[:-1])) + bad
                raise Invalid(f"{label} line {line}: not a line 'x: (~v?lo:hi)'")
            pos = end
        if not parts:
            raise Invalid(f"{label}: no root line '(~0?0:r)'")
        x, self.option, lo, hi = np.concatenate(parts).T
        self.x, self.m, self.lo_x, self.hi_x = x, len(x), lo, hi
        order = np.argsort(x, kind="stable")  # linear time on rising numbers
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


def _states(problem: Problem, cert: Certificate) -> list[tuple]:
    """Rules 1 to 4, level by level (the nodes, known by first edges, covering c primary
    items, c rising): per level its nodes, its edges grouped by node, each node's first."""
    m, root, n_options = cert.m, cert.hi[-1], len(problem.take)
    if root == m + 2 or root == m + 1 and problem.n_primary:
        cert.fail(m - 1, f"the root {cert.hi_x[-1]:x} is not defined or the terminal")
    mask, levels = np.zeros((m + 2, problem.take.shape[1]), np.uint64), []
    has, mark, owner = np.zeros(m + 2, bool), np.zeros(m + 2, np.int8), np.zeros(m + 2, np.int64)
    pending = [[np.array([root])] if root < m else []] + [[] for _ in range(problem.n_primary)]
    for c, heads in ((c, np.unique(np.concatenate(w))) for c, w in enumerate(pending) if w):
        for k in heads[mark[heads] != 0][:1]:
            cert.fail(k, "the edge is in two nodes")
        mark[heads], cur, node = 1, heads, np.arange(len(heads))
        edges, nodes = [cur], [node]
        while len(cur):  # the nodes' chains: links to defined edges, lo to no other node's
            lo, hi = cert.lo[cur], cert.hi[cur]
            for k in cur[(lo == m + 2) | (hi == m + 2)][:1]:
                link = cert.lo_x[k] if cert.lo[k] == m + 2 else cert.hi_x[k]
                cert.fail(k, f"it links to node {link:x}, which is not defined")
            for k in cur[(lo == m + 1) | (hi == m)][:1]:
                cert.fail(k, "a link to a sink where an edge is needed")
            go = np.flatnonzero(lo < m)
            owner[lo[go]] = np.arange(len(go))  # an edge that two reach keeps one owner
            for k in cur[go[(mark[lo[go]] != 0) | (owner[lo[go]] != np.arange(len(go)))]][:1]:
                cert.fail(k, f"node {cert.lo_x[k]:x} is in two nodes")
            mark[lo[go]], cur, node = 2, lo[go], node[go]
            edges, nodes = [*edges, cur], [*nodes, node]
        edges, node = np.concatenate(edges), np.concatenate(nodes)
        order = np.argsort(node * (n_options + 2) + np.clip(cert.option[edges], 0, n_options + 1))
        edges, node = edges[order], node[order]
        opt, base = cert.option[edges] - 1, mask[heads][node]
        for k in edges[(opt < 0) | (opt >= n_options)][:1]:  # rule 1
            cert.fail(k, f"option {cert.option[k]} is not an option of the problem")
        for i in np.flatnonzero((node[1:] == node[:-1]) & (opt[1:] == opt[:-1]))[:1] + 1:
            cert.fail(edges[i], f"option {opt[i] + 1} twice in one node")
        clash = problem.forbid[opt] & base  # rule 2
        for i in np.flatnonzero(clash.any(1))[:1]:
            item, k = problem.name(clash[i]), opt[i]
            colour = problem.bit[item] in problem.coloured[k]
            how = "gives item {!r} another colour" if colour else "covers item {!r} again"
            cert.fail(edges[i], f"option {k + 1} " + how.format(item))
        starts = np.flatnonzero(np.r_[True, node[1:] != node[:-1]])
        shared = np.bitwise_and.reduceat(problem.primary[opt], starts, axis=0).any(1)
        for k in heads[~shared][:1]:  # rule 3
            cert.fail(k, "the node's options share no primary item")
        child, level, hi = base | problem.take[opt], c + problem.covers[opt], cert.hi[edges]
        for i in np.flatnonzero((hi == m + 1) & (level < problem.n_primary))[:1]:  # rule 4
            item = problem.name(problem.all_primary[0] & ~child[i], last=True)
            cert.fail(edges[i], f"a path ends with item {item!r} uncovered")
        levels.append((heads, edges, starts))
        inner = np.flatnonzero(hi < m)  # the nodes below: one item set each
        for k in edges[inner[mark[hi[inner]] == 2]][:1]:
            cert.fail(k, f"node {cert.hi_x[k]:x} is in two nodes")
        target, first, back = np.unique(hi[inner], return_index=True, return_inverse=True)
        want = np.where(has[hi[inner]][:, None], mask[hi[inner]], child[inner[first]][back])
        for k in np.sort(edges[inner[(child[inner] != want).any(1)]])[:1]:
            cert.fail(k, f"node {cert.hi_x[k]:x} is reached with two item sets")
        fresh, lead = target[~has[target]], inner[first][~has[target]]
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
    problem, cert = Problem(problem_text, labels[0]), Certificate(certificate, labels[1])
    levels, found = _states(problem, cert), []
    for kind in (np.float64, np.int64, object):  # rule 5: paths from each node to 1
        paths = np.r_[np.zeros(cert.m + 1, kind), np.ones(1, kind)]  # 1 path from 1
        for heads, edges, starts in reversed(levels):  # every edge covers a primary item
            paths[heads] = np.add.reduceat(paths[cert.hi[edges]], starts)
        found.append(paths[cert.hi[-1]])
        if kind is np.int64 and max(found[0], cert.count) < 2.0**61:
            break
    if int(found[-1]) != cert.count:
        raise Invalid(f"{labels[1]}: it claims {cert.count} solutions, but has {found[-1]} paths")
    return cert.count


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
