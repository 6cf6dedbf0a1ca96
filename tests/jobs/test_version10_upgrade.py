"""Fingerprint version 10 (issue 79: structured data that restates the page says nothing new). A
state of version 9 is no longer computable (issue 80: docs/lastmod.md keeps the current and the
previous version): on the upgrade a build folder's pages, which hold no blob, take the evidence
ladder (a CI build's one file time: no date), and the next edit a reader sees moves its page's
date."""

from __future__ import annotations

import json
from pathlib import Path

from sitemill.filenames.outputs import STATE_NAME
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, fingerprint_html
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.state.parse import parse_state
from upgrades import BASE, SPREAD, as_version, run, sitemap_lastmods, write_pages

T1, T2, T3 = 1_700_000_000, 1_710_000_000, 1_720_000_000


def post(words: str) -> bytes:
    """A Docusaurus post whose JSON-LD restates it (its types, its byline as its author's node,
    its own crumb): version 9 counted what version 10 reads as said already."""
    ld = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "@id": f"{BASE}news/one",
        "headline": "Release one",
        "author": {"@type": "Person", "name": "Ann Lee", "url": "https://github.com/annlee"},
        "breadcrumb": {
            "@type": "BreadcrumbList",
            "itemListElement": [{"@type": "ListItem", "position": 1, "item": f"{BASE}news/one"}],
        },
    }
    return (
        "<!DOCTYPE html><html><head><title>Release one | Leaf</title>"
        f'<script type="application/ld+json">{json.dumps(ld)}</script></head><body><main>'
        '<h1>Release one</h1><a href="https://github.com/annlee">Ann Lee</a>'
        f"<p>{words}</p></main></body></html>\n"
    ).encode()


def pages(words: str = "What one brings.") -> dict[str, bytes]:
    return {
        "news/one/index.html": post(words),
        "other.html": b"<!DOCTYPE html><html><head><title>Other</title></head><body><main>"
        b"<h1>Other</h1><p>No JSON-LD.</p></main></body></html>\n",
    }


def lastmods(out: Path) -> dict[str, str]:
    return sitemap_lastmods((out / "sitemap.xml").read_text())


def test_a_state_of_version_9_takes_the_ladder_and_then_sees_an_edit(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    write_pages(site, pages(), T1, spread=True)
    run(site, out)
    first = lastmods(out)
    assert first == {
        "news/one/": lastmod_from_timestamp(T1, Precision.DATETIME),
        "other.html": lastmod_from_timestamp(T1 - SPREAD, Precision.DATETIME),
    }
    as_version(site, out, 9)
    data = (site / "news/one/index.html").read_bytes()
    current = fingerprint_html(data, url=BASE + "news/one/index.html")

    write_pages(site, pages(), T2, spread=False)  # (a CI build: every page anew, none changed)
    report = run(site, out)
    assert lastmods(out) == {} and report.dates == {"no date (file times are one build's)": 2}
    state = parse_state((out / STATE_NAME).read_bytes())
    assert state.fingerprint_version == FINGERPRINT_VERSION == 13  # (written anew, in 13)
    assert state.pages["news/one/index.html"].fingerprint == current

    write_pages(site, pages("What one brings, and a fix."), T3, spread=False)
    report = run(site, out)
    assert lastmods(out) == {"news/one/": lastmod_from_timestamp(T3, Precision.DATETIME)}
    assert report.dates == {"no date (unchanged, none remembered)": 1, "content changed": 1}
