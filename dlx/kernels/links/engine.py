"""The dancing-links kernel's row of the registry: it takes every problem."""

from __future__ import annotations

from dlx.driver.engine import Engine
from dlx.kernels.links.search import Memo, Search, batch
from dlx.problem import Problem


def _takes_all(problem: Problem) -> None:
    """Dancing links take every problem (no reason against it)."""
    return None


ENGINE = Engine("dlx", Search, Memo.of, _takes_all, batch=batch)
