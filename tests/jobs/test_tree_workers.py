"""A tree read by worker processes: the same sitemaps and state, byte for byte, as one
process (a worker's log records reaching this process: tests/workers/test_workpool.py)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import treeruns
from gitutil import commit, make_repo
from sitemill.entries import Page
from sitemill.errors import SourceError
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs import _treereads as treereads
from sitemill.jobs import treedating
from sitemill.sources.tree import TreeFile
from sitemill.workers import workpool
from treeruns import BASE

WHEN = ("2024-01-10 09:00:00", "2024-02-20 10:00:00", "2024-03-30 11:00:00")


def page(n: int, text: str, build: int) -> str:
    head = f'<title>Page {n}</title><link rel="stylesheet" href="/a.{build}.css">'
    if n % 7 == 3:
        head += '<meta name="robots" content="noindex">'
    if n % 5 == 1:
        head += f'<link rel="canonical" href="{BASE}p{n - 1}.html">'
    return (
        f"<!DOCTYPE html><html><head>{head}</head><body><nav>Menu {build}</nav>"
        f'<main><h1>Page {n}</h1><p>{text}</p><img src="/img/{n}.png" alt=""></main>'
        f"<footer>© {2020 + build}</footer></body></html>"
    )


def site(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path / "site")
    pages = range(60)
    images = {f"img/{n}.png": b"\x89PNG" for n in pages}
    commit(repo, {**images, **{f"p{n}.html": page(n, "First words.", 1) for n in pages}}, WHEN[0])
    # Every page re-rendered (furniture), a third of the articles edited.
    edited = {n: "Edited." if n % 3 == 0 else "First words." for n in pages}
    commit(repo, {f"p{n}.html": page(n, edited[n], 2) for n in pages}, WHEN[1])
    commit(repo, {f"p{n}.html": page(n, edited[n], 3) for n in pages}, WHEN[2])
    (repo / "docs.pdf").write_bytes(b"%PDF-1.4 not committed")
    return repo


def outputs(repo: Path, out: Path, workers: int) -> dict[str, bytes]:
    return treeruns.outputs(repo, out, workers=workers, images=True)


def test_one_worker_and_four_write_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = site(tmp_path)
    monkeypatch.setattr(workpool, "MIN_POOL_BYTES", 0)  # a pool even for this small site
    started: list[int] = []
    real_start = workpool.WorkPool._start

    def counted(self: workpool.WorkPool) -> object:
        started.append(self.workers)
        return real_start(self)

    monkeypatch.setattr(workpool.WorkPool, "_start", counted)
    one = outputs(repo, tmp_path / "one", 1)
    assert started == []  # one worker: no process started
    four = outputs(repo, tmp_path / "four", 4)
    assert started and set(started) == {4}
    assert one.keys() == four.keys() >= {"sitemap.xml", STATE_NAME}
    assert one == four
    text = one["sitemap.xml"].decode()
    assert "p3.html" not in text  # noindex, read by a worker
    assert "p1.html" not in text  # canonical to p0
    assert text.count("<image:loc>") > 0
    # Content dates: the edited articles carry the second commit, the others the first.
    assert "<loc>https://example.com/p9.html</loc><lastmod>2024-02-20T10:00:00+00:00" in text
    assert "<loc>https://example.com/p4.html</loc><lastmod>2024-01-10T09:00:00+00:00" in text
    # The second run, from the state, is the same again with either number of workers.
    again_one = outputs(repo, tmp_path / "one", 1)
    again_four = outputs(repo, tmp_path / "four", 4)
    assert again_one == again_four == one


def plain_site(folder: Path) -> Path:
    """Pages with no git history (mtime dates): the pipeline takes them as workers read."""
    folder.mkdir()
    for n in range(60):
        path = folder / f"p{n}.html"
        path.write_text(page(n, "Words.", 1))
        os.utime(path, (1_700_000_000 + n * 86_400,) * 2)  # a day apart: no build's stamp
    return folder


def test_without_history_a_later_run_starts_the_pipeline_before_the_last_chunk_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = plain_site(tmp_path / "site")
    monkeypatch.setattr(workpool, "MIN_POOL_BYTES", 0)
    events: list[str] = []
    real_take, real_pages = treereads.PageReads._take, treedating.TreeDating.pages

    def take(self: treereads.PageReads) -> None:
        events.append("chunk")
        real_take(self)

    def pages(self: treedating.TreeDating, files: Iterable[TreeFile]) -> Iterator[Page]:
        for item in real_pages(self, files):
            events.append("page")
            yield item

    monkeypatch.setattr(treereads.PageReads, "_take", take)
    monkeypatch.setattr(treedating.TreeDating, "pages", pages)
    one = outputs(folder, tmp_path / "one", 1)
    assert events == ["chunk"] + ["page"] * 60  # one process: read first, then the pipeline
    events.clear()
    four = outputs(folder, tmp_path / "four", 4)
    chunks = len(workpool.cut(range(60), 4))
    # A first run: every page's declared dates are in before the first page is dated (the
    # build-stamp check is made over all of them).
    assert events == ["chunk"] * chunks + ["page"] * 60 and chunks > 1
    assert one == four
    events.clear()
    assert outputs(folder, tmp_path / "four", 4) == four  # a run from the state: no wait
    assert events.count("chunk") == chunks
    assert events.index("page") < len(events) - 1 - events[::-1].index("chunk")
    text = one["sitemap.xml"].decode()
    assert "p3.html" not in text and "p1.html" not in text  # noindex, canonical: both read
    assert "<loc>https://example.com/p58.html</loc><lastmod>2024-01-11T22:13:20+00:00" in text


def test_a_chunk_that_fails_late_publishes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = plain_site(tmp_path / "site")
    monkeypatch.setattr(workpool, "MIN_POOL_BYTES", 0)
    # Threads stand in for the processes, so that the failure below reaches the workers.
    monkeypatch.setattr(workpool, "_executor", lambda workers: ThreadPoolExecutor(workers))
    real_chunk = treereads._read_chunk

    def failing(*arguments: Any) -> treereads.PageReads:
        files = arguments[-1][0]
        if any(file.path == "p58.html" for file in files):
            raise SourceError(f"cannot read {folder / 'p58.html'}: Input/output error")
        return real_chunk(*arguments)

    monkeypatch.setattr(treereads, "_read_chunk", failing)
    out = tmp_path / "out"
    with pytest.raises(SourceError, match=r"p58\.html: Input/output error"):
        outputs(folder, out, 4)
    assert not out.exists() or not [name for name in os.listdir(out) if name.endswith(".xml")]
