"""The docs work when pasted: every Python block of docs/ and the README that is not a
doctest (those run as doctests: pyproject.toml) runs, a page's blocks in order in one
namespace; the shell blocks of the docs marked ``<!-- run -->`` (``<!-- run: slow -->``
for the long ones) run, and the lines of the ``text`` block right after one, if any,
are lines of what it prints. A Python block marked ``<!-- not run: REASON -->`` is left
out (an excerpt of the code, say). Each runs in a fresh directory holding ``data/``, as
in a clone."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
FENCE = re.compile(r"(<!-- (run|run: slow|not run: [^>]*) -->\n)?```(\w*)\n(.*?)```\n", re.S)


def blocks(page: Path) -> list[tuple[str, str, str, int]]:
    """The fenced blocks of ``page``: (marker or "", language, text, line)."""
    text = page.read_text(encoding="utf-8")
    return [
        (m.group(2) or "", m.group(3), m.group(4), text.count("\n", 0, m.start()) + 1)
        for m in FENCE.finditer(text)
    ]


def python_pages() -> list[Path]:
    """The pages with a Python block that is no doctest and not marked."""
    return [
        page
        for page in PAGES
        if any(lang == "python" and ">>>" not in code and not mark.startswith("not run")
               for mark, lang, code, _ in blocks(page))
    ]  # fmt: skip


def shell_blocks():
    """The marked shell blocks: pytest params of (page, line, commands, expected lines)."""
    params = []
    for page in PAGES:
        found = blocks(page)
        for k, (mark, lang, code, line) in enumerate(found):
            if lang != "sh" or not mark.startswith("run"):
                continue
            after = found[k + 1] if k + 1 < len(found) else None
            expected = after[2].splitlines() if after and after[1] == "text" else []
            marks = [pytest.mark.slow] if mark == "run: slow" else []
            name = f"{page.relative_to(ROOT)}:{line}"
            params.append(pytest.param(code, expected, id=name, marks=marks))
    return params


@pytest.fixture
def clone(tmp_path, monkeypatch):
    """A fresh directory holding ``data/`` (a link to the clone's), made current."""
    (tmp_path / "data").symlink_to(ROOT / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("page", python_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_python_blocks_run(page, clone, capsys):
    namespace: dict = {"__name__": "__pasted__"}
    for mark, lang, code, line in blocks(page):
        if lang == "python" and ">>>" not in code and not mark.startswith("not run"):
            exec(compile(code, f"{page.name}:{line}", "exec"), namespace)  # noqa: S102
    capsys.readouterr()


@pytest.mark.parametrize("code, expected", shell_blocks())
def test_shell_blocks_print_what_the_page_says(code, expected, clone):
    env = dict(
        os.environ, PYTHONPATH=str(ROOT), PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}"
    )
    run = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", code],
        cwd=clone, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    printed = run.stdout.splitlines()
    for line in expected:
        assert line in printed, (line, run.stdout)


def test_the_marks_are_found():
    """The convention is in use: a fast shell block, a slow one, a block left out."""
    params = shell_blocks()
    assert any(not p.marks for p in params) and any(p.marks for p in params)
    assert any(mark.startswith("not run") for page in PAGES for mark, *_ in blocks(page))
