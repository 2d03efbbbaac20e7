"""Files and terminals used against the user: a checkpoint proves its counts,
a lock file is never followed or emptied, only regular files are checkpoints, no output
names an input, every failure to write is one line, signals give one line from the
first instruction, and only ASCII digits are numbers."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from shared import DATA, EXPECTED, watchdog

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
    old = data.replace(b'"version":4', b'"version":1')
    assert old != data
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


def _run(module: str, args: list[str], timeout: float = 120, **keywords):
    """``python -m MODULE ARGS`` in a child process (killed after ``timeout`` seconds)."""
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        **keywords,
    )


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "/dev/stdout"])
def test_special_files_are_refused_at_once(tmp_path, special):
    """/dev/zero grew memory by 350 MB/s; a FIFO or /dev/stdout on a pipe hung."""
    if special == "fifo":
        special = str(tmp_path / "fifo")
        os.mkfifo(special)
    done = _run("dlx", _count_args(special), timeout=60)
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


# -- 3. no output names an input --------------------------------------------------------


BOARD = "\n".join(["#" * 10] * 6) + "\n"  # the 6x10 rectangle, as a picture


@pytest.mark.parametrize(
    "command",
    [
        ["pentomino", "--board", "{b}", "--out", "{b}"],
        ["pentomino", "--board", "{b}", "--svg", "{b}"],
        ["pentomino", "--board", "{b}", "--count", "--checkpoint", "{b}"],
        ["polyform", "--board", "{b}", "--pieces", "pentominoes", "--dlx", "{b}"],
        ["pentomino", "--board", "1x5", "--pieces", "{p}", "--out", "{p}"],
        ["pentomino", "--board", "{b}", "--out", "{link}"],
    ],
)
def test_no_output_overwrites_an_input(tmp_path, capsys, command):
    """The board was replaced by the answers, exit 0."""
    from puzzles.cli import main as puzzles

    board, piece = tmp_path / "b.txt", tmp_path / "p.txt"
    board.write_text(BOARD)
    piece.write_text("IIIII\n")
    (tmp_path / "link.txt").symlink_to(board)
    names = {"b": board, "p": piece, "link": tmp_path / "link.txt"}
    assert puzzles([word.format(**names) for word in command] + ["--no-progress"]) == 2
    _one_line_error(capsys, "input")
    assert board.read_text() == BOARD and piece.read_text() == "IIIII\n"


def test_an_output_that_is_the_checkpoint_is_refused(tmp_path, capsys):
    """``--out p.ckpt`` on a run checkpointing to ``p.ckpt`` destroyed the checkpoint."""
    from puzzles.cli import main as puzzles

    path = tmp_path / "p.ckpt"
    args = ["pentomino", "--board", "3x20", "--count", "--workers", "1"]
    assert puzzles(args + ["--checkpoint", str(path), "--no-progress"]) == 0
    capsys.readouterr()
    kept = path.read_bytes()
    assert puzzles(args + ["--checkpoint", str(path), "--out", str(path)]) == 2
    _one_line_error(capsys, "same file")
    assert path.read_bytes() == kept


def test_the_dlx_command_refuses_its_input_as_checkpoint(tmp_path, capsys):
    source = tmp_path / "scott.dlx"
    source.write_bytes((DATA / "scott_sym.dlx").read_bytes())
    assert main([str(source)] + _count_args(source)[1:]) == 2
    _one_line_error(capsys, "input")
    assert source.read_bytes() == (DATA / "scott_sym.dlx").read_bytes()


# -- 6. output failures are one line ----------------------------------------------------


@pytest.mark.parametrize(
    "flag, where, message",
    [
        ("--out", ".", "is a directory"),
        ("--out", "nodir/x", "no directory"),
        ("--svg", "nodir/x.svg", "no directory"),
        ("--dlx", ".", "is a directory"),
    ],
)
def test_unwritable_outputs_are_one_line_before_any_work(tmp_path, capsys, flag, where, message):
    from puzzles.cli import main as puzzles

    args = ["polyform", "--board", "6x10", "--pieces", "pentominoes", "--no-progress"]
    assert puzzles(args + [flag, str(tmp_path / where)]) == 2
    _one_line_error(capsys, message, flag)
    assert capsys.readouterr().out == ""


def test_a_closed_pipe_is_quiet_with_141():
    """``python -m dlx pent6x10_all.dlx --workers 1 | head -1`` gave a BrokenPipeError
    traceback."""
    child = subprocess.Popen(
        [sys.executable, "-m", "dlx", str(DATA / "pent6x10_all.dlx"), "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    first = child.stdout.readline()
    child.stdout.close()  # as head does after its line
    err = child.stderr.read().decode()
    assert child.wait(timeout=120) == 141 and first.strip()
    assert err.strip() == "" or "Traceback" not in err and "Error" not in err, err


@pytest.mark.parametrize(
    "command",
    [
        ["-m", "dlx", str(DATA / "scott_sym.dlx"), "--count"],
        ["-m", "dlx", str(DATA / "scott_sym.dlx")],
        ["-m", "puzzles", "sudoku", str(ROOT / "data" / "sudoku" / "17_clue_first1000.txt")],
    ],
)
@pytest.mark.parametrize("stdout", ["closed", "/dev/full"])
def test_a_closed_or_full_stdout_is_one_line_and_fails(command, stdout):
    """``>&-``: an AttributeError traceback, or the count lost with exit 0; ``>/dev/full``
    an OSError traceback."""
    if stdout == "/dev/full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    sink = open(stdout, "w") if stdout != "closed" else None  # noqa: SIM115
    try:
        done = subprocess.run(
            [sys.executable, *command, "--no-progress"],
            stdout=sink if sink is not None else subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            pass_fds=(),
            preexec_fn=(lambda: os.close(1)) if sink is None else None,
        )
    finally:
        if sink is not None:
            sink.close()
    err = [line for line in done.stderr.splitlines() if not line.startswith("dlx: compil")]
    assert done.returncode != 0
    assert len(err) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "cannot write" in err[0]


# -- 7. signals from the first instruction ----------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["dlx", str(DATA / "pent6x10_all.dlx"), "--count", "--workers", "1"],
        ["puzzles", "pentomino", "--board", "6x10", "--count", "--workers", "1"],
    ],
)
@pytest.mark.parametrize("signum, delay", [(2, 0.0), (15, 0.15), (15, 0.45)])
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_signal_while_starting_is_one_line_and_130(command, signum, delay):
    """SIGINT while numpy was being imported gave a KeyboardInterrupt traceback; SIGTERM
    while the kernel loaded killed the process without the "interrupted" line. The
    signal is sent ``delay`` seconds after the command's own handlers are in place (seen
    in /proc: before that, Python itself is starting, on a busy machine for long)."""
    import signal
    import time

    child = subprocess.Popen(
        [sys.executable, "-m", *command, "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
    while child.poll() is None and not _catches(child.pid, signal.SIGTERM):
        time.sleep(0.005)
    time.sleep(delay)
    child.send_signal(signal.Signals(signum))
    out, err = child.communicate(timeout=120)
    lines = [line for line in err.splitlines() if not line.startswith("dlx: compil")]
    assert "Traceback" not in err, err
    if child.returncode == 0:  # finished before the signal came (a warm cache, a fast host)
        return
    if child.returncode == -signum and re.search(r"\d+ nodes, [\d.]+ s$", err.strip()):
        return  # finished, its last line written, and the signal came while it exited
    # 130, or death by SIGINT after the line (the shell's status is 130 either way): a
    # signal at about 0.3 s, while the kernel module loads, ends the second way
    assert child.returncode in (130, -signal.SIGINT), (child.returncode, err)
    assert len(lines) == 1 and lines[0].startswith("interrupted"), err


def _catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler of signal ``signum`` (its SigCgt mask)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:  # it has ended
        return True
    caught = re.search(r"^SigCgt:\s*([0-9a-f]+)$", status, re.MULTILINE)
    return caught is not None and bool(int(caught.group(1), 16) >> (signum - 1) & 1)


# -- 8. ASCII digits only ---------------------------------------------------------------


@pytest.mark.parametrize("digit", ["２", "٢"])
def test_a_unicode_digit_is_no_bound_in_a_dlx_file(tmp_path, capsys, digit):
    """``２|a`` was read as the bound 2."""
    path = tmp_path / "u.dlx"
    path.write_text(f"{digit}|a b\na\na\nb\n", encoding="utf-8")
    assert main([str(path), "--count", "--no-progress"]) == 2
    _one_line_error(capsys, "line 1")
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    "command",
    [
        ["loop", "{f}"],
        ["pentomino", "--board", "６x10", "--count"],
        ["sudoku", "--generate", "２"],
        ["sudoku", "{s}", "--limit", "２"],
    ],
)
def test_a_unicode_digit_is_no_number_for_the_puzzles(tmp_path, capsys, command):
    """``３`` was read as the tile 3 of a loop puzzle; flags took ``２`` as 2."""
    from puzzles.cli import main as puzzles

    loop, sudoku = tmp_path / "l.txt", tmp_path / "s.txt"
    loop.write_text("6 12\n3 ９\n", encoding="utf-8")  # ┏┓ / ┗┛ with a fullwidth 9
    sudoku.write_text("1...\n..1.\n.1..\n...1\n")
    try:
        status = puzzles([w.format(f=loop, s=sudoku) for w in command] + ["--no-progress"])
    except SystemExit as e:  # argparse refuses a flag so
        status = e.code
    assert status == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.strip()


# -- 5. caps and time limits cover building ---------------------------------------------


def _blank_slitherlink(tmp_path, side: int):
    """A file holding a blank slitherlink of ``side`` x ``side`` cells."""
    path = tmp_path / f"blank{side}.txt"
    path.write_text(f"{side} {side}\n" + (" ".join("-" * side) + "\n") * side)
    return path


def _limited_memory():
    """In a child: at most 4 GB of address space, as ``ulimit -v 4000000``."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (4_000_000 * 1024, 4_000_000 * 1024))


def test_a_slitherlink_too_large_is_refused_at_once(tmp_path):
    """Blank 1000x1000 took 65.6 s and 5.6 GB before stopping (under ``ulimit -v``, a
    numpy ArrayMemoryError traceback)."""
    path = _blank_slitherlink(tmp_path, 1000)
    done = _run(
        "puzzles",
        ["slitherlink", str(path), "--time-limit", "1", "--no-progress"],
        timeout=60,
        preexec_fn=_limited_memory,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    err = done.stderr.strip()
    assert len(err.splitlines()) == 1 and "GiB" in err and "1000x1000" in err


def test_the_time_limit_covers_building(tmp_path, capsys):
    """A blank 500x500 takes many seconds to build: a 1 s limit stops it there."""
    import time

    from puzzles.cli import main as puzzles

    path = _blank_slitherlink(tmp_path, 500)
    started = time.monotonic()
    status = puzzles(["slitherlink", str(path), "--count", "--time-limit", "1", "--no-progress"])
    seconds = time.monotonic() - started
    out, err = capsys.readouterr()
    assert status == 0 and out.strip() == "at least 0"
    assert "time limit 1 s (while building the problem)" in err
    assert seconds < 20  # parsing, then a second of building (it takes 30 s or more)


def test_a_building_limit_swallowed_by_a_gc_callback_still_stops_it(monkeypatch):
    """The limit's alarm once rang inside a gc callback (hypothesis keeps one), where
    Python reports "Exception ignored in gc callback" and drops the exception: it is
    dropped silently, and the hand-over to the search raises it again."""
    import gc
    import signal

    from dlx.stopping import TimeLimitReached
    from puzzles.common import TimeLimit

    reported = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    limit = TimeLimit(3600)  # its timer does not ring by itself: the callback rings it

    def ring_inside(phase, info):
        if phase == "start":
            os.kill(os.getpid(), signal.SIGALRM)
            while not limit.rang:  # the alarm's exception leaves the callback here
                pass

    with pytest.raises(TimeLimitReached):
        with limit.building():
            gc.callbacks.append(ring_inside)
            try:
                gc.collect()
            finally:
                gc.callbacks.remove(ring_inside)
            limit.left()
    assert limit.rang and reported == []
    assert sys.unraisablehook == reported.append  # given back


def test_a_building_limit_swallowed_where_the_search_never_starts_is_raised_at_the_end():
    """(As above, with no hand-over to a search.)"""
    import signal

    from dlx.stopping import TimeLimitReached
    from puzzles.common import TimeLimit

    limit = TimeLimit(3600)

    class Finalised:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGALRM)
            while not limit.rang:  # a finaliser's exception is reported and dropped
                pass

    with pytest.raises(TimeLimitReached):
        with limit.building():
            Finalised()


# -- 9. --generate streams --------------------------------------------------------------


@pytest.mark.parametrize("to_file", [False, True])
def test_generate_keeps_what_it_made_when_interrupted(tmp_path, to_file):
    """``sudoku --generate 100000`` printed nothing until all were made: Ctrl-C after
    12 s left 0 bytes."""
    import signal
    import time

    out = tmp_path / "made.txt"
    child = subprocess.Popen(
        [sys.executable, "-m", "puzzles", "sudoku", "--generate", "100000", "--no-progress"]
        + (["--out", str(out)] if to_file else []),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
    )
    with watchdog(child, seconds=120):
        if to_file:
            while not out.exists() or out.stat().st_size < 200:
                assert child.poll() is None
                time.sleep(0.1)
            first = ""
        else:
            first = child.stdout.readline()  # a puzzle's first line, before the rest
            assert first.startswith("# seed 0 puzzle 1:")
        child.send_signal(signal.SIGINT)
        rest, err = child.stdout.read(), child.stderr.read()  # (after what readline kept)
        child.wait()
    assert child.returncode == 130 and err.strip().splitlines() == ["interrupted"], err
    lines = (out.read_text() if to_file else first + rest).splitlines()
    assert lines and len(lines) % 2 == 0  # whole puzzles only: a header, then its grid
    for header, grid in zip(lines[::2], lines[1::2], strict=True):
        assert header.startswith("# seed 0 puzzle") and len(grid) == 81


# -- 10. the memo acts on pieces with copies --------------------------------------------


def _fibonacci(n: int) -> int:
    """F(n), F(1) = F(2) = 1."""
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


@pytest.mark.parametrize("length, most_nodes", [(40, 20_000), (95, 20_000)])
def test_dominoes_on_a_strip_count_through_the_memo(capsys, length, most_nodes):
    """The 2xn strip has F(n+1) domino tilings (each tiling ends in an upright domino or
    two flat ones: T(n) = T(n-1) + T(n-2)). 2x40 took 599 M nodes for F(41); 2x95 did
    not end in 120 s."""
    from puzzles.cli import main as puzzles

    args = ["pentomino", "--board", f"2x{length}", "--pieces", f"domino*{length}"]
    args += ["--no-symmetry", "--count", "--stats", "--time-limit", "60", "--no-progress"]
    assert puzzles(args) == 0
    out, err = capsys.readouterr()
    assert f"all solutions: {_fibonacci(length + 1)}\n" in out
    nodes = int(err.split(" nodes")[0].split()[-1])
    assert nodes <= most_nodes, err
