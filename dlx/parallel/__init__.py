"""Parallel searches, by concern: ``split.py`` cuts the tree into tasks, ``workers.py``
runs them (processes or Dask), ``checkpoint.py`` records the finished ones, ``run.py``
puts them together for ``dlx.api``."""

from __future__ import annotations

import warnings


def __getattr__(name: str):
    """``parallel_run``, public in an earlier version: ``_parallel_run``, with a
    DeprecationWarning, for one more release (``dlx.count`` is the public call)."""
    if name == "parallel_run":
        warnings.warn(
            "dlx.parallel.parallel_run is private now: use dlx.count(..., "
            "parallel=dlx.Parallel(...))",
            DeprecationWarning,
            stacklevel=2,
        )
        from dlx.parallel.run import _parallel_run

        return _parallel_run
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
