"""A site as a crawler sees it: redirect stubs, paginators, canonicals, templates, vendored HTML.

One fixture site holds a page of each kind that generators really write; the sitemap lists
exactly the canonical, indexable pages, says why each other file is left out, and each
respect_* switch brings back exactly the pages it left out.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from clirun import run_sitemill
from conftest import write_site
from outputlist import build_from_tree
from sitemill import safefs
from sitemill.config.model import load_config
from sitemill.entries import SkipReason
from sitemill.html.facts import PAGE_FACTS_BYTES
from sitemill.lastmod.fingerprint.digest import MAX_FINGERPRINT_BYTES as MAX_PAGE_BYTES
from sitemill.report import Report
from sitemill.sinks import LocalDirSink, MemorySink
from xsd import assert_valid_sitemaps, assert_xsd_valid

BASE = "https://example.com/"


def html(head: str = "", body: str = "<p>Some text.</p>", title: str = "Page") -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n{head}\n</head>\n<body>{body}</body>\n</html>\n"
    )


def canonical(href: str) -> str:
    return f'<link rel="canonical" href="{href}">'


def refresh(content: str) -> str:
    return f'<meta http-equiv="refresh" content="{content}">'


# Hugo's alias template (layouts/alias.html), as Hugo writes it for `aliases: [/old/]`.
HUGO_ALIAS = (
    "<!DOCTYPE html><html><head><title>https://example.com/en/new/</title>"
    '<link rel="canonical" href="https://example.com/en/new/">'
    '<meta name="robots" content="noindex"><meta charset="utf-8">'
    '<meta http-equiv="refresh" content="0; url=https://example.com/en/new/"></head></html>'
)
# pydata-sphinx-theme's _static/webpack-macros.html: Jinja macros, copied as a static file.
WEBPACK_MACROS = """<!--
  AUTO-GENERATED from webpack.config.js, do **NOT** edit by hand.
  These are re-used in layout.html
-->
{# Load FontAwesome icons #}
{% macro head_pre_icons() %}
  <link href="{{ pathto('_static/vendor/fontawesome/css/all.min.css', 1) }}" rel="stylesheet" />
{% endmacro %}
"""
# A 5 MB page whose head is ordinary: listed, and only its first 64 KiB are read.
BIG = html(canonical("big.html"), body="<p>" + "word " * 1_000_000 + "</p>").encode()
OFF_SITE = "http://localhost:1313/"  # `hugo server`'s baseURL, left in a production build

SITE: dict[str, str | bytes] = {
    # mkdocs-redirects (no noindex): the home page sends readers to the English site.
    "index.html": html(refresh("1; url=en/"), "Redirecting...", "Redirecting..."),
    "en/index.html": html(canonical("https://example.com/en/")),  # self, absolute
    "en/about/index.html": html(canonical("/en/about/index.html")),  # self, root-relative
    "en/contact.html": html(canonical("contact.html")),  # self, relative
    "en/new/index.html": html(),
    "old/index.html": HUGO_ALIAS,
    # mkdocs-redirects to a page that does not exist, with its canonical.
    "en/moved.html": html(canonical("../gone/") + refresh("0; url=../gone/")),
    "en/blog/index.html": html(canonical("/en/blog/")),
    "en/blog/page/2/index.html": html(canonical("/en/blog/")),  # Hugo paginators
    "en/blog/page/3/index.html": html(canonical("https://example.com/en/blog/")),
    # A wrong baseURL: the canonical points off the site.
    "en/guide/a.html": html(canonical(OFF_SITE + "en/guide/a.html")),
    "en/guide/b.html": html(canonical(OFF_SITE + "en/guide/b.html")),
    "en/guide/c.html": html(canonical(OFF_SITE + "en/guide/c.html")),
    "en/private.html": html('<meta name="robots" content="noindex, nofollow">'),
    "en/live.html": html(refresh("30")),  # reloads itself: a page
    "en/status/index.html": html(refresh("30; url=./")),  # also itself
    "en/big.html": BIG,
    # (in _static/, where the theme puts it, it is a built-in exclude: copied elsewhere here)
    "theme/webpack-macros.html": WEBPACK_MACROS,
    "google1234567890abcdef.html": "google-site-verification: google1234567890abcdef.html",
    "node_modules/some-lib/README.html": html(),
    "node_modules/some-lib/demo/index.html": html(),
    "docs.pdf": b"%PDF-1.7\n",
}
EXPECTED = [  # in the order of the sorted walk
    f"{BASE}docs.pdf",
    f"{BASE}en/about/",
    f"{BASE}en/big.html",
    f"{BASE}en/blog/",
    f"{BASE}en/contact.html",
    f"{BASE}en/guide/a.html",
    f"{BASE}en/guide/b.html",
    f"{BASE}en/guide/c.html",
    f"{BASE}en/",
    f"{BASE}en/live.html",
    f"{BASE}en/new/",
    f"{BASE}en/status/",
    f"{BASE}node_modules/some-lib/README.html",
    f"{BASE}node_modules/some-lib/demo/",
]
SKIPPED = Counter(
    {
        SkipReason.NOINDEX: 2,  # old/ (Hugo alias), en/private.html
        SkipReason.REDIRECT: 2,  # index.html, en/moved.html
        SkipReason.CANONICAL: 2,  # the paginators
        SkipReason.NOT_A_PAGE: 1,  # the macro file
        SkipReason.EXCLUDED: 1,  # the verification file
    }
)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return write_site(tmp_path / "site", SITE)


def build(site: Path, **values: Any) -> tuple[MemorySink, Report]:
    config = load_config({"base_url": BASE, "lastmod": "mtime", **values})
    sink = MemorySink()
    report = build_from_tree(config, site, sink)
    return sink, report


def locs(sink: MemorySink) -> list[str]:
    text = sink.files["sitemap.xml"].decode()
    return [part.split("</loc>")[0] for part in text.split("<loc>")[1:]]


def test_the_sitemap_lists_what_a_crawler_should_index(site: Path) -> None:
    sink, report = build(site)
    assert locs(sink) == EXPECTED
    assert report.skipped == SKIPPED
    assert_xsd_valid(sink.files["sitemap.xml"])
    reasons = {skip.path: (skip.reason, skip.detail) for skip in report.skips}
    assert reasons["old/index.html"][0] is SkipReason.NOINDEX
    assert reasons["index.html"] == (SkipReason.REDIRECT, "meta refresh to en/")
    assert reasons["en/moved.html"] == (SkipReason.REDIRECT, "meta refresh to ../gone/")
    assert reasons["en/blog/page/2/index.html"] == (
        SkipReason.CANONICAL,
        f"canonical is {BASE}en/blog/",
    )
    assert reasons["theme/webpack-macros.html"][0] is SkipReason.NOT_A_PAGE
    assert reasons["google1234567890abcdef.html"][0] is SkipReason.EXCLUDED


def test_one_warning_per_kind_of_surprise(site: Path) -> None:
    _, report = build(site)
    off_site = [line for line in report.warnings if "off this site" in line]
    assert len(off_site) == 1
    assert off_site[0].startswith("3 listed page(s) declare a canonical URL off this site")
    assert f"en/guide/a.html names {OFF_SITE}en/guide/a.html" in off_site[0]
    assert "baseURL" in off_site[0]
    vendored = [line for line in report.warnings if "node_modules" in line]
    assert vendored == [
        "listed 2 page(s) under node_modules/, e.g. node_modules/some-lib/README.html: "
        'third-party files? exclude them with exclude = ["**/node_modules/**"]'
    ]
    assert len(report.warnings) == 2, report.warnings


def test_excluding_vendored_html_silences_its_warning(site: Path) -> None:
    sink, report = build(site, exclude=["**/node_modules/**"])
    assert not any("node_modules" in loc for loc in locs(sink))
    assert not any("node_modules" in line for line in report.warnings)


def _difference(sink: MemorySink) -> list[str]:
    return sorted(set(locs(sink)) - set(EXPECTED))


@pytest.mark.parametrize(
    ("switch", "back", "skipped"),
    [
        pytest.param(
            "respect_noindex",
            [f"{BASE}en/private.html"],
            # The Hugo alias is a redirect too: it stays out, now as one.
            SKIPPED + Counter({SkipReason.REDIRECT: 1}) - Counter({SkipReason.NOINDEX: 2}),
            id="noindex",
        ),
        pytest.param(
            "respect_redirects",
            [BASE, f"{BASE}en/moved.html"],
            SKIPPED - Counter({SkipReason.REDIRECT: 2}),
            id="redirects",
        ),
        pytest.param(
            "respect_canonical",
            [f"{BASE}en/blog/page/2/", f"{BASE}en/blog/page/3/"],
            SKIPPED - Counter({SkipReason.CANONICAL: 2}),
            id="canonical",
        ),
    ],
)
def test_each_switch_brings_back_exactly_its_pages(
    site: Path, switch: str, back: list[str], skipped: Counter[SkipReason]
) -> None:
    sink, report = build(site, **{switch: False})
    assert _difference(sink) == sorted(back)
    assert set(EXPECTED) <= set(locs(sink))
    assert +report.skipped == +skipped
    assert_xsd_valid(sink.files["sitemap.xml"])


def test_a_redirect_stub_that_is_listed_names_a_page_this_sitemap_does_not_list(
    site: Path,
) -> None:
    _, report = build(site, respect_redirects=False)
    (line,) = [line for line in report.warnings if "does not list" in line]
    assert line.startswith("1 listed page(s) declare a canonical URL that this sitemap")
    assert f"en/moved.html names {BASE}gone/" in line


def test_with_every_switch_off_only_files_that_are_no_pages_stay_out(site: Path) -> None:
    sink, report = build(
        site, respect_noindex=False, respect_redirects=False, respect_canonical=False
    )
    assert _difference(sink) == sorted(
        [
            BASE,
            f"{BASE}en/blog/page/2/",
            f"{BASE}en/blog/page/3/",
            f"{BASE}en/moved.html",
            f"{BASE}en/private.html",
            f"{BASE}old/",
        ]
    )
    assert report.skipped == Counter({SkipReason.NOT_A_PAGE: 1, SkipReason.EXCLUDED: 1})
    assert not any("off this site" in line for line in report.warnings)


def test_only_the_first_64_kib_of_a_page_are_read(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert len(BIG) > 5_000_000
    reads: list[tuple[str, int, bool, int]] = []
    original = safefs.Root.read

    def read(self: safefs.Root, path: Any, limit: int, *, whole: bool = False) -> bytes | None:
        data = original(self, path, limit, whole=whole)
        reads.append((str(path), limit, whole, -1 if data is None else len(data)))
        return data

    monkeypatch.setattr(safefs.Root, "read", read)
    sink, _ = build(site, content_dates=False)
    assert f"{BASE}en/big.html" in locs(sink)
    assert ("en/big.html", PAGE_FACTS_BYTES, False, PAGE_FACTS_BYTES) in reads
    assert max(length for _, _, _, length in reads) <= PAGE_FACTS_BYTES
    # Only HTML is read: the PDF is not.
    assert not any(path == "docs.pdf" for path, *_ in reads)
    # With content dates every page is read for its fingerprint, at most 32 MiB of it.
    reads.clear()
    build(site)
    assert ("en/big.html", MAX_PAGE_BYTES, False, min(len(BIG), MAX_PAGE_BYTES)) in reads
    assert any(path == "docs.pdf" for path, *_ in reads)


def test_two_runs_give_the_same_bytes_and_the_second_writes_nothing(
    site: Path, tmp_path: Path
) -> None:
    first, _ = build(site)
    second, _ = build(site)
    assert first.files == second.files
    out = tmp_path / "out"
    config = load_config({"base_url": BASE, "lastmod": "mtime"})
    report = build_from_tree(config, site, LocalDirSink(out), output_dir=out)
    assert report.result.written == ["sitemap.xml"]
    assert (out / "sitemap.xml").read_bytes() == first.files["sitemap.xml"]
    assert_valid_sitemaps(out, BASE)
    again = build_from_tree(config, site, LocalDirSink(out), output_dir=out)
    assert again.result.written == [] and not again.result.changed
    assert again.skipped == SKIPPED


# --- robots.txt ------------------------------------------------------------------------------

SITE_ROBOTS = "User-agent: *\nDisallow: /en/private/\n\nUser-agent: BadBot\nDisallow: /\n"


def test_robots_txt_with_out_elsewhere_starts_from_the_sites_own(tmp_path: Path) -> None:
    site = write_site(
        tmp_path / "site",
        {
            "robots.txt": SITE_ROBOTS,
            "index.html": html(),
            "en/private/index.html": html(),
            "en/public.html": html(),
        },
    )
    out = tmp_path / "out"
    done = run_sitemill(
        "build", str(site), "--base-url", BASE, "--robots-txt", "--out", str(out), "-q"
    )
    assert done.returncode == 0, done.stderr
    assert (out / "robots.txt").read_text() == SITE_ROBOTS + f"Sitemap: {BASE}sitemap.xml\n"
    assert (site / "robots.txt").read_text() == SITE_ROBOTS  # the site is left alone
    listed = (out / "sitemap.xml").read_text()
    assert f"{BASE}en/public.html" in listed and "en/private/" not in listed
    # Again: nothing changes, the Sitemap line is not repeated.
    again = run_sitemill(
        "build", str(site), "--base-url", BASE, "--robots-txt", "--out", str(out), "-q"
    )
    assert again.returncode == 0, again.stderr
    assert (out / "robots.txt").read_text() == SITE_ROBOTS + f"Sitemap: {BASE}sitemap.xml\n"


def test_robots_txt_into_a_sink_elsewhere_keeps_the_sites_lines(tmp_path: Path) -> None:
    site = write_site(tmp_path / "site", {"robots.txt": SITE_ROBOTS, "index.html": html()})
    out = tmp_path / "out"
    config = load_config({"base_url": BASE, "lastmod": "mtime", "robots_txt": True})
    report = build_from_tree(config, site, LocalDirSink(out), output_dir=out)
    assert sorted(report.result.written) == ["robots.txt", "sitemap.xml"]
    assert (out / "robots.txt").read_text() == SITE_ROBOTS + f"Sitemap: {BASE}sitemap.xml\n"


PROJECT = "https://owner.github.io/project/"


@pytest.mark.parametrize(
    ("base", "values", "robots", "expected"),
    [
        (PROJECT, {"robots_txt": True}, True, ["robots_txt: crawlers read only", "never read"]),
        (PROJECT, {"robots_txt": True}, False, ["robots_txt: crawlers read only"]),
        (PROJECT, {}, True, ["never read"]),
        (PROJECT, {"respect_robots_txt": False}, True, []),
        (PROJECT, {}, False, []),
        ("https://owner.github.io/", {"robots_txt": True}, True, []),
        (BASE, {"robots_txt": True}, True, []),
    ],
)
def test_robots_txt_below_the_host_root_is_never_read(
    tmp_path: Path, base: str, values: dict[str, Any], robots: bool, expected: list[str]
) -> None:
    files: dict[str, str | bytes] = {"index.html": html()}
    if robots:
        files["robots.txt"] = SITE_ROBOTS
    site = write_site(tmp_path / "site", files)
    config = load_config({"base_url": base, "lastmod": "mtime", **values})
    report = build_from_tree(config, site, MemorySink())
    assert len(report.warnings) == len(expected), report.warnings
    for line, words in zip(report.warnings, expected, strict=True):
        assert words in line
        assert "https://owner.github.io/robots.txt" in line
