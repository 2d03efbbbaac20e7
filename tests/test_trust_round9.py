"""Hostile tests of round 9 (2026-11-29): what failing writes are called, the puzzle
commands' --dlx, the compile-ahead process's parent, and the partial sudoku's edges."""

from __future__ import annotations

import errno
import io

import pytest

from dlx.outputs import open_text, run_writing

# -- only a failed write is "cannot write" ------------------------------------------------


def _raising(error: OSError):
    def body() -> int:
        raise error

    return body


@pytest.mark.parametrize(
    "error, line",
    [
        (OSError(errno.EMFILE, "Too many open files"), "error: [Errno 24] Too many open files"),
        (BrokenPipeError(errno.EPIPE, "Broken pipe"), "error: [Errno 32] Broken pipe"),
        (FileNotFoundError(errno.ENOENT, "No such file", "x.txt"), "error: [Errno 2] No such"),
    ],
)
def test_an_os_error_not_of_writing_is_its_own_line(capsys, error, line):
    """A worker pool's "too many open files" (or a worker's broken pipe) raised within a
    command was reported as "error: cannot write the output (...)" (the broken pipe: no
    line at all, status 141, as if the reader had gone away)."""
    assert run_writing(_raising(error)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(line), err
    assert "cannot write" not in err[0]


class _Full(io.StringIO):
    def write(self, text):
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_failed_write_to_standard_output_is_cannot_write(monkeypatch, capsys):
    """Standard output full: still "cannot write the output"."""

    def body() -> int:
        print("1 solution")
        return 0

    with capsys.disabled():
        import sys

        full, err = _Full(), io.StringIO()
        monkeypatch.setattr(sys, "stdout", full)
        monkeypatch.setattr(sys, "stderr", err)
        with monkeypatch.context() as m:
            m.setattr("dlx.outputs._silence_stdout", lambda: None)
            assert run_writing(body) == 1
        assert sys.stdout is full  # put back
    assert err.getvalue() == "error: cannot write the output (No space left on device)\n"


def test_a_failed_write_to_an_output_file_names_it(tmp_path, monkeypatch, capsys):
    """A file opened by ``open_text`` that fails to write names itself."""
    path = str(tmp_path / "out.txt")

    def body() -> int:
        with open_text(path) as f:
            monkeypatch.setattr(f, "_stream", _Full())
            f.write("x")
        return 0

    assert run_writing(body) == 1
    assert capsys.readouterr().err == f"error: cannot write {path} (No space left on device)\n"


# -- --dlx FILE alone writes the file, and searches nothing ---------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["polyform", "--board", "3x20", "--pieces", "pentominoes"],
        ["polyform", "--board", "3x20", "--pieces", "pentominoes", "--workers", "1"],
        ["rectangles", "--size", "4"],
        ["pentomino", "--board", "8x8", "--extra", "O"],
    ],
)
def test_dlx_file_alone_writes_and_stops(tmp_path, capsys, monkeypatch, argv):
    """``polyform --board 9x10 ... --dlx FILE`` wrote the file, then counted for minutes
    (the docs cut it short with ``--time-limit 1``): the file was asked for, not a count."""
    import dlx
    from puzzles.cli import main

    def refuse(*args, **keywords):
        raise AssertionError("searched")

    path = tmp_path / "p.dlx"
    monkeypatch.setattr(dlx, "count", refuse)
    monkeypatch.setattr(dlx, "solutions", refuse)
    assert main([*argv, "--dlx", str(path), "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"wrote {path} (") and err.count("\n") == 1, err
    assert path.read_text(encoding="utf-8").startswith("|")
    if argv[0] == "pentomino":  # (it had no --dlx: "unrecognized arguments")
        assert path.read_text(encoding="utf-8").startswith("| 8x8 / pentominoes,O: ")


@pytest.mark.parametrize(
    "more, expected",
    [
        (["--count"], "distinct solutions: 2"),
        (["--json"], '"count": 2'),
        (["--limit", "1"], "VVV"),
        (["--sample", "1", "--seed", "3"], "\n"),
    ],
)
def test_dlx_file_with_a_search_flag_searches(tmp_path, capsys, more, expected):
    """A search flag given with ``--dlx FILE``: the file, then the search (the 3x20's
    2 distinct tilings, Knuth TAOCP 7.2.2.1)."""
    from puzzles.cli import main

    path = tmp_path / "p.dlx"
    argv = ["polyform", "--board", "3x20", "--pieces", "pentominoes", "--dlx", str(path)]
    assert main([*argv, *more, "--workers", "1", "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert expected in out, out
    assert err.startswith(f"wrote {path} (")


# -- the compile ahead ends with the process it serves --------------------------------------

PARENT = """
import sys, time
from dlx import compiling
from dlx.kernels.bitset.search import BitsetSearch

assert BitsetSearch.compile_ahead(), "not started"
print(compiling._ahead["bitset"][0].pid, flush=True)
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    import os

    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return not os.path.exists("/proc")


@pytest.mark.skipif(not __import__("os").path.exists("/proc/self/stat"), reason="reads /proc")
def test_the_compile_ahead_ends_soon_after_its_parent_is_killed(tmp_path):
    """A kill -9 of ``python -m dlx`` left the second process (the bitset kernel's
    compile ahead, started on a first run) compiling alone until its end: 10 to 100 s
    of a core. Now it ends within a second or so. (An empty numba cache of its own:
    NUMBA_CACHE_DIR.)"""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=root, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    child = None
    try:
        child = int(parent.stdout.readline())
        time.sleep(1.0)  # (it imports numba and starts compiling)
        assert _alive(child)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        ended = time.monotonic() + 10
        while _alive(child) and time.monotonic() < ended:
            time.sleep(0.05)
        assert not _alive(child), "the compile ahead outlived its parent by 10 s"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        if child is not None and _alive(child):
            os.kill(child, signal.SIGKILL)


# -- certificates: where the parts go -------------------------------------------------------

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.skipif(not __import__("os").path.isdir("/proc/self"), reason="needs /proc")
def test_a_certificate_where_nothing_can_be_written_is_one_line(capsys, workers):
    """``--certificate /proc/c.cert``: "error: [Errno 2] No such file or directory:
    '/proc/.cert-parts-yxl7a0__'" (with --workers 2: the folder of the parts, a name the
    user never gave), status 1. Now the path or its folder, and why, status 2."""
    from dlx.cli import main

    problem = str(ROOT / "data" / "dlx" / "pent3x20_sym.dlx")
    argv = [problem, "--count", "--certificate", "/proc/c.cert", "--workers", workers]
    assert main([*argv, "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err
    assert err.startswith("error: /proc") and "cannot" in err and "cert-parts" not in err, err


def test_a_parts_folder_that_is_a_file_is_refused(tmp_path):
    """``write_certificate(..., folder=FILE)``: "afile: cannot hold ... (File exists)"
    from the first part's build; now refused before any, naming it."""
    import dlx
    from dlx.outputs import OutputError

    problem = dlx.read(ROOT / "data" / "dlx" / "pent3x20_sym.dlx")
    folder = tmp_path / "afile"
    folder.write_text("x")
    for workers in (1, 2):
        with pytest.raises(OutputError, match="afile: not a folder"):
            dlx.write_certificate(problem, tmp_path / "c.cert", folder=folder, workers=workers)


def test_a_join_stopped_leaves_no_parts_folder(tmp_path, monkeypatch):
    """Ctrl-C while the parts of ``--workers N`` were joined into the certificate left
    the hidden ``.cert-parts-*`` folder behind (and what parts were not copied yet)."""
    import dlx
    from dlx.solution_graph import certificate

    def stopped(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(certificate, "_join", stopped)
    problem = dlx.read(ROOT / "data" / "dlx" / "pent3x20_sym.dlx")
    with pytest.raises(KeyboardInterrupt):
        dlx.write_certificate(problem, str(tmp_path / "c.cert"), workers=2)
    assert [p.name for p in tmp_path.iterdir()] == []


# -- auto's narrow-board rule is for whole counts -------------------------------------------


def test_a_stream_of_a_narrow_tiling_is_not_held_by_tights_count(monkeypatch):
    """The narrow-board rule (tight's count run on for ``LONG_PROBE`` s, then the bitset
    kernel, for its memo) ran for streams and limited counts too, which take no memo:
    ``polyform --board 5x18 --pieces one-sided-pentominoes --limit 1`` counted with
    tight for 1 s before its first tiling (auto 1.69 s, tight 0.24 s of search). The
    first solutions of the one-sided 3x30 (46 distinct: Polyform Puzzler's
    ``OneSidedPentominoes3x30``) come without that probe, and are tilings."""
    import dlx
    from dlx import engines
    from puzzles.polyform import tiling

    narrow = tiling.build(tiling.make_puzzle("3x30", "one-sided-pentominoes"))

    def probed(*args, **keywords):
        raise AssertionError("tight's count was run on to decide a stream")

    monkeypatch.setattr(engines, "_tight_ends", probed)
    found = list(dlx.solutions(narrow, limit=3))
    assert len(found) == 3 and all(dlx.is_solution(narrow, s.options) for s in found)
    assert dlx.count(narrow, limit=5).solutions == 5


@pytest.mark.parametrize("workers", [1, 2])
def test_a_parts_folder_of_another_certificate_is_refused(tmp_path, workers):
    """A folder holding the parts of another problem's certificate (or any file named
    as a part) had its counts taken as this one's: the 6x10's 2,339 distinct tilings
    (Haselgrove 1960) written as 1,908, the certificate invalid, no word said. Now
    refused in one line; the right folder resumed gives the same bytes as one run."""
    import filecmp

    import dlx
    from dlx.outputs import OutputError

    strip = dlx.read(ROOT / "data" / "dlx" / "pent3x20_sym.dlx")
    board = dlx.read(ROOT / "data" / "dlx" / "pent6x10_sym.dlx")
    stale = tmp_path / "stale"
    stale.mkdir()
    (stale / "00000.part").write_text("| part 1 count 100\n2: (~1?0:1)\n")
    with pytest.raises(OutputError, match="00000.part: not the part of option"):
        dlx.write_certificate(board, tmp_path / "b.cert", folder=stale, workers=workers)
    other = tmp_path / "other"
    first = dlx.write_certificate(strip, tmp_path / "s.cert", folder=other, stop_after=0.0)
    assert first.parts_left > 0
    with pytest.raises(OutputError, match="holds the parts of another certificate"):
        dlx.write_certificate(board, tmp_path / "b.cert", folder=other, workers=workers)
    resumed = dlx.write_certificate(strip, tmp_path / "s.cert", folder=other, workers=workers)
    assert resumed.count == 2 and list(other.iterdir()) == []  # (Knuth, TAOCP 7.2.2.1)
    dlx.write_certificate(strip, tmp_path / "whole.cert")
    assert filecmp.cmp(tmp_path / "s.cert", tmp_path / "whole.cert", shallow=False)


def test_a_parallel_count_with_a_time_limit_runs_no_narrow_probe(monkeypatch):
    """``python -m dlx 6x15.dlx --count --time-limit 0.5 --workers 2`` ran tight's count
    for 1 s to decide the workers' kernel (the narrow-board rule, the time limit not
    given to it): 4.1 s wall, against 1.6 s on the wide 8x8 + O."""
    import dlx
    from dlx import engines
    from puzzles.polyform import tiling

    narrow = tiling.build(tiling.make_puzzle("3x30", "one-sided-pentominoes"))

    def probed(*args, **keywords):
        raise AssertionError("tight's count was run on to decide a count with a time limit")

    monkeypatch.setattr(engines, "_tight_ends", probed)
    result = dlx.count(narrow, parallel=dlx.Parallel(workers=1, tasks=4), time_limit=30)
    assert result.complete and result.solutions == 184  # 4 * 46 (test_auto's narrow test)


# -- the partial sudoku path, renamed and tampered with ---------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_a_partial_sudoku_renamed_or_tampered_counts_as_tight_does(seed):
    """Knuth's SUDOKU-DLX residues of grids cut from a solved one, their item names
    swapped, transposed (rows for columns), relabelled (digits 1 and 2) or permuted, an
    option duplicated or dropped: ``auto`` (the sudoku kernel where the problem embeds,
    else another) counts what the tight kernel counts, and the naive solver where small.
    (300 such problems were tried while writing this: no difference.)"""
    import random
    import sys
    from pathlib import Path

    import dlx
    from dlx.verify import naive_solutions

    sys.path.insert(0, str(Path(__file__).parent))
    from test_sudoku_partial import SOLVED, residue

    rng = random.Random(seed)
    for _ in range(8):
        grid = list(SOLVED)
        for i in rng.sample(range(81), rng.randint(5, 40)):
            grid[i] = "."
        drop = rng.sample(range(60), rng.randint(0, 4))
        p = residue("".join(grid), drop=drop, seed=rng.randint(0, 999))
        names = list(p.primary)
        kind = rng.randrange(5)
        if kind == 0:
            a, b = rng.sample(names, 2)
            rename = {**{x: x for x in names}, a: b, b: a}
        elif kind == 1:
            rename = {x: {"r": "c", "c": "r"}.get(x[0], x[0]) + x[1:] for x in names}
        elif kind == 2:
            swap = {"1": "2", "2": "1"}
            rename = {x: x if x[0] == "p" else x[:2] + swap.get(x[2], x[2]) for x in names}
        else:
            shuffled = rng.sample(names, len(names)) if kind == 3 else names
            rename = dict(zip(names, shuffled, strict=True))
        if len(set(rename.values())) != len(names) or not p.n_options:
            continue
        options = [p.option(k) for k in range(p.n_options)]
        if rng.random() < 0.3:
            options.append(rng.choice(options))
        elif rng.random() < 0.3:
            options.pop(rng.randrange(len(options)))
        q = dlx.Problem(primary=[rename[x] for x in names])
        for option in options:
            q.add_option([rename[x] for x in option])
        want = int(dlx.count(q, engine="tight"))
        got = dlx.count(q)
        assert got.complete and got == want, (kind, got.stats.engine)
        if q.n_options <= 12:
            assert len(naive_solutions(q, 12)) == want
