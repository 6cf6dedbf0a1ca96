"""A source's last text change: body edits and title changes count, other front matter does
not, renames are followed, a shallow cut and a partial clone give no date (never a fetch)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from sourcerepo import page, source_repo

from gitutil import checkout, commit, git, git_env, head, make_repo, merge, unix
from sitemill.lastmod.sourcefiles._visibletext import visible_text
from sitemill.lastmod.sourcefiles.repository import BlobReader, find_repository, repo_view
from sitemill.lastmod.sourcefiles.textdates import TextDates, read_text_dates

T1, T2, T3, T4 = (
    "2021-03-01T10:00:00",
    "2021-06-01T10:00:00",
    "2022-01-01T10:00:00",
    "2023-05-05T05:05:05",
)


def text_dates(site: Path, sources: list[str]) -> TextDates:
    repository = find_repository(site)
    assert repository is not None
    reader = BlobReader(repository)
    try:
        return read_text_dates(repository, reader, sources)
    finally:
        reader.close()


def when(found: TextDates, source: str) -> int | None:
    dated = found.dates.get(source)
    return None if dated is None else dated.time


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("---\ntitle: A\ndate: 2020-01-01\n---\nbody\n", "---\ntitle: A\n---\n\nbody", True),
        (
            '+++\ntitle = "A"\nweight = 3\n+++\nbody',
            '+++\ntitle = "A"\nweight = 4\n+++\nbody',
            True,
        ),
        ('+++\ntitle = "A"\n+++\nbody', '+++\ntitle = "B"\n+++\nbody', False),
        ('{"title": "A", "tags": ["x"]}\nbody', '{"title": "A", "tags": ["y"]}\nbody', True),
        ('{"title": "A"}\nbody', '{"title": "A", "description": "d"}\nbody', False),
        (
            "---\ndescription: >\n  two\n  lines\ntags: [a]\n---\nb",
            "---\ndescription: >\n  two\n  lines\n---\nb",
            True,
        ),
        (
            "---\ndescription: >\n  two\n  lines\n---\nb",
            "---\ndescription: >\n  two\n  words\n---\nb",
            False,
        ),
        ("no front matter\r\n", "no front matter  \n\n", True),
        ("no front matter", "no front matter, edited", False),
    ],
)
def test_what_a_reader_sees_of_a_source(one: str, other: str, same: bool) -> None:
    assert (visible_text(one) == visible_text(other)) is same


def test_only_title_description_and_body_count() -> None:
    base = visible_text(page("A", "Body.", date="2020-01-01", tags="[x]"))
    assert visible_text(page("A", "Body.", date="2024-02-02", tags="[y]", weight="3")) == base
    assert visible_text(page("B", "Body.", date="2020-01-01", tags="[x]")) != base
    assert visible_text(page("A", "Body!", date="2020-01-01", tags="[x]")) != base
    assert visible_text(page("A", "Body.", description="new")) != base


def test_a_body_edit_dates_the_source_a_front_matter_only_change_does_not(
    tmp_path: Path,
) -> None:
    repo = source_repo(
        tmp_path,
        [
            (T1, {"content/a.md": page("A", "First.", date="2021-03-01")}),
            (T2, {"content/a.md": page("A", "Second.", date="2021-03-01")}),
            (T3, {"content/a.md": page("A", "Second.", date="2022-01-01", tags="[new]")}),
        ],
    )
    found = text_dates(repo / "public", ["content/a.md"])
    assert when(found, "content/a.md") == unix(T2)  # (its last commit: T3)
    commit(repo, {"content/a.md": page("A new title", "Second.", date="2022-01-01")}, T4)
    assert when(text_dates(repo / "public", ["content/a.md"]), "content/a.md") == unix(T4)


def test_a_rename_is_followed_back_to_the_text_change(tmp_path: Path) -> None:
    repo = source_repo(
        tmp_path,
        [
            (T1, {"content/old.md": page("A", "First.\n" * 20)}),
            (T2, {"content/old.md": page("A", "Second.\n" * 20)}),
            # renamed with only its date changed: the text is T2's
            (T3, {"content/old.md": None, "content/new.md": page("A", "Second.\n" * 20, date="x")}),
        ],
    )
    found = text_dates(repo / "public", ["content/new.md"])
    assert when(found, "content/new.md") == unix(T2)
    sha = git(repo, "log", "-1", "--format=%H", f"--until={unix(T2)}").decode().strip()
    assert found.dates["content/new.md"].sha == sha


def test_a_text_change_a_merge_brought_is_dated_by_the_merge(tmp_path: Path) -> None:
    """A pull request edits the source months before it is merged: the built site showed the
    edit from the merge on, so the merge dates it, not the branch's commit."""
    repo = source_repo(tmp_path, [(T1, {"content/a.md": page("A", "First.")})])
    checkout(repo, "pull", create=True)
    commit(repo, {"content/a.md": page("A", "Edited in the pull request.")}, T2)
    checkout(repo, "main")
    merged = merge(repo, "pull", when=T3)

    found = text_dates(repo / "public", ["content/a.md"])

    assert found.dates["content/a.md"].time == unix(T3)
    assert found.dates["content/a.md"].sha == merged


def test_the_repository_view_reads_head_and_knows_the_site_folder(tmp_path: Path) -> None:
    repo = source_repo(tmp_path, [(T1, {"content/a.md": page("A", "Body."), "b.bin": "\0x"})])
    repository = find_repository(repo / "public")
    assert repository is not None and repository.site_dir == "public"
    assert not repository.shallow and not repository.partial
    reader = BlobReader(repository)
    view = repo_view(repository, reader)
    assert view.files == (".gitignore", "b.bin", "content/a.md")
    assert view.read_text("content/a.md") == page("A", "Body.")
    assert view.read_text("b.bin") is None and view.read_text("nothing.md") is None
    reader.close()
    assert find_repository(tmp_path) is None  # (no repository holds it)


def clone(source: Path, target: Path, *options: str) -> Path:
    done = subprocess.run(
        ["git", "clone", "-q", *options, f"file://{source}", os.fspath(target)],
        env=git_env(),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return target


def test_a_shallow_cut_is_no_evidence_until_the_history_is_fetched(tmp_path: Path) -> None:
    repo = source_repo(
        tmp_path,
        [(T1, {"content/a.md": page("A", "One.")}), (T2, {"content/b.md": page("B", "Two.")})],
    )
    shallow = clone(repo, tmp_path / "shallow", "--depth", "1")
    (shallow / "public").mkdir()
    found = text_dates(shallow / "public", ["content/a.md", "content/b.md"])
    assert found.dates == {} and not found.unknown
    git(shallow, "fetch", "-q", "--unshallow")
    found = text_dates(shallow / "public", ["content/a.md", "content/b.md"])
    assert when(found, "content/a.md") == unix(T1) and when(found, "content/b.md") == unix(T2)


def test_a_partial_clone_never_fetches_and_never_fails(tmp_path: Path) -> None:
    repo = source_repo(
        tmp_path,
        [
            (T1, {"content/a.md": page("A", "One.")}),
            (T2, {"content/a.md": page("A", "One, edited.")}),
            (T3, {"content/b.md": page("B", "Two.")}),
        ],
    )
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", os.fspath(repo), os.fspath(bare))
    git(bare, "config", "uploadpack.allowFilter", "true")
    partial = clone(bare, tmp_path / "partial", "--filter=blob:none")
    shutil.rmtree(bare)  # a fetch could only fail now; a read must neither fail nor hang
    (partial / "public").mkdir()
    objects = git(partial, "count-objects", "-v")
    repository = find_repository(partial / "public")
    assert repository is not None and repository.partial
    found = text_dates(partial / "public", ["content/a.md", "content/b.md"])
    assert found.unknown == {"content/a.md"}  # its older version is not in the clone
    assert when(found, "content/b.md") == unix(T3)  # added once: no blob needed
    assert git(partial, "count-objects", "-v") == objects  # nothing fetched
    assert head(partial) == head(repo)


def test_a_real_first_commit_is_evidence_in_a_full_clone(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    commit(repo, {"content/a.md": page("A", "One."), ".gitignore": "public/\n"}, T1)
    (repo / "public").mkdir()
    assert when(text_dates(repo / "public", ["content/a.md"]), "content/a.md") == unix(T1)
