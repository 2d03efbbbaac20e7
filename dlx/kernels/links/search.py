"""The dancing-links kernel's search class.

``Search`` is the ``dlx.driver.driver.Driver`` of ``dlx/kernels/links/kernel.py``: each
search works on its own copy of the problem's arrays (``dlx.kernels.links.layout``);
``batch`` runs many small searches in one kernel call. The kernel (and numba) is
imported at the first search, not with this module. The results and the ways to
consume a search are the driver's (``dlx.driver.results``).
"""

from __future__ import annotations

import time

import numpy as np

from dlx import compiling
from dlx.driver.driver import Driver, tiny_problem
from dlx.driver.results import BatchResult, flat_sets
from dlx.driver.tables import array_bytes
from dlx.errors import ProblemError
from dlx.kernels.links import layout
from dlx.problem import Problem


class Memo:
    """A table of subtree counts for full counts of one problem (see "Memo" in
    ``dlx/kernels/links/kernel.py``); the searches of one problem's subproblems may share it.

    Only for problems without colours, multiplicities or loop items, whose residual
    problem is a function of the items covered: ``Memo.of(problem)`` is None otherwise.
    """

    def __init__(self, arrays, nbytes: int = layout.MEMO_BYTES, limbs: int = 1):
        self.arrays = arrays  # the problem's arrays as compiled: a memo fits no other
        self.nbytes = nbytes
        self.limbs = limbs  # 64-bit limbs per count (see "Counts of any size" in the kernel)
        slots, self.words = layout.memo_shape(arrays, nbytes, limbs)
        self.keys = np.zeros((slots, self.words), np.uint64)
        self.counts = np.zeros((slots, limbs + 1), np.uint64)  # a full-slot flag, the count

    @classmethod
    def of(cls, problem: Problem, nbytes: int = layout.MEMO_BYTES) -> Memo | None:
        """A fresh memo for ``problem``, or None where a memo would not be exact."""
        arrays = layout.arrays(problem)
        return cls(arrays, nbytes) if layout.memo_allowed(arrays) else None

    def wider(self) -> Memo:
        """A fresh, empty memo of the same problem with twice the limbs per count."""
        return Memo(self.arrays, self.nbytes, 2 * self.limbs)

    @property
    def table_bytes(self) -> int:
        """The table's size in bytes (keys and counts)."""
        return self.keys.nbytes + self.counts.nbytes

    @property
    def max_bytes(self) -> int:
        """What the table may grow to: it never grows (a wider one keeps ``nbytes``)."""
        return self.table_bytes

    def limit(self, nbytes: int) -> None:
        """Grow to no more than ``nbytes``: this table never grows."""


_NO_MEMO = (np.zeros((0, 1), np.uint64), np.zeros((0, 2), np.uint64))
NO_LIMIT = 1 << 62  # max_solutions of a kernel call without a solution limit


class Search(Driver):
    """One search of a problem by the dancing-links kernel, resumable; ``solutions``
    and ``count`` are built on it (parameters: see ``dlx.driver.driver.Driver``; ``memo``: a
    ``Memo`` of this problem)."""

    kind = "search"
    kernel_module = "dlx.kernels.links.kernel"
    prefix_dtype = np.int32

    # -- the hooks of ``Driver`` ----------------------------------------------------------

    def _prepare(self, forced: list[int]) -> None:
        """The problem's arrays, and one node of each forced option."""
        self._arrays = layout.arrays(self.problem)
        self.forced = forced_nodes(self.problem, forced, [0, len(forced)])

    def _memo_fits(self, memo) -> bool:
        return memo.arrays is self._arrays

    def _new_state(self, limbs: int) -> None:
        """The arrays of a search from the start (counting with the memo's limbs)."""
        arrays = self._arrays
        words = 1
        if self.memo is not None:
            while self.memo.limbs < limbs:  # a count outgrew the memo's: a wider one
                self.memo = self.memo.wider()
            words, limbs = self.memo.words, self.memo.limbs
        self.state = layout.new_state(
            arrays, arrays.max_level + self.n_fixed, words, limbs, self.problem.propagate
        )
        self.loop = layout.new_loop_state(arrays)
        # int64[3]: solutions, nodes and updates so far (a view of the kernel's)
        self.kernel_stats = self.state.progress[layout.SOLUTIONS : layout.UPDATES + 1]

    def _call(self, budget: int, stream: bool, max_solutions: int | None) -> int:
        memo = _NO_MEMO if self.memo is None else (self.memo.keys, self.memo.counts)
        limit = NO_LIMIT if max_solutions is None else max_solutions
        return self.kernel().search(
            self.state, self.loop, self.forced, self.prefix, *memo, self.split_depth,
            budget, limit, stream,
        )  # fmt: skip

    def _layout_bytes(self) -> int:
        return array_bytes(self._arrays)

    def _search_bytes(self, limbs: int) -> int:
        words = 1 if self.memo is None else self.memo.words
        max_level = self._arrays.max_level + self.n_fixed
        on = self.problem.propagate == "domination"
        return layout.state_bytes(self._arrays, max_level, words, limbs, on)

    def _state_bytes(self) -> int:
        loop = 0  # the loop's incidence list is the layout's, not copied
        if self.loop is not None:
            loop = array_bytes(self.loop) - self.loop.incident.nbytes
        return array_bytes(self.state) + loop

    def _branches(self) -> tuple[np.ndarray, np.ndarray]:
        data = self.state.level_data
        return data[:, layout.BRANCH_INDEX], data[:, layout.BRANCH_DEGREE]

    def _variant(self) -> tuple[bool, bool]:
        return self._arrays.loop_edge is not None, self.problem.propagate == "domination"

    @classmethod
    def warm_up_every(cls) -> None:
        """Compile (or load) every kind of this kernel: plain, with loop items, batches,
        each without and with item domination (``propagate="domination"``)."""
        for loop in (False, True):
            for dominating in (False, True):
                cls.warm_up((loop, dominating))
                _warm_up_batch(loop, dominating)

    @classmethod
    def warm_up(cls, variant: bool | tuple[bool, bool] = False) -> None:
        """Compile (or load) the kernel for ``variant``: loop items or not, or ``(loop,
        dominating)`` (item domination compiles a specialisation of its own)."""
        loop, dominating = variant if isinstance(variant, tuple) else (variant, False)
        if not dominating:
            super().warm_up(loop)
            return
        problem = tiny_problem(loop).with_propagation("domination")
        compiling.warm(
            f"{cls.kind} with domination", cls.kernel().search, loop, lambda: cls(problem).run()
        )

    @property
    def level(self) -> int:
        """The current depth of the search."""
        return int(self.state.progress[layout.LEVEL])

    @property
    def solutions(self) -> int:
        """The solutions so far, exact (those met one by one and those the memo added)."""
        return int(self.state.progress[layout.SOLUTIONS]) + layout.limbs_value(self.state.extra)

    @property
    def limbs(self) -> int:
        """The words of a count the memo adds."""
        return len(self.state.extra)

    def current_options(self) -> tuple[int, ...]:
        """The options chosen at levels 0..level-1 (null choices left out)."""
        nodes = self.state.level_data[: self.level, layout.CHOICE]
        options = self._arrays.option_of_node[nodes]
        return tuple(int(k) for k in options if k >= 0)

    def sanity(self) -> None:
        """Check every link and length of the search's arrays (Knuth's sanity(), in
        the kernel); raise AssertionError naming the fault. For tests, at any pause."""
        fault, where = self.kernel().sanity(self.state.node, self.state.item, self.state.second)
        if fault != 0:
            raise AssertionError(f"links broken: fault {fault} at item {where}")

    # -- what tests read ------------------------------------------------------------------

    @property
    def node(self) -> np.ndarray:
        """The search's node links (``dlx.kernels.links.layout``), as the kernel left them."""
        return self.state.node

    @property
    def item(self) -> np.ndarray:
        """The search's item links, as the kernel left them."""
        return self.state.item


def forced_nodes(problem: Problem, options, start) -> np.ndarray:
    """Check sets of forced options (``Problem.check_forced``); one node of each option,
    through which the kernel forces it."""
    problem.check_forced(options, start)
    return problem.layout_of(_anchors)[np.asarray(options, dtype=np.int64).ravel()]


def _anchors(problem: Problem) -> np.ndarray:
    """``dlx.kernels.links.layout.anchor_nodes`` of the problem's arrays, as int32 (kept
    by ``layout_of``)."""
    return layout.anchor_nodes(layout.arrays(problem)).astype(np.int32)


def _warm_up_batch(loop: bool, dominating: bool = False) -> None:
    """Make sure ``kernel.search_batch`` is compiled before a batch starts timing (its
    specialisation for loop items, for item domination)."""
    propagate = "domination" if dominating else None
    compiling.warm(
        "batch with domination" if dominating else "batch",
        Search.kernel().search_batch,
        loop,
        lambda: batch(tiny_problem(loop), [[]], propagate=propagate),
    )


compiling.register(Search.warm_up_every)


def batch(problem: Problem, forced_sets, limit: int = 2, *, start=None, depth=None, propagate=None):
    """Search ``problem`` once per set of forced options, all in one kernel call.

    Meant for many small searches on one problem (e.g. sudoku givens): the problem is
    laid out once and each search forces its own options. Counts stop at ``limit``.
    ``forced_sets`` is a list of option lists, or a flat array of options with
    ``start`` offsets (set ``k`` is ``forced_sets[start[k]:start[k+1]]``); ``depth``
    bounds the options a solution adds beyond the forced ones (default: the problem's
    level bound); ``propagate`` as for ``count``.

    >>> from dlx import Problem
    >>> p = Problem(primary=["a", "b"])
    >>> for option in (["a"], ["b"], ["a", "b"]):
    ...     _ = p.add_option(option)
    >>> result = batch(p, [[0], [2], []])
    >>> result.counts.tolist(), result.first
    ([1, 1, 2], [(0, 1), (2,), (0, 1)])
    """
    arrays = layout.arrays(problem)
    options, start = flat_sets(forced_sets, start)
    nodes = forced_nodes(problem, options, start)
    n_sets = len(start) - 1
    max_forced = int(np.diff(start).max()) if n_sets else 0
    depth = arrays.max_level if depth is None else max(int(depth), 1)
    counts = np.zeros(n_sets, dtype=np.int64)
    first_nodes = np.zeros((n_sets, depth + 1), dtype=np.int32)  # a last column to see overflow
    stats = np.zeros((n_sets, 3), dtype=np.int64)
    if propagate is not None:
        problem = problem.with_propagation(propagate)
    _warm_up_batch(arrays.loop_edge is not None, problem.propagate == "domination")
    state = layout.new_state(arrays, arrays.max_level + max_forced, 1, 1, problem.propagate)
    t0 = time.perf_counter()
    Search.kernel().search_batch(
        state,
        layout.new_loop_state(arrays),
        nodes,
        start,
        max(int(limit), 1),
        counts,
        first_nodes,
        stats,
    )
    seconds = time.perf_counter() - t0
    if np.any(first_nodes[:, -1] >= 0):
        raise ProblemError(f"depth {depth} is too small for a first solution")
    first_nodes = first_nodes[:, :-1]
    chosen = np.where(first_nodes >= 0, arrays.option_of_node[first_nodes], -1)
    nodes_searched, updates = stats[:, 1].copy(), stats[:, 2].copy()
    return BatchResult(counts, chosen, nodes_searched, updates, seconds, options, start)
