"""Each older version is fingerprinted once in a run (history.walk), counted on real git
repositories with fixed dates."""

from __future__ import annotations

import hashlib
from collections import Counter
from itertools import cycle
from pathlib import Path

import pytest

from gitutil import clock, commit, make_repo, unix
from sitemill.lastmod.history import walk
from sitemill.lastmod.history.contentdates import date_by_content, read_file_versions

START = "2024-03-01T10:00:00+00:00"


def page(text: str, build: int) -> str:
    """A page whose visible text is ``text``; ``build`` is furniture (a build's id)."""
    return f"<html>\n<!--build {build}-->\n<p>{text}</p>\n</html>\n"


class Counted:
    """A fingerprint (the text without build lines) that counts what it is given."""

    def __init__(self) -> None:
        self.seen: Counter[tuple[str, bytes]] = Counter()

    def __call__(self, path: str, data: bytes) -> str:
        self.seen[path, hashlib.sha1(data).digest()] += 1
        lines = (line for line in data.splitlines() if not line.startswith(b"<!--build"))
        return hashlib.sha256(b"\n".join(lines)).hexdigest()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


def dated(repo: Path, paths: list[str], fingerprint: Counted) -> dict[str, int]:
    current = {path: fingerprint(path, (repo / path).read_bytes()) for path in paths}
    fingerprint.seen.clear()
    return date_by_content(read_file_versions(repo, paths), fingerprint, current).dates


def test_a_page_that_flips_between_two_builds_fingerprints_each_once(repo: Path) -> None:
    # A site whose build flips a page between two spellings of the same text (two CI runners,
    # say): the walk meets each older blob again and again, and fingerprints it once.
    times = clock(START, 86400)
    first = next(times)
    commit(repo, {"index.html": page("same", 0)}, when=first)
    for build in [1, 2] * 6 + [3]:
        commit(repo, {"index.html": page("same", build), "log.txt": next(times)}, when=next(times))
    fingerprint = Counted()

    assert dated(repo, ["index.html"], fingerprint) == {"index.html": unix(first)}
    assert len(fingerprint.seen) == 3  # builds 2, 1 and 0 (3 is the work tree's)
    assert set(fingerprint.seen.values()) == {1}


def test_files_that_share_bytes_fingerprint_them_once(repo: Path) -> None:
    # The same stylesheet at two paths (not HTML: its fingerprint is the bytes' own), its
    # versions flipping back and forth: one fingerprint for each blob.
    times = clock(START, 86400)
    names = ["a/site.css", "b/site.css"]
    for body in ["p {}", "p { }", "p {}", "p { }", "p{}"]:
        commit(repo, dict.fromkeys(names, body), when=next(times))
    fingerprint = Counted()

    dated(repo, names, fingerprint)
    assert sum(fingerprint.seen.values()) == 1  # "p { }", the one older blob either reads


def test_flips_keep_the_date(repo: Path) -> None:
    # A real edit behind the flips ends the run there, as it did when each was read again.
    times, flips = clock(START, 86400), cycle([1, 2])
    commit(repo, {"index.html": page("old", 0)}, when=next(times))
    edit = next(times)
    commit(repo, {"index.html": page("new", 1)}, when=edit)
    for _ in range(5):
        commit(repo, {"index.html": page("new", next(flips))}, when=next(times))
    fingerprint = Counted()

    assert dated(repo, ["index.html"], fingerprint) == {"index.html": unix(edit)}
    assert set(fingerprint.seen.values()) == {1}


def test_a_first_run_makes_no_blob_key_of_a_version_to_look_up(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # walk.chunk_of looks each version's blob_key up in an earlier run's fingerprints; a first
    # run has none, and made 10,000 keys for nothing on build-git-10k.
    times = clock(START, 86400)
    paths = [f"p{index}.html" for index in range(6)]
    for build in range(3):
        commit(repo, {path: page(f"{path} {build}", build) for path in paths}, when=next(times))
    found = read_file_versions(repo, paths).versions
    runs = {path: walk.Run(chain) for path, chain in found.items()}
    made: list[str] = []
    keyed = walk.blob_key
    monkeypatch.setattr(walk, "blob_key", lambda *args: made.append(args[0]) or keyed(*args))

    assert walk.chunk_of(runs, {}, {}) == (runs, dict.fromkeys(paths), {})
    assert made == []
    oldest = runs["p0.html"].chain[-1].blob
    assert oldest is not None
    known = {keyed("p0.html", oldest): "remembered"}
    assert walk.chunk_of(runs, {}, known)[2] == known  # (a later run's: looked up)
    assert len(made) == 18
