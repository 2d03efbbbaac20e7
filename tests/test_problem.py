"""Building problems, their errors, and the .dlx format."""

from __future__ import annotations

from itertools import permutations

import pytest
from boards import queens
from shared import option_sets

import dlx
from dlx.verify import naive_solutions

# -- building problems and errors -----------------------------------------------------


def test_from_matrix():
    p = dlx.Problem.from_matrix([[1, 0, 0], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    assert option_sets(dlx.solutions(p)) == {frozenset({0, 1}), frozenset({2, 3})}
    with pytest.raises(dlx.ProblemError, match="only 0 and 1"):
        dlx.Problem.from_matrix([[2]])
    with pytest.raises(dlx.ProblemError, match="row 1 of the matrix is empty"):
        dlx.Problem.from_matrix([[1], [0]])


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda p: p.add_option(["a", "zz"]), "option 0: unknown item 'zz'"),
        (lambda p: p.add_option(["a", "a"]), "item 'a' appears twice"),
        (lambda p: p.add_option(["a:red"]), "primary item 'a' cannot have a colour"),
        (lambda p: p.add_option(["a", "x:"]), "item 'x' has an empty colour"),
        (lambda p: p.add_option([]), "option 0 is empty"),
        (lambda p: p.add_option("ab"), "give a list of item names"),
        (lambda p: p.add_primary("a"), "item 'a' is declared twice"),
        (lambda p: p.add_primary("q", 3, 2), "bounds must satisfy"),
        (lambda p: p.add_primary("q", 0, 0), "bounds must satisfy"),
        (lambda p: p.add_secondary("q:r"), "contains ':'"),
    ],
)
def test_problem_errors(build, message):
    p = dlx.Problem(primary=["a", "b"], secondary=["x"])
    with pytest.raises(dlx.ProblemError, match=message.replace("(", r"\(")):
        build(p)


def test_forced_errors():
    p = queens(4)
    with pytest.raises(dlx.ProblemError, match="more than once"):
        list(dlx.solutions(p, forced=[0, 1]))
    with pytest.raises(dlx.ProblemError, match="does not exist"):
        dlx.count(p, forced=[99])
    q = dlx.Problem(primary=["a"], secondary=["x"], bounds={"a": (0, 2)})
    q.add_option(["a", "x:1"])
    q.add_option(["a", "x:2"])
    with pytest.raises(dlx.ProblemError, match="no primary item with bounds 1:1"):
        dlx.count(q, forced=[0])
    r = dlx.Problem(primary=["a", "b"], secondary=["x"])
    r.add_option(["a", "x:1"])
    r.add_option(["b", "x:2"])
    with pytest.raises(dlx.ProblemError, match="clash on secondary item 'x'"):
        dlx.count(r, forced=[0, 1])


# -- the .dlx format ------------------------------------------------------------------

KNUTH_EXAMPLE = """\
| A simple example of color controls (Knuth, DLX3)
A B 2:3|C | X Y
A B X:0 Y:0
A C X:1 Y:1
C X:0
B X:1
C Y:1
"""


def test_knuth_dlx3_example():
    p = dlx.parse(KNUTH_EXAMPLE)
    assert p.bounds("C") == (2, 3)
    found = option_sets(dlx.solutions(p))
    assert found == {frozenset({1, 3, 4})}
    assert found == naive_solutions(p)


def test_write_parse_round_trip():
    p = dlx.parse(KNUTH_EXAMPLE)
    q = dlx.parse(dlx.write(p, comment="round trip"))
    assert q.primary == p.primary and q.secondary == p.secondary
    assert [q.option(k) for k in range(q.n_options)] == [p.option(k) for k in range(p.n_options)]
    assert q.bounds("C") == (2, 3)
    exact = dlx.Problem(primary=["a"], bounds={"a": (2, 2)})
    assert dlx.write(exact).splitlines()[0] == "2|a"


@pytest.mark.parametrize(
    "text, message",
    [
        ("a b\na c\n", "line 2: unknown item 'c'"),
        ("a b\n\n| comment\na a\n", "line 4: item 'a' appears twice in one option"),
        ("a | x\na:1 x\n", "line 2: primary item 'a' cannot have a colour"),
        ("a | x | y\n", "line 1: the item line contains '|' twice"),
        ("a | 2|x\n", "line 1: secondary item 'x' cannot have bounds"),
        ("3:2|a\n", "line 1: item 'a': lower bound 3 exceeds upper bound 2"),
        ("0|a\n", "line 1: item 'a' has upper bound 0"),
        ("a a\n", "line 1: item 'a' is declared twice"),
        ("| only comments\n\n", "no item line"),
        ("| x\n", "no item line"),
        ("a | x\na x:\n", "line 2: item 'x' has an empty colour"),
        ("a b:c\n", "line 1: illegal ':' in item name 'b:c'"),
    ],
)
def test_malformed_dlx(text, message):
    with pytest.raises(dlx.DlxFormatError, match=message.replace("|", r"\|")):
        dlx.parse(text)


def test_permutations_of_options_do_not_change_counts():
    p = queens(6)
    rows = [p.option(k) for k in range(p.n_options)]
    for perm in list(permutations(range(3))):
        q = dlx.Problem(primary=p.primary, secondary=p.secondary)
        order = list(range(len(rows)))
        order[:3] = perm
        q.add_options([rows[k] for k in order])
        assert dlx.count(q).solutions == 4
