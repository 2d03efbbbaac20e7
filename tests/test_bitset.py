"""The bitset kernel against the dancing-links kernel and the naive solver.

Every count is compared with the DLX kernel's (and the naive solver's where the problem
is small), every solution a test sees goes through ``dlx.verify.check``, and the
kernel's choices (urgent items first, region pruning, the memo) are each switched off
to show that none of them changes a count.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared import as_set, checked_solutions

import dlx
from dlx import engines
from dlx.driver import rows
from dlx.driver.codes import PAUSED
from dlx.kernels.bitset.layout import fits, layout, suits, why_not
from dlx.kernels.bitset.search import BitMemo, BitsetSearch
from dlx.verify import check, naive_solutions
from puzzles import polyomino as pm
from tests.boards import dominoes
from tests.strategies import problems

DATA = Path(__file__).resolve().parent.parent / "data"
with open(DATA / "dlx" / "EXPECTED.tsv") as f:
    EXPECTED = {name: int(n) for name, n in csv.reader(f, delimiter="\t")}

# the kernel's choices: each one switched off in turn, and all of them
CHOICES = [
    {},
    {"urgent": False},
    {"prune_cap": 0},
    {"prune_cap": 1000},
    {"prune_cap": 4},
    {"memo_levels": 2},
    {"urgent": False, "prune_cap": 0},
]


def bit_count(problem, memo=True, memo_bytes=None, **choices) -> int:
    """The bitset kernel's full count (with a fresh memo, unless ``memo`` is False; of
    ``memo_bytes`` if given: 1 for the smallest table, where most keys collide)."""
    table = BitMemo.of(problem) if memo_bytes is None else BitMemo.of(problem, memo_bytes)
    search = BitsetSearch(problem, memo=table if memo else None, **choices)
    while search.run() == PAUSED:
        search.sanity()  # the state holds at every pause (see dlx.kernels.bitset.layout.sanity)
    assert search.done
    return search.solutions


def bit_solutions(problem, **choices) -> list[tuple[int, ...]]:
    """Every solution the bitset kernel streams, each checked."""
    return checked_solutions(BitsetSearch(problem, **choices))


# -- what fits ------------------------------------------------------------------------


def test_why_not_names_the_reason():
    coloured = dlx.Problem(primary=["a"], secondary=["x"])
    coloured.add_option(["a", "x:red"])
    assert why_not(coloured) == "it has colours"
    loose = dlx.Problem(primary=["a", "b"], bounds={"b": (0, 2)})
    loose.add_option(["a"])
    loose.add_option(["b"])
    assert why_not(loose) == "option 1 covers no primary item with bounds 1:1"
    with pytest.raises(dlx.ProblemError, match="cannot search this problem: it has colours"):
        BitsetSearch(coloured)
    assert fits(dominoes(2, 3))


def test_polyomino_layout_finds_pieces_cells_and_x():
    z = pm.make_puzzle("6x10")
    lay = layout(pm.build(z, pm.plan_symmetry(z)))
    assert (lay.n_cells, lay.n_primary_bits, lay.words) == (60, 72, 2)
    assert len(lay.piece_bit) == 12 and set(lay.piece_size) == {5}
    x = lay.urgent_bit[0]
    assert lay.bit_item[x] == 61 + "FILNPTUVWXYZ".index("X")  # cells are items 1..60
    # each option's cells are connected by the adjacency (what region pruning needs)
    for o in range(len(lay.option)):
        cells = {b for b in range(60) if int(lay.mask[o, b >> 6]) >> (b & 63) & 1}
        reached, todo = set(), [min(cells)]
        while todo:
            b = todo.pop()
            reached.add(b)
            todo += [c for c in cells - reached if int(lay.neighbours[b, c >> 6]) >> (c & 63) & 1]
        assert reached == cells


HOLED = "\n".join(["XXXXXXXX"] * 3 + ["XXX..XXX"] * 2 + ["XXXXXXXX"] * 3) + "\n"  # 8x8 less 2x2


@pytest.mark.parametrize(
    ("board", "pieces", "lattice", "edges"),
    [
        ("9x10", "one-sided-pentominoes", "square", 161),  # 9 x 9 + 8 x 10
        ("6x10", "pentominoes", "square", 104),  # 6 x 9 + 5 x 10
        ("5x12", "pentominoes", "square", 103),
        (HOLED, "pentominoes", "square", 100),  # 112, less the hole's 4 inside and 8 around
        ("hexagon:3", "I6,P6,J6,E6,V6,H6,S6,X6,C6", "triangular", 72),
        ("4x6", "I3*3,V3*3,A3*2", "hexagonal", 53),
    ],
)
def test_the_cells_adjacency_is_the_grids(board, pieces, lattice, edges):
    """The bitset layout's neighbours (``dlx.kernels.cells.adjacency``) are the board's
    edges (``tiling.adjacency``): near corners, where few options reach, the raw count
    of options holding a pair joined cells two apart (169 edges on 9x10, not 161)."""
    from puzzles.polyform import tiling

    puzzle = tiling.make_puzzle(board, pieces, lattice=lattice)
    problem = tiling.build(puzzle)
    lay = layout(problem)
    names = [*problem.primary, *problem.secondary]
    name = [names[lay.bit_item[b] - 1] for b in range(lay.n_cells)]
    found = {
        frozenset((name[a], name[b]))
        for a in range(lay.n_cells)
        for b in range(lay.n_cells)
        if int(lay.neighbours[a, b >> 6]) >> (b & 63) & 1
    }
    assert found == {frozenset(e) for e in tiling.adjacency(puzzle)}
    assert len(found) == edges


@pytest.mark.parametrize("name", ["pent6x10_sym", "sudoku_escargot"])
def test_piece_slots_cover_each_list(name):
    """The groups that the free-piece bitset visits at bit ``b`` are exactly the options
    listed under ``b`` (with no pieces, one slot holds each list), each of one piece."""
    lay = layout(dlx.read(str(DATA / "dlx" / f"{name}.dlx")))
    for b in range(lay.n_primary_bits):
        listed = set(range(lay.list_start[b], lay.list_start[b + 1]))
        visited = set()
        for p in range(lay.slot_group.shape[1]):
            g = lay.slot_group[b, p]
            has = bool(int(lay.bit_slots[b, p >> 6]) >> (p & 63) & 1)
            assert has == (g >= 0)
            if not has:
                continue
            first, last = lay.group_start[g], lay.group_start[g + 1]
            assert last > first
            visited |= set(range(first, last))
            assert all(lay.option_slot[o] in (p, -1) for o in range(first, last))
        assert visited == listed


@pytest.mark.parametrize("name, short", [("pent6x10_sym", 6), ("pent3x20_sym", 3)])
def test_cells_declared_along_the_long_side_are_swept(name, short):
    """These .dlx files number their cells row by row along the board's long side
    ("rc": row, then column): the layout sweeps them a short column at a time."""
    problem = dlx.read(str(DATA / "dlx" / f"{name}.dlx"))
    lay = layout(problem)
    names = [problem.primary[i - 1] for i in lay.bit_item[: lay.n_cells]]
    columns = [{n[1:] for n in names[k : k + short]} for k in range(0, lay.n_cells, short)]
    assert all(len(c) == 1 for c in columns), columns
    declared = list(dict.fromkeys(n[1:] for n in problem.primary if n[1:].isalnum()))
    swept = [c.pop() for c in columns]
    assert swept in (declared, declared[::-1])


def test_a_deliberate_order_is_kept():
    """The polyomino adapter declares its cells along the short side: kept as they are."""
    z = pm.make_puzzle("6x10")
    lay = layout(pm.build(z, pm.plan_symmetry(z)))
    assert list(lay.bit_item[:60]) == list(range(1, 61))


# -- shipped problems -----------------------------------------------------------------

# (the _all files take the dancing-links kernel 3 to 12 s each)
QUICK_FILES = ["scott_sym", "sudoku_escargot", "sudokuk_escargot"]
QUICK_FILES += ["pent3x20_sym", "pent4x15_sym", "pent5x12_sym", "pent6x10_sym"]
SLOW_FILES = sorted(set(EXPECTED) - set(QUICK_FILES))


def _file_agrees(name):
    problem = dlx.read(str(DATA / "dlx" / f"{name}.dlx"))
    if not fits(problem):
        pytest.skip(f"{name}: {why_not(problem)}")
    expected = EXPECTED[name]
    assert bit_count(problem) == expected == dlx.count(problem).solutions


@pytest.mark.parametrize("name", QUICK_FILES)
def test_dlx_files_agree(name):
    _file_agrees(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW_FILES)
def test_dlx_files_agree_slow(name):
    _file_agrees(name)


BOARDS = [
    ("3x20", "pentominoes", ()),
    ("20x3", "pentominoes", ()),
    ("5x8", "tetrominoes_twice", ()),
    ("5x4", "tetrominoes", ()),
    ("4x5", "I4,L4,T4,S4,O4", ()),
    ("3x4", "L3*4", ()),
]


def _puzzle(board, pieces, extra):
    if pieces == "tetrominoes_twice":
        pieces = str(DATA / "polyomino" / "tetrominoes_twice.txt")
    return pm.make_puzzle(board, pieces, list(extra))


@pytest.mark.parametrize(("board", "pieces", "extra"), BOARDS)
def test_polyomino_boards_agree(board, pieces, extra):
    puzzle = _puzzle(board, pieces, extra)
    plan = pm.plan_symmetry(puzzle, fallback=True)
    for problem in (pm.build(puzzle), pm.build(puzzle, plan)):
        expected = dlx.count(problem).solutions
        for choices in CHOICES:
            assert bit_count(problem, **choices) == expected, choices


@pytest.mark.slow
@pytest.mark.parametrize(
    ("board", "extra"),
    [("6x10", ()), ("10x6", ()), ("5x12", ()), ("8x8", ("O",)),
     (str(DATA / "polyomino" / "scott.txt"), ()), (str(DATA / "polyomino" / "cross.txt"), ("O",))],
)  # fmt: skip
def test_big_boards_agree(board, extra):
    puzzle = pm.make_puzzle(board, "pentominoes", list(extra))
    problem = pm.build(puzzle, pm.plan_symmetry(puzzle))
    expected = dlx.count(problem).solutions
    assert bit_count(problem) == expected
    assert bit_count(problem, prune_cap=0) == expected


def test_lone_cells_are_pruned_only_without_monominoes():
    """The default pruning (lone free cells) cuts the tree where no piece has one cell,
    and cuts nothing that has a solution where one has (the counts agree)."""

    def nodes_and_count(problem, cap):
        search = BitsetSearch(problem, memo=None, prune_cap=cap)
        while search.run() == PAUSED:
            pass
        return search.stats.nodes, search.solutions

    pent = pm.build(pm.make_puzzle("3x20", "pentominoes"))
    (pruned, n1), (plain, n0) = nodes_and_count(pent, 1), nodes_and_count(pent, 0)
    assert n1 == n0 == dlx.count(pent).solutions and pruned < plain
    mono = pm.build(pm.make_puzzle("4x4", "I1*4,L3*4"))
    assert nodes_and_count(mono, 1)[1] == nodes_and_count(mono, 0)[1] == dlx.count(mono)


# -- random tilings and random problems -----------------------------------------------

SMALL_PIECES = ["I1", "I2", "I3", "L3", "I4", "O4", "T4", "S4", "L4"]


@st.composite
def tilings(draw):
    """A random piece set (some pieces with several copies, which makes them counters)
    and a board of the same area: a rectangle with random holes."""
    names = draw(st.lists(st.sampled_from(SMALL_PIECES), min_size=1, max_size=4, unique=True))
    pieces, area = [], 0
    for name in names:
        copies = draw(st.integers(1, 3))
        size = len(pm.NAMED[name])
        if area + copies * size > 20:
            break
        area += copies * size
        pieces.append(name if copies == 1 else f"{name}*{copies}")
    if not pieces:
        pieces, area = ["I1"], 1
    height = draw(st.integers(1, 6))
    width = max(-(-area // height), draw(st.integers(1, 6)))
    cells = [(r, c) for r in range(height) for c in range(width)]
    board = draw(st.permutations(cells))[:area]
    return board, ",".join(pieces)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tilings())
def test_random_tilings_agree(tiling):
    board, pieces = tiling
    problem = pm.build(pm.make_puzzle(board, pieces))
    dlx_found = as_set(s.options for s in dlx.solutions(problem))
    for choices in CHOICES:
        found = bit_solutions(problem, **choices)
        assert len(found) == len(dlx_found) and as_set(found) == dlx_found, choices
        assert bit_count(problem, **choices) == len(dlx_found), choices
    assert bit_count(problem, memo_bytes=1) == len(dlx_found)
    if problem.n_options <= 14:
        assert as_set(naive_solutions(problem)) == dlx_found


@pytest.mark.oracle
@settings(max_examples=200, deadline=None)
@given(problems(colours=False, max_options=9, max_primary=5))
def test_random_problems_agree_with_naive(problem):
    if not fits(problem):
        return
    naive = as_set(naive_solutions(problem))
    for choices in CHOICES:
        found = bit_solutions(problem, **choices)
        assert len(found) == len(naive) and as_set(found) == naive, choices
        assert bit_count(problem, **choices) == len(naive)
    assert dlx.count(problem).solutions == len(naive)


# -- limits, streams, splits ----------------------------------------------------------


def _scott():
    return dlx.read(str(DATA / "dlx" / "scott_sym.dlx"))


@pytest.mark.parametrize("name", ["scott_sym", "pent6x10_sym"])
def test_a_memo_that_collides_or_grows_stays_exact(name, monkeypatch):
    """Eight two-row buckets (every key collides), and a table that grows between two
    kernel calls (its entries dropped), count what the search without a memo counts."""
    problem = dlx.read(str(DATA / "dlx" / f"{name}.dlx"))
    expected = EXPECTED[name]
    assert bit_count(problem, memo=False) == expected
    assert bit_count(problem, memo_bytes=1) == expected
    monkeypatch.setattr(rows, "MEMO_GROW_AFTER", 0.0)
    memo = BitMemo.of(problem)
    small = memo.table.shape
    search = BitsetSearch(problem, memo=memo, budget=5000)
    while search.run() == PAUSED:
        pass
    assert memo.table.shape[0] > small[0] and search.solutions == expected


def test_forced_options_are_reported():
    problem = _scott()
    first = next(iter(dlx.solutions(problem, engine="bitset")))
    forced = first.options[:2]
    again = list(dlx.solutions(problem, forced=forced, engine="bitset"))
    assert all(s.options[:2] == forced for s in again)
    assert {frozenset(s.options) for s in again} == {
        frozenset(s.options) for s in dlx.solutions(problem, forced=forced)
    }


# -- exact counts at any size -----------------------------------------------------------


# -- the engine through the public API ---------------------------------------------------


def test_engines_agree_in_parallel_and_with_checkpoints(tmp_path):
    problem = _scott()
    serial = dlx.count(problem, engine="bitset").solutions
    assert serial == 65 == dlx.count(problem, engine="auto").solutions
    assert (
        dlx.count(problem, engine="bitset", parallel=dlx.Parallel(workers=2, tasks=8)).solutions
        == 65
    )
    ckpt = tmp_path / "run.ckpt"
    assert (
        dlx.count(
            problem, engine="bitset", parallel=dlx.Parallel(workers=2, checkpoint=str(ckpt))
        ).solutions
        == 65
    )
    again = dlx.count(
        problem, engine="bitset", parallel=dlx.Parallel(workers=2, checkpoint=str(ckpt))
    )
    assert again.solutions == 65
    found = list(dlx.solutions(problem, engine="bitset", parallel=dlx.Parallel(workers=2)))
    assert len(found) == 65 and len(as_set(s.options for s in found)) == 65
    for s in found:
        check(problem, s.options)


def test_auto_picks_bitset_for_tilings_only():
    """auto measures (``dlx.driver.choose``): on a tiling the bitset kernel races (tight
    leading); elsewhere whichever of the kernels that take the problem is faster (a
    whole 9x9 sudoku's Knuth-named items make it a partial sudoku: the sudoku kernel)."""
    sudoku = dlx.read(str(DATA / "dlx" / "sudoku_escargot.dlx"))
    assert engines.resolve("auto", _scott()) in ("bitset", "tight") and suits(_scott())
    assert "bitset" in [k.name for k in engines._lineup(_scott()).takers]
    assert engines.resolve("auto", sudoku) in ("dlx", "tight", "sudoku")
    coloured = dlx.Problem(primary=["a"], secondary=["x"])
    coloured.add_option(["a", "x:red"])
    assert engines.resolve("auto", coloured) in ("dlx", "tight")
    with pytest.raises(dlx.ProblemError, match="bitset kernel cannot"):
        dlx.count(coloured, engine="bitset")


def test_polysticks_do_not_look_like_the_bitset_kernels_kind():
    """The leader's guess (``suits``): a symmetry-broken tiling, whose restricted piece's
    options hold a secondary item, still looks like a tiling; polysticks, most of whose
    options hold a crossing point, do not (the tight kernel leads there)."""
    from puzzles.polyform import tiling

    def built(board: str, pieces: str) -> dlx.Problem:
        puzzle = tiling.make_puzzle(board, pieces)
        return tiling.build(puzzle, tiling.plan_symmetry(puzzle, fallback=True))

    pentominoes = built("5x12", "pentominoes")
    sticks = built("5x5", "tetrasticks,-H")
    assert pentominoes.secondary and suits(pentominoes) and fits(sticks)
    assert not suits(sticks) and engines.ENGINES["tight"].suits(sticks)


def test_cli_engine_flag(capsys):
    from dlx.cli import main

    path = str(DATA / "dlx" / "scott_sym.dlx")
    for engine in ("dlx", "bitset", "auto"):
        assert main([path, "--count", "--engine", engine, "--workers", "1"]) == 0
        assert capsys.readouterr().out.strip() == "65"


def test_pentomino_command_engine_flag(capsys):
    from puzzles.cli import main

    for engine in ("dlx", "bitset", "auto"):
        argv = ["pentomino", "--board", "20x3", "--no-progress", "--workers", "1"]
        assert main([*argv, "--engine", engine]) == 0
        assert capsys.readouterr().out.split() == ["all", "solutions:", "8", "distinct",
                                                   "solutions:", "2"]  # fmt: skip
