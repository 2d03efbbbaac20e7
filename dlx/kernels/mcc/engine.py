"""The multiplicity kernel's row of the registry: the problems with multiplicities."""

from __future__ import annotations

from dlx.driver.engine import Engine
from dlx.kernels.mcc.layout import refuses
from dlx.kernels.mcc.search import MccSearch, no_memo
from dlx.problem import Problem


def suits(problem: Problem) -> bool:
    """Every problem it takes under ``auto`` (those with multiplicities) is its kind."""
    return refuses(problem) is None


# the version of this kernel's search tree: bumped whenever the item it chooses or the
# order in which it tries that item's options changes (a checkpoint's digest names it,
# so that a stopped task's saved branch numbers never lead into another tree;
# tests/test_tree_versions.py records the digest of the choice's source for each one)
TREE_VERSION = 1

ENGINE = Engine("mcc", MccSearch, no_memo, refuses, suits, tree_version=TREE_VERSION)
