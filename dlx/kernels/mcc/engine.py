"""The multiplicity kernel's row of the registry: the problems with multiplicities."""

from __future__ import annotations

from dlx.driver.engine import Engine
from dlx.kernels.mcc.layout import refuses
from dlx.kernels.mcc.search import MccSearch, no_memo
from dlx.problem import Problem


def suits(problem: Problem) -> bool:
    """Every problem it takes under ``auto`` (those with multiplicities) is its kind."""
    return refuses(problem) is None


# its search tree's version (``Engine.tree_version``; tests/test_tree_versions.py)
TREE_VERSION = 1

ENGINE = Engine("mcc", MccSearch, no_memo, refuses, suits, tree_version=TREE_VERSION)
