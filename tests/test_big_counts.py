"""Counts of any size are exact: in the memo, the kernel's counters, parallel sums,
checkpoints and the command line's output (the kernel counts in 64-bit limbs and
starts again with twice as many when a count outgrows them)."""

from __future__ import annotations

import json

import pytest

import dlx
from dlx.cli import main
from dlx.driver import codes


def fibonacci(n: int) -> int:
    """F(n), F(1) = F(2) = 1, by plain iteration (independent of the engine)."""
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def strip(n: int) -> dlx.Problem:
    """Domino tilings of a 2 x n strip: F(n + 1) of them."""
    p = dlx.Problem(primary=[f"{r},{c}" for c in range(n) for r in range(2)])
    for c in range(n):
        p.add_option([f"0,{c}", f"1,{c}"])
        if c + 1 < n:
            for r in range(2):
                p.add_option([f"{r},{c}", f"{r},{c + 1}"])
    return p


def twins(n: int) -> dlx.Problem:
    """``n`` items, each with two identical options: 2**n solutions."""
    p = dlx.Problem(primary=[f"i{k}" for k in range(n)])
    for k in range(n):
        p.add_option([f"i{k}"])
        p.add_option([f"i{k}"])
    return p


def test_fibonacci_reference():
    assert [fibonacci(n) for n in range(1, 11)] == [1, 1, 2, 3, 5, 8, 13, 21, 34, 55]
    assert fibonacci(101) == 573147844013817084101  # issue 19's figure for 2 x 100


@pytest.mark.parametrize("n", [1, 2, 3, 10, 92, 93, 100, 300, 1000])
def test_domino_strips(n):
    result = dlx.count(strip(n))
    assert result.complete and result.solutions == fibonacci(n + 1)


def test_small_strips_against_the_stream():
    for n in range(1, 9):
        found = {frozenset(s.options) for s in dlx.solutions(strip(n))}
        for s in found:
            dlx.check(strip(n), s)
        assert len(found) == fibonacci(n + 1) == dlx.count(strip(n)).solutions


def test_strips_in_parallel():
    for n in (100, 400):
        result = dlx.count(strip(n), parallel=dlx.Parallel(workers=2))
        assert result.complete and result.solutions == fibonacci(n + 1)


def test_two_to_the_64():
    p = twins(64)
    assert dlx.count(p).solutions == 2**64
    assert dlx.count(p, parallel=dlx.Parallel(workers=2)).solutions == 2**64
    assert dlx.count(twins(200)).solutions == 2**200


def test_a_search_widens_its_counts_and_keeps_its_memo():
    p = twins(70)
    search = dlx.Search(p, memo=dlx.Memo.of(p))
    while search.run() != codes.DONE:
        search.sanity()
    assert search.solutions == 2**70 and search.memo.limbs == 2


def test_big_counts_through_a_checkpoint(tmp_path):
    path = tmp_path / "twins.ckpt"
    p = twins(80)
    first = dlx.count(p, parallel=dlx.Parallel(workers=2, checkpoint=path))
    assert first.complete and first.solutions == 2**80
    lines = path.read_text().splitlines()
    header, records = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert header["split_solutions"] + sum(r["solutions"] for r in records) == 2**80
    again = dlx.count(
        p, parallel=dlx.Parallel(workers=2, checkpoint=path)
    )  # every task from the file
    assert again.complete and again.solutions == 2**80 and again.resumed == again.tasks


def test_command_line_prints_the_exact_count(tmp_path, capsys):
    path = tmp_path / "strip.dlx"
    path.write_text(dlx.write(strip(200)))
    assert main([str(path), "--count", "--workers", "1", "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert int(captured.out) == fibonacci(201)
    assert str(fibonacci(201)) in captured.err  # the summary line
