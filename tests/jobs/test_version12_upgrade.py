"""Fingerprint version 12 (issue 79: structured data that counts or places the page itself says
nothing new): a generator's recount of the page's words and its own crumb put in move no date,
and the next edit a reader sees moves its page's date. (A state of version 11 kept every date on
the upgrade to 12; 11 is no longer computable since version 13, whose upgrade is
test_version13_upgrade's.)"""

from __future__ import annotations

import json
from pathlib import Path

from sitemill.protocol import Precision, lastmod_from_timestamp
from upgrades import BASE, OTHER_PAGE, first_build, lastmods, run, write_pages

T1, T3, T4 = 1_700_000_000, 1_720_000_000, 1_730_000_000
WORDS = "Leaf draws a chart from a table of numbers."


def post(words: str = WORDS, *, counted: int = 9, crumb: bool = False) -> bytes:
    """A Hugo Congo page: its Article's wordCount, and (Congo 2.9) a BreadcrumbList whose last
    crumb names the page by its title alone."""
    article = {"@context": "https://schema.org", "@type": "Article", "wordCount": str(counted)}
    crumbs = {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "item": BASE, "name": "Leaf", "position": 1},
            {"@type": "ListItem", "name": "Charts", "position": 2},
        ],
    }
    scripts = "".join(
        f'<script type="application/ld+json">{json.dumps(node)}</script>'
        for node in ([article, crumbs] if crumb else [article])
    )
    return (
        f"<!DOCTYPE html><html><head><title>Charts · Leaf</title>{scripts}</head><body><main>"
        f"<h1>Charts</h1><p>{words}</p></main></body></html>\n"
    ).encode()


def pages(words: str = WORDS, *, counted: int = 9, crumb: bool = False) -> dict[str, bytes]:
    return {
        "charts/index.html": post(words, counted=counted, crumb=crumb),
        "other.html": OTHER_PAGE,
    }


def test_a_recount_and_the_page_s_own_crumb_move_no_date(tmp_path: Path) -> None:
    site, out = tmp_path / "public", tmp_path / "out"
    first = first_build(site, out, pages(), T1)  # (charts/ at T1, other.html before)

    # Hugo counts the words anew and Congo puts its crumbs in: no word a reader sees changed.
    write_pages(site, pages(counted=10, crumb=True), T3, spread=False)
    report = run(site, out)
    assert lastmods(out) == first and report.dates == {"kept": 2}

    write_pages(
        site, pages("Leaf draws a chart from a table of sums.", crumb=True), T4, spread=False
    )
    report = run(site, out)
    assert lastmods(out) == {**first, "charts/": lastmod_from_timestamp(T4, Precision.DATETIME)}
    assert report.dates == {"kept": 1, "content changed": 1}
