"""A griffe extension for the API pages: the docstrings' bare doctest examples
(``>>>`` lines and their output, as the tests run them) are shown as Python console
code blocks, so that their output is not read as Markdown (``[(0, 1)]`` as a link)."""

from __future__ import annotations

import griffe


def fence_doctests(text: str) -> str:
    """``text`` with each run of doctest lines (``>>>`` up to the next blank line) fenced.

    >>> print(fence_doctests("Example:\\n\\n>>> 1 + 1\\n2\\n\\nEnd."))
    Example:
    <BLANKLINE>
    ```pycon
    >>> 1 + 1
    2
    ```
    <BLANKLINE>
    End.
    """
    out: list[str] = []
    inside = False
    fenced = False  # inside a code block the docstring fences itself
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fenced = not fenced
        if not fenced and not inside and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not stripped:
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctest examples of every docstring as it is loaded."""

    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
