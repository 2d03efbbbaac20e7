"""Trust nothing, again: the user-facing surface that this round added or changed, under
hostile inputs (each test names the command a user would type)."""

from __future__ import annotations

import signal

import pytest

import dlx
from dlx.cli import main as dlx_main
from puzzles.cli import main as puzzles
from puzzles.polyform import sampling


def test_sample_hands_graph_what_building_left_with_the_timer_stopped(monkeypatch, capsys):
    # python -m puzzles pentomino --board 3x20 --sample 2 --time-limit 1000: the graph
    # gets a plain number of seconds (what building left), and the building timer
    # (SIGALRM) is stopped before the graph is built, as it is before any search.
    seen = {}
    real = dlx.graph

    def graph(problem, **keywords):
        seen["limit"] = keywords.get("time_limit")
        seen["timer"] = signal.getitimer(signal.ITIMER_REAL)[0]
        return real(problem, **keywords)

    monkeypatch.setattr(sampling.dlx, "graph", graph)
    flags = ["pentomino", "--board", "3x20", "--sample", "2", "--seed", "1"]
    assert puzzles([*flags, "--time-limit", "1000", "--no-progress"]) == 0
    capsys.readouterr()
    assert type(seen["limit"]) is float and 0 < seen["limit"] <= 1000
    assert seen["timer"] == 0


@pytest.mark.parametrize("where", ["a directory", "no directory"])
def test_certificate_that_cannot_be_written_is_refused_before_any_work(where, tmp_path, capsys):
    # python -m dlx FILE --count --certificate DIR (or MISSING/FILE): one line naming
    # the flag and the path, status 2, as --checkpoint and --write-preprocessed do.
    problem = tmp_path / "p.dlx"
    problem.write_text("a b\na\nb\n")
    out = tmp_path if where == "a directory" else tmp_path / "missing" / "cert.txt"
    assert dlx_main([str(problem), "--count", "--certificate", str(out)]) == 2
    err = capsys.readouterr()[1].strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: --certificate {out}: "), err
    assert where in err[0]


@pytest.mark.parametrize(
    "call",
    [
        lambda: dlx.preprocess("a b\na\n"),
        lambda: dlx.preprocess(None),
        lambda: dlx.write(3),
        lambda: dlx.write("a b\na\n"),
        lambda: dlx.read(3),  # an int is a file descriptor to open(): never read nor closed
        lambda: dlx.read(None),
        lambda: dlx.read_text(1.5),
    ],
)
def test_calls_given_no_problem_or_no_path_say_so(call):
    # dlx.preprocess("x"), dlx.write(3), dlx.read(3): a TypeError naming the call and
    # the type given, as dlx.count gives (not an AttributeError from deep inside, nor
    # a read of file descriptor 3).
    with pytest.raises(TypeError, match=r"\(\) takes a "):
        call()


@pytest.mark.parametrize("lock", [False, True])
def test_write_preprocessed_never_overwrites_the_checkpoint(lock, tmp_path, capsys):
    # python -m dlx FILE --count --write-preprocessed CP --checkpoint CP (or CP.lock):
    # refused in one line before anything is written; the user's checkpoint is kept.
    problem = tmp_path / "p.dlx"
    problem.write_text("a b\na\nb\n")
    checkpoint = tmp_path / "run.ckpt"
    checkpoint.write_text("the user's checkpoint\n")
    out = f"{checkpoint}.lock" if lock else str(checkpoint)
    flags = ["--count", "--write-preprocessed", out, "--checkpoint", str(checkpoint)]
    assert dlx_main([str(problem), *flags]) == 2
    err = capsys.readouterr()[1].strip().splitlines()
    assert len(err) == 1 and "are the same file" in err[0] and "--write-preprocessed" in err[0]
    assert checkpoint.read_text() == "the user's checkpoint\n"
    assert not (tmp_path / "run.ckpt.lock").exists()


@pytest.mark.parametrize(
    "more", [["p.dlx"], ["--count"], ["--sample", "-1"], ["--best", "3"], ["--nth", "2"]]
)
def test_compile_refuses_what_it_would_ignore(more, capsys, monkeypatch):
    # python -m dlx --compile FILE (or --compile --sample -1): one line naming what
    # --compile would ignore, status 2, nothing compiled (it compiled and exited 0).
    import dlx.cli

    monkeypatch.setattr(dlx.cli, "_compile_all", lambda: pytest.fail("compiled"))
    assert dlx_main(["--compile", *more]) == 2
    err = capsys.readouterr()[1].strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --compile ") and more[0] in err[0], err
