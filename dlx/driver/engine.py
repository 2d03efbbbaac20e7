"""A kernel's row of the registry (``dlx.engines.ENGINES``), declared as data in the
kernel's own folder (``dlx/kernels/<name>/engine.py``)."""

from __future__ import annotations

from typing import NamedTuple


class Engine(NamedTuple):
    """A kernel: its name (``engine=``), its resumable search class and its memo
    factory (and for ``auto``, optionally: what it refuses, what looks like its
    kind; and its call of many small searches, if it has one). ``tree_version``: the
    version of its search tree (``TREE_VERSION`` in the kernel's folder: which item it
    chooses and in which order it tries that item's options; bumped when they change),
    which a checkpoint's digest names, so that a stopped task's frontier (branch
    numbers) is never followed into another tree."""

    name: str
    search: type
    memo: object  # problem -> memo for full counts, or None
    refuses: object = None  # problem -> why it cannot search it, or None
    suits: object = None  # problem -> True when it looks like this kernel's kind
    batch: object = None  # (problem, forced_sets, limit, ...) -> BatchResult, as dlx.batch
    tree_version: int = 0  # the kernel's TREE_VERSION (0: a row that keeps no checkpoint)
