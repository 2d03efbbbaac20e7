"""The numbers that tune ``auto``'s race (``dlx.driver.choose``), in one object."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Settings:
    """The race's tuning, one field a number (``dlx.driver.choose`` tells how they
    work together); ``SETTINGS`` holds the values ``auto`` runs with.

    Notes
    -----
    ``margin`` is compared with the product of the sample times' ratios: after one
    sample a kernel 2 times slower is out, after four one 1.19 times slower (as a
    geometric mean). ``bias`` is there because a memo's early hits make a probe's
    estimate low (several times, on pentominoes 8x8 + O). ``clock`` is this thread's
    CPU time: the kernels run in this thread, the machine may be shared, and threads
    beside it may spin (OpenBLAS's workers do, after a matrix product made while
    building a problem): the process's CPU time would count them, and a kernel timed
    while they spin would look twice as slow.

    >>> SETTINGS.ratio, SETTINGS.max_samples
    (0.1, 6)
    >>> from dataclasses import replace
    >>> replace(SETTINGS, ratio=1.0)
    Settings(ratio=1.0)
    """

    # Seconds of the leader's first slice (later slices double).
    first_slice: float = 0.00025
    # The share of the leader's CPU time so far that the samples may cost at most.
    ratio: float = 0.1
    # Seconds that a kernel's share of the first sample is guessed at.
    guess: float = 0.003
    # Seconds that the set-up of each kernel but the leader (its layout made) is guessed at.
    setup_guess: float = 0.02
    # Seconds of the leader's probe before its estimate of its count is trusted.
    trust: float = 0.005
    # The leader pays no further once its estimate is this many times what the samples need.
    over: float = 1.0
    # No sample while the probe's estimate of what is left is under this many samples' cost.
    worth: float = 2.0
    # Such a probe runs on to this many times what it had to pay (it would end first).
    late: float = 4.0
    # A kernel is out when its sample times, multiplied, are this many times the best's.
    margin: float = 2.0
    # The race ends after this many samples (the fastest then wins).
    max_samples: int = 6
    # Seconds of count each of the leader and the samples' winner runs at most, with memos.
    confirm: float = 0.1
    # Seconds of count each runs at least to confirm; none where its budget is less.
    confirm_min: float = 0.05
    # Their estimates decide sooner once one is this many times the other.
    decisive: float = 1.5
    # The leader keeps a count with a memo when its estimate is this many times lower.
    overturn: float = 1.06
    # Another kernel replaces the leader only when this many times faster on the samples.
    switch: float = 1.1
    # A probe's estimate of what is left, times this, before it is trusted to end first.
    bias: float = 2.0
    # The race ends after this many CPU seconds of leader and samples.
    max_probe: float = 3.0
    # A kernel's sample stops at this many times the first kernel's time on it.
    cap: float = 2.0
    # Seconds of a sample by the best kernel so far, at least.
    sample_low: float = 0.0002
    # Seconds of a sample by the best kernel so far, at most.
    sample_max: float = 0.0015
    # Seconds of a sample, at most, where the subtree below is too small.
    sample_big: float = 0.006
    # Nodes of a probe's first step, before its speed is known.
    first_nodes: int = 4000
    # The seed of the samples' random paths, so that they are the same on every run.
    seed: int = 25
    # The race's clock, in seconds: this thread's CPU time (see the notes).
    clock: Callable[[], float] = time.thread_time

    def __repr__(self) -> str:
        given = ", ".join(
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)
            if getattr(self, f.name) != f.default
        )
        return f"Settings({given})"


SETTINGS = Settings()
