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
from outputlist import build_from_tree, rebuild_bucket
from s3util import BUCKET, moto_bucket
from sitemill.alternates import clusters as clusters_module
from sitemill.bounded import spool as spool_module
from sitemill.config.model import load_config
from sitemill.images import chrome as chrome_module
from sitemill.images import pages as image_pages_module
from sitemill.images.chrome import MIN_CHROME_PAGES
from sitemill.jobs.bucket import BucketSite
from sitemill.report import extensions_line
from sitemill.sinks import LocalDirSink, MemorySink
from xsd import assert_valid_sitemaps, assert_xsd_valid

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
    build(site, out, max_urls=4, shards="off")  # (named by count: in the order written)
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
# The files those images are (a tree lists an image only where its file is).
IMAGE_FILES = {
    path: b"\x89PNG"
    for path in (
        *("gallery/a.png", "img/b.jpg", "img/c.webp", "gallery/d-1x.png", "img/e.avif"),
        *("img/e.jpg", "pixel.gif", "favicon.ico"),
    )
}


def test_images_from_every_kind_of_source(tmp_path: Path) -> None:
    files = {"gallery/index.html": html("g", body=IMAGES_BODY), **IMAGE_FILES}
    site = write_site(tmp_path / "site", files)
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
    site = write_site(tmp_path / "site", {"p/index.html": html("p", body=body), "p/img/ok.png": ""})
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
    files = {f"i/{n}.png": b"" for n in range(1_500)}
    site = write_site(tmp_path / "site", {"many.html": html("many", body=body), **files})
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
    files = {**MULTILINGUAL, "gallery/index.html": html("g", body=IMAGES_BODY), **IMAGE_FILES}
    for key, body in files.items():
        s3.put_object(Bucket=BUCKET, Key=key, Body=body.encode() if isinstance(body, str) else body)
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


# ------------------------------------------- images as real sites write them (and leave out)


def images_by_page(folder: Path) -> dict[str, list[str]]:
    """loc -> its image:loc list, over every file of the output."""
    return {
        url.findtext("s:loc", namespaces=NS) or "": [
            loc.text or "" for loc in url.iterfind("image:image/image:loc", NS)
        ]
        for url in url_elements(folder)
    }


# The shapes of a Hugo theme's lazysizes images (the site whose sitemap listed 2 images where
# its pages showed 128), a WordPress plugin's, and a <picture> of lazysizes.
LAZY_BODY = (
    '<img class="lazyload" data-src="/posts/trip/cover.jpg" alt="Cover">'
    '<noscript><img src="/posts/trip/cover.jpg" alt="Cover"></noscript>'
    '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="'
    ' data-srcset="/posts/trip/map-480.png 480w, /posts/trip/map-800.png 800w"'
    ' data-sizes="auto" class="lazyload">'
    '<img width="800" height="600" src="data:image/svg+xml,%3Csvg%20xmlns=\'http://www.w3'
    ".org/2000/svg'%20viewBox='0%200%20800%20600'%3E%3C/svg%3E\" data-lazy-src=\"photo.jpg\">"
    '<noscript><img width="800" height="600" src="photo.jpg"></noscript>'
    '<picture><source type="image/webp"'
    ' data-srcset="/posts/trip/b.webp 1x, /posts/trip/b2.webp 2x">'
    '<img class="lazyload" data-src="/posts/trip/b.jpg"></picture>'
    '<noscript><img src="/posts/trip/only-here.png"></noscript>'
)
LAZY_FILES = {
    f"posts/trip/{name}": b"image"
    for name in ("cover.jpg", "map-480.png", "photo.jpg", "b.webp", "b.jpg", "only-here.png")
}


def test_lazy_loaded_images_are_listed_each_once(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", {"posts/trip/index.html": html("trip", body=LAZY_BODY)})
    write_site(site, LAZY_FILES)
    report = build(site, tmp_path / "out", images=True)
    assert images_by_page(tmp_path / "out") == {
        "https://example.com/posts/trip/": [
            "https://example.com/posts/trip/cover.jpg",
            "https://example.com/posts/trip/map-480.png",
            "https://example.com/posts/trip/photo.jpg",
            "https://example.com/posts/trip/b.webp",
            "https://example.com/posts/trip/b.jpg",
            "https://example.com/posts/trip/only-here.png",
        ]
    }
    assert report.images == 6
    assert_valid_sitemaps(tmp_path / "out", BASE, warnings=True)


def blog(pages: int, *, chrome: int | None = None, extra: str = "") -> dict[str, str | bytes]:
    """A blog of ``pages`` posts: each shows its own photo and, on the first ``chrome`` of
    them (all by default), the theme's logo and the author's avatar; with their files."""
    files: dict[str, str | bytes] = {"theme/logo.svg": b"<svg/>", "theme/me.jpg": b"jpg"}
    for number in range(pages):
        shows_chrome = chrome is None or number < chrome
        header = '<img src="/theme/logo.svg"><img src="/theme/me.jpg">' if shows_chrome else ""
        body = f'<header>{header}</header><main><img src="photo.jpg">{extra}</main>'
        files[f"posts/{number:03}/index.html"] = html(f"post {number}", body=body)
        files[f"posts/{number:03}/photo.jpg"] = b"jpg"
    return files


LOGO, AVATAR = BASE + "theme/logo.svg", BASE + "theme/me.jpg"


def test_site_chrome_is_left_out_counted_and_said_once(tmp_path: Path) -> None:
    files = blog(30)
    files["guide.pdf"] = b"%PDF-1.4"  # a listed page without facts: not in the share
    site = write_site(tmp_path / "site", files)
    report = build(site, tmp_path / "out", images=True)
    found = images_by_page(tmp_path / "out")
    assert found[BASE + "posts/007/"] == [BASE + "posts/007/photo.jpg"]
    assert all(LOGO not in images and AVATAR not in images for images in found.values())
    assert report.images == 30
    assert report.image_chrome == 60
    chrome_lines = [w for w in report.warnings if "site-chrome" in w]
    assert chrome_lines == [
        f"left out 2 site-chrome images shown on 30 of 30 pages (e.g. {LOGO}); "
        "keep_image_chrome = true keeps them"
    ]
    assert extensions_line(report) == "extensions: 30 images, 60 site-chrome images left out"
    assert_valid_sitemaps(tmp_path / "out", BASE, warnings=True)


def test_keep_image_chrome_keeps_it(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", blog(30))
    report = build(site, tmp_path / "out", images=True, keep_image_chrome=True)
    found = images_by_page(tmp_path / "out")
    assert found[BASE + "posts/000/"] == [LOGO, AVATAR, BASE + "posts/000/photo.jpg"]
    assert report.images == 90 and report.image_chrome == 0
    assert not [w for w in report.warnings if "chrome" in w]


@pytest.mark.parametrize(
    ("pages", "chrome", "share", "left_out"),
    [
        (40, 21, 0.5, True),  # 21 of 40: more than half
        (40, 20, 0.5, False),  # exactly half is not more than half
        (40, 30, 0.8, False),  # 75 % is not more than 80 %
        (40, 33, 0.8, True),
        (19, 19, 0.5, False),  # on every page, but fewer than MIN_CHROME_PAGES
        (20, 20, 0.5, True),
        (40, 20, 0.1, True),
        (40, 40, 1, False),  # nothing is shown on more than every page
    ],
)
def test_what_counts_as_site_chrome(
    tmp_path: Path, pages: int, chrome: int, share: float, left_out: bool
) -> None:
    assert MIN_CHROME_PAGES == 20
    site = write_site(tmp_path / "site", blog(pages, chrome=chrome))
    report = build(site, tmp_path / "out", images=True, image_chrome_share=share)
    listed = {image for images in images_by_page(tmp_path / "out").values() for image in images}
    assert (LOGO not in listed) is left_out
    assert report.image_chrome == (2 * chrome if left_out else 0)


def test_site_chrome_is_left_out_across_split_files_with_alternates_and_spooled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = blog(30)
    for lang in ("en", "fr"):  # a cluster, so the entries go through the clusters' spool
        alternates = links(("en", "/en/"), ("fr", "/fr/"))
        files[f"{lang}/index.html"] = html(lang, alternates, '<img src="/theme/logo.svg">')
    site = write_site(tmp_path / "site", files)
    build(site, tmp_path / "memory", images=True, max_urls=7)
    monkeypatch.setattr(spool_module, "SPOOL_IN_MEMORY", 3)  # both spools go to disk
    monkeypatch.setattr(clusters_module, "SPOOL_IN_MEMORY", 3)
    build(site, tmp_path / "disk", images=True, max_urls=7)
    build(site, tmp_path / "plain", images=True, max_urls=7, alternates=False)
    memory, disk = (sorted((tmp_path / name).iterdir()) for name in ("memory", "disk"))
    assert [path.read_bytes() for path in memory] == [path.read_bytes() for path in disk]
    assert len(memory) == 6  # an index and five children
    found = images_by_page(tmp_path / "disk")
    assert found[BASE + "en/"] == [] and found[BASE + "posts/029/"] == [
        BASE + "posts/029/photo.jpg"
    ]
    assert images_by_page(tmp_path / "plain") == found
    assert clusters(tmp_path / "disk")[BASE + "fr/"] == [("en", BASE + "en/"), ("fr", BASE + "fr/")]
    assert_valid_sitemaps(tmp_path / "disk", BASE, warnings=True)


def test_counting_stops_at_a_bound_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chrome_module, "MAX_IMAGES_COUNTED", 2)
    # The logo and the avatar are the first two distinct images; the banner that every page
    # shows after its photo is never counted, so it is kept.
    site = write_site(tmp_path / "site", blog(25, extra='<img src="/theme/banner.png">'))
    write_site(site, {"theme/banner.png": b"png"})
    report = build(site, tmp_path / "out", images=True)
    listed = {image for images in images_by_page(tmp_path / "out").values() for image in images}
    assert LOGO not in listed and AVATAR not in listed
    assert BASE + "theme/banner.png" in listed
    assert report.image_chrome == 50
    assert [w for w in report.warnings if "looked for site chrome" in w] == [
        "looked for site chrome among the first 2 distinct images only: 50 image entries of "
        "later ones were kept uncounted"
    ]


def test_a_bucket_leaves_out_the_same_chrome_without_looking_for_files(
    s3: Any, tmp_path: Path
) -> None:
    files = blog(25)
    files["posts/000/index.html"] = html(
        "p", body='<img src="/theme/logo.svg"><img src="gone.png">'
    )
    for key, body in files.items():
        s3.put_object(Bucket=BUCKET, Key=key, Body=body.encode() if isinstance(body, str) else body)
    values = {"images": True, "content_dates": False}
    report = rebuild_bucket(config(**values), s3, BucketSite(BUCKET))
    data = s3.get_object(Bucket=BUCKET, Key="sitemap.xml")["Body"].read()
    assert LOGO.encode() not in data and AVATAR.encode() not in data
    assert b"<image:loc>https://example.com/posts/000/gone.png</image:loc>" in data  # no check
    assert report.image_chrome == 49  # the logo on 25 pages, the avatar on 24
    assert "site-chrome images shown on 24 to 25 of 25 pages" in "\n".join(report.warnings)
    assert not [w for w in report.warnings if "not in the site" in w]
    assert_xsd_valid(data, warnings=True)


def test_off_site_images_are_one_line_per_host(tmp_path: Path) -> None:
    body = "".join(
        f'<img src="https://cdn.example.net/p{n}.jpg"><img src="//media.example.org/{n}.png">'
        for n in range(3)
    )
    body += "".join(f'<img src="https://host{n:02}.example/x.png">' for n in range(12))
    body += '<img src="https://cdn.example.com/kept.png"><img src="https://example.com:8080/y.png">'
    files: dict[str, str | bytes] = {
        "a.html": html("a", body=body),
        "b.html": html("b", body='<img src="https://cdn.example.net/p0.jpg#again">' * 2),
    }
    site = write_site(tmp_path / "site", files)
    report = build(site, tmp_path / "out", images=True, image_hosts=["cdn.example.com"])
    lines = [w for w in report.warnings if "not the site's host" in w]
    assert lines[:2] == [
        "left out 4 images on cdn.example.net (not the site's host); add it to image_hosts "
        "to list them",
        "left out 3 images on media.example.org (not the site's host); add it to image_hosts "
        "to list them",
    ]
    assert lines[2].startswith("left out 1 image on host00.example (not the site's host)")
    assert len(lines) == 11
    assert lines[-1] == "and 4 images on 4 more hosts (not the site's host)"
    assert images_by_page(tmp_path / "out")[BASE + "a.html"] == [
        "https://cdn.example.com/kept.png",
        "https://example.com:8080/y.png",  # the site's host: not checked (another port)
    ]


def test_off_site_hosts_are_counted_in_bounded_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(image_pages_module, "MAX_HOSTS_TRACKED", 3)
    body = "".join(f'<img src="https://h{n}.example/x.png">' for n in range(20))
    site = write_site(tmp_path / "site", {"a.html": html("a", body=body)})
    report = build(site, tmp_path / "out", images=True)
    lines = [w for w in report.warnings if "not the site's host" in w]
    assert len(lines) == 4
    assert lines[-1] == "and 17 images on at least 1 more host (not the site's host)"


# A Hugo site on a case-insensitive laptop: the page says algo.png, the file is Algo.png, and
# the live site (a Linux web server) shows a broken image.
def test_an_image_whose_file_is_missing_is_left_out_and_counted(tmp_path: Path) -> None:
    outside = write_site(tmp_path / "outside", {"secret.png": b"png"})
    body = (
        '<img src="/images/algo.png"><img src="/images/Algo.png">'
        '<img src="my%20photo.png"><img src="größe.png"><img src="shot.png?v=2#x">'
        '<img src="/images/out.png"><img src="/proc-link/self/environ">'
        '<img src="/latest/a.png"><img src="/images/folder.png"><img src="/.hidden/h.png">'
        '<img src="/images/../images/Algo.png"><img src="https://cdn.example.com/any.png">'
        '<img src="/images/nothing.png">'
    )
    files: dict[str, str | bytes] = {
        "posts/algo/index.html": html("algo", body=body),
        "images/Algo.png": b"png",
        "posts/algo/my photo.png": b"png",
        "posts/algo/größe.png": b"png",
        "posts/algo/shot.png": b"png",
        "v2/a.png": b"png",
        "images/folder.png/index.html": html("not an image"),
        ".hidden/h.png": b"png",
    }
    site = write_site(tmp_path / "site", files)
    (site / "images" / "out.png").symlink_to(outside / "secret.png")
    (site / "proc-link").symlink_to("/proc")
    (site / "latest").symlink_to("v2")
    report = build(site, tmp_path / "out", images=True, image_hosts=["cdn.example.com"])
    assert images_by_page(tmp_path / "out")[BASE + "posts/algo/"] == [
        BASE + "images/Algo.png",
        BASE + "posts/algo/my%20photo.png",
        BASE + "posts/algo/gr%C3%B6%C3%9Fe.png",
        BASE + "posts/algo/shot.png?v=2",
        BASE + "latest/a.png",  # a link inside the site is followed
        "https://cdn.example.com/any.png",  # on a CDN: not looked for
    ]
    assert [w for w in report.warnings if "not in the site" in w] == [
        "left out 6 images whose file is not in the site, e.g. "
        "https://example.com/images/algo.png on posts/algo/index.html (a web server compares "
        "file names exactly: algo.png is not Algo.png)"
    ]
    assert report.images == 6
    assert_valid_sitemaps(tmp_path / "out", BASE, warnings=True)


def test_images_outside_the_base_url_are_not_looked_for(tmp_path: Path) -> None:
    body = '<img src="/img/root.png"><img src="here.png"><img src="gone.png">'
    body += '<img src="https://example.com/docs/guide/gone-too.png">'  # the port left out
    site = write_site(tmp_path / "site", {"guide/index.html": html("g", body=body)})
    write_site(site, {"guide/here.png": b"png"})
    report = build_from_tree(
        load_config(
            {"base_url": "https://example.com:443/docs/", "lastmod": "none", "images": True}
        ),
        site,
        LocalDirSink(tmp_path / "out"),
    )
    # (the base URL is published without its default port: docs/cli.md)
    assert images_by_page(tmp_path / "out") == {
        "https://example.com/docs/guide/": [
            "https://example.com/img/root.png",  # not below the site's root: unchecked
            "https://example.com/docs/guide/here.png",
        ]
    }
    assert any("left out 2 images whose file" in w for w in report.warnings)
