"""Limits hold within a second on every path: serial and parallel counts, streams
(wall time from the call), and the reading of a huge file."""

from __future__ import annotations

import time

from shared import DATA, load

import dlx
from dlx import compiling
from dlx.cli import main
from dlx.parallel.split import split

BIG = "pent6x10_all"  # far more than a few seconds of search by dancing links


def test_parallel_time_limit_holds_while_tasks_run():
    p = load(BIG)
    dlx.count(p, node_limit=10, engine="dlx")  # the kernel loaded outside the timing
    t0 = time.perf_counter()
    result = dlx.count(  # dancing links: the bit kernels count BIG within the second
        p, parallel=dlx.Parallel(workers=2, tasks=2), time_limit=1.0, engine="dlx"
    )  # two tasks: each long
    assert time.perf_counter() - t0 < 2.5
    assert not result.complete and result.stopped_by == "time limit 1.0 s"


def test_parallel_node_limit_holds_while_tasks_run():
    result = dlx.count(load(BIG), parallel=dlx.Parallel(workers=2, tasks=2), node_limit=30000)
    assert not result.complete and result.stopped_by == "node limit 30000"
    # each task stops at the limit by itself too, and the stopped tasks' nodes count
    # (how many tasks start before the stop reaches the workers depends on the machine's
    # load: at most every one of the split's, each within the limit)
    tasks = split(load(BIG), tasks=2)
    assert result.stats.nodes <= len(tasks.tasks) * 30000 + tasks.nodes


def test_stream_time_limit_is_wall_time_from_the_call():
    """The consumer's time counts; the kernels' loading (or compiling) for ``auto``'s
    race does not (it is the machine's, not the search's: ``dlx.compiling``)."""
    t0, warming = time.perf_counter(), compiling.seconds()
    stream = dlx.solutions(load(BIG), time_limit=0.5)
    for _ in stream:
        time.sleep(0.05)  # a slow consumer: its time counts too
    assert time.perf_counter() - t0 - (compiling.seconds() - warming) < 2.5
    assert not stream.complete and "time limit" in stream.stopped_by


def test_time_limit_covers_reading_a_huge_file(tmp_path, capsys):
    n = 400_000
    path = tmp_path / "huge.dlx"
    path.write_text("a b c\n" + "a b\nc\n" * (n // 2))
    t0 = time.perf_counter()
    assert main([str(path), "--count", "--time-limit", "0.2", "--no-progress"]) == 0
    assert time.perf_counter() - t0 < 1.5
    captured = capsys.readouterr()
    assert captured.out.startswith("at least ")
    assert "time limit" in captured.err


def test_cli_incomplete_count_says_at_least(capsys):
    args = [str(DATA / f"{BIG}.dlx"), "--count", "--node-limit", "2000", "--no-progress"]
    assert main(args) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("at least ") and int(out.split()[-1]) >= 0
    for flag in ("--limit", "--node-limit", "--time-limit"):
        assert main([str(DATA / f"{BIG}.dlx"), "--count", flag, "-1"]) == 2
        assert f"{flag} must be >= 0" in capsys.readouterr().err
