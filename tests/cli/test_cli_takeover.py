"""Taking over from a site generator's sitemap, through the real `sitemill` command: the
generator is named once with the setting that turns its sitemap off, the files of its sitemap
that would contradict sitemill's go, nothing else does, and a second run says nothing."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from clirun import run_sitemill
from conftest import BASE_URL, SiteMaker, page

# The shapes of real generators' files (benchmarks/realsites: pymdown-extensions, hugegraph,
# typescript-book), cut to a few entries.
MKDOCS = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    "    <url>\n"
    f"         <loc>{BASE_URL}</loc>\n"
    "         <lastmod>2025-07-28</lastmod>\n"
    "    </url>\n"
    "    <url>\n"
    f"         <loc>{BASE_URL}gone/</loc>\n"
    "         <lastmod>2025-07-28</lastmod>\n"
    "    </url>\n"
    "</urlset>"
).encode()
HUGO_DECLARATION = '<?xml version="1.0" encoding="utf-8" standalone="yes"?>'
HUGO_INDEX = (
    f'{HUGO_DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    "<sitemap><loc>/en/sitemap.xml</loc><lastmod>2026-04-17T09:48:13+08:00</lastmod></sitemap>"
    f"<sitemap><loc>{BASE_URL}fr/sitemap.xml</loc></sitemap>"
    "<sitemap><loc>/de/sitemap.xml</loc></sitemap>"
    "</sitemapindex>"
)


def hugo_urlset(loc: str) -> str:
    return (
        f'{HUGO_DECLARATION}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>'
        f"{loc}</loc><lastmod>2026-03-09T20:36:34+08:00</lastmod></url></urlset>"
    )


ASTRO_INDEX = (
    '<?xml version="1.0" encoding="UTF-8"?><sitemapindex '
    'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap>'
    f"<loc>{BASE_URL}sitemap-0.xml</loc></sitemap></sitemapindex>"
)
ASTRO_URLSET = (
    '<?xml version="1.0" encoding="UTF-8"?><urlset '
    'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
    'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" '
    'xmlns:xhtml="http://www.w3.org/1999/xhtml" '
    'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" '
    'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">'
    f"<url><loc>{BASE_URL}</loc></url></urlset>"
)


def build(site: Path) -> tuple[int, str, str]:
    done = run_sitemill("build", str(site), "--base-url", BASE_URL, env={"no_proxy": "*"})
    return done.returncode, done.stdout, done.stderr


def validate(site: Path) -> None:
    done = run_sitemill("validate", str(site))
    assert done.returncode == 0, done.stdout + done.stderr


def warnings_of(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("sitemill: warning:")]


def test_mkdocs_sitemap_and_its_gz_twin_are_replaced_once(make_site: SiteMaker) -> None:
    site = make_site({"index.html": page("home"), "about/index.html": page("about")})
    (site / "sitemap.xml").write_bytes(MKDOCS)
    (site / "sitemap.xml.gz").write_bytes(gzip.compress(MKDOCS, mtime=0))
    code, stdout, stderr = build(site)
    assert code == 0, stderr
    (warning,) = warnings_of(stderr)
    assert warning.startswith(
        "sitemill: warning: replacing MkDocs' sitemap.xml with sitemill's "
        "(deleting sitemap.xml.gz with it): MkDocs writes both on every build"
    )
    assert "was the state deleted" not in stderr
    assert "deleted: sitemap.xml.gz" in stdout
    assert not (site / "sitemap.xml.gz").exists()
    assert b"gone/" not in (site / "sitemap.xml").read_bytes()
    validate(site)
    code, stdout, stderr = build(site)  # a second run: nothing to say, nothing to do
    assert (code, stderr) == (0, "")
    assert "nothing changed" in stdout


RSS = (
    '<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n'
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>x</title>'
    "</channel></rss>"
).encode()


@pytest.mark.parametrize(
    ("twin", "gone"),
    [
        (gzip.compress(MKDOCS.replace(b"gone/", b"stale/"), mtime=0), True),  # stale: a sitemap
        (gzip.compress(RSS, mtime=0), False),  # a feed, gzipped: never deleted
        (b"not gzip at all", False),
        (gzip.compress(b"<urlset/>", mtime=0), False),  # no sitemaps.org namespace
    ],
)
def test_a_gz_twin_goes_only_when_it_is_a_sitemap(
    make_site: SiteMaker, twin: bytes, gone: bool
) -> None:
    site = make_site({"index.html": page("home")})
    (site / "sitemap.xml").write_bytes(MKDOCS)
    (site / "sitemap.xml.gz").write_bytes(twin)
    code, stdout, stderr = build(site)
    assert code == 0
    (warning,) = warnings_of(stderr)
    assert "replacing MkDocs' sitemap.xml" in warning
    assert ("deleting sitemap.xml.gz" in warning) is gone
    assert ("deleted: sitemap.xml.gz" in stdout) is gone
    assert (site / "sitemap.xml.gz").exists() is not gone


def test_hugo_multilingual_index_and_its_children_are_replaced(make_site: SiteMaker) -> None:
    site = make_site(
        {
            "index.html": page("home"),
            "fr/index.html": page("accueil"),
            "sitemap.xml": HUGO_INDEX,
            "en/sitemap.xml": hugo_urlset(BASE_URL),
            "fr/sitemap.xml": hugo_urlset(f"{BASE_URL}fr/"),
            # Named by the index but not Hugo's: never deleted; not named: never deleted.
            "de/sitemap.xml": "<urlset/>",
            "es/sitemap.xml": hugo_urlset(f"{BASE_URL}es/"),
        }
    )
    code, stdout, stderr = build(site)
    assert code == 0, stderr
    (warning,) = warnings_of(stderr)
    assert warning == (
        "sitemill: warning: replacing Hugo's sitemap.xml with sitemill's (deleting "
        'en/sitemap.xml, fr/sitemap.xml with it): turn it off with `disableKinds = ["sitemap"]` '
        "in hugo.toml"
    )
    assert not (site / "en" / "sitemap.xml").exists()
    assert not (site / "fr" / "sitemap.xml").exists()
    assert (site / "de" / "sitemap.xml").read_text() == "<urlset/>"
    assert (site / "es" / "sitemap.xml").exists()
    assert "deleted: en/sitemap.xml, fr/sitemap.xml" in stdout or "en/sitemap.xml" in stdout
    code, _, stderr = build(site)
    assert (code, stderr) == (0, "")


def test_astro_index_and_child_go_and_robots_txt_is_pointed_out(make_site: SiteMaker) -> None:
    robots = f"User-agent: *\nAllow: /\n\nSitemap: {BASE_URL}sitemap-index.xml\n"
    site = make_site(
        {
            "index.html": page("home"),
            "sitemap-index.xml": ASTRO_INDEX,
            "sitemap-0.xml": ASTRO_URLSET,
            "robots.txt": robots,
        }
    )
    code, _, stderr = build(site)
    assert code == 0, stderr
    takeover, pointed = warnings_of(stderr)
    assert takeover == (
        "sitemill: warning: sitemill's sitemap.xml takes over from Astro's sitemap-index.xml "
        "(deleting it and sitemap-0.xml): turn it off by removing `@astrojs/sitemap` from "
        "`integrations` in astro.config.mjs"
    )
    assert pointed.startswith("sitemill: warning: robots.txt still names Astro's sitemap-index")
    assert not (site / "sitemap-index.xml").exists()
    assert not (site / "sitemap-0.xml").exists()
    assert (site / "robots.txt").read_text() == robots
    validate(site)


@pytest.mark.parametrize(
    ("head", "named", "setting"),
    [
        (
            '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns:xsi="http://www.w3.org/2001/'
            'XMLSchema-instance" xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9 '
            'http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd" '
            'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url>\n',
            "Jekyll's",
            "removing `jekyll-sitemap` from `plugins` in _config.yml",
        ),
        (ASTRO_URLSET.split("<url>")[0] + "<url>", "Docusaurus'", "`sitemap: false`"),
        (
            "<?xml version='1.0' encoding='utf-8'?>\n<urlset xmlns=\"http://www.sitemaps.org/"
            'schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"><url>',
            "Sphinx's",
            "removing `sphinx_sitemap` from `extensions` in conf.py",
        ),
    ],
)
def test_each_generator_is_named_with_its_setting(
    make_site: SiteMaker, head: str, named: str, setting: str
) -> None:
    site = make_site({"index.html": page("home")})
    (site / "sitemap.xml").write_text(f"{head}<loc>{BASE_URL}</loc></url></urlset>")
    code, _, stderr = build(site)
    assert code == 0
    (warning,) = warnings_of(stderr)
    assert f"replacing {named} sitemap.xml with sitemill's: " in warning
    assert setting in warning
