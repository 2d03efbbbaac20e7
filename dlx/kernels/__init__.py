"""The kernels, one folder each, the same three files in each: ``layout.py`` (the
problem's arrays, numpy only), ``kernel.py`` (the jitted search) and ``search.py`` (its
``Driver``). ``links`` is Knuth's dancing links, ``bitset`` and ``tight`` the
bit-parallel kernels; ``shared.py`` holds the jitted helpers several kernels call.
"""
