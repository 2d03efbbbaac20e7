"""Random draws from a solution graph: the random generator, conditions and weights.

Glossary
--------
generator
    Where the randomness comes from: ``random.Random(seed)`` (the default, the same
    draws on every machine for the same seed) or a caller's own ``random.Random`` or
    ``numpy.random.Generator`` (``rng=``). ``randbelow(rng, n)`` draws an integer
    exactly uniformly below ``n``, at any size (``randrange``; for numpy, ``integers``
    below 2**63 and whole random bytes with rejection above).
weights
    A non-negative weight per option, an integer or a ``Fraction`` (never a float): a
    solution's weight is the product of its options' weights, and a weighted draw
    picks a solution with probability its weight over the total. ``given`` options
    (which every drawn solution holds) and ``forbid`` options (which none holds) are
    weights too: the forbidden options, and every option that shares an item with a
    given one, weigh 0, so that what is left holds each given option (its primary item
    can be covered by no other option).
descent
    ``total[n]``, the total weight of the solutions below node ``n``, is the sum over
    its edges of the option's weight times the child's total. A draw goes down from the
    root, taking each edge with probability its share of the node's total, an exact
    integer draw over the shares brought to one denominator.
"""

from __future__ import annotations

import bisect
import math
import random
from fractions import Fraction

import numpy as np

from dlx.numbers import whole


def generator(seed, rng):
    """The random generator of a draw: ``rng`` as given, else ``random.Random(seed)``
    (``seed`` an integer, numpy's included, or None); TypeError for anything else."""
    if rng is None:
        return random.Random(None if seed is None else whole("seed", seed, minimum=None))
    if seed is not None:
        raise TypeError("give a seed or a random generator (rng=), not both")
    if isinstance(rng, (random.Random, np.random.Generator)):
        return rng
    raise TypeError(f"rng must be a random.Random or a numpy.random.Generator, not {rng!r}")


def randbelow(rng, n: int) -> int:
    """An integer drawn exactly uniformly from ``range(n)`` (``n >= 1``) with ``rng``.

    >>> randbelow(random.Random(1), 2**100) < 2**100
    True
    """
    if isinstance(rng, random.Random):
        return rng.randrange(n)
    if n <= 1 << 63:
        return int(rng.integers(0, n))
    bits = (n - 1).bit_length()
    top = (1 << bits) - 1
    while True:  # accepted with probability above 1/2
        x = int.from_bytes(rng.bytes((bits + 7) // 8), "little") & top
        if x < n:
            return x


def _options(problem, chosen, name: str) -> list[int]:
    """``chosen`` (an iterable of option indices) as a list of ints, each in range."""
    if isinstance(chosen, (str, bytes, bytearray)):
        raise TypeError(f"{name} must be option indices, not {chosen!r}")
    try:
        values = list(chosen)
    except TypeError:
        raise TypeError(f"{name} must be option indices, not {chosen!r}") from None
    out = []
    for value in values:
        k = whole(f"an option of {name}", value)
        if k >= problem.n_options:
            raise ValueError(f"{name}: no option {k}: the problem has {problem.n_options}")
        out.append(k)
    return out


def _weight(value, k: int):
    """Option ``k``'s weight as an int or a Fraction >= 0 (no float)."""
    if isinstance(value, Fraction):
        result = value
    else:
        result = whole(f"weights[{k}]", value)
    if result < 0:
        raise ValueError(f"weights[{k}] must be >= 0, not {value!r}")
    return result


def option_weights(problem, weights=None, given=None, forbid=None) -> list:
    """The weight of each option under ``weights`` (a sequence, one per option; None:
    1 each), ``given`` and ``forbid`` (see the glossary); ValueError naming the option
    when the given options cannot be in one solution.

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for option in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(option)
    >>> option_weights(p, given=[0])
    [1, 1, 0]
    """
    n = problem.n_options
    if weights is None:
        out = [1] * n
    else:
        if isinstance(weights, (str, bytes, bytearray)) or not hasattr(weights, "__len__"):
            raise TypeError(f"weights must be a sequence, one per option, not {weights!r}")
        if len(weights) != n:
            raise ValueError(f"weights needs one per option ({n}), not {len(weights)}")
        out = [_weight(value, k) for k, value in enumerate(weights)]
    for k in _options(problem, forbid if forbid is not None else (), "forbid"):
        out[k] = 0
    given = _options(problem, given if given is not None else (), "given")
    items = [{name for name, _ in problem.option_entries(k)} for k in range(n)] if given else []
    primary = set(problem.primary)
    held: dict[str, int] = {}
    for k in given:
        if not items[k] & primary:
            raise ValueError(f"given option {k} has no primary item: no solution holds it")
        for name in items[k]:
            if held.setdefault(name, k) != k:
                raise ValueError(f"given options {held[name]} and {k} share item {name!r}")
    chosen = set(given)
    for j in range(n if given else 0):
        if j not in chosen and any(name in held for name in items[j]):
            out[j] = 0
    return out


class Descent:
    """Weighted draws from graph ``g`` (see the glossary): ``total`` the root's total
    weight; ``draw(rng)`` one solution's options, in the order taken."""

    def __init__(self, g, weights: list):
        self._start = g.node_edge.tolist()
        self._child = g.edge_child.tolist()
        self._option = g.edge_option.tolist()
        self._weights = weights
        self._root = g.root
        self._shares: dict[int, tuple[list[int], int]] = {}
        total = [0] * len(g)
        total[0] = 1
        start, child, option = self._start, self._child, self._option
        for n in range(1, len(g)):
            total[n] = sum(
                weights[option[e]] * total[child[e]] for e in range(start[n], start[n + 1])
            )
        self._total = total
        self.total = total[g.root] if g.root >= 0 else 0

    def _table(self, n: int) -> tuple[list[int], int]:
        """Node ``n``'s edges' shares as running integer sums (one denominator), kept."""
        found = self._shares.get(n)
        if found is None:
            edges = range(self._start[n], self._start[n + 1])
            terms = [self._weights[self._option[e]] * self._total[self._child[e]] for e in edges]
            if not all(isinstance(t, int) for t in terms):
                scale = math.lcm(*(Fraction(t).denominator for t in terms))
                terms = [int(t * scale) for t in terms]
            running = list(np.cumsum(np.array(terms, dtype=object))) if terms else []
            found = self._shares[n] = ([int(r) for r in running], int(running[-1]))
        return found

    def probability(self, options) -> Fraction:
        """The probability that ``draw`` gives the solution ``options`` (a path of the
        graph): the product of its edges' shares (0 for what is no path)."""
        n, left, result = self._root, set(options), Fraction(1)
        while n > 0:
            running, whole_share = self._table(n)
            if not whole_share:
                return Fraction(0)
            for e in range(self._start[n], self._start[n + 1]):
                if self._option[e] in left:
                    j = e - self._start[n]
                    result *= Fraction(running[j] - (running[j - 1] if j else 0), whole_share)
                    left.discard(self._option[e])
                    n = self._child[e]
                    break
            else:
                return Fraction(0)
        return result if n == 0 and not left else Fraction(0)

    def draw(self, rng) -> tuple[int, ...]:
        """One solution drawn with probability its weight over ``total`` (> 0)."""
        n, options = self._root, []
        while n != 0:
            running, whole_share = self._table(n)
            e = self._start[n] + bisect.bisect_right(running, randbelow(rng, whole_share))
            options.append(self._option[e])
            n = self._child[e]
        return tuple(options)
