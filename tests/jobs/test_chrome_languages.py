"""Site chrome per language, end to end: a two-language site (Docusaurus's shape: each
language's logo on each of its pages, half the site each) leaves both logos out and keeps each
page's own images, from a tree and from a moto bucket alike, whether a page's language comes
from its hreflang cluster, its language folder or its <html lang>; a one-language site is as
before; a tiny third language keeps its logo."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import write_site
from outputlist import build_from_tree, rebuild_bucket
from s3util import BUCKET, moto_bucket
from sitemill.alternates import clusters as clusters_module
from sitemill.config.model import load_config
from sitemill.images.chrome import MIN_CHROME_PAGES
from sitemill.jobs.bucket import BucketSite
from sitemill.sinks import MemorySink
from xsd import assert_xsd_valid

BASE = "https://example.com/"
PAGES = 25  # per language
FOLDERS = {"en": "**", "fr": "fr/**"}


def page(lang: str, prefix: str, number: int, how: str) -> str:
    """A page as Docusaurus writes it: the language's logo in the navbar, a screenshot of its
    own in the article; its language said by hreflang links, <html lang> or nothing (folders)."""
    path = f"docs/p{number}/"
    head = ""
    if how == "hreflang":
        head = (
            f'<link rel="alternate" href="{BASE}{path}" hreflang="en">'
            f'<link rel="alternate" href="{BASE}fr/{path}" hreflang="fr">'
            f'<link rel="alternate" href="{BASE}{path}" hreflang="x-default">'
        )
    html_tag = f'<html lang="{lang}" dir="ltr">' if how != "folders" else "<html>"
    return (
        f"<!doctype html>{html_tag}<head><title>{lang} {number}</title>{head}</head><body>"
        f'<nav class="navbar"><img src="/{prefix}img/logo.svg" alt="Logo"></nav>'
        f'<main><article><img src="/{prefix}{path}shot.png"></article></main></body></html>'
    )


def site_files(how: str, *, tiny: int = 0) -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {}
    languages = [("en", ""), ("fr", "fr/")] + ([("de", "de/")] if tiny else [])
    for lang, prefix in languages:
        files[f"{prefix}img/logo.svg"] = b"<svg/>"
        for number in range(tiny if lang == "de" else PAGES):
            # (the tiny language's pages name no others: their <html lang> says it)
            said = "html-lang" if lang == "de" and how == "hreflang" else how
            files[f"{prefix}docs/p{number}/index.html"] = page(lang, prefix, number, said)
            files[f"{prefix}docs/p{number}/shot.png"] = b"png"
    return files


def config(how: str, **values: Any) -> Any:
    values = {"base_url": BASE, "lastmod": "none", "images": True, **values}
    if how == "folders":
        values["alternates"] = FOLDERS
    return load_config(values)


def from_tree(tmp_path: Path, files: dict[str, str | bytes], settings: Any) -> tuple[bytes, Any]:
    sink = MemorySink()
    report = build_from_tree(settings, write_site(tmp_path / "site", files), sink)
    return sink.files["sitemap.xml"], report


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def from_bucket(s3: Any, files: dict[str, str | bytes], settings: Any) -> tuple[bytes, Any]:
    for key, body in files.items():
        s3.put_object(Bucket=BUCKET, Key=key, Body=body.encode() if isinstance(body, str) else body)
    report = rebuild_bucket(settings, s3, BucketSite(BUCKET))
    return s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read(), report


def logos(data: bytes) -> list[str]:
    return [logo for logo in ("img/logo.svg", "fr/img/logo.svg") if f">{BASE}{logo}<" in str(data)]


@pytest.mark.parametrize("how", ["hreflang", "html-lang", "folders"])
def test_each_languages_logo_is_left_out_from_a_tree_and_a_bucket_alike(
    how: str, s3: Any, tmp_path: Path
) -> None:
    files = site_files(how)
    tree, report = from_tree(tmp_path, files, config(how))
    bucket, bucket_report = from_bucket(s3, files, config(how))
    assert tree == bucket
    assert logos(tree) == []
    for prefix in ("", "fr/"):
        for number in range(PAGES):
            shot = f"<image:loc>{BASE}{prefix}docs/p{number}/shot.png</image:loc>"
            assert shot.encode() in tree
    assert report.image_chrome == bucket_report.image_chrome == 2 * PAGES
    assert report.images == bucket_report.images == 2 * PAGES
    chrome_lines = [w for w in report.warnings if "site-chrome" in w]
    assert chrome_lines == [
        f"left out 2 site-chrome images shown on {PAGES} of {2 * PAGES} pages, most of their "
        f"language's (en {PAGES}, fr {PAGES}) (e.g. {BASE}fr/img/logo.svg); "
        "keep_image_chrome = true keeps them"
    ]
    assert_xsd_valid(tree, warnings=True)
    # Without the languages (keep_image_chrome aside), half the site each is no majority.
    kept, _ = from_tree(tmp_path / "kept", files, config(how, keep_image_chrome=True))
    assert len(logos(kept)) == 2


def test_a_bucket_remembers_each_pages_language_in_its_state(s3: Any) -> None:
    files = site_files("html-lang")
    first, _ = from_bucket(s3, files, config("html-lang"))
    gets: list[str] = []
    s3.meta.events.register(
        "before-call.s3.GetObject", lambda params, **_: gets.append(params["url_path"])
    )
    report = rebuild_bucket(config("html-lang"), s3, BucketSite(BUCKET))
    assert [path for path in gets if path.endswith(".html")] == []  # facts from the state
    assert report.result.written == [] and report.image_chrome == 2 * PAGES
    assert s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read() == first


def test_languages_come_from_clusters_spooled_to_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The French pages claim lang="en" (a theme's fallback): their clusters say fr, and win.
    files = site_files("hreflang")
    for number in range(PAGES):
        key = f"fr/docs/p{number}/index.html"
        files[key] = str(files[key]).replace('lang="fr"', 'lang="en"')
    in_memory, _ = from_tree(tmp_path / "memory", files, config("hreflang"))
    monkeypatch.setattr(clusters_module, "SPOOL_IN_MEMORY", 3)
    on_disk, report = from_tree(tmp_path / "disk", files, config("hreflang"))
    assert in_memory == on_disk and logos(on_disk) == []
    assert report.image_chrome == 2 * PAGES


def test_a_one_language_site_is_unchanged_by_its_html_lang(tmp_path: Path) -> None:
    # English pages with their language said, beside as many that say none: an image on
    # 30 of the 40 English pages (most of them, not most of the site) is kept, as before.
    files: dict[str, str | bytes] = {"tag.png": b"png"}
    for number in range(40):
        tag = '<img src="/tag.png">' if number < 30 else ""
        files[f"en/p{number}/index.html"] = (
            f'<!doctype html><html lang="en"><head><title>{number}</title></head>'
            f"<body>{tag}<p>text</p></body></html>"
        )
    for number in range(40):
        files[f"misc/p{number}/index.html"] = "<!doctype html><html><body><p>misc</p></body>"
    data, report = from_tree(tmp_path / "said", files, config("html-lang"))
    unsaid = {
        key: value.replace(' lang="en"', "") if isinstance(value, str) else value
        for key, value in files.items()
    }
    plain, _ = from_tree(tmp_path / "unsaid", unsaid, config("html-lang"))
    assert data == plain and data.count(b"/tag.png<") == 30
    assert report.image_chrome == 0


def test_a_tiny_third_language_keeps_its_logo(tmp_path: Path) -> None:
    tiny = 3
    data, report = from_tree(tmp_path, site_files("hreflang", tiny=tiny), config("hreflang"))
    assert logos(data) == []  # English and French: each most of its language
    assert data.count(f"{BASE}de/img/logo.svg<".encode()) == tiny < MIN_CHROME_PAGES
    assert data.count(b"shot.png<") == 2 * PAGES + tiny
    assert report.image_chrome == 2 * PAGES
    assert f"(en {PAGES}, fr {PAGES})" in "\n".join(report.warnings)
