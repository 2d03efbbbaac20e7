"""How ``engine="auto"`` picks a kernel: by measuring each one on the problem itself.

Glossary
--------
candidate
    A kernel that takes the problem (its ``refuses`` says nothing against it).
leader
    The candidate that searches first: the first whose registry row says the problem
    looks like its kind (``suits``), else the first of the registry. Its search (the
    *probe*) is made as the count will run it (forced options, limits, its memo for a
    full count) and run a step at a time, so that its work is not lost when it wins.
sample
    A random subtree of the problem: a random path of the search (the primary item
    with the fewest live options, one of them at random, again, to a solution or a dead
    end; of that item's options the first, in random order, after which no open item
    is left without one; a fixed seed), cut where the best kernel so far counts the subtree below in
    ``sample_low`` to ``sample_max`` seconds. Every candidate counts the same subtree
    (no memo), timed in this thread's CPU seconds (``clock``); a kernel stops at
    ``cap`` times the first one's time. Same work for every kernel: the samples
    compare them on this problem whatever their branching rules (a tree-size estimate
    from one depth-first path does not, its bias differs from kernel to kernel).

The race
--------
Samples are paid for in advance by the leader's probe: before each one the leader runs
on until the samples so far and the next one (its cost guessed; the first also pays
for the set-up, each other kernel's layout, guessed at ``setup_guess`` a kernel, then
as measured) are at most ``ratio`` of its CPU time (or its estimate of its count,
Knuth's: nodes over ``fraction()``, times its seconds per node, is ``over`` times that,
once it has run ``trust`` seconds), so a count that the leader finishes meanwhile costs
at most about ``ratio`` more than running it alone, and small counts take no sample at
all; nor does one whose estimate of what is left is under ``worth`` samples' cost (it
runs on, up to ``late`` times what it had to).
A probe that will not be continued (a parallel count, a stream) pays for nothing: the
samples start after ``trust`` seconds of it. Once a sample has another kernel ahead, the
samples go on without waiting. A kernel whose sample times, multiplied, are ``margin``
times the best kernel's is out; the race ends when one kernel is left, or after
``max_samples`` samples or ``max_probe`` seconds. The fastest on the samples wins (the
leader unless another is ``switch`` times faster, or the leader, still in the race,
would end first going on by ``bias`` times its estimate); the leader's probe is
continued when it wins, else the winner starts afresh. On a count that takes a memo
(whose savings samples do not see) the samples' winner must also confirm it: both run
the count as long, from the leader's probe so far, doubling up to ``ratio`` of the
winner's estimated count (at most ``confirm`` seconds; no confirmation, the samples
deciding, where that is under ``confirm_min``: estimates read earlier are too rough;
always where the winner's count has no memo) until one's estimate of its whole count
is ``decisive`` times the other's, and it wins unless the leader's estimate is
``overturn`` times lower (the memo's gain must be clear to overrule the samples); its
search is then continued. Else the winner starts afresh (the price: the leader's probe
and the samples).

Compiling
---------
The choice never depends on what happens to be compiled: the candidates are the same
on an empty numba cache and a full one. A kernel is compiled (or loaded from the
cache) when the race first needs it: the leader for its probe, the others at the
set-up of the first sample (a count that ends within the leader's probe compiles no
other); one that numba's cache lacks is compiled meanwhile in another process, on
another core, from the start of the count (``dlx.compiling.ahead``), and the set-up
waits for it. Each compile is said on stderr (``dlx.compiling``), and its seconds are in
the race's set-up, never in a kernel's sample time; ``--stats`` gives them.

The numbers named here are the fields of ``dlx.driver.tuning.SETTINGS``.

This module knows no kernel by name: it is handed the functions of each kernel's row
of the registry (``dlx.engines.ENGINES``), lined up (``dlx.driver.lineup``), and one
factory of searches, by kernel name.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import numpy as np

from dlx import compiling
from dlx.driver.lineup import Choice, Kernel, Lineup
from dlx.driver.tuning import SETTINGS
from dlx.errors import ProblemError
from dlx.words import plural


class Probe:
    """The leader's search, run a step at a time; its clock is ``clock``, and its speed
    is taken after its first step (which pays for setting up: a memo's table, say)."""

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
        return self.search.nodes

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
        t0 = SETTINGS.clock()
        search.run(stream=False, max_solutions=self.limit)
        self.cpu += SETTINGS.clock() - t0
        ours = search.stopped_by is not None and search.stopped_by.startswith("node limit")
        if search.done or (search.stopped_by is not None and not ours):
            self.finished = True
        elif ours and self.user_limit is not None and target >= self.user_limit:
            self.finished = True  # the count's own node limit
        elif ours:
            search.stopped_by = None

    def advance(self, seconds: float) -> bool:
        """Run about ``seconds`` more (nothing when not positive); True when the search
        has ended (its tree done, a limit of the count met)."""
        start = self.cpu
        while not self.finished and self.cpu - start < seconds:
            if self.base is None:
                self._step(SETTINGS.first_nodes)
                self.base = (self.cpu, self.nodes)
                continue
            cost = self.per_node()
            left = seconds - (self.cpu - start)
            most = 2 * max(self.nodes, SETTINGS.first_nodes)  # at most doubling: early nodes can be
            # far cheaper than later ones (a memo's hits), and one step would overshoot
            self._step(most if cost is None else min(int(left / max(cost, 1e-9)), most))
        self.search.node_limit = self.user_limit
        return self.finished

    def work(self) -> float:
        """CPU seconds since its first step (0: none yet)."""
        return 0.0 if self.base is None else self.cpu - self.base[0]

    def total(self) -> float:
        """CPU seconds of its whole count, by its estimate (Knuth's: nodes over
        ``fraction()``, times its seconds per node; inf: none yet)."""
        if self.finished:
            return self.work()
        f = float(self.search.fraction())
        cost = self.per_node()
        return math.inf if f <= 0.0 or cost is None else self.nodes / f * cost

    def estimate(self) -> float:
        """CPU seconds left of this search: its tree's size by its own progress estimate
        (nodes / fraction done), less the nodes done, times its cost per node (inf: no
        estimate yet)."""
        if self.finished:
            return 0.0
        total = self.total()
        return total if math.isinf(total) else total - self.nodes * self.per_node()


def _seconds(s: float) -> str:
    """Seconds, briefly."""
    return f"{s:.3g} s"


def first_slice(name: str, make: Callable, limit: int | None = None, rivals=1, leads=None):
    """The probe of kernel ``name`` (its search as the count runs it, ``make(name)``),
    for a kernel known to lead the race, run before the line-up is asked (asking every
    kernel's rule of a fresh problem costs as much as a small count): its first slice,
    then on as the race's first sample would make it pay with at most ``rivals`` other
    kernels (see ``_race``), unless ``leads()`` (a rule dearer than a tiny count, asked
    after the first slice) says no: then no probe. ``(probe, choice)``, the choice None
    unless the count ended; ``choose`` goes on with the probe (``probe=``)."""
    probe = Probe(name, make(name), limit)
    if probe.advance(SETTINGS.first_slice):
        return probe, _within(probe, "suits its shape")
    if leads is not None and not leads():
        return None, None
    guess = SETTINGS.guess * (rivals + 1) + SETTINGS.setup_guess * rivals
    if _pay(probe, guess / SETTINGS.ratio, SETTINGS.worth * guess):
        return probe, _within(probe, "suits its shape")
    return probe, None


def choose(
    problem,
    lineup: Lineup,
    make: Callable[..., object],
    limit: int | None = None,
    forced=(),
    kept: bool = True,
    probe: Probe | None = None,
) -> Choice:
    """The kernel that ``auto`` runs ``problem`` with (see the module), of those
    ``lineup`` (``line_up``) says take it, and its search when it ran as the count (a
    count's ``limit`` and ``forced`` options: as the count is run). ``make(name)``:
    kernel ``name``'s search as the count runs it; ``make(name, extra)``: its full count
    of the subtree below the options ``extra`` (after the count's forced ones), for a
    sample. ``kept=False``: the leader's probe will not be continued (a parallel count,
    a stream), so it pays for no sample: they start once it has run ``trust`` seconds.
    ``probe``: the leader's probe after its first slice (``first_slice``), to go on with."""
    takers = lineup.takers
    if not takers:
        reasons = "; ".join(f"{name}: {why}" for name, why in lineup.refused)
        raise ProblemError(f"no kernel takes this problem ({reasons})")
    if len(takers) == 1:
        others = ", ".join(f"{name}: {why}" for name, why in lineup.refused)
        search = None if probe is None else probe.search
        return Choice(takers[0].name, f"auto: the only kernel that takes it; {others}", search)
    leader, *others = takers
    why = lineup.why or ("suits its shape" if lineup.suited else "first of the registry")
    if probe is None:
        probe = Probe(leader.name, make(leader.name), limit)
        if probe.advance(SETTINGS.first_slice):  # the race's first slice, before its set-up:
            return _within(probe, why)  # a small count ends here (set-up would double it)
    elif probe.name != leader.name:
        raise ValueError(f"the probe is {probe.name}'s, the leader is {leader.name}")
    return _race(problem, forced, make, probe, leader, others, why, kept)


def _race(problem, forced, make, probe, leader, others, why: str, kept: bool) -> Choice:
    """Score the leader and ``others`` on samples, paid for by the leader's probe
    (``make`` as for ``choose``); the choice (see the module)."""
    kernels = [leader, *others]
    logs = {k.name: 0.0 for k in kernels}  # the sum of each kernel's log sample times
    spent = 0.0  # CPU seconds of the samples (walks, searches, timing)
    samples = tries = 0
    walker = None  # made for the first sample
    setup = 0.0  # CPU seconds of making the walker and each kernel's layout
    compiled = loaded = 0.0  # seconds of compiling (and loading) the others, apart
    out: list[str] = []  # the kernels out of the race
    while True:
        guess = spent / tries if tries else SETTINGS.guess * len(kernels)  # the next sample's cost
        if walker is None:  # and the set-up's, paid for like a sample
            guess += SETTINGS.setup_guess * (len(kernels) - 1)
        ahead = min(logs, key=logs.get) == leader.name  # else no waiting: it may well lose
        need = (spent + setup + guess) / SETTINGS.ratio if ahead else 0.0
        if _pay(probe, need if kept else min(need, SETTINGS.trust), SETTINGS.worth * guess):
            return _within(probe, why, f"samples {_ms(spent)}" if tries else "no sample")
        ranked = sorted(logs, key=logs.get)
        if samples:  # out: a kernel ``margin`` times behind the best (it cannot win)
            kernels = [
                k for k in kernels if logs[k.name] - logs[ranked[0]] < math.log(SETTINGS.margin)
            ]
            out += [
                f"{n} {math.exp((logs[n] - logs[ranked[0]]) / samples):.2f}"
                for n in ranked
                if n not in {k.name for k in kernels}
            ]
            logs = {k.name: logs[k.name] for k in kernels}
        if (
            samples >= SETTINGS.max_samples
            or len(kernels) == 1
            or probe.cpu + spent >= SETTINGS.max_probe
        ):
            break
        if walker is None:  # once: each kernel's layout made, and its samples'
            t0, cpu = SETTINGS.clock(), compiling.cpu_seconds()  # specialisation compiled (apart)
            warming, compiling_before = compiling.seconds(), compiling.compiled_seconds()
            walker = Walker.of(problem, forced)
            for kernel in kernels:
                _warm(make(kernel.name, ()))
            setup = SETTINGS.clock() - t0 - (compiling.cpu_seconds() - cpu)
            loaded = compiling.seconds() - warming
            compiled = compiling.compiled_seconds() - compiling_before
        t0 = SETTINGS.clock()
        samples += walker.sample(kernels, logs, make)
        tries += 1
        spent += SETTINGS.clock() - t0
    ranked = sorted(logs, key=logs.get)
    winner = ranked[0]
    said = None
    behind = logs[leader.name] - logs[winner] if leader.name in logs else math.inf
    if behind < samples * math.log(SETTINGS.switch):
        winner = leader.name  # not enough faster to start afresh
    elif leader.name in logs and _finish_first(probe, logs, samples, leader.name, winner):
        faster = math.exp(behind / samples)
        said = f"{winner} {faster:.2f} times faster on {plural(samples, 'sample')}, but"
        said += f" {leader.name} ends first going on (left {_seconds(probe.estimate())})"
        winner = leader.name
    rival = None
    if winner != leader.name and probe.search.memo is not None:  # memos unseen by samples
        rival = Probe(winner, make(winner), probe.limit)
        budget = _confirm_budget(probe, logs, samples, leader.name, winner, rival.search.memo)
        if budget <= 0:
            rival = None  # the samples decide: the winner starts afresh
        elif not _confirm(probe, rival, budget):
            said = f"{winner} fastest on {plural(samples, 'sample')}, but not with the memos:"
            said += f" probes estimate {_seconds(rival.total())} for it, {_seconds(probe.total())}"
            winner = leader.name
    if said is None and samples == 0:
        said = "no sample counted"
    elif said is None:
        first = logs[winner]
        times = ", ".join(f"{n} {math.exp((logs[n] - first) / samples):.2f}" for n in ranked)
        said = f"{winner} fastest on {plural(samples, 'sample')} (times to its: {times}"
        said += f"; out: {', '.join(out)})" if out else ")"
    costs = f"set-up {_ms(setup)}, samples {_ms(spent)}, its probe {_ms(probe.cpu)}"
    if compiled > 0:
        costs += f"; compiling the others {_seconds(compiled)}, apart"
    elif loaded >= 0.05:
        costs += f"; loading the others {_seconds(loaded)}, apart"
    reason = f"auto: {leader.name} {why}; {said} ({costs})"
    if winner == leader.name:
        return Choice(winner, reason, probe.search)
    return Choice(winner, reason, None if rival is None else rival.search)


def _within(probe: Probe, why: str, said: str = "no sample") -> Choice:
    """The leader, which ended the count within its probe (``why``: why it led;
    ``said``: the samples taken meanwhile)."""
    said = f"finished within its probe, {_ms(probe.cpu)} ({said})"
    return Choice(probe.name, f"auto: {probe.name} {why}; {said}", probe.search)


def _confirm_budget(probe: Probe, logs, samples, leader, winner, memo=True) -> float:
    """CPU seconds that each of the leader and the samples' winner may run to confirm a
    count with memos (``_confirm``): ``ratio`` of the winner's estimated count (the
    leader's estimate over how much faster the winner was on the samples), at most
    ``confirm``; 0 (no confirmation: the samples decide) when that is under
    ``confirm_min``, where estimates read so early are too rough to overrule them (a
    memo's first hits are its cheapest: on the preprocessed pentominoes 8x8 + O the
    bitset kernel's estimate after 5 ms was 0.9 s, its count 25 s). A winner whose count
    has no memo (``memo`` None) is always confirmed, ``confirm_min`` at least: the
    leader's memo may gain without bound (the bitset kernel's on a 2x95 strip of
    dominoes, 1,752 nodes, against mcc's F(96) leaves; their samples within 1.3 times,
    either way on a busy machine)."""
    total, least = probe.total(), (0.0 if memo is not None else SETTINGS.confirm_min)
    if winner == leader or not samples or not math.isfinite(total):
        return least
    behind = logs[leader] - logs[winner] if leader in logs else math.log(SETTINGS.margin)
    faster = math.exp(behind / samples)  # (out of the race: at least ``margin`` in all)
    budget = min(SETTINGS.ratio * total / faster, SETTINGS.confirm)
    return budget if budget >= SETTINGS.confirm_min else least


def _confirm(probe: Probe, rival: Probe, budget: float) -> bool:
    """Whether ``rival`` (the samples' winner, its search made as the count's, its memo
    and all) runs the count rather than the leader (``probe``): both run as much work
    (CPU seconds after their first step), from the leader's so far (at least
    ``confirm_min``), doubling to ``budget`` at most, until one's estimate of its whole
    count is ``decisive`` times the other's; the rival then wins unless the leader's
    estimate is ``overturn`` times lower (a memo's savings, which the samples do not
    see, must be clear: estimates read this early are rough, and a tie follows the
    samples). A step that overshoots past twice ``budget`` ends the confirmation: the
    rival wins (its catching up would cost more than the confirmation may).
    Estimates are compared at equal work: early ones grow with the work done (the first
    subtrees of a memo count are its dearest), and a step can overshoot its target (its
    cost per node taken from cheaper first nodes), so the one behind catches up first
    (else the one ahead looks dearer: on pentominoes 8x8 + O that was decisive, the
    wrong way)."""
    rival.advance(SETTINGS.first_slice)  # its first step: set-up (loading, the memo's table)
    at = min(max(probe.work(), SETTINGS.confirm_min), budget)
    while True:
        for one in (probe, rival):  # (once the leader has ended, it has won: no more)
            one.advance(0.0 if probe.finished else at - one.work())
        even = max(probe.work(), rival.work())  # the one behind catches up
        if even > 2 * budget and not (probe.finished or rival.finished):
            return True
        for one in (probe, rival):
            one.advance(0.0 if probe.finished else even - one.work())
        if probe.finished or rival.finished:
            return not probe.finished
        ours, theirs = probe.total(), rival.total()
        if at >= budget or max(ours, theirs) >= SETTINGS.decisive * min(ours, theirs):
            return theirs < SETTINGS.overturn * ours
        at = min(2 * at, budget)


def _finish_first(probe: Probe, logs: dict, samples: int, leader: str, winner: str) -> bool:
    """Whether the leader, still in the race, going on ends its count before ``winner``
    would from the start: ``bias`` times the leader's estimate of what is left of its
    count under the winner's estimated time for all of it (the leader's, divided by how
    much faster the winner was on the samples)."""
    left = SETTINGS.bias * probe.estimate()
    if not samples or not math.isfinite(left):
        return False
    faster = math.exp((logs[leader] - logs[winner]) / samples)
    return left < (probe.cpu + left) / faster


def _pay(probe: Probe, need: float, small: float = 0.0) -> bool:
    """Run the leader's probe until its CPU seconds after its first step reach ``need``,
    or its estimate of its count ``over`` times that once it has run ``trust`` seconds
    (slices doubling from ``first_slice``); on to ``late`` times ``need`` while its
    estimate of what is left is under ``small`` (a sample could not pay for itself).
    True when it has finished."""
    while not probe.finished:
        run = probe.work()  # its first step (set-up, maybe compiling) not counted
        left = probe.estimate() if run >= SETTINGS.trust else None  # None: not trusted yet
        if left is not None and left < small and run < SETTINGS.late * need:
            slice_ = max(SETTINGS.first_slice, min(left, run))  # to its end, if it is right
        elif run < need and (left is None or left < SETTINGS.over * need):
            slice_ = min(need - run, max(SETTINGS.first_slice, run))
            if left is None:  # to ``trust``, where its estimate is first asked (nothing
                # is decided before: slices would only add kernel calls, each ~20 us)
                slice_ = min(need - run, max(SETTINGS.first_slice, SETTINGS.trust - run))
        else:
            break
        probe.advance(slice_)
    return probe.finished


def _ms(seconds: float) -> str:
    """Milliseconds, briefly."""
    return f"{seconds * 1e3:.1f} ms"


def _warm(search) -> None:
    """One node of ``search``: its kernel's specialisation for it loaded."""
    search.node_limit = 1
    search.run()


def _subtree(search, cap: float) -> tuple[float, bool]:
    """CPU seconds of ``search`` run to its end, or to about ``cap`` seconds (then
    False)."""
    budget = 500
    t0 = SETTINGS.clock()
    while not search.done:
        search.node_limit = search.nodes + budget
        search.run()
        search.stopped_by = None
        spent = SETTINGS.clock() - t0
        if spent >= cap:
            return spent, False
        rate = search.nodes / max(spent, 1e-6)
        budget = int(min(2 * budget, rate * (cap - spent))) + 1
    return SETTINGS.clock() - t0, True


class Walker:
    """Random paths of a problem's search, for samples (see the module): the options as
    compressed rows (``dlx.Problem.entries``), each step taking one of the options of
    the primary item with the fewest live ones, at random."""

    def __init__(self, entries, forced):
        self.option = entries.option
        self.item = entries.item
        self.colour = entries.colour
        self.n_primary = len(entries.lo)
        self.n_items = self.n_primary + entries.n_secondary
        self.n_options = int(entries.option[-1]) + 1 if len(entries.option) else 0
        self.forced = [int(k) for k in forced]
        self.rng = random.Random(SETTINGS.seed)
        self.start = np.searchsorted(self.option, np.arange(self.n_options + 1))  # rows
        order = np.argsort(self.item, kind="stable")  # the entries again, item by item
        self.by_item = self.option[order]
        self.by_item_colour = self.colour[order]
        self.item_start = np.searchsorted(self.item[order], np.arange(self.n_items + 2))
        self.primary = self.item <= self.n_primary  # the entries on primary items
        self.lo = np.zeros(self.n_items + 1, np.int64)  # by item number (secondary: 0)
        self.lo[1 : self.n_primary + 1] = entries.lo
        self.hi = np.concatenate(([0], entries.hi)).astype(np.int64)

    @classmethod
    def of(cls, problem, forced=()) -> Walker:
        """The walker of ``problem`` (``forced``: the options every path starts with)."""
        return cls(problem.layout_of(type(problem).entries), forced)  # kept: no copy

    def path(self) -> tuple[list[int], list[int]]:
        """A random path from the forced options to a solution or a dead end: its
        options after the forced ones, and the number of live options of the item
        branched on at each step. Each step takes, of that item's options in random
        order, the first after which every open item still has one (else the last):
        paths that die at once would give only tiny subtrees, each a jump from the
        next."""
        claim = np.full(self.n_items + 1, -1, np.int64)  # -1: free
        live = np.ones(self.n_options, bool)
        chosen: list[int] = []
        degrees: list[int] = []
        for k in self.forced:
            self._take(k, claim, live)
        choices = self._choices(claim, live)
        while choices is not None and len(choices):
            for k in self.rng.sample(choices.tolist(), len(choices)):
                after = (claim.copy(), live.copy())
                self._take(k, *after)
                following = self._choices(*after)
                if following is None or len(following):
                    break
            chosen.append(k)
            degrees.append(len(choices))
            (claim, live), choices = after, following
        return chosen, degrees

    def _choices(self, claim, live):
        """The live options of the open primary item (covered fewer than ``lo`` times)
        with the fewest (an empty array: an item has none, a dead end; None: no open
        item, a solution)."""
        counts = np.bincount(
            self.item[self.primary & live[self.option]], minlength=self.n_primary + 1
        )
        open_items = np.flatnonzero(claim + 1 < self.lo)
        if len(open_items) == 0:
            return None
        best = open_items[np.argmin(counts[open_items])]
        return self.option[(self.item == best) & live[self.option]]

    def _take(self, k: int, claim, live) -> None:
        """Choose option ``k``: claim its items (a primary item's ``claim``: its covers less
        one; a secondary item's: 0 for itself, else its colour) and kill ``k`` and the options
        that now conflict (on a primary item covered ``hi`` times, one held, without its colour)."""
        rows = slice(self.start[k], self.start[k + 1])
        live[k] = False
        for item, colour in zip(self.item[rows].tolist(), self.colour[rows].tolist(), strict=True):
            if item <= self.n_primary:
                claim[item] += 1
                if claim[item] + 1 < self.hi[item]:  # room for more
                    continue
            else:
                claim[item] = colour
            at = slice(self.item_start[item], self.item_start[item + 1])
            clash = self.by_item[at]
            live[clash if colour <= 0 else clash[self.by_item_colour[at] != colour]] = False

    def sample(self, kernels: list[Kernel], logs: dict, make: Callable) -> int:
        """Time one sample with every kernel (its searches from ``make``, as for
        ``choose``), adding the log of each time to ``logs``.
        The best kernel so far cuts it: along a random path, from its end up, the first
        subtree it counts in ``sample_low`` seconds or more (but within ``sample_max``:
        else the one below); the others stop at ``cap`` times its time (a capped time
        counts as it is). 1 when it counts (its time at least ``sample_low / 4``), else
        0 (``logs`` unchanged)."""
        chosen, _ = self.path()
        first, *others = sorted(kernels, key=lambda k: logs[k.name])
        depth, seconds = len(chosen), 0.0
        while depth > 0 and seconds < SETTINGS.sample_low:
            search = make(first.name, tuple(chosen[: depth - 1]))
            more, done = _subtree(search, SETTINGS.sample_max)
            if not done and seconds < SETTINGS.sample_low / 4:  # from too small to too big: the
                extra, done = _subtree(search, SETTINGS.sample_big - more)  # big one, if not huge
                more += extra
            if not done:
                break
            depth, seconds = depth - 1, more
        if seconds < SETTINGS.sample_low / 4:
            return 0
        logs[first.name] += math.log(seconds)
        cut = tuple(chosen[:depth])
        for kernel in others:
            taken, _ = _subtree(make(kernel.name, cut), SETTINGS.cap * seconds)
            logs[kernel.name] += math.log(taken)
        return 1
