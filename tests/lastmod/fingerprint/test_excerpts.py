"""A meta description that is the page's own text cut short adds nothing (fingerprint.excerpts)."""

from __future__ import annotations

from sitemill.lastmod.fingerprint.digest import fingerprint_html
from sitemill.lastmod.fingerprint.excerpts import MIN_LETTERS, is_excerpt, letters

BODY = (
    "<p>Posted on 2019-07-04</p><p>TCP/IP's layers each do one job: the link layer moves "
    'frames, the "network" layer routes packets.</p>'
)
PAGE = '<title>TCP/IP</title><meta name="description" content="{}"><main>' + BODY + "</main>"


def test_an_excerpt_recut_and_re_escaped_moves_nothing() -> None:
    # Hexo NexT's upgrade: another length, cut mid-word, quotes escaped anew.
    old = PAGE.format("TCP/IP&#39;s layers each do one job: the link layer mo...")
    new = PAGE.format("TCP/IP's layers each do one job: the link layer moves frames, the &quot;net")
    assert fingerprint_html(old.encode()) == fingerprint_html(new.encode())
    # It adds nothing beyond the text: the page reads as without it.
    assert fingerprint_html(old.encode()) == fingerprint_html(
        PAGE.replace('<meta name="description" content="{}">', "").encode()
    )


def test_a_description_an_author_wrote_stays_content() -> None:
    old = PAGE.format("How the layers of TCP/IP split the work of a network.")
    new = PAGE.format("How the layers of TCP/IP divide the work of a network.")
    assert fingerprint_html(old.encode()) != fingerprint_html(new.encode())


def test_a_short_description_the_page_happens_to_hold_stays_content() -> None:
    assert len(letters("the link layer")) < MIN_LETTERS
    assert not is_excerpt("the link layer", letters(BODY))
    old, new = PAGE.format("the link layer"), PAGE.format("the network layer")
    assert fingerprint_html(old.encode()) != fingerprint_html(new.encode())


def test_letters_are_case_folded_without_marks_or_punctuation() -> None:
    assert letters("It's \x01H/a\x01ÉTÉ\x01E\x01, 2024!") == "itsété2024"


LIST = '<title>{}</title><meta name="description" content="{}"><main><h2>centos7</h2>{}</main>'
TEASERS = '<article><a href="/a/">Install nginx</a></article>'


def test_a_description_that_repeats_the_title_adds_nothing_beyond_it() -> None:
    # Hexo Matery writes a list page's title as its description: the site renamed in every
    # title changes the description too, and the title counts by its parts alone.
    old = LIST.format("Category: centos7 | Old Blog", "Category: centos7 | Old Blog", TEASERS)
    without = "<title>Category: centos7 | Old Blog</title><main><h2>centos7</h2>" + TEASERS
    assert fingerprint_html(old.encode()) == fingerprint_html((without + "</main>").encode())
    # One that is a part of the title (the page's own, the site's name) too.
    for part in ("Category: centos7", "Old Blog"):
        own = LIST.format("Category: centos7 | Old Blog", part, TEASERS)
        assert fingerprint_html(own.encode()) == fingerprint_html(old.encode())
    # A short description that a part of the title merely holds stays content ("More.").
    short = LIST.format("Getting started &amp; more", "More.", TEASERS)
    assert fingerprint_html(short.encode()) != fingerprint_html(
        LIST.format("Getting started &amp; more", "", TEASERS).encode()
    )
    # A description with words the title does not hold stays content.
    more = LIST.format("centos7 | Old Blog", "Posts about centos7 servers", TEASERS)
    edited = more.replace("servers", "hosts")
    assert fingerprint_html(more.encode()) != fingerprint_html(edited.encode())
