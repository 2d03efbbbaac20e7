"""What a command compiles: each jitted function numba compiles in this process, with
its wall and CPU seconds and its signature (numba's ``numba:compile`` events, which a
load from the cache never sends). Usage::

    NUMBA_CACHE_DIR=$(mktemp -d) python scripts/compiles.py -m puzzles sudoku data/sudoku/top95.txt

prints, on stderr when the command ends, the outermost compiles (``--depth 2``: and
the jitted functions compiled inside them). A kernel compiled ahead in another process
(``dlx.compiling.ahead``) is not listed: its process is another.
"""

from __future__ import annotations

import argparse
import atexit
import resource
import runpy
import sys
import time

from numba.core import event


class Compiles(event.Listener):
    """The compiles seen: (depth, function, wall s, CPU s, signature), in the order they end."""

    def __init__(self) -> None:
        self.rows: list[tuple[int, str, float, float, str]] = []
        self.open: list[tuple[float, float]] = []

    def on_start(self, ev) -> None:
        self.open.append((time.perf_counter(), time.process_time()))

    def on_end(self, ev) -> None:
        depth = len(self.open)
        wall, cpu = self.open.pop()
        f = getattr(ev.data.get("dispatcher"), "py_func", None)
        name = f"{f.__module__}.{f.__qualname__}" if f else "?"
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        self.rows.append((depth, name, wall, cpu, str(ev.data.get("args"))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=1, help="nesting shown (1: outermost)")
    parser.add_argument("-m", dest="module", required=True, help="the module to run")
    args, rest = parser.parse_known_args()
    seen = Compiles()
    event.register("numba:compile", seen)

    @atexit.register
    def show() -> None:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        print(
            f"compiles (this process: {usage.ru_utime + usage.ru_stime:.1f} s CPU)", file=sys.stderr
        )
        for depth, name, wall, cpu, signature in seen.rows:
            if depth <= args.depth:
                indent = "  " * (depth - 1)
                print(
                    f"{indent}{name}: {cpu:.1f} s CPU, {wall:.1f} s wall  {signature[:200]}",
                    file=sys.stderr,
                )

    sys.argv = [args.module, *rest]
    runpy.run_module(args.module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
