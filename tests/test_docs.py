"""The README stays short and its figures are the docs' figures; the docs site's pages
exist. (The examples of README.md and docs/*.md run as doctests: pyproject.toml.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PERFORMANCE = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")


def figure_rows() -> list[list[str]]:
    """The rows of the README's table of current figures: (what, figure, date)."""
    section = README.split("## Current figures", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split(" | ") for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row] for row in rows[1:]]  # the header left out


def test_the_readme_is_at_most_250_lines():
    assert len(README.splitlines()) <= 250


def test_every_readme_figure_is_in_the_performance_page_with_its_date():
    rows = figure_rows()
    assert len(rows) >= 5
    table = [line for line in PERFORMANCE.splitlines() if line.startswith("| 20")]
    for what, figure, date in rows:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", date), (what, date)
        assert any(figure in line and line.startswith(f"| {date} ") for line in table), (
            f"{what}: {figure!r} ({date}) is not in docs/performance.md with its date"
        )


def test_every_page_of_the_nav_exists_and_every_page_is_in_it():
    nav = re.findall(r":\s*(\S+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.MULTILINE)
    assert "index.md" in nav
    for page in nav:
        assert (ROOT / "docs" / page).is_file(), page
    pages = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert pages <= set(nav), sorted(pages - set(nav))


def test_the_quick_start_is_what_ci_runs():
    quick = README.split("## Quick start", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split("  #")[0].strip() for line in quick.splitlines()]
    assert commands[0].endswith("pip install -e '.[test]'")
    assert "python -m puzzles pentomino --board 8x8 --extra O" in commands
    assert "python -m pytest" in commands
    assert commands.index("python -m dlx --compile") < commands.index("python -m pytest")
    assert "quick_start" in (ROOT / ".ci" / "run").read_text()
