"""Build an exact-cover problem from named items and options, and compile it to arrays.

Glossary (Knuth's words):
- *item*: something to cover. A *primary* item must be covered between ``lo`` and
  ``hi`` times (exact cover: once); a *secondary* item at most once, or by any number
  of options that give it the same *colour*.
- *option*: a set of items; a solution is a set of options.
- an option's item may be written ``"x:c"``: secondary item ``x`` with colour ``c``.

All validation happens here, before anything reaches the numba kernel.
"""

from __future__ import annotations

import copy
import hashlib
import threading
from typing import NamedTuple

import numpy as np

from dlx.errors import ProblemError
from dlx.numbers import whole

__all__ = ["MAX_BOUND", "PROPAGATIONS", "Entries", "Problem", "ProblemError"]

MAX_BOUND = 1 << 30  # an item's upper bound, a loop vertex number: below this
PROPAGATIONS = (None, "domination")  # the values of ``propagate``


class Entries(NamedTuple):
    """A problem's options as compressed rows (``Problem.entries()``): entry ``j`` puts
    item ``item[j]`` (1 to n_primary: the primary items in order, then the secondary
    ones) with colour ``colour[j]`` (0: none) in option ``option[j]`` (options in order,
    each one's items in the order given); the primary items' bounds ``lo``/``hi``."""

    option: np.ndarray
    item: np.ndarray
    colour: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    n_secondary: int


_COMPILE_LOCK = threading.RLock()  # one problem's layouts are built by one thread at a time


def _split_colour(entry) -> tuple[str, str | None]:
    """``"x:c"`` or ``("x", "c")`` or ``"x"`` -> (name, colour or None)."""
    if isinstance(entry, tuple):
        name, colour = entry
        return name, colour
    if not isinstance(entry, str):
        raise ProblemError(f"an option's items must be strings, not {entry!r}")
    name, sep, colour = entry.partition(":")
    return name, (colour if sep else None)


class Problem:
    """An exact-cover problem with colours (XCC) and multiplicities (MCC).

    Examples
    --------
    >>> p = Problem(primary=["a", "b", "c"], secondary=["x"])
    >>> p.add_option(["a", "b", "x:red"])
    0
    >>> p.add_option(["c", "x:red"])
    1
    >>> p.add_option(["a", "b", "c"])
    2
    >>> p.n_options, p.option(0)
    (3, ['a', 'b', 'x:red'])
    """

    def __init__(self, primary=(), secondary=(), bounds=None, propagate: str | None = None):
        self.propagate = propagate  # None, or "domination" (see with_propagation)
        self._primary: list[str] = []
        self._secondary: list[str] = []
        self._index: dict[str, int] = {}  # name -> p (primary) or ~s (secondary)
        self._lo: list[int] = []
        self._hi: list[int] = []
        self._option_items: list[int] = []  # flat, in the encoding of _index
        self._option_colours: list[int] = []  # flat, 0 = none
        self._option_start: list[int] = [0]
        self._option_names: list[str | None] = []
        self._option_costs: list[int] = []  # non-negative, any size; 0 when not given
        self._colour_index: dict[str, int] = {}
        self._colours: list[str] = []
        self._loop: dict[int, tuple[int, int, int]] = {}  # secondary s -> (u, v, colour id)
        self._layouts: dict = {}  # build -> what it built (see ``layout_of``)
        for argument, names in (("primary", primary), ("secondary", secondary)):
            if isinstance(names, str):
                raise ProblemError(
                    f"{argument} must be a list of item names, not the string {names!r}"
                )
        bounds = dict(bounds or {})
        for name in primary:
            lo, hi = bounds.pop(name, (1, 1))
            self.add_primary(name, lo, hi)
        for name in secondary:
            self.add_secondary(name)
        if bounds:
            raise ProblemError(f"bounds given for unknown primary item {next(iter(bounds))!r}")

    def with_propagation(self, propagate: str | None) -> Problem:
        """This problem searched with ``propagate``: None, or ``"domination"`` (item
        domination: where every option left to a primary item p covers an item c, the
        options of c without p are hidden; counts and solutions are the same, the tree
        is smaller). Returns ``self`` when it already has that setting, else a copy
        that shares the compiled arrays."""
        if propagate not in PROPAGATIONS:
            raise ProblemError(f"propagate={propagate!r}: the choices are None and 'domination'")
        if propagate == self.propagate:
            return self
        other = copy.copy(self)
        for name, value in vars(self).items():  # building on the copy leaves self alone
            if isinstance(value, list | dict):
                setattr(other, name, value.copy())
        other.propagate = propagate
        return other

    # -- building -------------------------------------------------------------------

    def _check_new_name(self, name) -> None:
        """Refuse a name that is not a fresh, usable item name."""
        if not isinstance(name, str) or not name:
            raise ProblemError(f"item names must be non-empty strings, not {name!r}")
        if ":" in name:
            raise ProblemError(f"item name {name!r} contains ':' (used for colours)")
        if name in self._index:
            raise ProblemError(f"item {name!r} is declared twice")

    def add_primary(self, name: str, lo: int = 1, hi: int = 1) -> None:
        """Declare a primary item, to be covered at least ``lo`` and at most ``hi`` times."""
        self._check_new_name(name)
        try:
            lo, hi = whole("lo", lo, minimum=None), whole("hi", hi, minimum=None)
        except TypeError:
            raise ProblemError(f"bounds of item {name!r} must be integers") from None
        if lo < 0 or hi <= 0 or lo > hi:
            raise ProblemError(
                f"item {name!r}: bounds must satisfy 0 <= lo <= hi and hi >= 1, not {lo}:{hi}"
            )
        if hi >= MAX_BOUND:
            raise ProblemError(f"item {name!r}: upper bound {hi} is too large")
        self._index[name] = len(self._primary)
        self._primary.append(name)
        self._lo.append(lo)
        self._hi.append(hi)
        self._changed()

    def add_secondary(self, name: str) -> None:
        """Declare a secondary item: covered at most once, or by options of one colour."""
        self._check_new_name(name)
        self._index[name] = ~len(self._secondary)
        self._secondary.append(name)
        self._changed()

    def add_option(self, items, name: str | None = None, cost=0) -> int:
        """Add an option (a list of item names, ``"x:c"`` for a colour) with a cost (an
        integer >= 0, any size; DLX5's ``|n``); return its index."""
        try:
            cost = whole("cost", cost)
        except (TypeError, ValueError):
            self._option_error(name, f"cost must be an integer >= 0, not {cost!r}")
        if isinstance(items, str):
            self._option_error(name, f"give a list of item names, not the string {items!r}")
        index = self._index
        codes: list[int] = []
        colours: list[int] = []
        for entry in items:
            if type(entry) is str and ":" not in entry:  # the common case, kept fast
                item_name, colour = entry, None
            else:
                item_name, colour = _split_colour(entry)
            code = index.get(item_name)
            if code is None:
                self._option_error(name, f"unknown item {item_name!r}")
            if colour is None:
                colours.append(0)
            elif code >= 0:
                self._option_error(name, f"primary item {item_name!r} cannot have a colour")
            elif not isinstance(colour, str) or not colour:
                self._option_error(name, f"item {item_name!r} has an empty colour")
            else:
                colours.append(self._colour_id(colour))
            codes.append(code)
        if len(set(codes)) != len(codes):
            twice = next(c for c in codes if codes.count(c) > 1)
            self._option_error(name, f"item {self._code_name(twice)!r} appears twice")
        if not codes:
            self._option_error(name, "is empty")
        self._option_items.extend(codes)
        self._option_colours.extend(colours)
        self._option_start.append(len(self._option_items))
        self._option_names.append(name)
        self._option_costs.append(cost)
        self._changed()
        return len(self._option_names) - 1

    def _option_error(self, name: str | None, reason: str):
        """Raise a ProblemError about the option being added."""
        k = len(self._option_names)
        where = f"option {k}" + (f" ({name})" if name is not None else "")
        raise ProblemError(f"{where} {reason}" if reason == "is empty" else f"{where}: {reason}")

    def add_loop_edge(self, name: str, u: int, v: int, on: str) -> None:
        """Make secondary item ``name`` the edge ``u``-``v`` of a graph, 'on' when an
        option gives it colour ``on``: every solution's on-edges must then form exactly
        one cycle (with at least one edge). Vertices are integers from 0.

        >>> p = Problem(primary=["go"], secondary=["ab", "bc", "ca"])
        >>> for u, v, e in ((0, 1, "ab"), (1, 2, "bc"), (2, 0, "ca")):
        ...     p.add_loop_edge(e, u, v, on="1")
        >>> _ = p.add_option(["go", "ab:1", "bc:1"])
        >>> _ = p.add_option(["go", "ab:1", "bc:1", "ca:1"])
        >>> from dlx import count
        >>> print(count(p))
        1
        """
        code = self._index.get(name)
        if code is None:
            raise ProblemError(f"loop edge {name!r}: unknown item")
        if code >= 0:
            raise ProblemError(f"loop edge {name!r}: a primary item cannot be a loop edge")
        if ~code in self._loop:
            raise ProblemError(f"loop edge {name!r} is declared twice")
        for w in (u, v):
            if isinstance(w, bool) or not isinstance(w, (int, np.integer)) or w < 0:
                raise ProblemError(f"loop edge {name!r}: vertex {w!r} is not an integer >= 0")
            if w >= MAX_BOUND:
                raise ProblemError(f"loop edge {name!r}: vertex {w} is too large")
        if u == v:
            raise ProblemError(f"loop edge {name!r}: both ends are vertex {u}")
        if not isinstance(on, str) or not on:
            raise ProblemError(f"loop edge {name!r}: the 'on' colour must be a non-empty string")
        self._loop[~code] = (int(u), int(v), self._colour_id(on))
        self._changed()

    @property
    def loop_edges(self) -> dict[str, tuple[int, int, str]]:
        """The loop items: name -> (u, v, 'on' colour)."""
        return {
            self._secondary[s]: (u, v, self._colours[c - 1]) for s, (u, v, c) in self._loop.items()
        }

    def loop_items(self) -> dict[int, tuple[int, int, int]]:
        """The loop items in the numbering of ``entries``: secondary item ``s`` (from 0,
        in the order of ``secondary``) -> (u, v, the 'on' colour's number as in
        ``Entries.colour``), in the order declared. Checks that every option gives its
        loop items a colour.

        >>> p = Problem(primary=["go"], secondary=["ab", "bc"])
        >>> p.add_loop_edge("bc", 1, 2, on="1")
        >>> _ = p.add_option(["go", "bc"])
        >>> p.loop_items()
        Traceback (most recent call last):
        ...
        dlx.errors.ProblemError: option 0: loop edge 'bc' needs a colour
        """
        if not self._loop:
            return {}
        for k in range(self.n_options):
            for j in range(self._option_start[k], self._option_start[k + 1]):
                code = self._option_items[j]
                if code < 0 and ~code in self._loop and self._option_colours[j] == 0:
                    raise ProblemError(
                        f"option {k}: loop edge {self._secondary[~code]!r} needs a colour"
                    )
        return dict(self._loop)

    def add_options(self, options) -> None:
        """Add many options: each a list of item names, or a (name, items) pair."""
        for option in options:
            if isinstance(option, tuple) and len(option) == 2 and isinstance(option[0], str):
                self.add_option(option[1], name=option[0])
            else:
                self.add_option(option)

    def _colour_id(self, colour: str) -> int:
        """The number of a colour name, from 1."""
        if colour not in self._colour_index:
            self._colours.append(colour)
            self._colour_index[colour] = len(self._colours)
        return self._colour_index[colour]

    @classmethod
    def from_matrix(cls, matrix, n_secondary: int = 0, item_names=None) -> Problem:
        """A problem from a 0/1 matrix: one row per option, one column per item.

        The last ``n_secondary`` columns are secondary items. Items are named
        ``"0", "1", ...`` unless ``item_names`` is given.

        >>> Problem.from_matrix([[1, 0], [0, 1], [1, 1]]).n_options
        3
        """
        m = np.asarray(matrix)
        if m.ndim != 2:
            raise ProblemError(f"the matrix must be two-dimensional, not of shape {m.shape}")
        if not np.isin(m, (0, 1)).all():
            raise ProblemError("the matrix must hold only 0 and 1")
        n_items = m.shape[1]
        if not 0 <= n_secondary <= n_items:
            raise ProblemError(f"n_secondary={n_secondary} is not between 0 and {n_items}")
        names = [str(j) for j in range(n_items)] if item_names is None else list(item_names)
        if len(names) != n_items:
            raise ProblemError(f"{len(names)} item names for {n_items} columns")
        n_primary = n_items - n_secondary
        problem = cls(primary=names[:n_primary], secondary=names[n_primary:])
        for r, row in enumerate(m):
            columns = np.flatnonzero(row)
            if columns.size == 0:
                raise ProblemError(f"row {r} of the matrix is empty")
            problem.add_option([names[j] for j in columns])
        return problem

    # -- reading --------------------------------------------------------------------

    @property
    def primary(self) -> list[str]:
        """The primary items, in order."""
        return list(self._primary)

    @property
    def secondary(self) -> list[str]:
        """The secondary items, in order."""
        return list(self._secondary)

    @property
    def n_options(self) -> int:
        """How many options."""
        return len(self._option_names)

    def item_kind(self, name: str) -> str | None:
        """``"primary"``, ``"secondary"``, or None for a name that is no item.

        >>> Problem(primary=["a"], secondary=["x"]).item_kind("x")
        'secondary'
        """
        code = self._index.get(name)
        if code is None:
            return None
        return "primary" if code >= 0 else "secondary"

    def bounds(self, name: str) -> tuple[int, int]:
        """(lo, hi) of a primary item."""
        code = self._index.get(name)
        if code is None or code < 0:
            raise ProblemError(f"no primary item {name!r}")
        return self._lo[code], self._hi[code]

    def first_multiplicity(self) -> tuple[str, int, int] | None:
        """The first primary item whose bounds are not 1:1, with its bounds (None: every
        primary item is covered exactly once)."""
        n = len(self._lo)
        if self._lo.count(1) == n and self._hi.count(1) == n:  # (the usual case, at C speed)
            return None
        for p, (lo, hi) in enumerate(zip(self._lo, self._hi, strict=True)):
            if (lo, hi) != (1, 1):
                return self._primary[p], lo, hi
        return None

    def _code_name(self, code: int) -> str:
        """The name of an item in the encoding of ``_index``."""
        return self._primary[code] if code >= 0 else self._secondary[~code]

    def _option_index(self, k) -> int:
        """``k`` as the index of an option (TypeError or IndexError naming it)."""
        k = whole("option index", k, minimum=None)
        if not 0 <= k < self.n_options:
            raise IndexError(f"no option {k}: the problem has {self.n_options}")
        return k

    def option(self, k: int) -> list[str]:
        """Option ``k`` as item names, ``"x:c"`` for coloured items."""
        k = self._option_index(k)
        out = []
        for j in range(self._option_start[k], self._option_start[k + 1]):
            name = self._code_name(self._option_items[j])
            colour = self._option_colours[j]
            out.append(name if colour == 0 else f"{name}:{self._colours[colour - 1]}")
        return out

    def option_name(self, k: int) -> str | None:
        """The name given to option ``k``, if any."""
        return self._option_names[self._option_index(k)]

    def option_cost(self, k: int) -> int:
        """The cost given to option ``k`` (0 when none was given)."""
        return self._option_costs[self._option_index(k)]

    @property
    def has_costs(self) -> bool:
        """Whether any option has a cost other than 0."""
        return any(self._option_costs)

    def option_entries(self, k: int) -> list[tuple[str, str | None]]:
        """Option ``k`` as (item name, colour or None) pairs."""
        return [_split_colour(entry) for entry in self.option(k)]

    def __repr__(self) -> str:
        return (
            f"Problem({len(self._primary)} primary, {len(self._secondary)} secondary items, "
            f"{self.n_options} options)"
        )

    # -- compiling ------------------------------------------------------------------

    def layout_of(self, build):
        """``build(self)``, built once while the problem stays as it is, then kept: how
        a kernel's layout module keeps its layout of the problem (``build`` is its
        function, the key). Forgotten when the problem changes; a copy made by
        ``with_propagation`` shares what was built before."""
        built = self._layouts.get(build)
        if built is None:
            with _COMPILE_LOCK:
                built = self._layouts.get(build)
                if built is None:
                    built = self._layouts[build] = build(self)
        return built

    def kept(self, build) -> bool:
        """Whether ``build(self)`` is kept (``layout_of``): asking for it costs nothing.

        >>> p = Problem(primary=["a"])
        >>> _ = p.add_option(["a"])
        >>> before = p.kept(Problem.entries)
        >>> _ = p.layout_of(Problem.entries)
        >>> before, p.kept(Problem.entries)
        (False, True)
        """
        return build in self._layouts

    def entries(self) -> Entries:
        """The options as compressed rows, in the kernels' item numbering (see ``Entries``)."""
        if not self._primary:
            raise ProblemError("the problem has no primary items")
        n_primary = len(self._primary)
        codes = np.asarray(self._option_items, dtype=np.int64)
        start = np.asarray(self._option_start, dtype=np.int64)
        return Entries(
            option=np.repeat(np.arange(self.n_options, dtype=np.int64), np.diff(start)),
            item=np.where(codes >= 0, codes + 1, n_primary + 1 + ~codes),
            colour=np.asarray(self._option_colours, dtype=np.int64),
            lo=np.asarray(self._lo, dtype=np.int64),
            hi=np.asarray(self._hi, dtype=np.int64),
            n_secondary=len(self._secondary),
        )

    def digest(self, forced=()) -> str:
        """A digest of what a search of this problem depends on: the bounds, the
        options' items and colours in order, the loop items, ``propagate`` and the
        ``forced`` options (not the names: a problem renamed has the same trees).
        32 hex digits; a checkpoint's header holds it.

        >>> p = Problem(primary=["a", "b"])
        >>> _ = p.add_option(["a", "b"])
        >>> len(p.digest()), p.digest() == p.digest(forced=[0])
        (32, False)
        """
        entries = self.layout_of(Problem.entries)
        h = hashlib.sha256(b"dlx problem")
        for a in (entries.lo, entries.hi, entries.option, entries.item, entries.colour):
            h.update(f"{a.shape}".encode())
            h.update(a.astype("<i8").tobytes())
        loops = sorted(self._loop.items())
        h.update(f"{self.n_options} {entries.n_secondary} {loops} {self.propagate}".encode())
        h.update(("forced " + ",".join(str(int(k)) for k in forced)).encode())
        return h.hexdigest()[:32]

    def check_forced(self, options, start=None) -> None:
        """Check sets of forced options: ProblemError for a set that cannot be forced.

        Set ``k`` is ``options[start[k]:start[k + 1]]`` (one set, all of ``options``,
        when ``start`` is None). Each option must exist and hold a primary item with
        bounds 1:1, through which every kernel forces it. Within a set, no primary item
        may be covered more than its upper bound, and a secondary item used twice must
        have the same colour both times. The checks are vectorised; sets without a
        repeated item (the usual case) cost no sort.

        >>> p = Problem(primary=["a", "b"])
        >>> for option in (["a"], ["a", "b"], ["b"]):
        ...     _ = p.add_option(option)
        >>> p.check_forced([0, 2])
        >>> p.check_forced([0, 1])
        Traceback (most recent call last):
        ...
        dlx.errors.ProblemError: forced options cover item 'a' more than once
        """
        options = np.asarray(options, dtype=np.int64).ravel()
        start = np.asarray([0, len(options)] if start is None else start, dtype=np.int64)
        n_sets = len(start) - 1
        if n_sets < 0 or start[0] != 0 or start[-1] != len(options) or np.any(np.diff(start) < 0):
            raise ProblemError("forced sets: start must rise from 0 to the number of options")
        bad = (options < 0) | (options >= self.n_options)
        if bad.any():
            raise ProblemError(f"forced option {int(options[bad][0])} does not exist")
        entries = self.layout_of(Problem.entries)
        forcible = self.layout_of(_forcible)[options]
        if not forcible.all():
            k = int(options[np.flatnonzero(~forcible)[0]])
            raise ProblemError(
                f"forced option {k} has no primary item with bounds 1:1 (cannot force it)"
            )
        # the entries of each forced option, and the (set, item) pair of each
        entry_start = self.layout_of(_entry_start)
        length = np.diff(entry_start)[options]
        entry_set = np.repeat(np.repeat(np.arange(n_sets), np.diff(start)), length)
        entry_option = np.repeat(options, length)
        offsets = np.arange(length.sum()) - np.repeat(np.cumsum(length) - length, length)
        entry = entry_start[entry_option] + offsets
        stride = len(entries.lo) + entries.n_secondary + 1
        key = entry_set * stride + entries.item[entry]  # at most once unless bounds
        if _repeated_keys(key, max(n_sets, 1) * stride):
            self._check_repeated_items(key, entry_option, entries.colour[entry], stride)

    def _check_repeated_items(self, key, entry_option, colour, stride: int) -> None:
        """Raise ProblemError for an item that forced options of one set repeat beyond
        its bounds (primary) or with different colours (secondary); ``key``: set times
        ``stride`` plus the item's number, one an entry."""
        item_id = key % stride
        n_primary = len(self._primary)
        names = self._primary + self._secondary
        order = np.argsort(key, kind="stable")
        groups, group_start, group_count = np.unique(
            key[order], return_index=True, return_counts=True
        )
        for g in np.flatnonzero(group_count > 1):
            j = order[group_start[g]]
            name = names[item_id[j] - 1]
            members = order[group_start[g] : group_start[g] + group_count[g]]
            if item_id[j] <= n_primary:  # compare its count with the upper bound
                bound = self._hi[item_id[j] - 1]
                if group_count[g] > bound:
                    times = "once" if bound == 1 else f"{bound} times"
                    raise ProblemError(f"forced options cover item {name!r} more than {times}")
            elif colour[members].min() <= 0 or colour[members].max() != colour[members].min():
                a, b = (int(entry_option[m]) for m in members[:2])
                raise ProblemError(f"forced options {a} and {b} clash on secondary item {name!r}")

    def _changed(self) -> None:
        """Forget what was compiled from the problem as it was."""
        self._layouts = {}


def _forcible(problem: Problem) -> np.ndarray:
    """Whether each option holds a primary item with bounds 1:1 (kept by ``layout_of``)."""
    entries = problem.entries()
    n_primary = len(entries.lo)
    index = np.where(entries.item <= n_primary, entries.item - 1, 0)
    one = (entries.item <= n_primary) & (entries.lo[index] == 1) & (entries.hi[index] == 1)
    return np.bincount(entries.option[one], minlength=problem.n_options) > 0


def _entry_start(problem: Problem) -> np.ndarray:
    """Where each option's entries start in ``Problem.entries`` (kept by ``layout_of``)."""
    counts = np.bincount(problem.layout_of(Problem.entries).option, minlength=problem.n_options)
    return np.concatenate(([0], np.cumsum(counts))).astype(np.int64)


def _repeated_keys(key: np.ndarray, n_keys: int) -> bool:
    """Whether ``key`` (ints in ``0..n_keys-1``) holds a value twice."""
    if n_keys <= 8 * len(key) + (1 << 20):  # a mark per possible key: no sort
        mark = np.zeros(n_keys, dtype=bool)
        mark[key] = True
        return int(np.count_nonzero(mark)) < len(key)
    ordered = np.sort(key)
    return bool(np.any(ordered[1:] == ordered[:-1]))
