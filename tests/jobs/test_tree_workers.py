"""A tree read by worker processes: the same sitemaps and state, byte for byte, as one
process (a worker's log records reaching this process: tests/core/test_workpool.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gitutil import commit, make_repo
from sitemill import workpool
from sitemill.config.model import load_config
from sitemill.jobs.tree import build_from_tree
from sitemill.outputs import STATE_NAME
from sitemill.sinks import LocalDirSink

BASE = "https://example.com/"
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
    config = load_config({"base_url": BASE, "workers": workers, "images": True})
    build_from_tree(config, repo, LocalDirSink(out))
    return {name: (out / name).read_bytes() for name in sorted(os.listdir(out))}


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
