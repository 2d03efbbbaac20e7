"""Polyforms on every lattice: pieces, boards, the symmetry plan and tilings.

``pieces`` (catalogue, piece-set specs), ``boards`` (shapes, pictures, cell lists),
``symmetry`` (the exact symmetry-breaking plan and its proof), ``tiling`` (build,
decode, render, draw, count) and ``cli`` (``python -m puzzles polyform``). The lattices
themselves are in ``puzzles.lattices``.
"""
