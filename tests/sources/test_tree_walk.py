"""The tree walk: sorted, each real directory once, links only inside the site, fast."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

import timing
from sitemill.errors import SourceError
from sitemill.sources.tree import WalkSkip, WalkSkips, walk_tree


def listings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The directories the walk lists from now on (each one os.scandir), in order."""
    listed: list[str] = []
    scandir = os.scandir

    def counted(path: str) -> Any:
        listed.append(os.fspath(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", counted)
    return listed


def walk(root: Path) -> tuple[list[str], WalkSkips]:
    skipped = WalkSkips()
    return [file.path for file in walk_tree(root, skipped)], skipped


def touch(root: Path, *paths: str) -> None:
    for path in paths:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("x")


def test_sorted_depth_first_without_dot_paths(tmp_path: Path) -> None:
    touch(tmp_path, "b.html", "a/z.html", "a/b/c.html", "a-b.html", ".git/x", "a/.d/x.html")
    paths, skipped = walk(tmp_path)
    assert paths == ["a/b/c.html", "a/z.html", "a-b.html", "b.html"]
    assert not skipped.counts


@pytest.mark.parametrize("alias", ["latest", "dev"])
def test_a_directory_is_walked_by_its_own_path_never_through_a_link(
    tmp_path: Path, alias: str
) -> None:
    # pyproj's gh-pages: dev -> latest. The link sorts first or last: the real path is
    # listed, the one git tracks (and dates) and the link's target on the server.
    touch(tmp_path, "v2/index.html", "v2/guide/a.html", "page.html")
    (tmp_path / alias).symlink_to("v2")
    (tmp_path / "alias.html").symlink_to("page.html")  # a file link: a page of its own
    paths, skipped = walk(tmp_path)
    assert paths == ["alias.html", "page.html", "v2/guide/a.html", "v2/index.html"]
    assert skipped.counts == {WalkSkip.DIRECTORY_LINK: 1}
    assert skipped.messages() == [
        "skipped 1 symbolic link to a directory of the site, not followed (the directory is "
        f"listed under its own path): {alias}"
    ]


@pytest.mark.parametrize("link_sorts_first", [False, True])
def test_doubling_links_list_each_real_file_and_directory_once(
    tmp_path: Path, link_sorts_first: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each level holds a real directory and a link to it: a naive walk sees 2**34 paths to
    # the deepest one (the issue: 34 committed links gave 262,144 URLs in 24 s).
    levels = 34
    directory = tmp_path
    for level in range(levels):
        (directory / f"p{level}.html").write_text("x")
        real = directory / f"m{level}"
        real.mkdir()
        (directory / (f"a{level}" if link_sorts_first else f"z{level}")).symlink_to(real.name)
        directory = real
    (directory / "last.html").write_text("x")
    listed = listings(monkeypatch)
    paths, skipped = walk(tmp_path)
    assert len(paths) == len(set(paths)) == levels + 1
    assert skipped.counts == {WalkSkip.DIRECTORY_LINK: levels}
    assert len(skipped.messages()) == 1
    assert len(listed) == len(set(listed)) == levels + 1  # each real directory once


def test_self_links_in_every_directory(tmp_path: Path) -> None:
    # `a -> .` and `b -> ..` at every level of a 34-deep tree: every file once.
    directory = tmp_path
    for level in range(34):
        (directory / "page.html").write_text("x")
        (directory / "a").symlink_to(".")
        (directory / "b").symlink_to("..") if level else None
        directory = directory / f"d{level}"
        directory.mkdir()
    paths, skipped = walk(tmp_path)
    assert len(paths) == 34
    assert skipped.counts == {WalkSkip.DIRECTORY_LINK: 34 + 33}


def test_links_out_of_the_site_are_never_entered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    touch(site, "index.html", ".git/config")
    touch(tmp_path, "outside/secret.html")
    (site / "root").symlink_to("/")
    (site / "up").symlink_to("..")
    (site / "out").symlink_to("../outside")
    (site / "secret.html").symlink_to("../outside/secret.html")
    (site / "git.html").symlink_to(".git/config")
    (site / "gitdir").symlink_to(".git")
    if Path("/sys").is_dir():
        (site / "sys").symlink_to("/sys")
    if Path("/proc/self/environ").exists():
        (site / "environ.html").symlink_to("/proc/self/environ")
    listed = listings(monkeypatch)
    paths, skipped = walk(site)
    assert listed == [os.fspath(site)]  # /sys or / would never finish
    assert paths == ["index.html"]
    outside = len(os.listdir(site)) - 2  # all but index.html and .git
    assert skipped.counts == {WalkSkip.OUTSIDE: outside}
    (message,) = skipped.messages()
    assert message.startswith(f"skipped {outside} symbolic links leading outside the site")


def test_broken_links_loops_and_special_files(tmp_path: Path) -> None:
    touch(tmp_path, "a/index.html")
    (tmp_path / "a" / "loop").symlink_to(tmp_path / "a")
    (tmp_path / "self").symlink_to("self")
    (tmp_path / "ping").symlink_to("pong")
    (tmp_path / "pong").symlink_to("ping")
    (tmp_path / "broken.html").symlink_to("missing.html")
    os.mkfifo(tmp_path / "fifo.html")
    os.mknod(tmp_path / "socket.html", 0o600 | stat.S_IFSOCK)
    (tmp_path / "fifo-link.html").symlink_to("fifo.html")
    paths, skipped = walk(tmp_path)
    assert paths == ["a/index.html"]
    assert skipped.counts == {
        WalkSkip.DIRECTORY_LINK: 1,
        WalkSkip.LOOP: 3,
        WalkSkip.BROKEN: 1,
        WalkSkip.NOT_REGULAR: 3,
    }
    assert skipped.examples[WalkSkip.LOOP] == "ping"
    assert len(skipped.messages()) == 4


def test_thousands_of_skips_are_one_line_each(tmp_path: Path) -> None:
    touch(tmp_path, "index.html")
    for number in range(2_000):
        (tmp_path / f"l{number:04}").symlink_to("/")
    paths, skipped = walk(tmp_path)
    assert paths == ["index.html"]
    assert skipped.messages() == [
        "skipped 2,000 symbolic links leading outside the site (or into hidden paths), "
        "not followed: l0000"
    ]


def test_a_very_deep_tree_is_walked_without_recursion(tmp_path: Path) -> None:
    # Deeper than the recursion limit allows, with the limit lowered for the walk only (a tree
    # deeper than the default limit would also defeat shutil.rmtree in pytest's cleanup).
    depth = 300
    deep = tmp_path.joinpath(*["d"] * depth)
    deep.mkdir(parents=True)
    (deep / "x.html").write_text("x")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(250)
    try:
        paths, _ = walk(tmp_path)
    finally:
        sys.setrecursionlimit(limit)
    assert paths == ["d/" * depth + "x.html"]


def test_a_root_that_is_a_link(tmp_path: Path) -> None:
    touch(tmp_path, "real/index.html")
    (tmp_path / "site").symlink_to("real")
    (tmp_path / "real" / "again").symlink_to(tmp_path / "site")
    paths, skipped = walk(tmp_path / "site")
    assert paths == ["index.html"]
    assert skipped.counts == {WalkSkip.DIRECTORY_LINK: 1}


def test_a_directory_that_cannot_be_read_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="does not exist"):
        list(walk_tree(tmp_path / "missing"))


def test_files_are_walked_in_linear_time(tmp_path: Path) -> None:
    for sections, root in ((10, tmp_path / "small"), (80, tmp_path / "large")):
        for group in range(sections):
            directory = root / f"section-{group:03}"
            directory.mkdir(parents=True)
            for number in range(125):
                (directory / f"page-{number:03}.html").touch()
    paths, _ = walk(tmp_path / "large")
    assert len(paths) == 10_000
    # Eight times the files (and folders) take about eight times as long, 64 if quadratic.
    assert timing.linear(walk, tmp_path / "small", tmp_path / "large", 20)
