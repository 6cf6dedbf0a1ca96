"""Another site's link spelled in RFC 3986's normal form as far as percent-encoding goes
(fingerprint version 6): a generator upgrade that writes "%7b" where it wrote "%7B", or "~"
where it wrote "%7E", re-spells every post's outside link without moving where it leads
(section 6.2.2.1: the hex digits of an escape are case-insensitive; 6.2.2.2: an escaped
unreserved character is the character). An escaped delimiter is another URL ("(" made "%28":
section 2.2), and versions before 6 keep every spelling as written. Shaped like a Hugo post
whose body links a shell variable's URL and a wiki page (text our own)."""

from __future__ import annotations

import pytest

from sitemill.lastmod.fingerprint.digest import fingerprint_html

URL = "https://example.org/posts/deploy/index.html"


def post(href: str) -> bytes:
    return (
        "<!DOCTYPE html><html><head><title>Deploying</title></head><body><main>"
        f'<h1>Deploying</h1><p>Open <a href="{href}">the console</a> and run it.</p>'
        "</main></body></html>"
    ).encode()


def fingerprint(href: str, version: int = 6) -> str:
    return fingerprint_html(post(href), url=URL, version=version)


@pytest.mark.parametrize(
    ("written", "rewritten"),
    [
        (
            "https://console.example.com/p/$%7BPROJECT%7D/run",
            "https://console.example.com/p/$%7bPROJECT%7d/run",
        ),
        ("https://wiki.example.com/~tea?q=%7Egreen", "https://wiki.example.com/%7Etea?q=~green"),
        ("https://wiki.example.com/Tea_%E8%8C%B6", "https://wiki.example.com/Tea_茶"),
    ],
)
def test_one_url_respelled_moves_version_6_only(written: str, rewritten: str) -> None:
    assert fingerprint(written) == fingerprint(rewritten)
    assert fingerprint(written, 5) != fingerprint(rewritten, 5)


@pytest.mark.parametrize(
    ("written", "rewritten"),
    [
        (
            "https://wiki.example.com/Dropbear_(software)",
            "https://wiki.example.com/Dropbear_%28software%29",
        ),
        ("https://wiki.example.com/a?x=1%26y=2", "https://wiki.example.com/a?x=1&y=2"),
        ("https://wiki.example.com/Tea", "https://wiki.example.com/Coffee"),
    ],
)
def test_an_escaped_delimiter_or_another_url_still_moves(written: str, rewritten: str) -> None:
    assert fingerprint(written) != fingerprint(rewritten)
