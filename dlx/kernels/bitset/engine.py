"""The bitset kernel's row of the registry: flat tilings."""

from __future__ import annotations

from dlx.driver.engine import Engine
from dlx.kernels.bitset.layout import suits, why_not
from dlx.kernels.bitset.search import BitMemo, BitsetSearch

# its search tree's version (``Engine.tree_version``; tests/test_tree_versions.py)
TREE_VERSION = 1

ENGINE = Engine("bitset", BitsetSearch, BitMemo.of, why_not, suits, tree_version=TREE_VERSION)
