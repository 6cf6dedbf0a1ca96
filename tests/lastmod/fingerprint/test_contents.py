"""A table of contents is furniture wherever it stands (fingerprint version 11, issue 79)."""

from __future__ import annotations

from sitemill.lastmod.fingerprint.digest import fingerprint_html
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION

URL = "https://example.org/apache/"
BODY = (
    b'<h2 id="friends">Friends</h2><p>Projects that use it.</p>'
    b'<h3 id="isis">Apache Isis</h3><p>A framework.</p>'
    b'<h2 id="license">License</h2><p>Apache 2.0.</p>'
)
# A generated table of contents put in beside the content (wicket's div#toc, issue 79's heldout79
# cluster: 60 pages): its title a heading, its entries numbered links to the page's own headings.
TOC = (
    b'<section class="toc left"><div id="toc"><div id="toc-title"><h2>Table of Contents</h2></div>'
    b'<ul><li><a href="#friends"><span>1</span> <span>Friends</span></a><ul><li>'
    b'<a href="#isis"><span>1.1</span> <span>Apache Isis</span></a></li></ul></li>'
    b'<li><a href="/apache/#license"><span>2</span> License</a></li></ul></div></section>'
)


def page(toc: bytes, body: bytes = BODY) -> bytes:
    return b"<title>Friends | Wicket</title><main><h1>Friends</h1>" + toc + body + b"</main>"


def printed(data: bytes, version: int = FINGERPRINT_VERSION) -> str:
    return fingerprint_html(data, version=version, url=URL, main=True)


def test_a_table_of_contents_put_in_moves_no_date() -> None:
    assert printed(page(TOC)) == printed(page(b""))
    # (version 12 too, the previous one: version 10, which counted it, is no longer computable)
    assert printed(page(TOC), 12) == printed(page(b""), 12)


def test_a_table_of_contents_outside_the_main_region_too() -> None:
    before = b"<title>T</title><body><h1>Friends</h1>" + BODY + b"</body>"
    after = b"<title>T</title><body><h1>Friends</h1>" + TOC + BODY + b"</body>"
    assert printed(after) == printed(before)


def test_a_fragment_link_whose_words_are_no_heading_stays() -> None:
    # A footnote, "back to top": links to the page's own fragments, but no heading's words.
    for link in (b'<a href="#fn1">1</a>', b'<a href="#top">Back to top</a>'):
        assert printed(page(b"<p>See " + link + b".</p>")) != printed(page(b"<p>See .</p>"))
    # Prose around an entry stays: only the link's words go.
    prose = page(b'<p>Read <a href="#license">License</a> first.</p>')
    assert printed(prose) != printed(page(b""))
    # A link to another page whose words are a heading's is no entry.
    other = page(b'<ul><li><a href="/other/#friends">Friends</a></li></ul>')
    assert printed(other) != printed(page(b""))


def test_a_heading_over_one_entry_keeps_its_title_words() -> None:
    # The title goes only over at least two entries; the entry itself goes.
    one = page(b'<h2>On this page</h2><a href="#license">License</a>')
    assert printed(one) == printed(page(b"<h2>On this page</h2>"))
    assert printed(one) != printed(page(b""))


def test_an_edit_of_a_heading_still_moves_the_date() -> None:
    edited = BODY.replace(b">License</h2>", b">Licence</h2>")
    assert printed(page(TOC, edited)) != printed(page(TOC))
