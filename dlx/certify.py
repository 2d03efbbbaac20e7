"""``python -m dlx.certify PROBLEM.dlx CERTIFICATE``: check a count's certificate.

A certificate (written by ``python -m dlx PROBLEM.dlx --count --certificate FILE``) is
the problem's solution graph as a ZDD in the text format of Knuth's DLX6, after a
header of ``|`` lines; the line ``| count N`` claims N solutions. A ZDD line
``x: (~v?lo:hi)`` is an *edge*: node ``x`` (hexadecimal) takes option ``v`` (decimal,
from 1, in the file's order) and goes on at ``hi``, or tries its next edge ``lo``. A
*node* of the graph is a chain of edges linked by ``lo``, ending at 0; ``1`` is the
terminal (every primary item covered); the last line, ``(~0?0:r)``, names the root r.

This program shares no code with the package (stdlib only, its own ``.dlx`` reader),
so that a count is trusted as far as these 300 lines are. It checks, one node at a
time from the root:

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
from array import array

_EDGE = re.compile(rb"^([0-9a-fA-F]+): \(~([0-9]+)\?([0-9a-fA-F]+):([0-9a-fA-F]+)\)\s*$", re.M)
_BOUNDS = re.compile(r"^(?:([0-9]+):)?([0-9]+)\|(.+)$")


class Invalid(Exception):
    """The certificate is wrong (or the problem file unreadable); the message says where."""


class Problem:
    """A ``.dlx`` problem as this checker needs it: item bits and per option its plain
    mask (primary items and uncoloured secondary ones), its coloured entries and its
    primary mask."""

    def __init__(self, text: str, label: str):
        self.bit: dict[str, int] = {}
        self.n_primary = 0
        self.plain: list[int] = []
        self.primary: list[int] = []
        self.coloured: list[tuple] = []
        for line_no, line in enumerate(text.splitlines(), start=1):
            words = line.split()
            if not words or words[0].startswith("|"):
                continue
            if not self.bit:
                self._items(words, f"{label} line {line_no}")
            else:
                self._option(words, f"{label} line {line_no}")
        if not self.bit:
            raise Invalid(f"{label}: no item line")
        self.all_primary = (1 << self.n_primary) - 1

    def _items(self, words: list[str], where: str) -> None:
        """The item line: primary items (bounds 1:1 only), ``|``, secondary items."""
        secondary = False
        for word in words:
            if word == "|":
                secondary = True
                continue
            if _BOUNDS.match(word) and not secondary:
                raise Invalid(f"{where}: item {word!r} has bounds (exact cover only)")
            if word in self.bit or ":" in word or "|" in word:
                raise Invalid(f"{where}: item {word!r} is declared twice or malformed")
            self.bit[word] = len(self.bit)
            self.n_primary += not secondary

    def _option(self, words: list[str], where: str) -> None:
        """One option line."""
        plain = primary = 0
        coloured = []
        for word in words:
            name, sep, colour = word.partition(":")
            if name not in self.bit:
                raise Invalid(f"{where}: unknown item {name!r}")
            bit = self.bit[name]
            if sep and bit < self.n_primary:
                raise Invalid(f"{where}: primary item {name!r} has a colour")
            if (plain >> bit) & 1 or any(b == bit for b, _ in coloured):
                raise Invalid(f"{where}: item {name!r} appears twice in the option")
            if sep:
                coloured.append((bit, colour))
            else:
                plain |= 1 << bit
                primary |= (1 << bit) if bit < self.n_primary else 0
        self.plain.append(plain)
        self.primary.append(primary)
        self.coloured.append(tuple(coloured))

    def name(self, bit: int) -> str:
        """The name of the item of ``bit``."""
        return next(n for n, b in self.bit.items() if b == bit)


class Certificate:
    """A certificate's claimed count and edges: ``option[x]``, ``lo[x]``, ``hi[x]`` and
    ``line[x]`` for every node number x (0 where there is no edge)."""

    def __init__(self, data: bytes, label: str):
        self.label = label
        self.count = None
        header = 0
        for line_no, line in enumerate(data.split(b"\n"), start=1):
            if not line.startswith(b"|"):
                header = line_no - 1
                break
            words = line[1:].split()
            if len(words) == 2 and words[0] == b"count":
                if not words[1].isdigit():
                    raise Invalid(f"{label} line {line_no}: the count is not a number")
                self.count = int(words[1])
        if self.count is None:
            raise Invalid(f"{label}: no '| count N' line (the count claimed)")
        body = data.split(b"\n", header)[-1] if header else data
        found = _EDGE.findall(body)
        n_lines = body.count(b"\n") + (not body.endswith(b"\n"))
        if len(found) != n_lines:
            bad = next(k for k, x in enumerate(body.split(b"\n")) if not _EDGE.match(x))
            raise Invalid(f"{label} line {header + bad + 1}: not a line 'x: (~v?lo:hi)'")
        if not found:
            raise Invalid(f"{label}: no root line '(~0?0:r)'")
        top = max(int(x, 16) for x, *_ in found) + 1
        self.option, self.lo, self.hi, self.line = (array("q", bytes(8 * top)) for _ in "abcd")
        for k, (x, v, lo, hi) in enumerate(found):
            x = int(x, 16)
            if x < 2 or self.line[x]:
                raise Invalid(
                    f"{label} line {header + k + 1}: node {x:x} is a sink or defined twice"
                )
            self.option[x], self.lo[x], self.hi[x] = int(v), int(lo, 16), int(hi, 16)
            self.line[x] = header + k + 1
        self.root_line = max(range(top), key=lambda x: self.line[x])  # the last line
        if self.option[self.root_line] != 0 or self.lo[self.root_line] != 0:
            raise Invalid(
                f"{label} line {self.line[self.root_line]}: the last line is not (~0?0:r)"
            )

    def where(self, x: int) -> str:
        """The line of node ``x``, for messages."""
        return f"{self.label} line {self.line[x]} (node {x:x})"


def _links(cert: Certificate, x: int, mark: bytearray) -> tuple[int, int]:
    """The links ``lo`` and ``hi`` of edge ``x``, each to a defined edge or the sink
    that fits (``lo`` to 0 ends a node, ``hi`` to 1 is the terminal), ``lo`` to an
    edge of no other node (``mark``: 1 a node's first edge, 2 a later one)."""
    lo, hi = cert.lo[x], cert.hi[x]
    for link in (lo, hi):
        if link >= len(cert.line) or (link > 1 and not cert.line[link]):
            raise Invalid(f"{cert.where(x)}: it links to node {link:x}, which is not defined")
    if lo == 1 or hi == 0:
        raise Invalid(f"{cert.where(x)}: a link to a sink where an edge is needed")
    if mark[lo] or mark[hi] == 2:
        raise Invalid(f"{cert.where(x)}: node {lo if mark[lo] else hi:x} is in two nodes")
    return lo, hi


def _states(problem: Problem, cert: Certificate) -> dict[int, tuple]:
    """Rules 1 to 4: the items covered at every node (its first edge's number: its mask
    and colours), reached from the root, each node a chain of edges of its own."""
    root = cert.hi[cert.root_line]
    if root == 1 and problem.all_primary:
        raise Invalid(f"{cert.where(cert.root_line)}: the root is the terminal, but items are left")
    if root >= len(cert.line) or (root > 1 and not cert.line[root]):
        raise Invalid(f"{cert.where(cert.root_line)}: the root {root:x} is not defined")
    state = {root: (0, ())} if root > 1 else {}
    todo = [root] if root > 1 else []
    n_options, mark = len(problem.plain), bytearray(len(cert.line))
    while todo:
        head = todo.pop()
        if mark[head]:
            raise Invalid(f"{cert.where(head)}: the edge is in two nodes")
        mark[head] = 1
        mask, colours = state[head]
        shared, seen, x = -1, set(), head
        while x:
            k = cert.option[x] - 1
            if not 0 <= k < n_options:
                raise Invalid(f"{cert.where(x)}: option {k + 1} is not an option of the problem")
            if k in seen:
                raise Invalid(f"{cert.where(x)}: option {k + 1} twice in one node")
            seen.add(k)
            lo, target = _links(cert, x, mark)
            child = _taken(problem, cert, x, k, mask, colours)
            shared &= problem.primary[k]
            if target == 1:
                left = problem.all_primary & ~child[0]
                if left:
                    item = problem.name(left.bit_length() - 1)
                    raise Invalid(f"{cert.where(x)}: a path ends with item {item!r} uncovered")
            elif target not in state:
                state[target] = child
                todo.append(target)
            elif state[target] != child:
                raise Invalid(f"{cert.where(x)}: node {target:x} is reached with two item sets")
            if lo:
                mark[lo] = 2
            x = lo
        if not shared:
            raise Invalid(f"{cert.where(head)}: the node's options share no primary item")
    return state


def _taken(problem: Problem, cert: Certificate, x: int, k: int, mask: int, colours: tuple):
    """The items covered after option ``k`` at a node that covers ``mask`` (with
    ``colours``: (bit, colour) pairs), or Invalid naming the item it covers twice."""
    clash = problem.plain[k] & mask
    if clash:
        item = problem.name((clash & -clash).bit_length() - 1)
        raise Invalid(f"{cert.where(x)}: option {k + 1} covers item {item!r} again")
    if not problem.coloured[k]:
        return mask | problem.plain[k], colours
    given = dict(colours)
    for bit, colour in problem.coloured[k]:
        if (mask >> bit) & 1 and given.get(bit) != colour:
            item = problem.name(bit)
            raise Invalid(f"{cert.where(x)}: option {k + 1} gives item {item!r} another colour")
        given[bit] = colour
        mask |= 1 << bit
    return mask | problem.plain[k], tuple(sorted(given.items()))


def _paths(problem: Problem, cert: Certificate, state: dict[int, tuple]) -> int:
    """Rule 5's count: paths from each node to the terminal, nodes taken by falling
    number of primary items left (every edge covers one at least: rule 3)."""
    paths = {1: 1}
    order = sorted(state, key=lambda h: -(state[h][0] & problem.all_primary).bit_count())
    for head in order:
        total, x = 0, head
        while x:
            total += paths[cert.hi[x]]
            x = cert.lo[x]
        paths[head] = total
    return paths.get(cert.hi[cert.root_line], 0)


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
    found = _paths(problem, cert, _states(problem, cert))
    if found != cert.count:
        raise Invalid(f"{labels[1]}: it claims {cert.count} solutions, but has {found} paths")
    return found


def main(argv=None) -> int:
    """The command line; the exit status (0 valid, 1 invalid, 2 bad input)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) != 2 or args[0].startswith("-"):
        print("usage: python -m dlx.certify PROBLEM.dlx CERTIFICATE", file=sys.stderr)
        return 2
    started = time.process_time()
    try:
        with open(args[0], encoding="utf-8-sig") as f:
            text = f.read()
        with open(args[1], "rb") as f:
            data = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        found = check(text, data, (args[0], args[1]))
    except Invalid as e:
        print(f"invalid: {e}", file=sys.stderr)
        return 1
    print(f"valid: {found} solutions ({time.process_time() - started:.1f} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
