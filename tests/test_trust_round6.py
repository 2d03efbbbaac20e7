"""Trust nothing, round 6: the certificates' checker, the tight kernel's frames, ``auto``
with multiplicities and the first moments of a command, under hostile inputs (each test
names the command a user would type)."""

from __future__ import annotations

import pytest

from dlx import certify

PROBLEM = "a b c d\na b\nc d\na c\nb d\na\nb\nc\nd\n"  # 7 exact covers
CERTIFICATE = b"""| split a
| part 1 count 2
2: (~8?0:1)
3: (~2?0:1)
4: (~7?3:2)
5: (~1?0:4)
6: (~0?0:5)
| part 3 count 2
2: (~8?0:1)
3: (~4?0:1)
4: (~6?3:2)
5: (~3?0:4)
6: (~0?0:5)
| part 5 count 3
2: (~7?0:1)
3: (~2?0:1)
4: (~8?3:2)
5: (~4?0:2)
6: (~6?5:4)
7: (~5?0:6)
8: (~0?0:7)
| count 7
"""


def refusal(cert: bytes) -> str:
    """The one line saying why ``cert`` is refused."""
    with pytest.raises(certify.Invalid) as caught:
        certify.check(PROBLEM, cert)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_the_certificate_of_these_tests_is_valid():
    # python -m dlx p.dlx --count --certificate p.cert wrote CERTIFICATE (7 solutions,
    # the naive solver's count of PROBLEM)
    assert certify.check(PROBLEM, CERTIFICATE) == 7


@pytest.mark.parametrize(
    "old, new",
    [
        (b"| count 7", b"| count " + b"9" * 5000),
        (b"| part 1 count 2", b"| part 1 count " + b"9" * 5000),
        (b"| part 1 count 2", b"| part " + b"1" * 5000 + b" count 2"),
    ],
)
def test_numbers_of_thousands_of_digits_are_refused_in_one_line(old, new):
    # python -m dlx.certify p.dlx CERT, a number of 5,000 digits: Python's int() refuses
    # over 4,300 digits, and the checker stopped with a ValueError's traceback.
    line = CERTIFICATE.split(b"\n").index(old) + 1
    assert refusal(CERTIFICATE.replace(old, new)).startswith(f"certificate line {line}: ")


@pytest.mark.parametrize("digit", ["\u0667", "\U0001d7d5", "\uff17"])  # 7: Arabic, bold, wide
def test_a_count_in_other_scripts_digits_is_refused(digit):
    # "| count ٧" was read as "| count 7" and the certificate declared valid: the
    # format's numbers are ASCII digits.
    cert = CERTIFICATE.replace(b"| count 7", f"| count {digit}".encode())
    assert refusal(cert).startswith("certificate line 22: not a line '| count N'")


# -- a Ctrl-C from the first instruction of ours ---------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["dlx", "PROBLEM", "--count"],
        ["dlx.certify", "PROBLEM", "CERTIFICATE"],
        ["puzzles", "rectangles", "4", "--count"],
    ],
)
def test_ctrl_c_before_the_commands_own_code_is_one_line_and_130(command, tmp_path):
    # python -m dlx p.dlx --count, Ctrl-C at once: while Python imported the package
    # (before __main__ set the handlers) a KeyboardInterrupt traceback, status 1; and
    # python -m dlx.certify had no handler at all. The process is signalled where it
    # waits (DLX_TEST_PAUSE_FILE), just after its package's first line.
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    (tmp_path / "p.dlx").write_text(PROBLEM)
    (tmp_path / "p.cert").write_bytes(CERTIFICATE)
    names = {"PROBLEM": str(tmp_path / "p.dlx"), "CERTIFICATE": str(tmp_path / "p.cert")}
    ready = tmp_path / "ready"
    child = subprocess.Popen(
        [sys.executable, "-m", *(names.get(word, word) for word in command)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={
            **os.environ,
            "DLX_TEST_PAUSE_FILE": str(ready),
            "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
        },
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        started = time.monotonic()
        while not ready.exists() and child.poll() is None and time.monotonic() < started + 60:
            time.sleep(0.01)
        assert ready.exists(), child.communicate()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert (child.returncode, out, err) == (130, "", "interrupted\n")


# -- the oracle and the kernels agree on what a solution is ----------------------------


def test_an_option_without_primary_items_is_in_no_solution():
    # a | x; options {a}, {x}: Knuth's DLX2 reads it with "Option ignored (no primary
    # items): x" and counts 1 solution, as every kernel here does; dlx.verify's checker
    # and naive solver (the tests' oracle) took {a}, {x} as a second solution.
    import dlx

    problem = dlx.parse("a | x\na\nx\n")
    assert dlx.count(problem) == 1
    assert dlx.naive_solutions(problem) == {frozenset({0})}
    assert not dlx.is_solution(problem, [0, 1])
    with pytest.raises(dlx.InvalidSolution, match="option 1 covers no primary item"):
        dlx.check(problem, [0, 1])
