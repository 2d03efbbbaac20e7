"""Files and terminals used against the user (issue 28): a checkpoint proves its counts,
a lock file is never followed or emptied, only regular files are checkpoints, no output
names an input, every failure to write is one line, signals give one line from the
first instruction, and only ASCII digits are numbers."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from shared import DATA, EXPECTED

from dlx.cli import main

ROOT = DATA.parent.parent
SCOTT = str(DATA / "scott_sym.dlx")


def _count_args(checkpoint) -> list[str]:
    """``python -m dlx`` counting scott_sym on one process into ``checkpoint``."""
    return [SCOTT, "--count", "--workers", "1", "--checkpoint", str(checkpoint), "--no-progress"]


def _one_line_error(capsys, *words: str) -> str:
    """The one line on stderr, which holds every one of ``words``."""
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err
    return err


@pytest.fixture
def finished(tmp_path, capsys):
    """The lines of a finished checkpoint of scott_sym (its path, its bytes)."""
    path = tmp_path / "c.ckpt"
    assert main(_count_args(path)) == 0
    assert capsys.readouterr().out.strip() == str(EXPECTED["scott_sym"])
    return path, path.read_bytes()


# -- 1. a checkpoint proves its numbers ---------------------------------------------------


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda line: line.replace(b'"solutions":', b'"solutions":-5000'), "line 3"),
        (lambda line: line.replace(b'"solutions":', b'"solutions":6'), "line 3 fails its check"),
        (lambda line: line.replace(b'"task":', b'"task":true,"t":'), "line 3"),
        (lambda line: line.replace(b'"check":"', b'"check":"0'), "line 3 fails its check"),
    ],
)
def test_an_edited_count_is_refused_naming_its_line(finished, capsys, edit, message):
    """A record's count changed by hand (it printed -966 or 65034 with exit 0)."""
    path, data = finished
    lines = data.split(b"\n")
    lines[2] = edit(lines[2])
    path.write_bytes(b"\n".join(lines))
    assert main(_count_args(path)) == 2
    _one_line_error(capsys, message)
    assert capsys.readouterr().out == ""


def test_a_record_of_another_problem_is_refused(finished, tmp_path, capsys):
    """A line taken from another problem's checkpoint does not pass this one's check."""
    path, data = finished
    other = tmp_path / "other.ckpt"
    assert (
        main(
            [str(DATA / "pent3x20_sym.dlx"), "--count", "--workers", "1"]
            + ["--checkpoint", str(other), "--no-progress"]
        )
        == 0
    )
    capsys.readouterr()
    foreign = other.read_bytes().split(b"\n")[1]
    path.write_bytes(data + foreign + b"\n")
    assert main(_count_args(path)) == 2
    _one_line_error(capsys, f"line {len(data.splitlines()) + 1} fails its check")


@pytest.mark.parametrize("depth", [100_000, 5_000])
def test_deep_brackets_are_one_line(finished, capsys, depth):
    """A line of 100,000 ``[`` gave a RecursionError traceback."""
    path, data = finished
    path.write_bytes(data + b"[" * depth + b"\n")
    assert main(_count_args(path)) == 2
    _one_line_error(capsys, f"line {len(data.splitlines()) + 1} is not a checkpoint record")


def test_a_checkpoint_of_the_version_before_is_refused(finished, capsys):
    """Version 1 lines carry no check: refused with one line, never resumed."""
    path, data = finished
    old = data.replace(b'"version":2', b'"version":1')
    path.write_bytes(old)
    assert main(_count_args(path)) == 2
    _one_line_error(capsys, "older version")
    assert path.read_bytes() == old


# -- 2. lock files ----------------------------------------------------------------------


def test_a_symlinked_lock_is_refused_and_its_target_kept(tmp_path, capsys):
    """``x.ckpt.lock`` a symbolic link to another file: that file was emptied."""
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me\n")
    (tmp_path / "x.ckpt.lock").symlink_to(precious)
    assert main(_count_args(tmp_path / "x.ckpt")) == 2
    _one_line_error(capsys, "symbolic link")
    assert precious.read_text() == "keep me\n"
    assert not (tmp_path / "x.ckpt").exists()


def test_a_foreign_lock_file_is_refused_and_kept(tmp_path, capsys):
    lock = tmp_path / "x.ckpt.lock"
    lock.write_text("my notes\n")
    assert main(_count_args(tmp_path / "x.ckpt")) == 2
    _one_line_error(capsys, "not a lock file")
    assert lock.read_text() == "my notes\n"


def test_a_refused_checkpoint_creates_no_lock(tmp_path, capsys):
    """Refused before anything is created, even for a moment."""
    path = tmp_path / "notes.txt"
    path.write_text("notes\n")
    made = []
    real_open = os.open

    def spying_open(name, flags, *rest):
        if flags & os.O_CREAT:
            made.append(name)
        return real_open(name, flags, *rest)

    os.open = spying_open
    try:
        assert main(_count_args(path)) == 2
    finally:
        os.open = real_open
    _one_line_error(capsys, "not a dlx checkpoint")
    assert made == [] and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


# -- 4. only regular files --------------------------------------------------------------


def _run_dlx(args: list[str], timeout: float = 60, **keywords) -> subprocess.CompletedProcess:
    """``python -m dlx ARGS`` in a child process (killed after ``timeout`` seconds)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "dlx", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=keywords.pop("cwd", ROOT),
        **keywords,
    )


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "/dev/stdout"])
def test_special_files_are_refused_at_once(tmp_path, special):
    """/dev/zero grew memory by 350 MB/s; a FIFO or /dev/stdout on a pipe hung."""
    if special == "fifo":
        special = str(tmp_path / "fifo")
        os.mkfifo(special)
    done = _run_dlx(_count_args(special), timeout=60)
    assert done.returncode == 2
    assert "not a regular file" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("text", [b"{", b'{"format"', b'{"format":"dlx-checkpoint"'])
def test_a_header_cut_short_is_not_overwritten(tmp_path, capsys, text):
    path = tmp_path / "c.ckpt"
    path.write_bytes(text)
    assert main(_count_args(path)) == 2
    _one_line_error(capsys, str(path))
    assert path.read_bytes() == text
