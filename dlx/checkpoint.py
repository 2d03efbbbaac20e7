"""Checkpoints: an append-only record of the finished tasks of a parallel count.

A checkpoint is a text file of JSON lines: a header (a digest of the problem's arrays
and forced options, the split's parameters, a digest of the tasks), then one line per
finished task with its count, each written and fsync'ed as the task finishes. A rerun
with the same file skips the finished tasks; a half-written last line (a kill during
the write) is dropped.
"""

from __future__ import annotations

import hashlib
import json
import os

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None

from dlx import layout
from dlx.problem import Problem
from dlx.split import Split, Task

CHECKPOINT_FORMAT = "dlx-checkpoint"
CHECKPOINT_VERSION = 1


class CheckpointError(ValueError):
    """A checkpoint file that does not belong to this problem and split, or is damaged."""


def problem_digest(problem: Problem, forced=(), engine: str = "dlx") -> str:
    """A digest of the problem's kernel arrays, the forced options and (unless it is
    dancing links, the default before there was a choice) the engine, whose search tree
    the split's paths name."""
    text = layout.digest(problem.arrays(), forced)
    if problem.propagate is not None:  # another tree: other paths
        text = hashlib.sha256(f"{text} {problem.propagate}".encode()).hexdigest()[:32]
    if engine == "dlx":
        return text  # as before there was a choice of engine
    return hashlib.sha256(f"{text} {engine}".encode()).hexdigest()[:32]


HEADER_START = b'{"format":"dlx-checkpoint"'  # how every checkpoint begins


def _fail(path: str, error: OSError, doing: str) -> CheckpointError:
    """A one-line CheckpointError for an OSError met while ``doing`` something."""
    return CheckpointError(f"{path}: cannot {doing} the checkpoint ({error.strerror or error})")


def _parse_lines(path: str, data: bytes) -> list[dict]:
    """The complete lines of a checkpoint's bytes, each a JSON object (else an error)."""
    records = []
    for line_no, line in enumerate(data.splitlines(), start=1):
        try:
            record = json.loads(line)
        except ValueError:
            record = None
        if not isinstance(record, dict):
            raise CheckpointError(f"{path}: line {line_no} is not a checkpoint record")
        records.append(record)
    return records


def _check_record(path: str, line_no: int, record: dict) -> int:
    """The task number of a task record (CheckpointError if it is not one)."""
    task, solutions = record.get("task"), record.get("solutions")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (task, solutions)):
        raise CheckpointError(f"{path}: line {line_no} is not a task record")
    return task


class Checkpoint:
    """An append-only record of finished tasks (see the module's docstring), locked
    while a run uses it: ``F.lock`` beside it holds the lock and the process id."""

    def __init__(self, path: str):
        self.path = str(path)
        self.header: dict | None = None
        self.done: dict[int, dict] = {}
        self._file = None
        self._lock: int | None = None
        self._lock_made = False

    def _acquire(self) -> None:
        """Take the lock (``F.lock``, fcntl.flock), or say who holds it."""
        if fcntl is None:  # pragma: no cover - not POSIX
            return
        lock_path = self.path + ".lock"
        self._lock_made = not os.path.exists(lock_path)
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise _fail(self.path, e, "lock") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise CheckpointError(
                f"{self.path}: in use by process {holder} (its lock is {lock_path}); "
                "wait for it or use another file"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._lock = fd

    def load(self, digest: str) -> dict | None:
        """Lock the file and read it if it exists; return the split parameters it was
        made with. A file that is not this problem's checkpoint is refused before
        anything is written to it."""
        if os.path.isdir(self.path):
            raise CheckpointError(f"{self.path}: is a directory, not a checkpoint file")
        directory = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(directory):
            raise CheckpointError(f"{self.path}: no directory {directory}")
        self._acquire()
        try:
            return self._read(digest)
        except CheckpointError:
            self._release(remove=self._lock_made)  # leave no lock beside a file refused
            raise

    def _read(self, digest: str) -> dict | None:
        """Read a locked file; see ``load``."""
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise _fail(self.path, e, "read") from None
        if not (data.startswith(HEADER_START) or HEADER_START.startswith(data)):
            raise CheckpointError(f"{self.path}: not a dlx checkpoint (line 1)")
        end = data.rfind(b"\n") + 1
        if end == 0:
            return None  # empty, or a header cut short by a kill: start afresh
        records = _parse_lines(self.path, data[:end])
        self._check_header(records[0], digest)
        for line_no, record in enumerate(records[1:], start=2):
            self.done[_check_record(self.path, line_no, record)] = record
        self.header = records[0]
        if end < len(data):  # ours: cut off the half-written last line
            try:
                with open(self.path, "r+b") as f:
                    f.truncate(end)
                    f.flush()
                    os.fsync(f.fileno())
            except OSError as e:
                raise _fail(self.path, e, "repair") from None
        return self.header["split"]

    def _check_header(self, header: dict, digest: str) -> None:
        """Refuse a header that is not this problem's checkpoint's."""
        if header.get("format") != CHECKPOINT_FORMAT:
            raise CheckpointError(f"{self.path}: not a dlx checkpoint (line 1)")
        if header.get("version") != CHECKPOINT_VERSION:
            raise CheckpointError(f"{self.path}: checkpoint version {header.get('version')}")
        if header.get("problem") != digest:
            raise CheckpointError(
                f"{self.path}: this checkpoint belongs to a different problem (or other "
                "forced options); use another file or delete it"
            )
        if not isinstance(header.get("split"), dict) or not isinstance(header.get("tasks"), int):
            raise CheckpointError(f"{self.path}: line 1 is not a checkpoint header")

    def start(self, digest: str, the_split: Split) -> None:
        """Check the file against the split (or write its header); open it to append."""
        if self.header is not None:
            if (
                self.header.get("tasks") != len(the_split.tasks)
                or self.header.get("tasks_digest") != the_split.digest()
            ):
                raise CheckpointError(
                    f"{self.path}: the split differs from the checkpoint's (another engine "
                    "version?); use another file or delete it"
                )
            for index, record in self.done.items():
                if not 0 <= index < len(the_split.tasks) or tuple(record.get("path", ())) != (
                    the_split.tasks[index].path
                ):
                    raise CheckpointError(f"{self.path}: task {index} does not match the split")
            self._file = self._open("a")
            return
        self.header = {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "problem": digest,
            "split": the_split.parameters,
            "tasks": len(the_split.tasks),
            "tasks_digest": the_split.digest(),
            "split_solutions": the_split.solutions,
        }
        self._file = self._open("w")
        self._write(self.header)

    def _open(self, mode: str):
        """The file, open to write (one-line errors)."""
        try:
            return open(self.path, mode, encoding="utf-8")
        except OSError as e:
            raise _fail(self.path, e, "write") from None

    def _write(self, record: dict) -> None:
        """Append one line and make it durable."""
        try:
            self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as e:
            raise _fail(self.path, e, "write") from None

    def record(self, task: Task, result) -> None:
        """Record a finished task."""
        self.done[task.index] = {"task": task.index, "solutions": result.solutions}
        self._write(
            {
                "task": task.index,
                "path": list(task.path),
                "solutions": result.solutions,
                "nodes": result.nodes,
                "updates": result.updates,
                "seconds": round(result.seconds, 4),
            }
        )

    def close(self) -> None:
        """Close the file and give the lock back."""
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass  # a full disk already said so at the write
            self._file = None
        self._release()

    def _release(self, remove: bool = False) -> None:
        """Give the lock back (and remove the lock file, if ``remove``)."""
        if self._lock is not None:
            if remove:
                os.unlink(self.path + ".lock")
            os.ftruncate(self._lock, 0)
            # unlocked before closing: processes forked while it was held (the pool's
            # workers) share the descriptor, and closing ours alone would leave it held
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            os.close(self._lock)
            self._lock = None
