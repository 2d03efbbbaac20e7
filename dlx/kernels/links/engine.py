"""The dancing-links kernel's row of the registry: it takes every problem."""

from __future__ import annotations

from dlx.driver.engine import Engine
from dlx.kernels.links.search import Memo, Search, batch
from dlx.problem import Problem


def _takes_all(problem: Problem) -> None:
    """Dancing links take every problem (no reason against it)."""
    return None


# its search tree's version (``Engine.tree_version``; tests/test_tree_versions.py)
TREE_VERSION = 1

ENGINE = Engine("dlx", Search, Memo.of, _takes_all, batch=batch, tree_version=TREE_VERSION)
