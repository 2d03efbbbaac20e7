"""Task runners that tests inject into parallel searches (``dlx.Parallel(task_runner=)``).

Run as a script, this is ``python -m dlx`` with every task slowed down by
``SLOW_SECONDS``, so that a test can kill it in the middle of a run.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's dlx

from dlx.parallel.workers import run_task  # noqa: E402

SLOW_SECONDS = 0.2


@dataclass(frozen=True)
class CrashOnce:
    """Run tasks, but die in the middle of task ``index`` the first time (the marker
    file says it happened)."""

    index: int
    marker: str

    def __call__(self, task, job=None):
        if task.index == self.index and not os.path.exists(self.marker):
            with open(self.marker, "w") as f:
                f.write(str(os.getpid()))
            os._exit(13)
        return run_task(task, job)


def always_crash(task, job=None):
    """Die at every task (a worker that keeps dying)."""
    os._exit(13)


def slow_task(task, job=None):
    """``run_task``, then a pause."""
    result = run_task(task, job)
    time.sleep(SLOW_SECONDS)
    return result


if __name__ == "__main__":
    from dlx.cli import main

    raise SystemExit(main(sys.argv[1:], task_runner=slow_task))
