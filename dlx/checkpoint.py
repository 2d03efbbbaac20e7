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

from dlx import layout
from dlx.engines import DEFAULT
from dlx.problem import Problem
from dlx.split import Split, Task

CHECKPOINT_FORMAT = "dlx-checkpoint"
CHECKPOINT_VERSION = 1


class CheckpointError(ValueError):
    """A checkpoint file that does not belong to this problem and split, or is damaged."""


def problem_digest(problem: Problem, forced=(), engine: str = DEFAULT) -> str:
    """A digest of the problem's kernel arrays, the forced options and (unless it is
    the default) the engine, whose search tree the split's paths name."""
    text = layout.digest(problem.arrays(), forced)
    if problem.propagate is not None:  # another tree: other paths
        text = hashlib.sha256(f"{text} {problem.propagate}".encode()).hexdigest()[:32]
    if engine == DEFAULT:
        return text  # as before there was a choice of engine
    return hashlib.sha256(f"{text} {engine}".encode()).hexdigest()[:32]


def _read_lines(path: str) -> list[dict]:
    """The complete lines of a checkpoint; a half-written last line is cut off the file."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.rfind(b"\n") + 1
    if end < len(data):
        with open(path, "r+b") as f:
            f.truncate(end)
            f.flush()
            os.fsync(f.fileno())
    records = []
    for line_no, line in enumerate(data[:end].splitlines(), start=1):
        try:
            records.append(json.loads(line))
        except ValueError:
            raise CheckpointError(f"{path}: line {line_no} is not valid JSON") from None
    return records


class Checkpoint:
    """An append-only record of finished tasks (see the module's glossary)."""

    def __init__(self, path: str):
        self.path = str(path)
        self.header: dict | None = None
        self.done: dict[int, dict] = {}
        self._file = None

    def load(self, digest: str) -> dict | None:
        """Read the file if it exists; return the split parameters it was made with."""
        if not os.path.exists(self.path):
            return None
        records = _read_lines(self.path)
        if not records:
            return None
        header = records[0]
        if header.get("format") != CHECKPOINT_FORMAT:
            raise CheckpointError(f"{self.path}: not a dlx checkpoint (line 1)")
        if header.get("version") != CHECKPOINT_VERSION:
            raise CheckpointError(f"{self.path}: checkpoint version {header.get('version')}")
        if header.get("problem") != digest:
            raise CheckpointError(
                f"{self.path}: this checkpoint belongs to a different problem (or other "
                "forced options); use another file or delete it"
            )
        self.header = header
        for line_no, record in enumerate(records[1:], start=2):
            if "task" not in record or "solutions" not in record:
                raise CheckpointError(f"{self.path}: line {line_no} is not a task record")
            self.done[int(record["task"])] = record
        return header["split"]

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
            self._file = open(self.path, "a", encoding="utf-8")
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
        self._file = open(self.path, "w", encoding="utf-8")
        self._write(self.header)

    def _write(self, record: dict) -> None:
        """Append one line and make it durable."""
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

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
        """Close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None
