"""What ``auto``'s race is handed and hands back (``dlx.driver.choose``): each kernel's
calls (``Kernel``), the kernels that take a problem in the order they race
(``Lineup``, made by ``line_up``), and the kernel chosen, with why (``Choice``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Choice:
    """The kernel that runs a search (``name``), why (``reason``) and, when ``auto``
    ran the winner's search as the count runs it, that search to continue (``search``,
    else None)."""

    name: str
    reason: str
    search: object | None = None

    def describe(self) -> str:
        """``name (reason)``: what ``--stats`` prints."""
        return f"{self.name} ({self.reason})"


@dataclass(frozen=True)
class Kernel:
    """What the race needs to know of one kernel: its name and its registry row's calls
    (``refuses``: problem -> reason or None; ``suits``: problem -> bool, None: never).
    Its searches come from the race's ``make`` (see ``choose``)."""

    name: str
    refuses: Callable
    suits: Callable | None = None


@dataclass(frozen=True)
class Lineup:
    """The kernels that take a problem (``takers``) in the order the race tries them:
    the first ``suited`` are those whose row says that it looks like their kind, the
    rest as listed; and what each of the others says against it (``refused``: name,
    reason). Facts of the problem (see ``line_up``)."""

    takers: tuple[Kernel, ...]
    suited: int
    refused: tuple[tuple[str, str], ...]
    why: str | None = None  # why the first leads, where not its ``suits``

    def led_by(self, name: str, why: str) -> Lineup:
        """The same line-up with kernel ``name`` (one of the takers) first, for the
        reason ``why``."""
        first = [k for k in self.takers if k.name == name]
        rest = [k for k in self.takers if k.name != name]
        return Lineup((*first, *rest), self.suited, self.refused, why)


def line_up(problem, kernels: list[Kernel]) -> Lineup:
    """``kernels`` lined up for ``problem`` (see ``Lineup``), each row asked once: a
    caller that counts the problem again may keep it (``dlx.engines`` does, so that a
    small count's race does not ask again)."""
    said = [(k, k.refuses(problem)) for k in kernels]
    takers = [k for k, why in said if why is None]
    suited = [k for k in takers if k.suits is not None and bool(k.suits(problem))]
    rest = [k for k in takers if k not in suited]
    refused = tuple((k.name, why) for k, why in said if why is not None)
    return Lineup((*suited, *rest), len(suited), refused)
