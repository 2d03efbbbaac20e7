"""dlx: exact cover (with colours and multiplicities) by Knuth's dancing links, in numba.

>>> from dlx import Problem, count
>>> p = Problem(primary=["a", "b", "c"])
>>> for option in (["a", "b"], ["c"], ["a"], ["b", "c"]):
...     _ = p.add_option(option)
>>> print(count(p))
2

The names below are imported when first used (PEP 562): ``python -m dlx`` and
``python -m puzzles`` reach ``dlx.stopping`` and set their signal handlers before numpy
is imported (a Ctrl-C in the first tenth of a second is one line, not a traceback).
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # (typing is not imported: this module must load fast)
if TYPE_CHECKING:  # what type checkers and readers see; imported lazily below
    from dlx import arguments, compiling, dlxfile, logic, numbers, outputs, stopping, words
    from dlx.api import batch, count, first, is_unique, solutions
    from dlx.bitsearch import BitMemo, BitsetSearch
    from dlx.checkpoint import CheckpointError
    from dlx.compiling import compile_all
    from dlx.dlxfile import DlxFormatError, parse, read, read_text, write
    from dlx.driver import Stats
    from dlx.engines import CHOICES as ENGINE_CHOICES
    from dlx.engines import HELP as ENGINE_HELP
    from dlx.errors import WorkerError
    from dlx.options import Parallel
    from dlx.problem import Problem, ProblemError
    from dlx.search import BatchResult, Count, Memo, Search, Solution, SolutionStream, count_search
    from dlx.solution_graph import Graph, GraphStats, GraphTimeLimit, GraphTooLarge, graph
    from dlx.stopping import Interrupted, run_command
    from dlx.tightsearch import TightMemo, TightSearch
    from dlx.verify import InvalidSolution, check, is_solution, naive_solutions

_HOME = {  # public name: (module, name there)
    **{n: ("dlx.api", n) for n in ("batch", "count", "first", "is_unique", "solutions")},
    "CheckpointError": ("dlx.checkpoint", "CheckpointError"),
    "compile_all": ("dlx.compiling", "compile_all"),
    **{n: ("dlx.bitsearch", n) for n in ("BitMemo", "BitsetSearch")},
    **{n: ("dlx.dlxfile", n) for n in ("DlxFormatError", "parse", "read", "read_text", "write")},
    "Stats": ("dlx.driver", "Stats"),
    "ENGINE_CHOICES": ("dlx.engines", "CHOICES"),
    "ENGINE_HELP": ("dlx.engines", "HELP"),
    "WorkerError": ("dlx.errors", "WorkerError"),
    **{
        n: ("dlx.solution_graph", n)
        for n in ("Graph", "GraphStats", "GraphTimeLimit", "GraphTooLarge", "graph")
    },
    "Parallel": ("dlx.options", "Parallel"),
    "Problem": ("dlx.problem", "Problem"),
    "ProblemError": ("dlx.problem", "ProblemError"),
    **{
        n: ("dlx.search", n)
        for n in (
            "BatchResult",
            "Count",
            "Memo",
            "Search",
            "Solution",
            "SolutionStream",
            "count_search",
        )
    },
    **{n: ("dlx.stopping", n) for n in ("Interrupted", "run_command")},
    **{n: ("dlx.tightsearch", n) for n in ("TightMemo", "TightSearch")},
    **{
        n: ("dlx.verify", n) for n in ("InvalidSolution", "check", "is_solution", "naive_solutions")
    },
}


def __getattr__(name: str):
    """A public name, or a submodule (``dlx.layout``), imported on first use."""
    if name == "__version__":
        value = _version()
    elif name in _HOME:
        module, attribute = _HOME[name]
        value = getattr(importlib.import_module(module), attribute)
    elif not name.startswith("__"):
        try:
            value = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names, imported or not."""
    return sorted({*globals(), *_HOME})


def _version() -> str:
    """The installed distribution's version."""
    from importlib import metadata

    try:
        return metadata.version("dlx-puzzles")
    except metadata.PackageNotFoundError:  # run from a checkout, not installed
        return "0.1.0+unknown"


__all__ = [
    "arguments",
    "BatchResult",
    "BitMemo",
    "BitsetSearch",
    "CheckpointError",
    "Count",
    "DlxFormatError",
    "ENGINE_CHOICES",
    "ENGINE_HELP",
    "Graph",
    "GraphStats",
    "GraphTimeLimit",
    "GraphTooLarge",
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
    "TightMemo",
    "TightSearch",
    "batch",
    "check",
    "compile_all",
    "compiling",
    "dlxfile",
    "count",
    "count_search",
    "first",
    "graph",
    "is_solution",
    "is_unique",
    "logic",
    "naive_solutions",
    "numbers",
    "outputs",
    "parse",
    "read",
    "read_text",
    "run_command",
    "solutions",
    "stopping",
    "WorkerError",
    "words",
    "write",
]
