"""The dates of the generator's sitemap that sitemill replaces, looked up by a page's URL."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from sitemill.lastmod.declared.w3cdate import REPLACED_SITEMAP, DeclaredPrecision
from sitemill.writing.replaced import page_key, replaced_dates, urlset_dates
from sitemill.writing.takeover import find_takeover
from sitemill.writing.takeoverfiles import FolderFiles

FIXTURES = Path(__file__).parent / "fixtures"
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def urlset(*urls: str) -> bytes:
    return f"<?xml version='1.0'?><urlset {NS}>{''.join(urls)}</urlset>".encode()


def url(loc: str, lastmod: str | None = None) -> str:
    return (
        f"<url><loc>{loc}</loc>" + (f"<lastmod>{lastmod}</lastmod>" if lastmod else "") + "</url>"
    )


@pytest.mark.parametrize(
    ("loc", "lookups"),
    [
        ("https://h/a/", ["https://h/a/", "https://h/a/index.html", "https://h/a", "/a/"]),
        ("https://h/a.html", ["https://h/a", "https://h/a.html", "https://other/a/"]),
        ("/docs/x/", ["https://h/docs/x/index.html", "https://h/docs/x"]),  # Hugo: no origin
        ("https://h/caf%C3%A9/", ["https://h/café/", "https://h/caf%C3%A9/index.html"]),
        ("https://h/", ["https://h/", "https://h/index.html", "https://h"]),
    ],
)
def test_a_page_is_found_by_any_spelling_of_its_url(loc: str, lookups: list[str]) -> None:
    dates = urlset_dates(urlset(url(loc, "2021-02-03")))
    for lookup in lookups:
        date = dates.date_of(lookup)
        assert date is not None, lookup
        assert (date.w3c(), date.source) == ("2021-02-03", REPLACED_SITEMAP)
    assert dates.date_of("https://h/elsewhere/") is None


def test_pages_without_a_valid_lastmod_have_none() -> None:
    dates = urlset_dates(
        urlset(
            url("https://h/a/"),
            url("https://h/b/", "not a date"),
            url("https://h/c/", "2020-01-01T10:00:00+02:00"),
            url("https://h/c/", "2024-01-01"),  # the first of a page's counts
            "<url><lastmod>2020-01-01</lastmod></url>",  # no loc
        )
    )
    assert {key: date.w3c() for key, date in dates.dates.items()} == {"/c": "2020-01-01T08:00:00Z"}


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"<html><body>not a sitemap</body></html>",
        b'<urlset xmlns="http://example.com/other"><url><loc>/a/</loc><lastmod>2020-01-01</lastmod></url></urlset>',
        # A DOCTYPE (entities) is refused before any entity expands.
        b'<?xml version="1.0"?><!DOCTYPE u [<!ENTITY d "2020-01-01">]><urlset '
        + NS.encode()
        + b"><url><loc>/a/</loc><lastmod>&d;</lastmod></url></urlset>",
    ],
)
def test_what_is_no_urlset_gives_no_date(data: bytes) -> None:
    assert urlset_dates(data).dates == {}


def test_a_document_cut_off_keeps_what_was_read() -> None:
    data = urlset(url("/a/", "2020-01-01"), url("/b/", "2020-01-02"))
    dates = urlset_dates(data[: data.index(b"<url><loc>/b/") + 12])
    assert list(dates.dates) == ["/a"]


def test_real_mkdocs_sitemap(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "pymdown-mkdocs-sitemap.xml", tmp_path / "sitemap.xml")
    files = FolderFiles(tmp_path)
    dates = replaced_dates(
        files,
        find_takeover(files, text=False),
        "https://facelessuser.github.io/pymdown-extensions/",
    )
    date = dates.date_of("https://facelessuser.github.io/pymdown-extensions/faq/index.html")
    assert date is not None and (date.w3c(), date.precision) == (
        "2025-07-28",
        DeclaredPrecision.DAY,
    )
    assert len(dates.dates) == 3


def test_real_hugo_index_reads_its_children_in_the_folder(tmp_path: Path) -> None:
    site = tmp_path / "public"
    shutil.copytree(FIXTURES / "hugegraph-site", site)  # cn/sitemap.xml is not there
    files = FolderFiles(site)
    takeover = find_takeover(files, text=False)
    dates = replaced_dates(files, takeover, "https://hugegraph.apache.org/")
    assert {key: date.w3c() for key, date in dates.dates.items()} == {
        "/docs/guides/architectural": "2026-03-09T12:36:34Z",
        "/docs/clients/restful-api/graphspace": "2026-02-02T09:09:34Z",
    }


def test_a_gzip_child_is_inflated(tmp_path: Path) -> None:
    index = (
        f"<sitemapindex {NS}><sitemap><loc>https://h/s/one.xml.gz</loc></sitemap></sitemapindex>"
    )
    (tmp_path / "sitemap.xml").write_text(index)
    (tmp_path / "one.xml.gz").write_bytes(
        gzip.compress(urlset(url("https://h/s/a/", "2020-01-01")))
    )
    files = FolderFiles(tmp_path)
    dates = replaced_dates(files, find_takeover(files, text=False), "https://h/s/")
    assert dates.date_of("https://h/s/a/") is not None


def test_no_replaced_sitemap_gives_no_dates(tmp_path: Path) -> None:
    files = FolderFiles(tmp_path)
    assert replaced_dates(files, find_takeover(files, text=False), "https://h/").dates == {}


def test_page_key_spellings() -> None:
    assert page_key("https://h/a/b/index.htm") == "/a/b"
    assert page_key(" https://h/a/b/?q=1#f ") == "/a/b"
    assert page_key("https://h/index.html") == ""
