"""Hostile families on the newest surface (``python scripts/hostile.py`` runs them with
``tests/test_hostile.py``): certificates tampered with and made consistent again, so
that only ``dlx.certify``'s rules stand between a forgery and "valid"; ``auto`` and the
kernels on problems with odd bounds. Each family prints ``hostile: FAMILY: N cases``.

What must hold: a certificate accepted with count N has N paths that are distinct true
solutions (checked against the naive solver); a count equal to the naive solver's."""

from __future__ import annotations

import os
import random
import re

import pytest

import dlx
from dlx import certify
from dlx.solution_graph import certificate

pytestmark = pytest.mark.slow

SCALE = int(os.environ.get("HOSTILE_SCALE", "1"))
EDGE = re.compile(rb"^([0-9a-f]+): \(~(\d+)\?([0-9a-f]+):([0-9a-f]+)\)$")


def _report(family: str, cases: int) -> None:
    """The line ``scripts/hostile.py`` adds up."""
    print(f"\nhostile: {family}: {cases} cases", flush=True)


def _random_problem(rng: random.Random) -> dlx.Problem:
    """Exact cover with secondary items: 2 to 6 primary items, 3 to 13 options."""
    primary = [f"p{i}" for i in range(rng.randint(2, 6))]
    secondary = [f"s{i}" for i in range(rng.randint(0, 2))]
    problem = dlx.Problem(primary=primary, secondary=secondary)
    for _ in range(rng.randint(3, 13)):
        items = rng.sample(primary, rng.randint(1, min(3, len(primary))))
        problem.add_option(items + rng.sample(secondary, rng.randint(0, len(secondary))))
    return problem


def _parts(data: bytes) -> tuple[list[bytes], list[list]]:
    """The header lines kept (split, symmetry) and the parts: [line, edges [x, v, lo, hi]]."""
    head, parts = [], []
    for line in data.split(b"\n"):
        words = line[1:].split() if line.startswith(b"|") else None
        if words and words[0] == b"part":
            parts.append([line, []])
        elif words and words[0] in (b"split", b"symmetry"):
            head.append(line)
        elif line and words is None:
            x, v, lo, hi = EDGE.match(line).groups()
            parts[-1][1].append([int(x, 16), int(v), int(lo, 16), int(hi, 16)])
    return head, parts


def _paths(edges: list[list], limit: int = 5000) -> list[tuple[int, ...]] | None:
    """Every path of a part's graph to the sink 1 (its options), read as DLX6 does; None
    where a walk loops or the paths are too many to list."""
    at = {e[0]: e for e in edges}
    found: list[tuple[int, ...]] = []
    stack = [(edges[-1][3], ())] if edges else []
    steps = 0
    while stack:
        x, taken = stack.pop()
        while x > 1 and x in at and steps < 20_000 and len(taken) < len(at):
            steps += 1
            stack.append((at[x][3], (*taken, at[x][1])))
            x = at[x][2]
        found += [taken] if x == 1 and taken else []
        if steps >= 20_000 or len(taken) >= len(at) or len(found) > limit:
            return None
    return found


def _tamper(rng: random.Random, head: list, parts: list, problem: dlx.Problem) -> None:
    """One change: an edge's option or link, a graph moved to another part, an edge
    added or deleted, a part added or removed."""
    part = rng.choice(parts)
    edges, n = part[1], problem.n_options
    kind = rng.randrange(7)
    if kind == 0 and edges:
        rng.choice(edges)[1] = rng.randint(1, n)
    elif kind == 1 and edges:
        edge = rng.choice(edges)
        edge[rng.choice((2, 3))] = rng.randint(0, edge[0] - 1)
    elif kind == 2 and len(parts) > 1 and len(edges) > 1:  # the graph under another root
        other = rng.choice([p for p in parts if p is not part])
        option = int(re.search(rb"part (\d+)", other[0])[1])
        other[1] = [list(e) for e in edges]
        for edge in other[1]:
            edge[1] = option if edge[0] == other[1][-1][3] else edge[1]
    elif kind == 3 and edges:  # an edge more, below the root line, linked to from above
        x = edges[-1][0]
        edges.insert(-1, [x, rng.randint(1, n), rng.randint(0, x - 1), rng.randint(0, x - 1)])
        edges[-1][0] = x + 1
        above = [e for e in edges if e[0] > x]
        rng.choice(above)[rng.choice((2, 3))] = x
    elif kind == 4 and len(edges) > 1:
        del edges[rng.randrange(len(edges) - 1)]
        for k, edge in enumerate(edges):
            edge[0] = k + 2
    elif kind == 5:  # a second part of the split item's options, with this graph
        split = head[0].split()[-1].decode()
        option = rng.choice([k for k in range(n) if split in problem.option(k)]) + 1
        parts.append([b"| part %d count 0" % option, [list(e) for e in edges]])
    else:
        parts.remove(part)


def _written(head: list, parts: list, counts: list[int]) -> bytes:
    """The certificate with these part counts, and their sum as its count."""
    lines = [*head]
    for (line, edges), count in zip(parts, counts, strict=True):
        lines.append(re.sub(rb"count \d+", b"count %d" % count, line))
        lines += [b"%x: (~%d?%x:%x)" % tuple(edge) for edge in edges]
    return b"\n".join([*lines, b"| count %d" % sum(counts)]) + b"\n"


def test_certificates_forged_and_made_consistent(tmp_path):
    """True certificates of random problems, changed one to three times, then each
    part's count set to its graph's paths and the sum to theirs: accepted only where
    every path is a true solution and no two are the same."""
    rng, cases, accepted = random.Random(6), 0, 0
    for _ in range(60 * SCALE):
        problem = _random_problem(rng)
        text, truth = dlx.write(problem), dlx.naive_solutions(problem)
        split = rng.choice(problem.primary)
        if not any(split in problem.option(k) for k in range(problem.n_options)):
            continue
        certificate.write(dlx.parse(text), tmp_path / "c", split=split)
        data = (tmp_path / "c").read_bytes()
        assert certify.check(text, data) == len(truth)
        for _ in range(10):
            head, parts = _parts(data)
            for _ in range(rng.randint(1, 3)):
                if parts:
                    _tamper(rng, head, parts, problem)
            paths = [_paths(edges) or [] for _, edges in parts]
            forged = _written(head, parts, [len(p) for p in paths])
            cases += 1
            try:
                count = certify.check(text, forged)
            except certify.Invalid as e:
                assert "\n" not in str(e)
                continue
            accepted += 1
            solutions = [frozenset(k - 1 for k in path) for p in paths for path in p]
            assert count == len(solutions) == len(set(solutions)), forged
            assert set(solutions) <= truth, forged
    assert accepted > 0
    _report(f"certificates forged ({accepted} still true, accepted)", cases)


def _odd_bounds(rng: random.Random) -> dlx.Problem:
    """Multiplicities at their edges: bounds 0:k, u:v with v past the options' number,
    lower bounds no option set can reach; coloured secondary items."""
    n_options = rng.randint(1, 11)
    primary = [f"p{i}" for i in range(rng.randint(1, 4))]
    secondary = [f"s{i}" for i in range(rng.randint(0, 2))]
    bounds = {}
    for name in primary:
        hi = rng.choice((1, 2, 3, n_options, n_options + 1, n_options + 5))
        bounds[name] = (rng.choice((0, 0, 1, hi, min(hi, n_options + 1))), hi)
    problem = dlx.Problem(primary=primary, secondary=secondary, bounds=bounds)
    for _ in range(n_options):
        items = rng.sample(primary, rng.randint(1, len(primary)))
        for name in rng.sample(secondary, rng.randint(0, len(secondary))):
            items.append((name, rng.choice("ab")) if rng.random() < 0.5 else name)
        problem.add_option(items)
    return problem


def test_odd_bounds_against_the_naive_solver():
    """auto (its race's walker covers an item up to its bounds), serial and parallel,
    its stream (every solution checked), and the kernels that take multiplicities:
    the naive solver's count and solutions."""
    rng, cases = random.Random(41), 0
    for _ in range(40 * SCALE):
        problem = _odd_bounds(rng)
        truth = dlx.naive_solutions(problem)
        found = set()
        for solution in dlx.solutions(problem):
            dlx.check(problem, solution.options)
            found.add(frozenset(solution.options))
        assert found == truth, dlx.write(problem)
        for engine in ("auto", "dlx", "mcc"):
            assert dlx.count(problem, engine=engine) == len(truth), (engine, dlx.write(problem))
        workers = dlx.Parallel(workers=2, tasks=4)
        assert dlx.count(problem, parallel=workers) == len(truth), dlx.write(problem)
        cases += 5
    _report("odd bounds: auto, dlx, mcc, parallel, streams against the naive solver", cases)


def _wide(rng: random.Random, colours: bool) -> dlx.Problem:
    """Over 1,024 options (the tight kernel opens frames below the root), 40 to 56
    primary items, options of 4 to 10 items, a few secondary items."""
    primary = [f"p{i}" for i in range(rng.randint(40, 56))]
    secondary = [f"s{i}" for i in range(rng.randint(1, 6))]
    problem = dlx.Problem(primary=primary, secondary=secondary)
    for _ in range(rng.randint(1030, 1800)):
        items = rng.sample(primary, rng.randint(4, 10))
        for name in rng.sample(secondary, rng.randint(0, 2)):
            items.append((name, rng.choice("ab")) if colours and rng.random() < 0.7 else name)
        problem.add_option(items)
    return problem


def test_wide_problems_through_the_tight_kernels_frames():
    """Frames (16 words) on wide random problems, with colours or not: the count paused
    every few nodes (rows checked, frames open at some pauses) equals the count without
    frames and bitset's (no colours); the stream's solutions checked, the same set."""
    from dlx.driver.codes import PAUSED
    from dlx.kernels.tight.search import TightSearch

    rng, cases = random.Random(16), 0
    for trial in range(4 * SCALE):
        problem = _wide(rng, colours=trial % 2 == 1)
        counts, framed = [], 0
        for frames in (True, False):
            search = TightSearch(problem, budget=50, frames=frames)
            while search.run() == PAUSED:
                search.sanity()
                framed += int(search._frame.level[0] >= 0)
            counts.append(search.solutions)
        if trial % 2 == 0:
            counts.append(dlx.count(problem, engine="bitset"))
        stream = {frozenset(s.options) for s in dlx.solutions(problem, engine="tight")}
        for solution in stream:
            dlx.check(problem, sorted(solution))
        assert len(set(counts)) == 1 and len(stream) == counts[0] and framed > 0, counts
        cases += len(counts) + 1
    _report("wide problems: the tight kernel's frames against no frames, bitset", cases)
