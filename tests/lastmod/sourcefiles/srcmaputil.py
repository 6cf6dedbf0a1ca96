"""Helpers for the source map's tests: a repository view from a table of files, and a built
site on disk whose pages say what they are."""

from __future__ import annotations

from pathlib import Path

from sitemill.lastmod.sourcefiles.conventions.base import RepoView
from sitemill.lastmod.sourcefiles.sourcemap import source_map

PAGE = "<!DOCTYPE html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


def repo_view(files: dict[str, str]) -> RepoView:
    """A RepoView of ``files`` (path -> text), as srchist's HEAD reader gives one."""
    return RepoView(tuple(sorted(files)), files.get)


def build_site(root: Path, pages: dict[str, str], head: str = "") -> Path:
    """Built pages under ``root``: page path -> the text of its <main>."""
    for page, text in pages.items():
        path = root / page
        path.parent.mkdir(parents=True, exist_ok=True)
        body = f"<nav>Home Docs Blog</nav><main><p>{text}</p></main><footer>(c) site</footer>"
        path.write_text(PAGE.format(title=page, head=head, body=body), encoding="utf-8")
    return root


def mapped(
    tmp_path: Path, files: dict[str, str], site_dir: str, pages: list[str], head: str = ""
) -> dict[str, tuple[str, ...]]:
    """Each of ``pages`` (built under ``site_dir`` in a tmp repository) -> its sources."""
    root = build_site(tmp_path / site_dir, {page: f"text of {page}" for page in pages}, head)
    found = source_map(repo_view(files), site_dir, root)
    return {page: found.sources(page) for page in pages}


def prose(seed: str, words: int = 80) -> str:
    """A paragraph of ``words`` words that no other seed's paragraph shares a run of four with."""
    vocabulary = [f"{seed}{n}" if n % 3 == 0 else w for n, w in enumerate(_WORDS * 20)]
    return " ".join(vocabulary[:words])


_SENTENCE = (
    "the quick brown fox jumps over a lazy dog while every reader of this page learns how "
    "sitemaps work and why a date should come from evidence rather than from a build"
)
_WORDS = _SENTENCE.split(" ")
