"""github._undo: a refused run's files put back as they were, by links taken before the run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sitemill.github._undo import Undo


def tree(root: Path) -> dict[str, bytes | str]:
    """Each entry below ``root``: a file's bytes, a link's target, a folder as ``dir``."""
    found: dict[str, bytes | str] = {}
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        if path.is_symlink():
            found[name] = "-> " + os.readlink(path)
        elif path.is_dir():
            found[name] = "dir"
        else:
            found[name] = path.read_bytes()
    return found


def replace(path: Path, data: bytes) -> None:
    """As a run writes: a new file renamed over the name."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    site = tmp_path / "ws" / "public"
    (site / "blog").mkdir(parents=True)
    (site / "index.html").write_bytes(b"<h1>Home</h1>")
    (site / "blog" / "a.html").write_bytes(b"<h1>A</h1>")
    (site / "sitemap.xml").write_bytes(b"<urlset>old</urlset>")
    (tmp_path / "outside.txt").write_bytes(b"the user's")
    (site / "link.html").symlink_to(tmp_path / "outside.txt")
    (tmp_path / "ws" / "state.json.gz").write_bytes(b"old state")
    return tmp_path / "ws"


@pytest.mark.parametrize("links", [True, False], ids=["links", "copies"])
def test_every_write_and_deletion_of_a_run_is_undone(
    workspace: Path, links: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not links:  # a file system that refuses hard links: the files are copied aside
        monkeypatch.setattr(os, "link", lambda *_: (_ for _ in ()).throw(PermissionError()))
    site, state = workspace / "public", workspace / "state.json.gz"
    before, parent = tree(workspace.parent), sorted(os.listdir(workspace.parent))
    undo = Undo.take([site, site], [state], beside=workspace)

    replace(site / "sitemap.xml", b"<urlset>refused</urlset>")
    replace(state, b"refused state")
    (site / "blog" / "a.html").unlink()
    (site / "en").mkdir()
    (site / "en" / "sitemap.xml").write_bytes(b"a new child")
    (site / "llms.txt").write_bytes(b"new")
    undo.restore()
    undo.discard()

    assert tree(workspace.parent) == before
    assert sorted(os.listdir(workspace.parent)) == parent  # (nothing left aside)


def test_a_run_that_changed_nothing_is_left_alone(workspace: Path) -> None:
    site = workspace / "public"
    inode = (site / "index.html").stat().st_ino
    undo = Undo.take([site], [], beside=workspace)
    undo.restore()
    undo.discard()
    assert (site / "index.html").stat().st_ino == inode
    assert (workspace.parent / "outside.txt").read_bytes() == b"the user's"
