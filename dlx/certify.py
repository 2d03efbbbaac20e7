"""``python -m dlx.certify PROBLEM.dlx CERTIFICATE``: check a count's certificate.

A certificate (``python -m dlx PROBLEM.dlx --count --certificate FILE``, its format in
docs/oeis.md) claims ``| count N`` solutions, split by the options V of a primary item
(``| split ITEM``): ``| part V count C`` and the graph of the solutions with V (a ZDD in
Knuth's DLX6 format), or ``| part V twin W count C``, W being V's image under ``| symmetry
A B ...``. Sharing no code with the package, reading one part at a time, it checks that
(1) every edge's option is an option of the problem, (2) disjoint from the items covered
above it (the same on every way to a node); (3) a node's options are distinct and share a
primary item; (4) a path covers every primary item; (5) the parts are each option of ITEM
once, the symmetry maps the problem onto itself, a part has C paths, and the Cs (twins
twice) sum to N. So there are at least N solutions (that none is missing is not checked).
"""

from __future__ import annotations

import io
import re
import sys
import time

import numpy as np

_BLOCK, _CHUNK = 1 << 26, 1 << 20  # bytes read at a time; edge lines parsed at a time
_N = r"([0-9]{1,4000})"  # a number: ASCII digits, fewer than int() refuses (4,300)
_LINES = {  # the header lines read, and their form (other ``|`` lines are comments)
    "count": (rf"count {_N}", "count N"),
    "split": (r"split (\S+)", "split ITEM"),
    "symmetry": (r"symmetry(?: \S+ \S+)*", "symmetry A B ..."),
    "part": (rf"part {_N}(?: twin {_N})? count {_N}", "part V [twin W] count C"),
}
_DIGIT = np.full(256, 255, np.uint8)  # a byte's hexadecimal value, 255 if none
_DIGIT[np.frombuffer(b"0123456789abcdefABCDEF", np.uint8)] = [*range(16), *range(10, 16)]


class Invalid(Exception):
    """The certificate is wrong (or the problem file unreadable); the message says where."""


class Problem:
    """A ``.dlx`` problem of exact cover: ``bit`` (item: number), ``rows`` (sorted), per
    option bit rows of the items it ``take``s and its ``primary`` ones, how many ``covers``."""

    def __init__(self, text: str, label: str):
        self.bit, self.rows = {}, []
        for line_no, words in enumerate((line.split() for line in text.splitlines()), 1):
            if not words or words[0].startswith("|"):
                continue
            names, where = [w for w in words if w != "|"], f"{label} line {line_no}"
            if not self.bit:  # the item line: primary items, ``|``, secondary items
                self.bit = {name: b for b, name in enumerate(names)}
                self.n_primary = words.index("|") if "|" in words else len(words)
                if len(self.bit) < len(names) or any(":" in w or "|" in w for w in names):
                    raise Invalid(f"{where}: an item declared twice or with bounds")
                continue
            row = tuple(sorted(self.bit.get(w, -1) for w in words))
            if row[0] < 0 or len(set(row)) < len(row):
                raise Invalid(f"{where}: an item unknown, or twice (no colours: exact cover)")
            self.rows.append(row)
        if not self.bit:
            raise Invalid(f"{label}: no item line")
        n, k = -(-len(self.bit) // 64) * 64, len(self.rows)  # bits in 64-bit words
        take, is_primary = np.zeros((k, n), bool), np.arange(n) < self.n_primary
        rows = np.repeat(np.arange(k), [*map(len, self.rows)])
        take[rows, [b for r in self.rows for b in r]] = True
        bits = (take, take & is_primary, [is_primary])
        self.take, self.primary, self.all_primary = (
            np.packbits(x, 1, "little").view("<u8") for x in bits
        )
        self.covers, self.names = take[:, : self.n_primary].sum(1), [*self.bit]

    def name(self, row: np.ndarray, last: bool = False) -> str:
        """The name of the item of the first (or ``last``) bit of a mask row."""
        mask = int.from_bytes(row.tobytes(), "little")
        return self.names[mask.bit_length() - 1 if last else (mask & -mask).bit_length() - 1]

    def symmetry(self, words: list[str], where: str) -> list:
        """The options' images under ``| symmetry A B ...`` (item A goes to B, ...), or
        Invalid unless it permutes the items, primary to primary, and the options."""
        image = {
            self.bit.get(a, -1): self.bit.get(b, -1)
            for a, b in zip(words[::2], words[1::2], strict=False)
        }
        images = [tuple(sorted(image.get(b, b) for b in row)) for row in self.rows]
        wrong = len(words) % 2 or -1 in image or sorted(image) != sorted(image.values())
        if wrong or any((a < self.n_primary) != (b < self.n_primary) for a, b in image.items()):
            raise Invalid(
                f"{where}: not pairs 'item image' permuting the items, primary to primary"
            )
        if sorted(images) != sorted(self.rows):
            raise Invalid(f"{where}: it does not map the options onto themselves")
        return images


def _numbers(raw: np.ndarray) -> np.ndarray | None:
    """x, v, lo, hi of edge lines (bytes ending with a newline), int32 (lines, 4), or
    None where a line is not exactly ``x: (~v?lo:hi)``, numbers below 2**31."""
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
    if bad.any() or length.min() < 1 or length.max() > 10:
        return None
    value, base = np.zeros((n, 4), np.int64), np.array([16, 10, 16, 16])
    for i in range(length.max()):
        live = i < length
        d = _DIGIT[raw[np.where(live, starts + i, starts)]].astype(np.int64)
        if (live & ((d == 255) | (d > 9) & (base == 10))).any():
            return None
        value = np.where(live, value * base + d, value)
    return value.astype(np.int32) if value.max() < 2**31 else None


def _pieces(f, label: str):
    """(line number, words, edges (n, 4) int32 on the lines after) per ``|`` line (line 0:
    the lines before the first); the file read a block at a time."""
    number, words, edges, line, carry, block = 0, [], [np.zeros((0, 4), np.int32)], 0, b"", b"-"
    while block:
        block = f.read(_BLOCK)
        data = carry + (block or b"\n" * (len(carry) > 0))
        data, carry, pos = data[: data.rfind(b"\n") + 1], data[data.rfind(b"\n") + 1 :], 0
        while pos < len(data):
            bar = pos if data.startswith(b"|", pos) else data.find(b"\n|", pos) + 1 or len(data)
            while pos < bar:
                end = data.find(b"\n", min(pos + _CHUNK, bar) - 1) + 1
                edges.append(_numbers(np.frombuffer(lines := data[pos:end], np.uint8)))
                for bad, text in enumerate(lines.split(b"\n") if edges[-1] is None else []):
                    if _numbers(np.frombuffer(text + b"\n", np.uint8)) is None:  # the first
                        raise Invalid(f"{label} line {line + bad + 1}: not a line 'x: (~v?lo:hi)'")
                pos, line = end, line + len(edges[-1])
            if bar < len(data):
                yield number, words, np.concatenate(edges)
                end = data.index(b"\n", bar) + 1
                words = data[bar + 1 : end].decode(errors="replace").split()
                number, edges, pos, line = line + 1, edges[:1], end, line + 1
    yield number, words, np.concatenate(edges)


class Graph:
    """Edges 0 to m - 1 (``x``: 2 to m + 1, from line ``first``, linked bottom-up):
    ``option``; ``lo``, ``hi`` as edges (m: the sink 0, m + 1: 1); ``lo_x``, ``hi_x``."""

    def __init__(self, edges: np.ndarray, first: int, label: str):
        x, self.option, self.lo_x, self.hi_x = edges.T
        self.label, self.first, self.x, self.m, line = label, first, x, len(x), np.arange(len(x))
        for k in np.flatnonzero((x != line + 2) | (np.maximum(self.lo_x, self.hi_x) >= x))[:1]:
            self.fail(k, "not numbered 2, 3, ... in order, or a link to a line below")
        self.lo, self.hi = (np.where(v < 2, self.m + v, v - 2) for v in (self.lo_x, self.hi_x))
        if self.option[-1] != 0 or self.lo_x[-1] != 0:
            self.fail(self.m - 1, "the last line of a graph is not (~0?0:r)")

    def fail(self, k: int, text: str):
        """Invalid: edge ``k``'s line and what is wrong."""
        raise Invalid(f"{self.label} line {self.first + k} (node {self.x[k]:x}): {text}")


def _states(problem: Problem, cert: Graph, option: int) -> list[tuple]:
    """Rules 1 to 4, level by level (the nodes, known by first edges, covering c primary
    items, c rising): per level its nodes, its edges grouped by node, each node's first."""
    m, root, n_options = cert.m, cert.hi[-1], len(problem.take)
    if root >= m or cert.lo[root] != m or cert.option[root] != option + 1:
        cert.fail(m - 1, f"the part's root is not one edge, of option {option + 1}")
    mask, levels = np.zeros((m + 2, problem.take.shape[1]), np.uint64), []
    has, mark, owner = np.zeros(m + 2, bool), np.zeros(m + 2, np.int8), np.zeros(m + 2, np.int32)
    pending = [[np.array([root])]] + [[] for _ in range(problem.n_primary)]
    for c, heads in ((c, np.unique(np.concatenate(w))) for c, w in enumerate(pending) if w):
        for k in heads[mark[heads] != 0][:1]:
            cert.fail(k, "the edge is in two nodes")
        mark[heads], cur, node = 1, heads, np.arange(len(heads))
        edges, nodes = [cur], [node]
        while len(cur):  # the nodes' chains: lo to no other node's edge
            lo, hi = cert.lo[cur], cert.hi[cur]
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
        clash = problem.take[opt] & base  # rule 2
        for i in np.flatnonzero(clash.any(1))[:1]:
            cert.fail(edges[i], f"option {opt[i] + 1} covers item {problem.name(clash[i])!r} again")
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


def _paths(problem: Problem, cert: Graph, option: int) -> int:
    """Rules 1 to 4 on a part's graph, its root one edge of ``option``; its paths to 1."""
    levels, found, root = _states(problem, cert, option), [], cert.hi[-1]
    for kind in (np.float64, np.int64, object):
        paths = np.r_[np.zeros(cert.m + 1, kind), np.ones(1, kind)]  # 1 path from 1
        for heads, edges, starts in reversed(levels):  # every edge covers a primary item
            paths[heads] = np.add.reduceat(paths[cert.hi[edges]], starts)
        found.append(paths[root])
        if kind is np.int64 and found[0] < 2.0**61:
            break
    return int(found[-1])


def check(problem_text: str, certificate, labels=("problem", "certificate")) -> int:
    """The number of solutions a certificate (bytes, or a binary file) proves (its
    claimed count), or Invalid saying in one line what is wrong.

    >>> edges = b"| part 1 count 1\\n2: (~2?0:1)\\n3: (~1?0:2)\\n4: (~0?0:3)\\n"
    >>> check("a b\\na\\nb\\n", b"| count 1\\n| split a\\n" + edges)
    1
    """
    problem, label = Problem(problem_text, labels[0]), labels[1]
    f = io.BytesIO(certificate) if isinstance(certificate, bytes | bytearray) else certificate
    head, parts, total = {}, {}, 0  # head: the header lines' values; parts: option: line
    for number, words, edges in _pieces(f, label):
        key, rows = words[0] if words else "", problem.rows
        (pattern, form), where = _LINES.get(key, (".*", "")), f"{label} line {number}"
        found = re.fullmatch(pattern, " ".join(words))
        if not found or form and key != "part" and (key in head or parts and key != "count"):
            raise Invalid(f"{where}: not a line '| {form}' (once; split, symmetry first)")
        if key == "split" and problem.bit.get(words[1], 1 << 30) >= problem.n_primary:
            raise Invalid(f"{where}: {words[1]!r} is not a primary item")
        if key in ("count", "split"):
            head[key] = (where, words[1], problem.bit.get(words[1]))
        if key == "symmetry":
            head[key] = problem.symmetry(words[1:], where)
        if key == "part" and ("split" not in head or found[2] and "symmetry" not in head):
            raise Invalid(f"{where}: a part before '| split ITEM' (a twin before '| symmetry')")
        options = [int(k) - 1 for k in found.groups()[:2] if k] if key == "part" else []
        for k in options:
            if k in parts or not (0 <= k < len(rows) and head["split"][2] in rows[k]):
                raise Invalid(f"{where}: option {k + 1}: not of the split item, or a second part")
            parts[k] = number
        if key == "part" and found[2] and head["symmetry"][options[0]] != rows[options[1]]:
            raise Invalid(f"{where}: option {found[2]} is not option {found[1]}'s image")
        if len(edges) and not options:
            raise Invalid(f"{label} line {number + 1}: an edge line outside a part")
        paths = _paths(problem, Graph(edges, number + 1, label), options[0]) if len(edges) else 0
        if options and paths != int(found[3]):  # the part's graph is freed: the next is read
            raise Invalid(f"{where}: the part claims {found[3]} solutions, but has {paths} paths")
        total += paths * len(options)
    if "count" not in head or "split" not in head:
        raise Invalid(f"{label}: no '| count N' line or no '| split ITEM' line")
    (where, claim, _), bit = head["count"], head["split"][2]
    for k in (k for k, row in enumerate(problem.rows) if bit in row and k not in parts):
        raise Invalid(f"{head['split'][0]}: no part has option {k + 1}, of the split item")
    if total != int(claim):
        raise Invalid(f"{where}: it claims {claim} solutions, but has {total} paths")
    return total


def main(argv=None) -> int:
    """The command line; the exit status (0 valid, 1 invalid, 2 bad input)."""
    args, started = sys.argv[1:] if argv is None else list(argv), time.process_time()
    if len(args) != 2 or args[0].startswith("-"):
        print("usage: python -m dlx.certify PROBLEM.dlx CERTIFICATE", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8-sig") as f, open(args[1], "rb") as g:
            found = check(f.read(), g, (args[0], args[1]))
    except (OSError, UnicodeDecodeError, Invalid) as e:
        print(f"{'invalid' if isinstance(e, Invalid) else 'error'}: {e}", file=sys.stderr)
        return 1 if isinstance(e, Invalid) else 2
    print(f"valid: {found} solutions ({time.process_time() - started:.1f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
