"""read_content_dates against real git repositories with fixed dates."""

from __future__ import annotations

import hashlib
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

from gitutil import (
    checkout,
    clock,
    commit,
    git,
    is_ancestor,
    make_repo,
    merge,
    tracked,
    unix,
    write,
)
from sitemill.errors import GitError
from sitemill.git.run import Git, GitBatch, git_env
from sitemill.lastmod.history import _walkgit as walkgit
from sitemill.lastmod.history import blobs, contentdates, walk
from sitemill.lastmod.history.contentdates import (
    ContentHistory,
    date_by_content,
    read_content_dates,
    read_file_versions,
)
from sitemill.lastmod.history.lastcommit import read_git_history

T1, T2, T3, T4, T5, T6 = (f"2024-03-0{day}T10:00:00+00:00" for day in range(1, 7))

posix_only = pytest.mark.skipif(os.name != "posix", reason="names that Windows forbids")

Fingerprint = Callable[[str, bytes], str]


def visible(path: str, data: bytes) -> str:
    """A page's text without generator lines (``<!--gen …``) or indentation."""
    lines = (line.strip() for line in data.splitlines())
    return hashlib.sha256(b"\n".join(x for x in lines if not x.startswith(b"<!--gen"))).hexdigest()


def raw(path: str, data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def site_files(site: Path) -> list[str]:
    names = []
    for directory, dirs, files in os.walk(site):
        dirs[:] = [name for name in dirs if name != ".git"]
        relative = Path(directory).relative_to(site).as_posix()
        names += [name if relative == "." else f"{relative}/{name}" for name in files]
    return sorted(names)


def content_dates(site: Path, fingerprint: Fingerprint = visible) -> ContentHistory:
    """Content dates of every file of the site, fingerprinted as it is now."""
    paths = site_files(site)
    current = {path: fingerprint(path, (site / path).read_bytes()) for path in paths}
    return read_content_dates(site, paths, fingerprint, current)


def page(text: str, generated: str = "", indent: str = "") -> str:
    return f"<html>\n<!--gen {generated}-->\n{indent}<p>{text}</p>\n</html>\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


def test_a_re_render_keeps_the_date_of_the_edit(repo: Path) -> None:
    commit(repo, {"a.html": page("first"), "b.html": page("b")}, when=T1)
    commit(repo, {"a.html": page("edited")}, when=T2)
    commit(repo, {"a.html": page("edited", "hugo 0.2", "  "), "b.html": page("b", "x")}, when=T3)

    history = content_dates(repo)

    assert (history.dates, history.dirty, history.shallow) == (
        {"a.html": unix(T2), "b.html": unix(T1)},
        frozenset(),
        False,
    )
    assert history.newest == {"a.html": unix(T3), "b.html": unix(T3)}
    assert read_git_history(repo).dates == {"a.html": unix(T3), "b.html": unix(T3)}

    commit(repo, {"a.html": page("edited again", "hugo 0.2")}, when=T4)

    assert content_dates(repo).dates == {"a.html": unix(T4), "b.html": unix(T1)}


def test_repeated_re_renders_keep_the_first_date_and_a_revert_is_a_change(repo: Path) -> None:
    commit(repo, {"a.html": page("a"), "r.html": page("A")}, when=T1)
    commit(repo, {"a.html": page("a2"), "r.html": page("B")}, when=T2)
    for generated, when in (("1", T3), ("2", T4), ("3", T5)):
        commit(repo, {"a.html": page("a2", generated)}, when=when)
    commit(repo, {"r.html": page("A")}, when=T6)

    # The run at r.html's tip is only T6: B, before it, differs (A at T1 is never looked at).
    assert content_dates(repo).dates == {"a.html": unix(T2), "r.html": unix(T6)}


def test_a_rename_keeps_the_history_of_its_content(repo: Path, requests: list[bytes]) -> None:
    body = "".join(f"<p>paragraph {index}</p>\n" for index in range(20))
    commit(repo, {"old.html": page("v1") + body, "edit.html": page("e1") + body * 2}, when=T1)
    commit(repo, {"old.html": page("v2") + body, "edit.html": page("e2") + body * 2}, when=T2)
    git(repo, "mv", "old.html", "moved.html")
    git(repo, "mv", "edit.html", "renamed.html")
    commit(repo, {"renamed.html": page("e3") + body * 2}, when=T3)  # renamed and edited

    history = content_dates(repo)

    assert history.dates == {"moved.html": unix(T2), "renamed.html": unix(T3)}
    assert read_git_history(repo).dates == {"moved.html": unix(T3), "renamed.html": unix(T3)}
    # The version before the rename has the tip's blob: it holds without being read.
    older = [
        git(repo, "rev-parse", name).strip() for name in ("HEAD~2:old.html", "HEAD~1:edit.html")
    ]
    assert sorted(requests) == sorted(older)


def test_a_merge_is_dated_along_the_branch_first_parent_line(repo: Path) -> None:
    commit(repo, {"a.html": page("a"), "c.html": page("c"), "s.html": page("s")}, when=T1)
    checkout(repo, "side", create=True)
    commit(repo, {"a.html": page("a", "side theme"), "c.html": page("c on side")}, when=T2)
    checkout(repo, "main")
    commit(repo, {"c.html": page("c on main"), "s.html": page("s2")}, when=T3)
    # c.html conflicts; the merge keeps main's text, re-rendered.
    merge(repo, "side", when=T4, files={"c.html": page("c on main", "merged")})

    history = content_dates(repo)

    # a.html: the merge brought the side's re-render, then main's first version: the same text.
    # c.html: the merge's version, then main's (the same text) at T3; the side is not walked.
    assert history.dates == {"a.html": unix(T1), "c.html": unix(T3), "s.html": unix(T3)}
    assert read_git_history(repo).dates == {
        "a.html": unix(T4),
        "c.html": unix(T4),
        "s.html": unix(T3),
    }


def test_an_octopus_merge_with_s_ours_keeps_the_dates_of_the_content_head_kept(
    repo: Path,
) -> None:
    commit(repo, {"a.html": page("a"), "b.html": page("b"), "c.html": page("c")}, when=T1)
    for branch, name, when in (("one", "b.html", T2), ("two", "c.html", T3)):
        checkout(repo, branch, create=True)
        commit(repo, {name: page(f"{name} on {branch}")}, when=when)
        checkout(repo, "main")
    commit(repo, {"a.html": page("a2")}, when=T4)
    merge(repo, "one", "two", when=T6, options=("-s", "ours"))

    expected = {"a.html": unix(T4), "b.html": unix(T1), "c.html": unix(T1)}
    assert content_dates(repo).dates == expected
    assert read_git_history(repo).dates == expected


def test_a_rename_on_a_merged_branch_keeps_its_history(repo: Path) -> None:
    body = "".join(f"<p>paragraph {index}</p>\n" for index in range(20))
    commit(repo, {"old.html": page("v1") + body, "b.html": page("b")}, when=T1)
    commit(repo, {"old.html": page("v2") + body}, when=T2)
    checkout(repo, "side", create=True)
    git(repo, "mv", "old.html", "new.html")
    commit(repo, {}, when=T3)
    checkout(repo, "main")
    commit(repo, {"b.html": page("b2")}, when=T4)
    merge(repo, "side", when=T5)

    assert content_dates(repo).dates == {"new.html": unix(T2), "b.html": unix(T4)}


def test_pages_a_merge_brought_are_dated_by_the_merge_not_the_side_commit(repo: Path) -> None:
    """The shape of pyproj's gh-pages: a pull request's branch adds a built docs folder (its
    commit made days before), the merge publishes it, a later commit moves the folder to a
    versioned path unchanged. Readers of the branch first saw those pages at the merge."""
    body = "".join(f"<p>section {index} of the manual</p>\n" for index in range(20))
    commit(repo, {"index.html": page("home"), "old/page.html": page("first manual")}, when=T1)
    checkout(repo, "contributor", create=True)
    commit(repo, {"docs/index.html": page("docs home") + body}, when=T2)
    commit(repo, {"docs/api.html": page("api") + body}, when=T3)
    checkout(repo, "main")
    merge(repo, "contributor", when=T4)
    git(repo, "mv", "docs", "v1rel")
    commit(repo, {"index.html": page("home, pointing to v1rel")}, when=T5)

    history = content_dates(repo)

    # Before, the side commits' T2 and T3: earlier than any reader of main saw the pages.
    assert history.dates == {
        "index.html": unix(T5),
        "old/page.html": unix(T1),
        "v1rel/index.html": unix(T4),
        "v1rel/api.html": unix(T4),
    }


def test_changed_untracked_and_deleted_files_get_no_date(repo: Path) -> None:
    write(repo, {".gitignore": "ignored.html\n"})
    commit(repo, {"clean.html": "c", "changed.html": "c", "staged.html": "s", "gone.html": "g"}, T1)
    commit(repo, {"clean.html": "c2", "changed.html": "c2"}, T2)
    write(repo, {"changed.html": "c3", "staged.html": "s2", "untracked/new.html": "n"})
    write(repo, {"ignored.html": "i", "gone.html": None})
    git(repo, "add", "staged.html")

    history = content_dates(repo)

    assert history.dirty == {"changed.html", "staged.html", "gone.html", "untracked/new.html"}
    # ignored.html is neither in HEAD nor dirty: no history, no date.
    assert history.dates == {"clean.html": unix(T2), ".gitignore": unix(T1)}


def test_the_log_can_be_read_before_the_work_tree_is_fingerprinted(repo: Path) -> None:
    commit(repo, {"a.html": page("a"), "b.html": page("b")}, when=T1)
    commit(repo, {"a.html": page("a", "x"), "b.html": page("b2")}, when=T2)
    write(repo, {"new.html": page("n")})

    found = read_file_versions(repo, ["a.html", "b.html", "new.html"])
    current = {path: visible(path, (repo / path).read_bytes()) for path in site_files(repo)}

    assert set(found.versions) == {"a.html", "b.html"}
    assert found.dirty == {"new.html"}
    assert date_by_content(found, visible, current) == content_dates(repo)


def test_a_path_without_a_current_fingerprint_keeps_its_newest_date(repo: Path) -> None:
    commit(repo, {"a.html": page("a"), "b.html": page("b")}, when=T1)
    commit(repo, {"a.html": page("a", "x"), "b.html": page("b", "x")}, when=T2)
    current = {"a.html": visible("a.html", (repo / "a.html").read_bytes())}

    history = read_content_dates(repo, ["a.html", "b.html", "nope.html"], visible, current)

    assert history.dates == {"a.html": unix(T1), "b.html": unix(T2)}


def test_an_empty_repository_has_no_dates(repo: Path) -> None:
    write(repo, {"index.html": "not committed yet"})

    assert content_dates(repo) == ContentHistory(
        dates={}, dirty=frozenset({"index.html"}), shallow=False
    )


def test_a_shallow_clone_names_the_dates_at_its_cut(repo: Path, tmp_path: Path) -> None:
    commit(repo, {"a.html": page("a"), "b.html": page("b"), "c.html": page("c")}, when=T1)
    commit(repo, {"b.html": page("b2"), "c.html": page("c", "x")}, when=T2)
    commit(repo, {"b.html": page("b3"), "c.html": page("c", "y")}, when=T3)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "2", repo.as_uri(), str(clone))

    history = content_dates(clone)

    assert history.shallow is True
    assert history.dates == {"a.html": unix(T2), "b.html": unix(T3), "c.html": unix(T2)}
    # b.html's run ends at a change inside the clone: its date is exact.
    assert history.cut == {"a.html", "c.html"}
    full = content_dates(repo)
    assert (full.shallow, full.cut) == (False, frozenset())
    assert full.dates == {"a.html": unix(T1), "b.html": unix(T3), "c.html": unix(T1)}


STRANGE_NAMES = [
    "with space.html",
    "new\nline.html",
    "\nstarts-with-newline.html",
    'double"quote.html',
    "single'quote.html",
    "tab\there.html",
    ":(literal)magic.html",
    "café.html",
    "日本語/ページ.html",
    "dir with space/ünï cödé.html",
]


@posix_only
def test_any_file_name(repo: Path) -> None:
    files: dict[str | bytes, str] = {name: page(repr(name)) for name in STRANGE_NAMES}
    if sys.platform == "linux":
        files[b"latin1-caf\xe9.html"] = page(repr(b"latin1-caf\xe9.html"))
    commit(repo, files, when=T1)
    commit(repo, {name: page(repr(name), "x") for name in files}, when=T2)
    commit(repo, {"new\nline.html": page("new"), "café.html": page("new")}, when=T3)

    history = content_dates(repo)

    expected = {os.fsdecode(name): unix(T1) for name in files}
    expected.update({"new\nline.html": unix(T3), "café.html": unix(T3)})
    assert history.dates == expected


@pytest.mark.parametrize("site", ["site", "deep/er site"])
def test_a_site_below_the_top_of_the_repository(repo: Path, site: str) -> None:
    commit(repo, {"README.md": "r", f"{site}/index.html": page("i"), f"{site}2/x.html": "x"}, T1)
    commit(repo, {f"{site}/index.html": page("i", "x"), f"{site}/p.html": page("p")}, T2)
    commit(repo, {f"{site}/p.html": page("p2"), "README.md": "r2", f"{site}2/x.html": "x2"}, T3)

    history = content_dates(repo / site)

    assert history.dates == {"index.html": unix(T1), "p.html": unix(T3)}
    whole = content_dates(repo)
    assert whole.dates[f"{site}/index.html"] == unix(T1)
    assert whole.dates["README.md"] == unix(T3)


def linear_history(repo: Path, seed: int, steps: int = 20) -> None:
    """Every commit changes the text of each file it touches (no two versions alike)."""
    rng = random.Random(seed)
    names = [f"p{index}.html" for index in range(8)] + ["d/x.html", "d/y z.html"]
    times = clock(T1)
    counter = iter(range(1_000_000))
    commit(repo, {name: page(f"{name} {next(counter)}") for name in names}, when=next(times))
    for _ in range(steps):
        changed = rng.sample(names, rng.randint(1, 3))
        commit(repo, {name: page(f"{name} {next(counter)}") for name in changed}, next(times))


def merged_history(repo: Path, seed: int) -> None:
    """A side branch merged twice: files changed on one side only, on both sides (the merge
    then gives them new text, or the side's with -X theirs), and after the merges."""
    rng = random.Random(seed)
    names = [f"p{index}.html" for index in range(10)]
    times = clock(T1)
    counter = iter(range(1_000_000))

    def edit(count: int) -> set[str]:
        changed = rng.sample(names, count)
        commit(repo, {name: page(f"{name} {next(counter)}") for name in changed}, next(times))
        return set(changed)

    commit(repo, {name: page(f"{name} {next(counter)}") for name in names}, when=next(times))
    for number in range(2):
        checkout(repo, "side", create=number == 0)
        on_side = set().union(*(edit(2) for _ in range(3)))
        checkout(repo, "main")
        on_main = set().union(*(edit(2) for _ in range(2)))
        if number == 0:
            merge(repo, "side", when=next(times), options=("-X", "theirs"))
        else:
            both = {name: page(f"{name} {next(counter)}") for name in on_side & on_main}
            merge(repo, "side", when=next(times), files=both)
    edit(1)


def tangled_history(repo: Path, seed: int, steps: int = 30) -> None:
    """Branches and merges (clean, -X ours/theirs, -s ours), reverts, the same change on two
    branches, deletions; one line per file, naming it, so that git pairs no renames."""
    rng = random.Random(seed)
    names = [f"p{index}.html" for index in range(6)] + ["d/x.html", "d/y.html"]
    times = clock(T1)
    commit(repo, {name: f"{name} 0\n" for name in names}, when=next(times))
    branches = ["main"]
    for step in range(steps):
        roll = rng.random()
        if roll < 0.15:
            branches.append(f"b{step}")
            checkout(repo, branches[-1], create=True)
        elif roll < 0.3:
            checkout(repo, rng.choice(branches))
        elif roll < 0.5:
            other = rng.choice(branches)
            if not is_ancestor(repo, other):
                options = rng.choice([(), ("-X", "ours"), ("-X", "theirs"), ("-s", "ours")])
                merge(repo, other, when=next(times), options=options)
        else:
            changes: dict[str | bytes, str | None] = {}
            for name in rng.sample(names, rng.randint(1, 3)):
                deleting = (repo / name).exists() and rng.random() < 0.1
                changes[name] = None if deleting else f"{name} {rng.randint(0, 2)}\n"
            commit(repo, changes, when=next(times))
    checkout(repo, "main")
    for other in branches[1:]:
        if not is_ancestor(repo, other):
            merge(repo, other, when=next(times), options=("-X", "theirs"))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("history", [linear_history, merged_history, tangled_history])
def test_with_every_commit_changing_text_the_dates_are_the_plain_git_dates(
    repo: Path, seed: int, history: Callable[[Path, int], None]
) -> None:
    history(repo, seed)

    for site in (repo, repo / "d"):
        if site.exists():
            assert content_dates(site, raw).dates == read_git_history(site).dates


@pytest.fixture
def requests(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every blob asked of git cat-file."""
    asked: list[bytes] = []
    request = blobs._request

    def counting(batch: GitBatch, blobs: Sequence[bytes]) -> None:
        asked.extend(blobs)
        request(batch, blobs)

    monkeypatch.setattr(blobs, "_request", counting)
    return asked


def test_only_the_blobs_needed_are_read(repo: Path, requests: list[bytes]) -> None:
    linear_history(repo, seed=5, steps=25)
    names = [os.fsdecode(name) for name in tracked(repo)]
    versions = [int(git(repo, "rev-list", "--count", "HEAD", "--", name)) for name in names]

    content_dates(repo, raw)

    # Every file's second version differs from its first: one blob each, never a third.
    assert len(requests) == len(set(requests)) == sum(count > 1 for count in versions)


def test_rounds_ask_again_only_for_the_files_still_equal(repo: Path, requests: list[bytes]) -> None:
    names = [f"page{index}.html" for index in range(150)]  # several windows of requests
    commit(repo, {name: page(name) for name in names}, when=T1)
    edited = set(names[::3])
    commit(
        repo, {name: page(f"{name} edited" if name in edited else name, "2") for name in names}, T2
    )
    commit(
        repo, {name: page(f"{name} edited" if name in edited else name, "3") for name in names}, T3
    )

    history = content_dates(repo)

    assert history.dates == {name: unix(T2 if name in edited else T1) for name in names}
    # Round 1: every file's T2 version, all equal; round 2: every T1 version.
    assert len(requests) == len(set(requests)) == 2 * len(names)


def test_big_blobs_are_read_up_to_the_limit(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    commit(repo, {"big.bin": b"0123456789" * 100, "small.html": page("s")}, when=T1)
    commit(repo, {"big.bin": b"0123456789" * 99 + b"x", "small.html": page("s", "x")}, when=T2)
    monkeypatch.setattr(blobs, "MAX_BLOB_BYTES", 16)
    read: list[int] = []

    def head_only(path: str, data: bytes) -> str:
        read.append(len(data))
        return visible(path, data[:16])

    files = ["big.bin", "small.html"]
    current = {path: visible(path, (repo / path).read_bytes()[:16]) for path in files}
    history = read_content_dates(repo, files, head_only, current)

    # The rest of the big blob is read past: the small one after it is read right.
    assert history.dates == {"big.bin": unix(T1), "small.html": unix(T1)}
    assert read == [16, 16]


def remove_object(repo: Path, rev: str) -> None:
    """Delete a loose object, as a pruned mirror or a blobless clone lacks it."""
    blob = git(repo, "rev-parse", rev).decode().strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()


def test_a_missing_blob_gives_that_file_its_plain_date(repo: Path) -> None:
    commit(repo, {"a.html": page("a"), "b.html": page("b")}, when=T1)
    commit(repo, {"a.html": page("a", "x"), "b.html": page("b", "x")}, when=T2)
    commit(repo, {"a.html": page("a", "y"), "b.html": page("b", "y")}, when=T3)
    remove_object(repo, "HEAD~2:a.html")  # T2's a.html is still there, T1's is not

    history = content_dates(repo)

    # b.html goes back to T1 through two re-renders; a.html keeps its plain date (T3), not
    # the T2 its readable versions would suggest.
    assert history.dates == {"a.html": unix(T3), "b.html": unix(T1)}
    assert history.unreadable == {"a.html"}
    found = read_file_versions(repo, ["a.html", "b.html"])
    (line,) = contentdates.history_warnings(found, history)
    assert "1 file(s) keep their plain git dates, e.g. a.html" in line
    assert "renames" not in line


def test_a_rename_whose_old_blob_is_missing_is_not_an_error(repo: Path) -> None:
    long_text = " ".join(f"word{n}" for n in range(300))
    commit(repo, {"old.html": page(long_text), "b.html": page("b")}, when=T1)
    commit(repo, {"old.html": None, "new.html": page(long_text + " more")}, when=T2)
    commit(repo, {"b.html": page("b", "x")}, when=T3)
    remove_object(repo, "HEAD~2:old.html")  # git log -M would read it: "unable to read"

    found = read_file_versions(repo, ["new.html", "b.html"])
    history = date_by_content(found, visible, current_fingerprints(repo))

    assert not found.renames_followed
    assert history.dates == {"new.html": unix(T2), "b.html": unix(T1)}
    (line,) = contentdates.history_warnings(found, history)
    assert line.endswith(
        "only renames that kept a file's bytes are followed; fetch the full history for content"
        " dates"
    )


def test_an_exact_rename_is_followed_where_a_missing_blob_stops_rename_detection(
    repo: Path,
) -> None:
    # A deploy renamed one page with its bytes kept and another with an edit, in a mirror that
    # lacks the second's old blob: git finds the exact rename from the blob ids alone, so the
    # first page keeps its date (issue 79, royale-wp11ty's tourdejewel_08132020/); the edited
    # one's history ends at the rename, as before.
    long_text = " ".join(f"word{n}" for n in range(300))
    commit(repo, {"old.html": page(long_text), "tour.html": page("tour")}, when=T1)
    moved = {"old.html": None, "new.html": page(long_text + " more")}
    commit(repo, moved | {"tour.html": None, "tour-2020.html": page("tour")}, when=T2)
    commit(repo, {"b.html": page("b")}, when=T3)
    remove_object(repo, "HEAD~2:old.html")

    found = read_file_versions(repo, ["new.html", "tour-2020.html", "b.html"])
    history = date_by_content(found, visible, current_fingerprints(repo))

    assert history.dates == {"new.html": unix(T2), "tour-2020.html": unix(T1), "b.html": unix(T3)}
    assert not found.renames_followed


def test_a_complete_history_gives_no_warning(repo: Path) -> None:
    commit(repo, {"a.html": page("a")}, when=T1)
    found = read_file_versions(repo, ["a.html"])
    history = date_by_content(found, visible, current_fingerprints(repo))
    assert found.renames_followed and contentdates.history_warnings(found, history) == []


def current_fingerprints(repo: Path) -> dict[str, str]:
    return {path: visible(path, (repo / path).read_bytes()) for path in site_files(repo)}


def test_git_ending_early_is_a_git_error(repo: Path) -> None:
    runner = Git(repo, git_env(reading=True))

    with (
        pytest.raises(GitError, match="git cat-file failed"),
        runner.batch("cat-file", "--no-such-option") as batch,
    ):
        for _ in range(1000):  # until git is gone and the pipe is broken
            batch.stdin.write(b"HEAD\n" * 1000)
            batch.stdin.flush()


def test_outside_a_work_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    (tmp_path / "plain").mkdir()

    with pytest.raises(GitError, match=r"not .*git work tree"):
        content_dates(tmp_path / "plain")


def test_user_configuration_does_not_matter(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    merged_history(repo, seed=4)
    expected = content_dates(repo, raw)
    config = tmp_path / "gitconfig"
    config.write_text(
        "[log]\n showRoot = false\n diffMerges = first-parent\n showSignature = true\n"
        "[diff]\n renames = copies\n relative = true\n"
        "[core]\n quotePath = true\n abbrev = 7\n"
        "[color]\n ui = always\n"
    )
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))

    assert content_dates(repo, raw) == expected


def test_a_later_run_reads_only_new_blobs(repo: Path, requests: list[bytes]) -> None:
    commit(repo, {"a.html": page("a"), "b.html": page("b")}, when=T1)
    commit(repo, {"a.html": page("a", "x"), "b.html": page("b", "x")}, when=T2)
    commit(repo, {"a.html": page("a", "y"), "b.html": page("b2", "y")}, when=T3)
    paths = site_files(repo)
    current = {path: visible(path, (repo / path).read_bytes()) for path in paths}
    first = date_by_content(read_file_versions(repo, paths), visible, current)
    assert first.dates == {"a.html": unix(T1), "b.html": unix(T3)}
    assert first.read == len(requests) == 3  # a's T2 and T1 versions, b's T2 version
    # Every blob compared, and HEAD's (the work tree's fingerprint), is remembered.
    assert len(first.blobs) == 5 and all(key.startswith("h") for key in first.blobs)

    requests.clear()
    commit(repo, {"a.html": page("a", "z"), "b.html": page("b3", "z")}, when=T4)
    current = {path: visible(path, (repo / path).read_bytes()) for path in paths}
    second = date_by_content(read_file_versions(repo, paths), visible, current, first.blobs)
    assert second.dates == {"a.html": unix(T1), "b.html": unix(T4)}
    assert requests == [] and second.read == 0  # every older blob was fingerprinted before

    # Remembered fingerprints are taken as they are: a wrong one is the caller's key mismatch
    # (jobs compare the fingerprint key first); a blob named for another kind is not used.
    as_bytes = {"b" + key[1:]: value for key, value in first.blobs.items()}
    third = date_by_content(read_file_versions(repo, paths), visible, current, as_bytes)
    assert third.dates == second.dates and third.read == 4  # a: T3, T2, T1; b: T3


def test_a_worker_walks_all_its_chunks_with_one_git(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [f"page{index}.html" for index in range(12)]
    commit(repo, {name: page(name) for name in names}, when=T1)
    commit(repo, {name: page(name, "2") for name in names}, when=T2)
    started: list[GitBatch] = []
    batch = Git.batch

    def counting(self: Git, *args: str) -> Iterator[GitBatch]:
        with batch(self, *args) as opened:
            started.append(opened)
            yield opened

    monkeypatch.setattr(Git, "batch", contextmanager(counting))
    found = read_file_versions(repo, names)
    current = {name: visible(name, (repo / name).read_bytes()) for name in names}
    runs = {name: walk.Run(found.versions[name]) for name in names}
    chunks = [walk.chunk_of({n: runs[n] for n in names[i : i + 4]}, current, {}) for i in (0, 4, 8)]

    ends = {}
    for chunk in chunks:  # (as a worker process is handed them)
        ends.update(walk.walk(repo, visible, None, chunk, keep=True).ends)
    kept = started[0]
    assert len(started) == 1 and not kept.stdin.closed
    walkgit.release()

    assert kept.stdin.closed and kept.stdout.closed  # git has ended
    assert ends == {name: 2 for name in names}  # (both versions alike: each run reaches T1)
    walk.walk(repo, visible, None, chunks[0], keep=True)
    assert len(started) == 2  # released: the next walk starts its own
    walkgit.release()


def test_a_kept_git_is_dropped_when_a_walk_fails(repo: Path) -> None:
    commit(repo, {"a.html": page("a")}, when=T1)
    commit(repo, {"a.html": page("a", "2")}, when=T2)
    found = read_file_versions(repo, ["a.html"])
    chunk = walk.chunk_of({"a.html": walk.Run(found.versions["a.html"])}, {"a.html": "x"}, {})

    def failing(path: str, data: bytes) -> str:
        raise RuntimeError("fingerprint failed")

    with pytest.raises(RuntimeError, match="fingerprint failed"):
        walk.walk(repo, failing, None, chunk, keep=True)

    # Nothing is left open for the next walk, whose git would answer the failed one's requests.
    assert walkgit.KEPT._open is None
    walked = walk.walk(repo, visible, None, chunk, keep=True)
    walkgit.release()
    assert walked.ends == {"a.html": 1}


def test_git_reads_old_versions_with_a_small_delta_cache(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git's cache of delta bases is bounded (walkgit._DELTA_CACHE): at its default 96 MiB,
    git was the largest process of a first build on real sites (110 MB against 42)."""
    merged_history(repo, seed=4)
    expected = content_dates(repo)
    commands: list[list[str]] = []
    batch = Git.batch

    def spied(self: Git, *args: str) -> Iterator[GitBatch]:
        commands.append(self.command(args))
        return batch(self, *args)

    monkeypatch.setattr(Git, "batch", spied)
    assert content_dates(repo) == expected
    cat_files = [command for command in commands if "cat-file" in command]
    assert cat_files
    assert all("core.deltaBaseCacheLimit=16m" in command for command in cat_files)
