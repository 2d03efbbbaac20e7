"""A kernel's search tree has a version (``TREE_VERSION`` in its folder's
``engine.py``), which a checkpoint's digest names: a stopped task's frontier is a path
of branch numbers, and another choice of items (or order of their options) would lead it
into another tree, to a silently wrong count. The version is bumped whenever the
choice's source changes, which the digests recorded here make sure of; a checkpoint
made on another version is refused in one line."""

from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path

import pytest
from shared import EXPECTED, load, records

import dlx
from dlx.engines import ENGINES
from dlx.parallel import checkpoint

KERNELS = Path(__file__).resolve().parent.parent / "dlx" / "kernels"

# each kernel's functions that choose the item and number its branches, by folder
# and file (a function of the links kernel's search is named for Knuth's steps)
CHOICE = {
    "dlx": {
        "links/kernel.py": (
            "_choose",
            "_tweak_choice",
            "_next_branch",
            "_choose_loop_item",
            "_live_options",
        ),
        "links/commit.py": ("_choose_item",),
        "links/domination.py": ("_single", "_take_single"),
    },
    "bitset": {"bitset/kernel.py": ("_first_free", "_branches", "_choose", "_next_branch")},
    "tight": {
        "tight/kernel.py": ("_choose_item", "_choose", "_next_branch"),
        "tight/frames.py": ("opens", "open_frame", "gather"),
    },
    "mcc": {"mcc/kernel.py": ("_choose", "_try", "_skip")},
}
# the digest of each kernel's choice (``choice_digest``) in each of its tree versions:
# a new choice is a new version (never an old version's digest edited)
TREE_DIGESTS = {
    "dlx": {1: "414fd967c4fd6f0b"},
    "bitset": {1: "a594b230e80fde00"},
    "tight": {1: "097020a2f9657301", 2: "b7d6cbfe3d3fea7c"},
    "mcc": {1: "e3067b5b699bc58a"},
}


def choice_digest(kernel: str) -> str:
    """A digest of the source of ``kernel``'s choice (``CHOICE``), read with ``ast``."""
    h = hashlib.sha256()
    for file, names in CHOICE[kernel].items():
        text = (KERNELS / file).read_text()
        found = {
            node.name: ast.get_source_segment(text, node)
            for node in ast.parse(text).body
            if isinstance(node, ast.FunctionDef)
        }
        for name in names:
            assert name in found, f"{file} has no function {name} (update CHOICE)"
            h.update(f"{file}:{name}\n{found[name]}\n".encode())
    return h.hexdigest()[:16]


def test_every_kernel_names_its_choice_and_tree_version():
    assert set(CHOICE) == set(ENGINES) == set(TREE_DIGESTS)
    for name, row in ENGINES.items():
        assert row.tree_version >= 1, f"{name}: its row names no TREE_VERSION"
        assert sorted(TREE_DIGESTS[name]) == list(range(1, row.tree_version + 1)), name


@pytest.mark.parametrize("kernel", sorted(ENGINES))
def test_a_changed_choice_is_a_new_tree_version(kernel):
    """The source of the kernel's choice is the one recorded for its TREE_VERSION: an
    edit of it bumps the version (and records the new digest under it)."""
    version = ENGINES[kernel].tree_version
    digest = choice_digest(kernel)
    assert TREE_DIGESTS[kernel][version] == digest, (
        f"{kernel}: its choice's source changed (digest {digest}): bump TREE_VERSION to "
        f"{version + 1} in its folder's engine.py and add {version + 1}: {digest!r} to "
        "TREE_DIGESTS here (a checkpoint's stopped tasks then are refused, not led astray)"
    )


def stopped(tmp_path) -> tuple[Path, dlx.Parallel]:
    """A checkpoint of scott_sym's count by dancing links, stopped inside a task."""
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "run.ckpt"
    parallel = dlx.Parallel(workers=1, checkpoint=path, tasks=4)
    dlx.count(load("scott_sym"), engine="dlx", node_limit=200, parallel=parallel)
    assert any("partial" in r for r in records(path))
    return path, parallel


def test_a_checkpoint_made_on_another_tree_version_is_refused(tmp_path, monkeypatch):
    """Its stopped task's frontier would lead into the new tree: refused in one line
    naming the file and both versions (``auto`` too, which goes to the kernel that
    wrote it), and the file left as it was."""
    path, parallel = stopped(tmp_path)
    header = json.loads(path.read_text().splitlines()[0])
    assert (header["version"], header["engine"], header["tree_version"]) == (4, "dlx", 1)
    before = path.read_bytes()
    monkeypatch.setitem(ENGINES, "dlx", ENGINES["dlx"]._replace(tree_version=2))
    said = "made on version 1 of the dlx kernel's search tree, this dlx searches version 2"
    for engine in ("dlx", "auto"):
        with pytest.raises(dlx.CheckpointError, match=f"^{path}: {said}") as refused:
            dlx.count(load("scott_sym"), engine=engine, parallel=parallel)
        assert "\n" not in str(refused.value)
    assert path.read_bytes() == before
    monkeypatch.undo()
    count = dlx.count(load("scott_sym"), engine="dlx", parallel=parallel)
    assert (int(count), count.complete) == (EXPECTED["scott_sym"], True)


def as_version_3(path: Path, tree_version: bool) -> None:
    """Rewrite a checkpoint as version 3 wrote it (its digest named no tree version),
    its partial records naming their tree's version (``tree_version``) or not."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    digest = checkpoint.Tree(load("scott_sym"), (), "dlx", tree_version=1).digest(3)
    drop = {"check", "engine", "tree_version"}
    header = {k: v for k, v in lines[0].items() if k not in drop}
    header.update(version=3, problem=digest)
    drop = {"check"} if tree_version else {"check", "tree_version"}
    out = [header] + [{k: v for k, v in r.items() if k not in drop} for r in lines[1:]]
    path.write_bytes(b"".join(checkpoint._signed(digest, r) for r in out))


def test_a_version_3_checkpoint_goes_on_only_where_its_stopped_tasks_name_the_tree(
    tmp_path,
):
    """Version 3 named no tree version: a stopped task's record that does not name it
    is refused (its frontier may be another tree's); one written by this dlx names it,
    and the file goes on, in its own version, to the exact count (scott_sym: 65)."""
    path, parallel = stopped(tmp_path)
    as_version_3(path, tree_version=False)
    said = "stopped part way\\) names no version of the dlx kernel's search tree"
    with pytest.raises(dlx.CheckpointError, match=f"^{path}: line [0-9]+ \\(task [0-9]+ {said}"):
        dlx.count(load("scott_sym"), engine="dlx", parallel=parallel)
    path, parallel = stopped(tmp_path / "named")
    as_version_3(path, tree_version=True)
    count = dlx.count(load("scott_sym"), engine="dlx", parallel=parallel)
    assert (int(count), count.complete) == (EXPECTED["scott_sym"], True)
    assert json.loads(path.read_text().splitlines()[0])["version"] == 3
    again = dlx.count(load("scott_sym"), engine="dlx", parallel=parallel)
    assert int(again) == EXPECTED["scott_sym"] and again.resumed == again.tasks
    path, parallel = stopped(tmp_path / "finished")  # a stopped task finished later:
    dlx.count(load("scott_sym"), engine="dlx", parallel=parallel)  # its partial record
    as_version_3(path, tree_version=False)  # is no place to go on from: not refused
    again = dlx.count(load("scott_sym"), engine="dlx", parallel=parallel)
    assert int(again) == EXPECTED["scott_sym"] and again.resumed == again.tasks
