"""The search engines (kernels), by name: the one place that makes a ``Search``.

Every search of the package (a serial count or stream, the split into tasks, a
worker's task) is made by ``make_search``, and every memo by ``make_memo``, so a
kernel plugs in as one row of ``ENGINES``: its search class (a subclass of
``dlx.driver.driver.Driver``, whose docstring lists the hooks to fill in) and a memo factory
(``problem -> memo or None``; the memo is the kernel's own business, handed back to
its searches only).

A row may also say which problems its kernel refuses (``refuses``: problem -> reason or
None) and which problems look like its kind (``suits``: the kernel that leads the
race); ``auto`` uses them (see ``dlx.driver.choose``) and makes the kernel's search
where a row has no ``refuses``: its error is the reason.

Names: ``"dlx"`` (dancing links); ``"bitset"`` (``dlx/kernels/bitset/kernel.py``: fills
the first empty item, for tilings); ``"tight"`` (``dlx/kernels/tight/kernel.py``: branches on the
primary item with the fewest live options, kept by bit operations; no multiplicities);
``"mcc"`` (``dlx/kernels/mcc/kernel.py``: items of bounds ``lo:hi`` on bit sets of live
options, SSMCC's choice of item; ``auto``'s for every problem with multiplicities);
``"auto"`` (the default): the kernel that samples of the problem, counted by every
kernel that takes it, say is fastest on it (``dlx.driver.choose``).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from dlx.driver.choose import Probe, choose, first_slice
from dlx.driver.engine import Engine
from dlx.driver.lineup import Choice, Kernel, Lineup, line_up
from dlx.driver.tuning import SETTINGS
from dlx.errors import ProblemError
from dlx.kernels.bitset import layout as bitset_layout
from dlx.kernels.bitset.engine import ENGINE as BITSET
from dlx.kernels.bitset.layout import flat_tiling  # auto's rule, the bitset row's too
from dlx.kernels.links.engine import ENGINE as LINKS
from dlx.kernels.mcc.engine import ENGINE as MCC
from dlx.kernels.sudoku import partial as partial_sudoku
from dlx.kernels.sudoku.engine import ENGINE as SUDOKU
from dlx.kernels.tight.engine import ENGINE as TIGHT
from dlx.problem import Problem


def _tight_word(problem: Problem) -> tuple:
    """The tight kernel's own word against ``problem`` (``(None,)``: none), kept by
    ``Problem.layout_of``: the line-up asks it for several rows."""
    return (TIGHT.refuses(problem),)


def _bitset_word(problem: Problem) -> tuple:
    """The bitset kernel's own word against ``problem``, kept (as ``_tight_word``)."""
    return (BITSET.refuses(problem),)


def _mcc_word(problem: Problem) -> tuple:
    """The mcc kernel's own word against ``problem``, kept (as ``_tight_word``)."""
    return (MCC.refuses(problem),)


def _flat_word(problem: Problem) -> tuple:
    """Whether ``problem`` looks like a flat tiling (``flat_tiling``), kept."""
    return (flat_tiling(problem),)


def _said(word, problem: Problem):
    """What ``word`` (one of the ``_*_word`` functions) says of ``problem``, asked once
    while the problem stays as it is: a line-up of a fresh problem asks each kernel's
    own rule once, not once for every row that depends on it."""
    return problem.layout_of(word)[0]


def _tight_refuses(problem: Problem) -> str | None:
    """What the tight kernel says against ``problem`` (its own word, kept)."""
    return _said(_tight_word, problem)


def _mcc_refuses(problem: Problem) -> str | None:
    """What the mcc kernel says against ``problem`` (its own word, kept)."""
    return _said(_mcc_word, problem)


def _tight_suits(problem: Problem) -> bool:
    """The tight kernel leads every problem it takes: it needs no layout to start (the
    bitset kernel's is built only when the race is set up, paid for by the probe), and
    it was the faster on every flat tiling of Knuth's suite under 0.1 s (the layout
    alone is 10 to 60 ms) and on most of the longer ones (``docs/performance.md``)."""
    return _said(_tight_word, problem) is None


def _bitset_suits(problem: Problem) -> bool:
    """The bitset kernel leads a flat tiling that the tight kernel does not take (pieces
    used more than once: multiplicities); the samples then race it with mcc (see
    ``dlx.driver.choose``: on Knuth's triamonds used twice on 4x8, mcc wins)."""
    return _said(_tight_word, problem) is not None and _said(_flat_word, problem)


def _bitset_refuses(problem: Problem) -> str | None:
    """What ``auto`` says against the bitset kernel: what the kernel says itself; and,
    where the tight kernel takes the problem, that it does not look like a flat tiling
    (``flat_tiling``): on every such problem of ``scripts/bench_kernels.py`` (polysticks,
    tetrahexes, queens, Latin squares) tight was 1.5 to 17 times faster, so that
    ``auto`` neither lays it out, samples nor compiles it there."""
    reason = _said(_bitset_word, problem)
    if reason is None and _said(_tight_word, problem) is None and not _said(_flat_word, problem):
        return "not a flat tiling (tight takes it)"
    return reason


def _links_refuses(problem: Problem) -> str | None:
    """What ``auto`` says against dancing links: nothing where no bit kernel (tight,
    bitset, mcc) takes the problem; else that one does (the tight kernel was the faster
    on every problem of ``scripts/bench_kernels.py`` that it takes, 3 to 10 times, and
    mcc on every problem with multiplicities: docs/performance.md), so that ``auto``
    neither samples nor compiles it there (``--engine dlx`` still runs it)."""
    if any(_said(word, problem) is None for word in (_tight_word, _bitset_word, _mcc_word)):
        return "a bit kernel takes it (dancing links only where none does)"
    return None


# one row a kernel, each declared in its own folder (``dlx/kernels/<name>/engine.py``)
ENGINES: dict[str, Engine] = {
    row.name: row
    for row in (
        LINKS._replace(refuses=_links_refuses),
        BITSET._replace(refuses=_bitset_refuses, suits=_bitset_suits),
        TIGHT._replace(refuses=_tight_refuses, suits=_tight_suits),
        MCC._replace(refuses=_mcc_refuses),
    )
}
# kernels with a batch call only (``dlx.batch``), each for the one problem it takes
BATCH_KERNELS: dict[str, Engine] = {SUDOKU.name: SUDOKU}
RESERVED: tuple[str, ...] = ()
DEFAULT = "auto"  # what ``engine=`` and ``--engine`` are when not given
CHOICES = (*ENGINES, "auto")  # what ``engine=`` and ``--engine`` take
RULES = "dlx"  # the one kernel that applies a propagation rule (``propagate=``)
HELP = (  # what ``--engine`` says, in every command that takes it
    "the kernel: auto (the default: the kernels that take the problem timed on samples "
    "of it, whatever is compiled, then the fastest runs), dlx (dancing links), bitset "
    "(fills the first empty item: for tilings), tight (branches on the item of fewest "
    "live options), mcc (multiplicities: items of bounds lo:hi, on bit sets); --stats says "
    "which ran and why"
)


def select(
    engine: str | None,
    problem: Problem,
    limit: int | None = None,
    memo: bool = False,
    kept: bool = True,
    whole: bool = False,
    long_probe: bool = True,
    **options,
) -> Choice:
    """The kernel that runs ``problem`` under the name ``engine`` and why; for ``auto``
    (``dlx.driver.choose``) also the winner's search when it ran as the count: made with
    ``options`` (keywords as for ``make_search``) and, for a count that takes a memo
    (``memo``), its memo from the start, run as a count to ``limit``, to be continued
    by such a count (None: the count makes its search afresh). ``kept=False``: the
    caller will not continue that search (a parallel count, a stream); ``whole``: it
    will still run a whole count in its own process (a parallel count with nothing but
    this machine's pool: a partial 9x9 sudoku's, ``_partial_sudoku``); ``long_probe=False``:
    the narrow-board rule's probe (``_tight_ends``: ``LONG_PROBE`` s of tight's count,
    which no limit of the count bounds where it will not be continued) is not run."""
    name = DEFAULT if engine is None else engine
    if name != "auto":
        return Choice(resolve(name, problem), f"engine={name!r}")
    if problem.propagate is not None:
        return Choice(RULES, "auto: the only kernel that applies rules")
    forced = tuple(options.get("forced", ()))
    sudoku = _partial_sudoku(problem, limit, kept or whole, options)
    if sudoku is not None:
        return sudoku

    def make(kernel: str, extra=None):
        row = ENGINES[kernel]
        if extra is None:  # the count's own search
            return row.search(problem, memo=row.memo(problem) if memo else None, **options)
        return row.search(problem, forced=(*forced, *extra))  # a sample: no memo

    # tight leads every problem it takes (``_tight_suits``): a count that goes on with
    # its probe probes before the line-up is asked, unless the bitset kernel's layout of
    # the problem is kept, and it has lost no race on it (``_bitset_leads``); else the
    # bitset kernel does not race it (``_tight_alone``)
    bitset_first = problem.kept(bitset_layout._build) and BITSET.name not in _outraced(problem)
    probe = None
    if kept and _said(_tight_word, problem) is None and not bitset_first:
        probe, ended = first_slice(TIGHT.name, make, limit)
        if ended is not None:
            return ended
    elif kept and _mcc_first(problem):  # a tiny count ends in its first slice, before
        # the bitset kernel's rule (a tenth of motley 4x4's count) is asked
        leads = partial(_not, _bitset_would_lead, problem)
        probe, ended = first_slice(MCC.name, make, limit, leads=leads)
        if ended is not None:
            return ended
    lineup = problem.layout_of(_lineup)
    narrow = memo and long_probe and not bitset_first  # a narrow tiling goes to bitset
    if narrow and _narrow(problem, lineup, probe):  # for the memo's sake
        ended = _tight_ends(probe, make, limit)
        if ended is not None:
            return ended
        width = _said(_front_word, problem)
        return Choice(
            BITSET.name,
            f"auto: a narrow flat tiling (its options span at most {width} cells) that "
            f"tight did not count in {LONG_PROBE} s: bitset, whose memo gains most there",
        )
    lineup = _bitset_leads(lineup) if bitset_first else _tight_alone(lineup)
    if whole and probe is None and len(lineup.takers) == 1:  # no race: the first slice of
        probe = Probe(lineup.takers[0].name, make(lineup.takers[0].name), limit)  # its count,
        probe.advance(SETTINGS.first_slice)  # which a tiny count ends here (no pool started)
    for kernel in lineup.takers[1:]:  # raced after the leader: compiled meanwhile
        ENGINES[kernel.name].search.compile_ahead()
    choice = choose(problem, lineup, make, limit, forced, kept, probe=probe)
    if lineup.takers and lineup.takers[0].name == BITSET.name and choice.name != BITSET.name:
        _outraced(problem).add(BITSET.name)
    return choice


def _partial_sudoku(problem: Problem, limit, kept: bool, options) -> Choice | None:
    """The sudoku kernel's whole count where ``problem`` is a partial 9x9 sudoku
    (``dlx.kernels.sudoku.partial``: Knuth's SUDOKU-DLX files), counted with no forced
    options, node or solution limit (else None): on ``sudoku_royle_less2`` it took 0.58
    of the tight kernel's CPU time (``docs/performance.md``, "A partial sudoku"), and
    in one process less wall time than tight on two ("The sudoku kernel for a parallel
    count")."""
    plain = not options.get("forced") and options.get("node_limit") is None
    if not kept or limit is not None or not plain or partial_sudoku.embed(problem) is None:
        return None
    search = partial_sudoku.PartialCount(problem, options.get("time_limit"))
    return Choice("sudoku", "auto: a partial 9x9 sudoku (the sudoku kernel's count)", search)


def counted_whole(engine: str | None, problem: Problem) -> bool:
    """Whether ``engine`` (``auto``) counts ``problem`` whole, in one call of a batch
    kernel (a partial 9x9 sudoku: ``_partial_sudoku``), given no node limit nor forced
    options: ``python -m dlx``'s default count then tries no serial start by nodes first
    (the sudoku kernel takes no node limit: tight counted 1,000,000 nodes of Knuth's
    ``sudoku_royle_less2``, then the sudoku kernel all of it)."""
    auto = (DEFAULT if engine is None else engine) == "auto" and problem.propagate is None
    return auto and partial_sudoku.embed(problem) is not None


def _mcc_first(problem: Problem) -> bool:
    """Whether the mcc kernel may probe before the line-up is asked (as tight does where
    it takes the problem): multiplicities (tight refuses them), both bit kernels in
    numba's cache (nothing to compile ahead), and the mcc kernel's own check passed.
    It leads (its ``suits``) unless the bitset kernel would (``_bitset_would_lead``),
    asked after mcc's first slice (``select``)."""
    return (
        problem.first_multiplicity() is not None
        and MCC.search.in_cache()
        and BITSET.search.in_cache()
        and _said(_mcc_word, problem) is None
    )


def _not(rule, problem: Problem) -> bool:
    """``not rule(problem)``."""
    return not rule(problem)


def _bitset_would_lead(problem: Problem) -> bool:
    """Whether the bitset kernel takes ``problem`` and it is a flat tiling (its row's
    ``suits``), asked cheaply first: with no primary item of bounds 1:1 neither holds
    (the kernel needs one in each option; a tiling's cells are such), then the rules
    (a few hundredths of a millisecond each, a tenth of a count of motley 4x4)."""
    entries = problem.layout_of(Problem.entries)
    if not np.any((entries.lo == 1) & (entries.hi == 1)):
        return False
    return bool(_said(_flat_word, problem)) and _said(_bitset_word, problem) is None


def _outraced(problem: Problem) -> set:
    """The kernels that led a race of ``problem`` and lost it, kept while the problem
    stays as it is (``Problem.layout_of``): a kernel led for a reason that may be wrong
    (``_bitset_leads``) is not led again with it."""
    return problem.layout_of(_no_kernels)


def _no_kernels(problem: Problem) -> set:
    """An empty set of kernel names (``_outraced``'s, for ``layout_of`` to keep)."""
    return set()


def _bitset_leads(lineup: Lineup) -> Lineup:
    """``lineup`` with the bitset kernel first where it takes the problem (its layout
    of the problem is kept): tight leads the flat tilings it takes because the bitset
    kernel's layout costs as much as a small count (10 to 60 ms), and the bitset kernel
    was the faster on the flat tilings of ``scripts/bench_kernels.py`` that are 2-D
    boards with symmetry broken, with its layout kept (6x10, the long hexagon of
    hexiamonds, one-sided pentominoes on 3x30: 0.22 to 0.8 of tight's time, its memo
    counted: the samples, which count without memos, do not see that); where it is not
    (8x8 + O, the solids), the race switches to tight after a share of the count, and
    it leads no more counts of the problem (``_outraced``; ``docs/performance.md``,
    "``auto`` against its best kernel")."""
    names = [k.name for k in lineup.takers]
    if BITSET.name not in names or names[0] == BITSET.name:
        return lineup
    return lineup.led_by(BITSET.name, "leads, its layout kept")


NARROW_FRONT = 24  # a flat tiling whose options span at most this many cells is narrow
LONG_PROBE = 1.0  # CPU seconds of tight's count after which a narrow one goes to bitset


def _front_word(problem: Problem) -> tuple:
    """The widest span of the options over the cells (``bitset_layout.front``), kept."""
    return (bitset_layout.front(problem),)


def _narrow(problem: Problem, lineup: Lineup, probe) -> bool:
    """Whether ``problem`` is a flat tiling that both bit kernels take and that is
    narrow: its options span at most ``NARROW_FRONT`` cells in the bitset kernel's
    order (``bitset_layout.front``). There the bitset kernel's memo, keyed on the front
    of open cells, meets the same states again and again, and it counted the one-sided
    pentominoes faster than tight on every subtree of 0.5 s or more that was tried
    (5x18, front 20: 3.6 times; 6x15, 24: 1.7 times; docs/performance.md, "Narrow
    boards"), though the race's samples (no memos) say the opposite; on 8x8 + O (32) and
    9x10 (36) tight is the faster. A count that tight ends within ``LONG_PROBE``
    seconds stays tight's: the memo gains little on small trees, the bitset layout costs
    as much (our 6x10, 3x30), and on Knuth's own 5x12 and 6x10 files (every placement,
    fronts 23 and 28) tight counted in 0.26 and 0.43 s, the bitset kernel 0.38 and 1.16."""
    names = [k.name for k in lineup.takers]
    if TIGHT.name not in names or BITSET.name not in names:
        return False
    if probe is not None and probe.name != TIGHT.name:
        return False
    return _said(_front_word, problem) <= NARROW_FRONT


def _tight_ends(probe: Probe | None, make, limit: int | None) -> Choice | None:
    """Tight's probe (``probe``, else its search as the count runs it) run on to
    ``LONG_PROBE`` seconds of CPU past its first step (that step pays for compiling and
    setting up, so a first run decides as a later one): the choice of tight, its search
    to continue, where the count ended meanwhile, else None."""
    probe = Probe(TIGHT.name, make(TIGHT.name), limit) if probe is None else probe
    while not probe.finished and probe.work() < LONG_PROBE:
        probe.advance(LONG_PROBE - probe.work())
    if not probe.finished:
        return None
    said = f"finished within its probe, {probe.cpu * 1e3:.1f} ms"
    return Choice(TIGHT.name, f"auto: tight leads a narrow flat tiling; {said}", probe.search)


def _tight_alone(lineup: Lineup) -> Lineup:
    """``lineup`` without the bitset kernel where the tight kernel takes the problem
    (and the bitset kernel's layout of it is not kept: ``_bitset_leads``): on every
    fresh flat tiling of ``scripts/bench_kernels.py`` and Knuth's suite that tight takes,
    the race ran tight (its samples 2 times tight's, or tight done within its probe),
    and racing the bitset kernel cost its layout (25 to 60 ms) and, on a first run, its
    compile on the second core (``docs/performance.md``, "First run")."""
    names = [k.name for k in lineup.takers]
    if TIGHT.name not in names or BITSET.name not in names:
        return lineup
    takers = tuple(k for k in lineup.takers if k.name != BITSET.name)
    why = "tight takes it (a fresh flat tiling: tight alone)"
    return Lineup(takers, lineup.suited, (*lineup.refused, (BITSET.name, why)), lineup.why)


def _lineup(problem: Problem) -> Lineup:
    """The kernels of the registry lined up for ``problem`` (``dlx.driver.lineup.line_up``),
    kept by ``Problem.layout_of`` while the problem stays as it is: a count of it asks
    no row again (a small count's race would pay as much for that as for its search).
    Picklable, as a problem sent to workers is."""
    kernels = [
        Kernel(name, row.refuses or partial(_made, row.search), row.suits)
        for name, row in ENGINES.items()
    ]
    return line_up(problem, kernels)


def _made(search: type, problem: Problem) -> str | None:
    """Why kernel ``search`` (a row's search class) cannot search ``problem``, by
    making its search: the error it raises (None: it can)."""
    try:
        search(problem)
    except (ProblemError, ValueError) as e:
        return str(e)
    return None


def resolve(engine: str | None, problem: Problem | None = None) -> str:
    """The engine that runs ``problem`` under the name ``engine`` (ValueError if none);
    ``auto`` races the kernels on ``problem`` (``select``), and is left as it is
    without one."""
    name = DEFAULT if engine is None else engine
    propagating = problem is not None and problem.propagate is not None
    if name == "auto":
        return name if problem is None else select(name, problem).name
    if name in ENGINES and name != RULES and propagating:
        raise ValueError(
            f"propagate={problem.propagate!r} is a rule of the dlx engine; "
            f"the {name} kernel does not apply it (use engine='dlx' or 'auto')"
        )
    if name in ENGINES:
        return name
    if name in RESERVED:
        raise ValueError(f"engine {name!r} is not available in this version (use 'dlx')")
    known = ", ".join(repr(k) for k in CHOICES)
    raise ValueError(f"unknown engine {name!r} (known: {known})")


def tree_version(engine: str) -> int:
    """The version of ``engine``'s search tree (its folder's ``TREE_VERSION``), which
    a checkpoint names (``dlx.parallel.checkpoint.Tree``)."""
    return ENGINES[engine].tree_version


def make_search(problem: Problem, engine: str | None = DEFAULT, **options):
    """A resumable search of ``problem`` by ``engine`` (keywords as for ``Search``)."""
    return ENGINES[resolve(engine, problem)].search(problem, **options)


def make_memo(problem: Problem, engine: str | None = DEFAULT):
    """A fresh memo of ``engine`` for full counts of ``problem``, or None where it has
    none that would be exact."""
    return ENGINES[resolve(engine, problem)].memo(problem)
