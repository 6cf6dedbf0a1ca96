"""What a crawler reading the live sitemap.xml right now would find: for consistency checks."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable

Read = Callable[[str], bytes | None]
_LOC = re.compile(rb"<loc>(.*?)</loc>")


def locs(data: bytes) -> list[str]:
    if data.startswith(b"\x1f\x8b"):
        data = gzip.decompress(data)
    return [loc.decode() for loc in _LOC.findall(data)]


def live_urls(read: Read, entry: str = "sitemap.xml") -> list[str]:
    """Every URL the live entry file lists (through its children); fails on a missing child."""
    data = read(entry)
    assert data is not None, f"{entry} is missing"
    if b"<sitemapindex" not in data[:500]:
        return locs(data)
    urls: list[str] = []
    for child_url in locs(data):
        name = child_url.rpartition("/")[2]
        child = read(name)
        assert child is not None, f"{entry} names {name}, which is missing"
        urls += locs(child)
    return urls


def assert_one_build(read: Read, *builds: list[str]) -> None:
    """The live sitemap lists each URL once, and exactly the URLs of one of ``builds``."""
    urls = live_urls(read)
    assert len(urls) == len(set(urls)), "a URL is listed twice: children of two builds mixed"
    assert sorted(urls) in [sorted(build) for build in builds], "the live URLs match no build"
