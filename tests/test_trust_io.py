"""Inputs that are not named and locks that are not ours (issue 42): standard input
redirected from a file is an input no output may name; a checkpoint's lock file is an
output; a lock file with several names, of another user or not a regular file is
refused and left as it is; no lock file outlives its run."""

from __future__ import annotations

import dataclasses
import importlib
import os
import sys
from contextlib import contextmanager

import pytest
from shared import DATA, EXPECTED
from test_fuzz import COMMANDS

from dlx.cli import main
from puzzles.cli import main as puzzles

SCOTT = str(DATA / "scott_sym.dlx")


def _count_args(checkpoint, *more: str) -> list[str]:
    """``python -m dlx`` counting scott_sym on one process into ``checkpoint``."""
    return [SCOTT, "--count", "--workers", "1", "--checkpoint", str(checkpoint), *more]


def _one_line_error(capsys, *words: str) -> str:
    """The one line on stderr, which holds every one of ``words``."""
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err
    return err


@contextmanager
def stdin_from(path):
    """Within: file descriptor 0 (and ``sys.stdin``) read ``path``, as ``< path`` does."""
    saved = os.dup(0)
    fd = os.open(path, os.O_RDONLY)
    os.dup2(fd, 0)
    os.close(fd)
    previous = sys.stdin
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    try:
        yield
    finally:
        sys.stdin.close()
        sys.stdin = previous
        os.dup2(saved, 0)
        os.close(saved)


# -- standard input is an input -----------------------------------------------------------

# (command, whether FILE is ``-``): sudoku reads standard input without a FILE too
STDIN_COMMANDS = [(name, True) for name in ("sudoku", "tectonic", "loop", "pipes", "slitherlink")]
STDIN_COMMANDS.append(("sudoku", False))


@pytest.mark.parametrize("name, dash", STDIN_COMMANDS)
@pytest.mark.parametrize("flag", ["--out", "--svg"])
def test_an_output_onto_the_file_stdin_reads_is_refused(tmp_path, capsys, name, dash, flag):
    """``python -m puzzles sudoku - --out s.txt < s.txt`` replaced the puzzles with the
    answers, exit 0 (so did loop, pipes, tectonic and slitherlink)."""
    text = COMMANDS[name][1]
    path = tmp_path / "puzzles.txt"
    path.write_text(text, encoding="utf-8")
    args = [name, *(["-"] if dash else []), flag, str(path), "--no-progress"]
    with stdin_from(path):
        assert puzzles(args) == 2
    _one_line_error(capsys, flag, "standard input")
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("name", [name for name, dash in STDIN_COMMANDS if not dash])
def test_an_output_onto_stdin_is_refused_before_the_puzzles_are_read(
    tmp_path, capsys, monkeypatch, name
):
    """``sudoku --out s.txt < s.txt`` (no FILE) built the puzzles' set-up first (on an
    empty cache: compiling the sudoku kernel, its notice on stderr, 15 s) and only then
    refused; at load 8 the refusal's one line was three (issue 37)."""
    from puzzles import cli

    def read(*args):
        raise AssertionError("the puzzles were read before the output was refused")

    command = cli.command_of(name)
    module = importlib.import_module(cli.COMMANDS[name].module)
    monkeypatch.setattr(module, "COMMAND", dataclasses.replace(command, read=read))
    path = tmp_path / "puzzles.txt"
    path.write_text(COMMANDS[name][1], encoding="utf-8")
    with stdin_from(path):
        assert puzzles([name, "--out", str(path), "--no-progress"]) == 2
    _one_line_error(capsys, "--out", "standard input")


def test_an_output_beside_stdin_is_written(tmp_path, capsys):
    """Another file is no clash: the answers are written as before."""
    path, out = tmp_path / "puzzles.txt", tmp_path / "answers.txt"
    path.write_text(COMMANDS["sudoku"][1])
    with stdin_from(path):
        assert puzzles(["sudoku", "-", "--out", str(out), "--no-progress"]) == 0
    assert out.read_text().strip() and path.read_text() == COMMANDS["sudoku"][1]


def test_the_dlx_command_refuses_stdin_as_its_checkpoint(tmp_path, capsys):
    source = tmp_path / "scott.dlx"
    source.write_bytes((DATA / "scott_sym.dlx").read_bytes())
    with stdin_from(source):
        assert main(["-", "--count", "--workers", "1", "--checkpoint", str(source)]) == 2
    _one_line_error(capsys, "standard input")
    assert source.read_bytes() == (DATA / "scott_sym.dlx").read_bytes()


# -- the lock is an output, and only ever ours ------------------------------------------


@pytest.mark.parametrize("flag", ["--out", "--svg"])
def test_an_output_onto_the_checkpoints_lock_is_refused(tmp_path, capsys, flag):
    """``--out c.ckpt.lock`` was accepted; the next run then failed ("not a lock")."""
    path = tmp_path / "p.ckpt"
    args = ["pentomino", "--board", "3x20", "--count", "--workers", "1", "--no-progress"]
    args += ["--checkpoint", str(path)]
    assert puzzles([*args, flag, str(path) + ".lock"]) == 2
    _one_line_error(capsys, "lock")
    assert puzzles(args) == 0  # the checkpoint still works
    # the 3x20 rectangle has 2 pentomino tilings up to symmetry (Knuth, "Dancing links")
    assert "distinct solutions: 2" in capsys.readouterr().out


def test_a_hard_linked_lock_is_refused_and_kept(tmp_path, capsys):
    """``ln pidfile h.ckpt.lock``: the count ran and wrote its process id into pidfile."""
    pidfile = tmp_path / "pidfile"
    pidfile.write_text("4242\n")
    os.link(pidfile, tmp_path / "h.ckpt.lock")
    assert main(_count_args(tmp_path / "h.ckpt", "--no-progress")) == 2
    _one_line_error(capsys, "hard links")
    assert pidfile.read_text() == "4242\n" and not (tmp_path / "h.ckpt").exists()


@pytest.mark.parametrize("link", ["symbolic", "hard"])
def test_a_checkpoint_is_never_written_through_a_link(tmp_path, capsys, link):
    """A checkpoint path that is a link to a file of the user's (empty, as a new
    checkpoint would be): the count is refused and the file keeps what it held."""
    mine = tmp_path / "notes.txt"
    mine.write_text("")
    checkpoint = tmp_path / "c.ckpt"
    if link == "symbolic":
        checkpoint.symlink_to(mine)
    else:
        os.link(mine, checkpoint)
    assert main(_count_args(checkpoint, "--no-progress")) == 2
    _one_line_error(capsys, "c.ckpt", "symbolic link" if link == "symbolic" else "hard links")
    assert mine.read_text() == ""


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs chown")
def test_a_lock_of_another_user_is_refused(tmp_path, capsys):
    lock = tmp_path / "h.ckpt.lock"
    lock.write_text("4242\n")
    os.chown(lock, 54321, 54321)
    assert main(_count_args(tmp_path / "h.ckpt", "--no-progress")) == 2
    _one_line_error(capsys, "another user")
    assert lock.read_text() == "4242\n"


@pytest.mark.parametrize(
    "more",
    [
        [],  # a finished count
        ["--node-limit", "2000"],  # stopped by a limit
    ],
)
def test_no_lock_outlives_its_run(tmp_path, capsys, more):
    """Every run left its (emptied) lock file beside the checkpoint."""
    path = tmp_path / "c.ckpt"
    assert main(_count_args(path, "--no-progress", *more)) == 0
    out = capsys.readouterr().out.strip()
    assert out == str(EXPECTED["scott_sym"]) if not more else out.startswith("at least")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.ckpt"]
    assert main(_count_args(path, "--no-progress")) == 0  # resumed
    assert capsys.readouterr().out.strip() == str(EXPECTED["scott_sym"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.ckpt"]


def test_a_lock_left_by_a_killed_run_is_taken(tmp_path, capsys):
    """A kill -9 leaves its process id in the lock: the next run takes the lock."""
    (tmp_path / "c.ckpt.lock").write_text("999999\n")
    assert main(_count_args(tmp_path / "c.ckpt", "--no-progress")) == 0
    assert capsys.readouterr().out.strip() == str(EXPECTED["scott_sym"])
    assert not (tmp_path / "c.ckpt.lock").exists()
