"""A partial sudoku written as Knuth's SUDOKU-DLX writes it (the items and options left
once the givens are covered), recognised by ``auto`` and counted by the sudoku kernel
(``dlx.kernels.sudoku.partial``): counts against the tight kernel and the naive solver,
on random partial grids of 9x9 and 4x4, items and options shuffled; problems that only
look like one are left to the other kernels."""

from __future__ import annotations

import random
import signal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dlx
from dlx.kernels.sudoku import partial
from dlx.problem import Problem
from dlx.verify import naive_solutions

SOLVED = (  # a solved grid (top95's first answer), to cut puzzles from
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
)
ROYLE_LESS2 = (  # Knuth's suite's sudoku_royle_less2 (scripts/knuth_suite.py)
    ".........|.........|.......3.|.....3.2.|..1.4....|..5....6.|.3......4|.7..8...9|62...7..."
)


def residue(grid: str, n: int = 9, drop=(), seed: int | None = None) -> Problem:
    """What SUDOKU-DLX writes for ``grid`` (``n`` x ``n``, ``.`` empty, rows of ``n``
    characters, ``|`` ignored): the items no given covers, named as Knuth names them,
    and an option for each digit an empty cell may take; the options in ``drop``
    (their place in that order) left out; items and options shuffled by ``seed``."""
    cells = [c for c in grid if c != "|"]
    side = int(n**0.5)
    digit = {i: int(c) for i, c in enumerate(cells) if c != "."}

    def names(i: int, d: int) -> list[str]:
        r, c = divmod(i, n)
        return [f"p{r}{c}", f"r{r}{d}", f"c{c}{d}", f"b{side * (r // side) + c // side}{d}"]

    covered = {name for i, d in digit.items() for name in names(i, d)}
    options = [
        names(i, d)
        for i in range(n * n)
        if i not in digit
        for d in range(1, n + 1)
        if not covered & set(names(i, d))
    ]
    options = [o for k, o in enumerate(options) if k not in set(drop)]
    items = [f"p{r}{c}" for r in range(n) for c in range(n)]
    items += [f"{kind}{a}{d}" for kind in "rcb" for a in range(n) for d in range(1, n + 1)]
    items = [x for x in items if x not in covered]
    if seed is not None:
        random.Random(seed).shuffle(items)
        random.Random(seed + 1).shuffle(options)
    problem = Problem(primary=items)
    for option in options:
        problem.add_option(option)
    return problem


def test_royle_less2_is_counted_by_the_sudoku_kernel():
    """910,776 completions: Knuth's SSXCC and DLX programs on SUDOKU-DLX's output for
    this grid (docs/performance.md, Knuth's suite table, ``sudoku_royle_less2``)."""
    problem = residue(ROYLE_LESS2)
    result = dlx.count(problem)
    assert result == 910_776 and result.complete
    assert result.stats.engine.startswith("sudoku")


@pytest.mark.slow
def test_royle_less2_agrees_with_the_tight_kernel():
    """The same count by the tight kernel, the items and options shuffled."""
    problem = residue(ROYLE_LESS2, seed=5)
    assert partial.embed(problem) is not None
    assert dlx.count(problem, engine="tight") == dlx.count(problem) == 910_776


@st.composite
def cut_grids(draw, n: int = 9):
    """A partial grid: a solved grid's givens with some cells emptied (or, for 4x4,
    digits put at random, which may clash), some options dropped, shuffled."""
    if n == 9:
        grid = list(SOLVED)
        for i in draw(st.sets(st.integers(0, 80), min_size=1, max_size=30)):
            grid[i] = "."
    else:
        grid = draw(st.lists(st.sampled_from(".....1234"), min_size=16, max_size=16))
    drop = draw(st.sets(st.integers(0, 60), max_size=6))
    return "".join(grid), drop, draw(st.integers(0, 1000))


def _agrees(problem: Problem) -> int:
    """``auto``'s count of ``problem`` (returned) equals the tight kernel's and, where
    it is small, the naive solver's; the sudoku kernel counts it exactly when it embeds."""
    want = int(dlx.count(problem, engine="tight"))
    result = dlx.count(problem)
    assert result == want and result.complete
    assert result.stats.engine.startswith("sudoku") == (partial.embed(problem) is not None)
    if problem.n_options <= 14:
        assert len(naive_solutions(problem, 14)) == want
    return want


@settings(max_examples=60, deadline=None)
@given(cut_grids())
def test_random_partial_9x9_grids(case):
    """Cut from a solved grid: every one with a completion is a partial sudoku that
    the kernel takes (with none, there is no grid to find its givens in)."""
    grid, drop, seed = case
    problem = residue(grid, drop=drop, seed=seed)
    if not problem.n_options:
        return
    assert (partial.embed(problem) is not None) == (_agrees(problem) > 0)


@settings(max_examples=60, deadline=None)
@given(cut_grids(4))
def test_random_partial_4x4_grids(case):
    """4x4 grids named as Knuth names them: whatever ``auto`` runs, the count is right."""
    grid, drop, seed = case
    problem = residue(grid, 4, drop=drop, seed=seed)
    if not problem.n_options or not problem.primary:
        return
    _agrees(problem)


def test_problems_that_only_look_like_one_are_refused():
    """A renamed item, an option of the wrong box, an item twice in an option, an
    extra option: not a partial sudoku (the other kernels count them)."""
    grid = SOLVED[:70] + "." * 11
    base = residue(grid)
    assert partial.embed(base) is not None
    renamed = Problem(primary=[x if x != "p80" else "q80" for x in base.primary])
    wrong_box = Problem(primary=base.primary)
    extra = Problem(primary=[*base.primary, "p99"])
    box = base.option(0)[3]
    other = next(x for x in base.primary if x[0] == "b" and x != box)
    for k in range(base.n_options):
        items = base.option(k)
        renamed.add_option(["q80" if x == "p80" else x for x in items])
        wrong_box.add_option([other if k == 0 and x == box else x for x in items])
        extra.add_option(items)
    extra.add_option(["p99", base.primary[0], base.primary[1], base.primary[2]])
    for problem in (renamed, wrong_box, extra):
        assert partial.embed(problem) is None
        _agrees(problem)


def test_a_time_limit_stops_the_count():
    """A limit reached before the end: an incomplete count, no more than the whole."""
    result = dlx.count(residue(ROYLE_LESS2), time_limit=1e-6)
    assert not result.complete and result <= 910_776


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="POSIX interval timers")
def test_ctrl_c_stops_the_count_and_keeps_what_it_found():
    """Ctrl-C (here a timer's signal raising KeyboardInterrupt, as the command's handler
    does) while the kernel counts in its thread: the interrupt reaches the caller, the
    kernel stops at its next node and the solutions so far are kept (an interrupted
    ``Thread.join`` marked the thread as ended while it ran: no result to take)."""
    sparse = (
        ".........|.........|.........|.....3.2.|..1.4....|.........|.3.......|.7.......|62......."
    )
    search = partial.PartialCount(residue(sparse))
    partial._warm_up()  # compiled before the timer starts

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(KeyboardInterrupt):
            search.run()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert search.solutions > 0 and not search.done


def test_a_parallel_count_runs_the_sudoku_kernel_in_this_process(monkeypatch, tmp_path, capsys):
    """A parallel count of a partial 9x9 sudoku (``--workers 2``) is counted whole by the
    sudoku kernel in this process, no pool started (on ``sudoku_royle_less2`` it took
    less wall time than the tight kernel on two processes: docs/performance.md); with a
    checkpoint (tasks to record) the tasks run as before, by the tight kernel. The count
    is the tight kernel's."""
    from dlx.cli import main
    from dlx.parallel import run as parallel_run

    def no_pool(*args, **kwargs):
        raise AssertionError("a pool was started")

    problem = residue("." * 30 + SOLVED[30:], seed=3)
    expected = dlx.count(problem, engine="tight").solutions
    path = tmp_path / "partial.dlx"
    path.write_text(dlx.write(problem))
    choose = parallel_run.kernel_choice
    recorded = dlx.Parallel(workers=2, checkpoint=str(tmp_path / "count.ckpt"))
    assert choose("auto", problem, None, options=recorded).name == "tight"
    assert choose("auto", problem, None, options=dlx.Parallel(workers=2), whole=True).name == (
        "sudoku"
    )
    monkeypatch.setattr(parallel_run, "run_count", no_pool)
    result = dlx.count(problem, parallel=dlx.Parallel(workers=2))
    assert result == expected and result.stats.engine.startswith("sudoku")
    assert main([str(path), "--count", "--workers", "2", "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == str(expected) and "engine: sudoku" in err
