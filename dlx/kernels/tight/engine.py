"""The tight kernel's row of the registry (what looks like its kind is the registry's
to say: the problems it takes that look like no other kernel's)."""

from __future__ import annotations

from dlx.driver.engine import Engine
from dlx.kernels.tight.layout import why_not
from dlx.kernels.tight.search import TightMemo, TightSearch, batch

# the version of this kernel's search tree: bumped whenever the item it chooses or the
# order in which it tries that item's options changes (a checkpoint's digest names it,
# so that a stopped task's saved branch numbers never lead into another tree;
# tests/test_tree_versions.py records the digest of the choice's source for each one)
TREE_VERSION = 2

ENGINE = Engine("tight", TightSearch, TightMemo.of, why_not, batch=batch, tree_version=TREE_VERSION)
