"""Compiling the kernels (``dlx.compiling``): said when numba really compiles (its
``numba:compile`` event), never for a load from the cache however slow; every kernel
compiled ahead by ``dlx.compile_all`` and ``python -m dlx --compile``."""

import io
import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from numba.core import event

from dlx import compiling

ROOT = Path(__file__).resolve().parent.parent
DISPATCHER = SimpleNamespace(overloads={})  # shaped like a numba dispatcher, for ``warm``
TIGHT = "dlx.kernels.tight.kernel"  # a kernel's module, for ``ahead``


def numba_compiles() -> None:
    """What numba sends when it compiles a function (not when it loads one)."""
    with event.trigger_event("numba:compile", data={}):
        pass


@pytest.fixture
def fresh(monkeypatch):
    """No kernel warmed up yet in this process, as far as ``compiling`` knows."""
    monkeypatch.setattr(compiling, "_done", set())
    monkeypatch.setattr(compiling, "_warmed", {})


def test_a_compile_is_said_when_it_starts(fresh, capsys):
    said_before = []

    def run():
        numba_compiles()
        said_before.append(capsys.readouterr().err)

    done = compiling.warm("search", DISPATCHER, False, run)
    assert said_before[0].startswith("dlx: compiling the search kernel (first run only")
    assert "dlx: compiled the search kernel in" in capsys.readouterr().err
    assert done.compiled and done.kind == "search" and not done.loop


def test_a_real_compile_is_told_from_a_load(fresh, capsys):
    """A function numba compiles now (no cache): said; a second kind of it, already
    compiled in this process, is not."""
    import numba

    @numba.njit
    def plus_one(x):
        return x + 1

    assert compiling.warm("test", plus_one, False, lambda: plus_one(1)).compiled
    assert "compiling the test kernel" in capsys.readouterr().err
    assert not compiling.warm("test", plus_one, True, lambda: plus_one(2)).compiled
    assert capsys.readouterr().err == ""


def test_a_slow_load_is_not_called_a_compile(fresh, capsys):
    before = compiling.seconds()
    done = compiling.warm("batch", DISPATCHER, True, lambda: time.sleep(0.2))
    assert capsys.readouterr().err == ""
    assert not done.compiled and done.seconds >= 0.2
    assert compiling.seconds() >= before + 0.2
    assert str(done).startswith("batch (loop items): loaded from the cache in")


def test_once_per_kind(fresh):
    calls = []
    for _ in range(3):
        compiling.warm("search", DISPATCHER, False, lambda: calls.append(1))
    compiling.warm("search", DISPATCHER, True, lambda: calls.append(1))
    assert len(calls) == 2


def test_no_jit_says_nothing(fresh, capsys):
    assert compiling.warm("search", lambda *a: None, False, lambda: pytest.fail("ran")) is None
    assert capsys.readouterr().err == ""


class Compiler:
    """Stands for the process that ``compiling.ahead`` starts: notes its command line
    and when it is waited for."""

    started: list = []

    def __init__(self, argv, **_):
        self.argv = argv
        self.waited = False
        Compiler.started.append(self)

    def poll(self):
        return 0 if self.waited else None

    def wait(self, timeout=None):
        self.waited = True
        return self.status

    status = 0


def test_a_kernel_compiled_ahead_is_waited_for(fresh, monkeypatch, capsys):
    """A kernel that numba's cache lacks is compiled in another process (said at once);
    its warm-up here waits for that process first and counts as a compile."""
    monkeypatch.setattr(compiling, "_ahead", {})
    monkeypatch.setattr(compiling, "_in_cache", set())
    monkeypatch.setattr(compiling, "cached", lambda dispatcher: False)
    monkeypatch.setattr(compiling.subprocess, "Popen", Compiler)
    Compiler.started = []
    assert compiling.ahead("tight", TIGHT, "dlx.kernels.tight.search:TightSearch")
    assert not compiling.ahead("tight", TIGHT, "dlx.kernels.tight.search:TightSearch")
    assert len(Compiler.started) == 1 and "TightSearch.warm_up()" in Compiler.started[0].argv[-1]
    assert "compiling the tight kernel in another process" in capsys.readouterr().err
    waited = []
    done = compiling.warm(
        "tight", DISPATCHER, False, lambda: waited.append(Compiler.started[0].waited)
    )
    assert waited == [True] and done.compiled
    assert "compiled the tight kernel in another process in" in capsys.readouterr().err


class QuickCompiler(Compiler):
    """A compile ahead that was done 2 s after it started (the time it prints)."""

    def __init__(self, argv, **_):
        super().__init__(argv)
        self.stdout = io.BytesIO(f"{time.time() + 2}\n".encode())


def test_a_compile_ahead_is_said_with_its_own_seconds(fresh, monkeypatch, capsys):
    """The seconds said are the other process's own (from its start to the time it
    printed when done), not those until this process waited for it: here it waits
    after 0.1 s of its own, the other process took 2 s."""
    monkeypatch.setattr(compiling, "_ahead", {})
    monkeypatch.setattr(compiling, "_in_cache", set())
    monkeypatch.setattr(compiling, "cached", lambda dispatcher: False)
    monkeypatch.setattr(compiling.subprocess, "Popen", QuickCompiler)
    assert compiling.ahead("tight", TIGHT, "dlx.kernels.tight.search:TightSearch")
    assert "print(time.time())" in Compiler.started[-1].argv[-1]
    capsys.readouterr()
    compiling.warm("tight", DISPATCHER, False, lambda: None)
    assert "in another process in 2.0 s" in capsys.readouterr().err


def test_a_failed_compile_elsewhere_is_compiled_here(fresh, monkeypatch, capsys):
    """The other process failed (it could not import dlx, say): this one compiles the
    kernel itself, as if nothing had been started, and says nothing of the other."""
    monkeypatch.setattr(compiling, "_ahead", {})
    monkeypatch.setattr(compiling, "_in_cache", set())
    monkeypatch.setattr(compiling, "cached", lambda dispatcher: False)
    monkeypatch.setattr(compiling.subprocess, "Popen", Compiler)
    monkeypatch.setattr(Compiler, "status", 1)
    assert compiling.ahead("tight", TIGHT, "dlx.kernels.tight.search:TightSearch")
    capsys.readouterr()
    done = compiling.warm("tight", DISPATCHER, False, lambda: None)
    assert not done.compiled and "another process" not in capsys.readouterr().err


def test_nothing_compiled_ahead_of_a_cached_kernel(fresh, monkeypatch):
    """A kernel in numba's cache (numba's own index of it) is not compiled elsewhere."""
    from dlx.kernels.tight.search import TightSearch

    TightSearch.warm_up()
    assert compiling.cached(TightSearch.kernel().search)
    monkeypatch.setattr(compiling, "_ahead", {})
    monkeypatch.setattr(compiling, "_in_cache", set())
    monkeypatch.setattr(compiling.subprocess, "Popen", lambda *a, **k: pytest.fail("started"))
    assert not TightSearch.compile_ahead()


def test_the_tight_kernels_parts_have_the_signatures_search_calls_them_with(fresh):
    """A first run compiles the tight kernel's parts (``kernel.parts``) in two halves,
    one in another process, so that numba loads them when it compiles ``search``: that
    works only if each has the signature ``search`` calls it with. numba's cache index of
    each part holds what was compiled of it: only those signatures (a wrong one would
    be compiled beside the right one, which ``search`` compiles itself)."""
    from dlx.kernels.tight import search

    search.TightSearch.warm_up()
    here, there = search._parts(search.tiny_problem(False))
    wanted: dict = {}
    for dispatcher, signature in here + there:
        wanted.setdefault(dispatcher, set()).add(tuple(signature))
    for dispatcher, signatures in wanted.items():
        if not hasattr(dispatcher, "_cache"):
            pytest.skip("no JIT")
        search._compile([(dispatcher, s) for s in signatures])  # (loaded, or compiled)
        index = dispatcher._cache._cache_file._load_index()
        assert {key[0] for key in index} == signatures, dispatcher.__name__


def test_a_part_compiled_ahead_is_waited_for_and_said(fresh, monkeypatch, capsys):
    """Half of a kernel's parts compiled in another process (``PARTS``): said as such
    when it starts and when this process has waited for it; started once a process."""
    monkeypatch.setattr(compiling, "_ahead", {})
    monkeypatch.setattr(compiling, "_in_cache", set())
    monkeypatch.setattr(compiling, "cached", lambda dispatcher: False)
    monkeypatch.setattr(compiling.subprocess, "Popen", Compiler)
    part = "tight, in part"
    where = "dlx.kernels.tight.search:TightSearch"
    assert compiling.ahead(part, TIGHT, where, call="compile_second_half")
    assert Compiler.started[-1].argv[-1].count("TightSearch.compile_second_half()") == 1
    assert "compiling half of the tight kernel's parts in another" in capsys.readouterr().err
    assert compiling.running_ahead(part) and compiling.wait_ahead(part)
    assert "compiled half of the tight kernel's parts in another" in capsys.readouterr().err
    assert not compiling.running_ahead(part)


@pytest.mark.parametrize("where", ["NUMBA_CACHE_DIR", "__pycache__"])
def test_surely_not_cached_until_numba_keeps_an_index(tmp_path, where):
    """``surely_not_cached`` (asked before numba is imported) says yes until numba has
    cached the function, in ``NUMBA_CACHE_DIR`` or in the ``__pycache__`` beside it."""
    (tmp_path / "jitted_for_the_test.py").write_text(
        "from numba import njit\n\n\n@njit(cache=True)\ndef search(x):\n    return x + 1\n"
    )
    code = (
        "import sys\n"
        "from dlx.compiling import surely_not_cached\n"
        "print(surely_not_cached('jitted_for_the_test', 'search'), 'numba' in sys.modules)\n"
        "import jitted_for_the_test\n"
        "jitted_for_the_test.search(1)\n"
        "print(surely_not_cached('jitted_for_the_test', 'search'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])
    if where == "NUMBA_CACHE_DIR":
        env[where] = str(tmp_path / "cache")
    argv = [sys.executable, "-c", code]
    run = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["True", "False", "False"]
    assert (tmp_path / where if where == "__pycache__" else tmp_path / "cache").is_dir()


@pytest.mark.slow
def test_a_first_run_compiles_the_tight_kernel_on_two_cores(tmp_path):
    """The first run of a flat tiling: tight (``auto`` races no other kernel on a fresh
    flat tiling that tight takes) compiled here, half its parts in another process
    meanwhile, once; neither bitset nor dancing links compiled."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    argv = [sys.executable, "-m", "puzzles", "pentomino", "--board", "6x10", "--stats"]
    run = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert run.stderr.count("dlx: compiling half of the tight kernel's parts in another") == 1
    assert "compiling the tight kernel" in run.stderr and "bitset kernel" not in run.stderr
    assert "search kernel" not in run.stderr and "distinct solutions: 2339" in run.stdout


@pytest.mark.slow
def test_first_run_in_an_empty_cache(tmp_path):
    """A real first run: the notice is the first thing on stderr, the answer is right."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    path = tmp_path / "p.txt"
    path.write_text("..\n..\n")
    argv = [sys.executable, "-m", "puzzles", "slitherlink", str(path), "--count"]
    run = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert run.stdout == "13\n"
    assert run.stderr.startswith("dlx: compiling the search kernel for loop items")
    again = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert "compiling" not in again.stderr


def test_compile_all_leaves_every_kernel_ready():
    """Every kernel's every kind: the search and batch kernels with and without loop
    items, bitset, tight and its batch, the solution graph's."""
    from dlx.kernels.links import kernel
    from dlx.kernels.tight import kernel as tight
    from dlx.solution_graph import kernel as graphkernel

    done = compiling.compile_all()
    assert {(w.kind, w.loop) for w in done} >= {
        ("search", False), ("search", True), ("batch", False), ("batch", True),
        ("bitset", False), ("tight", False), ("tight batch", False), ("graph", False),
    }  # fmt: skip
    assert len(kernel.search.signatures) >= 2 and len(kernel.search_batch.signatures) >= 2
    for dispatcher in (tight.search_batch, graphkernel.build, graphkernel.rehash):
        assert dispatcher.signatures
    assert compiling.compile_all() == done  # once per process: nothing more to do or say


def test_compile_all_works_with_nothing_else_imported():
    """``python -m dlx --compile`` and ``dlx.compile_all()`` in a fresh process: every
    kernel listed, compiled or loaded."""
    for argv in (
        [sys.executable, "-m", "dlx", "--compile"],
        [sys.executable, "-c", "import dlx\nfor w in dlx.compile_all(): print(w)"],
    ):
        run = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=True)
        lines = run.stdout.splitlines()
        kinds = [line.split(":")[0] for line in lines]
        assert {"search", "search (loop items)", "bitset", "tight", "graph"} <= set(kinds)
        assert {"costs", "preprocess"} <= set(kinds)
        assert all(" in " in line for line in lines)
    assert "kernels ready" not in run.stdout  # the call prints only what it did


def test_parallel_count_leaves_compiling_out(monkeypatch):
    """The first warm-up (here a fake compilation of 1 s) counts neither in a parallel
    count's seconds nor against its time limit, as in a serial count."""
    import dlx

    def slow_first_warm_up(loop: bool) -> None:
        if not compiling._spent[1:]:  # the first call only
            time.sleep(1.0)
            compiling._spent[0] += 1.0
            compiling._spent.append(1.0)

    dlx.Search.warm_up(False)  # the real kernel loaded first: only the fake is slow
    monkeypatch.setattr(compiling, "_spent", [0.0])
    monkeypatch.setattr(dlx.Search, "warm_up", staticmethod(slow_first_warm_up))
    problem = dlx.Problem(primary=["a", "b", "c"])
    for option in (["a"], ["b"], ["c"], ["a", "b"], ["b", "c"]):
        problem.add_option(option)
    count = dlx.count(  # the dancing-links kernel: its warm-up is the fake one
        problem, parallel=dlx.Parallel(workers=1, tasks=4), time_limit=0.8, engine="dlx"
    )
    assert count == 3 and count.complete  # not cut by the 0.8 s limit
    assert compiling._spent[0] == 1.0 and count.stats.seconds < 0.8


def test_compile_all_registers_every_specialisation(monkeypatch):
    """What ``compile_all`` warms up, read without compiling (``warm`` only noted):
    every kernel and each specialisation a README command or a test uses, among them
    the links search and batch with item domination (``propagate="domination"``: its
    state holds a work stack, another type), the cost kernel and the kernels' jitted
    ``sanity`` checks."""
    asked = set()
    monkeypatch.setattr(compiling, "_done", set())
    monkeypatch.setattr(compiling, "_warmed", {})
    monkeypatch.setattr(compiling, "warm", lambda kind, _d, loop, _run: asked.add((kind, loop)))
    compiling.compile_all()
    for loop in (False, True):
        for kind in ("search", "search with domination", "batch", "batch with domination"):
            assert (kind, loop) in asked
    for kind in ("bitset", "bitset with regions", "tight", "tight batch", "sudoku batch"):
        assert (kind, False) in asked
    for kind in ("mcc", "graph", "costs", "preprocess"):
        assert (kind, False) in asked
    for kind in ("search sanity", "tight sanity", "mcc sanity", "costs sanity"):
        assert (kind, False) in asked  # tests call them at every pause


def test_the_cost_kernel_warm_up_compiles_force_too(monkeypatch):
    """The cost kernel's warm-up also forces an option (``force``: a parallel best's
    tasks call it), read without compiling."""
    from dlx.kernels.costs import kernel, search

    forced = []
    monkeypatch.setattr(kernel, "force", lambda s, x: forced.append(x))
    monkeypatch.setattr(search, "search_best", lambda *a, **k: None)
    search._warm_up()
    assert len(forced) == 1


def test_a_search_with_domination_warms_its_own_specialisation(monkeypatch):
    """A search warms up the specialisation it runs: item domination is one of its own,
    as bitset's region pruning (``prune_cap`` > 1) is."""
    import dlx
    from dlx.kernels.links.search import Search

    asked = []
    monkeypatch.setattr(Search, "warm_up", classmethod(lambda cls, v=False: asked.append(v)))
    problem = dlx.Problem(primary=["a"])
    problem.add_option(["a"])
    Search(problem.with_propagation("domination"))
    Search(problem)
    assert asked == [(False, True), (False, False)]
    from dlx.kernels.bitset.search import BitsetSearch

    asked.clear()
    monkeypatch.setattr(BitsetSearch, "warm_up", classmethod(lambda cls, v=False: asked.append(v)))
    two = dlx.Problem(primary=["a", "b"])
    two.add_option(["a", "b"])
    BitsetSearch(two, prune_cap=2)
    BitsetSearch(two)
    assert asked == [True, False]


def test_a_kernel_module_another_thread_is_importing_is_waited_for(tmp_path, monkeypatch):
    """Two threads asking for one kernel module (two Dask tasks on threads of one
    worker): the second waits for the first's import, never gets the module half made
    (``partially initialized module ... has no attribute``)."""
    import threading

    gate = SimpleNamespace(started=threading.Event(), release=threading.Event())
    monkeypatch.setitem(sys.modules, "kernel_gate_for_the_test", gate)
    (tmp_path / "kernel_slow_for_the_test.py").write_text(
        "import sys\n"
        "gate = sys.modules['kernel_gate_for_the_test']\n"
        "gate.started.set()\n"
        "gate.release.wait(30)\n"
        "value = 42\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "kernel_slow_for_the_test", raising=False)
    got = []

    def use():
        try:
            got.append(compiling.kernel_module("kernel_slow_for_the_test").value)
        except AttributeError as error:
            got.append(str(error))

    first = threading.Thread(target=use)
    first.start()
    assert gate.started.wait(30)
    second = threading.Thread(target=use)
    second.start()
    second.join(0.3)  # the second asks while the first is still importing
    gate.release.set()
    first.join(30)
    second.join(30)
    assert got == [42, 42]
    sys.modules.pop("kernel_slow_for_the_test", None)
