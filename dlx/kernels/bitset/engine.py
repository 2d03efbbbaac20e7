"""The bitset kernel's row of the registry: flat tilings."""

from __future__ import annotations

from dlx.driver.engine import Engine
from dlx.kernels.bitset.layout import suits, why_not
from dlx.kernels.bitset.search import BitMemo, BitsetSearch

# the version of this kernel's search tree: bumped whenever the item it chooses or the
# order in which it tries that item's options changes (a checkpoint's digest names it,
# so that a stopped task's saved branch numbers never lead into another tree;
# tests/test_tree_versions.py records the digest of the choice's source for each one)
TREE_VERSION = 1

ENGINE = Engine("bitset", BitsetSearch, BitMemo.of, why_not, suits, tree_version=TREE_VERSION)
