"""Checkpoints: an append-only record of the finished tasks (and finished parts of
stopped tasks) of a parallel count.

A checkpoint is a text file of JSON lines: a header (a digest of the search tree: the
problem, its forced options and the kernel; the split's parameters, a digest of the
tasks), then one line per finished task with its count, each written and fsync'ed as
the task finishes. A rerun with the same file skips the finished tasks; a half-written
last line (a kill during the write) is dropped. Every line carries a check keyed by
the tree's digest. A task stopped before its end (a stop, a limit) has a
``"partial"`` record instead: where it stopped (its frontier, ``dlx.parallel.frontier``)
and the count of everything before it; a rerun searches only what comes after, and
the task's last partial record adds up its earlier ones. A run of ``dlx.best`` keeps
one too: its header names its kind and k, and each task's line holds the task's best
costs and options.

Versions: 4 names the kernel's tree version (``TREE_VERSION``: a frontier is a path of
branch numbers, which another choice would lead into another tree) in the digest, and
refuses another. 3 took the digest from the problem (``Problem.digest``), 2 from the
dancing-links arrays (built again for a file of version 2 only); both are continued
in their own version while their partial records name this tree's version (written
into each). 1 had no checks and is refused.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass, field
from typing import NamedTuple

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None

import numpy as np

from dlx.parallel.split import Split, Task
from dlx.problem import Problem

CHECKPOINT_FORMAT = "dlx-checkpoint"
CHECKPOINT_VERSION = 4  # 2: lines' "check"; 3: the problem's digest; 4: the tree version
READ_VERSIONS = (2, 3, 4)  # the versions a checkpoint is read and continued in
MAX_LINE = 1 << 16  # bytes in one line of a checkpoint (a task's path is short)
MAX_BYTES = 1 << 28  # bytes in a checkpoint (millions of task records)
LOCK_TRIES = 8  # lock files opened, each removed by its holder before it could be taken


class CheckpointError(ValueError):
    """A checkpoint file that does not belong to this problem and split, or is damaged."""


@dataclass(frozen=True)
class Tree:
    """The search tree whose tasks a checkpoint records: a problem, its forced options
    and the kernel (``engine``) that searches it, in the version of its tree
    (``tree_version``: the kernel's ``TREE_VERSION``, ``dlx.engines.tree_version``);
    the split's paths and the tasks' frontiers are this tree's."""

    problem: Problem
    forced: tuple = ()
    engine: str = "dlx"
    tree_version: int = field(kw_only=True)

    def digest(self, version: int = CHECKPOINT_VERSION) -> str:
        """The tree's digest as checkpoint ``version`` records it: from version 3 the
        problem's own (``Problem.digest``) and the kernel's name, from version 4 its
        tree version too; version 2 hashed the dancing-links arrays (built for such a
        file only) and named no kernel for ``dlx``."""
        if version == 2:
            text = _links_digest(self.problem, self.forced)
            if self.problem.propagate is not None:  # another tree: other paths
                text = hashlib.sha256(f"{text} {self.problem.propagate}".encode()).hexdigest()[:32]
            if self.engine == "dlx":
                return text
        else:
            text = self.problem.digest(self.forced)
        if version >= 4:
            text = f"{text} tree {self.tree_version}"
        return hashlib.sha256(f"{text} {self.engine}".encode()).hexdigest()[:32]

    def recorded_in(self, recorded: Recorded | None) -> bool:
        """Whether a checkpoint whose header says ``recorded`` is this tree's."""
        return recorded is not None and recorded.problem == self.digest(recorded.version)


class Recorded(NamedTuple):
    """What a checkpoint's header says of its tree: its version, problem digest and
    (from version 4) kernel."""

    version: int
    problem: str
    engine: str | None = None


def _links_digest(problem: Problem, forced) -> str:
    """Checkpoint version 2's digest: the dancing-links arrays and the forced options."""
    from dlx.kernels.links import layout  # a version 2 file only: its arrays were hashed

    arrays = layout.arrays(problem)
    h = hashlib.sha256()
    for a in (arrays.node, arrays.item, arrays.option_of_node, arrays.first_node):
        h.update(str(a.shape).encode())
        h.update(np.ascontiguousarray(a).tobytes())
    h.update(f"{arrays.second} {arrays.has_bounds} {arrays.max_level}".encode())
    h.update(("forced " + ",".join(str(int(k)) for k in forced)).encode())
    return h.hexdigest()[:32]


HEADER_START = b'{"format":"dlx-checkpoint"'  # how every checkpoint begins


def _fail(path: str, error: OSError, doing: str) -> CheckpointError:
    """A one-line CheckpointError for an OSError met while ``doing`` something."""
    return CheckpointError(f"{path}: cannot {doing} the checkpoint ({error.strerror or error})")


def _canonical(record: dict) -> bytes:
    """A record's JSON, the same whatever the order of its keys."""
    return json.dumps(record, separators=(",", ":"), sort_keys=True).encode()


def _check(digest: str, record: dict) -> str:
    """The check of a record: a hash of its canonical JSON keyed by the problem's
    digest (not a secret: it guards against damage, edits and another problem's
    lines, not against a forger who knows this code)."""
    key = digest.encode()[:64]
    body = {k: v for k, v in record.items() if k != "check"}
    return hashlib.blake2b(_canonical(body), key=key, digest_size=16).hexdigest()


def _signed(digest: str, record: dict) -> bytes:
    """A record with its check last, as one line (the header starts HEADER_START)."""
    line = json.dumps({**record, "check": _check(digest, record)}, separators=(",", ":"))
    return line.encode() + b"\n"


def _parse_line(path: str, line_no: int, line: bytes) -> dict:
    """One complete line of a checkpoint, a JSON object (else a one-line error)."""
    record = None
    if len(line) <= MAX_LINE:
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):  # RecursionError: [[[[... nested too deep
            record = None
    if not isinstance(record, dict):
        raise CheckpointError(f"{path}: line {line_no} is not a checkpoint record")
    return record


def _count_field(value) -> bool:
    """Whether ``value`` is a count a checkpoint may hold: an int >= 0 (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_path(value) -> bool:
    """Whether ``value`` is a path a checkpoint may hold: a list of counts."""
    return isinstance(value, list) and all(_count_field(k) for k in value)


def _check_record(path: str, line_no: int, record: dict, digest: str) -> int:
    """The task number of a task record, or of a stopped task's record (``"partial"``
    and its ``"frontier"``); CheckpointError if it is neither, or if its check fails:
    the line was changed since it was written."""
    task, solutions = record.get("task", record.get("partial")), record.get("solutions")
    if "partial" in record and ("task" in record or not _is_path(record.get("frontier"))):
        task = None
    if not (_count_field(task) and _count_field(solutions)):
        raise CheckpointError(f"{path}: line {line_no} is not a task record")
    if record.get("check") != _check(digest, record):
        raise CheckpointError(
            f"{path}: line {line_no} fails its check (edited or damaged); "
            "remove the file to count again"
        )
    return task


def _read_regular(path: str) -> bytes | None:
    """The bytes of a regular file of at most MAX_BYTES (None if there is none);
    anything else (a directory, a device, a FIFO, a terminal) is refused in one line
    without waiting on it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise _fail(path, e, "read") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CheckpointError(f"{path}: not a regular file; a checkpoint must be one")
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise _fail(path, e, "read") from None
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise CheckpointError(f"{path}: over {MAX_BYTES} bytes; not a checkpoint of dlx")
    return data


def _open_own(path: str, flags: int) -> int:
    """A descriptor of ``path`` opened with ``flags`` to write, refused in one line when
    it is a symbolic link, not a regular file, or a file with more than one name (a hard
    link): a checkpoint never writes through a link into a file of the user's."""
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags | nofollow | os.O_NONBLOCK, 0o644)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise CheckpointError(
                f"{path}: a symbolic link; a checkpoint is written only to a file of its own"
            ) from None
        raise _fail(path, e, "write") from None
    status = os.fstat(fd)
    fault = None
    if not stat.S_ISREG(status.st_mode):
        fault = "not a regular file; a checkpoint must be one"
    elif status.st_nlink != 1:
        fault = f"has {status.st_nlink} names (hard links); a checkpoint must have one"
    if fault is not None:
        os.close(fd)
        raise CheckpointError(f"{path}: {fault}")
    return fd


def recorded_problem(path: str) -> Recorded | None:
    """The version and problem digest in the header of the checkpoint at ``path`` (None
    where there is none to read: ``Checkpoint.load`` says why later, in one line)."""
    try:
        data = _read_regular(path)
    except CheckpointError:
        return None
    if not data or not data.startswith(HEADER_START):
        return None
    try:
        header = json.loads(data.split(b"\n", 1)[0])
    except ValueError:
        return None
    if not isinstance(header, dict):
        return None
    version, problem = header.get("version"), header.get("problem")
    if version not in READ_VERSIONS or not isinstance(problem, str):
        return None
    engine = header.get("engine")
    return Recorded(version, problem, engine if isinstance(engine, str) else None)


def _refuse_another_tree(path: str, header: dict, tree: Tree) -> None:
    """Refuse a header that is ``tree``'s but for the kernel's tree version, in one line."""
    made = header.get("tree_version")
    if header.get("engine") != tree.engine or made == tree.tree_version:
        return
    if isinstance(made, int) and header.get("problem") == Tree(
        tree.problem, tree.forced, tree.engine, tree_version=made
    ).digest(header.get("version")):
        raise CheckpointError(
            f"{path}: made on version {made} of the {tree.engine} kernel's search tree, "
            f"this dlx searches version {tree.tree_version} (its stopped tasks' places "
            "would lead elsewhere); finish it with the dlx that wrote it, or delete it"
        )


def _check_tree(path: str, line_no: int, record: dict, tree: Tree) -> None:
    """Refuse a stopped task's record (line ``line_no``) made on another version of the
    kernel's search tree, or on one it does not name (a file of version 2 or 3)."""
    made = record.get("tree_version")
    if made != tree.tree_version:
        said = "names no version of" if made is None else f"is of version {made!r} of"
        raise CheckpointError(
            f"{path}: line {line_no} (task {record.get('partial')} stopped part way) {said} "
            f"the {tree.engine} kernel's search tree, this dlx searches version "
            f"{tree.tree_version}; finish it with the dlx that wrote it, or delete it"
        )


def _names(path: str, fd: int) -> bool:
    """Whether ``path`` (not followed if a link) still names the file open as ``fd``."""
    try:
        named = os.lstat(path)
    except OSError:
        return False
    opened = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)


def _lock_is_ours(fd: int) -> bool:
    """Whether a lock file holds nothing or a process id (what dlx writes there)."""
    data = os.pread(fd, 64, 0)
    return not data or re.fullmatch(rb"[0-9]{1,20}\n?", data) is not None


KINDS = {"count": "a count", "best": "the k best (dlx.best)"}  # what a checkpoint records


class Checkpoint:
    """An append-only record of finished tasks (see the module's docstring), locked
    while a run uses it: ``F.lock`` beside it holds the lock and the process id.

    ``kind``: what the run records (``KINDS``); a count's header names none, any
    other kind's names it, with the ``fields`` of its run (e.g. ``{"k": 3}``), and
    its task records carry their own fields (``record_fields``)."""

    def __init__(self, path: str, kind: str = "count", fields: dict | None = None):
        self.path = str(path)
        self.kind = kind
        self.fields = dict(fields or {})
        self.header: dict | None = None
        self.done: dict[int, dict] = {}
        self.partial: dict[int, dict] = {}  # stopped tasks' records: their frontiers
        self._file = None
        self._lock: int | None = None
        self._lock_made = False
        self.digest = ""  # the tree's digest in the file's version, the lines' checks' key
        self.tree_version = 0  # the kernel's tree version, in each partial record

    def _acquire(self) -> None:
        """Take the lock (``F.lock``, fcntl.flock), or say who holds it. A lock file is
        never followed through a symbolic link; one that holds anything but a process
        id, has another name (a hard link), is not a regular file or belongs to
        another user is left as it is and refused. A lock file that its holder removed
        while this process waited for it is opened again (``_open_lock``)."""
        if fcntl is None:  # pragma: no cover - not POSIX
            return
        lock_path = self.path + ".lock"
        for _ in range(LOCK_TRIES):
            fd = self._open_lock(lock_path)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(fd, 64).decode(errors="replace").strip() or "another process"
                os.close(fd)
                raise CheckpointError(
                    f"{self.path}: in use by process {holder} (its lock is {lock_path}); "
                    "wait for it or use another file"
                ) from None
            if _names(lock_path, fd):
                break
            os.close(fd)  # removed by the run that held it: not the lock any more
        else:
            raise CheckpointError(f"{self.path}: its lock {lock_path} keeps changing; try again")
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._lock = fd

    def _open_lock(self, lock_path: str) -> int:
        """The lock file opened (made if missing), refused as ``_acquire`` says."""
        flags = os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK
        try:
            try:
                fd = os.open(lock_path, flags | os.O_CREAT | os.O_EXCL, 0o644)
                self._lock_made = True
            except FileExistsError:
                fd = os.open(lock_path, flags)  # never O_TRUNC: it may not be ours
                self._lock_made = False
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise CheckpointError(
                    f"{self.path}: its lock {lock_path} is a symbolic link; remove it"
                ) from None
            raise _fail(self.path, e, "lock") from None
        status = os.fstat(fd)
        fault = None
        if not stat.S_ISREG(status.st_mode) or not _lock_is_ours(fd):
            fault = "is not a lock file of dlx"
        elif status.st_nlink != 1:
            fault = f"has {status.st_nlink} names (hard links), a lock file of dlx has one"
        elif hasattr(os, "geteuid") and status.st_uid != os.geteuid():
            fault = f"belongs to another user (uid {status.st_uid})"
        if fault is not None:
            os.close(fd)
            raise CheckpointError(
                f"{self.path}: {lock_path} {fault}; remove it or use another checkpoint file"
            )
        return fd

    def load(self, tree: Tree) -> dict | None:
        """Lock the file and read it if it exists; return the split parameters it was
        made with. A file that is not ``tree``'s checkpoint is refused before anything
        is written or created (the lock file included)."""
        if os.path.isdir(self.path):
            raise CheckpointError(f"{self.path}: is a directory, not a checkpoint file")
        directory = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(directory):
            raise CheckpointError(f"{self.path}: no directory {directory}")
        self._read(tree, repair=False)  # refused here: no lock made
        self._acquire()
        try:
            return self._read(tree, repair=True)  # again, now that no one else writes
        except CheckpointError:
            self._release(remove=self._lock_made)  # leave no lock beside a file refused
            raise

    def _read(self, tree: Tree, repair: bool) -> dict | None:
        """Read the file (see ``load``); ``repair``: cut off a half-written last line."""
        self.header, self.done, self.partial, self.digest = None, {}, {}, ""
        data = _read_regular(self.path)
        if not data:
            return None  # none yet, or made but nothing written: start afresh
        if not data.startswith(HEADER_START):
            raise CheckpointError(f"{self.path}: not a dlx checkpoint (line 1)")
        end = data.rfind(b"\n") + 1
        if end == 0:
            raise CheckpointError(
                f"{self.path}: line 1 is cut short, not a checkpoint to go on from; remove it"
            )
        lines = data[:end].split(b"\n")[:-1]
        header = _parse_line(self.path, 1, lines[0])
        digest = self.digest = self._check_header(header, tree)
        partial_line = {}  # the line of each task's latest partial record
        for line_no, line in enumerate(lines[1:], start=2):
            record = _parse_line(self.path, line_no, line)
            index = _check_record(self.path, line_no, record, digest)
            if "partial" in record:
                self.partial[index] = record  # the latest of a task's: it adds up the others
                partial_line[index] = line_no
            else:
                self.done[index] = record
        for index in self.done:
            self.partial.pop(index, None)
        for index, record in self.partial.items():  # where a rerun would go on from
            _check_tree(self.path, partial_line[index], record, tree)
        self.header = header
        if repair and end < len(data):  # ours: cut off the half-written last line
            fd = _open_own(self.path, os.O_RDWR)
            try:
                os.ftruncate(fd, end)
                os.fsync(fd)
            except OSError as e:
                raise _fail(self.path, e, "repair") from None
            finally:
                os.close(fd)
        return self.header["split"]

    def _check_header(self, header: dict, tree: Tree) -> str:
        """Refuse a header that is not ``tree``'s checkpoint's; else the tree's digest
        in the header's version."""
        if header.get("format") != CHECKPOINT_FORMAT:
            raise CheckpointError(f"{self.path}: not a dlx checkpoint (line 1)")
        version = header.get("version")
        if version == 1:
            raise CheckpointError(
                f"{self.path}: made by an older version of dlx (its counts carry no "
                "check); remove it to count again, or finish it with that version"
            )
        if version not in READ_VERSIONS:
            raise CheckpointError(
                f"{self.path}: checkpoint version {version!r} is not one of {READ_VERSIONS}"
            )
        kind = header.get("kind", "count")
        if kind != self.kind:
            raise CheckpointError(
                f"{self.path}: a checkpoint of {KINDS.get(kind, repr(kind))}, not of "
                f"{KINDS[self.kind]}; use another file or delete it"
            )
        digest = tree.digest(version)
        if header.get("problem") != digest:
            _refuse_another_tree(self.path, header, tree)
            raise CheckpointError(
                f"{self.path}: this checkpoint belongs to a different problem (or other "
                "forced options); use another file or delete it"
            )
        if not isinstance(header.get("split"), dict) or not _count_field(header.get("tasks")):
            raise CheckpointError(f"{self.path}: line 1 is not a checkpoint header")
        if header.get("check") != _check(digest, header):
            raise CheckpointError(f"{self.path}: line 1 fails its check (edited or damaged)")
        self.tree_version = tree.tree_version
        return digest

    def start(self, tree: Tree, the_split: Split) -> None:
        """Check the file against the split (or write its header, in this version, for
        ``tree``); open it to append (in the file's own version)."""
        if self.header is not None:
            if (
                self.header.get("tasks") != len(the_split.tasks)
                or self.header.get("tasks_digest") != the_split.digest()
            ):
                raise CheckpointError(
                    f"{self.path}: the split differs from the checkpoint's (another engine "
                    "version?); use another file or delete it"
                )
            for index, record in [*self.done.items(), *self.partial.items()]:
                if not 0 <= index < len(the_split.tasks) or tuple(record.get("path", ())) != (
                    the_split.tasks[index].path
                ):
                    raise CheckpointError(f"{self.path}: task {index} does not match the split")
                below = record.get("frontier", record["path"])
                if tuple(below[: len(record["path"])]) != the_split.tasks[index].path:
                    raise CheckpointError(f"{self.path}: task {index}'s frontier is not below it")
            self._file = self._open("a")
            return
        self.digest = tree.digest()
        self.tree_version = tree.tree_version
        self.header = {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "problem": self.digest,
            "engine": tree.engine,
            "tree_version": tree.tree_version,
            "split": the_split.parameters,
            "tasks": len(the_split.tasks),
            "tasks_digest": the_split.digest(),
            "split_solutions": the_split.solutions,
        }
        if self.kind != "count":
            self.header.update(kind=self.kind, **self.fields)
        self._file = self._open("w")
        self._write(self.header)

    def _open(self, mode: str):
        """The file, open to write (``"w"``: emptied first; ``"a"``: appended to), never
        through a link (``_open_own``; one-line errors)."""
        flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if mode == "a" else 0)
        fd = _open_own(self.path, flags)
        try:
            if mode == "w":
                os.ftruncate(fd, 0)
            return os.fdopen(fd, mode, encoding="utf-8")
        except OSError as e:
            os.close(fd)
            raise _fail(self.path, e, "write") from None

    def _write(self, record: dict) -> None:
        """Append one line, with its check, and make it durable."""
        try:
            self._file.write(_signed(self.digest, record).decode())
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as e:
            raise _fail(self.path, e, "write") from None

    def record(self, task: Task, result) -> None:
        """Record a finished task, or the finished part of a stopped one (a result
        with a ``frontier``: a ``"partial"`` record, which adds up the task's earlier
        one); the counts of a task's earlier partial record are added to its result's.
        A task stopped before it began (its frontier its own path) is not recorded."""
        before = self.partial.get(task.index, {})
        record = {
            "task": task.index,
            "path": list(task.path),
            "solutions": result.solutions + before.get("solutions", 0),
            "nodes": result.nodes + before.get("nodes", 0),
            "updates": result.updates + before.get("updates", 0),
            "seconds": round(result.seconds + before.get("seconds", 0.0), 4),
        }
        if result.complete:
            self.partial.pop(task.index, None)
            self.done[task.index] = record
        elif result.frontier is not None and tuple(result.frontier) != task.path:
            record["partial"] = record.pop("task")
            record["frontier"] = list(result.frontier)
            record["fraction"] = round(max(result.fraction, before.get("fraction", 0.0)), 6)
            record["tree_version"] = self.tree_version  # the tree its frontier is in
            self.partial[task.index] = record
        else:
            return
        self._write(record)

    def record_fields(self, task: Task, fields: dict) -> None:
        """Record a finished task with the fields of its kind's record (``fields``
        holds "solutions", the solutions it found, and what else the kind keeps); a
        record over ``MAX_LINE`` bytes is refused in one line."""
        record = {"task": task.index, "path": list(task.path), **fields}
        if len(_signed(self.digest, record)) > MAX_LINE:
            raise CheckpointError(
                f"{self.path}: task {task.index}'s record does not fit in one line "
                f"({MAX_LINE} bytes); ask for fewer solutions"
            )
        self.done[task.index] = record
        self._write(record)

    def close(self) -> None:
        """Close the file, give the lock back and remove the lock file."""
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass  # a full disk already said so at the write
            self._file = None
        self._release(remove=True)

    def _release(self, remove: bool = False) -> None:
        """Give the lock back (and remove the lock file, if ``remove``): removed while
        still held, so that a process that opened it meanwhile sees, once it holds it,
        that the name is gone (``_acquire`` then opens the name again)."""
        if self._lock is not None:
            if remove and _names(self.path + ".lock", self._lock):
                os.unlink(self.path + ".lock")
            else:
                os.ftruncate(self._lock, 0)
            # unlocked before closing: processes forked while it was held (the pool's
            # workers) share the descriptor, and closing ours alone would leave it held
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            os.close(self._lock)
            self._lock = None
