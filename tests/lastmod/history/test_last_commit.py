"""read_git_history and find_work_tree against real git repositories with fixed dates."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from gitutil import (
    checkout,
    clock,
    commit,
    git,
    is_ancestor,
    log_date,
    make_repo,
    merge,
    tracked,
    unix,
    write,
)
from sitemill.errors import GitError
from sitemill.lastmod.history import lastcommit as git_source
from sitemill.lastmod.history.lastcommit import GitHistory, find_work_tree, read_git_history
from sitemill.lastmod.history.logparse import NameOnlyCommit

T1, T2, T3, T4, T5, T6, T7 = (f"2024-03-0{day}T10:00:00+00:00" for day in range(1, 8))

posix_only = pytest.mark.skipif(os.name != "posix", reason="names that Windows forbids")


def scandir_names(root: Path) -> set[str]:
    """Site-relative POSIX paths of the files under root, spelled as os.scandir spells them."""
    names: set[str] = set()
    stack = [(root, "")]
    while stack:
        directory, prefix = stack.pop()
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.name == ".git":
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append((Path(entry.path), f"{prefix}{entry.name}/"))
                else:
                    names.add(prefix + entry.name)
    return names


def assert_matches_git_log(repo: Path, site_dir: Path | None = None) -> None:
    """Every file of HEAD gets the date that `git log -1 --format=%ct -- path` gives."""
    site_dir = site_dir or repo
    prefix = os.fsencode(site_dir.relative_to(repo).as_posix() + "/").removeprefix(b"./")
    history = read_git_history(site_dir)
    expected = {
        os.fsdecode(name[len(prefix) :]): log_date(repo, name)
        for name in tracked(repo)
        if name.startswith(prefix)
    }
    assert dict(history.dates) == expected


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


def test_dates_follow_the_newest_commit_touching_each_file(repo: Path) -> None:
    commit(repo, {"index.html": "home", "a.html": "a", "b/c.html": "c"}, when=T1)
    commit(repo, {"a.html": "a2"}, when=T2)
    commit(repo, {"b/c.html": "c2", "new.pdf": b"%PDF"}, when=T3)
    commit(repo, {"a.html": "a3"}, when=T4)
    commit(repo, {}, when=T5, message="empty commit")

    history = read_git_history(repo)

    assert history == GitHistory(
        dates={
            "index.html": unix(T1),
            "a.html": unix(T4),
            "b/c.html": unix(T3),
            "new.pdf": unix(T3),
        },
        dirty=frozenset(),
        shallow=False,
    )


def test_committer_time_not_author_time(repo: Path) -> None:
    write(repo, {"a.html": "a"})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a", f"--date=@{unix(T1)} +0000", when=T3)

    assert read_git_history(repo).dates == {"a.html": unix(T3)}


@pytest.mark.parametrize("site", ["site", "deep/er site", "site [1]*?"])
def test_site_dir_below_the_top_gives_site_relative_paths(repo: Path, site: str) -> None:
    commit(repo, {"README.md": "r", f"{site}/index.html": "i", f"{site}2/x.html": "x"}, when=T1)
    commit(repo, {f"{site}/blog/post.html": "p", "README.md": "r2"}, when=T2)
    commit(repo, {f"{site}2/x.html": "x2"}, when=T3)

    history = read_git_history(repo / site)

    assert history.dates == {"index.html": unix(T1), "blog/post.html": unix(T2)}
    assert find_work_tree(repo / site) == repo.resolve()
    assert_matches_git_log(repo, repo / site)


def test_a_symlink_to_the_site_dir_is_resolved(repo: Path, tmp_path: Path) -> None:
    commit(repo, {"site/index.html": "i"}, when=T1)
    link = tmp_path / "link"
    link.symlink_to(repo / "site", target_is_directory=True)

    assert read_git_history(link).dates == {"index.html": unix(T1)}
    assert find_work_tree(link) == repo.resolve()


STRANGE_NAMES = [
    "with space.html",
    " leading and trailing .html",
    "tab\there.html",
    "new\nline.html",
    "\nstarts-with-newline.html",
    'double"quote.html',
    "single'quote.html",
    "&<>#?%+.html",
    "back\\slash.html",
    "star*[glob].html",
    ":(literal)magic.html",
    "café.html",
    "日本語/ページ.html",
    "dir with space/ünï cödé.html",
]


@posix_only
def test_any_file_name_round_trips_to_the_scandir_spelling(repo: Path) -> None:
    files: dict[str | bytes, str] = {name: name for name in STRANGE_NAMES}
    if sys.platform == "linux":
        files[b"latin1-caf\xe9.html"] = "not UTF-8"
    commit(repo, files, when=T1)
    commit(repo, {"tab\there.html": "changed", "café.html": "changed"}, when=T2)

    history = read_git_history(repo)

    assert set(history.dates) == scandir_names(repo)
    assert history.dates["tab\there.html"] == unix(T2)
    assert history.dates["café.html"] == unix(T2)
    assert history.dates["new\nline.html"] == unix(T1)
    if sys.platform == "linux":
        assert history.dates[os.fsdecode(b"latin1-caf\xe9.html")] == unix(T1)
    assert history.dirty == frozenset()
    assert_matches_git_log(repo)


@posix_only
def test_strange_names_are_reported_dirty_exactly(repo: Path) -> None:
    commit(repo, {"keep.html": "k"}, when=T1)
    write(repo, {"new\nline & space.html": "u", b"raw-\xff.html": "u"})

    assert read_git_history(repo).dirty == {"new\nline & space.html", os.fsdecode(b"raw-\xff.html")}


def test_changed_and_untracked_files_are_dirty(repo: Path) -> None:
    write(repo, {".gitignore": "ignored.html\n"})
    commit(repo, {"clean.html": "c", "changed.html": "c", "staged.html": "s", "gone.html": "g"}, T1)
    write(repo, {"changed.html": "c2", "staged.html": "s2", "untracked/new.html": "n"})
    write(repo, {"ignored.html": "i", "gone.html": None})
    git(repo, "add", "staged.html")

    history = read_git_history(repo)

    assert history.dirty == {"changed.html", "staged.html", "gone.html", "untracked/new.html"}
    # A tracked file keeps its commit date; the caller decides what a dirty file gets.
    assert history.dates["changed.html"] == unix(T1)
    assert "untracked/new.html" not in history.dates


def test_dirty_paths_are_site_relative(repo: Path) -> None:
    commit(repo, {"site/a.html": "a", "other.html": "o"}, when=T1)
    write(repo, {"site/a.html": "a2", "other.html": "o2", "site/n.html": "n"})

    assert read_git_history(repo / "site").dirty == {"a.html", "n.html"}


def test_a_rename_dates_the_new_path(repo: Path) -> None:
    commit(repo, {"old.html": "same content\n" * 20, "b.html": "b"}, when=T1)
    git(repo, "mv", "old.html", "moved.html")
    commit(repo, {}, when=T2, message="rename")

    history = read_git_history(repo)

    assert history.dates == {"moved.html": unix(T2), "b.html": unix(T1)}
    assert_matches_git_log(repo)


def test_a_merge_dates_what_it_brought_into_the_branch(repo: Path) -> None:
    commit(repo, {"a.html": "a", "b.html": "b", "c.html": "c", "d.html": "d"}, when=T1)
    checkout(repo, "side", create=True)
    commit(repo, {"a.html": "a from side", "c.html": "c from side"}, when=T2)
    checkout(repo, "main")
    commit(repo, {"b.html": "b on main", "c.html": "c on main"}, when=T3)
    # c.html conflicts; resolving it with new content is a change made by the merge.
    merge(repo, "side", when=T4, files={"c.html": "c resolved"})

    history = read_git_history(repo)

    # a.html changed on the side at T2, but readers of main first saw it at the merge.
    assert history.dates == {
        "a.html": unix(T4),
        "b.html": unix(T3),
        "c.html": unix(T4),
        "d.html": unix(T1),
    }
    assert_matches_git_log(repo)


def test_a_branch_change_the_merge_did_not_keep_moves_no_date(repo: Path) -> None:
    """Cases where a branch's change does not reach HEAD: the merge changed nothing of main."""
    base: dict[str | bytes, str] = {
        name: name for name in ("ours.html", "theirs.html", "revert.html", "same.html")
    }
    commit(repo, base, when=T1)
    checkout(repo, "side", create=True)
    commit(repo, {"ours.html": "side", "revert.html": "tmp", "same.html": "s"}, when=T3)
    commit(repo, {"revert.html": "revert.html"}, when=T4)
    checkout(repo, "main")
    commit(repo, {"ours.html": "main", "theirs.html": "main", "same.html": "s"}, when=T2)
    merge(repo, "side", when=T5, files={"ours.html": "main"})
    checkout(repo, "side")
    commit(repo, {"theirs.html": "side again"}, when=T6)
    checkout(repo, "main")
    merge(repo, "side", when=T7, options=("-s", "ours"))

    history = read_git_history(repo)

    assert history.dates == {
        "ours.html": unix(T2),  # the conflict was resolved with main's version
        "theirs.html": unix(T2),  # -s ours dropped the side's newer change
        "revert.html": unix(T1),  # changed and reverted on the side: unchanged on main
        "same.html": unix(T2),  # the same change on both sides: git follows the first parent
    }
    assert_matches_git_log(repo)


def test_a_merge_with_the_tree_of_both_parents_follows_the_first(repo: Path) -> None:
    commit(repo, {"a.html": "a", "b.html": "b"}, when=T1)
    checkout(repo, "side", create=True)
    commit(repo, {"a.html": "same"}, when=T3)
    checkout(repo, "main")
    commit(repo, {"a.html": "same"}, when=T2)
    merge(repo, "side", when=T4)

    assert read_git_history(repo).dates == {"a.html": unix(T2), "b.html": unix(T1)}
    assert_matches_git_log(repo)


def test_fast_forwardable_and_octopus_merges(repo: Path) -> None:
    commit(repo, {"a.html": "a", "b.html": "b", "c.html": "c"}, when=T1)
    checkout(repo, "feature", create=True)
    commit(repo, {"a.html": "a2"}, when=T2)
    checkout(repo, "main")
    merge(repo, "feature", when=T3)  # the merge's tree equals its second parent's
    checkout(repo, "one", create=True)
    commit(repo, {"b.html": "b2"}, when=T4)
    checkout(repo, "main")
    checkout(repo, "two", create=True)
    commit(repo, {"c.html": "c2"}, when=T5)
    checkout(repo, "main")
    merge(repo, "one", "two", when=T6)

    # Each merge is the branch's change: the merged branches' commits are not walked.
    assert read_git_history(repo).dates == {
        "a.html": unix(T3),
        "b.html": unix(T6),
        "c.html": unix(T6),
    }
    assert_matches_git_log(repo)


@pytest.mark.parametrize("strategy", [("-s", "ours"), ()], ids=["-s ours", "octopus"])
def test_an_octopus_merge_dates_only_what_it_brought_into_the_branch(
    repo: Path, strategy: tuple[str, ...]
) -> None:
    # -s ours keeps main's tree: the side commits gave b.html and c.html content HEAD never got.
    commit(repo, {"a.html": "a", "b.html": "b", "c.html": "c"}, when=T1)
    for branch, name, when in (("one", "b.html", T2), ("two", "c.html", T3)):
        checkout(repo, branch, create=True)
        commit(repo, {name: f"{name} on {branch}"}, when=when)
        checkout(repo, "main")
    commit(repo, {"a.html": "a2"}, when=T4)
    merge(repo, "one", "two", when=T6, options=strategy)

    got = read_git_history(repo).dates
    if strategy:
        assert got == {"a.html": unix(T4), "b.html": unix(T1), "c.html": unix(T1)}
    else:
        assert got == {"a.html": unix(T4), "b.html": unix(T6), "c.html": unix(T6)}
    assert_matches_git_log(repo)


def test_an_octopus_merge_with_one_parent_equal_to_it(repo: Path) -> None:
    # The merge's tree equals its second parent's, so -m prints nothing for that parent.
    commit(repo, {"a.html": "a", "b.html": "b"}, when=T1)
    checkout(repo, "one", create=True)
    commit(repo, {"a.html": "a on one", "b.html": "b on one"}, when=T2)
    checkout(repo, "two", create=True)  # two holds one's work and more
    commit(repo, {"b.html": "b on two"}, when=T3)
    checkout(repo, "main")
    git(repo, "merge", "-q", "--no-ff", "--no-commit", "-s", "ours", "one", "two", check=False)
    git(repo, "checkout", "two", "--", ".")  # the result: two's tree exactly
    git(repo, "commit", "-q", "-m", "octopus", when=T6)

    assert read_git_history(repo).dates == {"a.html": unix(T6), "b.html": unix(T6)}
    assert_matches_git_log(repo)


def random_history(repo: Path, seed: int, steps: int = 45) -> None:
    """Branches, merges (clean, conflicting, -X ours/theirs, -s ours), deletions, re-adds."""
    rng = random.Random(seed)
    names = [f"p{index}.html" for index in range(10)] + ["d/x.html", "d/y.html", "e f.html"]
    contents = ["one\n", "two\n", "three\n"]  # few values, so sides often agree or revert
    merge_options = [(), (), ("-X", "ours"), ("-X", "theirs"), ("-s", "ours")]
    times = clock(T1)
    commit(repo, {name: rng.choice(contents) for name in names}, when=next(times))
    branches = ["main"]
    for step in range(steps):
        roll = rng.random()
        if roll < 0.15:
            branches.append(f"b{step}")
            checkout(repo, branches[-1], create=True)
        elif roll < 0.3:
            checkout(repo, rng.choice(branches))
        elif roll < 0.45:
            other = rng.choice(branches)
            if not is_ancestor(repo, other):
                merge(repo, other, when=next(times), options=rng.choice(merge_options))
        elif roll < 0.5:  # an octopus that keeps this branch's tree
            others = [branch for branch in branches if not is_ancestor(repo, branch)]
            if len(others) >= 2:
                chosen = rng.sample(others, 2)
                merge(repo, *chosen, when=next(times), options=("-s", "ours"))
        else:
            changes: dict[str | bytes, str | None] = {}
            for name in rng.sample(names, rng.randint(1, 3)):
                deleting = (repo / name).exists() and rng.random() < 0.1
                changes[name] = None if deleting else rng.choice(contents)
            commit(repo, changes, when=next(times))
    checkout(repo, "main")
    for other in branches[1:4]:
        if not is_ancestor(repo, other):
            merge(repo, other, when=next(times), options=("-X", "theirs"))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_file_matches_git_log_on_a_random_history(repo: Path, seed: int) -> None:
    random_history(repo, seed)

    assert_matches_git_log(repo)
    assert_matches_git_log(repo, repo / "d")


def test_an_empty_repository_has_no_dates(repo: Path) -> None:
    write(repo, {"index.html": "not committed yet"})

    assert read_git_history(repo) == GitHistory(
        dates={}, dirty=frozenset({"index.html"}), shallow=False
    )


def test_a_shallow_clone_is_reported(repo: Path, tmp_path: Path) -> None:
    commit(repo, {"a.html": "a", "b.html": "b"}, when=T1)
    commit(repo, {"b.html": "b2"}, when=T2)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", repo.as_uri(), str(clone))

    history = read_git_history(clone)

    assert history.shallow is True
    # History stops at the cut, so git itself dates a.html at T2: the reason for the flag.
    assert history.dates == {"a.html": unix(T2), "b.html": unix(T2)}
    assert read_git_history(repo).shallow is False


@pytest.fixture
def outside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    plain = tmp_path / "plain"
    plain.mkdir()
    # Even if the temporary directory sits inside some repository, git must not look above.
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    return plain


def test_outside_a_work_tree(outside: Path) -> None:
    assert find_work_tree(outside) is None
    assert find_work_tree(outside / "missing") is None
    with pytest.raises(GitError, match=r"not .*git work tree"):
        read_git_history(outside)


def test_inside_the_git_dir_is_not_a_work_tree(repo: Path) -> None:
    assert find_work_tree(repo / ".git") is None
    with pytest.raises(GitError):
        read_git_history(repo / ".git")


def test_without_git_installed(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    commit(repo, {"a.html": "a"}, when=T1)
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))

    assert find_work_tree(repo) is None
    with pytest.raises(GitError, match="cannot run git"):
        read_git_history(repo)


def test_find_work_tree_returns_the_top(repo: Path) -> None:
    (repo / "a" / "b").mkdir(parents=True)

    assert find_work_tree(repo) == repo.resolve()
    assert find_work_tree(repo / "a" / "b") == repo.resolve()


@pytest.fixture
def count_commits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the commits read from git log, to see the early stop."""
    seen = [0]
    parse = git_source._parse_log

    def counting(stream: IO[bytes], relevant: set[bytes]) -> Iterator[NameOnlyCommit]:
        for one in parse(stream, relevant):
            seen[0] += 1
            yield one

    monkeypatch.setattr(git_source, "_parse_log", counting)
    return seen


def test_wanted_paths_stop_the_log_early(repo: Path, count_commits: list[int]) -> None:
    commit(repo, {f"old{index}.html": "o" for index in range(5)}, when=T1)
    for index, when in enumerate((T2, T3, T4)):
        commit(repo, {f"old{index}.html": when}, when=when)
    commit(repo, {"new.html": "n", "old0.html": "again"}, when=T5)
    commit(repo, {"new.html": "n2"}, when=T6)
    full = read_git_history(repo)
    assert count_commits[0] == 6
    count_commits[0] = 0

    wanted = ["new.html", "old0.html", "untracked.html", "missing.html"]
    write(repo, {"untracked.html": "u"})
    partial = read_git_history(repo, wanted)

    assert partial.dates == {"new.html": unix(T6), "old0.html": unix(T5)}
    assert partial.dates == {path: full.dates[path] for path in partial.dates}
    assert count_commits[0] == 2
    assert "untracked.html" in partial.dirty


def test_wanted_gives_the_same_dates_on_a_random_history(repo: Path) -> None:
    random_history(repo, seed=7)
    full = read_git_history(repo)
    for wanted in (["p1.html"], ["d/x.html", "e f.html"], list(full.dates)[:5]):
        assert read_git_history(repo, wanted).dates == {
            path: full.dates[path] for path in wanted if path in full.dates
        }


def test_git_variables_of_a_hook_and_user_config_do_not_matter(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commit(repo, {"a.html": "a", "b.html": "b"}, when=T1)
    checkout(repo, "side", create=True)
    commit(repo, {"a.html": "a2"}, when=T2)
    checkout(repo, "main")
    commit(repo, {"b.html": "b2"}, when=T3)
    merge(repo, "side", when=T4)
    write(repo, {"u.html": "untracked"})
    expected = read_git_history(repo)
    other = make_repo(tmp_path / "other")
    config = tmp_path / "gitconfig"
    config.write_text(
        "[log]\n showRoot = false\n diffMerges = first-parent\n showSignature = true\n"
        "[diff]\n renames = copies\n relative = true\n"
        "[status]\n showUntrackedFiles = no\n"
        "[core]\n quotePath = true\n"
        "[color]\n ui = always\n"
    )
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other / ".git" / "index"))
    monkeypatch.setenv("GIT_OBJECT_DIRECTORY", str(other / ".git" / "objects"))
    monkeypatch.setenv("GIT_GLOB_PATHSPECS", "1")

    assert read_git_history(repo) == expected
    assert expected.dirty == {"u.html"}
