"""The driver floor: what every kernel stands on, importing no kernel.

``driver.py`` runs any resumable kernel (budget, limits, clock, overflow restart,
progress, pause and resume); ``codes.py`` holds the codes a kernel call returns;
``choose.py`` is ``auto``'s race between the kernels that take a problem.
"""
