"""Deterministic inputs for the benchmarks: a URL list and a git repository, cached on disk."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

BASE_URL = "https://www.example.com/"
_2024 = int(datetime(2024, 1, 1, tzinfo=UTC).timestamp())
_SECONDS_IN_2024 = 366 * 86_400
_2023 = int(datetime(2023, 1, 1, tzinfo=UTC).timestamp())
# Bump when the shape of a generated input changes, so stale caches are rebuilt.
_URLS_VERSION = 1
_REPO_VERSION = 1


def w3c(timestamp: int) -> str:
    """`YYYY-MM-DDThh:mm:ss+00:00`, the form sitemill writes."""
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")


# --- URL list -------------------------------------------------------------------------------


def listed_urls(count: int) -> Iterator[tuple[str, int]]:
    """The URL list's lines as (url, lastmod timestamp): distinct URLs, lastmods spread over 2024.

    7919 is prime and shares no factor with the seconds in 2024, so every lastmod is distinct
    and they are not in URL order (an index child's lastmod is then a real maximum).
    """
    for i in range(count):
        url = f"{BASE_URL}section-{i // 1000}/page-{i % 1000}.html"
        yield url, _2024 + (i * 7919) % _SECONDS_IN_2024


def ensure_url_list(directory: Path, count: int) -> Path:
    """The URL list of `count` lines (URL, TAB, lastmod), written once and then reused."""
    path = directory / f"urls-{count}.v{_URLS_VERSION}.tsv"
    if path.is_file():
        return path
    directory.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    with open(partial, "w", encoding="utf-8", newline="\n") as handle:
        handle.writelines(f"{url}\t{w3c(stamp)}\n" for url, stamp in listed_urls(count))
    partial.replace(path)
    return path


# --- git repository -------------------------------------------------------------------------


@dataclass(frozen=True)
class RepoPlan:
    """A site of `files` HTML pages in nested folders, written by `commits` dated commits."""

    files: int
    commits: int

    def path_of(self, index: int) -> str:
        """Page `index` sits in one of files/10 leaf folders; each folder's first page is index."""
        folders = max(self.files // 10, 1)
        leaf = index % folders
        folder = f"section-{leaf % 10}/part-{leaf // 10 % 10}/chapter-{leaf // 100}"
        name = "index.html" if index < folders else f"page-{index}.html"
        return f"{folder}/{name}"

    def url_of(self, index: int) -> str:
        """The URL sitemill's default `directory` style gives the page."""
        path = self.path_of(index)
        return BASE_URL + path.removesuffix("index.html")

    def history(self) -> Iterator[tuple[int, list[int]]]:
        """(commit timestamp, pages it writes) per commit, oldest first.

        Each commit adds its share of new pages and edits up to five older ones, so the last
        commit touching a page (its lastmod) varies from page to page.
        """
        per_commit = -(-self.files // self.commits)
        for k in range(self.commits):
            added = list(range(k * per_commit, min((k + 1) * per_commit, self.files)))
            existing = k * per_commit
            edited = {(k * 7919 + j * 104_729) % existing for j in range(5)} if existing else set()
            yield _2023 + k * 7 * 3600 + (k * 37) % 3600, added + sorted(edited)

    def expected_lastmods(self) -> dict[str, int]:
        """URL → timestamp of the last commit that touched its page."""
        last: dict[int, int] = {}
        for stamp, pages in self.history():
            for page in pages:
                last[page] = stamp
        return {self.url_of(page): stamp for page, stamp in last.items()}

    def fast_import_stream(self) -> bytes:
        """The whole history as one `git fast-import` stream (author date = commit date)."""
        chunks: list[bytes] = []
        for number, (stamp, pages) in enumerate(self.history(), start=1):
            message = f"Commit {number}\n".encode()
            who = f"Bench <bench@example.com> {stamp} +0000"
            chunks.append(
                f"commit refs/heads/main\nauthor {who}\ncommitter {who}\n"
                f"data {len(message)}\n".encode()
                + message
            )
            for page in pages:
                body = (
                    f"<!doctype html>\n<html><head><title>Page {page}</title></head>"
                    f"<body><p>Page {page}, revision of commit {number}.</p></body></html>\n"
                ).encode()
                chunks.append(
                    f"M 100644 inline {self.path_of(page)}\ndata {len(body)}\n".encode() + body
                )
            chunks.append(b"\n")
        return b"".join(chunks)


def git_env() -> dict[str, str]:
    """This environment, without the user's or the system's git configuration."""
    return {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def run_git(*args: str, cwd: Path, stdin: bytes | None = None) -> None:
    env = git_env()
    subprocess.run(["git", *args], cwd=cwd, input=stdin, env=env, check=True, capture_output=True)


def ensure_git_repo(directory: Path, plan: RepoPlan) -> Path:
    """A checked-out repository with the plan's history, built once with `git fast-import`."""
    repo = directory / f"repo-{plan.files}-{plan.commits}.v{_REPO_VERSION}"
    if (repo / ".git").is_dir():
        return repo
    partial = repo.with_name(repo.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    run_git("init", "--quiet", "--initial-branch=main", cwd=partial)
    run_git("fast-import", "--quiet", cwd=partial, stdin=plan.fast_import_stream())
    run_git("checkout", "--quiet", "--force", "main", cwd=partial)
    partial.replace(repo)
    return repo
