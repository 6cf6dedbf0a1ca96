"""check.sameurl: a URL written as its key is read off as it is, and the key is urlsplit's."""

from __future__ import annotations

import random

import pytest

from sitemill.check import served as sameurl

PIECES = [
    "http://", "https://", "HTTPS://", "ftp://", "//", "example.org", "Example.ORG", "ex-1.org",
    ":443", ":80", ":8080", "user@", "[::1]", "[", "]", "/", "/docs/", "page.html", "%20", "%2F",
    "?q=1", "?", "#top", "#", " ", "\t", "\n", "\x00", "\x7f", "é", "ü", "Ａ", ".", "..", "~a",
    "@", ":", ";", "=", "&", "+", "!", "$", "'", "(", ")", "*", ",", "_", "\\", "^", "`", "{",
    "|", "}", '"', "<", ">",
]  # fmt: skip


def test_the_key_is_urlsplits_for_any_url() -> None:
    draw = random.Random(64)
    urls = ["https://example.org", "http://example.org/", "https://example.org/a b"]
    for _ in range(20_000):
        urls.append("".join(draw.choice(PIECES) for _ in range(draw.randint(1, 8))))
        urls.append(draw.choice(["http://", "https://"]) + "".join(
            draw.choice(PIECES[5:]) for _ in range(draw.randint(1, 6))))  # fmt: skip
    for url in urls:
        assert sameurl.resource_key(url) == sameurl._parsed_key(url), url


def test_a_plain_url_asks_nothing_of_urlsplit(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(url: str) -> object:
        raise AssertionError(f"urlsplit of {url}")

    monkeypatch.setattr(sameurl, "urlsplit", refused)
    page = "https://example.org/en/docs/page-1.html"
    assert sameurl.resource_key(page) == ("https", "example.org", "/en/docs/page-1.html", "")
    assert sameurl.resource_key("http://example.org") == ("http", "example.org", "/", "")
    assert sameurl.same_url(page, "https://example.org/en/docs/page-1.html")
