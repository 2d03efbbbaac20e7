"""The commands' argument parser: an argument mistake is one line on stderr, the error
first, with a "did you mean" for a misspelt flag or choice, and exit status 2. Stdlib
only (the commands parse before numpy is imported)."""

from __future__ import annotations

import argparse
import difflib
import re
import sys


class Parser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose errors are one line (not the usage first).

    >>> parser = Parser(prog="demo")
    >>> _ = parser.add_argument("--count", action="store_true")
    >>> parser.suggestion("unrecognized arguments: --cuont")
    ' (did you mean --count?)'
    """

    def error(self, message: str):
        """Print ``prog: error: message`` (with a suggestion) in one line; exit 2."""
        hint = self.suggestion(message)
        print(f"{self.prog}: error: {message}{hint}; --help for usage", file=sys.stderr)
        raise SystemExit(2)

    def suggestion(self, message: str) -> str:
        """`` (did you mean X?)`` for a misspelt flag or choice in ``message``, or ""."""
        flags = [s for a in self._actions for s in a.option_strings if s.startswith("--")]
        unknown = re.match(r"unrecognized arguments: (.*)", message)
        if unknown:
            for word in unknown.group(1).split():
                close = difflib.get_close_matches(word.split("=")[0], flags, n=1)
                if word.startswith("-") and close:
                    return f" (did you mean {close[0]}?)"
            return ""
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            options = [c.strip(" '") for c in choice.group(2).split(",")]
            close = difflib.get_close_matches(choice.group(1), options, n=1)
            return f" (did you mean {close[0]}?)" if close else ""
        return ""
