"""The kernel's first compilation: said at once on stderr, and kept out of every timing.

numba compiles ``kernel.search`` (and ``kernel.search_batch``) on its first call and
keeps the machine code in its cache (``__pycache__`` next to ``kernel.py``, or
``NUMBA_CACHE_DIR``); later runs load it in a fraction of a second. A search calls
``warm`` (through ``dlx.driver.driver.Driver.warm_up``, handing it a tiny search of its own
kernel: this module imports no search) before it starts its clock and its progress
bar: the first time in a process, a tiny problem of the same kind (plain, or with loop
items: another specialisation) is searched, which compiles the kernel or loads it from
the cache.
When numba's cache holds nothing fresh for the kernel (an empty cache, or one left
stale by an edit of ``kernel.py``), or the warm-up takes more than ``NOTICE_AFTER``
seconds, a line on stderr says that the kernel is being compiled and how long that
usually takes; a second line says when it is done. Worker processes stay quiet (their
parent compiled first).

``warm_up_all()`` compiles every kind ahead of time (after installing, say), so that
no later run waits: ``python -c "import dlx.compiling as c; c.warm_up_all()"``.
"""

from __future__ import annotations

import importlib
import multiprocessing
import sys
import threading
import time

from dlx.stopping import interrupts_deferred

NOTICE_AFTER = 1.0  # seconds of warm-up before saying so, when the cache looked fresh
# the first-ever compilation of each kernel, quiet machine to loaded (README, "First run")
USUAL = {
    "search": "usually 5 to 40 s",
    "batch": "usually 5 to 40 s",
    "bitset": "usually 4 to 20 s",
    "tight": "usually 3 to 15 s",
}

_done: set[tuple[str, bool]] = set()  # (kernel, loop) warmed up in this process
_spent = [0.0]  # seconds of warm-up in this process
_everything: list = []  # what warm_up_all runs (see register)


def seconds() -> float:
    """Seconds this process spent warming up (compiling or loading) the kernels, to take
    out of a caller's wall-clock timings."""
    return _spent[0]


def _cache_is_fresh(dispatcher) -> bool:
    """True when numba's cache index for ``dispatcher`` has an entry for the current
    source (False when empty or stale); True when that cannot be told."""
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # another numba version, or no cache: say nothing up front
        return True


def ready(kind: str) -> bool:
    """True when the kernel ``kind`` (``"search"``, ``"bitset"``, ``"tight"``) needs no
    compiling: warmed up in this process, or fresh in numba's cache (True when that
    cannot be told)."""
    if (kind, False) in _done:
        return True
    module = {"bitset": "bitset.kernel", "tight": "tight.kernel"}.get(kind, "links.kernel")
    return _cache_is_fresh(kernel_module(f"dlx.kernels.{module}").search)


def _say(text: str) -> None:
    """One line on stderr, at once."""
    print(f"dlx: {text}", file=sys.stderr, flush=True)


def warm(kind: str, dispatcher, loop: bool, run) -> None:
    """Run ``run()`` (a tiny search that needs ``dispatcher`` compiled) once per
    ``(kind, loop)`` in this process, saying so on stderr when it compiles; ``loop``
    names a specialisation of the kernel (problems with loop items)."""
    if (kind, loop) in _done or not hasattr(dispatcher, "overloads"):  # done, or no JIT
        return
    _done.add((kind, loop))
    quiet = multiprocessing.parent_process() is not None
    what = f"the {kind} kernel" + (" for loop items" if loop else "")
    message = f"compiling {what} (first run only, {USUAL.get(kind, USUAL['search'])}) ..."
    said = threading.Event()

    def notice() -> None:
        said.set()
        _say(message)

    timer = threading.Timer(NOTICE_AFTER, notice)
    t0 = time.perf_counter()
    if not quiet:
        if _cache_is_fresh(dispatcher):
            timer.start()
        else:
            notice()
    try:
        run()
    finally:
        timer.cancel()
        _spent[0] += time.perf_counter() - t0
    if said.is_set():
        _say(f"compiled in {time.perf_counter() - t0:.1f} s; later runs load it from the cache")


def register(warm_up_every) -> None:
    """Add ``warm_up_every()`` (a kernel's warm-up of each of its kinds) to what
    ``warm_up_all`` runs: each search module registers its own, so that this module
    imports none of them."""
    if warm_up_every not in _everything:
        _everything.append(warm_up_every)


def warm_up_all() -> None:
    """Compile (or load) every kind of every kernel (plain, with loop items, batches)."""
    for warm_up_every in _everything:
        warm_up_every()


def kernel_module(name: str):
    """Import the kernel module ``name`` (and numba with it, the first time), the seconds
    counted as warm-up (``seconds``), so that a timing that started before leaves them out.
    Ctrl-C and SIGTERM wait for the import to end (numba's C extensions turn an interrupt
    inside their import into an ImportError, its traceback printed)."""
    module = sys.modules.get(name)
    if module is None:
        t0 = time.perf_counter()
        with interrupts_deferred():
            module = importlib.import_module(name)
        _spent[0] += time.perf_counter() - t0
    return module
