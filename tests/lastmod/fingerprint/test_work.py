"""The work a fingerprint does for each page (issue 64): what it does once a process is not
done again for every page."""

from __future__ import annotations

import re

import pytest

from sitemill.lastmod.fingerprint.digest import fingerprint_html


def test_a_page_compiles_no_expression(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every expression a fingerprint uses is compiled once a process: re's module functions
    with a pattern string (re.match(r"...", url)) look it up in re's cache on each call, and
    a share button's query is read without an expression of the page's URL."""

    def page(n: int) -> bytes:
        return (
            f"<title>Page {n}</title><main><h1>Page {n}</h1><p>See <a href='../p{n + 1}.html'>"
            f"the next</a>, <img src='i{n}.png'> ( one ) two.</p></main>"
        ).encode()

    fingerprint_html(page(0), url="https://example.com/a/p0.html")  # (what is compiled lazily)
    compiled: list[object] = []
    real = re._compile  # type: ignore[attr-defined]

    def counted(*args: object) -> object:
        compiled.append(args[0])
        return real(*args)

    monkeypatch.setattr(re, "_compile", counted)
    for n in range(1, 20):
        fingerprint_html(page(n), url=f"https://example.com/a/p{n}.html")
    assert compiled == []
