"""Sitemap extensions end to end: hreflang alternates and images, from a tree and a bucket,
valid against the XSDs, reciprocal across split files, deterministic, and no-op on rerun."""

from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import write_site
from s3util import BUCKET, moto_bucket
from sitemill.config.model import load_config
from sitemill.jobs.bucket import BucketSite, rebuild_bucket
from sitemill.jobs.tree import build_from_tree
from sitemill.sinks import LocalDirSink, MemorySink
from xsd import assert_valid_sitemaps

BASE = "https://example.com/"
NS = {
    "s": "http://www.sitemaps.org/schemas/sitemap/0.9",
    "xhtml": "http://www.w3.org/1999/xhtml",
    "image": "http://www.google.com/schemas/sitemap-image/1.1",
}
XHTML_DECLARATION = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"'
IMAGE_DECLARATION = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'


def html(title: str, head: str = "", body: str = "") -> str:
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{title}</title>{head}</head>'
        f"<body><h1>{title}</h1>{body}</body></html>"
    )


def links(*pairs: tuple[str, str]) -> str:
    return "".join(
        f'<link rel="alternate" hreflang="{lang}" href="{href}">' for lang, href in pairs
    )


# Three languages (English for Britain under en/, French, German), x-default on the English
# page; written the ways generators write them: absolute, root-relative, relative.
FULL = (
    ("en-GB", "https://example.com/en/guide/"),
    ("fr", "/fr/guide/"),
    ("de", "../../de/guide/index.html"),
    ("x-default", "https://example.com/en/guide/"),
)
MULTILINGUAL = {
    "en/guide/index.html": html("Guide", links(*FULL)),
    "fr/guide/index.html": html("Guide FR", links(*FULL)),
    # The German page names nobody: the others' declarations still put it in the cluster.
    "de/guide/index.html": html("Anleitung"),
    # About: English and French only, and it names a German page that does not exist.
    "en/about/index.html": html(
        "About",
        links(("en-GB", "/en/about/"), ("fr", "/fr/about/"), ("de", "/de/about/")),
    ),
    "fr/about/index.html": html("A propos", links(("en-GB", "/en/about/"), ("fr", "/fr/about/"))),
    # Names another host (a partner site) and a bad hreflang: both left out, with warnings.
    "en/partner/index.html": html(
        "Partner",
        links(
            ("en-GB", "/en/partner/"),
            ("es", "https://partner.example.org/es/"),
            ("en_US", "/fr/partner/"),
        ),
    ),
    "fr/partner/index.html": html("Partenaire"),
    "en/plain/index.html": html("No alternates"),
}


def config(**values: Any) -> Any:
    return load_config({"base_url": BASE, "lastmod": "none", **values})


def build(site: Path, out: Path, **values: Any) -> Any:
    return build_from_tree(config(**values), site, LocalDirSink(out), output_dir=out)


def url_elements(folder: Path) -> Iterator[ET.Element]:
    for file in sorted(folder.iterdir()):
        if not file.name.startswith("sitemap") or file.name.startswith("sitemap-index"):
            continue
        data = file.read_bytes()
        if file.suffix == ".gz":
            data = gzip.decompress(data)
        root = ET.fromstring(data)
        if root.tag.endswith("urlset"):
            yield from root.findall("s:url", NS)


def clusters(folder: Path) -> dict[str, list[tuple[str, str]]]:
    """loc -> its (hreflang, href) list, over every file of the output."""
    return {
        url.findtext("s:loc", namespaces=NS) or "": [
            (link.get("hreflang") or "", link.get("href") or "")
            for link in url.findall("xhtml:link", NS)
        ]
        for url in url_elements(folder)
    }


def assert_reciprocal(found: dict[str, list[tuple[str, str]]]) -> None:
    for loc, cluster in found.items():
        if not cluster:
            continue
        assert loc in {href for _, href in cluster}, f"{loc} is missing from its own cluster"
        for _, href in cluster:
            assert href in found, f"{loc} names {href}, which is not listed"
            assert sorted(found[href]) == sorted(cluster), f"{loc} and {href} disagree"


GUIDE = [
    ("de", "https://example.com/de/guide/"),
    ("en-GB", "https://example.com/en/guide/"),
    ("fr", "https://example.com/fr/guide/"),
    ("x-default", "https://example.com/en/guide/"),
]
ABOUT = [("en-GB", "https://example.com/en/about/"), ("fr", "https://example.com/fr/about/")]


def test_a_multilingual_site_gets_reciprocal_clusters_of_listed_pages(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", MULTILINGUAL)
    report = build(site, tmp_path / "out")
    found = clusters(tmp_path / "out")
    assert found["https://example.com/en/guide/"] == GUIDE
    assert found["https://example.com/fr/guide/"] == GUIDE
    assert found["https://example.com/de/guide/"] == GUIDE  # declared by the others
    assert found["https://example.com/en/about/"] == ABOUT  # the missing German page is out
    assert found["https://example.com/fr/about/"] == ABOUT
    assert found["https://example.com/en/partner/"] == []  # only itself is left: no cluster
    assert found["https://example.com/en/plain/"] == []
    assert_reciprocal(found)
    assert_valid_sitemaps(tmp_path / "out", BASE, warnings=True)
    warnings = "\n".join(report.warnings)
    assert "1 alternate(s) naming a URL off this site were left out" in warnings
    assert "partner.example.org" in warnings
    assert "1 hreflang value(s) that are not an ISO 639-1 language" in warnings
    assert "'en_US'" in warnings
    assert "1 alternate(s) naming a page this sitemap does not list" in warnings
    assert "https://example.com/de/about/" in warnings


def test_a_page_claiming_two_clusters_changes_neither(tmp_path: Path) -> None:
    honest = write_site(tmp_path / "honest", MULTILINGUAL)
    build(honest, tmp_path / "before")
    claims = links(("en", "/en/guide/"), ("en-GB", "/en/about/"), ("fr", "/fr/partner/"))
    site = write_site(tmp_path / "site", {**MULTILINGUAL, "rogue.html": html("R", claims)})
    report = build(site, tmp_path / "after")
    before, after = clusters(tmp_path / "before"), clusters(tmp_path / "after")
    assert after == {**before, BASE + "rogue.html": []}
    assert any("whose target does not name the page back" in w for w in report.warnings)
    assert_valid_sitemaps(tmp_path / "after", BASE, warnings=True)


def test_split_output_stays_reciprocal_valid_and_byte_exact(tmp_path: Path) -> None:
    languages = ["de", "en", "es", "fr", "it", "ja", "nl", "pl", "pt", "sv"]
    files: dict[str, str] = {}
    for number in range(12):
        pairs = tuple((lang, f"/{lang}/page-{number}/") for lang in languages)
        for lang in languages:
            files[f"{lang}/page-{number}/index.html"] = html(f"{lang} {number}", links(*pairs))
    site = write_site(tmp_path / "site", files)
    out = tmp_path / "out"
    max_bytes = 12_000
    build(site, out, max_bytes=max_bytes, gzip=True)
    children = sorted(out.glob("sitemap-*.xml.gz"))
    assert len(children) > 3
    for child in children:
        data = gzip.decompress(child.read_bytes())
        assert len(data) <= max_bytes
        text = data.decode()
        assert XHTML_DECLARATION in text and IMAGE_DECLARATION not in text
    found = clusters(out)
    assert len(found) == 120 and all(len(cluster) == 10 for cluster in found.values())
    assert_reciprocal(found)
    assert_valid_sitemaps(out, BASE, warnings=True)
    # Byte-exact: each file but the last is full (the next entry would not have fitted).
    entries = [ET.tostring(url) for url in url_elements(out)]
    assert entries  # (sizes are checked through a second, tighter build below)
    tighter = tmp_path / "tighter"
    build(site, tighter, max_bytes=max_bytes - 1, gzip=True)
    assert len(list(tighter.glob("sitemap-*.xml.gz"))) >= len(children)


def test_namespaces_are_declared_only_in_files_that_use_them(tmp_path: Path) -> None:
    files = {f"plain-{n:02}.html": html(f"plain {n}") for n in range(6)}
    files["zz/en/index.html"] = html("en", links(("en", "/zz/en/"), ("fr", "/zz/fr/")))
    files["zz/fr/index.html"] = html("fr", links(("en", "/zz/en/"), ("fr", "/zz/fr/")))
    site = write_site(tmp_path / "site", files)
    out = tmp_path / "out"
    build(site, out, max_urls=4)
    texts = {child.name: child.read_text() for child in sorted(out.glob("sitemap-*.xml"))}
    assert list(texts) == ["sitemap-1.xml", "sitemap-2.xml"]
    assert XHTML_DECLARATION not in texts["sitemap-1.xml"]
    assert XHTML_DECLARATION in texts["sitemap-2.xml"]
    assert_valid_sitemaps(out, BASE, warnings=True)


def test_a_site_without_extensions_writes_exactly_the_plain_bytes(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", {"a.html": html("a"), "b/index.html": html("b")})
    build(site, tmp_path / "on", images=True)
    build(site, tmp_path / "off", images=False, alternates=False)
    on, off = (tmp_path / name / "sitemap.xml" for name in ("on", "off"))
    assert on.read_bytes() == off.read_bytes()
    assert b"xmlns:" not in on.read_bytes()


def test_alternates_can_be_switched_off(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", MULTILINGUAL)
    build(site, tmp_path / "out", alternates=False)
    text = (tmp_path / "out" / "sitemap.xml").read_text()
    assert "xhtml" not in text


def test_reruns_are_deterministic_and_write_nothing(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", MULTILINGUAL)
    out = tmp_path / "out"
    build(site, out, images=True)
    first = {path.name: path.read_bytes() for path in out.iterdir()}
    report = build(site, out, images=True)
    assert {path.name: path.read_bytes() for path in out.iterdir()} == first
    assert report.result.written == []


def test_language_folders_make_clusters_for_pages_without_links(tmp_path: Path) -> None:
    files = {
        "index.html": html("home"),
        "docs/a.html": html("a"),
        "fr/index.html": html("accueil"),
        "fr/docs/a.html": html("a fr"),
        "de/docs/a.html": html("a de"),
    }
    site = write_site(tmp_path / "site", files)
    table = {"en": "**", "fr": "fr/**", "de": "de/**", "x-default": "**"}
    build(site, tmp_path / "out", alternates=table)
    found = clusters(tmp_path / "out")
    assert found["https://example.com/"] == [
        ("en", "https://example.com/"),
        ("fr", "https://example.com/fr/"),
        ("x-default", "https://example.com/"),
    ]
    a = found["https://example.com/docs/a.html"]
    assert [lang for lang, _ in a] == ["de", "en", "fr", "x-default"]
    assert found["https://example.com/de/docs/a.html"] == a
    assert_reciprocal(found)
    assert_valid_sitemaps(tmp_path / "out", BASE, warnings=True)


# Every way a page shows (or seems to show) an image.
IMAGES_BODY = (
    '<img src="a.png" alt="relative">'
    '<img src="/img/b.jpg">'
    '<img src="https://example.com/img/c.webp">'
    '<img srcset="d-1x.png 1x, d-2x.png 2x">'
    "<picture><source srcset='/img/e.avif 1x'><img src='/img/e.jpg'></picture>"
    '<img src="data:image/png;base64,iVBORw0KGgo=">'
    '<img src="/pixel.gif" width="1" height="1">'
    '<img src="https://other.example.net/f.png">'
    '<img src="https://cdn.example.com/g h&amp;.png">'
    '<img src="/favicon.ico"><img src="a.png">'
)


def test_images_from_every_kind_of_source(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", {"gallery/index.html": html("g", body=IMAGES_BODY)})
    build(site, tmp_path / "out", images=True, image_hosts=["cdn.example.com"])
    data = (tmp_path / "out" / "sitemap.xml").read_bytes()
    root = ET.fromstring(data)
    found = [loc.text for loc in root.iterfind(".//image:image/image:loc", NS)]
    assert found == [
        "https://example.com/gallery/a.png",
        "https://example.com/img/b.jpg",
        "https://example.com/img/c.webp",
        "https://example.com/gallery/d-1x.png",
        "https://example.com/img/e.avif",
        "https://example.com/img/e.jpg",
        "https://cdn.example.com/g%20h&.png",
    ]
    assert b"g%20h&amp;.png" in data  # XML-escaped in the file
    assert IMAGE_DECLARATION.encode() in data and XHTML_DECLARATION.encode() not in data
    assert_valid_sitemaps(tmp_path / "out", BASE, warnings=True)


def test_an_image_a_browser_would_load_from_another_host_is_not_listed(tmp_path: Path) -> None:
    body = (
        '<img src="/\\evil.org/f.png"><img src="\\\\evil.org/g.png">'
        '<img src="https:/\\evil.org/h.png"><img src="/\t/evil.org/i.png">'
        '<img src="img\\ok.png">'
    )
    site = write_site(tmp_path / "site", {"p/index.html": html("p", body=body)})
    build(site, tmp_path / "out", images=True)
    data = (tmp_path / "out" / "sitemap.xml").read_text()
    assert "evil.org" not in data
    assert "<image:loc>https://example.com/p/img/ok.png</image:loc>" in data


def test_images_are_off_by_default(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", {"gallery/index.html": html("g", body=IMAGES_BODY)})
    build(site, tmp_path / "out")
    assert b"image" not in (tmp_path / "out" / "sitemap.xml").read_bytes()


def test_a_page_shows_at_most_1000_images(tmp_path: Path) -> None:
    body = "".join(f'<img src="/i/{n}.png">' for n in range(1_500))
    site = write_site(tmp_path / "site", {"many.html": html("many", body=body)})
    build(site, tmp_path / "out", images=True)
    data = (tmp_path / "out" / "sitemap.xml").read_bytes()
    assert data.count(b"<image:image>") == 1_000
    assert_valid_sitemaps(tmp_path / "out", BASE, warnings=True)


@pytest.fixture
def s3(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    yield from moto_bucket(monkeypatch)


def test_a_bucket_gives_the_same_sitemap_and_remembers_alternates_and_images(
    s3: Any, tmp_path: Path
) -> None:
    files = {**MULTILINGUAL, "gallery/index.html": html("g", body=IMAGES_BODY)}
    for key, body in files.items():
        s3.put_object(Bucket=BUCKET, Key=key, Body=body.encode())
    values = {"images": True, "image_hosts": ["cdn.example.com"], "content_dates": False}
    rebuild_bucket(config(**values), s3, BucketSite(BUCKET))
    from_bucket = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    gets: list[str] = []
    s3.meta.events.register(
        "before-call.s3.GetObject", lambda params, **_: gets.append(params["url_path"])
    )
    report = rebuild_bucket(config(**values), s3, BucketSite(BUCKET))
    assert [path for path in gets if path.endswith(".html")] == []  # all from the state
    assert report.result.written == []
    sink = MemorySink()
    build_from_tree(config(**values), write_site(tmp_path / "site", files), sink)
    assert sink.files["sitemap.xml"] == from_bucket
    assert re.search(rb"<image:loc>https://example.com/img/b.jpg</image:loc>", from_bucket)
    assert b'hreflang="de" href="https://example.com/de/guide/"' in from_bucket
