"""Fingerprint version 13's two readings of what a page says of itself (issue 79, ghost96): JSON-LD
URLs at the root the page's own canonical declares on another host are the page itself and the
site's other pages (principles 4 and 7: a Ghost export written at ``http://localhost:8089``, then
deployed), and a self-date's label is never read from the last word "page" of the sentence before
it (principle 2: Docsy's "Last modified <date>: <commit link>" after "…connection page"). Pages
shaped like Ghost 4's Casper tag pages and Docsy's docs (structure copied, text our own)."""

from __future__ import annotations

import json

from sitemill.lastmod.fingerprint._declaredroot import DeclaredRoot, at_home, declared_root
from sitemill.lastmod.fingerprint.digest import (
    EARLIER_VERSIONS,
    fingerprint_html,
    reduce_html,
)

PREVIOUS = max(EARLIER_VERSIONS)
SITE = "https://notes.example.org"
EXPORT = "http://localhost:8089"
TAG_URL = f"{SITE}/tag/sync/"


def tag_page(host: str, *, name: str = "Sync", canonical: str | None = None) -> bytes:
    """A Ghost tag page written for ``host``: its canonical, its JSON-LD (the page's own URL,
    the home page it is mainEntityOfPage of, the publisher's address and logo) and its menu all
    at that host; its list of posts relative."""
    data = {
        "@context": "https://schema.org",
        "@type": "Series",
        "publisher": {
            "@type": "Organization",
            "name": "Field Notes",
            "url": f"{host}/",
            "logo": {"@type": "ImageObject", "url": f"{host}/favicon.ico", "width": 60},
        },
        "url": f"{host}/tag/sync/",
        "name": name,
        "mainEntityOfPage": {"@type": "WebPage", "@id": f"{host}/"},
    }
    own = f"{host}/tag/sync/" if canonical is None else canonical
    return (
        f"<!DOCTYPE html><html><head><title>{name} - Field Notes</title>"
        f'<link rel="canonical" href="{own}">'
        f'<script type="application/ld+json">{json.dumps(data)}</script></head><body>'
        f'<header><a href="{host}">Field Notes</a><nav><a href="{host}/about/">About</a></nav>'
        f"</header><main><h1>{name}</h1><p>A collection of 2 posts</p>"
        '<article><h2><a href="/syncing-tasks/">Syncing tasks</a></h2></article>'
        '<article><h2><a href="/a-calendar-of-ones-own/">A calendar of one\'s own</a></h2>'
        "</article></main></body></html>"
    ).encode()


def test_json_ld_at_the_host_the_canonical_declares_is_the_page_and_its_site() -> None:
    # The export names its host everywhere; the deploy names the real one: one page to a
    # reader, and its JSON-LD restates it (its own URL, the home page, the publisher's).
    exported, deployed = tag_page(EXPORT), tag_page(SITE)
    assert fingerprint_html(exported, url=TAG_URL) == fingerprint_html(deployed, url=TAG_URL)
    assert "\x01J" not in reduce_html(exported, url=TAG_URL)
    # Version 12, the previous one, read the export's URLs as another site's (its states keep it).
    assert "localhost" in reduce_html(exported, (), PREVIOUS, url=TAG_URL)
    assert fingerprint_html(exported, url=TAG_URL, version=PREVIOUS) != fingerprint_html(
        deployed, url=TAG_URL, version=PREVIOUS
    )


def test_the_page_s_own_words_in_its_json_ld_still_count() -> None:
    # A new name is the page's own, at either host.
    renamed = tag_page(EXPORT, name="Syncing")
    assert fingerprint_html(tag_page(EXPORT), url=TAG_URL) != fingerprint_html(renamed, url=TAG_URL)


def test_no_root_is_declared_by_a_canonical_naming_another_page_or_the_page_s_own_host() -> None:
    # Page 2 of a list naming page 1 names another page: its URLs stay another site's.
    assert declared_root(tag_page(EXPORT).decode(), f"{SITE}/tag/sync/page/2/") is None
    assert declared_root(tag_page(SITE).decode(), TAG_URL) is None
    relative = tag_page(EXPORT, canonical="/tag/sync/").decode()
    assert declared_root(relative, TAG_URL) is None
    # The page's own path under a base path and a custom domain: the base path is the root's.
    custom = tag_page(EXPORT, canonical="https://notes.example.com/tag/sync/").decode()
    root = declared_root(custom, "https://me.example.io/notes/tag/sync/")
    assert root == DeclaredRoot("notes.example.com", "", "https://me.example.io/notes")
    assert at_home("https://notes.example.com/about/", root) == "https://me.example.io/notes/about/"
    assert at_home("https://notes.example.com", root) == "https://me.example.io/notes"
    assert at_home("https://notes.example.community/", root) == "https://notes.example.community/"


def docsy_page(label: str) -> bytes:
    """A Docsy doc whose last list item ends with the word "page", then its self-date."""
    commit = "https://github.com/me/docs/commit/49d507629ecab3816a8c22994da84211e02453bb"
    return (
        "<!DOCTYPE html><html><head><title>Security | Docs</title></head><body><main>"
        "<h1>Security</h1><ul><li>CVE-2024-0001: SSRF in the connection page</li></ul>"
        f'<div class="text-muted">{label} December 12, 2025: <a href="{commit}">chore: update '
        "security.md with new CVE entries (#439) (49d50762)</a></div></main></body></html>"
    ).encode()


def test_a_self_date_after_the_word_page_is_a_self_date() -> None:
    # Docsy's label changed from "Last modified" to "Page last updated": the same self-date.
    url = "https://docs.example.org/docs/security/"
    older, newer = docsy_page("Last modified"), docsy_page("Page last updated")
    assert fingerprint_html(older, url=url) == fingerprint_html(newer, url=url)
    assert "December" not in reduce_html(older, url=url)
    assert reduce_html(older, url=url).endswith("SSRF in the connection page")
    # Version 12 read "page Last modified …" as the sentence's own words.
    assert "December" in reduce_html(older, (), PREVIOUS, url=url)


def test_a_label_in_lower_case_inside_a_sentence_stays_the_sentence_s() -> None:
    # "…the page last updated on <date>" is a sentence that mentions a date: its words.
    url = "https://docs.example.org/docs/faq/"
    page = (
        b"<!DOCTYPE html><html><head><title>FAQ | Docs</title></head><body><main><h1>FAQ</h1>"
        b"<p>Read the page last updated on March 3, 2024 for the old API.</p></main></body></html>"
    )
    assert "March 3, 2024" in reduce_html(page, url=url)
