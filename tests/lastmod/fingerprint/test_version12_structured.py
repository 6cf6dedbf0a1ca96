"""Structured data that counts or places the page itself says nothing new (fingerprint version 12,
issue 79): a value the page's own text determines (wordCount, timeRequired), and the page's own
crumb named by its title alone or by an ``item`` node that names it. Pages shaped like Hugo Congo
2.9's (structure copied, text our own)."""

from __future__ import annotations

import json
import re

from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    FINGERPRINT_VERSION,
    fingerprint_html,
    reduce_html,
)

SITE = "https://example.org/leaf/"
URL = f"{SITE}samples/charts/"
PREVIOUS = max(EARLIER_VERSIONS)


def article(**values: object) -> dict[str, object]:
    return {
        "@context": "https://schema.org",
        "@type": "Article",
        "name": "Charts",
        "headline": "Charts",
        "url": URL,
        "keywords": ["chart", "sample"],
        "wordCount": "81",
        **values,
    }


def crumbs(*last: dict[str, object]) -> dict[str, object]:
    return {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "item": SITE, "name": "Welcome to Leaf", "position": 1},
            {"@type": "ListItem", "item": f"{SITE}samples/", "name": "Samples", "position": 2},
            *last,
        ],
    }


def page(*nodes: object, words: str = "Leaf draws a chart from a table of numbers.") -> bytes:
    scripts = "".join(
        f'<script type="application/ld+json">{json.dumps(node)}</script>' for node in nodes
    )
    return (
        f"<!DOCTYPE html><html><head><title>Charts · Leaf</title>{scripts}</head><body>"
        f"<main><article><h1>Charts</h1><p>{words}</p></article></main></body></html>"
    ).encode()


def leaves(data: bytes, version: int = FINGERPRINT_VERSION) -> list[str]:
    return re.findall("\x01J([^\x01]*)\x01", reduce_html(data, url=URL, version=version))


def printed(data: bytes, version: int = FINGERPRINT_VERSION) -> str:
    return fingerprint_html(data, url=URL, version=version)


def test_a_count_of_the_page_s_words_says_nothing_the_text_does_not() -> None:
    # Congo 2.8.1: Hugo counted the same words anew (461 -> 460), no word of the page changed.
    before, after = page(article(wordCount="461")), page(article(wordCount="460"))
    assert printed(after) == printed(before)
    assert leaves(after) == ["keywords=chart", "keywords=sample"]
    # A reading time as schema.org gives it (timeRequired), wherever the node stands.
    timed = page({"@graph": [article(timeRequired="PT4M")]})
    assert printed(timed) == printed(page({"@graph": [article(timeRequired="PT5M")]}))
    # (and version 12, the previous one: version 11, which counted both, is gone: issue 80)
    assert printed(after, PREVIOUS) == printed(before, PREVIOUS)


def test_the_text_s_own_change_still_counts() -> None:
    before = page(article(wordCount="8"))
    after = page(article(wordCount="9"), words="Leaf draws a chart from a table of sums.")
    assert printed(after) != printed(before)
    # Other values of the node still count: its keywords.
    assert printed(page(article(keywords=["graph"]))) != printed(page(article()))


def test_the_page_s_own_crumb_named_by_its_title_alone_is_a_reference_to_it() -> None:
    # Congo 2.9.0 put a BreadcrumbList in: crumbs 1-2 name other pages (version 7), the last
    # one names this page by its title and no address; its position is the list's.
    own = {"@type": "ListItem", "name": "Charts", "position": 3}
    assert printed(page(article(), crumbs(own))) == printed(page(article()))
    assert leaves(page(crumbs(own))) == []
    assert leaves(page(crumbs(own)), PREVIOUS) == []  # (version 11 counted its position)
    # By its address, as version 10 read it.
    assert leaves(page(crumbs({**own, "item": URL}))) == []
    # An item that is a node is an address: version 10's reading (the node naming the page goes,
    # the crumb's position stays; no measured site writes one).
    nested = {**own, "item": {"@id": URL, "name": "Charts"}}
    assert leaves(page(crumbs(nested))) == ["itemListElement.position=3"]


def test_a_node_named_otherwise_or_with_an_address_still_counts() -> None:
    # A crumb whose name is no title of the page, one with an address elsewhere (another site),
    # and the script's own node (it says what the page is) keep their values.
    other = {"@type": "ListItem", "name": "Graphs", "position": 3}
    assert leaves(page(crumbs(other))) == [
        "itemListElement.name=Graphs",
        "itemListElement.position=3",
    ]
    away = {"@type": "ListItem", "name": "Charts", "position": 3, "@id": "https://x.example/"}
    assert "itemListElement.position=3" in leaves(page(crumbs(away)))
    top = {"@context": "https://schema.org", "@type": "Thing", "name": "Charts", "sku": "c-1"}
    assert leaves(page(top)) == ["sku=c-1"]


def test_a_name_that_is_the_title_in_another_order_restates_it() -> None:
    # A Publii home page: its Organization node's name is its <title>, which the reduction
    # reads as its parts in sorted order ("Blog | Lab"); from version 13 (amended) the name
    # restates the title whatever its parts' order, as the title itself does.
    def page(name: str) -> bytes:
        node = {"@context": "http://schema.org", "@type": "Organization", "name": name}
        return (
            "<html><head><title>Lab - Blog</title>"
            f'<script type="application/ld+json">{json.dumps(node)}</script></head>'
            "<body><main><p>Posts of the lab.</p></main></body></html>"
        ).encode()

    url = "https://example.org/"
    assert "Lab - Blog" not in reduce_html(page("Lab - Blog"), url=url)
    assert "Blog - Lab" not in reduce_html(page("Blog - Lab"), url=url)
    assert "Lab - Workshop" in reduce_html(page("Lab - Workshop"), url=url)
    assert "Lab - Blog" in reduce_html(page("Lab - Blog"), url=url, version=12)
