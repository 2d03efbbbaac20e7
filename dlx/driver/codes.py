"""What a kernel call returns, and the steps of the kernels' level loops: one value each.

Every kernel (``dlx/kernels/*/kernel.py``, and any later one) and every
Python class that drives one read these names from here, so that a code means the
same whichever kernel returned it. numba compiles them into the kernels as
constants: its cache does not notice an edit of this file, so after changing a value,
clear the cache (``__pycache__``) or touch the kernels' files.
"""

# what a kernel call returns
DONE, SOLUTION, PAUSED, LEAF, LIMIT, OVERFLOW = 0, 1, 2, 3, 4, 5
NO_SPLIT = -1  # split_depth for a search that reports no leaves

# the steps of a level loop, after Knuth's names: FORWARD "enter level", ADVANCE "try
# the next branch", BACKUP "restore" (the dancing-links kernel only) and BACKDOWN
# "leave level"; a kernel keeps its step between calls, to resume there
FORWARD, ADVANCE, BACKUP, BACKDOWN = 0, 1, 2, 3
