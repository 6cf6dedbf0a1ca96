"""Structured data in a git tree's dates (fingerprint version 6): a page's own JSON-LD moves its
date; what most pages share in it (the publisher's name and logo, the WebSite node) is the
template's, as any edit made alike on most pages of a commit is (history.templateedits); the
deploy's dateModified moves nothing. Shaped like a Hugo blog whose theme writes a BlogPosting
and a WebSite node into every post's <head> (text our own), in a real repository."""

from __future__ import annotations

import json
from pathlib import Path

from treedates import WHEN, at, dated

BASE = "https://example.org/"
POSTS = ("green", "black", "white", "oolong", "puerh", "matcha")


def post(name: str, build: int, *, logo: str, about: str = "") -> str:
    ld = [
        {
            "@context": "https://schema.org",
            "@type": "BlogPosting",
            "headline": f"On {name} tea",
            "description": about or f"Notes on {name} tea.",
            "dateModified": WHEN[build].replace(" ", "T") + "+00:00",  # (the deploy's)
            "mainEntityOfPage": {"@type": "WebPage", "@id": f"{BASE}posts/{name}/"},
            "publisher": {"@type": "Organization", "name": "Leaf Notes", "logo": logo},
        },
        {"@context": "https://schema.org", "@type": "WebSite", "name": "Leaf Notes", "url": BASE},
    ]
    return (
        f"<!DOCTYPE html><html><head><title>On {name} tea | Leaf Notes</title>"
        f'<script type="application/ld+json">{json.dumps(ld, indent=build)}</script></head>'
        f'<body><nav><a href="/">Home</a></nav><main><h1>On {name} tea</h1>'
        f"<p>How {name} tea is brewed.</p></main></body></html>\n"
    )


def site(build: int, logo: str, about: dict[str, str] | None = None) -> dict[str, str]:
    about = about or {}
    return {
        f"posts/{name}/index.html": post(name, build, logo=logo, about=about.get(name, ""))
        for name in POSTS
    }


def test_a_shared_publisher_logo_changed_on_every_page_moves_no_date(tmp_path: Path) -> None:
    # Build 1: the theme's new logo on every post, re-indented, every dateModified the deploy's;
    # one post's own description (in its JSON-LD alone) rewritten in that commit: its date moves.
    # Build 2: the deploy alone (dateModified, indentation): nothing moves.
    builds = [
        site(0, "/images/logo.png"),
        site(1, "/images/logo-2024.svg", {"oolong": "Oolong, rolled and roasted."}),
        site(2, "/images/logo-2024.svg", {"oolong": "Oolong, rolled and roasted."}),
    ]
    found = dated(tmp_path, builds)
    assert found == {f"posts/{name}": at(1 if name == "oolong" else 0) for name in POSTS}, found


def moved(name: str, base: str) -> str:
    """A post whose links and JSON-LD name the site's ``base`` in full (a host and a path)."""
    ld = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": f"On {name} tea",
        "url": f"{base}posts/{name}/",
        "image": f"{base}images/{name}.jpg",
        "publisher": {"@type": "Organization", "name": "Leaf Notes", "logo": f"{base}logo.png"},
    }
    return (
        f"<!DOCTYPE html><html><head><title>On {name} tea</title>"
        f'<script type="application/ld+json">{json.dumps(ld)}</script></head>'
        f"<body><main><h1>On {name} tea</h1><p>How {name} tea is brewed.</p>"
        f'<img src="{base}images/{name}.jpg"><a href="{base}posts/">All posts</a></main>'
        "</body></html>\n"
    )


def home(base: str) -> str:
    """The home page, as jekyll-seo-tag writes it: a WebSite node whose url is the page's own
    and no other absolute address (a real site's only change when it left its beta host)."""
    ld = {"@context": "https://schema.org", "@type": "WebSite", "name": "Leaf Notes", "url": base}
    return (
        f'<html><head><title>Leaf Notes</title><script type="application/ld+json">{json.dumps(ld)}'
        "</script></head><body><main><h1>Leaf Notes</h1><p>Notes on tea.</p></main></body></html>"
    )


def test_a_site_moved_to_another_host_and_base_path_moves_no_date(tmp_path: Path) -> None:
    # Every absolute address in the links and the JSON-LD moved alike: no page's own words.
    # The home page's only change is its own URL in its JSON-LD: the same move, named alike.
    old, new = "https://leaf.example.net/notes/", BASE
    builds = [
        {f"posts/{name}/index.html": moved(name, base) for name in POSTS}
        | {"index.html": home(base)}
        for base in (old, new)
    ]
    found = dated(tmp_path, builds)
    assert found == {"": at(0)} | {f"posts/{name}": at(0) for name in POSTS}, found


def hydejack(name: str, host: str, about: str) -> str:
    """A post whose links are relative and whose JSON-LD names ``host`` in full: its own URL
    (twice), the publisher's logo, a description of the site beside them (jekyll-seo-tag)."""
    ld = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": f"On {name} tea",
        "description": about,
        "url": f"{host}/posts/{name}/",
        "mainEntityOfPage": {"@type": "WebPage", "@id": f"{host}/posts/{name}/"},
        "publisher": {"@type": "Organization", "logo": f"{host}/logo.png"},
    }
    return (
        f'<html><head><title>On {name} tea</title><script type="application/ld+json">'
        f"{json.dumps(ld)}</script></head><body><main><h1>On {name} tea</h1><p>How {name} tea"
        ' is brewed.</p><img src="/images/tea.jpg"></main></body></html>\n'
    )


def test_a_site_moved_away_from_its_base_url_moves_no_date(tmp_path: Path) -> None:
    # The sitemap's base URL is the old host; the site moved to its own domain: every page's
    # own URL in its JSON-LD now names the new host (counted, where the old one was the page
    # itself, counted as none), and the logo moved alike; the site's description, beside the
    # URLs in the same JSON-LD, was rewritten on every page: the template's, not each page's.
    old, new = BASE.rstrip("/"), "https://leaf.example.com"
    builds = [
        {f"posts/{name}/index.html": hydejack(name, host, about) for name in POSTS}
        for host, about in ((old, "Notes on tea."), (new, "Notes on tea, by Ann."))
    ]
    found = dated(tmp_path, builds)
    assert found == {f"posts/{name}": at(0) for name in POSTS}, found


def docusaurus(build: int, edited: str = "") -> dict[str, str]:
    """A Docusaurus site's posts, docs and blog list (text our own); from build 1 the 3.8 upgrade's
    JSON-LD on every page: a post's BlogPosting (its author's node restating its byline), a doc's
    BreadcrumbList (its one crumb, the page itself), the list's Blog (its posts, other pages)."""

    def page(path: str, title: str, ld: dict[str, object], body: str) -> str:
        script = f'<script type="application/ld+json">{json.dumps(ld)}</script>' if build else ""
        return (
            f"<html><head><title>{title} | Leaf</title>{script}</head><body><main><article>"
            f"<h1>{title}</h1>{body}</article></main></body></html>\n"
        )

    author = {"@type": "Person", "name": "Ann Lee", "url": "https://github.com/annlee"}
    byline = '<a href="https://github.com/annlee">Ann Lee</a>'
    files = {}
    for name in POSTS:
        url = f"{BASE}news/{name}"
        ld = {"@type": "BlogPosting", "@id": url, "url": url, "headline": f"On {name}"}
        ld |= {"author": author, "isPartOf": {"@type": "Blog", "@id": f"{BASE}news"}}
        words = f"How {name} tea is brewed{', hotter' if name == edited else ''}."
        files[f"news/{name}/index.html"] = page(name, f"On {name}", ld, f"{byline}<p>{words}</p>")
    for name in POSTS:
        crumb = {"@type": "ListItem", "position": 1, "name": name, "item": f"{BASE}docs/{name}"}
        ld = {"@type": "BreadcrumbList", "itemListElement": [crumb]}
        files[f"docs/{name}/index.html"] = page(name, name, ld, f"<p>Set up {name}.</p>")
    listed = [{"@type": "BlogPosting", "@id": f"{BASE}news/{name}"} for name in POSTS]
    ld = {"@type": "Blog", "@id": f"{BASE}news", "headline": "News", "blogPost": listed}
    links = "".join(f'<a href="/news/{name}/">On {name}</a>' for name in POSTS)
    files["news/index.html"] = page("news", "News", ld, links)
    return files


def test_a_generator_upgrade_that_writes_json_ld_restating_each_page_moves_no_date(
    tmp_path: Path,
) -> None:
    # archcraft's Docusaurus 3.8 upgrade (issue 79, cluster 4): each kind of page got its own
    # JSON-LD, all of it restating the page; one post's own words changed in the same deploy.
    found = dated(tmp_path, [docusaurus(0), docusaurus(1, edited="oolong")])
    pages = [f"news/{name}" for name in POSTS] + [f"docs/{name}" for name in POSTS] + ["news"]
    assert found == {path: at(1 if path == "news/oolong" else 0) for path in pages}, found
