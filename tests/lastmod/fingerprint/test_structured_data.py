"""Structured data counts (fingerprint.structureddata): a page's JSON-LD is
content, less its date fields, its @context and the targets that lead to the page itself; how it
is indented or its keys ordered moves nothing; a script that is no JSON, too big or too deep counts
as nothing, in time linear in the page. The page is shaped like a Hugo blog post's (text our own):
a BlogPosting in the <head>, a BreadcrumbList at the body's end, outside <main>."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

import timing
from sitemill.lastmod.fingerprint._structureddata import MAX_SCRIPT_CHARS, MAX_STRUCTURED_DEPTH
from sitemill.lastmod.fingerprint.digest import FINGERPRINT_VERSION, fingerprint_html, reduce_html

URL = "https://example.org/posts/tea/index.html"


def posting(**changes: Any) -> dict[str, Any]:
    node: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": "Brewing green tea",
        "description": "Water below boiling, two minutes.",
        "author": [{"@type": "Person", "name": "Ann Lee"}],
        "datePublished": "2024-01-10T09:00:00+01:00",
        "dateModified": "2024-02-11T10:30:00+01:00",
        "url": "https://example.org/posts/tea/",
        "mainEntityOfPage": {"@type": "WebPage", "@id": "https://example.org/posts/tea/"},
        "image": "https://example.org/images/tea.jpg?v=12",
        "publisher": {
            "@type": "Organization",
            "name": "Leaf Notes",
            "logo": {"@type": "ImageObject", "url": "https://example.org/logo.png"},
        },
    }
    node.update(changes)
    return {key: value for key, value in node.items() if value is not None}


CRUMBS = {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    "itemListElement": [
        {"@type": "ListItem", "position": 1, "name": "Posts", "item": "https://example.org/posts/"},
        {
            "@type": "ListItem",
            "position": 2,
            "name": "Tea",
            "item": "https://example.org/posts/tea/",
        },
    ],
}


def page(
    ld: object = None, crumbs: object = CRUMBS, *, dump: Callable[[object], str] = json.dumps
) -> bytes:
    head = "" if ld is None else f'<script type="application/ld+json">{dump(ld)}</script>'
    foot = "" if crumbs is None else f"<script type=application/ld+json>\n{dump(crumbs)}\n</script>"
    return (
        f"<!DOCTYPE html><html><head><title>Brewing green tea | Leaf Notes</title>{head}"
        '<script src="/js/app.js"></script></head><body><nav><a href="/">Home</a></nav>'
        "<main><h1>Brewing green tea</h1><p>Use water below boiling.</p></main>"
        f"<footer>Leaf Notes</footer>{foot}</body></html>"
    ).encode()


BASE = page(posting())


def fingerprint(data: bytes, version: int = FINGERPRINT_VERSION) -> str:
    return fingerprint_html(data, url=URL, version=version)


def leaves(data: bytes, version: int = FINGERPRINT_VERSION, url: str = URL) -> list[str]:
    return re.findall("\x01J([^\x01]*)\x01", reduce_html(data, url=url, version=version))


def test_the_json_ld_is_read_as_sorted_leaves_less_dates_context_and_self_targets() -> None:
    # (by version 12, the oldest computable: versions 8 and 9 also read each @type, and the
    # crumbs of the page itself, issue 80)
    assert leaves(BASE, 12) == [
        "author.name=Ann Lee",
        "description=Water below boiling, two minutes.",
        # (from version 7 the headline restates the page's title: nothing new)
        "image=/images/tea.jpg",  # (a target: the site's origin and an asset's query left out)
        # (its @id is the page itself: none; the publisher's name is the site's, in every title,
        # its logo the site's furniture; the first crumb, "Posts" at /posts/, stands for another
        # page of the site, the second for the page itself: nothing new)
    ]


@pytest.mark.parametrize(
    "changed",
    [
        posting(headline="Brewing green tea well"),
        posting(description="Water at 80 degrees, two minutes."),
        posting(author=[{"@type": "Person", "name": "Bo Chen"}]),
        posting(image="https://example.org/images/tea-2.jpg"),
    ],
)
def test_a_changed_headline_description_author_or_image_moves_it(
    changed: dict[str, Any],
) -> None:
    assert fingerprint(page(changed)) != fingerprint(BASE)


@pytest.mark.parametrize(
    "changed",
    [
        posting(dateModified="2025-06-01T08:00:00Z"),
        posting(datePublished="2024-01-10", dateModified="2024-07-04 10:00:00 +0000 UTC"),
        posting(dateModified="July 4, 2024"),  # (a key named for a date, any shape)
        posting(uploadDate="2024-07-04", lastReviewed="2024-07-05T10:00"),  # (an ISO date's shape)
        posting(**{"@context": {"@vocab": "https://schema.org/"}}),
        posting(dateModified=None),
    ],
)
def test_a_date_field_or_the_context_moves_nothing(changed: dict[str, Any]) -> None:
    assert leaves(page(changed)) == leaves(BASE) != []
    assert fingerprint(page(changed)) == fingerprint(BASE)


def test_reordered_keys_and_another_indentation_move_nothing() -> None:
    def reordered(data: object) -> str:
        if isinstance(data, dict):
            inner = ",\n    ".join(
                f"{json.dumps(key)} :  {reordered(value)}" for key, value in reversed(data.items())
            )
            return "{\n    " + inner + "\n}"
        if isinstance(data, list):
            return "[ " + " , ".join(reordered(item) for item in data) + " ]"
        return json.dumps(data, ensure_ascii=True)

    again = page(posting(), dump=reordered)
    assert again != BASE
    assert leaves(again) == leaves(BASE) != []
    assert fingerprint(again) == fingerprint(BASE)


def test_an_array_counts_in_its_order() -> None:
    two = [{"@type": "Person", "name": "Ann Lee"}, {"@type": "Person", "name": "Bo Chen"}]
    turned = list(reversed(two))
    assert fingerprint(page(posting(author=two))) != fingerprint(page(posting(author=turned)))


@pytest.mark.parametrize(
    "spelling",
    ["https://example.org/posts/tea/index.html", "/posts/tea", "./", "./#article", "../tea/"],
)
def test_a_value_that_is_the_pages_own_url_counts_as_none(spelling: str) -> None:
    none = fingerprint(page(posting(url=None, mainEntityOfPage=None)))
    assert fingerprint(page(posting(url=spelling, mainEntityOfPage=spelling))) == none
    assert fingerprint(page(posting(url="/posts/coffee/", mainEntityOfPage=spelling))) != none


def test_an_id_of_a_node_of_the_page_itself_counts_as_none() -> None:
    ids = {"@id": "#webpage"}, {"@id": "https://example.org/posts/tea/#webpage"}
    prints = {fingerprint(page(posting(mainEntityOfPage=node))) for node in ids}
    assert prints == {fingerprint(page(posting(mainEntityOfPage=None)))}
    assert prints != {fingerprint(page(posting(mainEntityOfPage={"@id": "/#website"})))}


def test_a_target_is_spelled_as_a_links_and_one_elsewhere_counts() -> None:
    # (from version 7 a value naming another page of the site stands for it: an image here)
    spellings = (
        "https://example.org/images/tea.jpg",
        "/images/tea.jpg?v=3",
        "../../images/tea.jpg",
    )
    prints = {fingerprint(page(posting(image=spelled))) for spelled in spellings}
    assert len(prints) == 1
    assert prints != {fingerprint(page(posting(image="/images/coffee.jpg")))}


def test_json_ld_counts_wherever_it_stands_and_only_json_ld() -> None:
    # The breadcrumbs stand after <main>, outside the region: they count all the same.
    # (from version 10 a crumb that names the page itself restates it: the list's own name here)
    other = {**CRUMBS, "name": "Where this post stands"}
    assert fingerprint(page(posting(), other)) != fingerprint(BASE)
    no_crumbs = page(posting(), None)
    plain = BASE.replace(b"type=application/ld+json", b"type=application/json")
    script = f"<script type=application/ld+json>{json.dumps(CRUMBS)}</script>".encode()
    commented = no_crumbs.replace(b"</body>", b"<!--" + script + b"--></body>")
    assert fingerprint(plain) == fingerprint(commented) == fingerprint(no_crumbs)


def test_fingerprint_ignore_applies_to_json_ld_as_written() -> None:
    ignore = (re.compile(r'"headline": "[^"]*", '),)
    changed = page(posting(headline="Another headline"))
    assert fingerprint_html(changed, ignore, url=URL) == fingerprint_html(BASE, ignore, url=URL)
    assert fingerprint_html(changed, url=URL) != fingerprint_html(BASE, url=URL)


def too_deep() -> str:
    return '{"a": ' * (MAX_STRUCTURED_DEPTH + 1) + '"x"' + "}" * (MAX_STRUCTURED_DEPTH + 1)


@pytest.mark.parametrize(
    "body",
    [
        '{"headline": "Unclosed',
        "{'headline': 'single quotes'}",
        "<!-- not JSON -->",
        "",
        "[" * 100_000,
        too_deep(),
        '{"headline": "' + "x" * MAX_SCRIPT_CHARS + '"}',
        '{"headline": "One"} {"headline": "Two"}',
    ],
)
def test_a_script_that_is_no_json_too_deep_or_too_big_counts_as_nothing(body: str) -> None:
    data = BASE.replace(
        b"</main>", b"</main><script type='application/ld+json'>" + body.encode() + b"</script>"
    )
    assert fingerprint(data) == fingerprint(BASE)
    assert leaves(data) == leaves(BASE) != []


def test_a_script_just_within_the_bounds_counts() -> None:
    deep = '{"a": ' * MAX_STRUCTURED_DEPTH + '"x"' + "}" * MAX_STRUCTURED_DEPTH
    data = BASE.replace(
        b"</main>", b"</main><script type='application/ld+json'>" + deep.encode() + b"</script>"
    )
    assert fingerprint(data) != fingerprint(BASE)


MB = 1_000_000


def repeat(unit: str, before: str = "", after: str = "") -> Callable[[int], bytes]:
    return lambda size: (before + unit * (size // len(unit)) + after).encode()


SCRIPT = "<script type=application/ld+json>"
# name -> a page of about the given size
HOSTILE: dict[str, Callable[[int], bytes]] = {
    "unclosed scripts": repeat(SCRIPT),
    "unclosed start tags": repeat("<script type=application/ld+json "),
    "unclosed quoted types": repeat('<script type="application/ld+json'),
    "many small scripts": repeat(SCRIPT + '{"a": [1, {"b": "c"}]}</script>'),
    "many malformed scripts": repeat(SCRIPT + '{"a": [1, {"b": </script>'),
    "deep nesting": repeat("[", SCRIPT),
    "deep objects": repeat('{"a":', SCRIPT),
    "one long string": repeat("x", SCRIPT + '{"a": "', '"}</script>'),
    "one long number": repeat("9", SCRIPT + '{"n": ', "}</script>"),
    "many keys": repeat('"k": "v", ', SCRIPT + "{", '"z": 1}</script>'),
    "many targets": repeat('"/a/../b/./c", ', SCRIPT + '{"url": [', '"/"]}</script>'),
    "unclosed comments": repeat("<!--ld+json"),
    "plus signs before one script": repeat("a+b ", "", SCRIPT + '{"a": "b"}</script>'),
    "script end look-alikes": repeat("</scrip<", SCRIPT),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_json_ld_takes_linear_time(name: str) -> None:
    make = HOSTILE[name]
    assert re.fullmatch("[0-9a-f]{32}", fingerprint(make(MB // 8)))
    assert timing.linear(fingerprint, make(MB // 8), make(MB), 20)


def docusaurus_post(slug: str, title: str, description: str, blog: str = "Tutorials") -> bytes:
    # Shaped like a Docusaurus 3.8 blog post (structure copied, text our own): a BlogPosting that
    # restates the page's title, description and URL, part of the blog, which it names by link.
    ld = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "@id": f"https://example.org/blog/{slug}",
        "mainEntityOfPage": f"https://example.org/blog/{slug}",
        "url": f"https://example.org/blog/{slug}",
        "headline": title,
        "name": title,
        "description": description,
        "datePublished": "2024-01-30T00:00:00.000Z",
        "author": {"@type": "Person", "name": "Ann Lee", "url": "https://github.com/annlee"},
        "isPartOf": {"@type": "Blog", "@id": "https://example.org/blog", "name": blog},
    }
    return (
        f"<!DOCTYPE html><html><head><title>{title} | Leaf Notes</title>"
        f'<meta name="description" content="{description}">'
        f'<script type="application/ld+json">{json.dumps(ld)}</script></head><body>'
        f"<main><article><header><h1>{title}</h1></header><p>{description} Then more words of "
        "the post.</p></article></main></body></html>"
    ).encode()


def test_json_ld_that_restates_the_page_adds_nothing_from_version_7() -> None:
    # archcraft's Docusaurus upgrade wrote this into every post: the leaves differ between two
    # posts only by their own titles, descriptions and URLs and the blog's, so from version 7
    # the insertion is one edit on every page (history.templateedits: template).
    first = docusaurus_post("tea", "Brewing green tea", "How to brew a pot of green tea well.")
    second = docusaurus_post("pump", "Tuning the garden pump", "The pump ran dry twice in May.")
    third = docusaurus_post("pump", "Tuning the garden pump", "The pump ran dry.", blog="News")
    url = "https://example.org/blog/{}".format
    # (versions 7 to 9, which read so with the types, are no longer computable: issue 80)
    assert leaves(first, 12, url("tea")) == leaves(second, 12, url("pump"))
    assert leaves(second, 12, url("pump")) == leaves(third, 12, url("pump"))
    assert leaves(first, url=url("tea")) == leaves(third, url=url("pump"))  # (version 10: types)
    assert leaves(first, url=url("tea")) == [
        "author.name=Ann Lee",
        "author.url=https://github.com/annlee",
    ]


@pytest.mark.parametrize("version", [FINGERPRINT_VERSION - 1, FINGERPRINT_VERSION])
def test_json_ld_that_says_something_new_still_counts_from_version_7(version: int) -> None:
    renamed = posting(author=[{"@type": "Person", "name": "Bo Chen"}])
    assert fingerprint(page(renamed), version) != fingerprint(BASE, version)
    assert "description=Water below boiling, two minutes." in leaves(BASE, version)
    assert "itemListElement.name=Posts" not in leaves(BASE, version)  # (a crumb: another page's)
