"""Checkpoints never touch a file that is not this problem's, are locked while a run
uses them, and turn every file-system failure into one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from shared import DATA, EXPECTED, load, watchdog

import dlx
from dlx.cli import main

ROOT = DATA.parent.parent


def test_a_text_file_is_refused_and_left_alone(tmp_path):
    for text in ("first line\nlast line without newline", "no newline at all", '{"a": 1}\n'):
        path = tmp_path / "notes.txt"
        path.write_text(text)
        with pytest.raises(dlx.CheckpointError, match="not a dlx checkpoint"):
            dlx.count(load("scott_sym"), parallel=dlx.Parallel(workers=2, checkpoint=path))
        assert path.read_text() == text
        assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # no lock left


def test_the_input_file_is_refused_and_left_alone(tmp_path, capsys):
    source = tmp_path / "scott.dlx"
    source.write_text((DATA / "scott_sym.dlx").read_text())
    before = source.read_bytes()
    args = [str(source), "--count", "--workers", "2", "--checkpoint", str(source), "--no-progress"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert "is the input file" in err and len(err.splitlines()) == 1
    assert source.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scott.dlx"]  # no lock left


def test_a_checkpoint_of_another_problem_keeps_its_last_line(tmp_path):
    path = tmp_path / "run.ckpt"
    dlx.count(load("scott_sym"), parallel=dlx.Parallel(workers=2, checkpoint=path))
    with open(path, "a") as f:
        f.write('{"task": 3, "solu')  # half written
    before = path.read_bytes()
    with pytest.raises(dlx.CheckpointError, match="different problem"):
        dlx.count(load("pent3x20_sym"), parallel=dlx.Parallel(workers=2, checkpoint=path))
    assert path.read_bytes() == before  # not even the half line was cut


def test_the_lock_is_given_back_while_forked_children_live(tmp_path):
    """A process forked while the checkpoint was locked (a pool's worker still
    ending, say) shares the lock's descriptor: the lock is given back all the same."""
    import multiprocessing
    import time

    from dlx.parallel.checkpoint import Checkpoint, Tree

    path, tree = tmp_path / "run.ckpt", Tree(load("scott_sym"), tree_version=1)
    first = Checkpoint(path)
    assert first.load(tree) is None
    child = multiprocessing.get_context("fork").Process(target=time.sleep, args=(60,))
    child.start()
    try:
        first.close()
        second = Checkpoint(path)
        assert second.load(tree) is None  # not "in use by process ..."
        second.close()
    finally:
        child.kill()
        child.join()


def test_a_locked_checkpoint_says_who_holds_it(tmp_path):
    path = tmp_path / "run.ckpt"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT);"
            "fcntl.flock(fd, fcntl.LOCK_EX); os.write(fd, b'%d' % os.getpid());"
            "print('locked', flush=True); time.sleep(60)",
            str(path) + ".lock",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        with watchdog(holder):
            assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(dlx.CheckpointError, match=f"in use by process {holder.pid}"):
            dlx.count(load("scott_sym"), parallel=dlx.Parallel(workers=2, checkpoint=path))
        assert not path.exists()  # nothing was written
    finally:
        holder.kill()
        holder.wait()
    result = dlx.count(
        load("scott_sym"), parallel=dlx.Parallel(workers=2, checkpoint=path)
    )  # free again
    assert result.solutions == EXPECTED["scott_sym"]
    assert not os.path.exists(str(path) + ".lock")  # the run gave its lock back, removed


@pytest.mark.parametrize(
    "where, message",
    [
        ("missing/run.ckpt", "no directory"),
        (".", "is a directory"),
    ],
)
def test_bad_places_are_one_line_errors(tmp_path, capsys, where, message):
    path = tmp_path / where
    args = [str(DATA / "scott_sym.dlx"), "--count", "--checkpoint", str(path), "--no-progress"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_place_is_a_one_line_error(tmp_path, capsys):
    tmp_path.chmod(0o500)
    try:
        args = [str(DATA / "scott_sym.dlx"), "--count", "--checkpoint", str(tmp_path / "x")]
        assert main(args) == 2
        assert "cannot" in capsys.readouterr().err
    finally:
        tmp_path.chmod(0o700)


def test_json_of_the_wrong_shape_is_refused(tmp_path):
    path = tmp_path / "run.ckpt"
    dlx.count(load("scott_sym"), parallel=dlx.Parallel(workers=2, checkpoint=path))
    lines = path.read_text().splitlines()
    for bad in ("[1, 2]", '{"task": "x", "solutions": 1}', '"text"', "3"):
        path.write_text("\n".join([lines[0], bad]) + "\n")
        with pytest.raises(dlx.CheckpointError, match="line 2 is not a"):
            dlx.count(load("scott_sym"), parallel=dlx.Parallel(workers=2, checkpoint=path))


def test_workers_one_with_a_checkpoint_runs_in_this_process(tmp_path):
    run = dlx.parallel.run.run_count(
        load("scott_sym"), dlx.Parallel(workers=1, checkpoint=tmp_path / "c")
    )
    assert run.count.solutions == EXPECTED["scott_sym"]
    assert {r.pid for r in run.results} == {os.getpid()}


class _FillingFile:
    """A checkpoint file on a disk that fills up: after ``room`` more bytes a write
    stores what fits (at least its first byte, so that the file ends inside a record
    whatever the records' lengths) and fails with ENOSPC, as a full disk does."""

    def __init__(self, file, room: int):
        self.file, self.room = file, room

    def write(self, text: str) -> int:
        if len(text) > self.room:
            cut = max(self.room, 1)  # the disk fills inside this record, never between two
            self.file.write(text[:cut])
            self.file.flush()
            self.room = 0
            raise OSError(28, "No space left on device")
        self.room -= len(text)
        return self.file.write(text)

    def __getattr__(self, name):
        return getattr(self.file, name)


def test_a_full_disk_is_one_line_and_the_records_before_it_survive(tmp_path, monkeypatch):
    path = tmp_path / "run.ckpt"
    real_open = dlx.parallel.checkpoint.Checkpoint._open
    monkeypatch.setattr(
        dlx.parallel.checkpoint.Checkpoint,
        "_open",
        lambda self, mode: _FillingFile(real_open(self, mode), 1500),
    )
    with pytest.raises(dlx.CheckpointError) as caught:
        dlx.count(load("scott_sym"), parallel=dlx.Parallel(checkpoint=path))
    message = str(caught.value)
    assert "\n" not in message and "No space left" in message and str(path) in message
    written = path.read_bytes()
    assert 0 < written.count(b"\n") and not written.endswith(b"\n")  # a half line at the end
    monkeypatch.undo()
    kept = written[: written.rindex(b"\n") + 1]
    run = dlx.parallel.run.run_count(load("scott_sym"), dlx.Parallel(workers=1, checkpoint=path))
    assert run.count.solutions == EXPECTED["scott_sym"]
    assert path.read_bytes().startswith(kept)  # the records before the full disk are kept
    assert run.resumed == kept.count(b"\n") - 1 > 0  # the header, then finished tasks


def test_a_resumed_bar_rates_only_this_runs_work(monkeypatch):
    """The time left after a resume comes from this run's speed: the fraction taken
    from the checkpoint is the bar's starting point, not work done in its first second
    (it said 16 minutes left for a 2-hour count resumed at 3%)."""
    import io
    import re

    from dlx.driver.results import Progress

    monkeypatch.setattr("sys.stderr", io.StringIO())
    bar = Progress(True, "count", initial=0.5)
    bar.update(0.5, 0)
    bar.bar.start_t -= 1.0  # a second of this run, in which 1% more was done
    bar.update(0.51, 0)
    minutes, seconds = re.search(r"<(\d\d):(\d\d)", str(bar.bar)).groups()
    assert 40 <= 60 * int(minutes) + int(seconds) <= 60, str(bar.bar)
    bar.close(None, 0)


# -- versions: a checkpoint written before goes on ---------------------------------------

OLD = Path(__file__).resolve().parent / "data" / "checkpoints"  # see its README.md
# file, engine, forced options, propagate, tasks it records, solutions of the whole count
# (scott_sym: 65, data/dlx/EXPECTED.tsv; 19 with option 1265 forced: the serial count)
VERSION_2 = [
    ("scott_sym.links.ckpt", "dlx", (), None, 5, EXPECTED["scott_sym"]),
    ("scott_sym.tight.ckpt", "tight", (), None, 5, EXPECTED["scott_sym"]),
    ("scott_sym.forced.domination.links.ckpt", "dlx", (1265,), "domination", 3, 19),
]


@pytest.mark.parametrize(("name", "engine", "forced", "propagate", "tasks", "total"), VERSION_2)
def test_a_checkpoint_of_version_2_goes_on_in_version_2(
    tmp_path, name, engine, forced, propagate, tasks, total
):
    """Written before the problem's digest was its own (version 2 hashed the
    dancing-links arrays): read, resumed and appended to in its own version."""
    path = tmp_path / name
    path.write_bytes((OLD / name).read_bytes())
    problem = load("scott_sym").with_propagation(propagate)
    assert dlx.count(problem, forced=forced).solutions == total
    options = dlx.Parallel(workers=1, checkpoint=str(path))
    resumed = dlx.count(problem, forced=forced, engine=engine, parallel=options)
    assert (resumed.solutions, resumed.resumed, resumed.complete) == (total, tasks, True)
    assert b'"version":2,' in path.read_bytes().split(b"\n")[0]
    again = dlx.count(problem, forced=forced, engine=engine, parallel=options)
    assert again.solutions == total and again.resumed == again.tasks  # all its lines pass


def test_auto_goes_on_from_a_version_2_checkpoint_with_the_kernel_that_wrote_it(tmp_path):
    path = tmp_path / "old.ckpt"
    path.write_bytes((OLD / "scott_sym.tight.ckpt").read_bytes())
    count = dlx.count(load("scott_sym"), parallel=dlx.Parallel(workers=1, checkpoint=str(path)))
    assert count.solutions == EXPECTED["scott_sym"] and count.resumed == 5
    assert count.stats.engine == "tight (auto: the kernel that wrote the checkpoint)"


def test_a_new_checkpoint_is_of_version_4_and_another_version_is_refused(tmp_path):
    from dlx.parallel.checkpoint import CHECKPOINT_VERSION

    path = tmp_path / "new.ckpt"
    options = dlx.Parallel(workers=1, checkpoint=str(path))
    assert dlx.count(load("scott_sym"), engine="tight", parallel=options).resumed == 0
    header = path.read_bytes().split(b"\n")[0]
    assert CHECKPOINT_VERSION == 4 and b'"version":4,' in header
    path.write_bytes(header.replace(b'"version":4,', b'"version":5,') + b"\n")
    with pytest.raises(dlx.CheckpointError, match="version 5 is not one of"):
        dlx.count(load("scott_sym"), engine="tight", parallel=options)


@pytest.mark.parametrize("engine", ["tight", "bitset"])
def test_a_bit_parallel_count_with_a_checkpoint_builds_no_links_layout(
    tmp_path, monkeypatch, engine
):
    """The digest is the problem's own: only the links kernel builds its layout (and
    a checkpoint of version 2, for which its arrays are hashed)."""
    from dlx.kernels.links import layout

    def refused(*args, **kwargs):
        raise AssertionError("the links layout was built")

    monkeypatch.setattr(layout, "compile_options", refused)
    options = dlx.Parallel(workers=1, checkpoint=str(tmp_path / "c.ckpt"))
    for _ in range(2):  # written, then resumed
        count = dlx.count(load("scott_sym"), engine=engine, parallel=options)
        assert count.solutions == EXPECTED["scott_sym"]
    with pytest.raises(AssertionError, match="links layout was built"):
        layout.arrays(load("scott_sym"))  # the builder the test watches
