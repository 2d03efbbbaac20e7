"""Compiling the kernels: said on stderr when numba really compiles, done ahead by
``compile_all``, and kept out of every timing.

numba compiles each jitted kernel (``kernel.search``, ``kernel.search_batch``, the
bitset and tight kernels, the solution graph's) on its first call and keeps the
machine code in its cache (``__pycache__`` next to the kernel's file, or
``NUMBA_CACHE_DIR``); later runs load it in a fraction of a second. A search calls
``warm`` (through ``dlx.driver.driver.Driver.warm_up``, handing it a tiny search of its own
kernel: this module imports no search) before it starts its clock and its progress
bar: the first time in a process, a tiny problem of the same kind (plain, or with loop
items: another specialisation) is searched, which compiles the kernel or loads it from
the cache.

A compile is told from a load by numba itself: its ``numba:compile`` event starts only
when the cache had nothing for the signature (a load from the cache, however slow on a
busy machine, sends none). At that event a line on stderr says which kernel is being
compiled; a second line says when it is done. Worker processes stay quiet (their
parent compiled first).

A kernel needed later in a run (the second kernel of ``auto``'s race) that numba's cache
lacks is compiled ahead in another process (``ahead``), on another core, while this one
compiles or runs the first; its warm-up here waits for that process, then loads it. On a
first run (no cache index of it at all) that process starts before numba is imported here.

``compile_all()`` (``python -m dlx --compile``) compiles or loads every kernel of the
package ahead of time (after installing, say), so that no later run waits, and says
what each did and how long it took.
"""

from __future__ import annotations

import atexit
import glob
import hashlib
import importlib
import importlib.util
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

from dlx.stopping import interrupts_deferred

# the first-ever compilation of each kernel, quiet machine to loaded (README, "First run")
USUAL = {  # (its CPU seconds, and its wall seconds at load 4 to 8: docs/performance.md)
    "search": "usually 10 to 45 s",
    "batch": "usually 5 to 50 s",
    "bitset": "usually 9 to 100 s",
    "tight": "usually 7 to 50 s",
    "tight, in part": "usually 3 to 20 s",
    "sudoku": "usually 5 to 30 s",
    "mcc": "usually 5 to 30 s",
    "graph": "usually 5 to 50 s",
    "costs": "usually 3 to 30 s",
    "preprocess": "usually 3 to 30 s",
    "search sanity": "usually 1 to 5 s",  # the checks that tests call (``SANITY``)
    "tight sanity": "usually 1 to 5 s",
    "mcc sanity": "usually 1 to 5 s",
    "costs sanity": "usually 1 to 5 s",
}
# the modules whose import registers every warm-up (``register``): every kernel's search
# class, the solution graph, the cost kernel and the preprocessing kernel
KERNEL_MODULES = (
    "dlx.kernels.links.search",
    "dlx.kernels.bitset.search",
    "dlx.kernels.tight.search",
    "dlx.kernels.sudoku.search",
    "dlx.kernels.sudoku.partial",
    "dlx.kernels.mcc.search",
    "dlx.solution_graph.graph",
    "dlx.kernels.costs.search",
    "dlx.preprocessing.reduce",
)

# the parts of a kernel that a first run compiles in a second process while it compiles
# the rest (``ahead`` with a ``call``), as the notices name them
PARTS = {"tight, in part": "half of the tight kernel's parts"}

# the variables that set numpy's linear algebra threads (OpenBLAS reads the first three,
# MKL the last two): ``one_blas_thread``
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread(environ=os.environ) -> None:
    """What ``python -m dlx`` and ``python -m puzzles`` do before numpy is imported: run
    numpy's linear algebra on one thread (``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS``
    and ``MKL_NUM_THREADS`` set to 1 in ``environ``, for this process and the ones it
    starts), unless the user set any of ``BLAS_THREADS``, as Dask does for its workers.
    The commands' only linear algebra is the bitset layout's small eigenproblem (``sweep``
    in ``dlx/kernels/cells.py``), on which the library's threads wait for each other and
    spin, the more so on a busy machine: 3 to 70 times the CPU of one thread
    (docs/performance.md, "First run"). ``dlx`` imported as a library changes nothing.

    >>> env = {}
    >>> one_blas_thread(env)
    >>> env
    {'OPENBLAS_NUM_THREADS': '1', 'OMP_NUM_THREADS': '1', 'MKL_NUM_THREADS': '1'}
    >>> env = {"OMP_NUM_THREADS": "4"}  # the user's choice: left as it is
    >>> one_blas_thread(env)
    >>> env
    {'OMP_NUM_THREADS': '4'}
    """
    if not any(name in environ for name in BLAS_THREADS):
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            environ[name] = "1"


# the searches whose kernel has a jitted ``sanity`` (Knuth's check of every link, which
# tests call at every pause and no search does), by the kind its compile is said as; and
# the cost kernel's: ``compile_all`` compiles them too
SANITY = {
    "search": "dlx.kernels.links.search:Search",
    "tight": "dlx.kernels.tight.search:TightSearch",
    "mcc": "dlx.kernels.mcc.search:MccSearch",
}
COSTS_KERNEL = "dlx.kernels.costs.kernel"

_done: set[tuple[str, bool]] = set()  # (kernel, loop) warmed up in this process
_spent = [0.0]  # seconds of warm-up in this process
_spent_cpu = [0.0]  # ... and CPU seconds of it, in the threads that warmed up
_compiled = [0.0]  # ... and seconds of those warm-ups in which numba compiled
_everything: list = []  # what compile_all runs (see register)
_ahead: dict[str, tuple[subprocess.Popen, float]] = {}  # kind -> its compile elsewhere
_in_cache: set[str] = set()  # kinds found in numba's cache (``in_cache``)


@dataclass(frozen=True)
class Warmed:
    """One kernel's warm-up in this process: its ``kind`` (the name in the notice),
    ``loop`` (the specialisation for loop items), whether numba ``compiled`` it (else it
    was loaded from the cache), the wall ``seconds`` it took and its ``cpu`` seconds
    (this thread's: on a busy machine, what it would take on a quiet one)."""

    kind: str
    loop: bool
    compiled: bool
    seconds: float
    cpu: float = 0.0

    def __str__(self) -> str:
        what = self.kind + (" (loop items)" if self.loop else "")
        done = "compiled" if self.compiled else "loaded from the cache"
        return f"{what}: {done} in {self.seconds:.1f} s ({self.cpu:.1f} s CPU)"


_warmed: dict[tuple[str, bool], Warmed] = {}  # what ``warm`` did, in order


def seconds() -> float:
    """Seconds this process spent warming up (compiling or loading) the kernels, to take
    out of a caller's wall-clock timings."""
    return _spent[0]


def compiled_seconds() -> float:
    """Seconds of the warm-ups in this process in which numba compiled (not loaded)."""
    return _compiled[0]


def cpu_seconds() -> float:
    """CPU seconds of those warm-ups (each in its own thread's CPU time), to take out of
    a caller's CPU timings (``dlx.driver.choose``'s)."""
    return _spent_cpu[0]


def _say(text: str) -> None:
    """One line on stderr, at once."""
    print(f"dlx: {text}", file=sys.stderr, flush=True)


class _Compiles:
    """A listener of numba's ``numba:compile`` event (sent only when numba compiles, not
    when it loads from its cache): at the first, says ``message`` on stderr (unless
    ``quiet``) and notes that a compile happened."""

    def __init__(self, message: str, quiet: bool):
        from numba.core import event

        self.event = event
        self.message = message
        self.quiet = quiet
        self.compiled = False
        listener = self

        class Listener(event.Listener):
            def on_start(self, _event) -> None:
                listener.started()

            def on_end(self, _event) -> None:
                pass

        self.listener = Listener()

    def started(self) -> None:
        """A compile starts: say so, the first time."""
        if not self.compiled:
            self.compiled = True
            if not self.quiet:
                _say(self.message)

    def listening(self):
        """The context in which numba's compiles are heard."""
        return self.event.install_listener("numba:compile", self.listener)


def cached(dispatcher) -> bool:
    """Whether numba's cache holds machine code of ``dispatcher`` for its source as it
    is (numba's own test: the cache index of the function, stamped with its file's
    modification time and size; True where that cannot be told, or without JIT)."""
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # no JIT, no cache, or another numba: say cached (nothing done)
        return True


def in_cache(kind: str, dispatcher) -> bool:
    """Whether numba's cache holds kernel ``kind`` (its entry point ``dispatcher``:
    ``cached``); a yes is kept for the rest of the process."""
    if kind not in _in_cache and cached(dispatcher):
        _in_cache.add(kind)
    return kind in _in_cache


def ahead(kind: str, kernel: str, warm_up: str, call: str = "warm_up") -> bool:
    """Start compiling kernel ``kind`` (its module ``kernel``, whose entry point is
    ``search``) in another process, on another core, when numba's cache has nothing of
    it, so that it is ready by the time this one needs it (``warm`` waits for that
    process, then loads the kernel from the cache); ``warm_up``: ``"module:Class"`` of
    its search, whose ``warm_up()`` that process runs (or ``call``: another class
    method, which compiles a part of the kernel, ``kind`` then naming that part, as
    ``PARTS`` does; this process waits for it with ``wait_ahead``). Said on stderr. True
    when started. Where numba surely has nothing of it (``surely_not_cached``: a first
    run), the process starts before ``kernel`` (and numba) is imported here."""
    if kind in _ahead or any(k == kind for k, _ in _done):
        return False
    if multiprocessing.parent_process() is not None:
        return False
    if kind in _in_cache or (  # numba asked only where it may hold the kernel
        not surely_not_cached(kernel, "search") and in_cache(kind, kernel_module(kernel).search)
    ):
        return False
    module, cls = warm_up.split(":")
    # it prints the time it was done, so that its own seconds are said (``_wait_ahead``)
    # ... and ends soon after this process does (``exit_with_parent``: a kill -9 here
    # leaves no ``_stop_ahead`` to end it, and it compiled on alone for up to a minute)
    code = (
        f"import importlib, time; from dlx.compiling import exit_with_parent; "
        f"exit_with_parent({os.getpid()}); "
        f"importlib.import_module({module!r}).{cls}.{call}(); print(time.time())"
    )
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # this dlx's
    path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
    try:
        process = subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=dict(os.environ, PYTHONPATH=path),
        )
    except OSError:
        return False
    _ahead[kind] = (process, time.time())
    usual = USUAL.get(kind, USUAL["search"])
    _say(f"compiling {_named(kind)} in another process (first run only, {usual}) ...")
    return True


PARENT_CHECK_SECONDS = 0.2  # how often a compile ahead looks for the process it serves


def exit_with_parent(parent: int) -> None:
    """In the process that compiles ahead (``ahead``): exit (status 1) soon after process
    ``parent``, which started it, has ended (then this one's parent is another); a thread
    that looks every ``PARENT_CHECK_SECONDS`` (numba's compile lets it run: LLVM's work
    is done without the GIL)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="dlx: parent watch", daemon=True).start()


def _named(kind: str) -> str:
    """What the notices call kernel ``kind`` (or a part of one: ``PARTS``)."""
    return PARTS.get(kind, f"the {kind} kernel")


def running_ahead(kind: str) -> bool:
    """Whether kernel ``kind`` (or a part: ``PARTS``) is being compiled in another
    process (``ahead``) that nobody has waited for yet."""
    return kind in _ahead


def warmed(kind: str, loop: bool = False) -> bool:
    """Whether kernel ``kind`` (``loop``: for loop items) was warmed up (``warm``) in
    this process, or is being."""
    return (kind, loop) in _done


def wait_ahead(kind: str) -> bool:
    """Wait for the compile of ``kind`` (a kernel or a part: ``PARTS``) started in
    another process (``ahead``), said on stderr when it ends (not in a worker); True
    when there was one and it did not fail."""
    return _wait_ahead(kind, multiprocessing.parent_process() is not None)


def surely_not_cached(module: str, function: str) -> bool:
    """Whether numba's cache surely holds nothing of jitted ``function`` of ``module``,
    told without importing either (nor numba): no cache index of it (numba's
    ``FILE.FUNCTION-LINE.pyXY.nbi``) where numba keeps one, in ``NUMBA_CACHE_DIR`` when
    that is set, else in the ``__pycache__`` beside the module's file when numba may
    write there. False where that cannot be told (a numba configuration file, another
    place of numba's cache): then numba is asked (``in_cache``).

    >>> surely_not_cached("no_such_module", "search")  # nothing to look for: numba asked
    False
    """
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return False
    if spec is None or spec.origin is None or os.path.exists(".numba_config.yaml"):
        return False
    folder, name = os.path.split(os.path.abspath(spec.origin))
    root = os.environ.get("NUMBA_CACHE_DIR")
    if root:  # numba's subfolder: the folder's name and the SHA-1 of its path
        digest = hashlib.sha1(folder.encode()).hexdigest()
        place = os.path.join(root, f"{os.path.basename(folder)}_{digest}")
    else:
        place = os.path.join(folder, "__pycache__")
        if not os.access(place if os.path.isdir(place) else folder, os.W_OK):
            return False  # numba keeps it elsewhere
    stem = os.path.splitext(name)[0]
    return not glob.glob(os.path.join(glob.escape(place), f"{stem}.{function}-*.nbi"))


AHEAD_PATIENCE = 300.0  # seconds this process waits for a compile started ahead


def _stop_ahead() -> None:
    """At exit: end the compiles started ahead that nobody waited for."""
    for process, _ in _ahead.values():
        if process.poll() is None:
            process.terminate()
            process.wait()


atexit.register(_stop_ahead)


def _wait_ahead(kind: str, quiet: bool) -> bool:
    """Wait for kernel ``kind``'s compile in another process, if one was started (said
    on stderr when it ends); True when there was one."""
    process, started = _ahead.get(kind, (None, 0.0))
    if process is None:
        return False
    try:  # (listed until it ended: Ctrl-C here leaves it to ``_stop_ahead`` at exit)
        status = process.wait(timeout=AHEAD_PATIENCE)
    except subprocess.TimeoutExpired:  # stopped or stuck: ended, compiled here instead
        process.kill()
        process.wait()
        status = None
        if not quiet:
            _say(f"{_named(kind)} not compiled in another process in {AHEAD_PATIENCE:g} s: "
                 "compiling it here")  # fmt: skip
    del _ahead[kind]
    if status != 0:  # it failed: this process compiles the kernel itself
        return False
    if not quiet:
        took = _done_at(process) - started
        _say(f"compiled {_named(kind)} in another process in {took:.1f} s")
    return True


def _done_at(process) -> float:
    """When a compile started ahead was done (``time.time()``): the time it printed,
    else now. Its own seconds, not the seconds until this process waited for it (which
    may be later, while this one compiled or searched)."""
    try:
        return float(process.stdout.read().split()[-1])
    except (AttributeError, IndexError, OSError, ValueError):
        return time.time()


def warm(kind: str, dispatcher, loop: bool, run) -> Warmed | None:
    """Run ``run()`` (a tiny search that needs ``dispatcher`` compiled) once per
    ``(kind, loop)`` in this process, saying so on stderr when numba compiles; ``loop``
    names a specialisation of the kernel (problems with loop items). What it did
    (``Warmed``; None: done before in this process, or no JIT)."""
    if (kind, loop) in _done or not hasattr(dispatcher, "overloads"):  # done, or no JIT
        return None
    _done.add((kind, loop))
    quiet = multiprocessing.parent_process() is not None
    what = f"the {kind} kernel" + (" for loop items" if loop else "")
    usual = USUAL.get(kind, USUAL.get(kind.split()[0], USUAL["search"]))
    compiles = _Compiles(f"compiling {what} (first run only, {usual}) ...", quiet)
    t0, cpu = time.perf_counter(), time.thread_time()
    try:
        elsewhere = not loop and _wait_ahead(kind, quiet)
        with compiles.listening():
            run()
    finally:
        _spent[0] += time.perf_counter() - t0
        _spent_cpu[0] += time.thread_time() - cpu
    seconds, cpu = time.perf_counter() - t0, time.thread_time() - cpu
    if compiles.compiled or elsewhere:
        _compiled[0] += seconds
    if compiles.compiled and not quiet:
        _say(f"compiled {what} in {seconds:.1f} s; later runs load it from the cache")
    compiled = compiles.compiled or elsewhere
    done = _warmed[(kind, loop)] = Warmed(kind, loop, compiled, seconds, cpu)
    return done


def register(warm_up_every) -> None:
    """Add ``warm_up_every()`` (a kernel's warm-up of each of its kinds) to what
    ``compile_all`` runs: each kernel's module registers its own, so that this module
    imports none of them."""
    if warm_up_every not in _everything:
        _everything.append(warm_up_every)


def compile_all() -> list[Warmed]:
    """Compile (or load from numba's cache) every kernel of the package, each of its
    kinds (plain, with loop items, batches, the solution graph's, the ``sanity`` checks
    that tests call), saying on stderr which ones numba compiles; what each did, in
    order (``Warmed``: compiled or loaded, and in how long). A kernel warmed up before
    in this process is listed as it was.

    >>> import dlx
    >>> done = dlx.compile_all()
    >>> kinds = sorted({w.kind for w in done})
    >>> kinds[:5]
    ['batch', 'batch with domination', 'bitset', 'bitset with regions', 'costs']
    >>> kinds[5:10]
    ['costs sanity', 'graph', 'mcc', 'mcc sanity', 'preprocess']
    >>> kinds[10:14]
    ['search', 'search sanity', 'search with domination', 'sudoku batch']
    >>> kinds[14:]
    ['sudoku count', 'tight', 'tight batch', 'tight sanity']
    >>> dlx.compile_all() == done  # once per process
    True
    """
    for name in KERNEL_MODULES:
        kernel_module(name)
    for warm_up_every in _everything:
        warm_up_every()
    _warm_up_sanity()
    return list(_warmed.values())


def _warm_up_sanity() -> None:
    """Compile (or load) each kernel's jitted ``sanity`` (``SANITY``), which tests call
    at every pause and no search does: a tiny search run, then checked."""
    from dlx.problem import Problem

    problem = Problem(primary=["a"])  # one option: a warm-up's problem
    problem.add_option(["a"], cost=1)
    for kind, where in SANITY.items():
        module, name = where.split(":")
        search_class = getattr(kernel_module(module), name)

        def check(search_class=search_class) -> None:
            search = search_class(problem)
            search.run()
            search.sanity()

        warm(f"{kind} sanity", search_class.kernel().sanity, False, check)
    costs, layouts = kernel_module(COSTS_KERNEL), kernel_module("dlx.kernels.costs.search")
    warm(
        "costs sanity", costs.sanity, False, lambda: costs.sanity(layouts.Layout(problem).state(1))
    )


def kernel_module(name: str):
    """Import the kernel module ``name`` (and numba with it, the first time), the seconds
    counted as warm-up (``seconds``), so that a timing that started before leaves them out.
    Ctrl-C and SIGTERM wait for the import to end (numba's C extensions turn an interrupt
    inside their import into an ImportError, its traceback printed). A module another
    thread is still importing is waited for (``importlib`` holds its lock), never handed
    out half made."""
    module = sys.modules.get(name)
    if module is None or getattr(getattr(module, "__spec__", None), "_initializing", False):
        t0, cpu = time.perf_counter(), time.thread_time()
        with interrupts_deferred():
            module = importlib.import_module(name)
        _spent[0] += time.perf_counter() - t0
        _spent_cpu[0] += time.thread_time() - cpu
    return module
