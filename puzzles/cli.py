"""``python -m puzzles NAME ...``: one subcommand per adapter.

Each adapter module ``puzzles/NAME.py`` that has a command line defines
``add_arguments(parser)`` and ``run(args) -> int``; it is imported only when used.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from puzzles.common import PuzzleError

COMMANDS = {
    "pentomino": ("puzzles.polyomino", "tile a board with polyominoes (count, list, draw)"),
    "polyform": (
        "puzzles.polyform.cli",
        "tile a board of any lattice (polyiamonds, polyhexes, polycubes, polysticks)",
    ),
    "sudoku": ("puzzles.sudoku", "solve, count or generate sudoku (any size, jigsaw)"),
    "tectonic": ("puzzles.tectonic", "solve tectonic / suguru"),
    "loop": ("puzzles.loop", "rotate pipe tiles until every pipe meets a pipe"),
    "pipes": ("puzzles.pipes", "place a given set of pipe tiles"),
    "slitherlink": ("puzzles.slitherlink", "draw the single loop of a slitherlink"),
}


def main(argv=None) -> int:
    """Run ``python -m puzzles``; exit status 2 for bad input."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="python -m puzzles", description=__doc__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    if not argv or argv[0] not in COMMANDS:
        parser.parse_args(argv or ["--help"])
        return 2
    module = importlib.import_module(COMMANDS[argv[0]][0])
    command = argparse.ArgumentParser(prog=f"python -m puzzles {argv[0]}")
    module.add_arguments(command)
    args = command.parse_args(argv[1:])
    try:
        return module.run(args)
    except PuzzleError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
