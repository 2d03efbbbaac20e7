"""Sudoku of any size, with boxes or jigsaw regions, as exact cover.

Glossary (n = the side, e.g. 9):
- primary items: ``p{r},{c}`` (cell r,c is filled), ``r{r}v{v}`` (row r holds v),
  ``c{c}v{v}`` (column c holds v), ``b{k}v{v}`` (box or jigsaw region k holds v):
  ``4 n^2`` items, cells first, in the order of ``cell_order`` (it saves a fifth of the
  nodes on hard puzzles).
- option ``(r, c, v)``: put v in cell r,c; it covers its cell, row, column and box
  items. Option number ``(r n + c) n + v - 1``, so ``n^3`` options.
- a puzzle is the empty grid's problem with the givens' options *forced*; the empty
  grid is built once per shape and shared by every puzzle of that shape.

Boxes: a side n = a b with a the largest divisor of n up to sqrt(n) has boxes of a rows
and b columns (4: 2x2, 6: 2x3, 9: 3x3, 16: 4x4, 25: 5x5); other sides need regions.

The modules: ``sudoku_cover`` (the puzzle, its exact cover, an answer decoded, written,
drawn, checked), ``sudoku_batch`` (one-line puzzles kept as one array, many puzzles in
one kernel call) and this one (parse, solve, count, explain, grade, generate, and the
command); every public name of the first two is a name here too.

Known counts: the empty 4x4 grid has 288 solutions; every puzzle of the 17-clue list,
top95 and forum-hardest has exactly one; Serg's benchmark puzzles have 2 or more.

>>> print(solve("1...\\n..1.\\n.1..\\n...1\\n"), end="")
1324
2413
3142
4231
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

import dlx
from dlx import logic
from dlx.numbers import integer
from puzzles.command import Command, Input, Request
from puzzles.common import Answers, PuzzleError, as_puzzle, dlx_search, only, stream
from puzzles.numbergrid import (
    NumberGrid,
    line_array,
    parse_grids,
    parse_grids_array,
    render_grid,
    symbol,
)
from puzzles.sudoku_batch import (  # noqa: F401 (the batch search, public here too)
    BATCH_DOMINATION,
    BATCH_TIGHT_MIN,
    LinePuzzles,
    clashing,
    lines,
    prepare,
    solve_all,
    tally,
    threaded,
)
from puzzles.sudoku_cover import (  # noqa: F401 (the puzzle and its exact cover, public here too)
    MAX_SIDE,
    PROPAGATE,
    Answer,
    Sudoku,
    box_regions,
    box_shape,
    build,
    cell_order,
    decode,
    empty_problem,
    faults,
    forced,
    from_grid,
    option_of,
    render,
    svg,
)

EPILOG = """\
--explain prints the steps a person can follow, simplest rule first: naked single (a
cell has one candidate left), hidden single (a value has one place left in a row,
column or box), pointing (a value's places in a box lie in one line: the rest of the
line loses it), claiming (a value's places in a line lie in one box: the rest of the
box loses it); where no rule applies it guesses the cell or unit with the fewest
candidates (the solution's value, said to be a guess) and goes on. --hint prints only
the next step.

--difficulty (with --generate) grades by what --explain needs: easy: singles only;
medium: pointing or claiming as well, no guess; hard: one guess; fiendish: two
guesses or more (each generated puzzle's line says its rule and number of guesses)."""


def parse(text: str, diagonals: bool = False) -> Sudoku:
    """The one sudoku of a text (see ``parse_all``).

    >>> parse("1.3.\\n..1.\\n.1..\\n3..1\\n").side
    4
    """
    return only(parse_all(text, diagonals))


def parse_all(text: str, diagonals: bool = False) -> Sequence[Sudoku]:
    """Every sudoku of a text: one-line puzzles, one grid (+ regions), or puzzlekit JSON;
    ``diagonals``: sudoku X (both long diagonals hold 1..n too). Many one-line puzzles
    with boxes come as ``LinePuzzles`` (a sequence kept as one array), others as a list."""
    lines = line_array(text)
    if lines is not None and len(lines[0]) > 1:
        side = lines[0].shape[1]
        if side <= MAX_SIDE and box_shape(side) is not None:
            puzzles = LinePuzzles(*lines, diagonals)
            clash = np.flatnonzero(clashing(lines[0], side, diagonals))
            if len(clash):
                from_grid(puzzles[int(clash[0])].grid, diagonals)  # raises, naming the cell
            return puzzles
    grids, _ = parse_grids_array(text)
    return [from_grid(g, diagonals) for g in grids]


def solutions(
    sudoku: Sudoku, limit: int | None = None, *, parallel: dlx.Parallel | None = None, **search
) -> Answers:
    """The answers of one sudoku, streamed; ``search``: ``time_limit``, ``node_limit``,
    ``progress`` (as for ``dlx.solutions``); ``parallel``: a ``dlx.Parallel`` to search
    on several processes (default: this one)."""
    search = {**search, "parallel": parallel}
    return stream(build(sudoku), lambda s: decode(sudoku, s), limit, forced(sudoku), **search)


def solve(text_or_puzzle, **search) -> Answer | None:
    """The first answer of a sudoku (text or parsed), or None when it has none."""
    sudoku = as_puzzle(text_or_puzzle, parse)
    return next(iter(solutions(sudoku, 1, **search)), None)


def count(
    text_or_puzzle, limit: int | None = None, *, parallel: dlx.Parallel | None = None, **search
) -> dlx.Count:
    """The number of solutions of a sudoku (text or parsed), up to ``limit``; ``search``
    and ``parallel`` as for ``solutions``.

    >>> print(count("...." * 4))
    288
    """
    sudoku = as_puzzle(text_or_puzzle, parse)
    search = dlx_search({**search, "parallel": parallel})
    return dlx.count(build(sudoku), limit=limit, forced=forced(sudoku), **search)


# -- solving many ------------------------------------------------------------------


# -- explaining: the engine's logical steps in sudoku words ---------------------------

# The engine's rules (``dlx.logic``) in sudoku words: a single whose item is a cell is a
# naked single, one whose item is a row-, column-, box- (region-, diagonal-) digit is a
# hidden single there; item domination is pointing (all of a box's places for a digit lie
# in one line: the line's other places lose it) or claiming (all of a line's places lie
# in one box: the box's other places lose it).
RULE_WORDS = {"single": "singles", "domination": "pointing/claiming"}


@dataclass(frozen=True, slots=True)
class Grade:
    """How hard a sudoku is for a person: the hardest rule its reasoning needs
    (``"single"`` or ``"domination"``; singles are always tried first) and how many
    times it is stuck and must guess."""

    rule: str
    guesses: int

    @property
    def level(self) -> str:
        """easy (singles only), medium (pointing/claiming too), hard (1 guess),
        fiendish (2 guesses or more)."""
        if self.guesses:
            return "hard" if self.guesses == 1 else "fiendish"
        return "easy" if self.rule == "single" else "medium"

    def __str__(self) -> str:
        guesses = f"{self.guesses} guess" + ("es" if self.guesses != 1 else "")
        return f"{self.level}: {RULE_WORDS[self.rule]}, {guesses}"


def _place(n: int, k: int) -> tuple[int, int, int]:
    """(row, column, value) of option ``k``, all from 0 but the value."""
    cell, v = divmod(k, n)
    return cell // n, cell % n, v + 1


def _cell(r: int, c: int) -> str:
    """A cell's name: ``r3c5`` (from 1)."""
    return f"r{r + 1}c{c + 1}"


def _unit(sudoku: Sudoku, item: str) -> tuple[str, str]:
    """(kind, words) of an item: ("cell", "r3c5"), ("row", "row 3"), ("column", ...),
    ("box", "box 2" or "region 2"), ("diagonal", "the diagonal" or "the anti-diagonal")."""
    if item[0] == "p":
        r, c = item[1:].split(",")
        return "cell", _cell(int(r), int(c))
    k = int(item[1 : item.index("v")])
    if item[0] == "r":
        return "row", f"row {k + 1}"
    if item[0] == "c":
        return "column", f"column {k + 1}"
    if item[0] == "b":
        return "box", f"{'region' if sudoku.jigsaw else 'box'} {k + 1}"
    return "diagonal", "the anti-diagonal" if k else "the diagonal"


def _places(sudoku: Sudoku, options) -> str:
    """The cells of some options: ``r2c4, r2c7``."""
    return ", ".join(_cell(*_place(sudoku.side, k)[:2]) for k in options)


def _alternatives(sudoku: Sudoku, step: logic.Step) -> str:
    """What a stuck item may take: ``r1c2 is 3 or 8`` or ``5 in row 3 goes in r3c1 or
    r3c7``."""
    kind, words = _unit(sudoku, step.item)
    places = [_place(sudoku.side, k) for k in step.options]
    if kind == "cell":
        return f"{words} is " + " or ".join(str(v) for _, _, v in places)
    cells = " or ".join(_cell(r, c) for r, c, _ in places)
    return f"{places[0][2]} in {words} goes in {cells}"


def describe(sudoku: Sudoku, step: logic.Step) -> str:
    """One step of ``dlx.logic`` in sudoku words, e.g. ``r3c5 = 7 (hidden single in box
    2)`` or ``pointing: 4 in box 1 lies in row 2 -> removed 4 from r2c4, r2c7``."""
    n = sudoku.side
    if step.kind in ("single", "guess"):
        r, c, v = _place(n, step.option)
        kind, words = _unit(sudoku, step.item)
        if step.kind == "guess":
            why = f"a guess, no rule applies: {_alternatives(sudoku, step)}"
        else:
            why = "naked single" if kind == "cell" else f"hidden single in {words}"
        return f"{_cell(r, c)} = {v} ({why})"
    if step.kind == "domination":
        (kind, words), (other, other_words) = _unit(sudoku, step.item), _unit(sudoku, step.other)
        rule = "pointing" if kind == "box" else "claiming" if other == "box" else "locked"
        v = _place(n, step.removed[0])[2]
        return (
            f"{rule}: {v} in {words} lies in {other_words} -> removed {v} from "
            f"{_places(sudoku, step.removed)}"
        )
    if step.kind == "stuck":
        return f"no rule applies; guess where candidates are fewest: {_alternatives(sudoku, step)}"
    if step.kind == "dead":
        kind, words = _unit(sudoku, step.item)
        if kind == "cell":
            return f"contradiction: {words} has no candidate left"
        return f"contradiction: {step.item.rpartition('v')[2]} has no place left in {words}"
    return "solved"


def reasoning(sudoku: Sudoku) -> tuple[list[logic.Step], list[tuple[int, ...]]]:
    """The logical steps of a sudoku (``logic.explain``), guessing each time it is
    stuck the option of its first solution, and its solutions (up to 2, as options)."""
    problem, givens = build(sudoku), forced(sudoku)
    found = [s.options for s in dlx.solutions(problem, limit=2, forced=givens)]
    return list(logic.explain(problem, givens, found[0] if found else None)), found


def grade(sudoku: Sudoku) -> Grade:
    """The hardest rule and the guesses a sudoku with a solution needs (see Grade).

    >>> print(grade(parse("....3..21....4.3\\n")))
    easy: singles, 0 guesses
    """
    steps, found = reasoning(sudoku)
    if not found:
        raise PuzzleError(f"{sudoku.label}: no solution to grade")
    kinds = {step.kind for step in steps}
    return Grade(
        "domination" if "domination" in kinds else "single",
        sum(step.kind == "guess" for step in steps),
    )


def explanation(sudoku: Sudoku) -> str:
    """Every step of a sudoku, numbered, in sudoku words, then a summary and the solved
    grid (``--explain``); after a guess, the steps hold for the solution guessed."""
    return _explained(sudoku)[0]


def _explained(sudoku: Sudoku) -> tuple[str, bool]:
    """``explanation(sudoku)``, and whether the sudoku has a solution."""
    steps, found = reasoning(sudoku)
    lines = []
    if len(found) > 1:
        lines.append("note: more than one solution; the guesses follow the first found")
    number = 0
    for step in steps:
        if step.kind in ("single", "domination", "guess"):
            number += 1
            lines.append(f"{number}. {describe(sudoku, step)}")
        elif step.kind != "solved" and step is steps[-1]:  # stuck (and no solution), dead
            lines.append(describe(sudoku, step))
    last = steps[-1].kind
    if last == "solved":
        lines.append(_summary(sudoku, steps))
        lines.append(render(decode(sudoku, found[0])).rstrip("\n"))
    elif not found:
        lines.append("no solution (the engine's search found none)")
    return "".join(line + "\n" for line in lines), bool(found)


def _summary(sudoku: Sudoku, steps: list[logic.Step]) -> str:
    """``solved: 40 naked singles, 12 hidden singles, 2 pointing, 1 claiming, 1 guess``."""
    counts = dict.fromkeys(("naked singles", "hidden singles", "pointing", "claiming"), 0)
    counts["guesses"] = 0
    for step in steps:
        if step.kind == "single":
            name = "naked singles" if step.item[0] == "p" else "hidden singles"
        elif step.kind == "domination":
            name = describe(sudoku, step).split(":")[0]
        elif step.kind == "guess":
            name = "guesses"
        else:
            continue
        counts[name] = counts.get(name, 0) + 1
    return "solved: " + ", ".join(f"{k} {name}" for name, k in counts.items())


def hint(sudoku: Sudoku) -> str:
    """The next step only, in sudoku words (``--hint``): a rule's step, or where to
    guess when none applies; ``solved`` for a full grid."""
    step = logic.Logic(build(sudoku), forced(sudoku)).step()
    return describe(sudoku, step)


# -- generating --------------------------------------------------------------------

# Difficulty is what a person needs to solve the puzzle (``grade``): the hardest rule
# (singles, or pointing/claiming as well) and the number of guesses.
DIFFICULTY = {
    "easy": "singles only, no guess",
    "medium": "needs pointing or claiming, no guess",
    "hard": "needs one guess",
    "fiendish": "needs two guesses or more",
    "any": "any of these",
}


def random_solution(template: Sudoku, rng: random.Random) -> list[list[int]]:
    """A random full grid: the first solution of the empty grid with shuffled options."""
    base = build(template)
    order = list(range(base.n_options))
    rng.shuffle(order)
    problem = dlx.Problem(primary=base.primary)
    for k in order:
        problem.add_option(base.option(k), name=str(k))
    solution = dlx.first(problem)
    if solution is None:
        raise PuzzleError("this shape of sudoku has no solution at all")
    return decode(template, [int(name) for name in solution.names]).values


def generate_one(template: Sudoku, rng: random.Random) -> Sudoku:
    """A minimal puzzle with one solution: remove the givens of a random full grid, in
    random order, as long as the solution stays unique."""
    n = template.side
    values = random_solution(template, rng)
    cells = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(cells)
    problem = build(template)
    givens = {(r, c): option_of(n, r, c, values[r][c]) for r, c in cells}
    for cell in cells:
        option = givens.pop(cell)
        if dlx.count(problem, limit=2, forced=list(givens.values())).solutions != 1:
            givens[cell] = option
    for r, c in cells:
        if (r, c) not in givens:
            values[r][c] = 0
    grid = NumberGrid(values, template.grid.regions, template.grid.style, template.grid.row_line)
    return Sudoku(grid, n, template.region, template.jigsaw, template.diagonals)


def empty_sudoku(side: int, diagonals: bool = False) -> Sudoku:
    """The empty sudoku with boxes of this side (a template for ``generate``)."""
    if not 1 <= side <= MAX_SIDE or box_shape(side) is None:
        raise PuzzleError(f"a {side}x{side} sudoku has no box shape (try 4, 6, 9, 16 or 25)")
    return from_grid(parse_grids("\n".join("." * side for _ in range(side)))[0], diagonals)


def generate(
    how_many: int,
    seed: int,
    level: str = "any",
    template: Sudoku | None = None,
    max_tries: int = 100,
) -> list[Sudoku]:
    """``how_many`` minimal puzzles with one solution whose ``grade`` has the ``level``
    asked for (see DIFFICULTY); like ``template`` (default: 9x9 boxes).

    Reproducible: the same seed, level and template give the same puzzles.
    """
    return list(generated(how_many, seed, level, template, max_tries))


def generated(how_many, seed, level="any", template=None, max_tries=100) -> Iterator[Sudoku]:
    """The puzzles of ``generate``, each as soon as it is made (bad arguments are
    refused at once)."""
    if level not in DIFFICULTY:
        raise PuzzleError(f"no difficulty {level!r}: the levels are {', '.join(DIFFICULTY)}")
    return _making(how_many, random.Random(seed), level, template or empty_sudoku(9), max_tries)


def _making(how_many, rng, level, template, max_tries) -> Iterator[Sudoku]:
    """The puzzles of ``generated``, one by one."""
    made = tries = 0
    while made < how_many:
        tries += 1
        if tries > max_tries * how_many:
            raise PuzzleError(f"no {level} puzzle found in {tries - 1} tries")
        puzzle = generate_one(template, rng)
        if level == "any" or grade(puzzle).level == level:
            made += 1
            yield puzzle


# -- command line (see puzzles.cli) -------------------------------------------------


def add_arguments(parser) -> None:
    """The options of ``python -m puzzles sudoku`` beyond the shared ones."""
    parser.add_argument(
        "--diagonals", action="store_true", help="sudoku X: the diagonals hold 1..n too"
    )
    parser.add_argument("--generate", type=integer, metavar="N", help="generate N puzzles instead")
    parser.add_argument("--seed", type=integer, default=0, help="random seed for --generate")
    parser.add_argument(
        "--difficulty",
        choices=list(DIFFICULTY),
        default="any",
        help="for --generate: "
        + "; ".join(f"{level}: {words}" for level, words in DIFFICULTY.items() if level != "any"),
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="print each logical step (singles, pointing, claiming; guesses where stuck)",
    )
    parser.add_argument("--hint", action="store_true", help="print only the next logical step")
    parser.add_argument("--size", type=integer, default=9, help="side for --generate (4, 9, 16)")


def read(text: str, request: Request) -> Sequence[Sudoku]:
    """The puzzles of an input file, with the command's flags, ready to be solved in
    batches (``prepare``)."""
    puzzles = parse_all(text, request.options.diagonals)
    prepare(puzzles)
    return puzzles


def act(request: Request, text: str | None) -> str | Iterator[str] | tuple[str, int] | None:
    """``--generate``: the generated puzzles as text, streamed (one-line, or grids for jigsaw)
    like ``text`` (a template) if given; ``--explain``/``--hint``: each puzzle's steps
    and the exit status (1 when a puzzle has no solution); None to solve as usual."""
    own = request.options
    if own.explain or own.hint:
        return _explain_all(request, text)
    if own.generate is None:
        return None
    if own.generate < 0:
        raise PuzzleError("--generate must be at least 0")
    template = parse_all(text, own.diagonals)[0] if text is not None else None
    template = template or empty_sudoku(own.size, own.diagonals)
    return _generated_text(own, template)


def _generated_text(own, template: Sudoku) -> Iterator[str]:
    """``--generate``: each puzzle's text as soon as it is made (Ctrl-C keeps those);
    ``own``: the command's own flags."""
    for k, s in enumerate(generated(own.generate, own.seed, own.difficulty, template)):
        text = (
            render_grid(s.grid)
            if s.jigsaw
            else "".join(symbol(v) for row in s.grid.values for v in row)
        )
        yield f"# seed {own.seed} puzzle {k + 1}: {grade(s)}\n{text}\n"


def _explain_all(request: Request, text: str | None) -> tuple[str, int]:
    """``--explain`` or ``--hint`` for every puzzle of the file."""
    own = request.options
    flag = "--explain" if own.explain else "--hint"
    if own.explain and own.hint:
        raise PuzzleError("give --explain or --hint, not both")
    given = {
        "generate": own.generate,
        "count": request.count,
        "unique": request.unique,
        "all": request.all,
        "limit": request.limit,
        "json": request.json,
        "svg": request.svg,
    }
    for other, value in given.items():
        if value not in (None, False):
            raise PuzzleError(f"{flag} prints steps; it does not go with --{other}")
    if text is None:
        raise PuzzleError(f"{flag} needs a puzzle FILE")
    try:
        puzzles = parse_all(text, own.diagonals)
    except PuzzleError as e:
        raise PuzzleError(f"{'<stdin>' if request.file == '-' else request.file}: {e}") from None
    out = []
    status = 0
    for s in puzzles:
        if own.hint:
            out.append((f"{s.label}: " if len(puzzles) > 1 else "") + hint(s) + "\n")
            solvable = dlx.first(build(s), forced=forced(s)) is not None
        else:
            text, solvable = _explained(s)
            out.append((f"# {s.label}\n" if len(puzzles) > 1 else "") + text)
        if not solvable:
            status = 1  # as solving says of a puzzle with no solution
    return ("" if own.hint else "\n").join(out), status


COMMAND = Command(
    name="sudoku",
    help="solve, count or generate sudoku (any size, jigsaw, X)",
    read=read,
    solutions=solutions,
    count=count,
    add_arguments=add_arguments,
    act=act,
    tally=tally,
    lines=lines,
    threaded=threaded,
    epilog=EPILOG,
    input=Input.FILE_OR_STDIN,  # it generates puzzles without a FILE; else standard input
)
