"""The command layer ``python -m puzzles`` and the adapters' common public shape.

Every command is run through ``main([...])`` with each shared flag; every solution it
prints in JSON is read back and checked by the adapter's own ``faults`` (written from
the rules alone); counts are checked against the solutions listed.
"""

import ast
import importlib
import json
import re
import signal
import subprocess
import sys
from dataclasses import FrozenInstanceError, fields, replace
from pathlib import Path

import pytest
from shared import watchdog

import dlx
from puzzles import cli, loop, pipes, slitherlink, sudoku, tectonic
from puzzles.cli import COMMANDS, main
from puzzles.command import Command, Input
from puzzles.common import PuzzleError

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"

SUDOKU = "1.3.3.1.2...4.2.\n" + "." * 16 + "\n"  # two one-line 4x4 puzzles
REGIONS = "1 1 2\n1 1 2\n3 3 3\n"
TECTONIC = {"puzzles": {k: {"problem": f"3 3\n{v}{REGIONS}"} for k, v in
            (("one", "2 - -\n- - -\n- - -\n"), ("two", "- - -\n" * 3))}}  # fmt: skip
SLITHER = json.loads((DATA / "slitherlink" / "sample_puzzles.json").read_text())["puzzles"]

MODULES = {
    "sudoku": sudoku,
    "tectonic": tectonic,
    "loop": loop,
    "pipes": pipes,
    "slitherlink": slitherlink,
}


def puzzle_file(name: str, tmp_path: Path) -> Path:
    """A small file of puzzles for each command (several puzzles where the format
    allows, one with more than one solution)."""
    if name == "loop":
        return DATA / "infinity_loop" / "infinity_loop_bearific2.txt"  # 12 solutions
    if name == "pipes":
        return DATA / "pipes" / "example.txt"  # 6 solutions
    path = tmp_path / f"{name}.txt"
    if name == "sudoku":
        path.write_text(SUDOKU)
    elif name == "tectonic":
        path.write_text(json.dumps(TECTONIC))
    else:  # two puzzlekit puzzles and an empty 2x2 grid with 13 loops
        entries = {k: SLITHER[k] for k in ("1_4x4", "2_4x4")}
        entries["empty"] = {"problem": "2 2\n- -\n- -\n"}
        path = tmp_path / "slitherlink.json"
        path.write_text(json.dumps({"puzzles": entries}))
    return path


def answer_from_json(name: str, puzzle, data):
    """What ``to_json`` gave, back in the form ``faults`` takes."""
    if name == "slitherlink":
        edges = {("h", r, c) for r, row in enumerate(data["horizontal"]) for c, v in enumerate(row)}
        edges = {e for e in edges if data["horizontal"][e[1]][e[2]]}
        edges |= {
            ("v", r, c) for r, row in enumerate(data["vertical"]) for c, v in enumerate(row) if v
        }
        return frozenset(edges)
    return data


def run(capsys, *argv) -> tuple[int, str, str]:
    """``main(argv)``: exit status, stdout, stderr."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def puzzles_of(name: str, path: Path) -> list:
    """The puzzles the command reads from ``path`` (plain puzzles, not loop's plans)."""
    return MODULES[name].parse_all(path.read_text(encoding="utf-8"))


@pytest.fixture(params=sorted(MODULES))
def command(request, tmp_path):
    """(name, module, file of puzzles)."""
    name = request.param
    return name, MODULES[name], puzzle_file(name, tmp_path)


def test_all_solutions_in_json_are_checked_and_counted(command, capsys):
    name, module, path = command
    status, out, _ = run(capsys, name, str(path), "--all", "--json", "--no-progress")
    assert status == 0
    entries = json.loads(out)["puzzles"]
    puzzles = puzzles_of(name, path)
    assert len(entries) == len(puzzles)
    for puzzle, entry in zip(puzzles, entries, strict=True):
        assert entry["complete"] is True and entry["nodes"] > 0
        solutions = entry["solutions"]
        assert solutions and len({json.dumps(s) for s in solutions}) == len(solutions)
        for data in solutions:
            assert module.faults(puzzle, answer_from_json(name, puzzle, data)) == []
        assert module.count(puzzle).solutions == len(solutions)
    status, out, _ = run(capsys, name, str(path), "--count", "--json", "--no-progress")
    counted = json.loads(out)["puzzles"]
    assert [e["count"] for e in counted] == [len(e["solutions"]) for e in entries]
    assert all(e["complete"] for e in counted)
    status, text, _ = run(capsys, name, str(path), "--count", "--no-progress")
    words = [line.rsplit(" ", 1)[-1] for line in text.splitlines()]
    assert words == [str(e["count"]) for e in counted]


def test_limit_and_at_least(command, capsys):
    name, _, path = command
    status, out, _ = run(capsys, name, str(path), "--all", "--limit", "2", "--json")
    entries = json.loads(out)["puzzles"]
    assert all(1 <= len(e["solutions"]) <= 2 for e in entries)
    assert any(len(e["solutions"]) == 2 and not e["complete"] for e in entries)
    status, out, _ = run(capsys, name, str(path), "--count", "--limit", "1")
    assert status == 0 and "at least 1" in out
    status, out, _ = run(capsys, name, str(path), "--limit", "2")
    assert status == 0 and out.strip()


def test_unique_answers_and_exit_status(command, capsys):
    name, _, path = command
    status, out, _ = run(capsys, name, str(path), "--unique", "--no-progress")
    lines = out.splitlines()
    assert len(lines) == len(puzzles_of(name, path))
    assert any(line.endswith("not unique") for line in lines)
    assert status == 1
    status, out, _ = run(capsys, name, str(path), "--unique", "--json")
    assert any(e["unique"] is False and e["count"] == 2 for e in json.loads(out)["puzzles"])


def test_out_svg_and_stats(command, capsys, tmp_path):
    name, _, path = command
    status, shown, _ = run(capsys, name, str(path), "--no-progress")
    assert status == 0 and shown.strip()
    out, picture = tmp_path / "answers.txt", tmp_path / "answers.svg"
    status, stdout, err = run(
        capsys, name, str(path), "--out", str(out), "--svg", str(picture), "--stats"
    )
    assert status == 0 and stdout == "" and out.read_text(encoding="utf-8") == shown
    assert "nodes" in err
    drawn = picture.read_text(encoding="utf-8")
    assert drawn.startswith("<svg") and drawn.rstrip().endswith("</svg>")
    several = len(puzzles_of(name, path)) > 1
    assert drawn.count("<svg") == (1 + len(puzzles_of(name, path)) if several else 1)
    status, _, _ = run(capsys, name, str(path), "--count", "--svg", str(picture))
    assert status == 0 and picture.read_text(encoding="utf-8").startswith("<svg")


def test_time_limit_workers_and_progress(command, capsys):
    name, _, path = command
    _, counted, _ = run(capsys, name, str(path), "--count")
    status, out, err = run(
        capsys, name, str(path), "--count", "--time-limit", "60", "--workers", "1", "--progress"
    )
    assert status == 0 and out == counted
    assert "%|" in err  # a bar: over the puzzles, or the search's own
    _, _, err = run(capsys, name, str(path), "--count", "--no-progress")
    assert "%|" not in err


@pytest.mark.parametrize("name", ["loop", "pipes"])
def test_workers_count_in_parallel(name, capsys, tmp_path):
    path = puzzle_file(name, tmp_path)
    _, serial, _ = run(capsys, name, str(path), "--count")
    status, parallel, _ = run(capsys, name, str(path), "--count", "--workers", "2")
    assert status == 0 and parallel == serial


def test_time_limit_stops_a_count_with_at_least(capsys, tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("......\n" * 6)  # 487,150,371 loops (OEIS A140517): no end in 0.3 s
    status, out, err = run(capsys, "slitherlink", str(path), "--count", "--time-limit", "0.3")
    assert status == 0 and out.startswith("at least ")
    assert "time limit" in err
    status, out, _ = run(
        capsys, "slitherlink", str(path), "--count", "--time-limit", "0.3", "--json"
    )
    (entry,) = json.loads(out)["puzzles"]
    assert entry["complete"] is False and entry["stopped_by"] == "time limit 0.3 s"
    assert entry["count"] > 0


def test_checkpoint_of_a_tiling_count(capsys, tmp_path):
    """A count stopped by its time limit goes on from its checkpoint to the exact count
    (9356 / 2339: the 6x10 pentomino tilings, as a run without a checkpoint says);
    another problem's checkpoint and a file of several puzzles are refused."""
    board = ["pentomino", "--board", "6x10", "--count", "--workers", "2", "--no-progress"]
    _, whole, _ = run(capsys, *board)
    ckpt = tmp_path / "c.ckpt"
    status, out, err = run(capsys, *board, "--checkpoint", str(ckpt), "--time-limit", "0.05")
    assert status == 0 and "at least" in out and ckpt.exists(), err
    status, out, _ = run(capsys, *board, "--checkpoint", str(ckpt))
    assert status == 0 and out == whole and "all solutions: 9356" in out
    status, out, _ = run(capsys, *board, "--checkpoint", str(ckpt), "--workers", "1")
    assert status == 0 and out == whole  # the tasks in this process, all done already
    other = ["pentomino", "--board", "5x12", "--count", "--checkpoint", str(ckpt)]
    status, _, err = run(capsys, *other)
    assert status == 2 and "belongs to a different problem" in err and "Traceback" not in err
    path = puzzle_file("sudoku", tmp_path)
    path.write_text(path.read_text() * 2)
    status, _, err = run(capsys, "sudoku", str(path), "--count", "--checkpoint", str(ckpt))
    assert status == 2 and "counts one puzzle" in err


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--limit", "0"], "--limit must be at least 1"),
        (["--limit", "-1"], "--limit must be at least 1"),
        (["--time-limit", "0"], "--time-limit must be more than 0"),
        (["--time-limit", "-2"], "--time-limit must be more than 0"),
        (["--workers", "-1"], "--workers must be at least 0"),
        (["--time-limit", "1", "--workers", "2"], "needs --count"),
        (["--checkpoint", "c.ckpt"], "--checkpoint goes with --count"),
    ],
)
def test_bad_flags_are_refused(flags, message, capsys, tmp_path):
    for name in MODULES:
        status, _, err = run(capsys, name, str(puzzle_file(name, tmp_path)), *flags)
        assert status == 2 and message in err, name


def test_output_never_overwrites_the_input(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(SUDOKU)
    for flag in ("--out", "--svg"):
        status, _, err = run(capsys, "sudoku", str(path), flag, str(path))
        assert status == 2 and "is the input file" in err
        assert path.read_text() == SUDOKU


def test_bad_input_names_the_file_and_line(capsys, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("1.3.3.1.2...4.2.\n11" + "." * 14 + "\n")
    status, out, err = run(capsys, "sudoku", str(path))
    assert status == 2 and out == ""
    assert err.startswith(f"error: {path}: line 2, row 1, column 2")
    status, _, err = run(capsys, "loop", str(tmp_path / "missing.txt"))
    assert status == 2 and "missing.txt" in err


def test_stdin(monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(SUDOKU))
    status, out, _ = run(capsys, "sudoku", "-", "--count")
    assert status == 0 and out.splitlines()[1] == "line 2: 288"


def test_top_level_help_and_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    for name in COMMANDS:
        assert name in text
    assert "--count" in text and "examples" in text
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.startswith("python -m puzzles ")
    assert main([]) == 2 and "COMMAND" in capsys.readouterr().out
    with pytest.raises(SystemExit) as info:
        main(["nonesuch"])
    assert info.value.code == 2 and "invalid choice: 'nonesuch'" in capsys.readouterr().err


def test_every_command_has_the_shared_flags(capsys):
    for name in COMMANDS:  # the tiling commands too
        with pytest.raises(SystemExit):
            main([name, "--help"])
        text = capsys.readouterr().out
        for flag in ("--count", "--unique", "--all", "--limit", "--json", "--out", "--svg"):
            assert flag in text, (name, flag)
        for flag in ("--time-limit", "--workers", "--checkpoint", "--progress", "--stats"):
            assert flag in text, (name, flag)


# -- the adapters' public shape ------------------------------------------------------


def corrupt(name: str, answer):
    """The answer with one thing broken."""
    if name in ("sudoku", "tectonic"):
        values = [row[:] for row in answer.values]
        values[0][0], values[0][1] = values[0][1], values[0][0]
        return values
    if name == "slitherlink":
        return frozenset(sorted(answer.edges)[1:])
    grid = answer.grid.copy()
    r, c = next(zip(*(grid > 0).nonzero(), strict=True))
    grid[r, c] = 15 - grid[r, c]
    return grid


@pytest.mark.parametrize("name", sorted(MODULES))
def test_solve_count_faults_render_svg(name, tmp_path):
    module = MODULES[name]
    text = puzzle_file(name, tmp_path).read_text(encoding="utf-8")
    puzzle = module.parse_all(text)[0]
    answer = module.solve(puzzle)
    assert module.faults(puzzle, answer) == []
    assert str(answer) == module.render(answer)
    picture = answer._repr_svg_()
    assert picture == module.svg(answer) and picture.startswith("<svg")
    json.dumps(answer.to_json())
    assert module.faults(puzzle, corrupt(name, answer))
    assert module.count(puzzle, limit=1).solutions == 1
    if len(module.parse_all(text)) == 1:
        assert module.solve(text) == answer
        assert module.count(text).solutions >= 1
    else:
        with pytest.raises(PuzzleError, match="use parse_all"):
            module.solve(text)


def test_sudoku_faults_name_the_place():
    puzzle = sudoku.parse("1...\n..1.\n.1..\n...1\n")
    answer = sudoku.solve(puzzle)
    values = [row[:] for row in answer.values]
    values[0][0], values[0][1] = values[0][1], values[0][0]
    found = sudoku.faults(puzzle, values)
    assert f"row 1, column 1: the given 1 became {values[0][0]}" in found
    assert any(f.startswith("column 1:") for f in found)
    assert sudoku.faults(puzzle, [[0] * 4] * 4)[0] == "row 1, column 1: 0 is not in 1..4"


def test_versions_agree(capsys):
    import dlx
    from dlx.cli import main as dlx_main

    assert dlx.__version__[0].isdigit()
    for entry in (dlx_main, main):
        with pytest.raises(SystemExit) as info:
            entry(["--version"])
        assert info.value.code == 0
        assert capsys.readouterr().out.split()[-1] == dlx.__version__


@pytest.mark.parametrize("name", sorted(MODULES))
def test_unknown_search_option_is_named(name, tmp_path):
    module = MODULES[name]
    puzzle = module.parse_all(puzzle_file(name, tmp_path).read_text(encoding="utf-8"))[0]
    with pytest.raises(
        TypeError, match=r"^count\(\) got an unexpected keyword argument 'timelimit'"
    ):
        module.count(puzzle, timelimit=3)
    with pytest.raises(TypeError, match=r"^solutions\(\) got an unexpected keyword argument 't"):
        list(module.solutions(puzzle, 1, timelimit=3))


def test_an_adapter_takes_one_parallel_and_the_loose_words_warn():
    """An adapter takes ``parallel=dlx.Parallel(...)`` and hands it to ``dlx`` as it is;
    its loose ``workers``, ``checkpoint`` and ``dask`` of earlier versions still work,
    with a DeprecationWarning naming the call to make, and reach ``dlx`` as one
    ``dlx.Parallel`` (never as dlx's deprecated loose keywords: the suite fails on
    those); 0 is every core, and only 0."""
    import dlx
    from puzzles import common
    from puzzles.polyform import tiling

    two = dlx.Parallel(workers=2, checkpoint="c.ckpt")
    assert common.dlx_search({"parallel": two, "time_limit": 3, "node_limit": None}) == {
        "parallel": two,
        "time_limit": 3,
    }
    with pytest.warns(DeprecationWarning, match=r"parallel=dlx.Parallel\(workers=...\)"):
        assert common.dlx_search({"workers": 1}) == {}
    with pytest.warns(DeprecationWarning, match=r"workers=, checkpoint= will go"):
        loose = common.dlx_search({"workers": 2, "checkpoint": "c.ckpt", "time_limit": 3})
    assert loose == {"time_limit": 3, "parallel": two}
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="inside parallel="):
        common.dlx_search({"workers": 2, "parallel": dlx.Parallel()})
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="workers must be"):
        common.dlx_search({"workers": None})
    puzzle = tiling.make_puzzle("3x20", "pentominoes")
    serial = tiling.count_tilings(puzzle)
    assert (serial.all, serial.distinct) == (8, 2)  # Knuth, Dancing Links: 2 tilings of 3x20
    on_two = tiling.count_tilings(puzzle, parallel=dlx.Parallel(workers=2))
    assert (on_two.all, on_two.distinct, on_two.complete) == (8, 2, True)
    with pytest.warns(DeprecationWarning, match=r"^count_tilings\(\): workers= will go"):
        assert tiling.count_tilings(puzzle, workers=2).distinct == 2


# -- an adapter written to the documented protocol alone -------------------------------


def protocol_adapter(monkeypatch):
    """A module ``fake`` registered as a command (its ``COMMAND``): a puzzle is a number
    n (from a FILE, or ``--size N`` without one), its solutions the ways to cover n
    items in a row by options of one or two neighbouring items (Fibonacci numbers); it
    counts by default."""
    import sys
    import types
    from dataclasses import dataclass

    import dlx
    from puzzles import cli, common
    from puzzles.command import Command, Input

    fake = types.ModuleType("fake")

    @dataclass(frozen=True)
    class Answer(common.Answer):
        puzzle: int
        pieces: tuple

        def to_json(self):
            return [list(p) for p in self.pieces]

    Answer.__module__ = "fake"
    fake.Answer = Answer

    def build(n):
        problem = dlx.Problem(primary=[str(k) for k in range(n)])
        for k in range(n):
            problem.add_option([str(k)])
            if k + 1 < n:
                problem.add_option([str(k), str(k + 1)])
        return problem

    def decode(n, solution):
        return Answer(n, tuple(sorted(tuple(int(i) for i in row) for row in solution.rows)))

    fake.parse_all = lambda text: [int(t) for t in text.split()]
    fake.solutions = lambda n, limit=None, **search: common.stream(
        build(n), lambda s: decode(n, s), limit, **search
    )
    fake.count = lambda n, limit=None, **search: dlx.count(
        build(n), limit=limit, **common.dlx_search(search)
    )
    fake.render = lambda a: " ".join("-".join(map(str, p)) for p in a.pieces)
    fake.svg = lambda a: common.svg_document(10 * a.puzzle, 10, [])
    fake.faults = lambda n, a: (
        [] if sorted(i for p in a.pieces for i in p) == list(range(n)) else ["x"]
    )
    fake.COMMAND = Command(
        name="fake",
        help="tile a strip with 1- and 2-pieces",
        read=lambda text, request: fake.parse_all(text) if text else [request.options.size],
        solutions=fake.solutions,
        count=fake.count,
        add_arguments=lambda parser: parser.add_argument("--size", type=int, default=4),
        input=Input.FILE_OR_FLAGS,
        count_by_default=True,
    )
    monkeypatch.setitem(sys.modules, "fake", fake)
    monkeypatch.setitem(cli.COMMANDS, "fake", cli.Listed("fake", fake.COMMAND.help))
    return fake


def test_an_adapter_written_to_the_protocol(monkeypatch, capsys, tmp_path):
    protocol_adapter(monkeypatch)
    assert run(capsys, "fake")[:2] == (0, "5\n")  # counts by default; F(5) tilings of 4
    assert run(capsys, "fake", "--size", "10")[1] == "89\n"
    status, out, _ = run(capsys, "fake", "--limit", "2")
    tilings = {"0 1 2 3", "0 1 2-3", "0 1-2 3", "0-1 2 3", "0-1 2-3"}  # the 5, by hand
    lines = out.splitlines()  # any 2 of them: each kernel streams in its own order
    assert status == 0 and len(set(lines)) == len(lines) == 2 and set(lines) <= tilings
    path = tmp_path / "strips.txt"
    path.write_text("1 2 3\n")
    status, out, _ = run(capsys, "fake", str(path), "--all", "--json", "--workers", "2")
    entries = json.loads(out)["puzzles"]
    assert [len(e["solutions"]) for e in entries] == [1, 2, 3]
    assert [e["label"] for e in entries] == ["puzzle 1", "puzzle 2", "puzzle 3"]
    assert run(capsys, "fake", str(path), "--unique")[:2] == (
        1,
        "puzzle 1: unique\npuzzle 2: not unique\npuzzle 3: not unique\n",
    )
    assert "tile a strip" in run_help(capsys)


OLD_HOOKS = ("FILE_REQUIRED", "FILE_OR_STDIN", "TAKES_FILE", "COUNT_BY_DEFAULT", "WORKERS")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_adapter_registers_a_command(name):
    """Each module of ``COMMANDS`` declares its command once, as a ``Command`` of that
    name (hooks and settings typed fields, none looked up by name in the module)."""
    module = importlib.import_module(COMMANDS[name].module)
    assert isinstance(module.COMMAND, Command) and module.COMMAND.name == name
    assert cli.command_of(name) is module.COMMAND
    assert callable(module.COMMAND.read) and module.COMMAND.help == COMMANDS[name].help
    assert not [hook for hook in OLD_HOOKS if hasattr(module, hook)]


def test_the_listing_imports_no_command():
    """``python -m puzzles --help`` lists each command's help from ``COMMANDS``, with
    none of their modules imported (``command_of`` checks that help is the command's)."""
    modules = [listed.module for listed in COMMANDS.values()]
    code = (
        "import contextlib, io, sys\n"
        "from puzzles.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
        f"print([m for m in {modules!r} if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.stdout == "[]\n", done.stderr


def test_a_help_unlike_the_listed_one_is_refused(monkeypatch):
    fake = protocol_adapter(monkeypatch)
    monkeypatch.setitem(cli.COMMANDS, "fake", cli.Listed("fake", "another help"))
    with pytest.raises(TypeError, match="help is not the one COMMANDS lists"):
        cli.command_of("fake")
    assert fake.COMMAND.help != "another help"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_request_is_frozen(name):
    """The parsed command line is one frozen ``Request`` (its own flags frozen too): a
    derived request is a new one (``dataclasses.replace``), the first unchanged."""
    command = cli.command_of(name)
    argv = {"polyform": ["--board", "4x4", "--pieces", "tetrominoes"]}.get(name, [])
    argv += ["puzzle.txt"] if command.input is Input.FILE else []
    request = cli.parse_request(command, [*argv, "--limit", "3"])
    assert request.limit == 3 and request.count is False and request.workers is None
    with pytest.raises(FrozenInstanceError):
        request.count = True
    own = [f.name for f in fields(request.options)]  # (tectonic has none)
    with pytest.raises(FrozenInstanceError):
        setattr(request.options, own[0] if own else "size", None)
    counted = replace(request, count=True)
    assert counted.count and not request.count and counted.options is request.options


def test_a_default_mode_derives_a_request(monkeypatch, capsys):
    """What the layer settles (a default count, a default of --workers) reaches the
    hooks as a new request; the one parsed is never written."""
    fake = protocol_adapter(monkeypatch)
    seen = []

    def count(n, limit=None, **search):
        seen.append(search)
        return fake.count(n, limit, **search)

    def read(text, request):
        seen.append(request)
        return [request.options.size]

    monkeypatch.setattr(fake, "COMMAND", replace(fake.COMMAND, read=read, count=count, workers=2))
    assert run(capsys, "fake", "--no-progress")[:2] == (0, "5\n")
    parsed, search = seen
    assert not parsed.count and parsed.workers is None  # as parsed
    assert search["parallel"] == dlx.Parallel(workers=2)  # the command's default, for a count


def test_adapters_only_translate():
    """No module of ``puzzles`` but the command layer prints, writes a file or touches
    standard output or error: what is said or written beside the answers, the layer
    says and writes from what the hooks return (``announce``, ``exports``, ``act``)."""
    writes = {"print", "open", "open_text"}
    done = []
    for path in sorted((ROOT / "puzzles").rglob("*.py")):
        if path in (ROOT / "puzzles" / "cli.py", ROOT / "puzzles" / "lines.py"):  # the layer
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = ast.unparse(node.func) if isinstance(node, ast.Call) else ""
            if name in writes or name.endswith(("write_text", "write_bytes", ".flush")):
                done.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
            elif name.endswith(".write") and name != "dlx.write":  # (dlx.write: a text)
                done.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
            elif isinstance(node, ast.Attribute) and node.attr in ("stdout", "stderr"):
                done.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert done == []


def test_the_layer_announces_and_exports(capsys, tmp_path):
    """A tiling's hooks say and write nothing: ``read`` gives the puzzle, ``announce``
    the line said before its problem is built, ``exports`` the ``--dlx`` file; the
    layer says the one (with a bar wanted) and writes the other."""
    path = tmp_path / "strip.dlx"
    argv = ["--board", "3x20", "--pieces", "pentominoes", "--dlx", str(path)]
    command = cli.command_of("polyform")
    request = cli.parse_request(command, [*argv, "--progress"])
    (tilings,) = command.read(None, request)
    said = command.announce(tilings)
    assert re.fullmatch(
        r"60 cells, 12 pieces \(12 copies\), \d+ placements; building the problem\.\.\.", said
    )
    (export,) = command.exports(tilings, request)
    assert capsys.readouterr() == ("", "") and not path.exists()
    assert export.path == str(path) and export.note.endswith(" options")
    status, out, err = run(capsys, "polyform", *argv, "--count", "--workers", "1", "--progress")
    assert status == 0 and "distinct solutions: 2" in out  # (Knuth, TAOCP 7.2.2.1)
    assert err.startswith(f"{said}\nwrote {path} ({export.note})\n")
    assert path.read_text(encoding="utf-8") == export.text
    assert dlx.count(dlx.read(path)).solutions == 2  # the distinct tilings
    assert run(capsys, "polyform", *argv, "--workers", "1", "--no-progress")[2].startswith(
        f"wrote {path} ({export.note})\n"
    )  # no bar wanted: nothing announced


def run_help(capsys) -> str:
    with pytest.raises(SystemExit):
        main(["--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_prints_one_line(signum):
    """Ctrl-C (or SIGTERM) after the first solutions: one line with what was found,
    exit status 130, no traceback (issue 19.5)."""
    command = [sys.executable, "-m", "puzzles", "pentomino", "--board", "8x8", "--extra", "O"]
    child = subprocess.Popen(
        [*command, "--all", "--no-progress"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    with watchdog(child):
        first = child.stdout.readline()  # the first solution has been found
        assert first.strip()
        child.send_signal(signum)
        out, err = child.stdout.read(), child.stderr.read()  # (not communicate: first read)
    assert child.wait(timeout=60) == 130, err
    assert "Traceback" not in err
    (line,) = [x for x in err.splitlines() if not x.startswith("dlx: compil")]  # (cold cache)
    listed = (first + out).count("\n\n") + 1  # pictures split by blank lines
    found = int(re.fullmatch(r"interrupted: at least (\d+) solutions?", line).group(1))
    assert 1 <= listed <= found


def test_interrupted_count_says_how_far():
    """Ctrl-C during a count (the main job, on every core): the count so far, exit 130,
    no traceback, no worker left behind."""
    command = [sys.executable, "-m", "puzzles", "pentomino", "--board", "8x8", "--extra", "O"]
    child = subprocess.Popen(
        [*command, "--progress"], cwd=ROOT, stderr=subprocess.PIPE, text=True, bufsize=0
    )
    seen, shown = "", None
    with watchdog(child):
        while shown is None:  # the first progress output with solutions counted
            seen += child.stderr.read(1) or pytest.fail(f"no progress shown: {seen!r}")
            shown = re.search(r"\b([1-9]\d*) solutions$", seen)
        child.send_signal(signal.SIGINT)
        err = child.stderr.read()
    assert child.wait(timeout=60) == 130, err
    assert "Traceback" not in err
    (said,) = [line for line in re.split(r"[\r\n]", err) if line.startswith("interrupted")]
    found = re.fullmatch(r"interrupted: at least (\d+) solutions?", said)
    assert found and int(found.group(1)) >= int(shown.group(1)), err
