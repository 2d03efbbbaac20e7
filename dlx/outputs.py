"""Where a command writes, made safe: no output names an input or another output, an
unwritable path is refused before any work, and a closed, full or broken standard
output is one line (a pipe closed by ``| head``: quietly, status 141).

The command layers (``python -m dlx`` and ``python -m puzzles``) run their body with
``run_writing`` inside ``Outputs({flag: path}, inputs)``; every file read by
``dlx.dlxfile.read_bytes`` while it is open counts as an input too (a board or piece
file named by a flag, or standard input), and ``open_text`` checks every output against
every input read so far before it opens one. Standard input redirected from a file
(``< puzzles.txt``) is that file: it is found by ``os.fstat(0)``, not by a name. A
checkpoint's lock file (``FILE.lock``) is an output too. Stdlib only: the commands
import it before numpy.
"""

from __future__ import annotations

import errno
import os
import stat
import sys

from dlx.stopping import run_command

BROKEN_PIPE_STATUS = 141  # 128 + SIGPIPE, as a shell reports a reader that went away
WRITE_FAILED_STATUS = 1


class OutputError(ValueError):
    """An output that would destroy an input or another output, or cannot be written."""


_ACTIVE: list[Outputs] = []  # the Outputs open now (a command's, usually one)


def _standard_input_file() -> os.stat_result | None:
    """The status of the regular file that standard input reads (``< FILE``), or None
    (a terminal, a pipe, or no standard input)."""
    try:
        status = os.fstat(0)
    except OSError:
        return None
    return status if stat.S_ISREG(status.st_mode) else None


def _is_standard_input(path: str, source: os.stat_result) -> bool:
    """Whether ``path`` names the file ``source`` (standard input's)."""
    try:
        status = os.stat(path)
    except OSError:
        return False
    return (status.st_dev, status.st_ino) == (source.st_dev, source.st_ino)


def _same(a: str, b: str) -> bool:
    """Whether two paths name one file: by ``os.path.samefile`` where both exist, else
    by their resolved paths (an output not made yet)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


class Outputs:
    """The output paths of one run of a command (``{"--out": path, ...}``, None for a
    flag not given) and the files it reads; a context manager that watches the reads."""

    def __init__(self, paths: dict[str, str | None], inputs=()):
        self.paths = {flag: str(p) for flag, p in paths.items() if p is not None and p != "-"}
        self.inputs = [str(p) for p in inputs if p is not None and str(p) != "-"]
        self.reads_standard_input = any(p is not None and str(p) == "-" for p in inputs)

    def __enter__(self) -> Outputs:
        self.check()
        _ACTIVE.append(self)
        return self

    def __exit__(self, *exc) -> None:
        _ACTIVE.remove(self)

    def check(self) -> None:
        """Refuse, in one line, an output that is an input or another output."""
        seen: list[tuple[str, str]] = []
        checkpoint = self.paths.get("--checkpoint")
        if checkpoint is not None:  # its lock is written too (``dlx.parallel.checkpoint``)
            seen.append(("the lock of --checkpoint", checkpoint + ".lock"))
        standard_input = _standard_input_file() if self.reads_standard_input else None
        for flag, path in self.paths.items():
            if standard_input is not None and _is_standard_input(path, standard_input):
                raise OutputError(
                    f"{flag} {path} is the file standard input reads; it would be overwritten"
                )
            for source in self.inputs:
                if _same(path, source):
                    raise OutputError(
                        f"{flag} {path} is the input file {source}; it would be overwritten"
                    )
            for other_flag, other in seen:
                if _same(path, other):
                    raise OutputError(f"{flag} {path} and {other_flag} {other} are the same file")
            seen.append((flag, path))

    def check_writable(self, *flags: str) -> None:
        """Refuse, in one line, an output of ``flags`` that is a directory or whose
        directory is missing (before any work starts)."""
        for flag in flags:
            path = self.paths.get(flag)
            if path is None:
                continue
            if os.path.isdir(path):
                raise OutputError(f"{flag} {path}: is a directory")
            directory = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(directory):
                raise OutputError(f"{flag} {path}: no directory {directory}")


def note_input(path) -> None:
    """A file read as input (``dlx.dlxfile.read_bytes`` says so): no output may name it."""
    for outputs in _ACTIVE:
        if str(path) == "-":
            outputs.reads_standard_input = True
        else:
            outputs.inputs.append(str(path))


def check_all() -> None:
    """Check the outputs of every command running against every input read so far."""
    for outputs in _ACTIVE:
        outputs.check()


def open_text(path: str):
    """``path`` opened to write text, once no output names an input (one-line errors;
    a failed write later is ``run_writing``'s "cannot write PATH")."""
    check_all()
    try:
        return Watched(open(path, "w", encoding="utf-8"), path)
    except OSError as e:
        raise OutputError(f"{path}: cannot write ({e.strerror or e})") from None


def _marked(error: OSError, name: str) -> OSError:
    """``error``, noted as a failure to write the output ``name`` (the first name kept)."""
    if getattr(error, "dlx_output", None) is None:
        error.dlx_output = name
    return error


class Watched:
    """A text stream whose failures to write (write, flush, close) are noted as failures
    of the output ``name`` (standard output: "the output"), so that ``run_writing`` says
    "cannot write" of them and of nothing else (a worker pool's "too many open files",
    a worker's broken pipe). Anything else is the stream's own."""

    def __init__(self, stream, name: str):
        self._stream = stream
        self._name = name

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as e:
            raise _marked(e, self._name) from None

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as e:
            raise _marked(e, self._name) from None

    def close(self) -> None:
        try:
            self._stream.close()
        except OSError as e:
            raise _marked(e, self._name) from None

    def __enter__(self) -> Watched:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __getattr__(self, attribute: str):
        return getattr(self._stream, attribute)


class _ClosedStream:
    """Standard output when the command was started without one (``>&-``)."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def flush(self) -> None:
        """Nothing to flush."""

    def isatty(self) -> bool:
        return False


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that nothing more (not even the flush at
    exit) fails on it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass


def run_writing(command, *args, **keywords) -> int:
    """Run a command's body as ``dlx.stopping.run_command`` does, and so that failures
    to write standard output (or an output file, ``Watched``) are one line on standard
    error with a non-zero status: a closed or full output (status 1; never a count lost
    with status 0), a reader that went away (quietly, status 141); any other OSError
    and running out of memory are one line of their own (status 1)."""
    standard = sys.stdout
    sys.stdout = Watched(_ClosedStream() if standard is None else standard, "the output")
    try:
        status = run_command(command, *args, **keywords)
        sys.stdout.flush()
        return status
    except OSError as e:
        output = getattr(e, "dlx_output", None)
        if output is None:  # not a write of ours: what it is, in one line
            print(f"error: {e}", file=sys.stderr)
            return WRITE_FAILED_STATUS
        if isinstance(e, BrokenPipeError) and output == "the output":
            _silence_stdout()  # the reader stopped reading (``| head``): stop quietly
            return BROKEN_PIPE_STATUS
        print(f"error: cannot write {output} ({e.strerror or e})", file=sys.stderr)
        if output == "the output":
            _silence_stdout()
        return WRITE_FAILED_STATUS
    except MemoryError as e:  # (numpy's ArrayMemoryError under ``ulimit -v``, say)
        print(f"error: out of memory ({e or 'no more to allocate'})", file=sys.stderr)
        return WRITE_FAILED_STATUS
    finally:
        sys.stdout = standard
