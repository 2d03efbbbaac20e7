"""Loop items (``Problem.add_loop_edge``): the kernel against a naive filter, and input checks."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx
from dlx.verify import check, naive_solutions


def one_cycle(edges) -> bool:
    """Naive single-cycle test, by union-find and degrees (independent of dlx.verify)."""
    if not edges:
        return False
    parent: dict[int, int] = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    degree: dict[int, int] = {}
    for u, v in edges:
        degree[u] = degree.get(u, 0) + 1
        degree[v] = degree.get(v, 0) + 1
        parent[find(u)] = find(v)
    roots = {find(x) for x in degree}
    return all(d == 2 for d in degree.values()) and len(roots) == 1


def random_problem(seed: int, with_loop: bool):
    """A small random XCC problem whose secondary items are the edges of a multigraph."""
    rng = random.Random(seed)
    n_primary = rng.randint(1, 4)
    n_vertices = rng.randint(2, 5)
    edges = [tuple(rng.sample(range(n_vertices), 2)) for _ in range(rng.randint(2, 7))]
    primary = [f"p{i}" for i in range(n_primary)]
    names = [f"e{j}" for j in range(len(edges))]
    p = dlx.Problem(primary=primary, secondary=[*names, "plain"])
    if with_loop:
        for name, (u, v) in zip(names, edges, strict=True):
            p.add_loop_edge(name, u, v, on="on")
    for _ in range(rng.randint(1, 12)):
        items = rng.sample(primary, rng.randint(1, n_primary))
        for name in rng.sample(names, rng.randint(0, min(4, len(names)))):
            items.append(f"{name}:{rng.choice(['on', 'on', 'off'])}")
        if rng.random() < 0.2:
            items.append(rng.choice(["plain", "plain:a", "plain:b"]))
        p.add_option(items)
    return p, dict(zip(names, edges, strict=True))


def on_edges(problem, options, edges):
    """The edges given colour 'on' by the chosen options."""
    found = set()
    for k in options:
        for name, colour in problem.option_entries(k):
            if name in edges and colour == "on":
                found.add(name)
    return [edges[name] for name in found]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9))
def test_random_problems_against_naive_filter(seed):
    plain, edges = random_problem(seed, with_loop=False)
    looped, _ = random_problem(seed, with_loop=True)
    expected = {s for s in naive_solutions(plain) if one_cycle(on_edges(plain, s, edges))}
    found = [frozenset(s.options) for s in dlx.solutions(looped)]
    assert len(found) == len(set(found))
    assert set(found) == expected
    for s in found:
        check(looped, s)
    assert dlx.count(looped).solutions == len(expected)
    assert naive_solutions(looped) == expected  # the checker knows the loop rule too
    if expected:
        assert dlx.first(looped) is not None
        assert dlx.is_unique(looped) == (len(expected) == 1)
    # the search leaves nothing behind: a second search gives the same answer
    assert dlx.count(looped).solutions == len(expected)


def ring(n: int, chords=()):
    """A ring of n vertices whose edges must be on, plus optional chords."""
    p = dlx.Problem(primary=["all"], secondary=[f"e{i}" for i in range(n)])
    for i in range(n):
        p.add_loop_edge(f"e{i}", i, (i + 1) % n, on="1")
    return p


def test_two_disjoint_cycles_are_not_a_solution():
    p = dlx.Problem(primary=["a", "b"], secondary=[f"e{i}" for i in range(6)])
    for i, (u, v) in enumerate([(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3)]):
        p.add_loop_edge(f"e{i}", u, v, on="1")
    p.add_option(["a", "e0:1", "e1:1", "e2:1"])
    p.add_option(["b", "e3:1", "e4:1", "e5:1"])
    p.add_option(["b", "e3:0"])
    assert [s.options for s in dlx.solutions(p)] == [(0, 2)]
    with pytest.raises(dlx.InvalidSolution):
        check(p, [0, 1])


def test_no_edge_on_is_not_a_loop():
    p = ring(3)
    p.add_option(["all", "e0:0"])
    assert dlx.count(p).solutions == 0
    p.add_option(["all", "e0:1", "e1:1", "e2:1"])
    assert dlx.count(p).solutions == 1


def test_batch_respects_loops():
    p = dlx.Problem(primary=["x", "y"], secondary=["e0", "e1", "e2"])
    for i in range(3):
        p.add_loop_edge(f"e{i}", i, (i + 1) % 3, on="1")
    p.add_option(["x", "e0:1", "e1:1"])  # 0
    p.add_option(["y", "e2:1"])  # 1
    p.add_option(["y", "e2:0"])  # 2: leaves a path, not a loop
    result = dlx.batch(p, [[0], [1], [2]])
    assert list(result.counts) == [1, 1, 0]
    assert result.first[0] == (0, 1)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda p: p.add_loop_edge("nope", 0, 1, "1"), "unknown item"),
        (lambda p: p.add_loop_edge("a", 0, 1, "1"), "primary item"),
        (lambda p: p.add_loop_edge("e", -1, 1, "1"), "integer >= 0"),
        (lambda p: p.add_loop_edge("e", 0, "1", "1"), "integer >= 0"),
        (lambda p: p.add_loop_edge("e", 2, 2, "1"), "both ends"),
        (lambda p: p.add_loop_edge("e", 0, 1, ""), "colour"),
    ],
)
def test_bad_loop_edges(call, message):
    p = dlx.Problem(primary=["a"], secondary=["e"])
    with pytest.raises(dlx.ProblemError, match=message):
        call(p)


def test_loop_edge_declared_twice_or_used_without_colour():
    p = dlx.Problem(primary=["a"], secondary=["e"])
    p.add_loop_edge("e", 0, 1, "1")
    with pytest.raises(dlx.ProblemError, match="twice"):
        p.add_loop_edge("e", 0, 1, "1")
    p.add_option(["a", "e"])
    with pytest.raises(dlx.ProblemError, match="option 0: loop edge 'e' needs a colour"):
        dlx.count(p)
    assert p.loop_edges == {"e": (0, 1, "1")}
    with pytest.raises(dlx.DlxFormatError, match="loop items"):
        dlx.write(p)
