"""A site written for one host and deployed at another moves no date (issue 79, principles 4 and
7, ghost96): a Ghost export names ``http://localhost:8089`` in every page's canonical, JSON-LD and
menu until a deploy names the real host; its tag pages' JSON-LD then restated the page and its site
at the real host only, so the deploy dated them (4 tag pages of a Ghost 4 blog), and its 404 pages'
one link, ``http://localhost:8089`` made ``/``, stood on two of the deploy's three pages once the
JSON-LD read alike. Structure after Ghost 4's Casper export, text our own."""

from __future__ import annotations

import json
from pathlib import Path

from treedates import BASE, at, dated

EXPORT = "http://localhost:8089/"
TAGS = ("sync", "tasks", "windows", "privacy", "android")


def tag_page(host: str, tag: str, posts: int = 1) -> str:
    data = {
        "@context": "https://schema.org",
        "@type": "Series",
        "publisher": {"@type": "Organization", "name": "Field Notes", "url": host},
        "url": f"{host}tag/{tag}/",
        "name": tag.title(),
        "mainEntityOfPage": {"@type": "WebPage", "@id": host},
    }
    listed = "".join(
        f'<article><h2><a href="/post-{n}/">Post {n}</a></h2><p>What post {n} is about.</p>'
        "</article>"
        for n in range(posts)
    )
    return (
        f'<html><head><title>{tag.title()} - Field Notes</title><link rel="canonical" '
        f'href="{host}tag/{tag}/"><script type="application/ld+json">{json.dumps(data)}</script>'
        f'</head><body><header><a href="{host}">Field Notes</a></header><main>'
        f"<h1>{tag.title()}</h1><p>A collection of {posts} posts</p>{listed}</main>"
        "</body></html>\n"
    )


def not_found(host: str, name: str) -> str:
    """Ghost's 404 page, exported at a path of its own: its one link is to the front page."""
    front = host.rstrip("/") if host == EXPORT else "/"
    return (
        f"<html><head><title>404 - Field Notes</title></head><body><main><h1>404</h1>"
        f'<p>Page not found: {name}</p><a href="{front}">Go to the front page</a></main>'
        "</body></html>\n"
    )


def notes(css: str, count: int = 12) -> dict[str, str]:
    return {
        f"notes/n{n:02}/index.html": (
            f"<html><head><title>n{n} - Field Notes</title><link rel='stylesheet' "
            f"href='/{css}.css'></head><body><main><h1>n{n}</h1><p>Note {n} in words of its "
            "own.</p></main></body></html>\n"
        )
        for n in range(count)
    }


def test_a_ghost_export_deployed_at_its_real_host_moves_no_tag_page_s_date(
    tmp_path: Path,
) -> None:
    # Every tag page's canonical, JSON-LD and menu moved from the export's host to the site's.
    def site(host: str) -> dict[str, str]:
        return {f"tag/{tag}/index.html": tag_page(host, tag) for tag in TAGS}

    found = dated(tmp_path, [site(EXPORT), site(BASE)])
    assert found == {f"tag/{tag}": at(0) for tag in TAGS}, sorted(found.items())


def test_a_tag_page_that_lists_another_post_in_the_deploy_is_dated_by_it(
    tmp_path: Path,
) -> None:
    # The same deploy listed a second post on one tag page: that page's own change.
    def site(host: str, listed: int) -> dict[str, str]:
        pages = {f"tag/{tag}/index.html": tag_page(host, tag) for tag in TAGS}
        return pages | {"tag/sync/index.html": tag_page(host, "sync", listed)}

    found = dated(tmp_path, [site(EXPORT, 1), site(BASE, 2)])
    expected = {f"tag/{tag}": at(0) for tag in TAGS}
    assert found == expected | {"tag/sync": at(1)}, sorted(found.items())


def test_a_link_at_the_export_s_host_made_the_site_s_own_on_two_pages_is_no_content(
    tmp_path: Path,
) -> None:
    # A deploy re-rendered twelve notes (a new stylesheet: nothing a reader reads), moved the
    # two 404 pages' link onto the site's own front page, and rewrote one note: the two 404
    # pages are two of the three it edited, too few for a census, and keep their date.
    def site(host: str, css: str, rewritten: bool) -> dict[str, str]:
        pages = notes(css) | {
            f"public/{name}/index.html": not_found(host, name) for name in ("a.png", "b.png")
        }
        if rewritten:
            pages["notes/n03/index.html"] = pages["notes/n03/index.html"].replace(
                "in words of its own", "rewritten in other words"
            )
        return pages

    found = dated(tmp_path, [site(EXPORT, "a1", False), site(BASE, "b2", True)])
    expected = {f"notes/n{n:02}": at(0) for n in range(12)}
    expected |= {"public/a.png": at(0), "public/b.png": at(0), "notes/n03": at(1)}
    assert found == expected, sorted(found.items())


def test_a_link_to_another_site_s_page_made_one_of_this_site_s_is_the_page_s_own(
    tmp_path: Path,
) -> None:
    # The path changed with the host: another page, which a reader follows elsewhere.
    def page(target: str) -> dict[str, str]:
        return notes("a1", 4) | {
            "guide/index.html": (
                "<html><head><title>Guide - Field Notes</title></head><body><main><h1>Guide</h1>"
                f'<p>Read <a href="{target}">the handbook</a> first.</p></main></body></html>\n'
            )
        }

    found = dated(tmp_path, [page("https://other.example.net/handbook/"), page("/manual/")])
    assert found["guide"] == at(1), sorted(found.items())
    assert {found[f"notes/n{n:02}"] for n in range(4)} == {at(0)}
