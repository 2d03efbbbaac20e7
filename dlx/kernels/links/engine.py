"""The dancing-links kernel's row of the registry: it takes every problem."""

from __future__ import annotations

from dlx.driver.engine import Engine
from dlx.kernels.links.search import Memo, Search, batch
from dlx.problem import Problem


def _takes_all(problem: Problem) -> None:
    """Dancing links take every problem (no reason against it)."""
    return None


# the version of this kernel's search tree: bumped whenever the item it chooses or the
# order in which it tries that item's options changes (a checkpoint's digest names it,
# so that a stopped task's saved branch numbers never lead into another tree;
# tests/test_tree_versions.py records the digest of the choice's source for each one)
TREE_VERSION = 1

ENGINE = Engine("dlx", Search, Memo.of, _takes_all, batch=batch, tree_version=TREE_VERSION)
