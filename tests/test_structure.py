"""The package's structure, read from its source with ``ast`` (nothing imported): no
import cycle among ``dlx/`` modules (imports inside functions count)."""

from __future__ import annotations

import ast
import hashlib
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dlx"


def module_name(path: Path) -> str:
    """``dlx/driver/driver.py`` -> ``dlx.driver.driver``; ``dlx/__init__.py`` -> ``dlx``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def dlx_modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(path: Path, modules) -> set[str]:
    """The ``dlx`` modules that ``path`` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name in modules}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` (a list of nodes, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for other in sorted(graph[node]):
            if state.get(other) == 1:
                return path[path.index(other) :] + [other]
            if other not in state:
                cycle = visit(other)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_among_dlx_modules():
    """The package ``dlx`` (its ``__init__``) may import every module, and a module may
    import the package's public names, but no chain of imports comes back: the
    package's node is left out (importing ``dlx.x`` runs ``dlx/__init__`` first, which
    is no cycle of the modules' own)."""
    modules = dlx_modules()
    graph = {
        name: imports_of(path, modules) - {"dlx", name}
        for name, path in modules.items()
        if name != "dlx"
    }
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph))


# jitted helpers that kernels in other files may call, and the name under which each
# caller records the helper file's digest
SHARED_JIT = {
    "dlx.kernels.shared": "MEMO_DIGEST",
    "dlx.kernels.bits": "BITS_DIGEST",
    "dlx.kernels.links.lists": "LISTS_DIGEST",
    "dlx.kernels.links.commit": "COMMIT_DIGEST",
    "dlx.kernels.links.domination": "DOMINATION_DIGEST",
    "dlx.kernels.links.loops": "LOOPS_DIGEST",
    "dlx.kernels.links.memo": "LINKS_MEMO_DIGEST",
    "dlx.kernels.bands": "BANDS_DIGEST",
    "dlx.kernels.tight.batch": "TIGHT_BATCH_DIGEST",
    "dlx.kernels.tight.frames": "TIGHT_FRAMES_DIGEST",
    "dlx.kernels.tight.leaves": "TIGHT_LEAVES_DIGEST",
    "dlx.kernels.bitset.regions": "BITSET_REGIONS_DIGEST",
    "dlx.solution_graph.fewest": "FEWEST_DIGEST",
}


def test_each_kernel_calls_jitted_code_of_its_own_file_or_a_shared_one():
    """numba's cache keys a function on its own file only, so a jitted file calls jitted
    code of another file only where that file is in ``SHARED_JIT`` (the memo and counts,
    ``dlx/kernels/shared.py``; the processor's bit instructions, ``bits.py``; the reads
    of a live set, ``bands.py``; the parts of the links kernel, tight's batches, bitset's
    region pruning), and then records its digest (``MEMO_DIGEST`` and the like), so that
    an edit of that file must edit the caller's file too, which makes numba compile the
    caller afresh (and its callers in turn, as their record of its digest changes)."""
    modules = dlx_modules()
    jitted = {
        n for n, p in modules.items() if re.search(r"^@(njit|intrinsic)", p.read_text(), re.M)
    }
    jitted |= set(SHARED_JIT)
    faults = []
    for name in sorted(jitted):
        text = modules[name].read_text()
        imported = imports_of(modules[name], modules)
        for other in sorted((imported & jitted) - {name}):
            if other not in SHARED_JIT:
                faults.append(f"{name} calls jitted code of {other}")
                continue
            path = modules[other]
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
            if f'{SHARED_JIT[other]} = "{digest}"' not in text:
                faults.append(
                    f'{name}: set {SHARED_JIT[other]} = "{digest}" ({path.relative_to(ROOT)} '
                    "changed)"
                )
    users = {n for n in jitted if "dlx.kernels.shared" in imports_of(modules[n], modules)}
    assert users >= {"dlx.kernels.bitset.kernel", "dlx.kernels.tight.kernel"}
    bits = {n for n in jitted if "dlx.kernels.bits" in imports_of(modules[n], modules)}
    assert bits >= {"dlx.kernels.tight.kernel", "dlx.kernels.mcc.kernel"}
    assert not faults, "\n".join(faults)


# -- the floors: each line may use those below it, never above --------------------------

KERNELS = "dlx.kernels."
ABOVE_THE_KERNELS = (
    "dlx.api",
    "dlx.cli",
    "dlx.costs",
    "dlx.engines",
    "dlx.parallel",
    "dlx.solution_graph",
)
# what a kernel's folder may import besides its own modules: the floors below it and
# the small leaves
BELOW_A_KERNEL = {
    "dlx.compiling",
    "dlx.errors",
    "dlx.kernels.bands",
    "dlx.kernels.bits",
    "dlx.kernels.cells",
    "dlx.kernels.shared",
    "dlx.numbers",
    "dlx.problem",
    "dlx.stopping",
}


def reaches(name: str, prefixes) -> bool:
    """Whether module ``name`` is one of ``prefixes`` or inside one of them."""
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_the_driver_floor_imports_no_kernel_and_nothing_above():
    modules = dlx_modules()
    found = [
        f"{name} imports {other}"
        for name, path in modules.items()
        if reaches(name, ["dlx.driver"])
        for other in sorted(imports_of(path, modules))
        if other.startswith(KERNELS) or reaches(other, ABOVE_THE_KERNELS)
    ]
    assert not found, found


def test_problem_imports_no_kernel():
    """Each kernel builds its layout from the problem (``Problem.entries``,
    ``Problem.layout_of``); the problem knows none of them."""
    modules = dlx_modules()
    found = imports_of(modules["dlx.problem"], modules)
    assert not {m for m in found if m.startswith(KERNELS)}, found
    assert not any(reaches(m, ABOVE_THE_KERNELS) or reaches(m, ["dlx.driver"]) for m in found)


def test_the_checkpoint_imports_no_kernel():
    """A checkpoint's digest is the problem's own (``Problem.digest``): recording a
    bitset or tight count builds no other kernel's layout."""
    modules = dlx_modules()
    found = imports_of(modules["dlx.parallel.checkpoint"], modules)
    # a file of version 2 only: its digest hashed the dancing-links arrays
    version_2 = {"dlx.kernels.links", "dlx.kernels.links.layout"}
    assert not {m for m in found if m.startswith(KERNELS)} - version_2, found


def test_a_kernel_folder_imports_only_itself_the_driver_problem_and_the_shared_modules():
    modules = dlx_modules()
    found = []
    for name, path in modules.items():
        parts = name.split(".")
        shared = name.endswith((".shared", ".cells", ".bits", ".bands"))
        if len(parts) < 3 or not name.startswith(KERNELS) or shared:
            continue
        folder = ".".join(parts[:3])
        for other in sorted(imports_of(path, modules) - {"dlx", "dlx.kernels"}):
            if not (reaches(other, [folder, "dlx.driver"]) or other in BELOW_A_KERNEL):
                found.append(f"{name} imports {other}")
    assert not found, found


MAX_MODULE_LINES = 600


def test_no_module_is_longer_than_the_rule():
    long = {
        str(path.relative_to(ROOT))
        for folder in ("dlx", "puzzles")
        for path in (ROOT / folder).rglob("*.py")
        if len(path.read_text().splitlines()) > MAX_MODULE_LINES
    }
    assert not long, sorted(long)


# a comment that narrates how the code came to be, not what it is: the work that made it
# ("this round", "session", "the main job"), what it was before ("previously", "used
# to", "no longer", "formerly"), the day it changed (an ISO date)
DIARY = re.compile(
    r"this round|\bsessions?\b|main job|\bpreviously\b|\bused to\b|\bno longer\b"
    r"|\bformerly\b|\b(19|20)\d\d-[01]\d-[0-3]\d\b",
    re.I,
)


def comments_and_docstrings(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each comment and docstring of a Python file."""
    import io
    import tokenize

    found = []
    source = path.read_text()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found.append((token.start[0], token.string))
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text and node.body:
                found.append((node.body[0].lineno, text))
    return found


def test_the_diary_words_are_found():
    diary = [
        "this round: faster",
        "as the main job needs",
        "previously a list",
        "it used to copy",
        "no longer cached",
        "measured 2026-11-28",
    ]
    present = ["the options used together with P", "a round of samples", "a 2026 x 11 board"]
    assert all(DIARY.search(text) for text in diary)
    assert not any(DIARY.search(text) for text in present)


def test_no_comment_narrates_history():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {DIARY.search(text).group()!r}"
        for folder in ("dlx", "puzzles")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, text in comments_and_docstrings(path)
        if DIARY.search(text)
    ]
    assert not found, found


# the docs' prose: the same words, but a measured figure carries its date
DOCS_DIARY = re.compile(
    r"this round|\bsessions?\b|main job|\bpreviously\b|\bused to\b|\bno longer\b|\bformerly\b",
    re.I,
)
# pages left out, each with its reason: the measurement log, whose entries name the
# work that made them and that several people append to at once
DIARY_PAGES = {"performance.md"}


def test_no_docs_page_narrates_history():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {DOCS_DIARY.search(text).group()!r}"
        for path in sorted((ROOT / "docs").glob("*.md"))
        if path.name not in DIARY_PAGES
        for line, text in enumerate(path.read_text().splitlines(), 1)
        if DOCS_DIARY.search(text)
    ]
    assert not found, found


def test_no_module_reads_a_problems_private_arrays():
    """Each kernel's layout is made from the problem's public view (``Problem.entries``:
    the options as compressed rows; ``Problem.layout_of`` keeps it), never from
    ``problem._...`` outside ``dlx/problem.py``."""
    found = []
    for path in [*PACKAGE.rglob("*.py"), *(ROOT / "puzzles").rglob("*.py")]:
        if path == PACKAGE / "problem.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "problem"
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: problem.{node.attr}")
    assert not found, "\n".join(found)


# -- names in docstrings and comments ---------------------------------------------------

EXTERNAL = {
    "client",  # a Dask client
    "np",
    "numpy",
    "numba",
    "tqdm",
    "os",
    "sys",
    "math",
    "time",
    "dask",
    "mmap",
    "itertools",
    "functools",
    "hashlib",
    "json",
    "argparse",
    "random",
    "pytest",
    "hypothesis",
    "threading",
    "multiprocessing",
    "signal",
    "subprocess",
    "ctypes",
    "pickle",
    "importlib",
    "weakref",
    "ast",
    "re",
    "collections",
    "typing",
    "str",
    "int",
    "float",
    "list",
    "dict",
    "set",
    "tuple",
    "bytes",
    "len",
    "range",
    "print",
    "sum",
    "max",
    "min",
    "sorted",
    "next",
    "iter",
    "isinstance",
    "hasattr",
    "getattr",
    "open",
    "repr",
    "type",
    "bool",
    "zip",
    "enumerate",
    "any",
    "all",
    "abs",
    "round",
    "input",
    "id",
    "hash",
    "format",
    "super",
    "object",
    "vars",
    "divmod",
    "pow",
}
# ``name()`` or ``a.b.name()`` in double backticks, a name with a call's parentheses
CALLED = re.compile(r"``((?:[A-Za-z_][A-Za-z0-9_]*\.)*)([A-Za-z_][A-Za-z0-9_]*)\([^`]*\)``")
# ``_name``: a private helper, named alone
PRIVATE = re.compile(r"``(_[a-z][A-Za-z0-9_]*)``")
# ``dlx.module.name``: a dotted name in the package
DOTTED = re.compile(r"``(dlx(?:\.[A-Za-z_][A-Za-z0-9_]*)+)(?:\(\))?``")


def defined_names(paths) -> set[str]:
    """Every name that the files define: functions, classes, methods, assigned names
    and attributes, parameters, fields of named tuples, imported names."""
    names = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias):
                names.add((node.asname or node.name).split(".")[-1])
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                if re.fullmatch(r"[a-z_][a-z0-9_ ]*", node.value):  # namedtuple fields
                    names.update(node.value.split())
    return names


def module_names(path: Path) -> set[str]:
    """The names a module defines at its top level (and its classes' members)."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        for inner in ast.walk(node):
            if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(inner.name)
            elif isinstance(inner, (ast.Name, ast.Attribute)) and isinstance(inner.ctx, ast.Store):
                names.add(inner.id if isinstance(inner, ast.Name) else inner.attr)
            elif isinstance(inner, ast.alias):
                names.add((inner.asname or inner.name).split(".")[-1])
    return names


def unknown_names(paths, known: set[str], modules: dict[str, Path]) -> list[str]:
    """The names that docstrings and comments of ``paths`` give but nothing defines
    (a private ``_name``: nothing in its own file)."""
    unknown = []
    for path in paths:
        text = path.read_text()
        for prefix, name in CALLED.findall(text):
            head = prefix.split(".")[0]
            if head not in EXTERNAL and name not in known and name not in EXTERNAL:
                unknown.append(f"{path.name}: {prefix}{name}()")
        own = defined_names([path])  # a private name is its own module's
        unknown += [f"{path.name}: {name}" for name in PRIVATE.findall(text) if name not in own]
        for dotted in DOTTED.findall(text):
            parts = dotted.split(".")
            module = next(
                (
                    ".".join(parts[:k])
                    for k in range(len(parts), 0, -1)
                    if ".".join(parts[:k]) in modules
                ),
                None,
            )
            rest = parts[len(module.split(".")) :] if module else parts
            if rest and rest[0].startswith("__"):  # dunders (``dlx.__version__``, lazy)
                continue
            if module is None or (rest and rest[0] not in module_names(modules[module])):
                unknown.append(f"{path.name}: {dotted}")
    return unknown


def test_unknown_names_are_found(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        '"""See ``_leave_level`` and ``dlx.kernels.links.search.nothing`` and ``missing()``."""\n'
    )
    modules = dlx_modules()
    found = unknown_names([bad], defined_names(modules.values()), modules)
    assert found == [
        "bad.py: missing()",
        "bad.py: _leave_level",
        "bad.py: dlx.kernels.links.search.nothing",
    ]


def test_docstrings_and_comments_name_only_what_exists():
    """A name in double backticks with parentheses, a private ``_name``, or a dotted
    ``dlx.module.name`` in a docstring or comment of ``dlx/`` or ``puzzles/`` must be
    defined there (``_name`` in its own file) (a renamed helper leaves no stale name behind)."""
    modules = dlx_modules()
    paths = sorted(PACKAGE.rglob("*.py")) + sorted((ROOT / "puzzles").rglob("*.py"))
    known = defined_names(paths)
    assert not unknown_names(paths, known, modules)


# -- function length, parameters, the public API's reach ---------------------------------

MAX_LINES = 120  # the house rule for a function's length
MAX_PARAMETERS = 10  # ... and for a public function's parameters


def functions(root: Path):
    """(file, node) of every function and method under ``root``."""
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield path.relative_to(ROOT), node


@pytest.mark.parametrize("folder", ["dlx", "puzzles"])
def test_no_function_is_longer_than_the_rule(folder):
    long = [
        f"{path}: {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for path, node in functions(ROOT / folder)
        if node.end_lineno - node.lineno + 1 > MAX_LINES
    ]
    assert not long, f"functions over {MAX_LINES} lines: {long}"


def parameters(node: ast.FunctionDef) -> int:
    """The parameters of a function, ``self`` and ``cls`` left out."""
    a = node.args
    names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
    names += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
    return len([n for n in names if n not in ("self", "cls")])


def test_no_public_function_of_puzzles_takes_more_than_the_rule():
    wide = [
        f"{path}: {node.name} ({parameters(node)} parameters)"
        for path, node in functions(ROOT / "puzzles")
        if not node.name.startswith("_") and parameters(node) > MAX_PARAMETERS
    ]
    assert not wide, wide


def test_no_public_callable_of_dlx_takes_more_than_the_rule():
    import dlx

    wide = []
    for name in dlx.__all__:
        value = getattr(dlx, name)
        if not callable(value):
            continue
        members = [(name, value)]
        if inspect.isclass(value):
            members = [(f"{name}()", value.__init__)]
            members += [
                (f"{name}.{m}", f)
                for m, f in vars(value).items()
                if not m.startswith("_") and inspect.isfunction(f)
            ]
        for label, function in members:
            try:
                signature = inspect.signature(function)
            except (TypeError, ValueError):  # a builtin's
                continue
            n = len([p for p in signature.parameters if p not in ("self", "cls")])
            if n > MAX_PARAMETERS:
                wide.append(f"{label}: {n} parameters")
    assert not wide, wide


@pytest.mark.parametrize("folder", ["puzzles", "scripts"])
def test_puzzles_and_scripts_use_only_the_public_names(folder):
    """``import dlx`` and the names of ``dlx.__all__``: nothing below them (a module
    listed there, such as ``dlx.outputs`` for the command layers, is public whole)."""
    import dlx

    public = set(dlx.__all__) | {"__version__"}
    modules = {f"dlx.{name}" for name in public if inspect.ismodule(getattr(dlx, name))}
    reached = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import):
                reached += [
                    f"{where} import {a.name}"
                    for a in node.names
                    if a.name.startswith("dlx.") and a.name not in modules
                ]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "dlx":
                if node.module in modules:
                    continue
                if node.module != "dlx":
                    reached.append(f"{where} from {node.module} import ...")
                else:
                    reached += [f"{where} dlx.{a.name}" for a in node.names if a.name not in public]
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "dlx"
                and node.attr not in public
            ):
                reached.append(f"{where} dlx.{node.attr}")
    assert not reached, reached


# ``from module import _name``, allowed where it must be: the importer and the reason
PRIVATE_IMPORTS = {
    # the deprecation shim of ``dlx.parallel.parallel_run`` hands out the private runner
    ("dlx/parallel/__init__.py", "dlx.parallel.run", "_parallel_run"),
}


def private_imports(source: str) -> list[tuple[int, str, str]]:
    """(line, module, name) of each ``from module import _name`` in ``source`` (a name
    imported under another name counts by its own name)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append((node.lineno, node.module, alias.name))
    return found


def test_private_imports_are_found():
    source = "from a import b, _c\nfrom d import _e as e, __version__\nimport _f\n"
    assert private_imports(source) == [(1, "a", "_c"), (2, "d", "_e")]


def within_a_kernel(path: Path, module: str) -> bool:
    """Whether ``path`` and ``module`` are files of one kernel's folder: a kernel is one
    unit split over files only so that each stays short (numba's cache keys each file
    apart, hence the digests), so its steps are private to the kernel and shared by its
    files."""
    folder = path.relative_to(ROOT).parent.as_posix().replace("/", ".")
    return folder.startswith("dlx.kernels.") and module.rpartition(".")[0] == folder


def test_no_module_imports_a_private_name_of_another():
    """A name shared between modules is public in the module that defines it (a
    kernel's own files excepted: ``within_a_kernel``)."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: from {module} import {name}"
        for folder in ("dlx", "puzzles", "scripts")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, module, name in private_imports(path.read_text())
        if (str(path.relative_to(ROOT)), module, name) not in PRIVATE_IMPORTS
        and not within_a_kernel(path, module)
    ]
    assert not found, "\n".join(found)


def test_a_kernels_own_files_share_its_private_steps_and_nobody_else():
    kernel = ROOT / "dlx/kernels/links/kernel.py"
    assert within_a_kernel(kernel, "dlx.kernels.links.lists")
    assert not within_a_kernel(kernel, "dlx.kernels.tight.kernel")
    assert not within_a_kernel(ROOT / "dlx/parallel/best.py", "dlx.parallel.run")
