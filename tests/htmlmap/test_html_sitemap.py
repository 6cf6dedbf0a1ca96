"""sitemap.html from a tree: what it shows and escapes, when it is written, replaced, deleted,
never listed, and what a user's template may and may not do."""

from __future__ import annotations

import html
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from conftest import BASE_URL, FIXED_MTIME, SiteMaker, page, write_site
from outputlist import build_from_tree, build_from_url_list
from sitemill.config.model import load_config
from sitemill.errors import ConfigError, SinkError, TemplateError
from sitemill.filenames.outputs import HTML_SITEMAP, content_type, is_own_name
from sitemill.github.action import output_names
from sitemill.htmlmap._links import MAX_HTML_LINKS
from sitemill.report import Report
from sitemill.sinks import LocalDirSink, MemorySink
from xsd import assert_valid_sitemaps

MARKER = b'<meta name="generator" content="sitemill">'
HAND_WRITTEN = b"<!doctype html><title>Our site map</title><h1>Everything we have</h1>"
ODD = {
    "index.html": page("Home &amp; <garden>"),
    "docs/index.html": page("  Docs\n\t  home  "),
    "docs/no-title.html": "<!doctype html><html><head></head><body>x</body></html>",
    "docs/evil.html": page("</title><script>alert(1)</script>"),
    "docs/script.html": page("<script>alert(1)</script> &lt;b&gt;"),
    "docs/quotes.html": page("\"onmouseover=alert(1) x='y'"),
    "docs/long.html": page("Long " * 200),
    "docs/a & b+c.html": page("Ampersand"),
    "docs/caf\u00e9.html": page("Caf\u00e9 \u65e5\u672c &#128512;"),
    "guide.pdf": b"%PDF-1.4",
}


class Links(HTMLParser):
    """The links of a page (href, text), its start tags and how many are <script>."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self.tags: list[str] = []
        self.scripts = 0
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "script":
            self.scripts += 1
        if tag == "a":
            self._href, self._text = dict(attrs).get("href"), []

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.links.append((self._href, "".join(self._text)))
            self._href = None


def links_of(data: bytes) -> Links:
    parser = Links()
    parser.feed(data.decode("utf-8"))
    parser.close()
    return parser


def build(site: Path, out: Path | None = None, **values: Any) -> Report:
    config = load_config({"base_url": BASE_URL, "lastmod": "mtime", "html_sitemap": True, **values})
    return build_from_tree(config, site, LocalDirSink(out or site))


def locs(data: bytes) -> list[str]:
    """The URLs the sitemap lists, XML-unescaped (a path keeps "&" raw: "&amp;" in XML)."""
    return [html.unescape(loc) for loc in re.findall(r"<loc>([^<]*)</loc>", data.decode())]


def test_every_listed_page_by_its_title_escaped(make_site: SiteMaker) -> None:
    site = make_site(ODD)
    report = build(site)
    html = (site / HTML_SITEMAP).read_bytes()
    found = links_of(html)
    listed = locs((site / "sitemap.xml").read_bytes())
    page_links = {href: text for href, text in found.links if href.startswith(BASE_URL)}
    page_links.pop(BASE_URL + "sitemap.xml")
    assert sorted(page_links) == sorted(listed)
    assert (
        page_links
        == {
            BASE_URL: "Home & <garden>",
            BASE_URL + "docs/": "Docs home",
            BASE_URL + "docs/no-title.html": "/docs/no-title.html",  # no title: the path
            BASE_URL + "docs/evil.html": "/docs/evil.html",  # an empty title: the path
            BASE_URL + "docs/script.html": "<script>alert(1)</script> <b>",  # title text
            BASE_URL + "docs/quotes.html": "\"onmouseover=alert(1) x='y'",
            BASE_URL + "docs/long.html": ("Long " * 40)[:199].rstrip() + "\u2026",
            BASE_URL + "docs/a%20&%20b%2Bc.html": "Ampersand",
            BASE_URL + "docs/caf%C3%A9.html": "Caf\u00e9 \u65e5\u672c \U0001f600",
            BASE_URL + "guide.pdf": "/guide.pdf",
        }
    )
    assert found.scripts == 0
    assert b"<script" not in html
    assert b"&lt;garden&gt;" in html
    assert b'"onmouseover' not in html  # in an attribute or not, a quote is escaped
    assert b'href="https://example.com/docs/a%20&amp;%20b%2Bc.html"' in html
    assert MARKER in html
    assert HTML_SITEMAP in report.result.written
    assert report.result.sitemap_count == 1  # sitemap.xml: the HTML page is no sitemap
    assert_valid_sitemaps(site, BASE_URL)


def test_the_page_is_accessible_markup(make_site: SiteMaker) -> None:
    site = make_site(ODD)
    others = sorted(
        path for path in site.rglob("*") if path.is_file() and path.name != "index.html"
    )
    for number, path in enumerate(others, 1):  # written months apart: a first run dates them
        os.utime(path, (FIXED_MTIME - number * 40 * 86_400,) * 2)
    build(site)
    html = (site / HTML_SITEMAP).read_text("utf-8")
    assert html.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert html.count("<main") == 1
    assert "<nav" in html
    for folder in ("/", "/docs/"):
        assert re.search(rf'<h2 id="folder-\d+">{re.escape(folder)}</h2>', html)
        assert re.search(rf'<li><a href="#folder-\d+">{re.escape(folder)}</a></li>', html)
    mtime = "2024-03-01T12:00:00+00:00"
    assert f'<time datetime="{mtime}">1 March 2024</time>' in html


def test_never_listed_in_the_sitemaps_nor_read_as_a_page(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page("Home")})
    build(site)
    first = (site / HTML_SITEMAP).read_bytes()
    report = build(site)
    assert locs((site / "sitemap.xml").read_bytes()) == [BASE_URL]
    assert report.result.url_count == 1
    assert (site / HTML_SITEMAP).read_bytes() == first
    # Not in a URL list's either: the list's own URLs only (the page is sitemill's file).
    assert is_own_name(HTML_SITEMAP)
    assert content_type(HTML_SITEMAP) == "text/html; charset=utf-8"


def test_deterministic_and_not_rewritten_when_nothing_changed(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site(ODD)
    build(site)
    target = site / HTML_SITEMAP
    os.utime(target, (1, 1))
    report = build(site)
    assert HTML_SITEMAP in report.result.unchanged
    assert HTML_SITEMAP not in report.result.written
    assert not report.result.changed
    assert target.stat().st_mtime == 1  # not touched
    # Another folder with the same pages gives the same bytes.
    other = write_site(tmp_path / "other", ODD)
    build(other)
    assert (other / HTML_SITEMAP).read_bytes() == target.read_bytes()
    # A changed title changes the page, and only it and the state are rewritten.
    write_site(site, {"docs/index.html": page("Docs, renamed")})
    report = build(site)
    assert HTML_SITEMAP in report.result.written
    assert b">Docs, renamed</a>" in target.read_bytes()


def test_a_hand_written_sitemap_html_is_never_replaced(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page("Home"), HTML_SITEMAP: HAND_WRITTEN})
    with pytest.raises(ConfigError, match=r"^html_sitemap: sitemap\.html is there already"):
        build(site)
    assert (site / HTML_SITEMAP).read_bytes() == HAND_WRITTEN
    assert not (site / "sitemap.xml").exists()  # nothing written
    # With html_sitemap off it stays too, and is listed: the user's own page (issue 82).
    report = build(site, html_sitemap=False)
    assert (site / HTML_SITEMAP).read_bytes() == HAND_WRITTEN
    assert HTML_SITEMAP not in report.result.deleted
    assert locs((site / "sitemap.xml").read_bytes()) == [BASE_URL, BASE_URL + HTML_SITEMAP]


def test_a_hand_written_sitemap_html_is_a_page_like_any(make_site: SiteMaker) -> None:
    """Issue 82 (thrift's own "Sitemap" page): with html_sitemap off, a sitemap.html sitemill
    did not make is listed, and its head's facts apply as to any page."""
    site = make_site({"index.html": page("Home"), HTML_SITEMAP: page("Sitemap")})
    report = build(site, html_sitemap=False)
    assert locs((site / "sitemap.xml").read_bytes()) == [BASE_URL, BASE_URL + HTML_SITEMAP]
    assert report.result.deleted == []
    noindex = page("Sitemap", '<meta name="robots" content="noindex">')
    write_site(site, {HTML_SITEMAP: noindex})
    report = build(site, html_sitemap=False)
    assert locs((site / "sitemap.xml").read_bytes()) == [BASE_URL]
    assert [s.path for s in report.skips] == [HTML_SITEMAP]


def test_sitemills_leftover_is_never_listed_and_is_deleted(make_site: SiteMaker) -> None:
    """A sitemap.html sitemill made (an earlier run with html_sitemap on) is not listed by a
    run with it off, which deletes it; the next run finds nothing to list or delete."""
    site = make_site({"index.html": page("Home")})
    build(site)
    assert MARKER in (site / HTML_SITEMAP).read_bytes()
    report = build(site, html_sitemap=False)
    assert locs((site / "sitemap.xml").read_bytes()) == [BASE_URL]
    assert report.result.deleted == [HTML_SITEMAP]
    assert not (site / HTML_SITEMAP).exists()
    assert report.skips == []


def test_sitemills_own_copy_is_deleted_when_turned_off(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page("Home")})
    build(site)
    report = build(site, html_sitemap=False)
    assert report.result.deleted == [HTML_SITEMAP]
    assert not (site / HTML_SITEMAP).exists()
    # The Action commits the deletion with the sitemaps.
    assert output_names(report, load_config({"base_url": BASE_URL})) == [
        "sitemap.xml",
        HTML_SITEMAP,
    ]
    assert not build(site, html_sitemap=False).result.changed


def test_a_link_named_sitemap_html_is_refused(make_site: SiteMaker, tmp_path: Path) -> None:
    outside = tmp_path / "outside.html"
    outside.write_bytes(HAND_WRITTEN)
    site = make_site({"index.html": page("Home")})
    (site / HTML_SITEMAP).symlink_to(outside)
    with pytest.raises(SinkError, match="refusing to read or replace"):
        build(site)
    build(site, html_sitemap=False)  # off: not sitemill's, left alone
    assert (site / HTML_SITEMAP).is_symlink()
    assert outside.read_bytes() == HAND_WRITTEN


def test_an_output_folder_gets_it_and_the_sites_own_is_not_listed(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site({"index.html": page("Home"), HTML_SITEMAP: HAND_WRITTEN})
    out = tmp_path / "out"
    build(site, out)
    assert links_of((out / HTML_SITEMAP).read_bytes()).links[-1] == (BASE_URL, "Home")
    assert locs((out / "sitemap.xml").read_bytes()) == [BASE_URL]
    assert (site / HTML_SITEMAP).read_bytes() == HAND_WRITTEN


def test_alternates_give_a_section_per_language(make_site: SiteMaker) -> None:
    head = "".join(
        f'<link rel="alternate" hreflang="{lang}" href="{BASE_URL}{path}">'
        for lang, path in (("en", ""), ("de", "de/"), ("x-default", ""))
    )
    site = make_site(
        {
            "index.html": page("Home", head),
            "de/index.html": page("Startseite", head),
            "solo.html": page("Solo"),
        }
    )
    build(site)
    html = (site / HTML_SITEMAP).read_text("utf-8")
    sections = re.findall(r'<h2 id="language-\d+">(.*?)</h2>', html)
    assert sections == [
        'Language: <span lang="de">de</span>',
        'Language: <span lang="en">en</span>',
        "Other pages",
    ]
    assert '<ul class="pages" lang="de">' in html
    assert 'hreflang="de" dir="auto">Startseite</a>' in html
    assert html.index(">Startseite<") < html.index(">Home<") < html.index(">Solo<")


def test_a_url_list_shows_paths_and_says_when_it_cut(tmp_path: Path) -> None:
    count = MAX_HTML_LINKS + 7
    lines = [f"{BASE_URL}deep/{n // 1000}/p{n}.html\t2024-01-02" for n in range(count - 3)]
    lines += [f"{BASE_URL}top-{n}.html?a=1&b=%3C2%3E" for n in range(3)]
    sink = MemorySink()
    config = load_config({"base_url": BASE_URL, "html_sitemap": True})
    report = build_from_url_list(config, lines, sink)
    html = sink.files[HTML_SITEMAP]
    found = links_of(html)
    page_links = [link for link in found.links if "/p" in link[0] or "top-" in link[0]]
    assert len(page_links) == MAX_HTML_LINKS
    assert (f"{BASE_URL}top-0.html?a=1&b=%3C2%3E", "/top-0.html?a=1&b=<2>") in page_links
    assert b"The 50,000 least deep of 50,007 pages" in html
    assert sink.content_types[HTML_SITEMAP] == "text/html; charset=utf-8"
    (warning,) = [w for w in report.warnings if HTML_SITEMAP in w]
    assert warning.startswith("sitemap.html links 50,000 of the 50,007 listed pages")
    assert report.result.url_count == count
    assert len(html) < 20_000_000


def test_a_user_template_overrides_the_built_in_one(make_site: SiteMaker, tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "sitemap.html.j2").write_text(
        '<!doctype html><html lang="de"><head><meta name="generator" content="sitemill">'
        "<title>Inhalt</title></head><body><main>{% for section in sections %}"
        "{% for folder in section.folders %}<h2>{{ folder.path }}</h2>"
        "{% for link in folder.links %}<a href={{ link.url }}>{{ link.text | upper }}</a>"
        "{% endfor %}{% endfor %}{% endfor %}</main></body></html>",
        encoding="utf-8",
    )
    site = make_site({"index.html": page("Home <&>")})
    build(site, templates_dir=str(templates))
    html = (site / HTML_SITEMAP).read_bytes()
    assert html == (
        b'<!doctype html><html lang="de"><head><meta name="generator" content="sitemill">'
        b"<title>Inhalt</title></head><body><main><h2>/</h2>"
        b"<a href=https://example.com/>HOME &lt;&amp;&gt;</a></main></body></html>"
    )


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("<p>no marker</p>", 'must keep <meta name="generator" content="sitemill">'),
        ("{{ sections.__class__.__mro__ }}", "SecurityError"),
        ("{{ sections.append(1) }}", "SecurityError"),
        ("{{ ''.__class__ }}", "SecurityError"),
        ('{% include "../secret.txt" %}', "is outside templates_dir"),
        ("{{ cycler.__init__.__globals__ }}", "SecurityError"),
        ("{{ 'x' * 10**9 }}", "is too large for a template"),
        ("{% for i in range(10**9) %}{% endfor %}", "MAX_RANGE"),
        ("{{ nothing_of_ours }}", "UndefinedError"),
        (
            "{% for i in range(99999) %}{% for j in range(99999) %}{{ 'x' * 9999 }}"
            "{% endfor %}{% endfor %}",
            "wrote more than",
        ),
    ],
)
def test_a_hostile_or_broken_user_template_writes_nothing(
    make_site: SiteMaker, tmp_path: Path, source: str, message: str
) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (tmp_path / "secret.txt").write_text("the secret", encoding="utf-8")
    (templates / "sitemap.html.j2").write_text(source, encoding="utf-8")
    site = make_site({"index.html": page("Home")})
    with pytest.raises(TemplateError, match=re.escape(message)) as caught:
        build(site, templates_dir=str(templates))
    assert str(caught.value).startswith("template sitemap.html.j2")
    assert "\n" not in str(caught.value)
    assert sorted(path.name for path in site.iterdir()) == ["index.html"]  # nothing written


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb``."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_built_in_colours_have_good_contrast_in_light_and_dark_mode() -> None:
    template = Path(__file__).resolve().parents[2] / "templates" / "sitemap.html.j2"
    schemes = re.findall(r":root \{ ([^}]*) \}", template.read_text("utf-8"))
    assert len(schemes) == 2  # light, and dark (prefers-color-scheme)
    for scheme in schemes:
        colours = dict(re.findall(r"--(\w+): (#[0-9a-f]{6});", scheme))
        for role in ("text", "muted", "link", "visited"):
            assert contrast(colours[role], colours["back"]) >= 4.5, (role, scheme)  # WCAG AA
