"""`sitemill validate` on the sitemap extensions: hreflang alternates and images, per <url>
and across a whole file set, with both engines."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from conftest import write_site
from sitemill.cli.main import main
from sitemill.config import load_config
from sitemill.jobs.tree import build_from_tree
from sitemill.protocol import SITEMAP_NS
from sitemill.sinks import LocalDirSink
from sitemill.validate import Engine, Violation, validate_paths

ENGINES = pytest.mark.parametrize("engine", [Engine.LXML, Engine.XMLSCHEMA])
XHTML = "http://www.w3.org/1999/xhtml"
IMAGE = "http://www.google.com/schemas/sitemap-image/1.1"
HEAD = (
    f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}" '
    f'xmlns:xhtml="{XHTML}" xmlns:image="{IMAGE}">\n'
)
SITE = "https://example.com/"


def link(lang: str, href: str, rel: str = "alternate") -> str:
    return f'<xhtml:link rel="{rel}" hreflang="{lang}" href="{href}"/>'


def url(loc: str, *parts: str) -> str:
    return f"<url><loc>{loc}</loc>{''.join(parts)}</url>\n"


def image(loc: str) -> str:
    return f"<image:image><image:loc>{loc}</image:loc></image:image>"


def urlset(*urls: str) -> str:
    return HEAD + "".join(urls) + "</urlset>\n"


def cluster(*pairs: tuple[str, str]) -> str:
    return "".join(link(lang, SITE + path) for lang, path in pairs)


EN_FR = cluster(("en", "en/"), ("fr", "fr/"))


def check(tmp_path: Path, text: str, engine: Engine) -> list[tuple[int | None, bool, str]]:
    path = tmp_path / "sitemap.xml"
    path.write_text(text, encoding="utf-8")
    return summary(validate_paths([path], SITE, engine=engine))


def summary(violations: list[Violation]) -> list[tuple[int | None, bool, str]]:
    return [(v.line, v.is_error, v.message) for v in violations]


@ENGINES
def test_a_reciprocal_cluster_with_images_is_valid(tmp_path: Path, engine: Engine) -> None:
    text = urlset(
        url(SITE + "en/", EN_FR, link("x-default", SITE + "en/"), image(SITE + "a.png")),
        url(SITE + "fr/", EN_FR, link("x-default", SITE + "en/")),
    )
    assert check(tmp_path, text, engine) == []


@ENGINES
@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        (
            cluster(("en-UK", "en/"), ("fr", "fr/")),
            (True, "hreflang 'en-UK' is not an ISO 639-1 language"),
        ),
        (
            cluster(("english", "en/"), ("fr", "fr/")),
            (True, "hreflang 'english' is not an ISO 639-1 language"),
        ),
        (link("en", "/en/") + link("fr", SITE + "fr/"), (True, "alternate href '/en/' is not")),
        (link("en", SITE + "en/", rel="nofollow"), (True, "xhtml:link rel is 'nofollow'")),
        ('<xhtml:link rel="alternate" href="https://example.com/en/"/>', (True, "needs both")),
        (
            EN_FR + link("de", "https://other.example.org/de/"),
            (False, "alternate https://other.example.org/de/ is on https://other.example.org"),
        ),
        (EN_FR + link("fr", SITE + "fr-old/"), (False, "hreflang fr names two pages")),
        (EN_FR + link("fr", SITE + "fr/"), (False, "alternate fr https://example.com/fr/ is")),
        (cluster(("fr", "fr/")), (False, "the page https://example.com/en/ is missing from")),
        (image("/a.png"), (True, "image:loc '/a.png' is not an absolute http(s) URL")),
        (image(SITE + "a.png") * 2, (False, "image https://example.com/a.png is listed twice")),
        ("".join(image(f"{SITE}{n}.png") for n in range(1_001)), (True, "1,001 images")),
    ],
)
def test_each_rule(tmp_path: Path, engine: Engine, parts: str, expected: tuple[bool, str]) -> None:
    text = urlset(url(SITE + "en/", parts), url(SITE + "fr/", EN_FR))
    found = check(tmp_path, text, engine)
    error, fragment = expected
    assert [(is_error, fragment) for _, is_error, message in found if fragment in message] == [
        (error, fragment)
    ], found
    assert all(fragment in message or not is_error for _, is_error, message in found)


@ENGINES
def test_an_xsd_invalid_hreflang_is_reported_once(tmp_path: Path, engine: Engine) -> None:
    found = check(tmp_path, urlset(url(SITE + "en/", cluster(("en_US", "en/")))), engine)
    assert [(error, message[:4]) for _, error, message in found] == [(True, "XSD:")]


@ENGINES
def test_reciprocity_is_checked_across_the_file_set(tmp_path: Path, engine: Engine) -> None:
    # The index names three children (one gzipped); fr/ is in the second and lists another
    # cluster than en/ does; de/ is named by en/ but listed nowhere.
    en = cluster(("en", "en/"), ("fr", "fr/"), ("de", "de/"))
    children = {
        "sitemap-1.xml": urlset(url(SITE + "en/", en)),
        "sitemap-2.xml": urlset(url(SITE + "fr/", EN_FR)),
        "sitemap-3.xml.gz": urlset(url(SITE + "it/")),
    }
    for name, text in children.items():
        data = text.encode()
        (tmp_path / name).write_bytes(gzip.compress(data, mtime=0) if name.endswith("gz") else data)
    index = "".join(f"<sitemap><loc>{SITE}{name}</loc></sitemap>" for name in children)
    (tmp_path / "sitemap.xml").write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{SITEMAP_NS}">{index}'
        "</sitemapindex>\n"
    )
    found = summary(validate_paths([tmp_path], SITE, engine=engine))
    first = str(tmp_path / "sitemap-1.xml")
    messages = [message for _, _, message in found]
    assert not [error for _, error, _ in found if error]
    assert any(
        "alternates of https://example.com/en/ are not reciprocal" in m and "only 1 carry" in m
        for m in messages
    ), messages
    assert any(
        "alternate https://example.com/de/ of https://example.com/en/ names a page" in m
        for m in messages
    )
    assert all(
        v.file in (first, str(tmp_path / "sitemap-2.xml"))
        for v in validate_paths([tmp_path], SITE, engine=engine)
    )


def test_sitemills_own_split_multilingual_output_passes_without_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    languages = ("en-GB", "fr", "de")
    files = {}
    for number in range(30):
        pairs = [(lang, f"/{lang.lower()}/p{number}/") for lang in languages]
        pairs.append(("x-default", f"/en-gb/p{number}/"))
        links = "".join(f'<link rel="alternate" hreflang="{h}" href="{p}">' for h, p in pairs)
        for lang in languages:
            files[f"{lang.lower()}/p{number}/index.html"] = (
                f"<!doctype html><html><head><title>{number}</title>{links}</head>"
                f'<body><img src="i{number}.png"></body></html>'
            )
    site = write_site(tmp_path / "site", files)
    out = tmp_path / "out"
    config = load_config(
        {"base_url": SITE, "lastmod": "none", "max_urls": 25, "gzip": True, "images": True}
    )
    build_from_tree(config, site, LocalDirSink(out), output_dir=out)
    assert len(list(out.glob("sitemap-*.xml.gz"))) == 4
    assert main(["validate", str(out), "--base-url", SITE]) == 0
    assert capsys.readouterr().out.splitlines() == [f"valid: {out}"]
