"""Knuth's programs, every variant, beside our kernels on the suite of knuth_suite.py.

For each problem of the suite (``NAME.dlx`` files and ``suite.tsv``, written by
``scripts/knuth_suite.py``) the script times, on one core, in CPU seconds:

- his programs, from a folder of binaries (``--bin``; built with ``build_knuth.sh``):
  SSXCC, SSXCC-FRB, SSXCC-WTD, SSMCC, XCCDC and DLX-PRE then SSXCC (the preprocessor's
  time and the solver's on its output, added) on a problem without multiplicities;
  SSMCC, SSMCC-FRB and SSMCC-WTD on a problem with them (``u:v|item``: the others take
  none). Each is a process, timed from start to exit (its reading of the file included);
- ours: ``dlx.count`` with every kernel of ``dlx.ENGINE_CHOICES`` (``auto`` is the
  default engine), in this process, the problem read beforehand (reading and the
  process start excluded), each kernel warmed once (numba's compiling excluded). A
  kernel that refuses the problem shows "-".

With ``--versus DIR`` (another checkout of this project, a git worktree of an older
commit), the default engine of DIR is timed the same way in a second process that
imports ``dlx`` from DIR (its column named for DIR's commit): an A/B of ``auto``, old
and new, in the same rounds.

Rounds are interleaved (every program once, then again, ``--runs`` times) and each cell
is the median. One of his programs whose first run takes over ``--once`` seconds is run
once, and so is one of ours over ``--ours-once`` (``--once`` unless given); a run
over ``--timeout`` CPU seconds shows ">T" (ours stop at ``WALL`` times that in wall-clock
time, ``dlx.count``'s ``time_limit``, so that a loaded machine does not stop them early).
``--programs`` and ``--kernels`` keep some of the columns only. A case with a solution
limit K (``suite.tsv``) stops at the K-th solution (``tK`` for his programs, ``limit=K``
for ours: which solutions come first then depends on each program's order of search, as
well as its speed).
Every count is checked to agree with every other; a disagreement stops the script. The
table's last columns: his best time, the default engine's ratio to it, the best of
our kernels' ratio to it (below 0.5: twice as fast), the default engine's ratio to
the best of our kernels (``auto``'s aim: at most 1.1), whether the goal is met (where
his best is over 0.5 s, the default engine at most half his best: "yes" or "no"), and
with ``--versus`` the default engine's ratio to the other checkout's (over 1: slower
than it).

    python scripts/knuth_suite.py GIT_DIR /tmp/knuth-suite
    python scripts/bench_knuth.py /tmp/knuth-suite --bin /tmp/knuth-costs/bin --runs 3
    python scripts/bench_knuth.py /tmp/knuth-suite --bin DIR --only queens --runs 1
    python scripts/bench_knuth.py /tmp/knuth-suite --bin DIR --versus /tmp/old-checkout
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's packages

import dlx  # noqa: E402

XCC_PROGRAMS = ("ssxcc", "ssxcc-frb", "ssxcc-wtd", "ssmcc", "xccdc", "pre+ssxcc")
MCC_PROGRAMS = ("ssmcc", "ssmcc-frb", "ssmcc-wtd")
KERNELS = tuple(dlx.ENGINE_CHOICES)  # "auto" (the default) among them
WALL = 5  # our runs stop at WALL times the CPU limit in wall-clock time (a shared machine)
GOAL = 0.5  # the default engine's time over his best, where his best is over GOAL seconds
SAID = re.compile(r"Altogether (\d+) solutions?")
MULTIPLICITY = re.compile(r"(^|\s)\d+(:\d+)?\|\S")


def has_multiplicities(path: Path) -> bool:
    """True when the item line of a .dlx file gives an item bounds ``u:v|`` or ``v|``."""
    with path.open() as text:
        for line in text:
            if not line.startswith("|") and line.strip():
                return MULTIPLICITY.search(line) is not None
    return False


def _run(program: Path, args, given: Path, out, timeout: float) -> tuple[float, str]:
    """(CPU seconds, stderr) of one process reading ``given``; seconds inf when it ran
    past ``timeout`` CPU seconds (the kernel stops it: RLIMIT_CPU)."""
    limit = int(timeout) + 1

    def cpu_limit():
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))

    with given.open() as stdin:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(
            [str(program), *args],
            stdin=stdin,
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=cpu_limit,
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode < 0 or seconds > timeout:
        return float("inf"), ""
    return seconds, done.stderr


def time_knuth(name: str, bin_dir: Path, path: Path, limit: int, timeout: float):
    """(CPU seconds, count or None) of one of his programs (``pre+X``: DLX-PRE, then X)."""
    args = [f"t{limit}"] if limit else []
    if name.startswith("pre+"):
        with tempfile.NamedTemporaryFile("w", suffix=".dlx") as reduced:
            pre, said = _run(bin_dir / "dlx-pre", [], path, reduced, timeout)
            if pre == float("inf"):
                return pre, None
            seconds, said = _run(bin_dir / name[4:], args, Path(reduced.name), None, timeout)
            seconds += pre
    else:
        seconds, said = _run(bin_dir / name, args, path, subprocess.DEVNULL, timeout)
    found = SAID.search(said)
    if seconds == float("inf"):
        return seconds, None
    if found is None:
        raise SystemExit(f"{path.name}: {name} says {said.strip().splitlines()[-1:]}")
    return seconds, int(found.group(1))


def time_ours(kernel: str, problem, limit: int, timeout: float):
    """(CPU seconds, count) of ``dlx.count`` with one kernel."""
    start = time.process_time()
    found = dlx.count(problem, limit or None, engine=kernel, time_limit=timeout * WALL)
    seconds = time.process_time() - start
    if seconds > timeout:
        return float("inf"), None
    if not found.complete and not (limit and found == limit):
        return float("inf"), None
    return seconds, int(found)


# The other checkout's side of ``--versus``: a process that imports ``dlx`` from the
# folder it is given, warms every kernel of that checkout on a problem (``warm`` lines)
# and times its default engine (``time`` lines), as ``_takes`` and ``time_ours`` do here.
VERSUS = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
import dlx
for line in sys.stdin:
    what, path, limit, timeout = line.split()
    problem, limit = dlx.read(path), int(limit) or None
    if what == "warm":
        for kernel in dlx.ENGINE_CHOICES:
            try:
                dlx.count(problem, 1, engine=kernel, node_limit=100)
            except dlx.ProblemError:
                pass
        print("ready", flush=True)
        continue
    start = time.process_time()
    found = dlx.count(problem, limit, time_limit=float(timeout))
    seconds = time.process_time() - start
    done = found.complete or (limit and found == limit)
    print(seconds if done else "inf", int(found), flush=True)
"""


class Versus:
    """The default engine of another checkout, timed in a process of its own."""

    def __init__(self, folder: Path):
        self.process = subprocess.Popen(
            [sys.executable, "-c", VERSUS, str(folder.resolve())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        said = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
        )
        self.name = "auto " + (said.stdout.strip() or folder.name)

    def ask(self, what: str, path: Path, limit: int, timeout: float) -> str:
        """The process's answer to one line."""
        self.process.stdin.write(f"{what} {path.resolve()} {limit} {timeout}\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().split()

    def time(self, path: Path, limit: int, timeout: float):
        """(CPU seconds, count) of its ``dlx.count`` on the file, read afresh."""
        seconds, found = self.ask("time", path, limit, timeout * WALL)
        if float(seconds) > timeout:
            return float("inf"), None
        return float(seconds), int(found)


def bench_case(name: str, limit: int, suite: Path, args) -> dict:
    """``{program or kernel: (median seconds, count)}`` of one case, rounds interleaved."""
    path = suite / f"{name}.dlx"
    his = MCC_PROGRAMS if has_multiplicities(path) else XCC_PROGRAMS
    his = [p for p in his if args.programs is None or p in args.programs.split(",")]
    takes = [k for k in KERNELS if args.kernels is None or k in args.kernels.split(",")]
    takes = [k for k in takes if _takes(k, dlx.read(path))]  # (and compiles it)
    columns = [*his, *takes]
    if args.versus:
        args.versus.ask("warm", path, limit, args.timeout)
        columns.append(args.versus.name)
    times = {c: [] for c in columns}
    counts = {}
    ours_once = args.once if args.ours_once is None else args.ours_once
    for _ in range(args.runs):
        for column in columns:
            once = args.once if column in his else ours_once
            if times[column] and (times[column][0] > once or times[column][0] == float("inf")):
                continue
            if column in takes:
                problem = dlx.read(path)  # afresh: nothing kept from an earlier run
                seconds, found = time_ours(column, problem, limit, args.timeout)
            elif column in his:
                seconds, found = time_knuth(column, args.bin, path, limit, args.timeout)
            else:
                seconds, found = args.versus.time(path, limit, args.timeout)
            times[column].append(seconds)
            if found is not None:
                counts[column] = found
    if len(set(counts.values())) > 1:
        raise SystemExit(f"{name}: the counts disagree: {counts}")
    return {c: (statistics.median(times[c]), counts.get(c)) for c in columns}


def _takes(kernel: str, problem) -> bool:
    """True when the kernel takes the problem (it raises ProblemError when it refuses);
    a few nodes of search, which compiles the kernel (or loads it from numba's cache)."""
    try:
        dlx.count(problem, 1, engine=kernel, node_limit=100)
    except dlx.ProblemError:
        return False
    return True


def _cell(seconds: float | None) -> str:
    """A table cell: seconds to 3 significant figures, ``>T`` past the timeout."""
    if seconds is None:
        return "-"
    if seconds == float("inf"):
        return ">T"
    return f"{seconds:.3g}"


def table(rows: list, versus: str | None = None) -> str:
    """The markdown table of every case: his programs, our kernels (and ``versus``, the
    other checkout's default engine), the ratios."""
    times = [*XCC_PROGRAMS, *MCC_PROGRAMS[1:], *KERNELS, *([versus] if versus else [])]
    head = ["case", "limit", "count", *times, "his best", "auto / best", "our best / best"]
    head += ["auto / our best", "goal", *(["auto / " + versus[5:]] if versus else [])]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, limit, result in rows:
        counts = {c for _, c in result.values() if c is not None}
        his = [s for p, (s, _) in result.items() if p not in KERNELS and p != versus]
        ours = [s for k, (s, _) in result.items() if k in KERNELS]
        kernels = [s for k, (s, _) in result.items() if k in KERNELS and k != "auto"]
        best = min(his, default=float("inf"))
        cells = [name, str(limit or "-"), "/".join(str(c) for c in counts) or "?"]
        cells += [_cell(result[c][0]) if c in result else "-" for c in times]
        auto = result.get("auto", (None,))[0]
        cells += [_cell(best), _ratio(auto, best), _ratio(min(ours), best)]
        cells.append(_ratio(auto, min(kernels)) if kernels else "-")
        met = auto is not None and auto <= GOAL * best
        cells.append("-" if best <= GOAL or best == float("inf") else "yes" if met else "no")
        if versus:
            cells.append(_ratio(auto, result[versus][0]) if versus in result else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _ratio(ours: float | None, best: float) -> str:
    """Our seconds over his best, to 2 figures ("-" where either is missing)."""
    if ours is None or best in (0, float("inf")) or ours == float("inf"):
        return "-"
    return f"{ours / best:.2f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", type=Path, help="the folder knuth_suite.py wrote")
    parser.add_argument("--bin", type=Path, required=True, help="Knuth's programs")
    parser.add_argument("--runs", type=int, default=3, help="rounds (medians)")
    parser.add_argument("--once", type=float, default=20.0, help="run once if over S s")
    parser.add_argument("--timeout", type=float, default=150.0, help="CPU seconds a run")
    parser.add_argument("--programs", help="only these of his programs (by commas)")
    parser.add_argument("--kernels", help="only these of our kernels (by commas)")
    parser.add_argument("--ours-once", type=float, help="ours: run once if over S s")
    parser.add_argument("--only", help="only these cases (names, or parts, by commas)")
    parser.add_argument("--versus", type=Path, help="another checkout: its auto beside")
    args = parser.parse_args(argv)
    args.versus = args.versus and Versus(args.versus)
    versus = args.versus and args.versus.name
    listed = (args.suite / "suite.tsv").read_text().splitlines()[1:]
    rows = []
    for line in listed:
        name, limit, _ = line.split("\t")
        if args.only is None or any(part in name for part in args.only.split(",")):
            rows.append((name, int(limit), bench_case(name, int(limit), args.suite, args)))
            print(table(rows[-1:], versus).splitlines()[-1], file=sys.stderr, flush=True)
    print(table(rows, versus))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
