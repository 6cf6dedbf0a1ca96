"""The modification dates a built page declares: what is read, what is not, hostile input."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

import timing
from sitemill.lastmod.declared.inpage import (
    DECLARED_BYTES,
    MAX_JSON_DEPTH,
    MAX_JSON_LD_BYTES,
    declared_dates,
)
from sitemill.lastmod.declared.w3cdate import (
    ARTICLE_MODIFIED,
    ARTICLE_PUBLISHED,
    ITEMPROP_MODIFIED,
    ITEMPROP_PUBLISHED,
    JSON_LD,
    JSON_LD_PUBLISHED,
    LAST_UPDATED_LINE,
    OG_UPDATED,
    DeclaredDate,
    DeclaredPrecision,
)


def declared_date(page: bytes) -> DeclaredDate | None:
    """The first modification date ``page`` declares (see declared_dates)."""
    return next((date for date in declared_dates(page) if not date.published), None)


FIXTURES = Path(__file__).parents[1] / "fixtures"
WHEN = "2023-05-06T07:08:09Z"
INSTANT = datetime(2023, 5, 6, 7, 8, 9, tzinfo=UTC)


def page(head: str = "", body: str = "") -> bytes:
    text = f"<!doctype html><html><head><title>t</title>{head}</head><body>{body}</body></html>"
    return text.encode()


def ld(document: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(document)}</script>'


@pytest.mark.parametrize(
    ("head", "body", "source"),
    [
        (ld({"@type": "Article", "dateModified": WHEN}), "", JSON_LD),
        (ld([{"@type": "Person"}, {"@type": "WebPage", "dateModified": WHEN}]), "", JSON_LD),
        (ld({"@graph": [{"@type": "WebSite"}, {"dateModified": WHEN}]}), "", JSON_LD),
        (ld({"dateModified": [WHEN, "2020-01-01"]}), "", JSON_LD),
        ("", ld({"dateModified": WHEN}), JSON_LD),  # in the body too
        (
            f'<script type=" Application/LD+JSON ">{{"dateModified": "{WHEN}"}}</script>',
            "",
            JSON_LD,
        ),
        (f'<meta property="article:modified_time" content="{WHEN}">', "", ARTICLE_MODIFIED),
        (f"<META PROPERTY=article:modified_time CONTENT={WHEN}>", "", ARTICLE_MODIFIED),
        (f'<meta property="og:updated_time" content="{WHEN}">', "", OG_UPDATED),
        (f'<meta itemprop="dateModified" content="{WHEN}">', "", ITEMPROP_MODIFIED),
        (
            "",
            f'<div itemscope><meta itemprop=dateModified content="{WHEN}"></div>',
            ITEMPROP_MODIFIED,
        ),
        (
            "",
            f'Last updated on <time datetime="{WHEN}" itemprop="dateModified">May 6</time>',
            ITEMPROP_MODIFIED,
        ),
        # Docusaurus: <span>Last updated<!-- --> on <b><time datetime=...>
        (
            "",
            f'<span>Last updated<!-- --> on <b><time datetime="{WHEN}">May 6</time></b></span>',
            LAST_UPDATED_LINE,
        ),
        (
            "",
            f"<p><strong><i class=x></i> Updated:</strong> <time datetime={WHEN}>May 6</time></p>",
            LAST_UPDATED_LINE,
        ),
        (
            "",
            f"<div>Page last updated <time datetime='{WHEN}'>May 6</time></div>",
            LAST_UPDATED_LINE,
        ),
        ("", f"<div>Last modified: <time datetime={WHEN}>May 6</time></div>", LAST_UPDATED_LINE),
        (
            "",
            f"<footer><span>Last&nbsp;update</span> <time datetime={WHEN}>x</time></footer>",
            LAST_UPDATED_LINE,
        ),
    ],
)
def test_each_kind_of_declaration_is_read(head: str, body: str, source: str) -> None:
    date = declared_date(page(head, body))
    assert date is not None
    assert (date.when, date.precision, date.source) == (INSTANT, DeclaredPrecision.TIME, source)


PUBLISHED = "2019-01-01T00:00:00Z"


@pytest.mark.parametrize(
    ("head", "body"),
    [
        ("", f'Published <time datetime="{PUBLISHED}">Jan 1</time>'),
        ("", f'<p>Posted on <time datetime="{PUBLISHED}">Jan 1</time></p>'),
        # A <time> whose line does not begin with "last updated".
        ("", f'<p>This was never updated: <time datetime="{WHEN}">x</time></p>'),
        ("", "<p>Updated <time>May 6</time></p>"),  # no datetime
        # Not a declaration where a parser sees one: comments, raw text, template content.
        (f'<!-- <meta property="article:modified_time" content="{WHEN}"> -->', ""),
        (f'<noscript><meta property="article:modified_time" content="{WHEN}"></noscript>', ""),
        (f'<style>/* <meta property="article:modified_time" content="{WHEN}"> */</style>', ""),
        ("", f'<template><meta property="article:modified_time" content="{WHEN}"></template>'),
        ("", f'<textarea><time datetime="{WHEN}">Last updated</time></textarea>'),
        ("", f'<iframe><meta property="article:modified_time" content="{WHEN}"></iframe>'),
        ("", f'<xmp><meta property="article:modified_time" content="{WHEN}"></xmp>'),
        (
            f"<script>var s = '<meta property=article:modified_time content={WHEN}>';</script>",
            "",
        ),
        # Not JSON-LD, or JSON-LD whose dateModified is of something else or no date.
        (f'<script type="application/json">{{"dateModified": "{WHEN}"}}</script>', ""),
        (ld({"author": {"dateModified": WHEN}}), ""),
        (ld({"dateModified": "last week"}), ""),
        (ld({"dateModified": 20230506}), ""),
        ('<meta property="article:modified_time" content="">', ""),
        ('<meta property="article:modified_time">', ""),
    ],
)
def test_what_declares_no_modification_date(head: str, body: str) -> None:
    assert list(declared_dates(page(head, body))) == []


@pytest.mark.parametrize(
    ("head", "source"),
    [
        (ld({"@type": "Article", "datePublished": PUBLISHED}), JSON_LD_PUBLISHED),
        (ld({"@graph": [{"datePublished": PUBLISHED, "dateCreated": "x"}]}), JSON_LD_PUBLISHED),
        (f'<meta property="article:published_time" content="{PUBLISHED}">', ARTICLE_PUBLISHED),
        (f'<meta itemprop="datePublished" content="{PUBLISHED}">', ITEMPROP_PUBLISHED),
        (f'<p><time itemprop="datePublished" datetime="{PUBLISHED}">x</time>', ITEMPROP_PUBLISHED),
    ],
)
def test_publication_dates_are_read_as_such_and_never_as_modification_dates(
    head: str, source: str
) -> None:
    # The page may have been edited since: a publication date is read only to hold the
    # modification dates against (sitemill.lastmod.declared.checks), never to date the page.
    dates = list(declared_dates(page(head)))
    assert [(date.source, date.w3c(), date.published) for date in dates] == [
        (source, "2019-01-01T00:00:00Z", True)
    ]
    assert declared_date(page(head)) is None


@pytest.mark.parametrize(
    "script",
    [
        '<script type="application/ld+json">{"dateModified": "2023-05-06", </script>',  # cut
        '<script type="application/ld+json">{"dateModified": "2023-05-06"}}}</script>',
        '<script type="application/ld+json">\xff\xfe</script>',
        # Too big: a huge document is not parsed, even with its date at the start.
        '<script type="application/ld+json">{"dateModified": "2023-05-06", "x": "'
        + "a" * MAX_JSON_LD_BYTES
        + '"}</script>',
        # Too deep (a parser's recursion), however small.
        '<script type="application/ld+json">{"dateModified": "2023-05-06", "x": '
        + "[" * (MAX_JSON_DEPTH + 1)
        + "]" * (MAX_JSON_DEPTH + 1)
        + "}</script>",
        '<script type="application/ld+json">' + "[" * 60_000 + "</script>",
    ],
)
def test_hostile_json_ld_is_ignored(script: str) -> None:
    assert declared_date(page(script)) is None


def test_brackets_inside_strings_are_no_depth() -> None:
    text = "[" * 1000
    document = {"dateModified": WHEN, "name": text}
    assert declared_date(page(ld(document))) is not None


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"<",
        b"<meta property=article:modified_time content=2023-05-06",  # cut off
        b'<meta property="article:modified_time" content="2023-05-06',
        b"<!-- <meta property=article:modified_time content=2023-05-06>",  # open comment
        b"<script type=application/ld+json>" + b"{" * 100_000,
        b"<time datetime=2023-05-06>" * 10_000,
        bytes(range(256)) * 100,
    ],
)
def test_hostile_pages_give_nothing_without_error(data: bytes) -> None:
    assert list(declared_dates(data)) == []


def test_the_first_declaration_wins_and_all_are_listed() -> None:
    data = page(
        f'<meta property="article:modified_time" content="{WHEN}">'
        + ld({"dateModified": "2020-01-01"})
    )
    assert [date.source for date in declared_dates(data)] == [ARTICLE_MODIFIED, JSON_LD]
    first = declared_date(data)
    assert first is not None and first.source == ARTICLE_MODIFIED


def test_only_the_first_bytes_are_read() -> None:
    late = f'<meta itemprop="dateModified" content="{WHEN}">'.encode()
    filler = b"<p>" + b"x" * DECLARED_BYTES + b"</p>"
    assert declared_date(page() + late) is not None
    assert declared_date(page().replace(b"<body>", b"<body>" + filler) + late) is None


def test_a_big_page_is_read_in_linear_time() -> None:
    def page_of(size: int) -> bytes:
        return b"<p>Updated <time datetime=x>" * (size // 28) + b"<!--" * (size // 512)

    assert declared_date(page_of(DECLARED_BYTES)) is None
    # Eight times the bytes take about eight times as long, 64 times if quadratic.
    assert timing.linear(declared_date, page_of(8_192), page_of(65_536), 20)


def test_real_docsy_page_declares_its_modified_time_and_its_published_time() -> None:
    data = (FIXTURES / "hugegraph-docsy-blog.html").read_bytes()
    dates = [date for date in declared_dates(data) if not date.published]
    assert [date.source for date in dates] == [ARTICLE_MODIFIED, ITEMPROP_MODIFIED]
    assert {date.w3c() for date in dates} == {"2022-03-21T10:55:33Z"}  # not 2018-01-04
    published = {(d.source, d.w3c()) for d in declared_dates(data) if d.published}
    assert (ARTICLE_PUBLISHED, "2018-01-04T00:00:00Z") in published


def test_real_minimal_mistakes_post_declares_three_modification_times() -> None:
    data = (FIXTURES / "geekdude-minimal-mistakes-post.html").read_bytes()
    dates = [(date.source, date.w3c()) for date in declared_dates(data)]
    assert dates == [
        (ARTICLE_PUBLISHED, "2022-04-14T04:00:00Z"),
        (ARTICLE_MODIFIED, "2022-04-26T10:00:00Z"),
        (ITEMPROP_PUBLISHED, "2022-04-14T04:00:00Z"),
        (ITEMPROP_MODIFIED, "2022-04-26T10:00:00Z"),
        (LAST_UPDATED_LINE, "2022-04-26"),  # its "Updated:" line: a date
    ]


def test_real_material_last_update_without_a_time_element_declares_nothing() -> None:
    data = (FIXTURES / "pymdown-material-last-update.html").read_bytes()
    assert declared_date(data) is None
