"""Limits hold on every path: serial and parallel counts, streams (wall time from the
call), and the reading of a huge file. What is checked is what the code controls (the
stop and its reason, a clock that the test moves), never how long the machine took."""

from __future__ import annotations

from shared import DATA, load
from test_limits import FakeClock

import dlx
from dlx import cli, dlxfile
from dlx.cli import main
from dlx.driver import driver
from dlx.parallel.split import split

BIG = "pent6x10_all"  # far more than a few seconds of search by dancing links


def test_parallel_time_limit_holds_while_tasks_run():
    p = load(BIG)
    dlx.count(p, node_limit=10, engine="dlx")  # the kernel loaded outside the timing
    result = dlx.count(  # dancing links: the bit kernels count BIG within the second
        p, parallel=dlx.Parallel(workers=2, tasks=2), time_limit=1.0, engine="dlx"
    )  # two tasks: each far longer than the limit, so only the limit can end the count
    assert not result.complete and result.stopped_by == "time limit 1.0 s"
    assert 0 < result.stats.nodes


def test_parallel_node_limit_holds_while_tasks_run():
    result = dlx.count(load(BIG), parallel=dlx.Parallel(workers=2, tasks=2), node_limit=30000)
    assert not result.complete and result.stopped_by == "node limit 30000"
    # each task stops at the limit by itself too, and the stopped tasks' nodes count
    # (how many tasks start before the stop reaches the workers depends on the machine's
    # load: at most every one of the split's, each within the limit)
    tasks = split(load(BIG), tasks=2)
    assert result.stats.nodes <= len(tasks.tasks) * 30000 + tasks.nodes


def test_stream_time_limit_is_wall_time_from_the_call(monkeypatch):
    """The consumer's time counts: with a clock that only the consumer moves (0.1 s a
    solution), a 0.5 s limit ends the stream after five solutions."""
    p = load(BIG)
    dlx.count(p, node_limit=10, engine="dlx")  # the kernel loaded before the clock is faked
    clock = FakeClock()
    monkeypatch.setattr(driver, "time", clock)
    stream = dlx.solutions(p, time_limit=0.5, engine="dlx")
    seen = 0
    for _ in stream:
        seen += 1
        clock.advance(0.1)  # a slow consumer: its time counts too
    assert not stream.complete and stream.stopped_by == "time limit 0.5 s"
    assert seen in (5, 6)  # 0.5 s of this clock (6: a reading a hair under the limit)


def test_time_limit_covers_reading_a_huge_file(tmp_path, capsys, monkeypatch):
    """The limit counts from the command's start, reading included: with a clock that
    moves 0.1 s at each look, the reader stops at its third look at the clock."""
    n = 400_000
    path = tmp_path / "huge.dlx"
    path.write_text("a b c\n" + "a b\nc\n" * (n // 2))
    clock = FakeClock(step=0.1)
    monkeypatch.setattr(cli, "time", clock)
    monkeypatch.setattr(dlxfile, "time", clock)
    assert main([str(path), "--count", "--time-limit", "0.2", "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("at least ")
    assert "time limit" in captured.err
    assert clock.now < 1000.0 + 0.1 * 5  # stopped while reading, not at its end


def test_cli_incomplete_count_says_at_least(capsys):
    args = [str(DATA / f"{BIG}.dlx"), "--count", "--node-limit", "2000", "--no-progress"]
    assert main(args) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("at least ") and int(out.split()[-1]) >= 0
    for flag in ("--limit", "--node-limit", "--time-limit"):
        assert main([str(DATA / f"{BIG}.dlx"), "--count", flag, "-1"]) == 2
        assert f"{flag} must be >= 0" in capsys.readouterr().err
