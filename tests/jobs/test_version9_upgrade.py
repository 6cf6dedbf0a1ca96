"""Fingerprint version 9 (issue 79: a picture's resized copies and an auto-excerpt past a heading
are no content). A state of version 8 is no longer computable (issue 80: docs/lastmod.md keeps the
current and the previous version): on the upgrade a build folder's pages, which hold no blob, take
the evidence ladder (a CI build's one file time: no date), and the next edit a reader sees moves
its page's date."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemill.filenames.outputs import STATE_NAME
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, fingerprint_html
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.state.parse import parse_state
from upgrades import BASE, SPREAD, as_version, run, sitemap_lastmods, write_pages

T1, T2, T3 = 1_700_000_000, 1_710_000_000, 1_720_000_000


def gallery(caption: str) -> bytes:
    """A gallery page whose picture has resized copies (version 9 leaves them out) and whose
    description is its summary past a heading (version 9: an excerpt)."""
    return (
        "<!DOCTYPE html><html><head><title>Japan | Photos</title><meta name=description"
        ' content="Osaka The sign by the canal, at night, in the rain of late June."></head>'
        "<body><main><h1>Japan</h1><h2>Osaka</h2><p>The sign by the canal, at night, in the rain"
        f' of late June.</p><picture><source srcset="/osaka.640.webp 640w"><img src="/osaka.jpg"'
        f' srcset="/osaka-480.jpg 480w"></picture><p>{caption}</p></main></body></html>\n'
    ).encode()


def pages(caption: str = "Glico.") -> dict[str, bytes]:
    return {
        "japan.html": gallery(caption),
        "other.html": b"<!DOCTYPE html><html><head><title>Other</title></head><body><main>"
        b"<h1>Other</h1><p>No pictures.</p></main></body></html>\n",
    }


def write(site: Path, when: int, *, spread: bool, caption: str | None = None) -> None:
    write_pages(site, pages() if caption is None else pages(caption), when, spread=spread)


def lastmods(out: Path) -> dict[str, str]:
    return sitemap_lastmods((out / "sitemap.xml").read_text())


def test_a_state_of_version_8_takes_the_ladder_and_then_sees_an_edit(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    write(site, T1, spread=True)
    run(site, out)
    first = lastmods(out)
    assert first == {
        "japan.html": lastmod_from_timestamp(T1, Precision.DATETIME),
        "other.html": lastmod_from_timestamp(T1 - SPREAD, Precision.DATETIME),
    }
    as_version(site, out, 8)
    data = (site / "japan.html").read_bytes()
    with pytest.raises(ValueError, match="not computable"):
        fingerprint_html(data, version=8, url=BASE + "japan.html")

    write(site, T2, spread=False)  # (a CI build: every page written anew, none changed)
    report = run(site, out)
    assert lastmods(out) == {} and report.dates == {"no date (file times are one build's)": 2}
    state = parse_state((out / STATE_NAME).read_bytes())
    assert state.fingerprint_version == FINGERPRINT_VERSION and not state.outdated
    assert state.pages["japan.html"].fingerprint == fingerprint_html(data, url=BASE + "japan.html")

    write(site, T3, spread=False, caption="Glico, Dotonbori.")
    report = run(site, out)
    assert lastmods(out) == {"japan.html": lastmod_from_timestamp(T3, Precision.DATETIME)}
    assert report.dates == {"no date (unchanged, none remembered)": 1, "content changed": 1}
