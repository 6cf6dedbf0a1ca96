"""Blocks of links beside a post: a heading over links to other pages of the site alone."""
# Shaped like a Jekyll Chirpy post of 2020 (structure copied, text our own): no <main>, no
# <article>; the post's <h1> and prose in a <div>, then a side panel <div> whose "Recent Update"
# and "Trending Tags" are each an <h3> over links to other pages of the site; the author removed
# the tag cloud from one post by hand (issue 79, cluster 10).

from __future__ import annotations

from sitemill.lastmod.fingerprint.digest import fingerprint_html
from sitemill.lastmod.fingerprint.versions import FINGERPRINT_VERSION

BASE = "https://blog.example.org"
CLOUD = (
    "<div id=access-tags><h3 data-toc-skip>Trending Tags</h3><div class='d-flex flex-wrap'>\n"
    "<a class=post-tag href=/tags/ftp/>FTP</a>\n<a class=post-tag href=/tags/cve/>CVE</a>\n"
    "<a class=post-tag href=/tags/smb/>SMB</a>\n</div></div>\n"
)
RECENT = (
    "<div id=access-lastmod><h3 data-toc-skip>Recent Update</h3><ul>\n"
    "<li><a href=/posts/box-one/>Box One writeup</a></li>\n"
    "<li><a href=/posts/box-two/>Box Two writeup</a></li>\n</ul></div>\n"
)
PROSE = (
    "<p>The machine runs an old FTP server that lets anyone log in without a password, and the "
    "upload folder is served by the web server as well.</p>\n<h2>Foothold</h2>\n<p>A shell "
    "uploaded through FTP gives us a session as the web user; from there the backup script "
    "that root runs every minute does the rest.</p>\n"
)


def post(panel: str = RECENT + CLOUD, body: str = PROSE, title: str = "Box Three writeup") -> bytes:
    return (
        f"<html><head><title>{title} | A Blog</title></head><body>\n"
        "<div id=sidebar><a href=/>A Blog</a><a href=/tabs/tags/>TAGS</a></div>\n"
        f"<div class=row><div id=post-wrapper><div class=post><h1 data-toc-skip>{title}</h1>\n"
        f"<div class=post-content>\n{body}</div></div></div>\n"
        f"<div id=panel-wrapper><div class=access>\n{panel}</div></div></div>\n"
        "</body></html>"
    ).encode()


def fingerprint(
    page: bytes, version: int = FINGERPRINT_VERSION, path: str = "/posts/box-three/"
) -> str:
    return fingerprint_html(page, version=version, url=BASE + path)


def test_a_tag_cloud_removed_by_hand_beside_a_post_moves_no_date() -> None:
    assert fingerprint(post(RECENT)) == fingerprint(post())


def test_a_recent_list_beside_a_post_is_furniture() -> None:
    other = RECENT.replace("/posts/box-two/>Box Two", "/posts/box-four/>Box Four")
    assert fingerprint(post(other + CLOUD)) == fingerprint(post())


def test_the_post_itself_still_counts() -> None:
    edited = PROSE.replace("every minute", "every hour")
    assert fingerprint(post(body=edited)) != fingerprint(post())


def test_a_posts_own_reading_list_of_other_sites_is_its_own() -> None:
    reading = (
        "<h3>Resources</h3><ul><li><a href=https://tools.example.net/a>A tool</a></li>"
        "<li><a href=https://tools.example.net/b>B tool</a></li></ul>\n"
    )
    edited = reading.replace("/b>B tool", "/c>C tool")
    assert fingerprint(post(body=PROSE + edited)) != fingerprint(post(body=PROSE + reading))


def test_links_with_words_between_them_are_prose() -> None:
    prose = (
        "<h3>See also</h3><p>First read <a href=/posts/box-one/>Box One</a>, then "
        "<a href=/posts/box-two/>Box Two</a>.</p>\n"
    )
    edited = prose.replace("First read", "Start with")
    assert fingerprint(post(body=PROSE + edited)) != fingerprint(post(body=PROSE + prose))


def tag_page(panel: str = RECENT + CLOUD) -> bytes:
    listing = (
        "<h1>FTP</h1><ul><li><a href=/posts/box-one/>Box One writeup</a></li>"
        "<li><a href=/posts/box-three/>Box Three writeup</a></li></ul>\n"
    )
    return (
        "<html><head><title>FTP | A Blog</title></head><body>\n"
        f"<div id=post-wrapper>{listing}</div>\n<div id=panel-wrapper>{panel}</div>\n"
        "</body></html>"
    ).encode()


def test_on_a_list_page_the_blocks_are_what_it_lists() -> None:
    assert fingerprint(tag_page(RECENT), path="/tags/ftp/") != fingerprint(
        tag_page(), path="/tags/ftp/"
    )


def test_a_list_emptied_at_the_end_of_a_post_is_furniture_too() -> None:
    emptied = "<div id=access-lastmod><h3 data-toc-skip>Recent Update</h3><ul>\n</ul></div>\n"
    assert fingerprint(post(emptied)) == fingerprint(post(RECENT))


def test_a_heading_over_a_heading_in_a_post_is_its_own() -> None:
    body = PROSE + "<h2>Root</h2>\n<h3>Cron</h3><p>The script runs as root.</p>\n"
    edited = body.replace("<h2>Root</h2>", "<h2>Privilege escalation</h2>")
    assert fingerprint(post(body=edited)) != fingerprint(post(body=body))


def test_a_list_emptied_before_another_block_is_furniture_too() -> None:
    emptied = "<div id=access-lastmod><h3 data-toc-skip>Recent Update</h3><ul>\n</ul></div>\n"
    assert fingerprint(post(emptied + CLOUD)) == fingerprint(post(RECENT + CLOUD))
