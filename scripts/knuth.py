"""Knuth's programs (DLX1, SSXCC, ...) timed on a problem, for the benchmarks.

Nothing of Knuth's is in this project: ``--knuth DIR`` in a benchmark names a folder
holding his ``dlx1`` and ``ssxcc`` (built for instance with ``build_knuth.sh`` from a
snapshot of his CWEB programs). A problem goes to them as a ``.dlx`` file written with
``dlx.write``; they are timed in CPU seconds (user and system, from start to exit:
their reading of the input included; CPU time, as the machine may be shared) and their
counts are read from the summary they print on stderr.
"""

from __future__ import annotations

import re
import resource
import subprocess
from pathlib import Path

PROGRAMS = ("dlx1", "ssxcc")  # what the benchmarks run, when given --knuth DIR


def timed(program: Path, dlx_file: Path) -> tuple[float, int, int]:
    """(CPU seconds from start to exit, nodes, count) of one run of Knuth's ``program``."""
    with dlx_file.open() as given:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([str(program)], stdin=given, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    said = re.search(r"Altogether (\d+) solutions?,.* (\d+) nodes", done.stderr)
    if done.returncode != 0 or said is None:
        raise SystemExit(f"{program}: {done.stderr.strip().splitlines()[-1:]}")
    return seconds, int(said.group(2)), int(said.group(1))
