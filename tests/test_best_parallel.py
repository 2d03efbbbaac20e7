"""``dlx.best`` in tasks (``parallel=dlx.Parallel(...)``, ``--best K --workers N``):
the same costs as on one core, checkpoints that resume, and checkpoints of the other
kind refused in one line."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import load
from strategies import costed_problems

import dlx
from dlx.cli import main
from dlx.parallel.best import BestJob, BestTask, _Kept, path_options, run_best_task
from dlx.parallel.split import split

COSTS = Path(__file__).resolve().parent.parent / "data" / "costs"


def cost_of(problem: dlx.Problem, solution) -> int:
    return sum(problem.option_cost(o) for o in solution)


def assert_same_costs(problem: dlx.Problem, result: dlx.Best, k: int) -> None:
    """``result`` proven, with the one-core costs, each solution checked."""
    assert result.proven and result.stopped_by is None
    assert result.costs == dlx.best(problem, k).costs
    assert len(set(result.solutions)) == len(result.solutions)
    for cost, solution in result:
        dlx.check(problem, solution)
        assert cost == cost_of(problem, solution)


@settings(max_examples=60, deadline=None)
@given(costed_problems(), st.integers(1, 8), st.sampled_from([{"tasks": 4}, {"split_depth": 1}]))
def test_random_costed_problems_cost_as_on_one_core(p, k, cut):
    """In this process (``workers=1``): every split, the same costs as one core."""
    assert_same_costs(p, dlx.best(p, k, parallel=dlx.Parallel(workers=1, **cut)), k)


@pytest.mark.parametrize(("name", "k"), [("queens8", 10), ("xcc6", 5), ("xcc7", 200)])
def test_files_on_two_workers_cost_as_on_one_core(name, k):
    p = dlx.read(COSTS / f"{name}.dlx")
    assert_same_costs(p, dlx.best(p, k, parallel=dlx.Parallel(workers=2, tasks=16)), k)


def test_a_task_with_a_cutoff_returns_only_cheaper_solutions():
    """A task's list: its solutions (those holding its path's options) under the
    cutoff, at most k, the cheapest, as the naive solver finds them."""
    p = dlx.read(COSTS / "xcc6.dlx")
    job = BestJob(p, 4)
    every = sorted((cost_of(p, s.options), s.options) for s in dlx.solutions(p))
    for task in split(p, split_depth=2, engine="dlx").tasks[:6]:
        chosen = set(path_options(p, task.path))
        own = [c for c, s in every if chosen.issubset(s)]
        for cutoff in (None, own[0] + 1 if own else None, 30):
            found = run_best_task(BestTask(task.index, task.path, task.weight, cutoff), job)
            under = [c for c in own if cutoff is None or c < cutoff][:4]
            assert list(found.costs) == under and found.complete
            for solution in found.solutions:
                assert chosen.issubset(solution)
                dlx.check(p, solution)


def test_the_kept_list_holds_the_k_cheapest():
    kept = _Kept(2)
    assert kept.cutoff() is None
    for cost, solution in ((5, (3,)), (2, (1,)), (7, (0,)), (2, (0, 4))):
        kept.add(cost, solution)
    assert kept.rows == [(2, (0, 4)), (2, (1,))] and kept.cutoff() == 2


def test_a_run_stopped_midway_resumes_from_its_checkpoint(tmp_path):
    """A node limit stops the first run (unproven, its finished tasks recorded); the
    second goes on from the file, keeps every line, and gives the one-core costs."""
    p = dlx.read(COSTS / "xcc7.dlx")
    path = tmp_path / "best.ckpt"
    settings = dlx.Parallel(workers=1, tasks=64, checkpoint=path)
    first = dlx.best(p, 20, node_limit=600, parallel=settings)  # of about 980
    assert not first.proven and first.stopped_by == "node limit 600"
    written = path.read_bytes()
    records = written.count(b"\n") - 1
    header = json.loads(written.split(b"\n")[0])
    assert header["kind"] == "best" and header["k"] == 20 and 0 < records < header["tasks"]
    second = dlx.best(p, 20, parallel=settings)
    assert_same_costs(p, second, 20)
    final = path.read_bytes()
    assert final.startswith(written)
    tasks = [json.loads(line)["task"] for line in final.split(b"\n")[1:-1]]
    assert sorted(tasks) == list(range(header["tasks"]))


def test_a_checkpoint_cut_inside_a_line_resumes(tmp_path):
    """A file cut in the middle of a record (a kill while writing): the half line is
    dropped, its task run again, the costs those of one core."""
    p = dlx.read(COSTS / "xcc6.dlx")
    path = tmp_path / "best.ckpt"
    settings = dlx.Parallel(workers=2, tasks=32, checkpoint=path)
    assert_same_costs(p, dlx.best(p, 5, parallel=settings), 5)
    lines = path.read_bytes().split(b"\n")
    half = len(lines) // 2
    path.write_bytes(b"\n".join(lines[:half]) + b"\n" + lines[half][:20])
    assert_same_costs(p, dlx.best(p, 5, parallel=settings), 5)
    tasks = [json.loads(line)["task"] for line in path.read_bytes().split(b"\n")[1:-1]]
    assert len(tasks) == len(set(tasks)) == json.loads(lines[0])["tasks"]


def test_a_count_checkpoint_is_refused_for_the_best_and_back(tmp_path, capsys):
    counted, best = tmp_path / "count.ckpt", tmp_path / "best.ckpt"
    p = dlx.read(COSTS / "xcc6.dlx")
    dlx.count(p, parallel=dlx.Parallel(workers=1, tasks=8, checkpoint=counted))
    dlx.best(p, 3, parallel=dlx.Parallel(workers=1, tasks=8, checkpoint=best))
    kept = counted.read_bytes(), best.read_bytes()
    with pytest.raises(dlx.CheckpointError, match="a checkpoint of a count, not of the k best"):
        dlx.best(p, 3, parallel=dlx.Parallel(workers=1, checkpoint=counted))
    with pytest.raises(dlx.CheckpointError, match="of the k best .*, not of a count"):
        dlx.count(p, parallel=dlx.Parallel(workers=1, checkpoint=best))
    with pytest.raises(dlx.CheckpointError, match="keeps the 3 best, not the 4 best"):
        dlx.best(p, 4, parallel=dlx.Parallel(workers=1, checkpoint=best))
    other = dlx.Problem(primary=p.primary, secondary=p.secondary)
    for o in range(p.n_options):
        other.add_option(p.option(o), cost=p.option_cost(o) + 1)
    with pytest.raises(dlx.CheckpointError, match="different problem"):
        dlx.best(other, 3, parallel=dlx.Parallel(workers=1, checkpoint=best))
    assert (counted.read_bytes(), best.read_bytes()) == kept
    assert main([str(COSTS / "xcc6.dlx"), "--best", "3", "--checkpoint", str(counted)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a checkpoint of a count, not of the k best" in err


def test_cli_best_on_two_workers_with_a_checkpoint(tmp_path, capsys):
    path = str(COSTS / "queens8.dlx")
    ckpt = str(tmp_path / "q.ckpt")
    assert main([path, "--best", "10", "--workers", "2", "--checkpoint", ckpt]) == 0
    out, err = capsys.readouterr()
    assert err.startswith(
        "The optimum costs are: $223 $226 $232 $247 $248 $249 $253 $271 $271 $271 (proven"
    )  # data/costs/EXPECTED.tsv: DLX5's
    assert out.count("| cost ") == 10
    assert main([path, "--best", "10", "--checkpoint", ckpt]) == 0  # all from the file
    assert capsys.readouterr() == (out, err)


def test_an_infeasible_problem_and_one_without_costs():
    p = dlx.Problem(primary=["a", "b"])
    p.add_option(["a"])
    assert dlx.best(p, 2, parallel=dlx.Parallel(workers=1)).costs == ()
    q = dlx.read(COSTS / "queens8.dlx")
    plain = dlx.Problem(primary=q.primary, secondary=q.secondary)
    for o in range(q.n_options):
        plain.add_option(q.option(o))
    result = dlx.best(plain, 3, parallel=dlx.Parallel(workers=1, tasks=8))
    assert result.costs == (0, 0, 0) and result.proven


@pytest.mark.slow
def test_a_stopped_run_says_where_its_checkpoint_is_and_resumes(tmp_path):
    """SIGTERM (as Ctrl-C) once a task is recorded: status 130, one line naming the
    checkpoint; the rerun from it gives the one-core costs."""
    base = load("pent6x10_all")
    p = dlx.Problem(primary=base.primary, secondary=base.secondary)
    for o in range(base.n_options):
        p.add_option(base.option(o), cost=o % 7)
    source, ckpt = tmp_path / "pent.dlx", tmp_path / "best.ckpt"
    source.write_text(dlx.write(p))
    command = [sys.executable, "-m", "dlx", str(source), "--best", "500", "--workers", "2"]
    command += ["--checkpoint", str(ckpt), "--no-progress"]
    root = COSTS.parent.parent
    process = subprocess.Popen(command, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while process.poll() is None and (not ckpt.exists() or ckpt.read_bytes().count(b"\n") < 2):
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    err = process.communicate(timeout=120)[1].decode()
    if process.returncode == 0:
        pytest.skip("the search ended before the stop")
    assert process.returncode == 130 and err == f"interrupted (checkpoint saved to {ckpt})\n"
    resumed = dlx.best(p, 500, parallel=dlx.Parallel(workers=2, checkpoint=ckpt))
    assert_same_costs(p, resumed, 500)
