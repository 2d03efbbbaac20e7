"""The command line ``python -m dlx``, through ``main([...])``."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import FrozenInstanceError, fields, replace
from pathlib import Path

import pytest

import dlx
from dlx import cli
from dlx.cli import main, parse_request
from dlx.verify import check

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "dlx"


def test_count(capsys):
    assert main(["--count", "--no-progress", str(DATA / "pent3x20_sym.dlx")]) == 0
    out, err = capsys.readouterr()
    assert out == "2\n"
    assert "2 solutions" in err and "nodes" in err


def test_a_default_count_that_ends_within_its_serial_start_starts_no_worker(monkeypatch, capsys):
    """``--count`` runs on every core by default, after a serial start of
    ``SMALL_COUNT_NODES`` nodes: a count that ends there starts no worker pool (2: data/dlx/
    EXPECTED.tsv); one that does not goes on in parallel (here: a start of 10 nodes, and
    a kernel named: ``auto``'s own probe would end this count, and then start no pool)."""
    from dlx.parallel import run as parallel_run

    def no_pool(*args, **kwargs):
        raise AssertionError("a worker pool started")

    monkeypatch.setattr(parallel_run, "run_count", no_pool)
    path = str(DATA / "pent3x20_sym.dlx")
    assert main(["--count", "--no-progress", path]) == 0
    assert capsys.readouterr().out == "2\n"
    assert dlx.count(dlx.read(path)).stats.nodes > 10
    monkeypatch.setattr(cli, "SMALL_COUNT_NODES", 10)
    monkeypatch.setattr(cli, "SMALL_COUNT_SECONDS", 0.0)  # (no estimate small enough)
    with pytest.raises(AssertionError, match="a worker pool started"):
        main(["--count", "--no-progress", "--engine", "tight", path])
    monkeypatch.setattr(cli, "SMALL_COUNT_NODES", 10**9)  # an explicit --workers: no start
    with pytest.raises(AssertionError, match="a worker pool started"):
        main(["--count", "--no-progress", "--workers", "2", "--engine", "tight", path])


def test_a_serial_start_that_estimates_small_goes_on_not_from_scratch(monkeypatch, capsys):
    """The default count's serial start (here 2,000 nodes) that estimates its count
    small goes on with the same search: one search made, not one for the start and
    another counting from scratch (scott_sym: 65, data/dlx/EXPECTED.tsv); no pool."""
    from dlx import engines
    from dlx.parallel import run as parallel_run

    def no_pool(*args, **kwargs):
        raise AssertionError("a worker pool started")

    made = []
    row = engines.ENGINES["tight"]

    class Spy(row.search):
        def __init__(self, *args, **kwargs):
            made.append(kwargs.get("node_limit"))
            super().__init__(*args, **kwargs)

    monkeypatch.setitem(engines.ENGINES, "tight", row._replace(search=Spy))
    monkeypatch.setattr(parallel_run, "run_count", no_pool)
    monkeypatch.setattr(cli, "SMALL_COUNT_NODES", 2000)
    monkeypatch.setattr(cli, "SMALL_COUNT_SECONDS", 1e9)  # (whatever the machine's load)
    path = str(DATA / "scott_sym.dlx")
    assert main(["--count", "--no-progress", "--engine", "tight", path]) == 0
    out, err = capsys.readouterr()
    assert out == "65\n"
    assert made == [2000]  # one search, made for the start
    assert dlx.count(dlx.read(path), engine="tight").stats.nodes > 2000  # (it went on)


def test_solutions_printed_as_options(capsys):
    path = DATA / "pent3x20_sym.dlx"
    assert main(["--no-progress", str(path)]) == 0
    out, _ = capsys.readouterr()
    blocks = out.strip("\n").split("\n\n")
    assert len(blocks) == 2
    problem = dlx.read(path)
    rows = {" ".join(problem.option(k)): k for k in range(problem.n_options)}
    for block in blocks:
        lines = block.splitlines()
        assert len(lines) == 12
        check(problem, [rows[line] for line in lines])


def test_limit_and_incomplete_summary(capsys):
    assert main(["--count", "--limit", "3", "--no-progress", str(DATA / "pent4x15_sym.dlx")]) == 0
    out, err = capsys.readouterr()
    assert out == "at least 3\n"  # a limited count is incomplete
    assert "incomplete: solution limit 3" in err


def test_stdin(monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("a b\na\nb\na b\n"))
    assert main(["--count", "--no-progress", "-"]) == 0
    assert capsys.readouterr().out == "2\n"


def test_bad_file_names_line(tmp_path, capsys):
    bad = tmp_path / "bad.dlx"
    bad.write_text("a b | x\na b\nb x:1 q\n")
    assert main(["--count", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.dlx: line 3: unknown item 'q'" in err


def test_missing_file(capsys):
    assert main(["--count", "/no/such/file.dlx"]) == 2
    assert "No such file" in capsys.readouterr().err


def test_help_names_what_each_value_is(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for flag in ("--limit N", "--node-limit N", "--time-limit S", "--workers N", "--tasks N"):
        assert flag in out  # the metavar the help text explains ("stop after N ...")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_time_limit_summary_names_the_limit_given(workers, capsys):
    path = str(DATA / "pent6x10_all.dlx")
    assert (
        main(["--count", "--no-progress", "--time-limit", "0.3", "--workers", workers, path]) == 0
    )
    out, err = capsys.readouterr()
    assert out.startswith("at least ")
    assert err.rstrip().endswith("(incomplete: time limit 0.3 s)"), err


def test_the_request_is_frozen():
    """The command line is parsed once into a frozen ``Request`` (every flag a field):
    what ``main`` settles later (the time left, the workers) is a new request
    (``dataclasses.replace``), the first unchanged."""
    request = parse_request(["--count", "--time-limit", "2", "problem.dlx"])
    assert request.count and request.file == "problem.dlx" and request.workers is None
    assert request.time_limit == request.asked_time_limit == 2
    with pytest.raises(FrozenInstanceError):
        request.workers = 1
    settled = replace(request, workers=1, time_limit=1.5)
    assert (settled.workers, settled.time_limit, settled.asked_time_limit) == (1, 1.5, 2)
    assert request.workers is None and request.time_limit == 2
    flags = vars(cli._parser().parse_args(["problem.dlx"]))
    assert set(flags) | {"asked_time_limit"} == {f.name for f in fields(request)}


def test_module_entry_point():
    out = subprocess.run(
        [sys.executable, "-m", "dlx", "--count", "--no-progress", str(DATA / "pent3x20_all.dlx")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout == "8\n"
