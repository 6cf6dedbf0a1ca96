"""A second run at the commit the state saw reads no git history (lastmod.history.seen): it
starts no ``git log``, and writes the bytes a first run at that commit writes; anything else
that could move a date walks the history again."""

from __future__ import annotations

import gzip
import json
import random
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gitutil import clock, commit, git, make_repo
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.git.run import Git
from sitemill.jobs import _treeseen as treeseen
from sitemill.sinks import LocalDirSink

BASE = "https://example.com/"
SECTIONS = ("blog", "docs")


def themed(words: str, theme: int) -> str:
    """A page as a generator writes it: a theme's furniture (its asset names and footer move
    with ``theme``) around the page's own words."""
    return (
        f'<!DOCTYPE html><html><head><link rel="stylesheet" href="/main.{theme}.css">'
        f"<title>{words.split()[0]}</title></head><body><nav>Home Blog Docs</nav>"
        f"<main><article><h1>{words.split()[0]}</h1><p>{words}</p>"
        f"<p>Read {'More' if theme % 2 else 'more'}</p></article></main>"
        f"<footer>theme {theme}</footer></body></html>\n"
    )


@pytest.fixture
def commands(monkeypatch: pytest.MonkeyPatch) -> list[Sequence[str]]:
    """The git commands sitemill starts (its Git runner's command lines), in order."""
    started: list[Sequence[str]] = []
    command = Git.command

    def counted(self: Git, args: Sequence[str], **options: Any) -> list[str]:
        started.append(tuple(args))
        return command(self, args, **options)

    monkeypatch.setattr(Git, "command", counted)
    return started


def run(repo: Path, out: Path, **values: Any) -> bytes:
    """One build of ``repo`` into ``out`` (its state beside the sitemaps): the sitemap."""
    config = load_config({"base_url": BASE, "workers": "1", **values})
    build_from_tree(config, repo, LocalDirSink(out), output_dir=out)
    return (out / "sitemap.xml").read_bytes()


def logs(commands: list[Sequence[str]]) -> list[Sequence[str]]:
    return [args for args in commands if args and args[0] == "log"]


def site(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "site")
    times = clock("2024-01-10 09:00:00", 86400)
    pages = {f"{s}/p{n}.html": f"{s} {n} first words" for s in SECTIONS for n in range(6)}
    commit(repo, {path: themed(words, 1) for path, words in pages.items()}, next(times))
    commit(repo, {"blog/p1.html": themed("blog 1 better words", 1)}, next(times))
    pages["blog/p1.html"] = "blog 1 better words"
    commit(repo, {path: themed(words, 2) for path, words in pages.items()}, next(times))
    return repo


def test_a_second_run_with_nothing_new_starts_no_git_log(
    tmp_path: Path, commands: list[Sequence[str]]
) -> None:
    repo, out = site(tmp_path), tmp_path / "out"
    first = run(repo, out)
    assert logs(commands)  # (the first run walks the history)
    commands.clear()
    assert run(repo, out) == first
    assert logs(commands) == [] and not [args for args in commands if args[0] == "cat-file"]
    commands.clear()
    assert run(repo, out) == first  # (the record is kept for the run after)
    assert logs(commands) == []
    history = json.loads(gzip.decompress((out / STATE_NAME).read_bytes()))["history"]
    assert history["seen"] == git(repo, "rev-parse", "HEAD").decode().strip()
    assert len(history["dates"]) == 12 and not any("/" in item for item in history["dates"])


def fresh_with(repo: Path, scratch: Path, values: dict[str, Any]) -> bytes:
    """A first run's sitemap (no state)."""
    scratch.mkdir(exist_ok=True)
    out = scratch / f"fresh-{len(list(scratch.iterdir()))}"
    return run(repo, out, **values)


def without_record(out: Path, copy: Path) -> Path:
    """A copy of the output folder ``out`` whose state has no history record: a run from it
    walks the history as every run did before the record."""
    shutil.copytree(out, copy)
    document = json.loads(gzip.decompress((copy / STATE_NAME).read_bytes()))
    del document["history"]
    (copy / STATE_NAME).write_bytes(gzip.compress(json.dumps(document).encode()))
    return copy


@pytest.mark.parametrize(
    ("change", "walks"),
    [
        ("commit", True),
        ("dirty", True),
        ("ignore", True),
        ("excluded", True),
        ("forged", True),
        ("partial", True),  # (a partial clone's walk may miss old versions, and says so)
        ("untracked", False),  # (a file git does not track has no history to walk)
        ("nothing", False),
    ],
)
def test_anything_that_may_move_a_date_walks_the_history_again(
    tmp_path: Path, commands: list[Sequence[str]], change: str, walks: bool
) -> None:
    # Each second run writes what the same run from the state without its record writes.
    repo, out = site(tmp_path), tmp_path / "out"
    run(repo, out)
    values: dict[str, Any] = {}
    if change == "commit":
        commit(repo, {"docs/p2.html": themed("docs 2 new words", 2)}, "2024-02-01 09:00:00")
    elif change == "dirty":
        (repo / "docs/p2.html").write_text(themed("docs 2 new words", 2))
    elif change == "untracked":
        (repo / "docs/p9.html").write_text(themed("docs 9 words", 2))
    elif change == "ignore":
        values = {"fingerprint_ignore": ["theme"]}
    elif change == "excluded":
        values = {"exclude": ["blog/p3.html"]}
    elif change == "partial":
        git(repo, "config", "remote.origin.promisor", "true")
    elif change == "forged":
        document = json.loads(gzip.decompress((out / STATE_NAME).read_bytes()))
        document["history"]["dates"][0] = "7fffffff"  # (a date the state never found)
        (out / STATE_NAME).write_bytes(gzip.compress(json.dumps(document).encode()))
    expected = run(repo, without_record(out, tmp_path / "plain"), **values)
    commands.clear()
    assert run(repo, out, **values) == expected
    assert bool(logs(commands)) is walks


def test_a_record_of_other_dating_code_walks_the_history_again(
    tmp_path: Path, commands: list[Sequence[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A sitemill whose dating rules changed (same version number) finds the dates anew once.
    repo, out = site(tmp_path), tmp_path / "out"
    first = run(repo, out)
    monkeypatch.setattr(treeseen, "DATING_RULES", "rules of another sitemill")
    commands.clear()
    assert run(repo, out) == first
    assert logs(commands)
    commands.clear()
    assert run(repo, out) == first  # (and remembers them for the code that found them)
    assert logs(commands) == []


def test_a_record_for_another_commit_is_not_used(
    tmp_path: Path, commands: list[Sequence[str]]
) -> None:
    # A force-push back to an older commit: the state's commit is not HEAD's.
    repo, out = site(tmp_path), tmp_path / "out"
    run(repo, out)
    git(repo, "reset", "-q", "--hard", "HEAD~1")
    commands.clear()
    assert run(repo, out) == fresh_with(repo, tmp_path / "scratch", {})
    assert logs(commands)


def random_history(repo: Path, rng: random.Random, times: Any, steps: int) -> None:
    """Commits of every kind a site's history holds, one at a time."""
    live = {path.relative_to(repo).as_posix(): path.read_text() for path in repo.rglob("*.html")}
    theme = 3
    for _ in range(steps):
        kind = rng.choice(["edit", "template", "template", "rename", "delete", "readd", "add"])
        files: dict[str | bytes, bytes | str | None] = {}
        paths = sorted(live)
        if kind == "edit" and paths:
            path = rng.choice(paths)
            files[path] = themed(f"{path} words {rng.randrange(1000)}", theme)
        elif kind == "template":  # (most pages of the site, one theme's edit)
            theme += 1
            for path in rng.sample(paths, k=max(1, 3 * len(paths) // 4)):
                files[path] = themed(f"{path} same words", theme)
        elif kind == "rename" and paths:
            path = rng.choice(paths)
            target = f"{rng.choice(SECTIONS)}/r{rng.randrange(100)}.html"
            if target not in live:
                files[path], files[target] = None, live[path]
        elif kind == "delete" and len(paths) > 3:
            files[rng.choice(paths)] = None
        elif kind in ("readd", "add"):
            files[f"{rng.choice(SECTIONS)}/p{rng.randrange(8)}.html"] = themed("back words", theme)
        for path, text in files.items():
            if text is None:
                live.pop(str(path), None)
            else:
                live[str(path)] = str(text)
        commit(repo, files, next(times))


@pytest.mark.parametrize("seed", range(4))
def test_later_runs_write_what_a_first_run_writes(
    tmp_path: Path, commands: list[Sequence[str]], seed: int
) -> None:
    # After any sequence of commits, a run from the last run's state and the run after it
    # (nothing new: no git log) write byte for byte what a first run at that commit writes.
    rng = random.Random(seed)
    repo, out = site(tmp_path), tmp_path / "out"
    times = clock("2024-03-01 09:00:00", 86400)
    run(repo, out)
    for _ in range(4):
        random_history(repo, rng, times, rng.randrange(1, 4))
        expected = fresh_with(repo, tmp_path / "scratch", {})
        assert run(repo, out) == expected
        commands.clear()
        assert run(repo, out) == expected
        assert logs(commands) == []


def test_commits_that_change_no_dated_file_keep_the_record(
    tmp_path: Path, commands: list[Sequence[str]]
) -> None:
    # The GitHub Action commits the sitemaps and the state after each run: the next run's
    # HEAD is that commit, whose first-parent line since the record's changed no dated file.
    repo, out = make_repo(tmp_path / "repo"), tmp_path / "out"
    times = clock("2024-01-10 09:00:00", 86400)
    for theme in (1, 2):
        pages = {
            f"public/{s}/p{n}.html": themed(f"{s} {n} words", theme)
            for s in SECTIONS
            for n in range(5)
        }
        commit(repo, pages, next(times))
    site = repo / "public"
    first = run(site, out)
    seen = json.loads(gzip.decompress((out / STATE_NAME).read_bytes()))["history"]
    commit(repo, {"README.md": "notes"}, next(times))
    commit(repo, {"README.md": "more notes"}, next(times))
    assert run(site, without_record(out, tmp_path / "plain")) == first
    commands.clear()
    assert run(site, out) == first
    # (one log of the new commits' file names, none over the whole history)
    assert [args for args in logs(commands) if not any(".." in arg for arg in args)] == []
    assert json.loads(gzip.decompress((out / STATE_NAME).read_bytes()))["history"] == seen
    commit(repo, {"public/docs/p1.html": themed("docs 1 new words", 2)}, next(times))
    expected = run(site, without_record(out, tmp_path / "plain2"))
    commands.clear()
    assert run(site, out) == expected
    assert [args for args in logs(commands) if not any(".." in arg for arg in args)]


def test_a_record_of_a_merged_branch_s_commit_is_not_used(
    tmp_path: Path, commands: list[Sequence[str]]
) -> None:
    # The record's commit is an ancestor of HEAD, but not on its first-parent line.
    repo, out = site(tmp_path), tmp_path / "out"
    git(repo, "checkout", "-q", "-b", "topic")
    commit(repo, {"notes.txt": "x"}, "2024-02-01 09:00:00")
    run(repo, out)
    git(repo, "checkout", "-q", "main")
    commit(repo, {"other.txt": "y"}, "2024-02-02 09:00:00")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge", "topic", when="2024-02-03 09:00:00")
    expected = run(repo, without_record(out, tmp_path / "plain"))
    commands.clear()
    assert run(repo, out) == expected
    assert [args for args in logs(commands) if not any(".." in arg for arg in args)]
