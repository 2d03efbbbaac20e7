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
import sys

if sys.argv[:1] == ["-m"]:  # Python looks for a module to run: ``python -m dlx``?
    from dlx.starting import running, stop_at_once_if_run

    stop_at_once_if_run("dlx")  # (before the imports of dlx.stopping)
    if running("dlx"):  # (``python -m puzzles`` imports dlx.stopping itself)
        from dlx.stopping import stop_from_the_start_if_run

        stop_from_the_start_if_run("dlx")

TYPE_CHECKING = False  # (typing is not imported: this module must load fast)
if TYPE_CHECKING:  # what type checkers and readers see; imported lazily below
    from dlx import (
        arguments,
        compiling,
        dlxfile,
        logic,
        numbers,
        outputs,
        starting,
        stopping,
        words,
    )
    from dlx.api import batch, count, first, is_unique, solutions
    from dlx.compiling import compile_all
    from dlx.costs import Best, best
    from dlx.dlxfile import DlxFormatError, parse, read, read_text, write
    from dlx.driver.driver import Stats
    from dlx.driver.results import BatchResult, Count, Solution, SolutionStream, count_search
    from dlx.engines import CHOICES as ENGINE_CHOICES
    from dlx.engines import HELP as ENGINE_HELP
    from dlx.errors import WorkerError
    from dlx.kernels.bitset.search import BitMemo, BitsetSearch
    from dlx.kernels.links.search import Memo, Search
    from dlx.kernels.tight.search import TightMemo, TightSearch
    from dlx.options import Parallel
    from dlx.parallel.checkpoint import CheckpointError
    from dlx.preprocessing import Reduction, preprocess
    from dlx.problem import Problem, ProblemError
    from dlx.solution_graph.certificate import write as write_certificate
    from dlx.solution_graph.graph import (
        Graph,
        GraphStats,
        GraphTimeLimit,
        GraphTooLarge,
        graph,
        read_zdd,
    )
    from dlx.stopping import Interrupted, run_command
    from dlx.verify import InvalidSolution, check, is_solution, naive_solutions

_HOME = {  # public name: (module, name there)
    **{n: ("dlx.api", n) for n in ("batch", "count", "first", "is_unique", "solutions")},
    "CheckpointError": ("dlx.parallel.checkpoint", "CheckpointError"),
    "compile_all": ("dlx.compiling", "compile_all"),
    **{n: ("dlx.costs", n) for n in ("Best", "best")},
    **{n: ("dlx.kernels.bitset.search", n) for n in ("BitMemo", "BitsetSearch")},
    **{n: ("dlx.dlxfile", n) for n in ("DlxFormatError", "parse", "read", "read_text", "write")},
    "Stats": ("dlx.driver.driver", "Stats"),
    "ENGINE_CHOICES": ("dlx.engines", "CHOICES"),
    "ENGINE_HELP": ("dlx.engines", "HELP"),
    "WorkerError": ("dlx.errors", "WorkerError"),
    "write_certificate": ("dlx.solution_graph.certificate", "write"),
    **{
        n: ("dlx.solution_graph.graph", n)
        for n in ("Graph", "GraphStats", "GraphTimeLimit", "GraphTooLarge", "graph", "read_zdd")
    },
    "Parallel": ("dlx.options", "Parallel"),
    **{n: ("dlx.preprocessing", n) for n in ("Reduction", "preprocess")},
    "Problem": ("dlx.problem", "Problem"),
    "ProblemError": ("dlx.problem", "ProblemError"),
    **{
        n: ("dlx.driver.results", n)
        for n in ("BatchResult", "Count", "Solution", "SolutionStream", "count_search")
    },
    **{n: ("dlx.kernels.links.search", n) for n in ("Memo", "Search")},
    **{n: ("dlx.stopping", n) for n in ("Interrupted", "run_command")},
    **{n: ("dlx.kernels.tight.search", n) for n in ("TightMemo", "TightSearch")},
    **{
        n: ("dlx.verify", n) for n in ("InvalidSolution", "check", "is_solution", "naive_solutions")
    },
}


def __getattr__(name: str):
    """A public name, or a submodule (``dlx.kernels.links.layout``), imported on first use."""
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
    "Best",
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
    "Reduction",
    "Search",
    "Solution",
    "SolutionStream",
    "Stats",
    "TightMemo",
    "TightSearch",
    "batch",
    "best",
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
    "preprocess",
    "parse",
    "read",
    "read_text",
    "read_zdd",
    "run_command",
    "solutions",
    "starting",
    "stopping",
    "WorkerError",
    "words",
    "write",
    "write_certificate",
]
