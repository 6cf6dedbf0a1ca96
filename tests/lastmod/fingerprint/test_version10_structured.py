"""Structured data that restates the page says nothing new (fingerprint version 10, issue 79):
a JSON-LD ``@type`` is the vocabulary's; a node inside another that names the page itself (its own
crumb) is a reference to it; a node whose every value the page shows (a post's byline as its
author's node) adds nothing. Pages shaped like Docusaurus 3.8's (structure copied, text our own)."""

from __future__ import annotations

import json
import re

import pytest

from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, fingerprint_html, reduce_html

SITE = "https://example.org"
AUTHOR = {
    "@type": "Person",
    "name": "Ann Lee",
    "description": "Maintainer of Leaf",
    "url": "https://github.com/annlee",
    "image": "https://github.com/annlee.png",
}


def html(title: str, ld: object | None, body: str) -> bytes:
    script = "" if ld is None else f'<script type="application/ld+json">{json.dumps(ld)}</script>'
    return (
        f"<!DOCTYPE html><html><head><title>{title} | Leaf</title>{script}</head>"
        f"<body><nav><a href=/>Home</a></nav><main><article>{body}</article></main></body></html>"
    ).encode()


BYLINE = (
    '<div class="avatar"><a href="https://github.com/annlee"><img src="https://github.com/annlee.png">'
    '</a><a href="https://github.com/annlee">Ann Lee</a><small>Maintainer of Leaf</small></div>'
)


def post(slug: str, title: str, *, ld: bool, author: dict[str, str] | None = None) -> bytes:
    node = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "@id": f"{SITE}/news/{slug}",
        "mainEntityOfPage": f"{SITE}/news/{slug}",
        "url": f"{SITE}/news/{slug}",
        "headline": title,
        "datePublished": "2024-01-30T00:00:00.000Z",
        "author": author or AUTHOR,
        "keywords": [],
        "isPartOf": {"@type": "Blog", "@id": f"{SITE}/news", "name": "News"},
    }
    body = f"<header><h1>{title}</h1>{BYLINE}</header><p>What {slug} brings, in a few words.</p>"
    return html(title, node if ld else None, body)


def doc(slug: str, title: str, *, ld: bool) -> bytes:
    node = {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": 1, "name": title, "item": f"{SITE}/docs/{slug}"}
        ],
    }
    return html(title, node if ld else None, f"<h1>{title}</h1><p>How {slug} is set up.</p>")


def blog_list(*, ld: bool) -> bytes:
    node = {
        "@context": "https://schema.org",
        "@type": "Blog",
        "@id": f"{SITE}/news",
        "mainEntityOfPage": f"{SITE}/news",
        "headline": "News",
        "description": "News",
        "blogPost": [
            {"@type": "BlogPosting", "@id": f"{SITE}/news/one", "url": f"{SITE}/news/one"},
            {"@type": "BlogPosting", "@id": f"{SITE}/news/two", "url": f"{SITE}/news/two"},
        ],
    }
    body = '<h1>News</h1><a href="/news/one">One</a><a href="/news/two">Two</a>'
    return html("News", node if ld else None, body)


def leaves(data: bytes, url: str, version: int = FINGERPRINT_VERSION) -> list[str]:
    return re.findall("\x01J([^\x01]*)\x01", reduce_html(data, url=url, version=version))


PAGES = {
    "a post (its author's node: the byline it shows)": (
        lambda ld: post("one", "Release one", ld=ld),
        f"{SITE}/news/one/index.html",
    ),
    "a doc (its own crumb)": (lambda ld: doc("setup", "Setting up", ld=ld), f"{SITE}/docs/setup/"),
    "a blog list (its type)": (lambda ld: blog_list(ld=ld), f"{SITE}/news/index.html"),
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_upgrade_that_writes_json_ld_into_every_page_moves_no_fingerprint(name: str) -> None:
    # archcraft's Docusaurus 3.8 upgrade: each kind of page got JSON-LD that restates it; version
    # 9 counted what was left (a post's author node, a doc's crumb position, a list's type).
    make, url = PAGES[name]
    assert fingerprint_html(make(True), url=url) == fingerprint_html(make(False), url=url)
    assert leaves(make(True), url) == []  # (version 9, which counted them, is gone: issue 80)


def test_what_the_page_does_not_show_still_counts() -> None:
    url = f"{SITE}/news/one/index.html"
    before = post("one", "Release one", ld=True)
    # The author's node names a profile the byline does not link to: the node counts, whole.
    other = {**AUTHOR, "sameAs": "https://social.example/@annlee"}
    widened = post("one", "Release one", ld=True, author=other)
    assert fingerprint_html(widened, url=url) != fingerprint_html(before, url=url)
    assert "author.name=Ann Lee" in leaves(widened, url)
    # Renamed in the JSON-LD alone (the byline still shows the old name): a change.
    renamed = post("one", "Release one", ld=True, author={**AUTHOR, "name": "Bo Chen"})
    assert fingerprint_html(renamed, url=url) != fingerprint_html(before, url=url)
    # A value the page shows only as part of a word is not shown: words stand whole.
    assert "author.name=Ann Le" in leaves(
        post("one", "Release one", ld=True, author={**AUTHOR, "name": "Ann Le"}), url
    )


def test_the_page_s_own_node_keeps_its_other_values() -> None:
    # The script's own node names the page: it says what the page is (its keywords count); a
    # node inside another that names the page (the WebPage it is the main entity of) adds nothing.
    url = f"{SITE}/news/one/"
    node = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "@id": f"{SITE}/news/one",
        "keywords": ["tea"],
        "mainEntityOfPage": {"@type": "WebPage", "@id": f"{SITE}/news/one", "name": "Elsewhere"},
    }
    page = html("Release one", node, "<h1>Release one</h1><p>Words.</p>")
    assert leaves(page, url) == ["keywords=tea"]
    graph = {"@context": "https://schema.org", "@graph": [{**node, "@context": None}]}
    in_graph = html("Release one", graph, "<h1>Release one</h1>")
    assert leaves(in_graph, url) == ["@graph.keywords=tea"]
