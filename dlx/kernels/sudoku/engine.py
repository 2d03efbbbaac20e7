"""The sudoku kernel's row of the batch registry (``dlx.engines.BATCH_KERNELS``): a
batch call only, for the one problem it takes (``why_not``)."""

from __future__ import annotations

from dlx.driver.engine import Engine
from dlx.kernels.sudoku.layout import why_not
from dlx.kernels.sudoku.search import batch

ENGINE = Engine("sudoku", None, None, why_not, batch=batch)
