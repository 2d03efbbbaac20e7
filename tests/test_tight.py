"""The tight kernel against the dancing-links kernel, the naive solver and known counts.

Every count is compared with the DLX kernel's (and the naive solver's where the problem
is small, as sets of solutions), every solution a test sees goes through
``dlx.verify.check``, searches paused every few nodes check their rows with the
kernel's ``sanity()`` at each pause, and the memo is switched on and off to show that
it changes no count.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import dlx
from dlx import engines
from dlx.driver import tables
from dlx.driver.codes import DONE, LEAF, PAUSED
from dlx.kernels.links import layout as linkslayout
from dlx.kernels.tight import layout as tightlayout
from dlx.kernels.tight import search as tightsearch
from dlx.kernels.tight.layout import fits, layout, why_not
from dlx.kernels.tight.search import TightMemo, TightSearch
from dlx.parallel.split import split
from dlx.verify import check, naive_solutions
from tests.boards import dominoes, fibonacci, queens, queens_ok
from tests.shared import EXPECTED, as_set, checked_solutions, examples, load
from tests.strategies import problems


def tight_count(problem, memo=True, budget=None, **choices) -> int:
    """The tight kernel's full count (a fresh memo unless ``memo`` is False), its rows
    checked at every pause."""
    search = TightSearch(
        problem, memo=TightMemo.of(problem) if memo else None, budget=budget, **choices
    )
    while search.run() == PAUSED:
        search.sanity()
    search.sanity()
    assert search.done
    return search.solutions


def tight_solutions(problem, budget=None) -> list[tuple[int, ...]]:
    """Every solution the tight kernel streams, each checked (its state at each pause)."""
    return checked_solutions(TightSearch(problem, budget=budget))


# -- what fits ------------------------------------------------------------------------


def test_why_not_names_the_reason():
    loose = dlx.Problem(primary=["a", "b"], bounds={"b": (0, 2)})
    loose.add_option(["a"])
    assert why_not(loose) == "primary item 'b' has bounds 0:2 (the tight kernel takes 1:1 only)"
    with pytest.raises(dlx.ProblemError, match="tight kernel cannot search this problem: prim"):
        dlx.count(loose, engine="tight")
    loop = dlx.Problem(primary=["go"], secondary=["ab", "bc", "ca"])
    for u, v, e in ((0, 1, "ab"), (1, 2, "bc"), (2, 0, "ca")):
        loop.add_loop_edge(e, u, v, on="1")
    loop.add_option(["go", "ab:1", "bc:1", "ca:1"])
    assert why_not(loop) == "it has loop items"
    coloured = dlx.Problem(primary=["a"], secondary=["x"])
    coloured.add_option(["a", "x:red"])
    assert fits(coloured) and fits(queens(4))
    with pytest.raises(ValueError, match="the tight kernel does not apply it"):
        dlx.count(queens(4).with_propagation("domination"), engine="tight")


def test_tables_past_the_limit_are_refused(monkeypatch):
    """The layout is refused as it is built (``dlx.driver.tables.check_bytes``, the cap of
    every kernel; tests/test_memory.py checks the searches)."""
    monkeypatch.setattr(tables, "MAX_BYTES", 1000)
    with pytest.raises(dlx.ProblemError, match=r"would need [\d.]+ KiB .* use engine='dlx'"):
        TightSearch(queens(8))


def test_table_bytes_add_up():
    """A search's bytes: the layout's arrays, the search's rows and the memo's table."""
    problem = queens(8)
    lay = layout(problem)
    bare = TightSearch(problem)
    rows = bare._state._replace(memo=None, stats=None, memo_stats=None)
    search = sum(a.nbytes for a in rows if a is not None) + 8 * 5
    search += sum(a.nbytes for a in bare._frame[3:])  # its frame's (empty here: one word)
    assert bare._frame.live.size == 0
    assert bare.table_bytes() == lay.table_bytes() + search
    assert search <= lay.search_bytes()  # the layout's cap, an upper bound
    assert lay.table_bytes() >= lay.conflict.nbytes == lay.n_options * lay.words * 8
    memo = TightMemo.of(problem)
    assert TightSearch(problem, memo=memo).table_bytes() == bare.table_bytes() + memo.nbytes


@pytest.mark.parametrize("n_primary", [5, 70, 250, 300])  # 1, 2, 4 and 5 words
def test_item_masks_hold_each_options_primary_items(n_primary):
    """Each option's row of ``_item_masks`` (made a word at a time up to ``MASK_PASSES``
    words, bit by bit past them) is the set of its primary items, options with none
    included."""
    rng = np.random.default_rng(n_primary)
    primary = [f"p{i}" for i in range(n_primary)]
    problem = dlx.Problem(primary=primary, secondary=["s"])
    for _ in range(3 * n_primary):
        chosen = rng.choice(n_primary, size=int(rng.integers(0, 5)), replace=False)
        items = [primary[i] for i in chosen] + (["s"] if rng.random() < 0.3 else [])
        problem.add_option(items or ["s"])
    problem.add_option(["s"])
    lay = layout(problem)
    masks = tightsearch._item_masks(problem)
    assert masks.shape == (lay.n_options, lay.item_words) and masks.dtype == np.uint64
    for bit, option in enumerate(lay.option):
        items = {int(name[1:]) for name in problem.option(int(option)) if name != "s"}
        assert {w * 64 + b for w in range(lay.item_words) for b in range(64)
                if int(masks[bit, w]) >> b & 1} == items  # fmt: skip


def test_layout_groups_match_the_options():
    """Each primary item's group holds exactly its options; a coloured entry's group
    holds the options that give its item another colour or none."""
    p = dlx.Problem(primary=["a", "b"], secondary=["x"])
    for items in (["a", "x:red"], ["b", "x:red"], ["b", "x:blue"], ["a", "x"], ["a", "b"]):
        p.add_option(items)
    lay = layout(p)

    def members(g):
        out = set()
        for k in range(lay.group_start[g], lay.group_start[g + 1]):
            word, bits = int(lay.group_word[k]), int(lay.group_bits[k])
            out |= {int(lay.option[64 * word + b]) for b in range(64) if bits >> b & 1}
        return out

    assert members(0) == {0, 3, 4} and members(1) == {1, 2, 4}
    groups = {}
    for b in range(lay.n_options):
        o = int(lay.option[b])
        for j in range(lay.option_group_start[b], lay.option_group_start[b + 1]):
            groups.setdefault(o, []).append(members(int(lay.option_group[j])))
    assert groups[0] == [{0, 3, 4}, {2, 3}]  # a; x:red conflicts with x:blue and x
    assert groups[3] == [{0, 3, 4}, {0, 1, 2, 3}]  # a; x (no colour) with every x
    for b in range(lay.n_options):  # each dense conflict mask is the union of its groups
        mask = {int(lay.option[64 * w + i]) for w in range(lay.words) for i in range(64)
                if int(lay.conflict[b, w]) >> i & 1}  # fmt: skip
        assert mask == set().union(*groups[int(lay.option[b])])


def test_conflict_groups_alone_count_the_same(monkeypatch):
    """Past ``CONFLICT_BYTES`` the layout has no dense conflict masks and the kernel
    clears group by group: the same counts and streams, rows checked at every pause."""
    monkeypatch.setattr(tightlayout, "CONFLICT_BYTES", 0)
    for problem, expected in ((queens(8), 92), (load("scott_sym"), EXPECTED["scott_sym"])):
        assert layout(problem).conflict.shape == (0, layout(problem).words)
        assert tight_count(problem, budget=777) == expected
        assert tight_count(problem, memo=False) == expected
    coloured = load("sudokuk_inkala2010")
    assert len(tight_solutions(coloured, budget=50)) == EXPECTED["sudokuk_inkala2010"]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(bounds=False, colours=True, max_options=12, max_primary=6, max_secondary=3))
def test_conflict_groups_alone_agree_with_the_masks(problem):
    """The group-by-group path and the dense masks stream the same solutions."""
    dense = as_set(tight_solutions(problem, budget=2))
    original = tightlayout.CONFLICT_BYTES
    tightlayout.CONFLICT_BYTES = 0
    try:
        alone = dlx.parse(dlx.write(problem))  # the same problem, no layout kept yet
        assert layout(alone).conflict.shape[0] == 0
        assert as_set(tight_solutions(alone, budget=2)) == dense
    finally:
        tightlayout.CONFLICT_BYTES = original


def test_whole_rows_as_bands_count_the_same(monkeypatch):
    """With every item's band the whole live set (``FULL_BAND_WORDS``), counts (paused
    every few nodes, rows checked) and streams are those with narrow bands."""
    problems = ((queens(10), 724), (load("scott_sym"), EXPECTED["scott_sym"]))
    monkeypatch.setattr(tightlayout, "FULL_BAND_WORDS", range(1, 1 << 20))
    for problem, expected in problems:
        lay = layout(problem)
        assert lay.words > 1 and (lay.item_first_word == 0).all()
        assert (lay.item_band_start == lay.words * np.arange(lay.n_primary + 1)).all()
        assert tight_count(problem, budget=777) == expected
        assert tight_count(problem, memo=False, budget=50) == expected
    coloured = load("sudokuk_inkala2010")
    assert len(tight_solutions(coloured, budget=50)) == EXPECTED["sudokuk_inkala2010"]


def test_bands_are_padded_and_hold_their_items_options():
    """Past ``FULL_BAND_WORDS``, each band is a multiple of ``BAND_WORDS`` words (or the
    whole live set) inside the live set, and holds exactly its item's options."""
    for problem in (load("scott_sym"), load("pent3x20_sym")):
        lay = layout(problem)
        assert lay.words >= tightlayout.FULL_BAND_WORDS.stop
        for p in range(lay.n_primary):
            start, end = lay.item_band_start[p], lay.item_band_start[p + 1]
            first, length = int(lay.item_first_word[p]), int(end - start)
            assert length % tightlayout.BAND_WORDS == 0 or length == lay.words
            assert 0 <= first and first + length <= lay.words
            dense = np.zeros(lay.words, np.uint64)
            k = slice(lay.group_start[p], lay.group_start[p + 1])
            dense[lay.group_word[k]] = lay.group_bits[k]
            assert (lay.item_band[start:end] == dense[first : first + length]).all()
            assert dense.sum() == lay.item_band[start:end].sum()  # nothing left outside


def test_padded_bands_count_the_same(monkeypatch):
    """Bands padded to a multiple of 3 words, moved back at the end of the live set
    (every problem, ``FULL_BAND_WORDS`` empty): the same counts (paused every few nodes,
    rows checked) and streams."""
    monkeypatch.setattr(tightlayout, "FULL_BAND_WORDS", range(1, 1))
    monkeypatch.setattr(tightlayout, "BAND_WORDS", 3)
    problems = ((queens(12), 14200), (load("scott_sym"), EXPECTED["scott_sym"]))  # A000170
    for problem, expected in problems:
        lay = layout(problem)
        length = np.diff(lay.item_band_start)
        assert (length % 3 == 0).all() or (length == lay.words).any()
        assert tight_count(problem, budget=777) == expected
        assert tight_count(problem, memo=False, budget=50) == expected
    span = [np.ptp(lay.group_word[lay.group_start[p] : lay.group_start[p + 1]]) + 1
            for p in range(lay.n_primary)]  # fmt: skip
    assert length.sum() > sum(span)  # scott_sym's bands were padded
    coloured = load("sudokuk_inkala2010")
    assert len(tight_solutions(coloured, budget=50)) == EXPECTED["sudokuk_inkala2010"]


# -- shipped problems and known counts -----------------------------------------------

QUICK_FILES = ["scott_sym", "sudoku_escargot", "sudokuk_inkala2010", "pent3x20_sym"]
SLOW_FILES = sorted(set(EXPECTED) - set(QUICK_FILES))


@pytest.mark.parametrize("name", QUICK_FILES)
def test_dlx_files_agree(name):
    problem = load(name)
    expected = EXPECTED[name]
    assert tight_count(problem, budget=5000) == expected == dlx.count(problem).solutions
    assert tight_count(problem, memo=False) == expected


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW_FILES)
def test_dlx_files_agree_slow(name):
    problem = load(name)
    assert tight_count(problem) == EXPECTED[name] == tight_count(problem, memo=False)


@pytest.mark.parametrize("n, expected", [(1, 1), (4, 2), (6, 4), (8, 92), (10, 724)])
def test_queens_known_counts(n, expected):
    """n queens as XCC, diagonals secondary (OEIS A000170)."""
    problem = queens(n)
    assert dlx.count(problem, engine="tight").solutions == expected
    assert tight_count(problem, memo=False) == expected
    if n <= 8:
        found = dlx.solutions(problem, engine="tight")
        names = [s.names for s in found]
        assert len(names) == expected and all(queens_ok(n, q) for q in names)


# -- random problems ------------------------------------------------------------------


@pytest.mark.oracle
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(bounds=False, colours=True, max_options=9, max_primary=5))
def test_random_problems_agree_with_naive(problem):
    naive = as_set(naive_solutions(problem))
    found = tight_solutions(problem)
    assert len(found) == len(naive) and as_set(found) == naive
    paused = tight_solutions(problem, budget=1)
    assert as_set(paused) == naive and len(paused) == len(naive)
    assert tight_count(problem) == len(naive) == tight_count(problem, memo=False, budget=2)
    assert dlx.count(problem).solutions == len(naive)


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(bounds=False, colours=True, max_options=30, max_primary=8, max_secondary=5))
def test_larger_random_problems_agree_with_dlx(problem):
    expected = as_set(s.options for s in dlx.solutions(problem))
    assert as_set(tight_solutions(problem, budget=3)) == expected
    assert tight_count(problem) == len(expected)


# -- children counted without entering them ----------------------------------------


def test_last_items_are_counted_without_their_nodes():
    """A child that its option completes is a solution, and a child with one primary
    item left has one solution per live option of it: a full count adds them at the
    parent (one node here), a stream and a limited count still see each solution."""
    whole = dlx.Problem(primary=["a", "b"], secondary=["x"])
    for colour in ("red", "blue", "red"):
        whole.add_option(["a", "b", f"x:{colour}"])
    one_left = dlx.Problem(primary=["a", "b"], secondary=["x"])
    for items in (["a", "x:red"], ["a", "b"], ["b", "x:red"], ["b", "x:blue"], ["b"], ["b", "x"]):
        one_left.add_option(items)  # after a with x:red, b is left with two live options
    for problem, expected in ((whole, 3), (one_left, 3)):
        full = dlx.count(problem, engine="tight")
        assert full == expected == len(naive_solutions(problem)) and full.stats.nodes == 1
        assert len(tight_solutions(problem)) == expected  # each solution entered, checked
        limited = dlx.count(problem, limit=1, engine="tight")
        assert limited == 1 and not limited.complete
    leaves = split(one_left, split_depth=1, engine="tight")  # each node there a task
    assert len(leaves.tasks) == 1 and leaves.solutions == 1  # a, b left; a and b


def test_a_child_with_every_item_forced_is_counted_without_its_nodes():
    """A child (of a problem without secondary items) where each uncovered item has one
    live option, those options covering each item once, is one solution, counted at
    its parent; a child where two live options share an item is entered."""
    problem = dlx.Problem(primary=["a", "b", "c", "d"])
    for items in (["a", "b"], ["a", "c"], ["c"], ["d"], ["b"], ["b", "d"]):
        problem.add_option(items)  # after a b: c and d forced; after a c: b twice
    full = dlx.count(problem, engine="tight")
    assert full == 3 == len(naive_solutions(problem))
    assert full.stats.nodes == 2  # the root and the child of a c
    assert len(tight_solutions(problem)) == 3  # a stream enters each child


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(bounds=False, colours=True, max_options=30, max_primary=8, max_secondary=5))
def test_counts_past_the_last_items_agree_with_dlx(problem):
    """Random XCC with colours: counts (full, paused at every node, limited) are dlx's;
    the progress estimate stays in [0, 1] at every pause and ends at 1; the leaves of a
    split, run as prefixes, count the rest."""
    expected = dlx.count(problem, engine="dlx").solutions
    search = TightSearch(problem, budget=1)
    while search.run() == PAUSED:
        search.sanity()
        assert 0.0 <= search.fraction() <= 1.0
    assert search.solutions == expected and search.fraction() == 1.0
    for limit in (1, 2, 5):
        assert dlx.count(problem, limit=limit, engine="tight") == min(limit, expected)
    split = TightSearch(problem, split_depth=1)
    leaves = []
    while (code := split.run()) != DONE:
        if code == LEAF:
            leaves.append(tuple(split.path()))
    counted = split.solutions
    for path in leaves:
        sub = TightSearch(problem, prefix=path)
        while sub.run() == PAUSED:
            pass
        counted += sub.solutions
    assert counted == expected


# -- frames ---------------------------------------------------------------------------


def framed_count(problem, budget, **choices) -> tuple[int, int, int]:
    """The tight kernel's full count without a memo, rows checked at every pause: (the
    count, the nodes, the pauses inside a frame)."""
    search = TightSearch(problem, budget=budget, **choices)
    framed = 0
    while search.run() == PAUSED:
        search.sanity()
        framed += int(search._frame.level[0] >= 0)
    search.sanity()
    return search.solutions, search.kernel_stats[1], framed


def test_frames_count_the_same(monkeypatch):
    """Frames one and two words wide (``FRAME_WORDS``): counts (paused every few nodes,
    rows checked, frames open at some pauses), a memo's counts and streams are those
    without frames; the nodes no more (a child left without a live option is not
    entered)."""
    problems = ((queens(12), 14200), (load("scott_sym"), EXPECTED["scott_sym"]))  # A000170
    for words in (1, 2):
        monkeypatch.setattr(tightsearch, "FRAME_WORDS", words)
        for problem, expected in problems:
            count, nodes, framed = framed_count(problem, 400)
            plain, plain_nodes, never = framed_count(problem, 400, frames=False)
            assert count == plain == expected and nodes <= plain_nodes
            assert framed > 0 and never == 0
        assert tight_count(problems[1][0], budget=777) == problems[1][1]
    monkeypatch.setattr(tightsearch, "FRAME_WORDS", 1)
    stream = tight_solutions(queens(10), budget=7)
    assert as_set(stream) == as_set(checked_solutions(TightSearch(queens(10), frames=False)))


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(bounds=False, colours=True, max_options=100, max_primary=8, max_secondary=4))
def test_frames_agree_with_dlx_on_random_problems(problem):
    """Random XCC with colours, frames one word wide: counts paused at every few nodes
    (rows checked) and streams are dlx's."""
    original = tightsearch.FRAME_WORDS
    tightsearch.FRAME_WORDS = 1
    try:
        expected = as_set(s.options for s in dlx.solutions(problem, engine="dlx"))
        assert framed_count(problem, 3)[0] == len(expected)
        assert as_set(tight_solutions(problem, budget=5)) == expected
    finally:
        tightsearch.FRAME_WORDS = original


# -- limits, streams, splits ----------------------------------------------------------


def test_forced_options_are_reported():
    problem = load("scott_sym")
    first = next(iter(dlx.solutions(problem, engine="tight")))
    forced = first.options[:2]
    again = list(dlx.solutions(problem, forced=forced, engine="tight"))
    assert all(s.options[:2] == forced for s in again)
    assert as_set(s.options for s in again) == as_set(
        s.options for s in dlx.solutions(problem, forced=forced)
    )


def test_parallel_and_checkpoints_agree(tmp_path):
    problem = queens(8)
    assert dlx.count(problem, engine="tight", parallel=dlx.Parallel(workers=2, tasks=8)) == 92
    ckpt = dlx.Parallel(workers=2, checkpoint=str(tmp_path / "run.ckpt"))
    assert dlx.count(problem, engine="tight", parallel=ckpt) == 92
    assert dlx.count(problem, engine="tight", parallel=ckpt) == 92  # resumed: all tasks done
    found = list(dlx.solutions(problem, engine="tight", parallel=dlx.Parallel(workers=2)))
    assert len(as_set(s.options for s in found)) == len(found) == 92
    for s in found:
        check(problem, s.options)


# -- exact counts at any size -----------------------------------------------------------


# -- the engine through the public API and the command lines ---------------------------


def test_engine_is_listed():
    assert "tight" in engines.CHOICES and engines.resolve("tight", queens(4)) == "tight"
    assert isinstance(engines.make_memo(queens(4), "tight"), TightMemo)


def test_cli_engine_flag(capsys):
    from dlx.cli import main

    path = str(load.__globals__["DATA"] / "scott_sym.dlx")
    assert main([path, "--count", "--engine", "tight", "--workers", "1"]) == 0
    assert capsys.readouterr().out.strip() == "65"


def test_polyform_command_engine_flag(capsys):
    from puzzles.cli import main

    argv = ["polyform", "--board", "20x3", "--pieces", "pentominoes", "--no-progress"]
    assert main([*argv, "--workers", "1", "--engine", "tight"]) == 0
    assert capsys.readouterr().out.split()[-1] == "2"


def test_the_memo_is_kept_only_where_it_pays(monkeypatch):
    """Queens rarely meet a subproblem twice: the memo is dropped after its trial, and
    the count stays exact; domino strips meet them all the time: it is kept."""
    monkeypatch.setattr(tightsearch, "MEMO_TRIAL", 500)
    monkeypatch.setattr(tightsearch, "MEMO_LATE", 0)  # the memo from the root on
    for problem, expected, kept in ((queens(8), 92, False), (dominoes(40, 2), fibonacci(41), True)):
        search = TightSearch(problem, memo=TightMemo.of(problem), budget=100)
        while search.run() == PAUSED:
            search.sanity()
        assert search.solutions == expected and (search.memo is not None) == kept


def test_a_memo_that_saves_next_to_nothing_is_dropped_at_its_glance():
    """Queens never meet a subproblem twice: the memo goes at the first pause past
    ``MEMO_GLANCE`` nodes with it (not at the trial's end; it waits for ``MEMO_LATE``
    nodes first), the count exact (2,680, OEIS A000170); Scott's pentomino problem meets
    some (a tenth of its first nodes and lookups saved): it keeps its memo past the
    glance (65: data/dlx/EXPECTED.tsv); so does a task of a split, which waits for the
    trial's end."""
    problem = queens(11)
    search = TightSearch(problem, memo=TightMemo.of(problem), budget=500)
    while search.run() == PAUSED:
        nodes = int(search.kernel_stats[1])
        waiting = nodes <= tightsearch.MEMO_LATE  # (set aside: used from the next call)
        past = nodes >= tightsearch.MEMO_LATE + tightsearch.MEMO_GLANCE
        assert (search.memo is None) == (waiting or past)
    assert search.solutions == 2680 and search.memo is None
    problem = load("scott_sym")
    search = TightSearch(problem, memo=TightMemo.of(problem), budget=500)
    while search.run() == PAUSED:
        pass
    assert search.kernel_stats[1] > tightsearch.MEMO_GLANCE
    assert search.solutions == 65 and search.memo is not None
    problem = queens(11)  # a task of a split: its trial runs to its end
    task = TightSearch(problem, memo=TightMemo.of(problem), prefix=(0,), budget=500)
    while task.run() == PAUSED:
        pass
    assert tightsearch.MEMO_GLANCE < task.kernel_stats[1] < tightsearch.MEMO_TRIAL
    assert task.memo is not None


def test_a_small_count_looks_nothing_up_in_its_memo():
    """A fresh memo of a search from the root of a problem whose entries are a third or
    more secondary waits for ``MEMO_LATE`` nodes: queens 8 (1,086 nodes, 92 solutions,
    OEIS A000170; half its entries are diagonals) ends before, with no lookup and
    nothing kept (its keys and lookups cost a tenth of such a count:
    docs/performance.md); with forced options, or on a problem with fewer secondary
    entries (a domino strip: none), the memo is used from the start."""
    problem = queens(8)
    memo = TightMemo.of(problem)
    search = TightSearch(problem, memo=memo)
    assert search.run() == DONE and search.solutions == 92
    assert search.memo_stats[0] == 0 and memo.nodes == 0 and not memo.table.any()
    forced = TightSearch(problem, memo=TightMemo.of(problem), forced=[0])
    assert forced.run() == DONE and forced.memo_stats[0] > 0
    strip = dominoes(20, 2)
    search = TightSearch(strip, memo=TightMemo.of(strip))
    assert search.run() == DONE and search.solutions == fibonacci(21)
    assert search.memo_stats[0] > 0


@pytest.mark.parametrize("late", [1, 37, 400])
def test_a_memo_used_late_keeps_its_counts_exact(late, monkeypatch):
    """Past ``MEMO_LATE`` nodes the memo is used from the levels the search is in: their
    keys made in Python as the kernel makes them (``sanity`` checks them at every
    pause), and no count kept for them (their start was not noted). Domino strips
    (Fibonacci numbers) and the pentominoes on 3x20 (8: data/dlx/EXPECTED.tsv) stay
    exact, and the memo pays (hits)."""
    monkeypatch.setattr(tightsearch, "MEMO_LATE", late)
    monkeypatch.setattr(tightsearch, "MEMO_LATE_SHARE", 0.0)  # whatever the entries
    for problem, expected in ((dominoes(30, 2), fibonacci(31)), (load("pent3x20_all"), 8)):
        for budget in (7, 1000):
            search = TightSearch(problem, memo=TightMemo.of(problem), budget=budget)
            while search.run() == PAUSED:
                search.sanity()
            assert search.solutions == expected and search.memo_stats[1] > 0


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(bounds=False, colours=True, max_options=30, max_primary=8, max_secondary=5))
def test_random_counts_with_a_memo_used_late_agree_with_dlx(problem):
    """Random XCC with colours, the memo used from the 3rd, 10th or 30th node on: the
    counts are dlx's."""
    expected = dlx.count(problem, engine="dlx").solutions
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tightsearch, "MEMO_LATE_SHARE", 0.0)
        for late in (3, 10, 30):
            patch.setattr(tightsearch, "MEMO_LATE", late)
            assert tight_count(problem, budget=4) == expected


def test_a_memo_that_paid_is_kept_by_later_searches_without_a_trial(monkeypatch):
    """A parallel count's tasks, each a search, share their process's memo
    (``dlx.parallel.workers``): once it has paid in one search's trial it is marked ``paid``, and
    later searches keep it without one (a task's first nodes, deep in the tree with few
    of its subtrees stored yet, would often fail it). Counts stay exact."""
    monkeypatch.setattr(tightsearch, "MEMO_TRIAL", 60)
    strip = dominoes(40, 2)  # 80 nodes with the memo, which pays once 40 deep
    memo = TightMemo.of(strip)
    first = TightSearch(strip, memo=memo, budget=10)
    while first.run() == PAUSED:
        pass
    assert first.solutions == fibonacci(41) and first.memo is memo and memo.paid
    problem = queens(8)  # its trial drops a fresh memo (above); a paid one stays
    memo = TightMemo.of(problem)
    memo.paid = True
    search = TightSearch(problem, memo=memo, budget=100)
    while search.run() == PAUSED:
        search.sanity()
    assert search.solutions == 92 and search.memo is memo  # OEIS A000170


def test_the_layout_reads_the_problem_alone_and_is_kept_by_it(monkeypatch):
    """The layout comes from ``Problem.entries()`` (not the dancing-links arrays), is
    built once, kept through ``Problem.layout_of`` (nothing stored on the problem by
    this module) and forgotten when the problem changes."""
    problem = queens(6)

    def refused(*args, **kwargs):
        raise AssertionError("the tight kernel read the dancing-links arrays")

    monkeypatch.setattr(linkslayout, "compile_options", refused)
    before = set(vars(problem))
    lay = layout(problem)
    assert dlx.count(problem, engine="tight") == 4  # OEIS A000170
    assert layout(problem) is lay and set(vars(problem)) == before
    problem.add_option(["r0"])
    assert layout(problem) is not lay and layout(problem).n_options == lay.n_options + 1


@pytest.mark.parametrize("forced", [[2, 0], [0, 2], [2], [0], [2, 1]])
def test_a_forced_child_is_entered_not_counted_by_its_last_items_options(forced):
    """Options {p0}, {p0}, {p1}, forced [2, 0]: after option 2 one item is left (p0), whose
    two options the kernel counted at the parent, though option 0 was forced next (2, not
    1, found by the walker's hypothesis test). A forced or replayed child is entered;
    every kernel agrees with the naive solver."""
    p = dlx.Problem(primary=["p0", "p1"])
    for option in (["p0"], ["p0"], ["p1"]):
        p.add_option(option)
    expected = sum(1 for s in naive_solutions(p) if s >= set(forced))
    for engine in ("tight", "dlx", "bitset", "mcc"):
        assert dlx.count(p, engine=engine, forced=forced).solutions == expected, engine
