"""Fingerprint version 8 (a hidden tab panel is content). A state of version 8 is no longer
computable (issue 80: docs/lastmod.md keeps the current and the previous version): on the upgrade a
build folder's pages, which hold no blob, take the evidence ladder (a CI build's one file time: no
date), and the next edit inside a hidden tab panel moves its page's date."""

from __future__ import annotations

from pathlib import Path

from sitemill.filenames.outputs import STATE_NAME
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, fingerprint_html
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.state.parse import parse_state
from upgrades import BASE, SPREAD, as_version, run, sitemap_lastmods, write_pages

T1, T2, T3 = 1_700_000_000, 1_710_000_000, 1_720_000_000


def install(binary: str) -> bytes:
    """A Docusaurus install page: the Docker tab shown, the Binary tab's panel hidden."""
    return (
        "<!DOCTYPE html><html><head><title>Installation | Docs</title></head><body><main>"
        '<h1>Installation</h1><div class="tabs-container"><ul role="tablist">'
        '<li role="tab">Docker</li><li role="tab">Binary</li></ul>'
        '<div role="tabpanel" class="tabItem_s4ch"><p>Run the image with docker run.</p></div>'
        f'<div role="tabpanel" class="tabItem_s4ch" hidden=""><p>{binary}</p></div></div>'
        "</main></body></html>\n"
    ).encode()


def pages(binary: str = "Download the binary, then run answer init.") -> dict[str, bytes]:
    return {
        "install.html": install(binary),
        "other.html": b"<!DOCTYPE html><html><head><title>Other</title></head><body><main>"
        b"<h1>Other</h1><p>Nothing in tabs.</p></main></body></html>\n",
    }


def write(site: Path, when: int, *, spread: bool, binary: str | None = None) -> None:
    write_pages(site, pages() if binary is None else pages(binary), when, spread=spread)


def lastmods(out: Path) -> dict[str, str]:
    return sitemap_lastmods((out / "sitemap.xml").read_text())


def test_a_state_of_version_8_takes_the_ladder_and_then_sees_the_tabs(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    write(site, T1, spread=True)
    run(site, out)
    first = lastmods(out)
    assert first == {
        "install.html": lastmod_from_timestamp(T1, Precision.DATETIME),
        "other.html": lastmod_from_timestamp(T1 - SPREAD, Precision.DATETIME),
    }
    as_version(site, out, 8)
    data = (site / "install.html").read_bytes()

    write(site, T2, spread=False)  # (a CI build: every page written anew, none changed)
    report = run(site, out)
    assert lastmods(out) == {} and report.dates == {"no date (file times are one build's)": 2}
    state = parse_state((out / STATE_NAME).read_bytes())
    assert state.fingerprint_version == FINGERPRINT_VERSION and not state.outdated
    assert state.pages["install.html"].fingerprint == fingerprint_html(
        data, url=BASE + "install.html"
    )

    write(site, T3, spread=False, binary="Download the binary, then run answer init -C ./data/.")
    report = run(site, out)
    assert lastmods(out) == {"install.html": lastmod_from_timestamp(T3, Precision.DATETIME)}
    assert report.dates == {"no date (unchanged, none remembered)": 1, "content changed": 1}
