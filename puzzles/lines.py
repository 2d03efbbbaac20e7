"""A plain solve of many puzzles written a batch at a time (``Command.lines``).

When a command can make all of a batch's output in one step (sudoku's one-line
puzzles: one kernel call, every answer line formatted at once), the command layer
(``puzzles.cli``) asks it for that output in place of a puzzle-by-puzzle search and
printing: the answers' text, which puzzles have one, and the search nodes.
"""

from __future__ import annotations

import sys

from puzzles.command import Command, Request


def applies(command: Command, puzzles, request: Request) -> bool:
    """Whether ``print_lines`` may take these puzzles: the command has ``lines``, the
    request is a plain solve of several puzzles (first answers, no other flag) or
    ``--unique`` alone, and the batch runs on the workers asked for.

    >>> applies(Command(name="x", help="", read=None, solutions=None, count=None), [1, 2],
    ...         Request())
    False
    """
    other = request.count or request.all or request.json or request.svg
    threads = request.workers == 1 or (command.threaded and command.threaded(puzzles))
    if command.lines is None or other or request.stats or (request.limit or 1) != 1:
        return False  # (--unique searches on for a second solution whatever --limit says)
    return request.time_limit is None and bool(threads) and len(puzzles) > 1


def print_lines(command: Command, puzzles, request: Request, progress, printer, batch) -> bool:
    """A plain solve (or ``--unique``) by the command's ``lines``, ``batch`` puzzles at a
    time, each batch written to ``printer.sink`` in one piece: the answers, and a line
    on standard error for each puzzle without one; with ``--unique`` a verdict a puzzle
    (``LABEL: unique``, ``not unique`` or ``no solution``); the exit status 1 where
    one is not solved (not unique) and the printer's tallies kept, as puzzle by puzzle.
    False (nothing done) where it does not apply or ``lines`` declines the puzzles (a
    command that takes a list takes its slices)."""
    if not applies(command, puzzles, request):
        return False
    limit = 2 if request.unique else 1
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(puzzles), desc="puzzles", unit="puzzle", leave=False)
    try:
        for start in range(0, len(puzzles), batch):
            chunk = puzzles[start : start + batch]
            made = command.lines(chunk, request.workers, limit)
            if made is None and not start:
                return False
            if made is None:
                raise RuntimeError(f"{command.name}: lines() declined a slice of its puzzles")
            text, counts, nodes, labels = made
            if request.unique:
                said = [VERDICT[min(n, 2)] for n in counts.tolist()]
                printer.sink.write(
                    "".join(f"{k}: {v}\n" for k, v in zip(labels, said, strict=True))
                )
            else:
                printer.sink.write(text)
                for k in (counts == 0).nonzero()[0].tolist():
                    print(f"{labels[k]}: no solution", file=sys.stderr)
            bad = counts != 1 if request.unique else counts == 0
            printer.status = printer.status or int(bool(bad.any()))
            printer.found += int((counts > 0).sum())
            printer.nodes += nodes
            printer.entries += len(chunk)
            if bar is not None:
                bar.update(len(chunk))
    finally:
        if bar is not None:
            bar.close()
    return True


VERDICT = ("no solution", "unique", "not unique")  # --unique's word for 0, 1, 2+ solutions
