"""Dates with a table of contents put in: fingerprint version 11 (issue 79), a git checkout."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from gitutil import commit, make_repo, unix
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.report import Report
from sitemill.sinks import LocalDirSink
from sitemill.state.parse import parse_state

BASE = "https://example.com/"
G1, G2, G3 = "2024-01-10 09:00:00", "2024-02-20 10:00:00", "2024-03-30 11:00:00"
BODY = (
    '<h2 id="friends">Friends</h2><p>Projects that use it.</p>'
    '<h3 id="isis">Apache Isis</h3><p>A framework.</p>'
    '<h2 id="license">License</h2><p>Apache 2.0.</p>'
)
# wicket's "Fixed toc" (issue 79, heldout79: 60 pages dated by it): a div#toc put in.
TOC = (
    '<section class="toc"><div id="toc"><div id="toc-title"><h2>Table of Contents</h2></div>'
    '<ul><li><a href="#friends"><span>1</span> <span>Friends</span></a><ul><li>'
    '<a href="#isis"><span>1.1</span> <span>Apache Isis</span></a></li></ul></li>'
    '<li><a href="#license"><span>2</span> License</a></li></ul></div></section>'
)


def render(title: str, toc: str, body: str = BODY) -> str:
    return (
        f"<!DOCTYPE html><html><head><title>{title} | Wicket</title></head><body><header>Wicket"
        f"</header><section><h1>{title}</h1>{toc}{body}</section></body></html>\n"
    )


def run(repo: Path, out: Path) -> Report:
    config = load_config({"base_url": BASE, "lastmod": "git"})
    return build_from_tree(config, repo, LocalDirSink(out), output_dir=out)


def lastmods(out: Path) -> dict[str, str]:
    text = (out / "sitemap.xml").read_text()
    return dict(re.findall(r"<loc>https://example.com/(.*?)</loc><lastmod>(.*?)</lastmod>", text))


def w3c(when: str) -> str:
    return lastmod_from_timestamp(unix(when), Precision.DATETIME)


def test_a_table_of_contents_put_in_keeps_each_page_s_date(tmp_path: Path) -> None:
    repo, out = make_repo(tmp_path / "site"), tmp_path / "out"
    commit(repo, {"apache.html": render("Friends", ""), "b.html": render("B", "")}, G1)
    edited = BODY.replace("2.0", "2.1")
    commit(repo, {"b.html": render("B", "", edited)}, G2)
    commit(repo, {"apache.html": render("Friends", TOC), "b.html": render("B", TOC, edited)}, G3)
    run(repo, out)
    assert lastmods(out) == {"apache.html": w3c(G1), "b.html": w3c(G2)}


def test_a_state_of_version_10_is_outdated_and_every_date_stays(tmp_path: Path) -> None:
    # A state written by version 10 (which counted the table of contents) is no longer computable
    # (issue 80: the current and the previous version only, 11 and 12): its pages are dated by
    # their history anew, read by this version's fingerprint, which finds the same dates, and it
    # is written anew in the current version.
    repo, out = make_repo(tmp_path / "site"), tmp_path / "out"
    commit(repo, {"apache.html": render("Friends", ""), "b.html": render("B", "")}, G1)
    commit(repo, {"apache.html": render("Friends", TOC), "b.html": render("B", TOC)}, G2)
    run(repo, out)
    first = lastmods(out)
    assert first == {"apache.html": w3c(G1), "b.html": w3c(G1)}
    state = out / STATE_NAME
    document = json.loads(gzip.decompress(state.read_bytes()))
    document["fingerprint_version"] = 10
    for record in document["pages"].values():
        record["fingerprint"] = "0123456789abcdef0123456789abcdef"  # (never compared)
    state.write_bytes(gzip.compress(json.dumps(document).encode(), mtime=0))
    report = run(repo, out)
    assert lastmods(out) == first and report.dates == {"kept": 2}
    assert parse_state(state.read_bytes()).fingerprint_version == FINGERPRINT_VERSION
