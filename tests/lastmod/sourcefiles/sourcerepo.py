"""A source repository with a built site inside it (untracked public/), for rung 2's tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from gitutil import commit, make_repo, unix
from sitemill.lastmod.sourcefiles.conventions.base import RepoView

BASE = "https://www.example.com/"


def page(title: str, body: str, **front: str) -> str:
    """A markdown source with YAML front matter."""
    lines = [f"title: {title}", *(f"{key}: {value}" for key, value in front.items())]
    return "---\n" + "\n".join(lines) + "\n---\n\n" + body + "\n"


def html(text: str) -> str:
    head = f"<!doctype html><html><head><title>{text}</title></head>"
    return f"{head}<body><main><p>{text}</p></main></body></html>"


class TableMap:
    """A SourceMap test double: a fixed table of page -> sources; it also notes what it saw."""

    def __init__(self, table: Mapping[str, tuple[str, ...]]) -> None:
        self.table = dict(table)
        self.files: tuple[str, ...] = ()
        self.site_dir = ""

    def sources(self, page: str) -> tuple[str, ...]:
        return self.table.get(page, ())

    def mapper(self) -> Callable[[RepoView, str, Path], TableMap]:
        def made(repo: RepoView, site_dir: str, site_root: Path) -> TableMap:
            self.files, self.site_dir = repo.files, site_dir
            return self

        return made


def source_repo(tmp_path: Path, history: list[tuple[str, Mapping[str, str | None]]]) -> Path:
    """A repository whose commits are ``history`` ((when, files) in order), ignoring
    public/, with public/ built: one page per source content/<name>.md -> <name>.html."""
    repo = make_repo(tmp_path / "repo")
    commit(repo, {".gitignore": "public/\n"}, "2020-01-01T00:00:00")
    for when, files in history:
        commit(repo, files, when, message=f"edit at {when}")
    build_site(repo)
    return repo


def build_site(repo: Path) -> Path:
    site = repo / "public"
    site.mkdir(exist_ok=True)
    for source in sorted((repo / "content").glob("*.md")):
        (site / f"{source.stem}.html").write_text(html(source.stem))
    return site


def at(when: str) -> str:
    """The lastmod of a commit at ``when`` (UTC), at full precision."""
    return f"{when}+00:00" if unix(when) else when
