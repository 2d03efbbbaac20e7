"""How ``engine="auto"`` picks a kernel: by measuring each one on the problem itself.

Glossary
--------
candidate
    A kernel that takes the problem (its ``refuses`` says nothing against it) and needs
    no compiling: warmed up in this process or fresh in numba's cache (its ``ready``).
probe
    A search of the problem by one candidate, made as the count will make it (forced
    options, limits) but without a memo, run a step at a time and timed in this
    process's CPU seconds (the machine may be shared).
estimate
    What a probe says is left of its count: Knuth's estimate of its tree's size (the
    nodes so far over ``f``, the kernel's own ``fraction()``: the share of its tree done,
    from the branch numbers along its path, as DLX1's progress report), less the nodes
    done, times its CPU seconds per node since its first step (that step pays for
    setting up, which the speed leaves out).

The race
--------
Each round gives every probe one slice (the best estimate first); slices double from
``FIRST_SLICE`` seconds. A probe that finishes (its tree done, or the count's solution
limit met) wins at once: its search is handed back, so its work is not lost, and a
count that takes milliseconds costs no more than the other kernels' first slices.
Otherwise the race stops when

- after ``MIN_ROUNDS`` rounds one estimate is ``CLEAR`` times below every other, or
- the probes have cost ``SHARE`` of the best estimate, and that estimate is steady
  (within a factor ``STEADY`` of the round before's: an early estimate can be a
  thousand times too small, when the first subtrees are tiny), or ``MAX_PROBE``
  seconds.

The best estimate wins, except that a kernel whose registry row says the problem looks
like its kind (``suits``: the bitset kernel on tilings) wins unless another estimate is
``PRIOR`` times below its own: the estimates can be far off where the first subtrees
are small, and on tilings the shape is the better guide (``scripts/bench_kernels.py``).
The winner's probe is handed back to be continued, unless the count takes a memo
(a full count: the memo must see its search from the start, so the caller starts the
winner afresh); the others are dropped. What they cost is the price of ``auto``: about
``SHARE`` of the count, or the first slices. The estimates leave out what a memo saves
(the probes have none, and its hits come late): a kernel whose memo saves most of its
tree can lose a race it would have won (see the benchmark, ``scripts/bench_kernels.py``).

Compiling
---------
A kernel that numba would have to compile (seconds) is not probed on a guess: when no
candidate is ready, the first kernel whose ``suits`` says the problem is its kind (else
the first kernel of the registry) is the only one compiled and probed; the others are
compiled and join the race only when the estimate of the leader exceeds
``COMPILE_WORTH`` seconds.

This module knows no kernel by name: it is handed, for each kernel of the registry
(``dlx.engines.ENGINES``), a factory of probes and the functions of its row.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from dlx.errors import ProblemError

FIRST_SLICE = 0.00025  # seconds of the first slice of each probe
MIN_ROUNDS = 3  # rounds before an estimate can win by its margin alone
CLEAR = 4.0  # ... the margin: every other estimate this many times higher
PRIOR = 2.0  # a kernel that suits the shape wins unless an estimate is this many times below
STEADY = 2.0  # the best estimate may stop the race when within this factor of the last
SHARE = 0.02  # the probes stop once they have cost this share of the best estimate
MAX_PROBE = 3.0  # ... or this many seconds
COMPILE_WORTH = 30.0  # seconds of estimated count that pay for compiling another kernel
LOAD_WORTH = 1.0  # ... and for loading and probing the others, where one suits the shape
FIRST_NODES = 200  # nodes of a probe's first step, before its speed is known


@dataclass
class Choice:
    """The kernel that runs a search (``name``), why (``reason``) and, when ``auto``
    raced for a count, the winner's probe to continue (``search``, else None)."""

    name: str
    reason: str
    search: object | None = None

    def describe(self) -> str:
        """``name (reason)``: what ``--stats`` prints."""
        return f"{self.name} ({self.reason})"


class Probe:
    """One candidate's search in the race, run a step at a time; its clock is this
    process's CPU time (the machine may be shared), and its speed is taken after its
    first step (which pays for setting up: a memo's table, say)."""

    def __init__(self, name: str, search, limit: int | None):
        self.name = name
        self.search = search
        self.limit = limit
        self.user_limit = search.node_limit  # the count's own node limit, kept
        self.finished = False
        self.cpu = 0.0  # CPU seconds of its steps
        self.base: tuple[float, int] | None = None  # (cpu, nodes) after the first step

    @property
    def nodes(self) -> int:
        """Nodes searched so far."""
        return int(self.search.stats.nodes)

    def per_node(self) -> float | None:
        """CPU seconds per node since the first step (None: not known yet)."""
        if self.base is None or self.nodes <= self.base[1]:
            return None
        return (self.cpu - self.base[0]) / (self.nodes - self.base[1])

    def _step(self, nodes: int) -> None:
        """Run ``nodes`` more nodes (or to the end), timed."""
        search = self.search
        target = self.nodes + max(nodes, 1)
        if self.user_limit is not None:
            target = min(target, self.user_limit)
        search.node_limit = target
        t0 = time.process_time()
        search.run(stream=False, max_solutions=self.limit)
        self.cpu += time.process_time() - t0
        ours = search.stopped_by is not None and search.stopped_by.startswith("node limit")
        if search.done or (search.stopped_by is not None and not ours):
            self.finished = True
        elif ours and self.user_limit is not None and target >= self.user_limit:
            self.finished = True  # the count's own node limit
        elif ours:
            search.stopped_by = None

    def advance(self, seconds: float) -> bool:
        """Run about ``seconds`` more; True when the search has ended (its tree done, a
        limit of the count met): then it has won."""
        start = self.cpu
        while not self.finished and self.cpu - start < seconds:
            if self.base is None:
                self._step(FIRST_NODES)
                self.base = (self.cpu, self.nodes)
                continue
            cost = self.per_node()
            self._step(2 * FIRST_NODES if cost is None else int(seconds / max(cost, 1e-9)))
        self.search.node_limit = self.user_limit
        return self.finished

    def estimate(self) -> float:
        """CPU seconds left of this search: its tree's size by its own progress estimate
        (nodes / fraction done), less the nodes done, times its cost per node (inf: no
        estimate yet)."""
        if self.finished:
            return 0.0
        f = float(self.search.fraction())
        cost = self.per_node()
        if f <= 0.0 or cost is None:
            return math.inf
        return self.nodes * (1.0 - f) / f * cost

    def __str__(self) -> str:
        left = self.estimate()
        guess = "no estimate" if math.isinf(left) else f"{_seconds(left)} left"
        return f"{self.name} {guess} ({self.cpu * 1e3:.1f} ms probed)"


def _seconds(s: float) -> str:
    """Seconds, briefly."""
    return f"{s:.3g} s"


@dataclass
class Kernel:
    """What the race needs of one kernel: a probe factory and its registry row's calls
    (``refuses``: problem -> reason or None; ``ready``: () -> bool; ``suits``:
    problem -> bool; each None when the row has none)."""

    name: str
    make: Callable[[], object]
    refuses: Callable | None = None
    ready: Callable | None = None
    suits: Callable | None = None


def refusal(kernel: Kernel, problem) -> str | None:
    """Why ``kernel`` cannot search ``problem`` (None when it can); a kernel without a
    ``refuses`` is asked by making its search."""
    if kernel.refuses is not None:
        return kernel.refuses(problem)
    try:
        kernel.make()
    except (ProblemError, ValueError) as e:
        return str(e)
    return None


def choose(problem, kernels: list[Kernel], limit: int | None = None) -> Choice:
    """The kernel that ``auto`` runs ``problem`` with (see the module), and the winner's
    probe when one was raced (a count's ``limit``: as the count is run)."""
    refused = {k.name: refusal(k, problem) for k in kernels}
    takers = [k for k in kernels if refused[k.name] is None]
    if not takers:
        reasons = "; ".join(f"{name}: {why}" for name, why in refused.items())
        raise ProblemError(f"no kernel takes this problem ({reasons})")
    if len(takers) == 1:
        others = ", ".join(f"{n}: {why}" for n, why in refused.items() if why is not None)
        return Choice(takers[0].name, f"auto: the only kernel that takes it; {others}")
    ready = [k for k in takers if k.ready is None or k.ready()]
    note = ""
    suited = [k for k in ready if k.suits is not None and k.suits(problem)]
    if not ready:
        guess = next((k for k in takers if k.suits is not None and k.suits(problem)), takers[0])
        ready = [guess]
        note = f"; no kernel compiled yet, {guess.name} guessed from the problem's shape"
    elif suited and len(ready) > 1:  # the others join if the count pays for loading them
        soon = [k for k in ready if k is not suited[0]]
        later = [k for k in takers if k not in ready]
        return _race(problem, suited[:1], later, limit, note, soon)
    later = [k for k in takers if k not in ready]
    return _race(problem, ready, later, limit, note)


def _race(problem, kernels, later, limit, note: str, soon=()) -> Choice:
    """Race the probes of ``kernels`` (``soon``: ready kernels added once the count is
    estimated at ``LOAD_WORTH`` seconds; ``later``: compiled and added at
    ``COMPILE_WORTH``)."""
    probes = [Probe(k.name, k.make(), limit) for k in kernels]
    soon = list(soon)
    if len(probes) == 1 and not later and not soon:
        p = probes[0]
        return Choice(p.name, f"auto: the only kernel compiled{note}", p.search)
    slice_seconds = FIRST_SLICE
    rounds = 0
    previous = None  # the best estimate of the round before
    while True:
        rounds += 1
        for p in sorted(probes, key=Probe.estimate):
            if p.advance(slice_seconds):
                lost = ", ".join(str(q) for q in probes if q is not p)
                why = f"auto: finished within its probe, {p.cpu * 1e3:.1f} ms"
                return Choice(p.name, f"{why}; {lost}{note}", p.search)
        ranked = sorted(probes, key=Probe.estimate)
        best = ranked[0].estimate()
        if soon and math.isfinite(best) and best > LOAD_WORTH:
            probes += [Probe(k.name, k.make(), limit) for k in soon]
            kernels, soon = kernels + soon, []
            continue
        if later and math.isfinite(best) and best > COMPILE_WORTH:
            probes += [Probe(k.name, k.make(), limit) for k in later]
            kernels, later = kernels + later, []
            continue
        if len(probes) == 1 and math.isfinite(best) and (not soon or rounds >= MIN_ROUNDS):
            if soon:
                note = f"; {probes[0].name} suits its shape, a count too short to race others"
            break  # the only one compiled, and its count does not pay for compiling more
        spent = sum(p.cpu for p in probes)
        clear = len(ranked) == 1 or ranked[1].estimate() >= CLEAR * best
        steady = previous is not None and previous / STEADY <= best <= previous * STEADY
        if (rounds >= MIN_ROUNDS and clear) or spent >= MAX_PROBE:
            break
        if steady and spent >= SHARE * best:
            break
        previous = best
        slice_seconds *= 2
    said = ", ".join(str(p) for p in ranked)
    best = ranked[0].estimate()
    suited = [p for p in ranked if _suits(kernels, p.name, problem)]
    if suited and suited[0].estimate() <= PRIOR * best and suited[0] is not ranked[0]:
        winner = suited[0]
        said = f"{winner.name} suits its shape, no estimate {PRIOR:g}x below its; {said}"
    else:
        winner = ranked[0]
    return Choice(winner.name, f"auto: {said}{note}", winner.search)


def _suits(kernels: list[Kernel], name: str, problem) -> bool:
    """Whether the kernel ``name``'s row says that ``problem`` looks like its kind."""
    kernel = next(k for k in kernels if k.name == name)
    return kernel.suits is not None and bool(kernel.suits(problem))
