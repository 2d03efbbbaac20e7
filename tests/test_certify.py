"""Certificates of counts: ``python -m dlx FILE --count --certificate CERT`` writes the
solution graphs part by part, ``python -m dlx.certify FILE CERT`` (no code of the
package) checks them; true certificates are accepted, tampered ones refused in one line
naming the certificate's line."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings

import dlx
from dlx import certify
from dlx.cli import main as dlx_main
from dlx.solution_graph import certificate
from puzzles import rectangles
from scripts.rectangle_terms import transposition
from tests.shared import examples
from tests.strategies import problems


@pytest.fixture
def oblongs5(tmp_path):
    """The 5x5 oblongs problem (A360498(5) = 256 tilings) and its certificate."""
    problem_file, cert = tmp_path / "oblongs5.dlx", tmp_path / "oblongs5.cert"
    problem = rectangles.build(rectangles.make_puzzle(5, "oblongs"))
    problem_file.write_text(dlx.write(problem))
    written = certificate.write(dlx.read(problem_file), cert, split="0,0")
    assert written.count == 256  # A360498(5), OEIS
    assert written.parts == sum(1 for k in range(problem.n_options) if "0,0" in problem.option(k))
    return problem_file, cert


def refusal(problem_text: str, cert: bytes) -> str:
    """The one line saying why ``cert`` is refused."""
    with pytest.raises(certify.Invalid) as caught:
        certify.check(problem_text, cert)
    message = str(caught.value)
    assert "\n" not in message
    return message


def lines_of(cert) -> list[bytes]:
    return cert.read_bytes().split(b"\n")


def line_no(lines: list[bytes], prefix: bytes, nth: int = 0) -> int:
    """The line number (from 1) of the ``nth`` line starting with ``prefix``."""
    return [k for k, line in enumerate(lines, 1) if line.startswith(prefix)][nth]


def test_true_certificate_accepted(oblongs5, capsys):
    problem_file, cert = oblongs5
    assert certify.main([str(problem_file), str(cert)]) == 0
    assert capsys.readouterr().out.startswith("valid: 256 solutions (")


def test_read_a_block_at_a_time(oblongs5, monkeypatch):
    """Blocks and chunks that end mid-part, mid-line, or on a part's line."""
    problem_file, cert = oblongs5
    for block, chunk in ((97, 13), (1000, 1), (4096, 512), (1 << 16, 1 << 10)):
        monkeypatch.setattr(certify, "_BLOCK", block)
        monkeypatch.setattr(certify, "_CHUNK", chunk)
        with open(cert, "rb") as f:
            assert certify.check(problem_file.read_text(), f) == 256


def test_command_line_writes_the_certificate(oblongs5, tmp_path, capsys):
    problem_file, _ = oblongs5
    cert = tmp_path / "cli.cert"
    assert dlx_main([str(problem_file), "--count", "--certificate", str(cert)]) == 0
    out, err = capsys.readouterr()
    assert out == "256\n" and f"certificate: {cert}" in err
    assert certify.check(problem_file.read_text(), cert.read_bytes()) == 256
    split = [line for line in lines_of(cert) if line.startswith(b"| split ")]
    assert split == [b"| split 0,0"]  # (the fewest options: a corner's)
    args = [str(problem_file), "--count", "--certificate", str(cert), "--split", "2,2"]
    assert dlx_main(args) == 0
    assert b"| split 2,2" in cert.read_bytes()
    assert certify.check(problem_file.read_text(), cert.read_bytes()) == 256
    capsys.readouterr()
    assert dlx_main([*args[:-1], "1x2"]) == 2
    assert "'1x2' is not a primary item" in capsys.readouterr().err
    assert dlx_main([str(problem_file), "--certificate", str(cert)]) == 2
    assert capsys.readouterr().err == "error: --certificate needs --count\n"
    assert dlx_main([str(problem_file), "--count", "--split", "0,0"]) == 2
    assert capsys.readouterr().err == "error: --split needs --certificate\n"
    assert dlx_main([str(problem_file), "--count", "--certificate", str(problem_file)]) == 2
    assert "it would be overwritten" in capsys.readouterr().err
    for flags in (["--engine", "mcc"], ["--engine", "tight"], ["--limit", "2"]):
        assert dlx_main([str(problem_file), "--count", "--certificate", str(cert), *flags]) == 2
        flag = flags[0]  # refused in one line, not ignored
        assert capsys.readouterr().err.endswith(f": no {flag}\n")


def test_missing_part(oblongs5):
    problem_file, cert = oblongs5
    lines = lines_of(cert)
    first, second = line_no(lines, b"| part "), line_no(lines, b"| part ", 1)
    gone = b"\n".join(lines[: first - 1] + lines[second - 1 :])
    split = line_no(lines, b"| split")
    message = refusal(problem_file.read_text(), gone)
    assert message == f"certificate line {split}: no part has option 1, of the split item"


def test_duplicated_part(oblongs5):
    problem_file, cert = oblongs5
    lines = lines_of(cert)
    first, second = line_no(lines, b"| part "), line_no(lines, b"| part ", 1)
    twice = b"\n".join(lines[: second - 1] + lines[first - 1 : second - 1] + lines[second - 1 :])
    again = second  # the copy's part line comes where the second part was
    message = refusal(problem_file.read_text(), twice)
    assert message == f"certificate line {again}: option 1: not of the split item, or a second part"


def test_wrong_sum(oblongs5):
    problem_file, cert = oblongs5
    data = cert.read_bytes().replace(b"| count 256", b"| count 257")
    last = data.count(b"\n")
    message = refusal(problem_file.read_text(), data)
    assert message == f"certificate line {last}: it claims 257 solutions, but has 256 paths"
    part = line_no(lines_of(cert), b"| part ")
    words = lines_of(cert)[part - 1].split()
    wrong = data.replace(b" ".join(words), b" ".join([*words[:-1], b"99"]), 1)
    message = refusal(problem_file.read_text(), wrong)
    assert (
        message
        == f"certificate line {part}: the part claims 99 solutions, but has {int(words[-1])} paths"
    )


def test_edge_not_in_the_problem(oblongs5):
    problem_file, cert = oblongs5
    lines = lines_of(cert)
    k = line_no(lines, b"2:")
    far = b"\n".join(lines[: k - 1] + [b"2: (~9999?0:1)"] + lines[k:])
    assert refusal(problem_file.read_text(), far) == (
        f"certificate line {k} (node 2): option 9999 is not an option of the problem"
    )


def test_overlapping_options(oblongs5):
    problem_file, cert = oblongs5
    problem = dlx.read(problem_file)
    lines = lines_of(cert)
    k = line_no(lines, b"2:")  # the first part's first edge: any option with cell 0,0 overlaps
    option = next(j for j in range(problem.n_options) if "0,0" in problem.option(j)) + 1
    x, rest = lines[k - 1].split(b": (~")
    tampered = lines[: k - 1] + [x + b": (~%d?" % option + rest.split(b"?")[1]] + lines[k:]
    message = refusal(problem_file.read_text(), b"\n".join(tampered))
    assert re.fullmatch(
        rf"certificate line {k} \(node 2\): option {option} covers item '.+' again", message
    )


def test_edge_changed(oblongs5):
    problem_file, cert = oblongs5
    text, lines = problem_file.read_text(), lines_of(cert)
    first = line_no(lines, b"2:")
    for k in range(first - 1, first + 11):  # each edge, given another option
        x, rest = lines[k].split(b": (~")
        option, links = rest.split(b"?")
        other = int(option) % 170 + 1
        tampered = [*lines[:k], x + b": (~%d?" % other + links, *lines[k + 1 :]]
        message = refusal(text, b"\n".join(tampered))
        assert message.startswith("certificate line ")


def test_missing_item(oblongs5):
    problem_file, cert = oblongs5
    lines = problem_file.read_text().splitlines()
    lines[0] = lines[0].replace(" | ", " extra | ", 1)  # a primary item no option covers
    message = refusal("\n".join(lines), cert.read_bytes())
    assert message.endswith("a path ends with item 'extra' uncovered")


def test_malformed_certificates(oblongs5):
    problem_file, cert = oblongs5
    text, data = problem_file.read_text(), cert.read_bytes()
    assert refusal(text, data.replace(b"| count 256\n", b"")) == (
        "certificate: no '| count N' line or no '| split ITEM' line"
    )
    lines = data.split(b"\n")
    k = line_no(lines, b"2:")
    assert refusal(text, b"\n".join(lines[: k - 1] + [b"2: ~1"] + lines[k:])) == (
        f"certificate line {k}: not a line 'x: (~v?lo:hi)'"
    )
    gone = b"\n".join(lines[: k - 1] + lines[k:])  # the first edge removed
    assert "not numbered 2, 3, ... in order" in refusal(text, gone)
    split = line_no(lines, b"| split")
    late = b"\n".join(lines[: split - 1] + lines[split:] + [lines[split - 1]])
    assert refusal(text, late) == (
        "certificate line 2: a part before '| split ITEM' (a twin before '| symmetry')"
    )
    twice = b"\n".join(lines[:split] + [lines[split - 1]] + lines[split:])
    assert refusal(text, twice) == (
        f"certificate line {split + 1}: not a line '| split ITEM' (once; split, symmetry first)"
    )
    part = line_no(lines, b"| part")
    outside = b"\n".join(lines[: part - 1] + [b"2: (~1?0:1)"] + lines[part - 1 :])
    assert refusal(text, outside) == f"certificate line {part}: an edge line outside a part"


def test_the_root_is_the_part_option(oblongs5):
    problem_file, cert = oblongs5
    lines = lines_of(cert)
    part = line_no(lines, b"| part ")
    words = lines[part - 1].split()
    other = b"| part 21 " + b" ".join(words[3:])  # another option of 0,0, this part's graph
    wrong = b"\n".join([*lines[: part - 1], other, *lines[part:]])
    assert "the part's root is not one edge, of option 21" in refusal(
        problem_file.read_text(), wrong
    )


def test_symmetry_twins(tmp_path):
    """A360256(5) = 14409 (OEIS) with the transposition's twins: half the parts' graphs."""
    puzzle = rectangles.make_puzzle(5, "oriented-rectangles")
    problem, path = rectangles.build(puzzle), tmp_path / "r5.cert"
    text = dlx.write(problem)
    written = certificate.write(problem, path, split="0,0", symmetry=transposition(puzzle))
    assert written.count == 14409
    data = path.read_bytes()
    assert certify.check(text, data) == 14409
    lines = data.split(b"\n")
    parts = [line.split() for line in lines if line.startswith(b"| part ")]
    assert written.parts == len(parts) < 2 * sum(b"twin" in words for words in parts)
    at = next(k for k, words in enumerate(parts) if b"twin" in words)
    words, where = parts[at], lines.index(b" ".join(parts[at])) + 1
    itself = data.replace(b" ".join(words), b" ".join([*words[:4], words[2], *words[5:]]))
    assert refusal(text, itself) == (
        f"certificate line {where}: option {int(words[2])}: not of the split item, or a second part"
    )
    later = parts[-1][2]  # an option of 0,0 with a part of its own, further on
    other = data.replace(b" ".join(words), b" ".join([*words[:4], later, *words[5:]]))
    assert refusal(text, other) == (
        f"certificate line {where}: option {int(later)} is not option {int(words[2])}'s image"
    )
    symmetry = next(line for line in lines if line.startswith(b"| symmetry "))
    half = data.replace(symmetry, b"| symmetry 0,1 1,0 1,0 0,1")  # cells only: kinds kept
    assert refusal(text, half) == (
        "certificate line 3: it does not map the options onto themselves"
    )
    mixed = data.replace(symmetry, b"| symmetry 0,1 1x2 1x2 0,1")
    assert refusal(text, mixed) == (
        "certificate line 3: not pairs 'item image' permuting the items, primary to primary"
    )
    no_symmetry = data.replace(symmetry + b"\n", b"")
    assert "(a twin before '| symmetry')" in refusal(text, no_symmetry)


def test_built_in_several_runs(tmp_path):
    """Parts in files of their own, a run stopped after two parts, then resumed."""
    problem = rectangles.build(rectangles.make_puzzle(5, "oblongs"))
    path, folder, seen = tmp_path / "o5.cert", tmp_path / "parts", []

    def stop_after_two(k, twin, count, stats, seconds):
        seen.append(k)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        certificate.write(problem, path, split="0,0", folder=folder, on_part=stop_after_two)
    assert not path.exists() and len(list(folder.glob("*.part"))) == 2  # (and the stamp)
    first = certificate.write(problem, path, split="0,0", folder=folder, stop_after=0)
    assert first.parts_left == first.parts - 2 and not path.exists()
    written = certificate.write(problem, path, split="0,0", folder=folder, on_part=stop_after_two)
    assert written.count == 256 and written.parts_left == 0 and seen[2:] != seen[:2]
    assert not list(folder.iterdir())  # joined, then removed
    assert certify.check(dlx.write(problem), path.read_bytes()) == 256
    single = tmp_path / "single.cert"
    certificate.write(problem, single, split="0,0")
    assert single.read_bytes() == path.read_bytes()


def test_built_by_workers(tmp_path, capsys):
    """Parts built by two processes: the same certificate, byte for byte; with a folder,
    parts already there are kept; the command line's --workers."""
    problem = rectangles.build(rectangles.make_puzzle(5, "oblongs"))
    single, path, seen = tmp_path / "single.cert", tmp_path / "two.cert", []
    want = certificate.write(problem, single, split="0,0")
    got = certificate.write(
        problem, path, split="0,0", workers=2, on_part=lambda *a: seen.append(a)
    )
    assert got == want and got.count == 256  # A360498(5), OEIS
    assert path.read_bytes() == single.read_bytes()
    assert sorted(a[0] for a in seen) == [k for k, _ in certificate.plan(problem, "0,0")]
    assert sorted(f.name for f in tmp_path.iterdir()) == ["single.cert", "two.cert"]
    with pytest.raises(dlx.ProblemError):  # a worker's error, raised here; nothing left
        certificate.write(problem, tmp_path / "no.cert", split="0,0", workers=2, max_nodes=1)
    assert sorted(f.name for f in tmp_path.iterdir()) == ["single.cert", "two.cert"]
    folder, kept = tmp_path / "parts", tmp_path / "kept.cert"
    late = certificate.write(problem, kept, split="0,0", folder=folder, stop_after=0, workers=2)
    assert late.parts_left == late.parts and not kept.exists()

    def stop(*args):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        certificate.write(problem, kept, split="0,0", folder=folder, on_part=stop)
    assert len(list(folder.glob("*.part"))) == 1
    again = certificate.write(problem, kept, split="0,0", folder=folder, workers=2)
    assert again.count == 256 and again.parts_left == 0 and not list(folder.iterdir())
    assert kept.read_bytes() == single.read_bytes()
    problem_file, cli = tmp_path / "o5.dlx", tmp_path / "cli.cert"
    problem_file.write_text(dlx.write(problem))
    args = [str(problem_file), "--count", "--certificate", str(cli), "--split", "0,0"]
    assert dlx_main([*args, "--workers", "2"]) == 0
    assert capsys.readouterr().out == "256\n"
    assert cli.read_bytes() == single.read_bytes()
    assert certify.check(problem_file.read_text(), cli.read_bytes()) == 256


def test_zero_and_whole_parts():
    # option 1 covers both items (a part with no graph but the root edge), option 2
    # leaves b uncovered, and no option covers it: a part of count 0, no graph
    problem = dlx.parse("a b\na b\na\n")
    out = io.StringIO()
    assert certificate.write_part(out, problem, 0) == (1, None)
    assert certificate.write_part(out, problem, 1)[0] == 0
    data = b"| split a\n" + out.getvalue().encode() + b"| count 1\n"
    assert certify.check(dlx.write(problem), data) == 1


@settings(max_examples=examples(60), deadline=None)
@given(problems(bounds=False, colours=False))
def test_random_problems(problem):
    import os
    import tempfile

    want = len(dlx.naive_solutions(problem))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "cert")
        if not problem.primary:
            with pytest.raises(dlx.ProblemError):
                certificate.write(problem, path)
            return
        assert certificate.write(problem, path).count == want
        with open(path, "rb") as f:
            assert certify.check(dlx.write(problem), f) == want


def test_two_paths_one_solution_refused():
    # both orders of the options a and b below the root edge: two paths, one solution
    problem = "a b c\na\nb\nc\n"
    cert = (
        b"| split c\n| part 3 count 2\n2: (~2?0:1)\n3: (~1?0:1)\n4: (~1?0:2)\n5: (~2?4:3)\n"
        b"6: (~3?0:5)\n7: (~0?0:6)\n| count 2\n"
    )
    assert refusal(problem, cert) == (
        "certificate line 6 (node 5): the node's options share no primary item"
    )


def test_an_edge_in_two_nodes_refused():
    problem = "a b c\na b\na\nb\nc\n"
    good = (
        b"| split c\n| part 4 count 2\n2: (~3?0:1)\n3: (~2?0:2)\n4: (~1?3:1)\n5: (~4?0:4)\n"
        b"6: (~0?0:5)\n| count 2\n"
    )
    assert certify.check(problem, good) == 2
    shared = good.replace(b"2: (~3?0:1)", b"2: (~3?0:3)")  # a link to a line below
    assert refusal(problem, shared) == (
        "certificate line 3 (node 2): not numbered 2, 3, ... in order, or a link to a line below"
    )
    shared = good.replace(b"4: (~1?3:1)", b"4: (~1?3:3)")  # into the root's second edge
    assert refusal(problem, shared) == "certificate line 5 (node 4): node 3 is in two nodes"


def test_colours_refused():
    assert refusal("a b | x\na x:1\nb x:1\n", b"| count 1\n").startswith("problem line 2: ")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_certificates_time_limit_is_the_whole_builds(tmp_path, monkeypatch, capsys, workers):
    """``--certificate --time-limit T`` gave T to each part (20 parts of 5x5 by oblongs,
    each given the whole limit): now no part starts after T, and one running then gets
    only what is left; the build stops with the time limit's one line, quoting T. (Each
    part is made to take 0.3 s here, the limit 0.5 s: the parts started are counted.)"""
    import time

    real, started = certificate.write_part, tmp_path / "started"

    def slow(out, problem, k, twin=None, **build):  # (the workers are forked: patched)
        with open(started, "a") as f:
            f.write(f"{build['time_limit']}\n")
        time.sleep(0.3)
        return real(out, problem, k, twin, **build)

    monkeypatch.setattr(certificate, "write_part", slow)
    source = tmp_path / "o5.dlx"
    source.write_text(dlx.write(rectangles.build(rectangles.make_puzzle(5, "oblongs"))))
    cert = tmp_path / "o5.cert"
    flags = ["--count", "--certificate", str(cert), "--workers", str(workers)]
    assert dlx_main([str(source), *flags, "--time-limit", "0.5", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "within the time limit of 0.5 s (" in err[0], err
    limits = [float(x) for x in started.read_text().split()]
    assert 1 <= len(limits) <= 2 * workers and all(0 < x <= 0.5 for x in limits), limits
    assert not cert.exists() or "| count" not in cert.read_text()  # (no certificate)


def test_a_failed_serial_build_leaves_the_file_there_as_it_was(tmp_path):
    """A build in one process that fails (a graph past its bounds, Ctrl-C) wrote its
    part-way certificate, without its count, over the file at its path: now it writes
    under another name and renames once done, so that file stays as it was."""
    problem = rectangles.build(rectangles.make_puzzle(5, "oblongs"))
    path = tmp_path / "o5.cert"
    path.write_text("the user's own file\n")
    with pytest.raises(dlx.ProblemError):
        certificate.write(problem, path, split="0,0", max_nodes=1)

    def stop(*args):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        certificate.write(problem, path, split="0,0", on_part=stop)
    assert path.read_text() == "the user's own file\n"
    assert sorted(f.name for f in tmp_path.iterdir()) == ["o5.cert"]
    assert certificate.write(problem, path, split="0,0").count == 256  # A360498(5), OEIS
    assert sorted(f.name for f in tmp_path.iterdir()) == ["o5.cert"]
    assert path.read_text().endswith("| count 256\n")
