"""A base URL change between two runs (a project site's path added, say): said once, dates
kept (the state is keyed by path), and IndexNow announces no page for it, against a local
engine on 127.0.0.1."""

from __future__ import annotations

import gzip
import json
import os
import re
from pathlib import Path

import pytest

from enginestand import KEY, Stand
from sitemill.cli.main import main

LATER = 2_000_000_000  # a fresh build: every file written again, same bytes


def write(site: Path, name: str, words: str) -> None:
    links = "".join(f'<a href="{other}.html">{other}</a>' for other in "abc")  # (relative)
    (site / name).write_text(
        f"<html><head><title>{name}</title></head><body><main><p>{words}</p>{links}"
        "</main></body></html>",
        encoding="utf-8",
    )


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SITEMILL_INDEXNOW_KEY", KEY)
    folder = tmp_path / "site"
    folder.mkdir()
    for name in ("a.html", "b.html", "c.html"):
        write(folder, name, f"words of {name}")
        when = 1_700_000_000 - "abc".index(name[0]) * 40 * 86_400  # months apart: evidence
        os.utime(folder / name, (when, when))
    return folder


def build(site: Path, stand: Stand, state: Path, base: str) -> int:
    options = ["--base-url", base, "--state", str(state), "--lastmod", "mtime"]
    options += ["--indexnow-endpoint", stand.origin + "/indexnow", "--indexnow"]
    return main(["build", str(site), *options])


def lastmods(site: Path) -> dict[str, str]:
    text = (site / "sitemap.xml").read_text(encoding="utf-8")
    found = re.findall(r"<loc>[^<]*/([a-z]\.html)</loc><lastmod>([^<]+)</lastmod>", text)
    return dict(found)


def test_a_base_url_change_is_said_once_keeps_dates_and_announces_nothing(
    site: Path, stand: Stand, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state = tmp_path / "private" / "state.json.gz"
    before, after = stand.origin + "/", stand.origin + "/project/"
    assert build(site, stand, state, before) == 0
    dates = lastmods(site)
    assert len(dates) == 3
    caplog.clear()
    for name in ("a.html", "b.html", "c.html"):  # rebuilt: new file times, same content
        os.utime(site / name, (LATER, LATER))
    assert build(site, stand, state, after) == 0
    assert caplog.text.count(f"every URL moved from {before} to {after}") == 1
    assert lastmods(site) == dates  # the same dates
    assert stand.posts == []  # nothing announced for the move
    document = json.loads(gzip.decompress(state.read_bytes()))
    assert document["base_url"] == after
    caplog.clear()
    assert build(site, stand, state, after) == 0
    assert "every URL moved" not in caplog.text  # once
    write(site, "b.html", "new words")  # a real change at the new base is announced
    assert build(site, stand, state, after) == 0
    assert [url for post in stand.posts for url in post["urlList"]] == [after + "b.html"]
