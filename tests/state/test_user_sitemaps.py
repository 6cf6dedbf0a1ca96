"""The state remembers the user's sitemaps a run found in a replaced index (folder-relative
names, deterministic); a state is input from outside: a list holding a name that climbs, is
absolute or is sitemill's own is dropped whole."""

from __future__ import annotations

import gzip
import json

import pytest

from sitemill.state.model import State, dump_state
from sitemill.state.parse import parse_state


def with_names(names: object) -> bytes:
    document = json.loads(gzip.decompress(dump_state(State())))
    document["user_sitemaps"] = names
    return gzip.compress(json.dumps(document).encode(), mtime=0)


def test_the_names_round_trip_sorted() -> None:
    state = State(found_sitemaps=frozenset({"docs/sitemap.xml", "blog-sitemap.xml"}))
    data = dump_state(state)
    assert b'"user_sitemaps":["blog-sitemap.xml","docs/sitemap.xml"]' in gzip.decompress(data)
    assert parse_state(data).found_sitemaps == state.found_sitemaps
    assert b"user_sitemaps" not in gzip.decompress(dump_state(State()))  # none: not written


@pytest.mark.parametrize(
    "names",
    [
        ["ok.xml", "../up.xml"],
        ["ok.xml", "/abs.xml"],
        ["ok.xml", "a//b.xml"],
        ["ok.xml", "sitemap-2.xml"],
        ["ok.xml", 3],
        ["ok.xml", "\udc80.xml"],  # (a lone surrogate: no URL can spell it)
        "ok.xml",
    ],
)
def test_a_list_with_a_bad_name_is_dropped(names: object) -> None:
    assert parse_state(with_names(names)).found_sitemaps == frozenset()


def test_the_robots_lines_sitemill_wrote_round_trip_and_a_bad_list_is_dropped() -> None:
    urls = frozenset({"https://shop.example.net/sitemap.xml", "https://example.com/a.xml"})
    data = dump_state(State(robots_sitemaps=urls))
    assert parse_state(data).robots_sitemaps == urls
    assert b"robots_sitemaps" not in gzip.decompress(dump_state(State()))  # none: not written
    document = json.loads(gzip.decompress(data))
    for bad in (["https://ok.example/a.xml", "ftp://x/a.xml"], ["https://a b/"], "https://x/"):
        document["robots_sitemaps"] = bad
        forged = gzip.compress(json.dumps(document).encode(), mtime=0)
        assert parse_state(forged).robots_sitemaps == frozenset()
