"""When and how often a tree's run reads and judges its pages (issue 64: the per-page work)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gitutil import clock, commit, make_repo
from sitemill import urlstyle
from treeruns import hold_log_until_reads, outputs

PAGES = 12


def site(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "site")
    times = clock("2024-01-10T09:00:00+00:00", 86400)
    for build in range(3):
        pages = {
            f"d{n % 3}/p{n}.html": f"<title>Page {n}</title><p>Build {build}, page {n}.</p>"
            for n in range(PAGES)
        }
        commit(repo, pages, next(times))
    return repo


def build(repo: Path, out: Path, **settings: object) -> dict[str, bytes]:
    return outputs(repo, out, workers=1, **settings)


def test_a_plain_run_reads_the_pages_while_git_log_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Git's dates, not content dates: the pipeline waits for git log before its first page,
    # so this process reads the pages' heads meanwhile (it read them after, as the pipeline
    # took them). git log's answer is held until read_pages returns: the order is the code's.
    repo = site(tmp_path)
    taken, taken_by_then = hold_log_until_reads(monkeypatch)
    written = build(repo, tmp_path / "out", content_dates=False, lastmod="git")
    assert taken_by_then == [1] and taken == ["chunk"]
    assert written["sitemap.xml"].count(b"<lastmod>2024-01-12") == PAGES


def test_the_url_style_asks_the_rules_only_of_pages_that_name_a_canonical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # url_style = "auto" counts the pages whose canonical names them; a page that names none
    # casts no vote whatever include, exclude, rules and robots.txt say of it, and is not
    # judged by them for it (the pipeline judges every page once, later).
    repo = site(tmp_path)
    (repo / "c.html").write_text(
        '<link rel="canonical" href="https://example.com/c.html"><title>C</title>'
    )
    asked: list[str] = []
    real = urlstyle.reads_head

    def reads_head(config: Any, robots: Any, path: str) -> bool:
        asked.append(path)
        return real(config, robots, path)

    monkeypatch.setattr(urlstyle, "reads_head", reads_head)
    written = build(repo, tmp_path / "out")
    assert asked == ["c.html"]
    assert written["sitemap.xml"].count(b"<loc>") == PAGES + 1
