"""``engine="auto"`` (``dlx.driver.choose``): it picks by measuring, gives the counts of every
kernel, never picks one that refuses the problem, and says what it ran and why; and the
board of the 25 one-sided tetrasticks on the order-5 Aztec diamond."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import threading
import time
from collections import Counter
from pathlib import Path

import hypothesis
import numpy as np
import pytest
from test_polyform import check_tiling

import dlx
from dlx import compiling, engines
from dlx.cli import main as dlx_main
from dlx.driver import choose
from dlx.driver.lineup import Kernel, Lineup, line_up
from dlx.kernels.bitset import layout as bitset_layout
from dlx.kernels.sudoku import partial
from dlx.verify import naive_solutions
from puzzles.cli import main as puzzles_main
from puzzles.lattices import LATTICES
from puzzles.polyform import tiling
from tests.shared import examples
from tests.strategies import problems

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
KERNELS = [name for name in dlx.ENGINE_CHOICES if name != "auto"]


def takers(problem) -> list[str]:
    """The kernels that take ``problem`` (by their registry rows)."""
    return [n for n in KERNELS if (engines.ENGINES[n].refuses or (lambda p: None))(problem) is None]


def counted_by_all(problem, **options) -> int:
    """The count of ``problem`` by ``auto``, asserted equal to each kernel's that takes it;
    the chosen kernel is one of those."""
    result = dlx.count(problem, engine="auto", **options)
    chosen = result.stats.engine.split(" ")[0]
    sudoku = ["sudoku"] if partial.embed(problem) is not None else []  # a partial sudoku
    assert chosen in takers(problem) + sudoku, result.stats.engine
    for name in takers(problem):
        assert dlx.count(problem, engine=name, **options).solutions == result.solutions, name
    return result.solutions


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pent3x20_sym", 2),  # data/dlx/EXPECTED.tsv
        ("pent4x15_sym", 368),
        ("scott_sym", 65),
        ("sudoku_eastermonster", 1),
        ("sudokuk_goldennugget", 1),
    ],
)
def test_auto_counts_the_shipped_files_as_every_kernel_does(name, expected):
    assert counted_by_all(dlx.read(DATA / "dlx" / f"{name}.dlx")) == expected


@pytest.mark.parametrize(
    ("board", "pieces", "expected"),
    [
        ("sticks_clipped1.txt", "polysticks:1-3", 21),  # data/polyform/SOURCES.md
        ("sticks_clipped2.txt", "polysticks:1-3", 132),
        ("hexiamonds_trapezoid4x11.txt", "hexiamonds", 76),
    ],
)
def test_auto_counts_the_shipped_boards_as_every_kernel_does(board, pieces, expected):
    puzzle = tiling.make_puzzle(str(DATA / "polyform" / board), pieces)
    plan = tiling.plan_symmetry(puzzle, fallback=True)
    assert not plan.filter  # the restricted count is the distinct count
    assert counted_by_all(tiling.build(puzzle, plan)) == expected


def test_auto_with_limits_and_forced_options_counts_as_the_kernels_do():
    problem = dlx.read(DATA / "dlx" / "pent6x10_sym.dlx")
    for limit in (1, 7, 100):
        assert counted_by_all(problem, limit=limit) == limit
    first = dlx.first(problem, engine="dlx")
    assert counted_by_all(problem, forced=first.options[:3]) >= 1
    assert dlx.count(problem, engine="auto", node_limit=50).complete is False


def coloured() -> dlx.Problem:
    """Two solutions; the secondary item's colours: the bitset kernel takes none."""
    p = dlx.Problem(primary=["a", "b"], secondary=["x"])
    for option in (["a", "x:r"], ["b", "x:r"], ["a", "b", "x:g"], ["b", "x:g"]):
        p.add_option(option)
    return p


def test_auto_never_picks_a_kernel_that_refuses_the_problem():
    p = coloured()
    assert "bitset" in KERNELS and "bitset" not in takers(p)
    result = dlx.count(p, engine="auto")
    assert result.solutions == 2
    picked = result.stats.engine.split()[0]
    assert picked in takers(p) and picked != "bitset", result.stats.engine
    assert "(auto" in result.stats.engine
    stream = dlx.solutions(p, engine="auto")
    found = list(stream)
    for s in found:
        dlx.check(p, s.options)
    assert len(found) == 2 and stream.stats.engine.split()[0] in takers(p)
    ruled = dlx.read(DATA / "dlx" / "pent3x20_sym.dlx")
    result = dlx.count(ruled, propagate="domination", engine="auto")
    assert result.solutions == 2 and result.stats.engine.startswith("dlx (auto: the only")


def test_a_probe_that_finishes_wins_and_is_continued():
    """A tiny count (a flat tiling: two kernels take it) ends inside its first probe:
    that kernel runs it, no work twice."""
    p = dlx.read(DATA / "dlx" / "pent3x20_sym.dlx")
    assert len(takers(p)) > 1
    choice = engines.select("auto", p, limit=None, memo=False)
    assert choice.search is not None and choice.search.done
    assert choice.name in takers(p) and "finished within its probe" in choice.reason
    assert choice.search.solutions == 2 == dlx.count(p).solutions


def test_a_count_that_ends_in_the_first_slice_sets_up_no_race(monkeypatch):
    """A small count (here 2 of 3 one-item options, 3 nodes) ends in the leader's first
    slice: no race is set up; tight, which leads every problem it takes, probes before
    the line-up is asked, so no row is asked at all; where the line-up is asked (a
    stream's choice), its kernels' rows are asked once per problem, not at each call (a
    count of a few hundred nodes takes about 0.1 ms: ``auto`` would cost it a fifth
    more); the facts kept pickle with the problem, for workers."""
    p = dlx.Problem(primary=["a", "b"])
    for option in (["a"], ["b"], ["a", "b"]):
        p.add_option(option)
    q = pickle.loads(pickle.dumps(p))  # raced below by the rows as they are
    asked = Counter()
    rows = dict(engines.ENGINES)
    for name, row in rows.items():

        def refuses(problem, name=name, row=row):
            asked[name] += 1
            return row.refuses(problem)

        monkeypatch.setitem(engines.ENGINES, name, row._replace(refuses=refuses))

    def no_race(*args):
        raise AssertionError("the race was set up")

    monkeypatch.setattr(choose, "_race", no_race)
    for _ in range(3):
        result = dlx.count(p)
        assert result.solutions == 2 and "(auto: " in result.stats.engine
    assert asked == Counter()
    for _ in range(3):
        assert len(list(dlx.solutions(p))) == 2
    assert asked == Counter(dict.fromkeys(rows, 1))
    monkeypatch.undo()
    assert dlx.count(q).solutions == 2
    assert dlx.count(pickle.loads(pickle.dumps(q))).solutions == 2


def test_mcc_probes_a_small_count_with_multiplicities_before_the_line_up(monkeypatch):
    """A problem with multiplicities that the bitset kernel takes but that is no flat
    tiling (mcc leads it): a small count ends within mcc's first slice, which starts
    before the line-up is asked, so that no registry row is asked (as tight's probe of
    a problem it takes); the count is every kernel's."""

    def made() -> dlx.Problem:
        p = dlx.Problem(primary=["a", "x", "y", "z"], bounds={"a": (1, 2)})
        for option in (["a", "x"], ["a", "y"], ["x", "y"], ["z"], ["a", "z"], ["y", "z"]):
            p.add_option(option)
        return p

    assert [k.name for k in engines._lineup(made()).takers] == ["mcc", "bitset"]
    for kernel in ("mcc", "bitset"):  # in numba's cache, as ``_mcc_first`` asks, whatever
        assert dlx.count(made(), engine=kernel).solutions == 3  # ran before this test
    asked = Counter()
    for name, row in dict(engines.ENGINES).items():

        def refuses(problem, name=name, row=row):
            asked[name] += 1
            return row.refuses(problem)

        monkeypatch.setitem(engines.ENGINES, name, row._replace(refuses=refuses))
    result = dlx.count(made())
    assert result.solutions == 3 and asked == Counter(), asked  # by hand: {a x, a y, z},
    assert result.stats.engine.startswith("mcc (auto: mcc suits its shape; finished within")
    monkeypatch.undo()  # {a x, y z}, {x y, a z}
    assert counted_by_all(made()) == 3


def test_a_row_without_refuses_is_asked_by_making_its_search(monkeypatch):
    """A registry row that says nothing about what it refuses: ``auto`` makes its
    search, and a kernel whose search will not take the problem is out (bitset, on
    colours), with its own words."""
    row = engines.ENGINES["bitset"]
    monkeypatch.setitem(engines.ENGINES, "bitset", row._replace(refuses=None))
    p = coloured()
    lineup = engines._lineup(p)
    assert "bitset" not in [k.name for k in lineup.takers]
    assert row.refuses(p) in dict(lineup.refused)["bitset"]
    result = dlx.count(p)
    assert result.solutions == 2 and not result.stats.engine.startswith("bitset")


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs a second core to burn")
def test_the_race_clock_counts_this_thread_only():
    """The race times its kernels by this thread's CPU time: a thread burning a core
    beside it (OpenBLAS's workers spin so after a matrix product, made while building a
    problem) would make every kernel look twice as slow by the process's, and tip the
    probes' comparison (8x8 + O went to bitset so)."""
    stop = threading.Event()
    data = bytes(1 << 22)

    def burn():  # sha256 of a large buffer releases the GIL: CPU time beside ours
        while not stop.is_set():
            hashlib.sha256(data).digest()

    burner = threading.Thread(target=burn)
    burner.start()
    try:
        start, wall = choose.SETTINGS.clock(), time.perf_counter()
        while time.perf_counter() - wall < 0.3:
            pass
        spent, wall = choose.SETTINGS.clock() - start, time.perf_counter() - wall
    finally:
        stop.set()
        burner.join()
    assert spent <= wall + 0.02, (spent, wall)


def lined_up(problem, **suits: bool) -> Lineup:
    """Kernels that take ``problem``, lined up: ``suits[name]`` says whether the problem
    looks like kernel ``name``'s kind."""
    kernels = [Kernel(name, lambda _: None, lambda _, s=s: s) for name, s in suits.items()]
    return line_up(problem, kernels)


def test_a_count_that_ends_within_the_probe_makes_only_the_leader():
    """A small count ends within the leader's probe (the first kernel whose ``suits``
    says yes): no other kernel is made (nor compiled)."""
    p = dlx.read(DATA / "dlx" / "pent3x20_sym.dlx")
    made = Counter()

    def make(name: str, extra=None):
        made[name] += 1
        return engines.ENGINES[name].search(p)

    choice = choose.choose(p, lined_up(p, dlx=False, bitset=True), make)
    assert choice.name == "bitset" and made == Counter({"bitset": 1})
    assert "bitset suits its shape; finished within its probe" in choice.reason
    assert choice.search.run() is not None  # the probe goes on to the end
    while not choice.search.done:
        choice.search.run()
    assert choice.search.solutions == 2


def test_a_slow_first_step_calls_in_no_other_kernel():
    """The leader's first step pays for setting up (numba may compile there, as in a
    fresh clone's CI): its clock and estimate start after it, so a 2-solution board whose
    first step burns 50 ms makes no other kernel."""
    p = dlx.read(DATA / "dlx" / "pent3x20_sym.dlx")
    made = Counter()

    def make(name: str, extra=None):
        made[name] += 1
        search = engines.ENGINES[name].search(p)
        run = search.run

        def slow_first(*args, **kwargs):
            if made[name] == 1:
                made[name] += 1
                start = time.thread_time()
                while time.thread_time() - start < 0.05:
                    pass
            return run(*args, **kwargs)

        search.run = slow_first
        return search

    choice = choose.choose(p, lined_up(p, dlx=False, bitset=True), make)
    assert choice.name == "bitset" and set(made) == {"bitset"}
    assert "finished within its probe" in choice.reason
    assert choice.search.solutions == 2


def test_walker_paths_are_partial_solutions_and_full_ones_check():
    """The samples' random paths (``choose.Walker``) take options that agree (no primary
    item twice, one colour per secondary item, an uncoloured one once), after the
    forced ones; a path that covers every primary item is a solution (``dlx.check``)."""
    problem = dlx.read(DATA / "dlx" / "pent6x10_sym.dlx")
    forced = list(dlx.first(problem, engine="dlx").options[:2])
    xcc = coloured()
    for p, given in ((problem, forced), (xcc, ()), (problem, ())):
        walker = choose.Walker.of(p, given)
        for _ in range(20):
            chosen, degrees = walker.path()
            assert len(degrees) == len(chosen) and all(d >= 1 for d in degrees)
            held: dict = {}
            for k in [*given, *chosen]:
                for item, colour in p.option_entries(k):
                    kind = p.item_kind(item)
                    assert item not in held or (kind == "secondary" and colour is not None)
                    assert held.get(item, colour) == colour
                    held[item] = colour
            if all(name in held for name in p.primary):
                dlx.check(p, [*given, *chosen])


def test_walker_paths_end_in_a_dead_end_only_where_every_option_does():
    """A path's step avoids an option after which an open item has none: a path that
    ends short of a solution ends where each option of its last branch does so."""
    problem = dlx.read(DATA / "dlx" / "pent6x10_sym.dlx")
    walker = choose.Walker.of(problem)
    dead = 0
    for _ in range(30):
        chosen, degrees = walker.path()
        claim = np.full(walker.n_items + 1, -1, np.int64)
        live = np.ones(walker.n_options, bool)
        for k in chosen[:-1]:
            walker._take(k, claim, live)
        last = walker._choices(claim, live)
        assert len(last) == degrees[-1] and chosen[-1] in last
        after = []
        for k in last:
            state = (claim.copy(), live.copy())
            walker._take(int(k), *state)
            after.append(walker._choices(*state))
        if not any(a is None for a in after):  # not a solution: each option dies at once
            ended = after[list(last).index(chosen[-1])]
            if len(ended) == 0:
                dead += 1
                assert all(len(a) == 0 for a in after)
    assert dead > 0  # (the rule was put to the test)


def _walked(walker, path) -> tuple[np.ndarray, np.ndarray]:
    """The walker's state (``claim``, ``live``) after the options of ``path``."""
    claim = np.full(walker.n_items + 1, -1, np.int64)
    live = np.ones(walker.n_options, bool)
    for k in path:
        walker._take(int(k), claim, live)
    return claim, live


@hypothesis.settings(max_examples=examples(60), deadline=None)
@hypothesis.given(problems(max_options=10))
def test_walker_paths_with_bounds_cover_no_item_beyond_them_and_count_alike(p):
    """On a problem with multiplicities a path's options cover no primary item more
    than its ``hi`` (a secondary item: one colour, an uncoloured one once); a path that
    leaves no item under its ``lo`` is a solution (the naive solver's); and every kernel
    that takes it counts the solutions below a path (its options forced) as the naive
    solver does: the samples' subtrees are the same work for each."""
    expected = naive_solutions(p)
    walker = choose.Walker.of(p)
    for _ in range(3):
        chosen, degrees = walker.path()
        assert len(set(chosen)) == len(chosen) == len(degrees)
        covers: Counter = Counter()
        held: dict = {}
        for k in chosen:
            for item, colour in p.option_entries(k):
                if p.item_kind(item) == "primary":
                    covers[item] += 1
                    assert covers[item] <= p.bounds(item)[1]
                else:
                    assert item not in held or (colour is not None and held[item] == colour)
                    held[item] = colour
        if walker._choices(*_walked(walker, chosen)) is None:
            assert frozenset(chosen) in expected
        below = sum(1 for s in expected if s >= set(chosen))
        for engine in KERNELS:
            try:
                found = dlx.count(p, engine=engine, forced=chosen).solutions
            except (ValueError, dlx.ProblemError):
                continue  # a kernel that refuses the problem
            assert found == below, engine


def test_a_problem_with_multiplicities_is_sampled_and_the_faster_wins(monkeypatch):
    """Dominoes of two colours on a 2x21 box (multiplicities; the bitset kernel leads,
    made for tilings): the samples are taken as on any problem, and the mcc kernel wins
    where it is the faster on them, the leader where it is; the count is every
    kernel's (by hand: 10,946 tilings of a 2x21 box, Fibonacci's F(22), times the
    C(21, 10) = 352,716 ways to colour its dominoes is far more than the limit)."""
    monkeypatch.setattr(choose, "SETTINGS", no_waiting())
    monkeypatch.setattr(choose, "_subtree", lambda search, cap: (SAMPLE[search.fake], True))
    problem = _two_colour_dominoes()

    def make(name: str, extra=None):
        search = engines.ENGINES[name].search(problem, forced=extra or ())
        search.fake = name
        return search

    lineup = engines._lineup(problem)
    assert [k.name for k in lineup.takers] == ["bitset", "mcc"]
    SAMPLE.update(bitset=0.004, mcc=0.001)
    choice = choose.choose(problem, lineup, make)
    assert choice.name == "mcc" and "mcc fastest on 1 sample" in choice.reason, choice.reason
    SAMPLE.update(bitset=0.001, mcc=0.004)
    choice = choose.choose(problem, lineup, make)
    assert choice.name == "bitset" and "bitset fastest on" in choice.reason, choice.reason
    monkeypatch.undo()
    assert counted_by_all(problem, limit=500) == 500


def fake_race(times: dict, leader: str = "bitset", memo: bool = False):
    """A race of the kernels of ``times`` on a 6x10 count whose samples take
    ``times[name]`` seconds for kernel ``name`` (``choose._subtree`` replaced: the rule,
    not the clock, is tested); the leader suits the problem."""
    problem = dlx.read(DATA / "dlx" / "pent6x10_sym.dlx")

    def make(name: str, extra=None):
        row = engines.ENGINES[name]
        with_memo = row.memo(problem) if memo and extra is None else None
        search = row.search(problem, forced=extra or (), memo=with_memo)
        search.fake = name
        return search

    def kernel(name: str) -> Kernel:
        suits = (lambda _: True) if name == leader else None
        return Kernel(name, lambda _: None, suits)

    return choose.choose(problem, line_up(problem, [kernel(n) for n in times]), make)


def test_compiling_a_kernel_for_the_race_changes_nothing_but_says_so(monkeypatch):
    """A kernel that must be compiled for the race (here: a fake compile of 2 s when it
    is first made) is raced as a compiled one is: the same winner; the compile is kept
    out of the samples and the set-up, and ``--stats``' reason gives it."""
    monkeypatch.setattr(choose, "SETTINGS", no_waiting())
    monkeypatch.setattr(choose, "_subtree", lambda search, cap: (SAMPLE[search.fake], True))
    SAMPLE.update(bitset=0.004, tight=0.001, dlx=0.009)
    warm = fake_race(SAMPLE)
    made = engines.ENGINES["tight"].search
    first = []

    def compiled_first(*args, **kwargs):
        if not first:
            first.append(1)
            compiling._spent[0] += 2.0  # as compiling.warm counts a compile
            compiling._compiled[0] += 2.0
        return made(*args, **kwargs)

    monkeypatch.setitem(
        engines.ENGINES, "tight", engines.ENGINES["tight"]._replace(search=compiled_first)
    )
    monkeypatch.setattr(compiling, "_spent", [0.0])
    monkeypatch.setattr(compiling, "_compiled", [0.0])
    cold = fake_race(SAMPLE)
    assert cold.name == warm.name == "tight"
    assert "compiling the others 2 s, apart" in cold.reason, cold.reason
    assert "compiling" not in warm.reason


def test_the_samples_pick_the_fastest_kernel_and_say_so(monkeypatch):
    """With sample times fixed, ``auto`` runs the kernel fastest on the samples: the
    leader (its probe handed back) or another (made afresh); the slow ones are out."""
    monkeypatch.setattr(choose, "SETTINGS", no_waiting())
    monkeypatch.setattr(choose, "_subtree", lambda search, cap: (SAMPLE[search.fake], True))
    SAMPLE.update(bitset=0.004, tight=0.001, dlx=0.009)
    choice = fake_race(SAMPLE)
    assert choice.name == "tight" and choice.search is None, choice.reason
    assert "tight fastest on 1 sample " in choice.reason and "out: " in choice.reason
    SAMPLE.update(bitset=0.001, tight=0.0015, dlx=0.009)
    choice = fake_race(SAMPLE)
    assert choice.name == "bitset" and choice.search is not None, choice.reason
    assert not choice.search.done  # the leader's probe, to be continued by the count
    SAMPLE.update(bitset=0.001, tight=0.00095, dlx=0.009)  # not ``switch`` times faster
    assert fake_race(SAMPLE).name == "bitset"


def test_a_leader_near_its_end_is_kept_unless_it_is_out(monkeypatch):
    """A leader whose probe says little is left goes on (``_finish_first``), but not
    once the samples have put it out of the race (``margin`` times behind)."""
    monkeypatch.setattr(choose, "SETTINGS", no_waiting())
    monkeypatch.setattr(choose, "_subtree", lambda search, cap: (SAMPLE[search.fake], True))
    monkeypatch.setattr(choose, "_pay", lambda probe, need, small: probe.advance(0.002))
    monkeypatch.setattr(choose.Probe, "estimate", lambda self: 1e-7)
    SAMPLE.update(bitset=0.00111, tight=0.001)  # ``switch`` times slower, in the race: kept
    choice = fake_race(SAMPLE)
    assert choice.name == "bitset" and "ends first going on" in choice.reason, choice.reason
    SAMPLE.update(bitset=0.004, tight=0.001)  # out: not kept, whatever its estimate
    choice = fake_race(SAMPLE)
    assert choice.name == "tight" and "out: bitset" in choice.reason, choice.reason


def test_with_memos_the_probes_confirm_the_samples_winner(monkeypatch):
    """Samples count without memos: on a count that takes one, the samples' winner runs
    as the count would, as long as the leader, and runs it unless the leader's estimate
    of the whole count is clearly lower (``overturn`` times); then its search is handed
    back, to be continued. (Confirmed in ``confirm_min`` seconds: the leader does not
    end its count meanwhile.)"""
    least = choose.SETTINGS.confirm_min
    monkeypatch.setattr(choose, "SETTINGS", dataclasses.replace(no_waiting(), confirm=least))
    monkeypatch.setattr(choose, "_subtree", lambda search, cap: (SAMPLE[search.fake], True))
    SAMPLE.update(bitset=0.004, tight=0.001)  # tight 4 times faster on the samples
    monkeypatch.setattr(
        choose.Probe, "total", lambda self: {"bitset": 1.0, "tight": 2.0}[self.name]
    )
    choice = fake_race(SAMPLE, memo=True)
    assert choice.name == "bitset" and "not with the memos" in choice.reason, choice.reason
    assert choice.search is not None and choice.search.memo is not None
    monkeypatch.setattr(
        choose.Probe, "total", lambda self: {"bitset": 2.0, "tight": 1.0}[self.name]
    )
    choice = fake_race(SAMPLE, memo=True)
    assert choice.name == "tight" and choice.search is not None  # its probe, continued
    assert choice.search.nodes > 0 and not choice.search.done
    close = 1 / (choose.SETTINGS.overturn + 1) + 0.5  # the leader's estimate a little lower: a tie,
    monkeypatch.setattr(  # which does not overrule the samples
        choose.Probe, "total", lambda self: {"bitset": close, "tight": 1.0}[self.name]
    )
    assert 1 / choose.SETTINGS.overturn < close < 1 and choose.SETTINGS.decisive > 1 / close
    assert fake_race(SAMPLE, memo=True).name == "tight"
    choice = fake_race(SAMPLE)  # no memo: the samples decide, the winner starts afresh
    assert choice.name == "tight" and choice.search is None


def test_a_confirmation_costs_a_share_of_the_estimated_count(monkeypatch):
    """With memos, the samples' winner is confirmed by the probes only where ``ratio`` of
    its estimated count (the leader's estimate over how much faster it was on the
    samples) is at least ``confirm_min`` seconds: a smaller count follows the samples
    (early estimates are too rough to overrule them, and a confirmation would cost more
    than the count); a larger one is confirmed for at most ``confirm`` seconds."""
    settings = choose.SETTINGS
    monkeypatch.setattr(choose, "SETTINGS", dataclasses.replace(settings, ratio=0.1))
    logs = {"bitset": np.log(0.004), "tight": np.log(0.001)}  # tight 4 times faster
    cases = {0.5: 0.0, 4.0: 0.1, 400.0: settings.confirm}  # leader's estimate: budget
    for total, budget in cases.items():
        monkeypatch.setattr(choose.Probe, "total", lambda self, total=total: total)
        probe = choose.Probe.__new__(choose.Probe)
        got = choose._confirm_budget(probe, logs, 1, "bitset", "tight")
        assert got == pytest.approx(min(budget, settings.confirm)), (total, got)
    assert choose._confirm_budget(probe, logs, 0, "bitset", "tight") == 0.0  # no sample
    assert choose._confirm_budget(probe, {"tight": 0.0}, 2, "bitset", "tight") > 0  # out


def test_the_probes_are_compared_at_equal_work(monkeypatch):
    """A probe's step may overshoot its target, and early estimates grow with the work
    done: the confirmation compares the two probes once the one behind has caught up.
    Here the samples' winner (truly 0.9 times the leader's cost) overshoots to twice the
    leader's work at first, which made it look 1.8 times dearer: decisive, the wrong
    way."""
    monkeypatch.setattr(choose, "SETTINGS", no_waiting())
    monkeypatch.setattr(choose, "_subtree", lambda search, cap: (SAMPLE[search.fake], True))
    SAMPLE.update(bitset=0.004, tight=0.001)
    steps = {"bitset": 0, "tight": 0}

    def advance(self, seconds):  # CPU seconds of work, none of it real
        if self.base is None:
            self.base = (0.0, 0)
        if seconds > 0:
            steps[self.name] += 1
            over = 2.0 if self.name == "tight" and steps["tight"] == 2 else 1.0
            self.cpu += seconds * over
        return False

    monkeypatch.setattr(choose.Probe, "advance", advance)
    cost = {"bitset": 10.0, "tight": 9.0}
    monkeypatch.setattr(choose.Probe, "total", lambda self: self.work() * cost[self.name])
    choice = fake_race(SAMPLE, memo=True)
    assert choice.name == "tight" and steps["tight"] > 2, choice.reason


SAMPLE: dict = {}


def no_waiting():
    """The race's settings with no waiting for the leader: samples at once."""
    return dataclasses.replace(choose.SETTINGS, ratio=1e9)


def test_engine_forces_a_kernel_and_stats_say_which_ran_and_why(capsys):
    path = str(DATA / "dlx" / "pent3x20_sym.dlx")
    assert dlx_main(["--count", "--no-progress", "--workers", "1", "--engine", "auto", path]) == 0
    err = capsys.readouterr().err
    assert "engine: " in err and "(auto: " in err
    for name in KERNELS:
        assert dlx_main(["--count", "--no-progress", "--workers", "1", "--engine", name, path]) == 0
        out, err = capsys.readouterr()
        assert out.strip() == "2" and f"engine: {name} (engine='{name}')" in err
    argv = ["polyform", "--board", "3x20", "--pieces", "pentominoes", "--no-progress", "--stats"]
    assert puzzles_main(argv) == 0
    err = capsys.readouterr().err
    assert "engine: " in err and "(auto: " in err
    assert puzzles_main([*argv, "--engine", "dlx"]) == 0
    assert "engine: dlx (engine='dlx')" in capsys.readouterr().err


# -- the 25 one-sided tetrasticks on the Aztec diamond of order 5 -----------------------

AZTEC = str(DATA / "polyform" / "aztec_diamond5.txt")


def test_aztec_diamond_board_builds_as_expected():
    """100 segments (Polyform Puzzler's coordinates_diamond_lattice(5, 5)) for the 25
    one-sided tetrasticks; the diamond's 8 symmetries (each reflection swaps the mirror
    pairs); items: 100 segments and 25 pieces primary, the 40 inner points secondary."""
    puzzle = tiling.make_puzzle(AZTEC, "one-sided-tetrasticks")
    assert len(puzzle.board) == 100 and len(puzzle.pieces) == 25
    assert len(tiling.symmetry_group(puzzle)) == 8
    whole = tiling.build(puzzle)
    assert (len(whole.primary), len(whole.secondary), whole.n_options) == (125, 40, 2945)
    plan = tiling.plan_symmetry(puzzle, fallback=True)
    assert not plan.filter and tiling.build(puzzle, plan).n_options == 2903


def test_aztec_diamond_solution_is_accepted():
    """A solution found by ``--engine dlx`` (``tests/data``), read back from its
    picture: a tiling, and a solution of the exact-cover problem by ``dlx.check``."""
    puzzle = tiling.make_puzzle(AZTEC, "one-sided-tetrasticks")
    name_of = {ch: name for name, ch in tiling.letters(puzzle).items()}
    picture = (ROOT / "tests" / "data" / "aztec_diamond5_solution.txt").read_text()
    cells: dict = {}
    for cell, ch in LATTICES["sticks"].read_picture(picture).items():
        cells.setdefault(name_of[ch], set()).add(cell)
    found = [(name, frozenset(c)) for name, c in cells.items()]
    check_tiling(puzzle, found)
    problem = tiling.build(puzzle)
    option_of = {}
    for k in range(problem.n_options):
        items = problem.option(k)
        option_of[frozenset(i for i in items if i in set(problem.primary))] = k
    chosen = [
        option_of[frozenset([name, *(tiling.cell_item(c) for c in placed)])]
        for name, placed in found
    ]
    dlx.check(problem, chosen)


CROSS = str(DATA / "polyform" / "polyominoes2345_cross.txt")
ORDERS_2_TO_5 = "domino,trominoes,tetrominoes,pentominoes"


def test_the_cross_of_polyominoes_2345_builds_and_its_subtrees_count_alike():
    """Polyform Puzzler's Polyominoes2345X1 (data/polyform/SOURCES.md; 178,355,676
    classes, too many for a test): 88 squares, the 20 polyominoes of orders 2 to 5, the
    board's 8 symmetries; below the first 11 pieces of a solution every kernel counts
    the same, and the solutions streamed there are tilings and exact covers."""
    puzzle = tiling.make_puzzle(CROSS, ORDERS_2_TO_5)
    assert len(puzzle.board) == 88 and len(puzzle.pieces) == 20
    assert sum(piece.size * piece.copies for piece in puzzle.pieces) == 88
    assert len(tiling.symmetry_group(puzzle)) == 8
    problem = tiling.build(puzzle, tiling.plan_symmetry(puzzle, fallback=True))
    forced = list(dlx.first(problem, engine="tight").options[:11])
    n = counted_by_all(problem, forced=forced)
    found = list(dlx.solutions(problem, forced=forced, engine="auto"))
    assert n == len(found) >= 1
    for solution in found:
        dlx.check(problem, solution.options)


def test_auto_goes_on_from_a_checkpoint_with_the_kernel_that_wrote_it(tmp_path):
    """A checkpoint's tasks are paths of one kernel's tree: ``auto`` resumes with that
    kernel, whatever its samples would say (65: data/dlx/EXPECTED.tsv)."""
    problem = dlx.read(DATA / "dlx" / "scott_sym.dlx")
    for name in ("tight", "dlx"):
        path = tmp_path / f"{name}.ckpt"
        options = dlx.Parallel(workers=1, checkpoint=str(path))
        assert dlx.count(problem, parallel=options, engine=name).solutions == 65
        again = dlx.count(problem, parallel=options)
        assert again.solutions == 65 and again.complete
        assert again.stats.engine == f"{name} (auto: the kernel that wrote the checkpoint)"


def test_dancing_links_race_only_where_no_bit_kernel_takes_the_problem():
    """``auto`` neither samples nor compiles dancing links where a bit kernel takes the
    problem (tight was the faster on every such problem of the benchmark suite); with
    multiplicities, which only mcc of the bit kernels takes, mcc is the only one;
    ``--engine dlx`` still runs it."""
    tiling_lineup = engines._lineup(dlx.read(DATA / "dlx" / "pent3x20_sym.dlx"))
    assert "dlx" in dict(tiling_lineup.refused)
    assert [k.name for k in engines._lineup(coloured()).takers] == ["tight"]
    bounded = dlx.Problem(primary=["a", "b"], bounds={"a": (1, 2)})
    for option in (["a"], ["a", "b"], ["b"]):
        bounded.add_option(option)
    assert [k.name for k in engines._lineup(bounded).takers] == ["mcc"]
    assert dlx.count(bounded).stats.engine.startswith("mcc (auto: mcc suits its shape")
    assert engines.select("auto", bounded, kept=False).reason.startswith("auto: the only kernel")
    assert dlx.count(bounded, engine="dlx").solutions == dlx.count(bounded).solutions == 3
    # by hand: {a b}, {a b, a}, {a, b}
    assert dlx.count(coloured(), engine="dlx").solutions == 2


def test_the_bitset_kernel_races_only_on_flat_tilings():
    """Where the tight kernel takes a problem that does not look like a flat tiling
    (polysticks: most options hold a crossing point), ``auto`` neither lays out,
    samples nor compiles the bitset kernel (tight was 1.5 to 17 times faster on every
    such problem of the benchmark suite): it runs tight, with no race to pay for; on a
    flat tiling both race."""
    sticks = tiling.build(tiling.make_puzzle("5x5", "tetrasticks,-H"))
    lineup = engines._lineup(sticks)
    assert [k.name for k in lineup.takers] == ["tight"]
    assert "not a flat tiling" in dict(lineup.refused)["bitset"]
    assert engines.select("bitset", sticks).name == "bitset"  # still run when asked
    flat = engines._lineup(dlx.read(DATA / "dlx" / "pent3x20_sym.dlx"))
    assert [k.name for k in flat.takers] == ["tight", "bitset"]


@pytest.mark.parametrize(
    "board, pieces, flat",
    [
        ("3x20", "pentominoes", True),
        ("6x6", "hexiamonds", True),  # (the 6x6 rhombus of triangles, as Knuth's suite)
        ("3x3x3", "soma", True),
        ("7x4", "tetrahexes", False),  # 7 pieces, 4 of them with at most 40 places
        ("5x5", "tetrasticks,-H", False),  # most options hold a crossing point
    ],
)
def test_the_line_up_by_shape_builds_no_layout(monkeypatch, board, pieces, flat):
    """The line-up reads the problem's shape off its options (``engines.flat_tiling``:
    pieces, most going to many places, few secondary items), as the bitset kernel's own
    ``suits`` does from its layout, and builds no layout: tight leads every problem it
    takes; the bitset kernel joins the race on a flat tiling (laid out only if the race
    is set up), and leads one that tight refuses (a piece used twice)."""
    from dlx.kernels.bitset import layout

    lattice = "hexagonal" if pieces == "tetrahexes" else None
    problem = tiling.build(tiling.make_puzzle(board, pieces, lattice=lattice))
    assert engines.flat_tiling(problem) == flat == layout.suits(problem) == _flat_by_layout(problem)
    problem = tiling.build(tiling.make_puzzle(board, pieces, lattice=lattice))  # afresh
    monkeypatch.setattr(layout, "_build", lambda _: pytest.fail("laid out"))
    takers = [k.name for k in engines._lineup(problem).takers]
    assert takers == (["tight", "bitset"] if flat else ["tight"])


def _flat_by_layout(problem) -> bool:
    """The flat-tiling rule read off the bitset kernel's layout (the reference for the
    options-only ``flat_tiling``): the kernel takes the problem, it has cells and
    pieces (and region pruning), three pieces in four are not urgent, and at most a
    quarter of its options hold a secondary item."""
    from dlx.kernels.bitset import layout

    if not layout.fits(problem):
        return False
    entries = problem.entries()
    on_secondary = np.zeros(problem.n_options, bool)
    on_secondary[entries.option[entries.item > len(entries.lo)]] = True
    if on_secondary.sum() > layout.SUITS_SECONDARY * problem.n_options:
        return False
    lay = layout.layout(problem)
    if lay.n_cells == 0 or len(lay.piece_bit) == 0:
        return False
    urgent = int(np.isin(lay.piece_bit[lay.piece_bit >= 0], lay.urgent_bit).sum())
    return 4 * urgent <= len(lay.piece_bit)


def _two_domino_colours(a: int, b: int, width: int = 21) -> dlx.Problem:
    """Dominoes of two colours tiling a 2 x ``width`` box, ``a`` of one and ``b`` of
    the other (bounds: multiplicities); each piece goes to 3 ``width`` - 2 places."""
    cells = [f"{r}.{c}" for r in range(2) for c in range(width)]
    problem = dlx.Problem(primary=["A", "B", *cells], bounds={"A": (a, a), "B": (b, b)})
    for piece in "AB":
        for c in range(width):
            problem.add_option([piece, f"0.{c}", f"1.{c}"])
            if c < width - 1:
                for r in range(2):
                    problem.add_option([piece, f"{r}.{c}", f"{r}.{c + 1}"])
    return problem


@pytest.mark.parametrize(
    "make",
    [
        lambda: dlx.read(DATA / "dlx" / "pent3x20_sym.dlx"),
        lambda: dlx.read(DATA / "dlx" / "pent6x10_all.dlx"),
        lambda: dlx.read(DATA / "dlx" / "scott_sym.dlx"),
        lambda: dlx.read(DATA / "dlx" / "sudoku_escargot.dlx"),
        lambda: tiling.build(tiling.make_puzzle("5x10", "pentominoes,-X,-I")),
        lambda: tiling.build(tiling.make_puzzle("2x4x4", "tetracubes")),
        lambda: tiling.build(tiling.make_puzzle("5x5", "tetrasticks,-H")),
        lambda: _two_domino_colours(10, 11),
        lambda: _two_domino_colours(1, 1, width=1),
        lambda: coloured(),
    ],
)
def test_flat_tiling_from_the_options_agrees_with_the_layout(make):
    """``flat_tiling`` (auto's line-up and the bitset kernel's ``suits`` call it) reads
    off the options what the bitset kernel's layout says: tilings with and without
    symmetry breaking, solids, polysticks, sudoku, multiplicities, colours."""
    from dlx.kernels.bitset import layout

    problem = make()
    assert layout.suits(problem) == _flat_by_layout(problem)
    if layout.fits(problem):
        assert engines.flat_tiling(problem) == _flat_by_layout(problem)


def test_a_kept_bitset_layout_leads_a_flat_tiling_until_it_loses_a_race(monkeypatch):
    """Tight leads a fresh flat tiling (the bitset kernel's layout would cost as much as
    a small count); once the bitset kernel's layout is kept on the problem (it counted
    it), the bitset kernel leads, and where it loses a race it leads that problem no
    more. The counts stay the same."""
    p = dlx.read(DATA / "dlx" / "pent3x20_sym.dlx")
    fresh = engines.select("auto", p)
    assert fresh.name == "tight" and "tight suits its shape" in fresh.reason
    assert dlx.count(p, engine="bitset").solutions == 2  # (Knuth's pentominoes 3x20, halved)
    kept = engines.select("auto", p)
    assert kept.name == "bitset" and "bitset leads, its layout kept" in kept.reason, kept.reason
    assert dlx.count(p).solutions == 2
    leaders = []

    def lost(problem, lineup, *args, **kwargs):
        leaders.append(lineup.takers[0].name)
        return choose.Choice("tight", "auto: a race that tight won")

    monkeypatch.setattr(engines, "choose", lost)
    assert engines.select("auto", p).name == "tight"
    again = engines.select("auto", p)  # tight leads, and ends within its probe
    assert leaders == ["bitset"] and "tight suits its shape" in again.reason, again.reason
    monkeypatch.undo()
    assert dlx.count(p).solutions == 2 and "bitset" not in dlx.count(p).stats.engine


def test_a_fresh_flat_tiling_that_tight_takes_races_no_bitset_kernel(monkeypatch):
    """A flat tiling that tight takes, counted afresh (the bitset kernel's layout not
    kept): tight alone, cold or warm (nothing raced, nothing compiled beside it); the
    line-up says why the bitset kernel is out. The counts stay the same."""
    p = tiling.build(tiling.make_puzzle("8x8", "pentominoes,O4"))
    seen = []

    def alone(problem, lineup, *args, **kwargs):
        seen.append(lineup)
        return choose.Choice("tight", "auto: tight alone")

    monkeypatch.setattr(engines, "choose", alone)
    assert engines.select("auto", p).name == "tight"
    assert [k.name for k in seen[0].takers] == ["tight"]
    assert "tight alone" in dict(seen[0].refused)["bitset"]
    assert [k.name for k in engines._lineup(p).takers] == ["tight", "bitset"]  # (the facts)


@pytest.mark.parametrize(
    ("board", "front"), [("3x20", 12), ("20x3", 12), ("6x10", 24), ("8x8", 32)]
)
def test_the_front_is_the_widest_span_of_an_option_in_the_fill_order(board, front):
    """``front``: on a board of width w (either way round: the sweep turns a board
    declared along its long side), the pentominoes' widest span, an I across or an L,
    is 4 w (the last cell less the first, the cells column by column)."""
    pieces = "pentominoes,O4" if board == "8x8" else "pentominoes"
    p = tiling.build(tiling.make_puzzle(board, pieces))
    assert bitset_layout.front(p) == front


def test_a_narrow_tiling_that_tight_does_not_end_at_once_goes_to_bitset(monkeypatch):
    """A narrow flat tiling (front at most ``NARROW_FRONT``) goes to the bitset kernel
    once tight's count has run ``LONG_PROBE`` seconds past its first step, and stays
    tight's where tight ends it by then; a wide one (8x8 + O) is tight's either way. The
    counts are the known ones (the one-sided pentominoes on 3x30: 46 distinct, Polyform
    Puzzler's ``OneSidedPentominoes3x30``, 184 in all as this problem counts them; 6x10:
    2,339 distinct, Haselgrove 1960, 9,356 in all)."""
    narrow = tiling.build(tiling.make_puzzle("3x30", "one-sided-pentominoes"))
    wide = tiling.build(tiling.make_puzzle("8x8", "pentominoes,O4"))
    monkeypatch.setattr(engines, "LONG_PROBE", 0.0)
    choice = engines.select("auto", narrow, memo=True)
    assert choice.name == "bitset" and "narrow" in choice.reason and choice.search is None
    assert engines.select("auto", wide, memo=True).name == "tight"
    assert dlx.count(narrow, engine="auto").solutions == 184 == 4 * 46
    monkeypatch.setattr(engines, "LONG_PROBE", 1e9)
    small = tiling.build(tiling.make_puzzle("6x10", "pentominoes"))
    result = dlx.count(small, engine="auto")
    assert result.solutions == 9356 == 4 * 2339 and result.stats.engine.startswith("tight")


def test_a_parallel_count_that_autos_probe_ended_starts_no_worker(monkeypatch):
    """A parallel count that ``auto``'s probe counted while timing it is that count (no
    pool made); with a checkpoint it runs its tasks (the checkpoint records them)."""
    from dlx.parallel import run

    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started")

    p = tiling.build(tiling.make_puzzle("3x20", "pentominoes"))
    monkeypatch.setattr(run, "run_count", no_pool)
    result = dlx.count(p, parallel=dlx.Parallel(workers=2))
    assert result.solutions == 8 == 4 * 2 and result.complete  # data/dlx/EXPECTED.tsv
    with pytest.raises(AssertionError, match="a pool"):
        dlx.count(p, parallel=dlx.Parallel(workers=2), node_limit=10**9)


def test_a_parallel_count_with_a_time_limit_that_autos_race_ended_starts_no_worker(monkeypatch):
    """A time limit does not stop a count that ``auto``'s race has already ended (the
    leader's first slice: 4 I and 4 L trominoes on 4x6, pieces used several times, which
    the bitset kernel leads): no pool is made, and the count is the dancing links' one."""
    from dlx.parallel import run

    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started")

    p = tiling.build(tiling.make_puzzle("4x6", "I3*4,L3*4"))
    expected = dlx.count(p, engine="dlx").solutions
    monkeypatch.setattr(run, "run_count", no_pool)
    result = dlx.count(p, parallel=dlx.Parallel(workers=2), time_limit=600)
    assert "finished within its probe" in result.stats.engine
    assert (result.solutions, result.complete) == (expected, True) and expected == 450


def _two_colour_dominoes(width: int = 21) -> dlx.Problem:
    """Dominoes of two colours tiling a 2x``width`` box, ``width // 2`` of one and the
    rest of the other; each piece goes to 3 ``width`` - 2 places (61 for 2x21: 40
    across, 21 upright)."""
    cells = [f"{r}.{c}" for r in range(2) for c in range(width)]
    bounds = {"A": (width // 2, width // 2), "B": (width - width // 2,) * 2}
    problem = dlx.Problem(primary=["A", "B", *cells], bounds=bounds)
    for piece in "AB":
        for c in range(width):
            problem.add_option([piece, f"0.{c}", f"1.{c}"])
            if c < width - 1:
                for r in range(2):
                    problem.add_option([piece, f"{r}.{c}", f"{r}.{c + 1}"])
    return problem


def test_a_flat_tiling_that_tight_refuses_is_led_by_the_bitset_kernel():
    """Dominoes of two colours tiling a 2x21 box (multiplicities: tight refuses it): the
    bitset kernel, made for tilings, leads."""
    problem = _two_colour_dominoes()
    assert engines.flat_tiling(problem)
    assert [k.name for k in engines._lineup(problem).takers][0] == "bitset"


def test_a_tiny_count_with_multiplicities_ends_in_mccs_first_slice_before_the_bitset_rule(
    monkeypatch,
):
    """A flat tiling with multiplicities (the bitset kernel leads it): mcc's first slice
    comes before the bitset kernel's rule is asked (a tenth of a small count), and a
    tiny count ends there (dominoes of two colours on 2x4: its 5 tilings, Fibonacci's
    F(5), times C(4, 2) = 6 colourings; its 77 nodes are fewer than a first step's); on
    2x21 the count goes on, the rule is asked, and the bitset kernel leads the race,
    mcc's probe dropped."""
    for engine in ("bitset", "mcc"):  # in numba's cache: mcc may probe first
        dlx.count(_two_colour_dominoes(4), engine=engine)
    asked = []
    rule = engines._bitset_would_lead
    monkeypatch.setattr(engines, "_bitset_would_lead", lambda p: asked.append(1) or rule(p))
    result = dlx.count(_two_colour_dominoes(4))
    assert result.solutions == 30 and not asked
    assert result.stats.engine.startswith("mcc (auto: mcc suits its shape; finished within")
    seen = {}

    def fake_choose(problem, lineup, make, limit=None, forced=(), kept=True, probe=None):
        seen.update(leader=lineup.takers[0].name, probe=probe)
        return choose.Choice("bitset", "faked")

    monkeypatch.setattr(engines, "choose", fake_choose)
    assert engines.select("auto", _two_colour_dominoes(), memo=True).name == "bitset"
    assert asked and seen == {"leader": "bitset", "probe": None}
    monkeypatch.undo()
    assert counted_by_all(_two_colour_dominoes(4)) == 30
