"""Whether a tree holds a file at a site path, as a web server finds it: names compared
exactly, only regular files, never outside the site root, and each directory listed once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import write_site
from sitemill.sources import treefiles as treefiles_module
from sitemill.sources.treefiles import TreeFiles


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = write_site(
        tmp_path / "site",
        {
            "images/Algo.png": b"png",
            "images/sub/deep.png": b"png",
            "my photo.png": b"png",
            "größe.png": b"png",
            "v2/a.png": b"png",
            ".hidden/h.png": b"png",
            "folder.png/index.html": b"<p>",
        },
    )
    write_site(tmp_path / "outside", {"secret.png": b"png"})
    (root / "images" / "out.png").symlink_to(tmp_path / "outside" / "secret.png")
    (root / "outdir").symlink_to(tmp_path / "outside")
    (root / "latest").symlink_to("v2")
    (root / "proc").symlink_to("/proc")
    (root / "loop.png").symlink_to("loop.png")
    (root / "broken.png").symlink_to("nowhere.png")
    (root / "hidden-link.png").symlink_to(".hidden/h.png")
    os.mkfifo(root / "fifo.png")
    return root


@pytest.mark.parametrize(
    ("path", "held"),
    [
        ("images/Algo.png", True),
        ("images/sub/deep.png", True),
        ("my photo.png", True),
        ("größe.png", True),
        ("latest/a.png", True),  # a link to a folder inside the site
        # names compared exactly: a web server finds no algo.png, whatever the laptop says
        ("images/algo.png", False),
        ("Images/Algo.png", False),
        ("images/ALGO.PNG", False),
        ("images/Sub/deep.png", False),
        # not a regular file inside the site
        ("images", False),
        ("folder.png", False),
        ("fifo.png", False),
        ("images/out.png", False),  # a link leading outside
        ("outdir/secret.png", False),
        ("proc/self/environ", False),
        ("proc/self/status", False),
        ("loop.png", False),
        ("broken.png", False),
        (".hidden/h.png", False),
        ("hidden-link.png", False),
        # not a way out
        ("../outside/secret.png", False),
        ("images/../images/Algo.png", False),
        ("./images/Algo.png", False),
        ("images//Algo.png", False),
        ("/etc/passwd", False),
        ("", False),
        ("images/Algo.png/", False),
        ("nothing.png", False),
    ],
)
def test_holds(site: Path, path: str, held: bool) -> None:
    assert TreeFiles(site).holds(path) is held


def test_each_directory_is_listed_once(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    listed: list[str] = []
    real_listdir = os.listdir

    def listdir(path: str) -> list[str]:
        listed.append(path)
        return real_listdir(path)

    monkeypatch.setattr(treefiles_module.os, "listdir", listdir)
    files = TreeFiles(site)
    for _ in range(3):
        assert files.holds("images/Algo.png")
        assert not files.holds("images/algo.png")
        assert files.holds("images/sub/deep.png")
    assert len(listed) == 3  # the root, images/, images/sub/


def test_bounded_memory_stays_right(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(treefiles_module, "MAX_DIRECTORIES_REMEMBERED", 1)
    monkeypatch.setattr(treefiles_module, "MAX_PATHS_REMEMBERED", 1)
    files = TreeFiles(site)
    for _ in range(2):
        assert files.holds("images/sub/deep.png")
        assert not files.holds("images/sub/Deep.png")
        assert files.holds("latest/a.png")
    assert len(files._names) <= 1 and len(files._known) <= 1


def test_a_deep_path_costs_no_recursion(site: Path) -> None:
    assert not TreeFiles(site).holds("/".join(["a"] * 5_000) + ".png")
