"""A link to /x names the folder page /x/ (x/index.html) when the site has no page /x.

The shapes are Docusaurus's (trailingSlash unset, its default): every page's canonical and
alternates are written without the final slash, while the file is docs/intro/index.html, which
GitHub Pages, Netlify and S3 website hosting serve at /docs/intro/. Before the rule, sitemill
dropped almost every such cluster (2 of 386 URLs kept their alternates on one real site).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from conftest import write_site
from outputlist import build_from_tree, rebuild_bucket
from s3util import BUCKET, moto_bucket
from sitemill.config.model import load_config
from sitemill.entries import SkipReason
from sitemill.jobs.bucket import BucketSite
from sitemill.listing._aliases import FolderAliases
from sitemill.sinks import MemorySink
from sitemill.urls import UrlStyle
from xsd import assert_xsd_valid

BASE = "https://example.com/"
SITE_KEY = "https://example.com/"


def docusaurus_page(title: str, path: str, *, canonical: str | None = None) -> str:
    """A page's head as Docusaurus writes it: canonical and alternates without a final slash,
    English at the root, French under /fr/, x-default the English page."""
    own = canonical if canonical is not None else f"https://example.com/{path}"
    plain = path.removeprefix("fr/")
    return (
        '<!doctype html><html lang="en" dir="ltr"><head><meta charset="UTF-8">'
        f"<title>{title} | My Site</title>"
        f'<link data-rh="true" rel="canonical" href="{own}">'
        f'<link data-rh="true" rel="alternate" href="https://example.com/{plain}" hreflang="en">'
        f'<link data-rh="true" rel="alternate" href="https://example.com/fr/{plain}" '
        'hreflang="fr">'
        f'<link data-rh="true" rel="alternate" href="https://example.com/{plain}" '
        'hreflang="x-default">'
        f"</head><body><main><h1>{title}</h1></main></body></html>"
    )


DOCUSAURUS = {
    "index.html": docusaurus_page("Home", "").replace('href="https://example.com/"', 'href="/"'),
    "docs/intro/index.html": docusaurus_page("Intro", "docs/intro"),
    "docs/tutorial/basics/index.html": docusaurus_page("Basics", "docs/tutorial/basics"),
    "fr/docs/intro/index.html": docusaurus_page("Intro FR", "fr/docs/intro"),
    "fr/docs/tutorial/basics/index.html": docusaurus_page("Bases", "fr/docs/tutorial/basics"),
}


def config(**values: Any) -> Any:
    return load_config({"base_url": BASE, "lastmod": "none", "content_dates": False, **values})


def tree_sitemap(tmp_path: Path, files: Mapping[str, str], **values: Any) -> tuple[bytes, Any]:
    sink = MemorySink()
    report = build_from_tree(config(**values), write_site(tmp_path / "site", files), sink)
    return sink.files["sitemap.xml"], report


def clusters(data: bytes) -> dict[str, list[tuple[str, str]]]:
    found: dict[str, list[tuple[str, str]]] = {}
    for url in re.findall(rb"<url>.*?</url>", data, re.S):
        loc = re.search(rb"<loc>(.*?)</loc>", url)
        assert loc is not None
        found[loc[1].decode()] = [
            (lang.decode(), href.decode())
            for lang, href in re.findall(rb'hreflang="([^"]+)" href="([^"]+)"', url)
        ]
    return found


def test_docusaurus_clusters_name_the_folder_pages(tmp_path: Path) -> None:
    data, report = tree_sitemap(tmp_path, DOCUSAURUS)
    assert_xsd_valid(data)
    found = clusters(data)
    intro = [
        ("en", "https://example.com/docs/intro/"),
        ("fr", "https://example.com/fr/docs/intro/"),
        ("x-default", "https://example.com/docs/intro/"),
    ]
    assert found["https://example.com/docs/intro/"] == intro
    assert found["https://example.com/fr/docs/intro/"] == intro
    assert len(found["https://example.com/fr/docs/tutorial/basics/"]) == 3
    assert len(found) == 5  # every page listed: each canonical names the page itself
    assert not report.skipped
    assert not [line for line in report.warnings if "canonical" in line and "not list" in line]
    (line,) = [line for line in report.warnings if "folder page" in line]
    assert re.match(r"\d+ canonical or alternate link\(s\) without the final slash", line)


def test_a_page_named_x_html_is_not_the_folder(tmp_path: Path) -> None:
    # x.html and x/index.html both exist: /x is x.html, so the folder page whose canonical is
    # /x names another listed page and is left out (walk order sees x/ first: the tree knows).
    files = {
        "x.html": "<!doctype html><html><head><title>x</title></head><body>x</body></html>",
        "x/index.html": '<!doctype html><html><head><link rel="canonical" href="/x">'
        "<title>x/</title></head><body>x/</body></html>",
    }
    data, report = tree_sitemap(tmp_path, files)
    assert b"<loc>https://example.com/x.html</loc>" in data
    assert b"<loc>https://example.com/x/</loc>" not in data
    assert report.skipped[SkipReason.CANONICAL] == 1
    assert not [line for line in report.warnings if "folder page" in line]


def test_a_translation_whose_canonical_names_the_folder_page_is_left_out(tmp_path: Path) -> None:
    # "de/" sorts before "docs/": the German page waits for the English folder page.
    files = {
        "docs/intro/index.html": docusaurus_page("Intro", "docs/intro"),
        "de/docs/intro/index.html": docusaurus_page(
            "Intro DE", "de/docs/intro", canonical="https://example.com/docs/intro"
        ),
    }
    data, report = tree_sitemap(tmp_path, files)
    assert b"<loc>https://example.com/de/docs/intro/</loc>" not in data
    assert [(skip.path, skip.reason) for skip in report.skips] == [
        ("de/docs/intro/index.html", SkipReason.CANONICAL)
    ]


def test_clean_urls_name_the_page_without_the_slash(tmp_path: Path) -> None:
    files = {
        "a/b.html": '<!doctype html><html><head><link rel="canonical" href="/a/b/">'
        '<link rel="alternate" hreflang="en" href="/a/b/">'
        '<link rel="alternate" hreflang="fr" href="/fr/a/b/">'
        "<title>b</title></head><body>b</body></html>",
        "fr/a/b.html": '<!doctype html><html><head><link rel="canonical" href="/fr/a/b/">'
        '<link rel="alternate" hreflang="en" href="/a/b/">'
        '<link rel="alternate" hreflang="fr" href="/fr/a/b/">'
        "<title>b</title></head><body>b</body></html>",
    }
    data, report = tree_sitemap(tmp_path, files, url_style="clean")
    found = clusters(data)
    assert found["https://example.com/a/b"] == [
        ("en", "https://example.com/a/b"),
        ("fr", "https://example.com/fr/a/b"),
    ]
    assert not report.skipped
    # In the directory style /a/b/ is no spelling of /a/b.html: the alternates are unlisted.
    data, _ = tree_sitemap(tmp_path / "directory", files)
    assert b"hreflang" not in data


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def test_a_bucket_gives_the_trees_bytes(s3: Any, tmp_path: Path) -> None:
    files = {
        **DOCUSAURUS,
        "de/docs/intro/index.html": docusaurus_page(
            "Intro DE", "de/docs/intro", canonical="https://example.com/docs/intro"
        ),
        "y.html": "<!doctype html><html><head><title>y</title></head><body>y</body></html>",
        "y/index.html": '<!doctype html><html><head><link rel="canonical" href="/y">'
        "<title>y/</title></head><body>y/</body></html>",
    }
    for key, body in files.items():
        s3.put_object(Bucket=BUCKET, Key=key, Body=body.encode())
    rebuild_bucket(config(), s3, BucketSite(BUCKET))
    from_bucket = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    from_tree, _ = tree_sitemap(tmp_path, files)
    assert from_bucket == from_tree
    assert b"<loc>https://example.com/y/</loc>" not in from_bucket
    assert b"<loc>https://example.com/de/docs/intro/</loc>" not in from_bucket
    assert b"<loc>https://example.com/docs/intro/</loc>" in from_bucket


def test_a_noindex_page_at_x_keeps_x_its_own() -> None:
    aliases = FolderAliases(SITE_KEY, clean=False)
    aliases.saw("https://example.com/x")  # x.html, left out as noindex
    aliases.saw("https://example.com/x/")
    assert aliases.names("https://example.com/x", final=True) == "https://example.com/x"
    assert aliases.used == 0


@pytest.mark.parametrize(
    ("key", "other"),
    [
        ("https://example.com/x", "https://example.com/x/"),
        ("https://example.com/a/b", "https://example.com/a/b/"),
        ("https://example.com/x/", None),  # the directory style: /x/ is only x/index.html
        ("https://example.com/", None),  # the root
        ("https://example.com/x?a=1", None),  # a query is another resource
        ("https://other.example/x", None),  # off the site
    ],
)
def test_other_spelling(key: str, other: str | None) -> None:
    assert FolderAliases(SITE_KEY, clean=False).other_spelling(key) == other


def test_s3_order_decides_at_once_and_trees_ask_their_files() -> None:
    s3_order = FolderAliases(SITE_KEY, clean=False)
    s3_order.saw("https://example.com/x/")
    # In key order x, x.htm, x.html come before x/: once /x/ is seen, /x is none.
    assert s3_order.names("https://example.com/x") == "https://example.com/x/"
    files = {"x/index.html", "x.htm"}
    tree = FolderAliases(SITE_KEY, clean=False, holds=files.__contains__)
    tree.saw("https://example.com/x/")
    assert tree.names("https://example.com/x", final=True) == "https://example.com/x"
    clean = FolderAliases(SITE_KEY, clean=True)
    clean.saw("https://example.com/x")
    assert clean.names("https://example.com/x/") == "https://example.com/x/"  # x/ may come
    assert clean.names("https://example.com/x/", final=True) == "https://example.com/x"
    assert UrlStyle.CLEAN  # (the style whose /x/ names /x)
