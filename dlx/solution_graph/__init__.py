"""The counted solution graph (``dlx.graph``): ``graph.py`` builds and reads it,
``layout.py`` and ``kernel.py`` are its own bit-parallel kernel, ``cli.py`` its flags of
``python -m dlx``."""
