"""Fixtures the tests share (helpers to import are in ``shared.py``, boards in
``boards.py``, hypothesis strategies in ``strategies.py``)."""

from __future__ import annotations

import signal

import pytest
from shared import EXPECTED, load

import dlx

# A shell that runs the suite in the background (`... &` without job control) starts it
# with Ctrl-C ignored, and the children inherit that: the tests of Ctrl-C need it back.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def expected() -> dict[str, int]:
    """Known counts of the data files, by stem (data/dlx/EXPECTED.tsv)."""
    return EXPECTED


@pytest.fixture
def paused_search():
    """A factory of searches that pause every ``budget`` nodes (default 997), so that a
    test sees the state survive many resumptions: ``paused_search(problem, **keywords)``."""

    def make(problem: dlx.Problem | str, budget: int = 997, **keywords):
        if isinstance(problem, str):
            problem = load(problem)
        return dlx.Search(problem, budget=budget, **keywords)

    return make
