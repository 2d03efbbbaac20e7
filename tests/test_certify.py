"""Certificates of counts: ``python -m dlx FILE --count --certificate CERT`` writes the
solution graph, ``python -m dlx.certify FILE CERT`` (no code of the package) checks
it; true certificates are accepted, tampered ones refused in one line naming the
fault."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import dlx
from dlx import certify
from dlx.cli import main as dlx_main
from dlx.solution_graph import certificate
from puzzles import rectangles
from tests.shared import examples
from tests.strategies import problems

COLOURED = "a b | x\na x:1\nb x:1\nb x:2\n"  # one solution: a x:1, b x:1


@pytest.fixture
def oblongs5(tmp_path):
    """The 5x5 oblongs problem (A360498(5) = 256 tilings) and its certificate."""
    problem_file, cert = tmp_path / "oblongs5.dlx", tmp_path / "oblongs5.cert"
    problem = rectangles.build(rectangles.make_puzzle(5, "oblongs"))
    problem_file.write_text(dlx.write(problem))
    assert certificate.write(dlx.read(problem_file), cert).count == 256
    return problem_file, cert


def refusal(problem_text: str, cert: bytes) -> str:
    """The one line saying why ``cert`` is refused."""
    with pytest.raises(certify.Invalid) as caught:
        certify.check(problem_text, cert)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_true_certificate_accepted(oblongs5, capsys):
    problem_file, cert = oblongs5
    assert certify.main([str(problem_file), str(cert)]) == 0
    assert capsys.readouterr().out.startswith("valid: 256 solutions (")


def test_command_line_writes_the_certificate(oblongs5, tmp_path, capsys):
    problem_file, _ = oblongs5
    cert = tmp_path / "cli.cert"
    assert dlx_main([str(problem_file), "--count", "--certificate", str(cert)]) == 0
    out, err = capsys.readouterr()
    assert out == "256\n" and f"certificate: {cert}" in err
    assert certify.check(problem_file.read_text(), cert.read_bytes()) == 256
    assert dlx_main([str(problem_file), "--certificate", str(cert)]) == 2
    assert capsys.readouterr().err == "error: --certificate needs --count\n"
    assert dlx_main([str(problem_file), "--count", "--certificate", str(problem_file)]) == 2
    assert "it would be overwritten" in capsys.readouterr().err


def test_count_changed(oblongs5):
    problem_file, cert = oblongs5
    data = cert.read_bytes().replace(b"| count 256", b"| count 257")
    message = refusal(problem_file.read_text(), data)
    assert message == "certificate: it claims 257 solutions, but has 256 paths"


def test_edge_changed(oblongs5):
    problem_file, cert = oblongs5
    text = problem_file.read_text()
    lines = cert.read_bytes().split(b"\n")
    first = next(k for k, line in enumerate(lines) if not line.startswith(b"|"))
    for k in range(first, first + 12):  # each edge, given another option
        x, rest = lines[k].split(b": (~")
        option, links = rest.split(b"?")
        for other in (1, int(option) + 1):
            if other == int(option):
                continue
            tampered = [*lines[:k], x + b": (~%d?" % other + links, *lines[k + 1 :]]
            message = refusal(text, b"\n".join(tampered))
            assert message.startswith("certificate line ") or "claims" in message


def test_missing_item(oblongs5):
    problem_file, cert = oblongs5
    lines = problem_file.read_text().splitlines()
    lines[0] = lines[0].replace(" | ", " extra | ", 1)  # a primary item no option covers
    message = refusal("\n".join(lines), cert.read_bytes())
    assert message.endswith("a path ends with item 'extra' uncovered")


def test_malformed_certificates(oblongs5):
    problem_file, cert = oblongs5
    text, data = problem_file.read_text(), cert.read_bytes()
    assert refusal(text, data.replace(b"| count 256\n", b"")).startswith(
        "certificate: no '| count N' line"
    )
    lines = data.split(b"\n")
    k = next(k for k, line in enumerate(lines) if line.startswith(b"2:"))
    assert refusal(text, b"\n".join(lines[:k] + [b"2: ~1"] + lines[k + 1 :])) == (
        f"certificate line {k + 1}: not a line 'x: (~v?lo:hi)'"
    )
    gone = b"\n".join(lines[:k] + lines[k + 1 :])  # the first edge removed
    assert "which is not defined" in refusal(text, gone)
    far = b"\n".join(lines[:k] + [b"2: (~9999?0:1)"] + lines[k + 1 :])
    assert "option 9999 is not an option of the problem" in refusal(text, far)


def test_colours():
    edges = b"| count 1\n2: (~2?0:1)\n3: (~1?0:2)\n4: (~0?0:3)\n"
    assert certify.check(COLOURED, edges) == 1
    other = edges.replace(b"(~2?0:1)", b"(~3?0:1)")
    assert refusal(COLOURED, other) == (
        "certificate line 2 (node 2): option 3 gives item 'x' another colour"
    )


def test_two_paths_one_solution_refused():
    # both orders of the options a and b: two paths, one solution
    problem = "a b\na\nb\n"
    cert = b"| count 2\n2: (~2?0:1)\n3: (~1?0:1)\n4: (~1?0:2)\n5: (~2?4:3)\n6: (~0?0:5)\n"
    assert refusal(problem, cert) == (
        "certificate line 5 (node 5): the node's options share no primary item"
    )


@settings(max_examples=examples(60), deadline=None)
@given(problems(bounds=False, colours=False))
def test_random_problems(problem):
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "cert")
        g = certificate.write(problem, path)
        with open(path, "rb") as f:
            data = f.read()
    want = len(dlx.naive_solutions(problem))
    assert g.count == want
    assert certify.check(dlx.write(problem), data) == want


def test_an_edge_in_two_nodes_refused():
    problem = "a b\na b\na\nb\n"
    good = b"| count 2\n2: (~3?0:1)\n3: (~2?0:2)\n4: (~1?3:1)\n5: (~0?0:4)\n"
    assert certify.check(problem, good) == 2
    shared = good.replace(b"2: (~3?0:1)", b"2: (~3?0:3)")  # into the root's second edge
    assert refusal(problem, shared) == "certificate line 2 (node 2): node 3 is in two nodes"
