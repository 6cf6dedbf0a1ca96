"""A JSON-LD value is read for what it restates with its HTML character references decoded
(fingerprint version 13, amended, issue 79: hugo99). Shaped like a Hugo post (structure copied,
text our own): the meta description is the post's auto-excerpt, and the BlogPosting's
``description`` the same excerpt written HTML-escaped (``&amp;``, ``&#34;``, ``&rsquo;``); an
upgrade re-cut every excerpt shorter, and 10 posts of a Hugo blog (heldout98's
u1tnk-hugooctopress) were dated by it: the escaped excerpt read as words of its own."""

from __future__ import annotations

import html
import json
from pathlib import Path

from sitemill.lastmod.fingerprint.digest import reduce_html
from sitemill.lastmod.fingerprint.versions import EARLIER_VERSIONS, FINGERPRINT_VERSION
from treedates import BASE, at, dated

POSTS = {
    "nasne": [
        "Tom & Jerry bought a recorder because the old server broke down last winter.",
        'The "Beam" app froze on every second show, so we went back to the other player.',
        "Downloads still need the first app & a lot of patience.",
    ],
    "desktop": [
        "My desk got a new monitor arm and a quieter keyboard this year.",
        "The old arm sagged an inch a month; the new one holds — so far.",
        "Cables run under the desk & out of sight now.",
    ],
    "review": [
        "Every year I write down what I bought and whether it was worth it.",
        "The coffee grinder wins again: it’s loud but quick.",
        "Next year: fewer gadgets & more books.",
    ],
    "exams": [
        "The entrance exams cost more than we planned for in the spring.",
        "Fees, travel & a week of hotel nights added up quickly.",
        'The "mock" exams were the cheapest part of the whole year.',
    ],
}


def post(slug: str, cut: int, own: str = "") -> str:
    """Post ``slug`` of POSTS, its excerpt its first ``cut`` paragraphs; the post named
    ``own`` has words added to its last paragraph."""
    paragraphs = [*POSTS[slug][:-1], POSTS[slug][-1] + (" Updated." if slug == own else "")]
    excerpt = " ".join(POSTS[slug][:cut])
    data = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": slug,
        "description": html.escape(excerpt),  # (as Hugo writes it: escaped once more)
        "datePublished": "2019-04-16T00:00:00+00:00",
    }
    head = [
        f"<title>{slug} | u1tnk.log</title>",
        f'<meta name="description" content="{html.escape(excerpt)}">',
        f'<script type="application/ld+json">{json.dumps(data, ensure_ascii=False)}</script>',
    ]
    body = "".join(f"<p>{html.escape(text, quote=False)}</p>" for text in paragraphs)
    article = f"<article class=post-single><h1>{slug}</h1><div class=post-content>{body}</div>"
    return (
        f"<html><head>{''.join(head)}</head><body><main>{article}</article></main></body></html>\n"
    )


def site(cut: int, own: str = "") -> dict[str, str]:
    return {f"blog/{slug}/index.html": post(slug, cut, own) for slug in POSTS}


def test_an_escaped_excerpt_re_cut_by_an_upgrade_moves_no_date(tmp_path: Path) -> None:
    found = dated(tmp_path, [site(3), site(1), site(1, own="review")])
    expected = {f"blog/{slug}": at(0) for slug in POSTS}
    assert found == expected | {"blog/review": at(2)}, found


def test_an_escaped_value_the_page_does_not_say_still_counts() -> None:
    page = post("nasne", 3).replace(
        '"description": "Tom &amp; Jerry', '"description": "Tom &amp; Spike'
    )
    reduced = reduce_html(page.encode(), url=BASE + "blog/nasne/")
    assert "Spike" in reduced, reduced  # (an author's description, escaped: its words count)
    kept = reduce_html(post("nasne", 3).encode(), url=BASE + "blog/nasne/")
    assert "Jdescription" not in kept, kept


def test_version_12_reads_an_escaped_excerpt_as_before() -> None:
    page = post("nasne", 3).encode()
    url = BASE + "blog/nasne/"
    assert "Jdescription" in reduce_html(page, url=url, version=max(EARLIER_VERSIONS))
    assert "Jdescription" not in reduce_html(page, url=url, version=FINGERPRINT_VERSION)
