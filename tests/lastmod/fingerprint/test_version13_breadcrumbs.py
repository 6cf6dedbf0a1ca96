"""A breadcrumb is navigation wherever it stands, however a theme marks it (fingerprint version
13, issue 79). Pages shaped like TypeDoc's and Bootstrap themes' (structure copied, text our
own)."""

from __future__ import annotations

import pytest

from htmlutil import text_of
from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    fingerprint_html,
    reduce_html,
)

PREVIOUS = max(EARLIER_VERSIONS)
URL = "https://example.org/pool/modules/pool_Lock.html"


def typedoc(crumbs: str, members: str = "Lock") -> bytes:
    """TypeDoc's module page: no <main>, the breadcrumb beside the <h1> in tsd-page-title."""
    return (
        "<!DOCTYPE html><html><head><title>pool/Lock | pool</title></head><body>"
        '<header class="tsd-page-toolbar"><a href="../index.html">pool</a></header>'
        '<div class="col-content"><div class="tsd-page-title">'
        f"{crumbs}<h1>Module pool/Lock</h1></div>"
        f'<section><h2>Classes</h2><p>The lock <a href="../classes/{members}.html">{members}</a>'
        " guards the pool.</p></section></div></body></html>"
    ).encode()


ROOTED = (
    '<ul class="tsd-breadcrumb"><li><a href="../modules.html">pool</a></li>'
    '<li><a href="pool_Lock.html">pool/Lock</a></li></ul>'
)
# TypeDoc's next release: the root crumb gone, an aria-label put in, on every page alike.
ROOTLESS = (
    '<ul class="tsd-breadcrumb" aria-label="Breadcrumb">'
    '<li><a href="" aria-current="page">pool/Lock</a></li></ul>'
)


def printed(data: bytes, version: int | None = None) -> str:
    if version is None:
        return fingerprint_html(data, url=URL)
    return fingerprint_html(data, url=URL, version=version)


def test_a_breadcrumb_beside_the_page_s_headline_is_navigation() -> None:
    # node-json-db's modules at a3ca1bc: only the root crumb removed.
    assert printed(typedoc(ROOTED)) == printed(typedoc(ROOTLESS))
    assert "Module pool/Lock" in text_of(reduce_html(typedoc(ROOTLESS), url=URL))
    # The page's own words and links still count.
    assert printed(typedoc(ROOTED)) != printed(typedoc(ROOTED, members="Latch"))
    # (version 12 counted the crumbs: a state of 12 is compared by 12's bytes)
    assert printed(typedoc(ROOTED), PREVIOUS) != printed(typedoc(ROOTLESS), PREVIOUS)


# A page whose breadcrumb stands inside its <main>, marked as a theme marks it.
INSTALL = "<title>Install | Kit</title><body><main><h1>Install</h1>{}<p>Run the installer.</p>"


def bootstrap(crumbs: str) -> bytes:
    return (INSTALL.format(crumbs) + "</main></body>").encode()


@pytest.mark.parametrize(
    "start",
    [
        '<ol class="breadcrumb">',  # Bootstrap
        '<div class="wy-breadcrumbs" >',  # Read the Docs' theme
        "<div class='topbar BreadCrumbs'>",
        '<div aria-label="breadcrumbs navigation">',
        "<ol itemscope itemtype='https://schema.org/BreadcrumbList'>",
    ],
)
def test_a_breadcrumb_is_navigation_however_a_theme_marks_it(start: str) -> None:
    name = start[1:].split()[0]

    def crumbs(section: str) -> str:
        crumb = f'<li><a href="/{section}/">{section}</a></li>'
        return f'{start}<li><a href="/">Kit</a></li>{crumb}</{name}>'

    rooted, renamed = bootstrap(crumbs("guide")), bootstrap(crumbs("manual"))
    assert printed(rooted) == printed(renamed)
    assert text_of(reduce_html(rooted, url=URL)).endswith("Install Run the installer.")


@pytest.mark.parametrize(
    "start",
    [
        '<ol class="breadcrumb-item">',  # an item of one: the list is marked, not its items
        '<ol class="crumbs-list">',
        '<ol data-label="breadcrumb">',
        '<ol itemtype="https://schema.org/ItemList">',
    ],
)
def test_a_list_marked_otherwise_is_the_page_s(start: str) -> None:
    def listed(section: str) -> bytes:
        return bootstrap(f'{start}<li><a href="/{section}/">{section}</a></li></ol>')

    assert printed(listed("guide")) != printed(listed("manual"))


def test_a_page_classed_after_its_breadcrumb_is_no_breadcrumb() -> None:
    # A theme may class the body by what it holds (a page with no main region: its body).
    page = '<title>Install | Kit</title><body class="has-breadcrumbs"><h1>Install</h1><p>Run.</p>'
    assert text_of(reduce_html(page.encode(), url=URL)).endswith("Install Run.")
