"""Helpers for tests of a fingerprint upgrade: a site written as a CI build writes it, built by
file times, and its state made as an earlier sitemill wrote it."""

from __future__ import annotations

import gzip
import json
import os
import re
from pathlib import Path

from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import STATE_NAME
from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    FINGERPRINT_VERSION,
    fingerprint_html,
)
from sitemill.protocol import Precision, lastmod_from_timestamp
from sitemill.report import Report
from sitemill.sinks import LocalDirSink

BASE = "https://example.com/"
SPREAD = 45 * 86_400


def write_pages(site: Path, files: dict[str, bytes], when: int, *, spread: bool) -> None:
    """Every page written fresh, as a CI build does (``spread``: each SPREAD before the last)."""
    for index, (name, data) in enumerate(files.items()):
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        stamp = when - index * SPREAD if spread else when
        os.utime(path, (stamp, stamp))


def run(site: Path, out: Path) -> Report:
    """A build of ``site`` into ``out``, dated by file times (and the state there)."""
    config = load_config({"base_url": BASE, "lastmod": "mtime"})
    return build_from_tree(config, site, LocalDirSink(out), output_dir=out)


def sitemap_lastmods(text: str) -> dict[str, str]:
    """Each page of a sitemap's ``text`` (its path under BASE) and its lastmod."""
    return dict(re.findall(r"<loc>https://example.com/(.*?)</loc><lastmod>(.*?)</lastmod>", text))


def as_version(site: Path, out: Path, version: int) -> None:
    """The state in ``out`` as sitemill of fingerprint ``version`` wrote it (a version this
    one cannot compute: its fingerprints some other hash, never compared: State.outdated)."""
    path = out / STATE_NAME
    document = json.loads(gzip.decompress(path.read_bytes()))
    document["fingerprint_version"] = version
    for name, record in document["pages"].items():
        if name.endswith(".html"):
            data = (site / name).read_bytes()
            record["fingerprint"] = (
                fingerprint_html(data, version=version, url=BASE + name)
                if version in {FINGERPRINT_VERSION, *EARLIER_VERSIONS}
                else "0123456789abcdef0123456789abcdef"
            )
    path.write_bytes(gzip.compress(json.dumps(document).encode(), mtime=0))


# A page no fingerprint version reads otherwise: beside the pages an upgrade test is about.
OTHER_PAGE = (
    b"<!DOCTYPE html><html><head><title>Other</title></head><body><main>"
    b"<h1>Other</h1><p>No JSON-LD.</p></main></body></html>\n"
)


def lastmods(out: Path) -> dict[str, str]:
    """Each page of the sitemap built into ``out`` and its lastmod."""
    return sitemap_lastmods((out / "sitemap.xml").read_text())


def first_build(site: Path, out: Path, files: dict[str, bytes], when: int) -> dict[str, str]:
    """A first run over ``files`` written each SPREAD before ``when``: the lastmods it gave
    (the first page at ``when``, the next one SPREAD before, and so on)."""
    write_pages(site, files, when, spread=True)
    run(site, out)
    found = lastmods(out)
    assert found == {
        name.removesuffix("index.html"): lastmod_from_timestamp(
            when - i * SPREAD, Precision.DATETIME
        )
        for i, name in enumerate(files)
    }
    return found
