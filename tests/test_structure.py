"""The package's structure, read from its source with ``ast`` (nothing imported): no
import cycle among ``dlx/`` modules (imports inside functions count)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dlx"


def module_name(path: Path) -> str:
    """``dlx/search.py`` -> ``dlx.search``; ``dlx/__init__.py`` -> ``dlx``."""
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
