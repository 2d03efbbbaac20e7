"""dlx: exact cover (with colours and multiplicities) by Knuth's dancing links, in numba.

>>> from dlx import Problem, count
>>> p = Problem(primary=["a", "b", "c"])
>>> for option in (["a", "b"], ["c"], ["a"], ["b", "c"]):
...     _ = p.add_option(option)
>>> print(count(p))
2
"""

from importlib import metadata as _metadata

from dlx import compiling, logic
from dlx.api import batch, count, first, is_unique, solutions
from dlx.bitsearch import BitMemo, BitsetSearch
from dlx.checkpoint import CheckpointError
from dlx.dlxfile import DlxFormatError, parse, read, read_text, write
from dlx.driver import Stats
from dlx.engines import CHOICES as ENGINE_CHOICES
from dlx.errors import WorkerError
from dlx.options import Parallel
from dlx.problem import Problem, ProblemError
from dlx.search import BatchResult, Count, Memo, Search, Solution, SolutionStream, count_search
from dlx.stopping import Interrupted, run_command
from dlx.verify import InvalidSolution, check, is_solution, naive_solutions

try:
    __version__ = _metadata.version("dlx-puzzles")
except _metadata.PackageNotFoundError:  # run from a checkout, not installed
    __version__ = "0.1.0+unknown"

__all__ = [
    "BatchResult",
    "BitMemo",
    "BitsetSearch",
    "CheckpointError",
    "Count",
    "DlxFormatError",
    "ENGINE_CHOICES",
    "Interrupted",
    "InvalidSolution",
    "Memo",
    "Parallel",
    "Problem",
    "ProblemError",
    "Search",
    "Solution",
    "SolutionStream",
    "Stats",
    "batch",
    "check",
    "compiling",
    "count",
    "count_search",
    "first",
    "is_solution",
    "is_unique",
    "logic",
    "naive_solutions",
    "parse",
    "read",
    "read_text",
    "run_command",
    "solutions",
    "WorkerError",
    "write",
]
