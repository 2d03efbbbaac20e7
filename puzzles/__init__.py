"""Puzzle adapters built on the dlx engine, and ``python -m puzzles`` (``puzzles.cli``).

Every adapter (``sudoku``, ``tectonic``, ``loop``, ``pipes``, ``slitherlink``) has one
shape: ``solve(text)`` and ``count(text)`` for users; ``parse`` / ``parse_all`` (text to
puzzles), ``build`` (a ``dlx.Problem``), ``decode`` (a solution to an answer),
``solutions`` (answers, streamed), ``render`` and ``svg`` (an answer as text and as a
picture) and ``faults`` (what breaks the rules). ``polyomino`` (``pentomino``) predates it.
"""

import sys

if sys.argv[:1] == ["-m"]:  # Python looks for a module to run: ``python -m puzzles``?
    from dlx.starting import stop_at_once_if_run

    stop_at_once_if_run("puzzles")  # (before the imports of dlx.stopping)
    from dlx.stopping import stop_from_the_start_if_run

    stop_from_the_start_if_run("puzzles")
