"""What each kernel's tables take (``Driver.tables``): the parts add up to the arrays
the search holds, the figure worked out before the arrays exist is theirs, a search
past ``dlx.kernels.links.tables.MAX_BYTES`` is refused with that figure, and the memo grows no
further than the cap leaves."""

from __future__ import annotations

import mmap

import numpy as np
import pytest

import dlx
from dlx.cli import main as dlx_main
from dlx.driver import rows, tables
from dlx.driver.driver import TableBytes, tiny_problem
from dlx.driver.rows import (
    MEMO_BIG_BYTES,
    MEMO_BYTES,
    MEMO_FIRST_BYTES,
    MEMO_GROW_AFTER,
    MEMO_GROW_NODES,
)
from dlx.kernels.bitset.search import BitMemo, BitsetSearch
from dlx.kernels.links.search import Memo, Search
from dlx.kernels.tight.search import TightMemo, TightSearch
from dlx.verify import naive_solutions
from puzzles.cli import main as puzzles_main
from tests.boards import dominoes, queens
from tests.shared import DATA, run_to_end

KERNELS = [(Search, Memo), (BitsetSearch, BitMemo), (TightSearch, TightMemo)]
IDS = ["dlx", "bitset", "tight"]


def arrays_of(*objects) -> int:
    """Bytes of every distinct numpy array among the fields of ``objects`` (a field
    shared by two counts once)."""
    seen = {}
    for obj in objects:
        fields = obj._asdict().values() if hasattr(obj, "_asdict") else vars(obj).values()
        for v in fields:
            if isinstance(v, np.ndarray):
                seen[id(v)] = v.nbytes
    return sum(seen.values())


def held(search) -> tuple[int, int]:
    """(layout, search) bytes, read off the search's own objects independently of the
    kernel's hooks."""
    if isinstance(search, Search):
        loop = () if search.loop is None else (search.loop._replace(incident=None),)
        return arrays_of(search._arrays), arrays_of(search.state, *loop)
    state = search._state._replace(memo=None)
    regions = getattr(search, "_regions", None) or ()
    frame = getattr(search, "_frame", None)  # the tight kernel's frame: live, map, group, level
    regions = (*regions, *(frame[3:] if frame is not None else ()))
    return arrays_of(search._layout), arrays_of(state) + sum(a.nbytes for a in regions)


@pytest.mark.parametrize(("kernel", "memo"), KERNELS, ids=IDS)
@pytest.mark.parametrize("with_memo", [False, True])
def test_the_parts_add_up(kernel, memo, with_memo):
    """layout + search + memo == table_bytes(); the search's figure worked out before
    its arrays existed is the arrays' size; Stats carries the same figures."""
    problem = dominoes(4, 5)
    table = memo.of(problem) if with_memo else None
    search = kernel(problem, memo=table)
    parts = search.tables()
    assert (parts.layout, parts.search) == held(search)
    assert parts.search == search._search_bytes(search.limbs)
    assert parts.memo == (table.table_bytes if with_memo else 0) and parts.memo_max >= parts.memo
    assert search.table_bytes() == parts.layout + parts.search + parts.memo
    search.run()
    assert search.solutions == 95  # domino tilings of 4x5: 4 x n domino tilings, OEIS A005178
    stats = search.stats
    assert stats.tables == search.tables()
    assert str(stats).splitlines()[0].startswith("tables: ")


@pytest.mark.parametrize(
    "problem",
    [tiny_problem(True), queens(6).with_propagation("domination")],
    ids=["loop items", "domination"],
)
def test_the_dancing_links_figure_counts_loops_and_domination(problem):
    search = Search(problem)
    assert search.tables()[:2] == held(search)
    assert search._search_bytes(1) == search.tables().search


@pytest.mark.parametrize(("kernel", "memo"), KERNELS, ids=IDS)
def test_past_the_cap_a_search_is_refused_with_its_figure(kernel, memo, monkeypatch):
    """The check is made before the search's arrays exist, on exactly the figure they
    then take: one byte under it refuses, the figure itself does not."""
    problem = dominoes(4, 5)
    need = sum(kernel(problem).tables()[:2])
    monkeypatch.setattr(tables, "MAX_BYTES", need)
    assert kernel(problem).table_bytes() == need
    monkeypatch.setattr(tables, "MAX_BYTES", need - 1)
    figure = tables.size(need).replace(".", r"\.")
    with pytest.raises(dlx.ProblemError, match=rf"would need {figure} for this problem's tables"):
        kernel(problem)


def test_the_refusal_is_one_line_from_count(monkeypatch):
    monkeypatch.setattr(tables, "MAX_BYTES", 100)
    with pytest.raises(dlx.ProblemError) as error:
        dlx.count(dominoes(4, 5), engine="dlx")
    assert "\n" not in str(error.value) and "(at most 100 B)" in str(error.value)


@pytest.mark.parametrize(("kernel", "memo"), KERNELS, ids=IDS)
def test_the_memo_grows_no_further_than_the_cap(kernel, memo, monkeypatch):
    """With room for the memo but not for its growth, the memo stops where layout +
    search + memo fits; with no room for it, the search goes on without one; either
    way the count is the naive solver's."""
    problem = dominoes(2, 6)
    expected = len(naive_solutions(problem))
    need = sum(kernel(problem).tables()[:2])
    first = memo.of(problem).table_bytes
    monkeypatch.setattr(tables, "MAX_BYTES", need + first + first // 2)
    search = kernel(problem, memo=memo.of(problem))
    parts = search.tables()
    assert parts.memo == first and parts.layout + parts.search + parts.memo_max <= tables.MAX_BYTES
    if hasattr(search.memo, "used_for"):
        search.memo.used_for(MEMO_GROW_AFTER)  # time to grow: it may not
        assert search.table_bytes() <= tables.MAX_BYTES
    search.run()
    assert search.solutions == expected
    monkeypatch.setattr(tables, "MAX_BYTES", need + first - 1)
    search = kernel(problem, memo=memo.of(problem))
    assert search.memo is None and search.tables().memo == 0
    search.run()
    assert search.solutions == expected


def test_the_memo_grows_when_there_is_room():
    """Uncapped, a bitset memo grows to ``MEMO_BIG_BYTES`` after ``MEMO_GROW_AFTER``
    seconds, and says so beforehand (``memo_max``, "growing to" in the stats)."""
    problem = dominoes(4, 5)
    search = BitsetSearch(problem, memo=BitMemo.of(problem))
    parts = search.tables()
    assert parts.memo < parts.memo_max <= MEMO_BIG_BYTES
    assert "growing to" in str(parts)
    search.memo.used_for(MEMO_GROW_AFTER)
    assert search.tables().memo == parts.memo_max


@pytest.mark.parametrize(("kernel", "memo"), KERNELS[1:], ids=IDS[1:])
def test_a_small_count_keeps_its_memo_small(kernel, memo):
    """A memo table starts at ``MEMO_FIRST_BYTES``: a count of fewer than
    ``MEMO_GROW_NODES`` nodes never makes a larger one (the first touch of its huge
    pages would cost more than the search). A longer count's calls are cut to reach
    each growth by nodes of its memo's ``schedule`` exactly, and its table then has
    that step's size (the tight kernel's: 1 MiB for its trial, then ``MEMO_BYTES``).
    Counts: the naive solver's, and 167,089 domino tilings of 6x8 (OEIS A099390; the
    tight kernel keeps no counts there, else it would end first)."""
    small = dominoes(2, 6)
    search = run_to_end(kernel(small, memo=memo.of(small)))
    assert search.nodes < MEMO_GROW_NODES and search.memo.table_bytes <= MEMO_FIRST_BYTES
    assert search.solutions == len(naive_solutions(small))
    big = dominoes(6, 8)
    table = memo.of(big)
    table.paid = True  # the tight kernel's: no trial (it would drop a memo kept so short)
    search = kernel(big, memo=table, **({"memo_levels": 0} if memo is TightMemo else {}))
    steps = [(int(nodes), size) for _, nodes, size in memo.schedule() if nodes < np.inf]
    assert steps[0][0] == MEMO_GROW_NODES and steps[-1][1] == MEMO_BYTES
    size = search.memo.table_bytes
    for nodes, then in steps:
        while search.memo.nodes < nodes:
            assert search.memo.table_bytes == size
            search.run()
        assert search.memo.nodes == nodes and search.memo.table_bytes == then
        size = then
    assert run_to_end(search).solutions == 167_089


def test_small_tables_come_from_the_heap_and_large_ones_from_their_own_mapping():
    """A table under a huge page is an ordinary array (a fresh mapping's page faults
    cost a small count several times its search); a larger one has its own anonymous
    mapping (untouched pages cost nothing; huge pages where the system gives them)."""

    def mapped(array) -> bool:
        while array is not None and not isinstance(array, mmap.mmap):
            array = getattr(array, "base", getattr(array, "obj", None))  # or a memoryview
        return array is not None

    small = rows._anonymous((rows.HUGE_PAGE // 64, 4))
    large = rows._anonymous((rows.HUGE_PAGE // 32, 4))
    assert small.nbytes < rows.HUGE_PAGE <= large.nbytes
    assert not mapped(small) and mapped(large) == hasattr(mmap, "MAP_ANONYMOUS")
    assert not small.any() and not large.any()


def test_the_stats_line():
    parts = TableBytes(800_000, 200_000, 16_000_000, 64_000_000)
    assert str(parts) == "tables: 17 MB (layout 0.8, search 0.2, memo 16 growing to 64)"
    assert str(TableBytes(1_234_567, 0)) == "tables: 1.23 MB (layout 1.23, search 0)"


@pytest.mark.parametrize("engine", IDS)
def test_the_commands_print_the_tables(engine, capsys):
    """``python -m dlx`` (stats always on stderr) and a puzzle command with ``--stats``
    print the line, with the figures the search's Stats carries."""
    path = str(DATA / "pent3x20_sym.dlx")
    flags = ["--no-progress", "--workers", "1", "--engine", engine]
    assert dlx_main(["--count", *flags, path]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == "2"  # Knuth's pent3x20_sym.dlx (data/dlx/EXPECTED.tsv)
    counted = dlx.count(dlx.read(path), engine=engine)
    assert f"\n{counted.stats.tables}\n" in err
    argv = ["pentomino", "--board", "3x20", "--count", "--stats", *flags]
    assert puzzles_main(argv) == 0
    assert "\ntables: " in capsys.readouterr().err


@pytest.mark.parametrize("memo", [BitMemo, TightMemo], ids=["bitset", "tight"])
def test_wider_counts_keep_a_capped_memo_within_its_bytes(memo):
    """A count that outgrows its limbs widens the memo's rows: within ``max_bytes`` it
    keeps its entries, past it the table takes fewer rows (empty: a memo only forgets)."""
    table = memo.of(dominoes(2, 6))
    table.table[:, :] = 7  # stands for entries
    rows, width = table.table.shape
    table.widen(4)  # room: the entries move to the wider rows
    assert table.table.shape[0] == rows and table.table.shape[1] > width
    assert np.all(table.table[:, :width] == 7) and table.table.nbytes <= table.max_bytes
    table.limit(table.table.nbytes)
    size = table.table.nbytes
    table.widen(64)
    assert table.table.nbytes <= size == table.max_bytes and not table.table.any()
    table.used_for(MEMO_GROW_AFTER)
    assert table.table.nbytes <= size
