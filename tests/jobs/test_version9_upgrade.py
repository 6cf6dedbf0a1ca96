"""Fingerprint version 9 (issue 79: a picture's resized copies and an auto-excerpt past a heading
are no content): a state of version 8 keeps every date on the upgrade, and the next edit a
reader sees moves its page's date."""

from __future__ import annotations

import gzip
import json
import os
import re
from pathlib import Path

from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.jobs.tree import build_from_tree
from sitemill.lastmod.fingerprint.digest import fingerprint_html
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.report import Report
from sitemill.sinks import LocalDirSink
from sitemill.state.parse import parse_state

BASE = "https://example.com/"
T1, T2, T3 = 1_700_000_000, 1_710_000_000, 1_720_000_000
SPREAD = 45 * 86_400


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
    """Every page written fresh, as a CI build does (``spread``: each SPREAD before the last)."""
    for index, (name, data) in enumerate((pages() if caption is None else pages(caption)).items()):
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        stamp = when - index * SPREAD if spread else when
        os.utime(path, (stamp, stamp))


def run(site: Path, out: Path) -> Report:
    config = load_config({"base_url": BASE, "lastmod": "mtime"})
    return build_from_tree(config, site, LocalDirSink(out), output_dir=out)


def lastmods(out: Path) -> dict[str, str]:
    text = (out / "sitemap.xml").read_text()
    return dict(re.findall(r"<loc>https://example.com/(.*?)</loc><lastmod>(.*?)</lastmod>", text))


def as_version_8(site: Path, out: Path) -> None:
    """The state in ``out`` as sitemill of fingerprint version 7 wrote it."""
    path = out / STATE_NAME
    document = json.loads(gzip.decompress(path.read_bytes()))
    document["fingerprint_version"] = 8
    for name, record in document["pages"].items():
        if name.endswith(".html"):
            data = (site / name).read_bytes()
            record["fingerprint"] = fingerprint_html(data, version=8, url=BASE + name)
    path.write_bytes(gzip.compress(json.dumps(document).encode(), mtime=0))


def test_a_state_of_version_8_keeps_every_date_and_then_sees_an_edit(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    write(site, T1, spread=True)
    run(site, out)
    first = lastmods(out)
    assert first == {
        "japan.html": lastmod_from_timestamp(T1, Precision.DATETIME),
        "other.html": lastmod_from_timestamp(T1 - SPREAD, Precision.DATETIME),
    }
    as_version_8(site, out)
    data = (site / "japan.html").read_bytes()
    by_8 = fingerprint_html(data, version=8, url=BASE + "japan.html")
    by_9 = fingerprint_html(data, version=9, url=BASE + "japan.html")
    assert by_8 != by_9  # (the upgrade changes the gallery's fingerprint)

    write(site, T2, spread=False)  # (a CI build: every page written anew, none changed)
    report = run(site, out)
    assert lastmods(out) == first and report.dates == {"kept": 2}
    state = parse_state((out / STATE_NAME).read_bytes())
    assert state.fingerprint_version == 9  # (written anew, in version 9)
    assert state.pages["japan.html"].fingerprint == by_9

    write(site, T3, spread=False, caption="Glico, Dotonbori.")
    report = run(site, out)
    assert lastmods(out) == {
        **first,
        "japan.html": lastmod_from_timestamp(T3, Precision.DATETIME),
    }
    assert report.dates == {"kept": 1, "content changed": 1}
