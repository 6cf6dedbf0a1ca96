"""sitemill.bounded.inflate: gzip inflated no further than its bound, in bounded memory,
whatever a few MB hold (a 2 GiB bomb), and exactly what gzip gives below the bound."""

from __future__ import annotations

import gzip
import tracemalloc

import pytest

from bombs import GIB, gzip_bomb
from sitemill.bounded.inflate import inflate, inflate_chunks, inflate_head
from sitemill.errors import InflateError, SitemillError

MB = 1024 * 1024


def test_a_bomb_stops_at_the_bound_in_bounded_memory() -> None:
    bomb = gzip_bomb(b"<urlset>")
    tracemalloc.start()
    try:
        with pytest.raises(InflateError, match=r"sitemap\.xml\.gz inflates to more than"):
            inflate(bomb, 50 * MB, what="sitemap.xml.gz")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 * MB
    assert issubclass(InflateError, SitemillError)


def test_the_chunks_of_a_bomb_are_each_bounded_to_its_end() -> None:
    total = biggest = 0
    for chunk in inflate_chunks(gzip_bomb(b"<urlset>", 256 * MB), GIB, chunk=MB):
        total += len(chunk)
        biggest = max(biggest, len(chunk))
    assert (total, biggest) == (256 * MB, MB)


def test_below_the_bound_it_is_what_gzip_gives() -> None:
    data = b"<urlset>" + bytes(range(256)) * 1000
    two_members = gzip.compress(data[:100], mtime=0) + gzip.compress(data[100:], mtime=0)
    assert inflate(gzip.compress(data), len(data)) == data
    assert inflate(two_members, len(data)) == data
    assert inflate(gzip.compress(b""), 0) == b""
    assert inflate(gzip.compress(data) + b"\n\0\0", len(data)) == data  # trailing: as gzip(1)
    with pytest.raises(InflateError, match="more than one gzip member"):
        inflate(two_members, len(data), single=True)
    with pytest.raises(InflateError, match="more than"):
        inflate(gzip.compress(data), len(data) - 1)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"not gzip", "is not gzip"),
        (gzip.compress(b"x" * 1000, mtime=0)[:-12], "is cut off"),
        (gzip.compress(b"x", mtime=0)[:5], "is cut off"),
    ],
    ids=["not gzip", "cut in its data", "cut in its header"],
)
def test_what_is_no_whole_gzip_is_an_error(data: bytes, reason: str) -> None:
    with pytest.raises(InflateError, match=reason):
        inflate(data, MB, what="the file")


def test_a_head_is_read_from_a_bomb_or_from_the_first_bytes_of_a_file() -> None:
    bomb = gzip_bomb(b"<urlset>")
    assert inflate_head(bomb, 64) == b"<urlset>" + b" " * 56
    assert inflate_head(bomb[:1000], 8) == b"<urlset>"
    assert inflate_head(b"plain", 8) is None
