"""The tight kernel's row of the registry (what looks like its kind is the registry's
to say: the problems it takes that look like no other kernel's)."""

from __future__ import annotations

from dlx.driver.engine import Engine
from dlx.kernels.tight.layout import why_not
from dlx.kernels.tight.search import TightMemo, TightSearch, batch

# its search tree's version (``Engine.tree_version``; tests/test_tree_versions.py)
TREE_VERSION = 2

ENGINE = Engine("tight", TightSearch, TightMemo.of, why_not, batch=batch, tree_version=TREE_VERSION)
