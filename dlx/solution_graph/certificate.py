"""Certificates of counts: ``python -m dlx FILE --count --certificate CERT`` counts by
building solution graphs (``dlx.graph``) and writes them to CERT, which
``python -m dlx.certify FILE CERT`` checks without this package's code.

A certificate is text in parts (the format is in docs/oeis.md): the problem is split by
the options of one primary item (``| split ITEM``, by default the item with the fewest
options); for each such option V a line ``| part V count C`` (options numbered from 1 in
the problem's order) and the solution graph of the problem with V taken, in the ZDD format
of Knuth's DLX6 (``Graph.write_zdd``: a line ``x: (~v?lo:hi)`` per edge, nodes numbered
2, 3, ... bottom-up), under a root of one edge, of option V, and a last line
``(~0?0:r)``. With a symmetry (``| symmetry A B ...``: item A goes to B, ...), an option
W that is the image of V is no part of its own: ``| part V twin W count C`` stands for
both. The last line, ``| count N``, claims the sum. Each part's graph is built, written and
freed in turn, so memory is that of the largest part.

>>> import os, tempfile
>>> from dlx import parse
>>> p = parse("a b c\\na b\\nc\\na\\nb c\\n")
>>> path = os.path.join(tempfile.mkdtemp(), "cert.txt")
>>> write(p, path).count
2
>>> print(open(path).read(), end="")
| dlx certificate in parts: solution graphs as ZDDs (Knuth's DLX6 format)
| split a
| part 1 count 1
2: (~2?0:1)
3: (~1?0:2)
4: (~0?0:3)
| part 3 count 1
2: (~4?0:1)
3: (~3?0:2)
4: (~0?0:3)
| count 2
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass

import numpy as np

from dlx.errors import ProblemError
from dlx.numbers import real
from dlx.outputs import OutputError, Outputs, open_text
from dlx.problem import Problem

HEADER = "| dlx certificate in parts: solution graphs as ZDDs (Knuth's DLX6 format)"


@dataclass(frozen=True)
class Written:
    """What ``write`` wrote: the ``count`` (of the parts written, ``parts_left`` the parts
    still to write), the ``parts`` (a twin and its part are one), the ``nodes`` and
    ``edges`` of the graphs built in this call, the most edges of one part (``largest``)
    and the largest graph's bytes to build (``peak_bytes``)."""

    count: int
    parts: int
    nodes: int
    edges: int
    largest: int
    peak_bytes: int
    parts_left: int = 0

    def __str__(self) -> str:
        left = f", {self.parts_left} parts still to build" if self.parts_left else ""
        return (
            f"{self.parts} parts, {self.nodes} nodes, {self.edges} edges (at most "
            f"{self.largest} a part, {self.peak_bytes / 1e6:.1f} MB to build){left}"
        )


def split_item(problem: Problem) -> str:
    """The primary item with the fewest options (the first of those), the default split."""
    entries = problem.entries()
    n_primary = len(problem.primary)
    uses = np.bincount(entries.item[entries.item <= n_primary] - 1, minlength=n_primary)
    return problem.primary[int(np.argmin(uses))]


def plan(problem: Problem, split: str, symmetry=None) -> list[tuple[int, int | None]]:
    """The parts of a certificate split by item ``split``: ``(option, twin)`` pairs, the
    options of ``split`` in order, each option's image under ``symmetry`` (a dict
    item: image) its twin unless it is the option itself or a part already.

    >>> p = Problem(primary=["a", "b", "c"])
    >>> for items in (["a", "b"], ["a", "c"], ["b"], ["c"]):
    ...     _ = p.add_option(items)
    >>> plan(p, "a"), plan(p, "a", {"b": "c", "c": "b"})
    ([(0, None), (1, None)], [(0, 1)])
    """
    if split not in problem.primary:
        raise ProblemError(f"--split: {split!r} is not a primary item of the problem")
    sets = [frozenset(problem.option(k)) for k in range(problem.n_options)]
    index = {s: k for k, s in reversed(list(enumerate(sets)))}
    parts, done = [], set()
    for k in (k for k, s in enumerate(sets) if split in s and k not in done):
        image = frozenset((symmetry or {}).get(name, name) for name in sets[k])
        twin = index.get(image)
        if symmetry and twin is None:
            raise ProblemError(f"the symmetry maps option {k + 1} to no option")
        if twin is None or twin == k or twin in done or split not in sets[twin]:
            twin = None
        parts.append((k, twin))
        done.update({k, twin} - {None})
    return parts


def _taken(problem: Problem, k: int) -> tuple[Problem, np.ndarray]:
    """The problem left once option ``k`` is taken (its items gone, the options that
    meet it gone) and the original number of each option left."""
    taken = set(problem.option(k))
    rest = Problem(
        primary=[i for i in problem.primary if i not in taken],
        secondary=[i for i in problem.secondary if i not in taken],
    )
    kept = [j for j in range(problem.n_options) if j != k and taken.isdisjoint(problem.option(j))]
    for j in kept:
        rest.add_option(problem.option(j))
    return rest, np.array(kept, np.int64)


def write_part(out, problem: Problem, k: int, twin=None, **build):
    """Write the part of option ``k`` (and its ``twin``) to the open file ``out``; its
    count and its graph's ``GraphStats`` (None when nothing is left to cover). ``build``:
    ``max_nodes``, ``time_limit``, ``progress`` (as for ``dlx.graph``)."""
    from dlx.solution_graph.graph import graph
    from dlx.solution_graph.zdd import zdd_lines

    rest, kept = _taken(problem, k)
    title = f"| part {k + 1}" + ("" if twin is None else f" twin {twin + 1}")
    if not rest.primary:  # option k covers every primary item: one solution
        out.write(f"{title} count 1\n2: (~{k + 1}?0:1)\n3: (~0?0:2)\n")
        return 1, None
    g = graph(rest, **build)
    out.write(f"{title} count {g.count}\n")
    if g.count:
        for chunk in zdd_lines(g, kept, forced=k):
            out.write(chunk)
    return g.count, g.stats


def write(
    problem, path, *, split=None, symmetry=None, on_part=None, folder=None, stop_after=None,
    workers=1, branching="auto", **build,
) -> Written:  # fmt: skip
    """Build the solution graph of each part of ``problem`` (split by the options of the
    primary item ``split``, default ``split_item``; ``symmetry``: a dict item: image, an
    automorphism of the problem) and write the certificate to ``path`` (see the module's
    docstring); what was written (``Written``). ``build``: ``max_nodes``,
    ``time_limit`` (the whole build's: no part starts after it, and a part running then
    stops: ``GraphTimeLimit``, quoting it), ``progress``, as for ``dlx.graph``.
    ``on_part(k, twin, count, stats, seconds)`` is called as each part ends.
    ``ProblemError`` (one line) when the problem is not plain exact cover or a graph
    passes its bounds.

    With ``folder``, each part goes to a file of its own there first, and a part already
    there is kept: a certificate too long for one run is built in several, each starting
    no part after ``stop_after`` seconds; once every part is there, they are joined into
    ``path`` and removed (``Written.parts_left``: the parts still to build).

    ``workers`` > 1 builds that many parts at a time, each in a process of its own (its
    file in ``folder``, or in a folder of its own beside ``path``, removed once joined);
    the certificate is the same, byte for byte, and the memory that of ``workers``
    parts. ``branching``: the graphs' rule (``dlx.graph``'s ``"cell"`` or ``"fewest"``);
    ``"auto"``: ``"fewest"`` unless its arrays are too large (``choose_branching``)."""
    from dlx.solution_graph.layout import choose_branching, why_not

    if stop_after is not None and folder is None:  # (else a part-way certificate, written)
        raise ValueError("stop_after= needs folder=: the parts built so far are kept there")
    reason = why_not(problem)
    if reason is not None:
        raise ProblemError(f"no certificate: {reason}")
    build["branching"] = choose_branching(problem) if branching == "auto" else branching
    split = split_item(problem) if split is None else split
    parts, begun = plan(problem, split, symmetry), time.monotonic()
    limit = build.pop("time_limit", None)
    ends = None if limit is None else time.time() + limit  # the whole build's time limit
    head = f"{HEADER}\n| split {split}\n"
    if symmetry:
        head += "| symmetry " + " ".join(f"{a} {b}" for a, b in symmetry.items() if a != b) + "\n"
    if folder is not None:
        _claim(folder, f"{head}| problem {problem.digest()}\n")
    if workers > 1:
        return _write_by_workers(problem, path, head, parts, begun, folder, workers, stop_after,
                                 on_part, build, (limit, ends))  # fmt: skip
    sizes, counts, files = [0, 0, 0, 0], [], []
    with open_text(os.devnull) if folder else _renamed(path) as out:
        out.write(head)
        for i, (k, twin) in enumerate(parts):
            files.append(None if folder is None else _part_name(folder, i))
            if files[-1] is not None and os.path.exists(files[-1]):
                counts.append(_part_count(files[-1], k, twin) * (1 if twin is None else 2))
                continue
            if stop_after is not None and time.monotonic() - begun > stop_after:
                break
            started = time.process_time()
            with _part_file(files[-1], out) as part:
                count, stats = _timed_part(part, problem, k, twin, build, (limit, ends))
            counts.append(count * (1 if twin is None else 2))
            sizes = _grown_sizes(sizes, stats)
            if on_part is not None:
                on_part(k, twin, count, stats, time.process_time() - started)
        if folder is None:
            out.write(f"| count {sum(counts)}\n")
    if folder is not None and len(counts) == len(parts):
        _join(path, head, files, sum(counts))
    return Written(sum(counts), len(parts), *sizes, len(parts) - len(counts))


def _timed_part(out, problem: Problem, k: int, twin, build: dict, timed):
    """``write_part`` within what is left of the build's time limit (``timed``: the
    limit and when it ends, a ``time.time()``; None and None: none): none left, or the
    part's graph not done by then, is ``GraphTimeLimit`` quoting the whole limit."""
    from dlx.solution_graph.graph import GraphTimeLimit

    limit, ends = timed
    if limit is None:
        return write_part(out, problem, k, twin, **build)
    left = ends - time.time()
    if left <= 0:
        raise GraphTimeLimit(limit, 0)
    try:
        return write_part(out, problem, k, twin, time_limit=left, **build)
    except GraphTimeLimit as e:
        raise GraphTimeLimit(limit, e.nodes) from None


def _part_name(folder, i: int) -> str:
    """The file of part ``i`` in ``folder``."""
    return os.path.join(folder, f"{i:05d}.part")


def _grown_sizes(sizes, stats) -> list[int]:
    """``Written``'s nodes, edges, largest and peak bytes, with one more part's graph."""
    if stats is None:
        return sizes
    edges = stats.edges + 1
    return [sizes[0] + stats.nodes, sizes[1] + edges, max(sizes[2], edges),
            max(sizes[3], stats.peak_bytes)]  # fmt: skip


_WORKER_PROBLEM: list = []  # a worker's problem, given once when it starts


def _worker_start(problem) -> None:
    """A worker keeps ``problem`` (its tasks are then a few words each) and leaves Ctrl-C
    to the parent, which ends it (SIGTERM) without a word."""
    _WORKER_PROBLEM[:] = [problem]
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _build_part(task):
    """A worker's task ``(i, k, twin, name, deadline, build, timed)``: the part of
    option ``k`` written to file ``name`` (within the time limit ``timed``, as
    ``_timed_part``); ``i`` and the part's count, its graph's stats and the worker's CPU
    seconds (None when started past ``deadline``, a ``time.time()``)."""
    i, k, twin, name, deadline, build, timed = task
    if deadline is not None and time.time() > deadline:
        return i, None
    started = time.process_time()
    with _part_file(name, None) as part:
        count, stats = _timed_part(part, _WORKER_PROBLEM[0], k, twin, build, timed)
    return i, (count, stats, time.process_time() - started)


def _results(pool, tasks, workers: int):
    """``_build_part``'s results of ``tasks``, as they end, at most ``workers`` of them
    handed to ``pool`` at a time: a pool fed every task at once fills its pipe, and
    ``terminate`` (a part's error, Ctrl-C) then waited for ever on the thread feeding it
    (seen with 8 parts of the 6x10, each task holding the problem then)."""
    ended, pending, out = queue.SimpleQueue(), list(reversed(tasks)), 0
    while pending or out:
        while pending and out < workers:
            put = ended.put
            pool.apply_async(_build_part, (pending.pop(),), callback=put, error_callback=put)
            out += 1
        got = ended.get()
        out -= 1
        if isinstance(got, BaseException):
            raise got
        yield got


def _write_by_workers(problem, path, head, parts, begun, folder, workers, stop_after, on_part,
                      build, timed) -> Written:  # fmt: skip
    """``write`` with a pool of ``workers`` processes, a part a task (none started after
    ``stop_after`` seconds), each to its file, then joined in order. When anything stops
    it (an error, Ctrl-C), the workers are ended at once."""
    from dlx.solution_graph.graph import graph

    tiny = Problem(primary=["a"])
    tiny.add_option(["a"])
    graph(tiny)  # the kernel compiled (or loaded) once here, before the workers start
    own = folder is None
    if own:
        folder = _parts_folder(path)
    files = [_part_name(folder, i) for i in range(len(parts))]
    counts = {i: _part_count(f, *parts[i]) for i, f in enumerate(files) if os.path.exists(f)}
    left = stop_after if stop_after is None else stop_after - (time.monotonic() - begun)
    deadline = None if left is None else time.time() + left
    build = {**build, "progress": False}  # one bar per process would mix on stderr
    tasks = [
        (i, *parts[i], files[i], deadline, build, timed)
        for i in range(len(parts))
        if i not in counts
    ]
    pool = multiprocessing.get_context().Pool(workers, _worker_start, (problem,))
    sizes, before = [0, 0, 0, 0], _half_written(files)
    try:
        for i, result in _results(pool, tasks, workers):
            if result is not None:
                counts[i] = result[0]
                sizes = _grown_sizes(sizes, result[1])
                if on_part is not None:
                    on_part(*parts[i], *result)
        pool.close()
    except BaseException:
        pool.terminate()
        pool.join()  # (no worker writes any more) the parts they were writing go
        for name in _half_written(files) - before:
            with contextlib.suppress(OSError):
                os.remove(name)
        if own:
            shutil.rmtree(folder, ignore_errors=True)
        raise
    finally:
        pool.join()
    total = sum(c * (1 if parts[i][1] is None else 2) for i, c in counts.items())
    try:
        if len(counts) == len(parts):
            _join(path, head, files, total)
    finally:  # joined and empty, stopped early or in the join: no later run takes it up
        if own:
            shutil.rmtree(folder, ignore_errors=True)
    return Written(total, len(parts), *sizes, len(parts) - len(counts))


def _parts_folder(path) -> str:
    """A new folder beside the certificate ``path`` for its parts (one-line errors)."""
    directory = os.path.dirname(path) or "."
    try:
        return tempfile.mkdtemp(prefix=".cert-parts-", dir=directory)
    except OSError as e:
        raise OutputError(
            f"{directory}: cannot hold the certificate's parts ({e.strerror or e})"
        ) from None


STAMP = "certificate.head"  # in a folder of parts: the certificate's head and problem


def _claim(folder, stamp: str) -> None:
    """Make ``folder`` hold this certificate's parts (``stamp``: its head and its
    problem's digest, in the file ``STAMP``), refused in one line where it is a file or
    holds the parts of another certificate (another problem, split or symmetry: their
    counts were taken as this one's). Parts without a stamp (a folder of an earlier
    version) are each checked by their first line (``_part_count``)."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise OutputError(f"{folder}: not a folder (for the certificate's parts)")
    name = os.path.join(folder, STAMP)
    if os.path.exists(name):
        with open(name, encoding="utf-8") as f:
            if f.read() != stamp:
                raise OutputError(
                    f"{folder}: holds the parts of another certificate (another problem, "
                    f"split or symmetry: see its {STAMP})"
                )
        return
    _make_folder(folder)
    with open_text(name) as f:
        f.write(stamp)


def _make_folder(folder) -> None:
    """Make ``folder`` for the certificate's parts where it is missing (one-line errors)."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise OutputError(
            f"{folder}: cannot hold the certificate's parts ({e.strerror or e})"
        ) from None


def _part_count(path, k: int, twin: int | None) -> int:
    """The count of the part of option ``k`` (and ``twin``) written to file ``path`` (its
    first line); OutputError where that line is not this part's."""
    title = f"| part {k + 1}" + ("" if twin is None else f" twin {twin + 1}")
    with open(path, encoding="utf-8", errors="replace") as f:
        words = f.readline().split()
    if words[:-2] != title.split() or words[-2:-1] != ["count"] or not words[-1].isdigit():
        raise OutputError(f"{path}: not the part of option {k + 1} of this certificate")
    return int(words[-1])


@contextlib.contextmanager
def _part_file(path, out):
    """``out``, or a new file ``path`` in its folder (made if need be; ``_renamed``)."""
    if path is None:
        yield out
        return
    _make_folder(os.path.dirname(path) or ".")
    with _renamed(path) as part:
        yield part


@contextlib.contextmanager
def _renamed(path):
    """``path`` opened to write, under another name renamed to ``path`` once written,
    and removed where writing fails: a file at ``path`` is never left half-written."""
    path = os.fspath(path)
    try:
        with open_text(path + ".tmp") as out:
            yield out
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(path + ".tmp")
        raise
    os.replace(path + ".tmp", path)


def _half_written(files) -> set:
    """The ``.tmp`` files of the parts ``files`` there now (a later failure removes only
    those it wrote itself, never one that was there before: ``_write_by_workers``)."""
    return {name + ".tmp" for name in files if os.path.exists(name + ".tmp")}


def _join(path, head: str, files, total: int) -> None:
    """The certificate at ``path``: ``head``, the parts' files (each removed once copied, so
    the disk holds the certificate about once, not twice), the count."""
    with open_text(path) as out:
        out.write(head)
        out.flush()
        for name in files:
            with open(name) as part:
                shutil.copyfileobj(part, out, 1 << 24)
            out.flush()
            os.fsync(out.fileno())
            os.remove(name)
        out.write(f"| count {total}\n")
    stamp = os.path.join(os.path.dirname(files[0]), STAMP) if files else ""
    if os.path.exists(stamp):  # (the folder's parts are all joined)
        os.remove(stamp)


def add_arguments(parser) -> None:
    """The flags ``--certificate FILE``, ``--branching RULE``, ``--split ITEM``,
    ``--parts DIR`` and ``--stop-after S`` of ``python -m dlx``."""
    parser.add_argument(
        "--certificate",
        metavar="FILE",
        default=None,
        help="with --count: count by solution graphs, part by part, and write them to FILE, "
        "for 'python -m dlx.certify PROBLEM FILE' to check",
    )
    parser.add_argument(
        "--branching",
        choices=("auto", "cell", "fewest"),
        default="auto",
        help="with --certificate: branch on the first free cell or on the item with the "
        "fewest options left (auto: fewest, unless its arrays are too large)",
    )
    parser.add_argument(
        "--split",
        metavar="ITEM",
        default=None,
        help="with --certificate: one part per option of this primary item (default: the "
        "item with the fewest options)",
    )
    parser.add_argument(
        "--parts",
        metavar="DIR",
        default=None,
        help="with --certificate: write each part to a file of its own in DIR first, and "
        "keep those already there: a certificate too long for one run is built in several "
        "(the run that builds the last part joins them into FILE)",
    )
    parser.add_argument(
        "--stop-after",
        type=real,
        default=None,
        metavar="S",
        help="with --parts: start no part after S seconds (wall); a later run with the "
        "same --parts goes on",
    )


def bad_arguments(request) -> str | None:
    """What is wrong with ``--certificate`` beside the other flags, if anything."""
    if request.certificate is None:
        for flag, given in (
            ("--branching", request.branching != "auto"),
            ("--split", request.split is not None),
            ("--parts", request.parts is not None),
            ("--stop-after", request.stop_after is not None),
        ):
            if given:
                return f"{flag} needs --certificate"
        return None
    if not request.count:
        return "--certificate needs --count"
    if request.stop_after is not None and request.parts is None:
        return "--stop-after needs --parts (the parts built so far are kept there)"
    if request.stop_after is not None and request.stop_after < 0:
        return f"--stop-after must be >= 0, not {request.stop_after:g}"
    for flag, value in (
        ("--limit", request.limit),
        ("--node-limit", request.node_limit),
        ("--checkpoint", request.checkpoint),
        ("--dask", request.dask),
        ("--tasks", request.tasks),
        ("--propagate", request.propagate),
    ):
        if value is not None:
            return f"--certificate counts by the solution graph: no {flag}"
    if request.engine != "auto":
        return "--certificate counts by the solution graph's own kernel: no --engine"
    try:
        Outputs({"--certificate": request.certificate}, [request.file]).check()
    except OutputError as e:
        return str(e)
    return None


def run(problem, request, progress: bool) -> int:
    """``--count --certificate FILE``: the count on stdout, the graphs' size on stderr;
    the exit status (ProblemError goes to the caller). One process unless ``--workers N``
    (0: every core) asks for more: each holds a part's graph. With ``--parts DIR`` the
    parts go to DIR first (``write``'s ``folder``); a run that ``--stop-after`` ended
    before the last part prints "at least" the parts' count so far and what is left."""
    import sys

    workers = 1 if request.workers is None else request.workers or os.cpu_count() or 1
    written = write(
        problem,
        request.certificate,
        split=request.split,
        folder=request.parts,
        stop_after=request.stop_after,
        workers=workers,
        branching=request.branching,
        max_nodes=request.max_graph_nodes,
        time_limit=request.time_limit,
        progress=progress,
    )
    if written.parts_left:
        print(f"at least {written.count}")
        sys.stdout.flush()
        print(
            f"{written}; certificate not written yet: run again with --parts {request.parts}",
            file=sys.stderr,
        )
        return 0
    print(written.count)
    sys.stdout.flush()
    print(f"{written}; certificate: {request.certificate}", file=sys.stderr)
    return 0
