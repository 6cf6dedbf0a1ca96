"""Canonicals that cross languages are named in the summary, with a count and an example.

The shape is mkdocs-static-i18n's on a real MkDocs Material site in 20 languages: each
translation's canonical names the English page, while its hreflang alternates name itself under
its own language. 4,921 translations were left out there, with only the generic warning.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import write_site
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.entries import SkipReason
from sitemill.html.facts import read_page_facts
from sitemill.listing._crosslang import canonical_languages
from sitemill.sinks import MemorySink

BASE = "https://example.com/"


def mkdocs_page(path: str, canonical: str) -> str:
    plain = path.removeprefix("fr/").removeprefix("de/")
    return (
        '<!doctype html><html lang="fr"><head><meta charset="utf-8">'
        f'<link rel="canonical" href="{canonical}">'
        f'<link rel="alternate" href="/{plain}" hreflang="en">'
        f'<link rel="alternate" href="/fr/{plain}" hreflang="fr">'
        f'<link rel="alternate" href="/de/{plain}" hreflang="de-DE">'
        f"<title>{path}</title></head><body><article>{path}</article></body></html>"
    )


def build(tmp_path: Path, files: dict[str, str]) -> tuple[bytes, Any]:
    sink = MemorySink()
    config = load_config({"base_url": BASE, "lastmod": "none", "content_dates": False})
    report = build_from_tree(config, write_site(tmp_path / "site", files), sink)
    return sink.files["sitemap.xml"], report


def test_translations_naming_the_english_page_are_counted_and_named(tmp_path: Path) -> None:
    files = {
        "guide/index.html": mkdocs_page("guide/", "https://example.com/guide/"),
        "fr/guide/index.html": mkdocs_page("fr/guide/", "https://example.com/guide/"),
        "de/guide/index.html": mkdocs_page("de/guide/", "https://example.com/guide/"),
        # Its own canonical: no mismatch.
        "fr/about/index.html": mkdocs_page("fr/about/", "https://example.com/fr/about/"),
    }
    data, report = build(tmp_path, files)
    assert b"<loc>https://example.com/guide/</loc>" in data
    assert b"<loc>https://example.com/fr/guide/</loc>" not in data
    assert report.skipped[SkipReason.CANONICAL] == 2
    (line,) = [line for line in report.warnings if "another language" in line]
    assert line.startswith("2 page(s) name a page in another language as their canonical")
    assert "(2 left out as copies of it)" in line
    assert "de/guide/index.html (de) names https://example.com/guide/ (en)" in line


def test_an_unlisted_or_off_site_english_page_is_named_too(tmp_path: Path) -> None:
    files = {
        # The English page is not in this sitemap (another host serves it): the translation
        # stays listed, and the warnings say why its canonical looks wrong.
        "fr/guide/index.html": mkdocs_page("fr/guide/", "/guide/"),
        "fr/off/index.html": mkdocs_page("fr/off/", "https://docs.example.org/off/").replace(
            'href="/off/" hreflang="en"', 'href="https://docs.example.org/off/" hreflang="en"'
        ),
    }
    data, report = build(tmp_path, files)
    assert b"<loc>https://example.com/fr/guide/</loc>" in data
    assert b"<loc>https://example.com/fr/off/</loc>" in data
    (line,) = [line for line in report.warnings if "another language" in line]
    assert line.startswith("2 page(s)") and "(0 left out" in line
    assert any("off this site" in warning for warning in report.warnings)
    assert any("does not list" in warning for warning in report.warnings)


def test_only_the_pages_own_alternates_decide() -> None:
    def languages(head: str, target: str) -> tuple[str, str] | None:
        facts = read_page_facts(f"<!doctype html><html><head>{head}</head></html>".encode())
        own = "https://example.com/fr/a/"
        return canonical_languages(facts, own, own, target, lambda key: key)

    fr_en = (
        '<link rel="alternate" hreflang="fr-CA" href="/fr/a/">'
        '<link rel="alternate" hreflang="EN" href="/a/">'
    )
    assert languages(fr_en, "https://example.com/a/") == ("fr", "en")
    # x-default alone says nothing about the target's language.
    x_default = (
        '<link rel="alternate" hreflang="fr" href="/fr/a/">'
        '<link rel="alternate" hreflang="x-default" href="/a/">'
    )
    assert languages(x_default, "https://example.com/a/") is None
    # Two regions of one language are one language (a canonical across them is a copy).
    regions = (
        '<link rel="alternate" hreflang="fr-FR" href="/fr/a/">'
        '<link rel="alternate" hreflang="fr-CA" href="/a/">'
    )
    assert languages(regions, "https://example.com/a/") is None
    assert languages("", "https://example.com/a/") is None  # no alternates: no verdict
    bad = '<link rel="alternate" hreflang="en_US" href="/a/"><link rel="alternate" href="/x">'
    assert languages(bad, "https://example.com/a/") is None
