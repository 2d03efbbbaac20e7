"""Preprocessing as Knuth's DLX-PRE does it: ``preprocess(problem)`` removes the
options and items that can never matter (``dlx/preprocessing/reduce.py``; the rules
in ``dlx/preprocessing/kernel.py``)."""

from dlx.preprocessing.reduce import Reduction, preprocess

__all__ = ["Reduction", "preprocess"]
