"""The shapes of generators' sitemaps (sitemill.writing._generators): each generator's is told, and
none of sitemill's own outputs (a urlset with alternates and images, a sharded index and its
children, the empty urlset) is taken for a generator's, or for anything but sitemill's. And what
is a sitemap at all (sitemill.writing.sitemapfile): its root element, never a feed or a page."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from bombs import gzip_bomb
from clirun import run_sitemill
from conftest import BASE_URL, SiteMaker, page
from sitemill.config.model import LastmodMode
from sitemill.report import Report, WriteResult
from sitemill.writing._generators import (
    ASTRO,
    DOCUSAURUS,
    HUGO,
    JEKYLL,
    MKDOCS,
    SPHINX,
    Generator,
    is_astro_index,
    looks_like_sitemills,
    written_by,
)
from sitemill.writing._namedsitemaps import KeptBecause, KeptSitemap
from sitemill.writing.sitemapfile import HEAD_BYTES, index_locs, sitemap_root
from sitemill.writing.takeover import Takeover, settle

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


@pytest.mark.parametrize(
    ("data", "generator"),
    [
        # mkdocs 1.6 (pymdown-extensions) and mkdocs 1.4 (changefreq daily, no lastmod)
        (
            f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n    <url>\n'
            "         <loc>https://x.org/</loc>\n         <lastmod>2025-07-28</lastmod>",
            MKDOCS,
        ),
        (
            f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n    <url>\n'
            "         <loc>https://x.org/</loc>\n         <changefreq>daily</changefreq>",
            MKDOCS,
        ),
        (f'<?xml version="1.0" encoding="utf-8" standalone="yes"?><sitemapindex {NS}>', HUGO),
        (
            f'<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n<urlset {NS}\n'
            '  xmlns:xhtml="http://www.w3.org/1999/xhtml">',
            HUGO,
        ),
        (
            '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns:xsi="http://www.w3.org/2001/'
            'XMLSchema-instance" xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9 '
            f'http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd" {NS}>',
            JEKYLL,
        ),
        (
            f'<?xml version="1.0" encoding="UTF-8"?><urlset {NS} xmlns:news="http://www.google.com/'
            'schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:image="'
            'http://www.google.com/schemas/sitemap-image/1.1"',
            DOCUSAURUS,
        ),
        (f"<?xml version='1.0' encoding='utf-8'?>\n<urlset {NS}><url>", SPHINX),
    ],
)
def test_each_generators_shape_is_told(data: str, generator: Generator) -> None:
    assert written_by(data.encode()) is generator
    assert not looks_like_sitemills(data.encode())


def test_astros_index_is_told_and_no_other() -> None:
    astro = f'<?xml version="1.0" encoding="UTF-8"?><sitemapindex {NS}><sitemap><loc>'
    assert is_astro_index(astro.encode())
    assert not is_astro_index(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex {NS}>\n'.encode()
    )


def outputs(site: Path, out: Path, *options: str) -> dict[str, bytes]:
    done = run_sitemill("build", str(site), "--base-url", BASE_URL, "--out", str(out), *options)
    assert done.returncode == 0, done.stderr
    return {path.name: path.read_bytes() for path in out.glob("sitemap*.xml")}


def test_none_of_sitemills_outputs_is_taken_for_a_generators(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site(
        {
            "index.html": page("home", '<link rel="alternate" hreflang="fr" href="/fr/">'),
            "fr/index.html": page("accueil", '<link rel="alternate" hreflang="en" href="/">'),
            "a.html": '<html><head><title>a</title></head><body><img src="/a.png"></body></html>',
            "a.png": b"\x89PNG",
        }
    )
    files = outputs(site, tmp_path / "one", "--images", "--alternates")
    files |= {
        f"sharded-{k}": v for k, v in outputs(site, tmp_path / "two", "--shards", "on").items()
    }
    files |= {
        f"count-{k}": v
        for k, v in outputs(site, tmp_path / "three", "--max-urls", "1", "--shards", "off").items()
    }
    empty = make_site({"404.html": page("nothing")})
    files |= {f"empty-{k}": v for k, v in outputs(empty, tmp_path / "four").items()}
    assert len(files) >= 7
    for name, data in files.items():
        assert written_by(data) is None, name
        assert looks_like_sitemills(data), (name, data[:200])


LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY a "aaaaaaaaaa">'
    '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    f"<urlset {NS}><url><loc>&b;</loc></url></urlset>"
)


@pytest.mark.parametrize(
    ("data", "root"),
    [
        (f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>\n</urlset>', "urlset"),
        (f"\ufeff<?xml version='1.0'?><!-- a comment --><sitemapindex {NS}>", "sitemapindex"),
        ('<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">', "urlset"),
        # Hugo's RSS feed carries its sitemap's declaration: never a sitemap.
        ('<?xml version="1.0" encoding="utf-8" standalone="yes"?><rss version="2.0">', None),
        ('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">', None),
        ("<!DOCTYPE html><html><head><title>about</title></head>", None),
        ("<urlset><url><loc>https://x.org/</loc></url></urlset>", None),  # no namespace
        (f"<url {NS}><loc>https://x.org/</loc></url>", None),
        (LAUGHS, None),  # a DOCTYPE: not read on (no entity is ever expanded)
        ("", None),
        ("\x00\x01 binary", None),
    ],
)
def test_a_sitemap_is_told_by_its_root_element(data: str, root: str | None) -> None:
    assert sitemap_root(data.encode()) == root
    assert sitemap_root(gzip.compress(data.encode(), mtime=0)) == root


def test_a_gzip_head_of_a_bomb_or_of_a_cut_file_is_read_enough() -> None:
    bomb = gzip_bomb(f'<?xml version="1.0"?>\n<urlset {NS}>'.encode())
    assert sitemap_root(bomb) == "urlset"
    assert sitemap_root(bomb[:HEAD_BYTES]) == "urlset"  # (a ranged GET of its head)


def test_an_index_names_its_children_and_nothing_else() -> None:
    index = (
        '<?xml version="1.0" encoding="utf-8" standalone="yes"?>'
        f"<sitemapindex {NS}><sitemap><loc> /en/sitemap.xml </loc></sitemap>"
        "<sitemap><loc>https://x.org/a?b=1&amp;c=2</loc><lastmod>2026-01-01</lastmod></sitemap>"
        "<loc>/stray.xml</loc><sitemap><other><loc>/deep.xml</loc></other></sitemap>"
        "</sitemapindex>"
    )
    assert index_locs(index.encode()) == ["/en/sitemap.xml", "https://x.org/a?b=1&c=2"]
    assert index_locs(f"<urlset {NS}><url><loc>/a</loc></url></urlset>".encode()) == []
    cut = index.encode()[: index.index("</sitemap>") + 20]
    assert index_locs(cut) == ["/en/sitemap.xml"]  # cut short: what was read


@pytest.mark.parametrize(
    ("generator", "name", "own"),
    [
        (ASTRO, "sitemap-0.xml", True),
        (ASTRO, "sitemap-12.xml", True),
        (ASTRO, "sitemap-pages-0.xml", True),  # the `chunks` option: sitemap-<chunk>-<n>.xml
        (ASTRO, "sitemap-blog-posts-3.xml", True),
        (ASTRO, "blog-sitemap.xml", False),  # customSitemaps: the user's
        (ASTRO, "sitemap-blog.xml", False),
        (ASTRO, "docs/sitemap.xml", False),
        (ASTRO, "docs/sitemap-0.xml", False),  # Astro's children sit beside its index
        (ASTRO, "sitemap-0.xml.gz", False),
        (HUGO, "en/sitemap.xml", True),
        (HUGO, "pt-br/sitemap.xml", True),
        (HUGO, "zh-Hans/sitemap.xml", True),
        (HUGO, "docs/sitemap.xml", False),  # a sub-site's: no language tag
        (HUGO, "en/blog/sitemap.xml", False),
        (HUGO, "en/sitemap-0.xml", False),
        (HUGO, "sitemap.xml", False),
        (MKDOCS, "sitemap-0.xml", False),  # writes no index: no child is its own
        (JEKYLL, "en/sitemap.xml", False),
        (DOCUSAURUS, "sitemap-0.xml", False),
        (SPHINX, "en/sitemap.xml", False),
    ],
)
def test_a_child_is_the_generators_own_only_by_the_names_it_gives_them(
    generator: Generator, name: str, own: bool
) -> None:
    assert generator.writes_child(name) is own


class DictFiles:
    """A folder's files in memory (sitemill.writing.takeover.Files), counting the reads."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files, self.reads = files, 0

    def read(self, name: str, limit: int) -> bytes | None:
        self.reads += 1
        data = self.files.get(name)
        return None if data is None else data[:limit]

    def delete(self, name: str) -> None:
        del self.files[name]


URLSET = f'<?xml version="1.0" encoding="UTF-8"?><urlset {NS}></urlset>'.encode()


def test_only_the_generators_own_children_on_the_site_go_and_the_users_are_kept() -> None:
    base = "https://example.com/docs/"
    locs = [
        f"{base}sitemap-0.xml",  # Astro's: goes
        "/docs/sitemap-1.xml",  # Astro's, no host: goes
        f"{base}blog-sitemap.xml",  # the user's
        "https://example.com:8443/docs/sitemap-2.xml",  # another port
        "http://example.com/docs/sitemap-3.xml",  # another scheme
        "https://cdn.example.com/docs/sitemap-4.xml",  # another host
        "https://example.com/sitemap-5.xml",  # above the folder
        f"{base}../sitemap-6.xml",
        f"{base}feed.xml",  # no sitemap: neither goes nor is kept
        f"{base}sitemap-7.xml",  # named but not there
        f"{base}sitemap-1.xml",  # said twice
        "https://EXAMPLE.com:443/docs/sitemap-8.xml",  # the base URL's origin, spelt otherwise
    ]
    items = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    index = f'<?xml version="1.0" encoding="UTF-8"?><sitemapindex {NS}>{items}</sitemapindex>'
    names = ["sitemap-0.xml", "sitemap-1.xml", "blog-sitemap.xml"]
    files = DictFiles(
        {name: URLSET for name in names}
        | {f"sitemap-{n}.xml": URLSET for n in (2, 3, 4, 5, 6, 8)}
        | {"sitemap-index.xml": index.encode(), "feed.xml": b"<rss/>"}
    )
    report = Report(
        WriteResult(written=["sitemap.xml"], outputs=["sitemap.xml"]), LastmodMode.MTIME
    )
    found = settle(files, Takeover(ASTRO, "sitemap-index.xml", index.encode()), report, base)
    assert found is not None
    assert found.twins == ["sitemap-index.xml", "sitemap-0.xml", "sitemap-1.xml", "sitemap-8.xml"]
    assert found.users == [
        KeptSitemap(f"{base}blog-sitemap.xml", "blog-sitemap.xml", KeptBecause.NOT_ITS_OWN),
        *(KeptSitemap(loc, None, KeptBecause.ELSEWHERE) for loc in locs[3:8]),
    ]
    assert files.reads == 6  # the named files in the folder, once each: none elsewhere


def test_the_kept_names_are_said_escaped() -> None:
    name = "blog\x1b[31m\u202e.xml"
    takeover = Takeover(
        ASTRO,
        "sitemap-index.xml",
        b"",
        twins=["sitemap-index.xml", "sitemap-0.xml"],
        users=[KeptSitemap(f"https://example.com/{name}", name, KeptBecause.NOT_ITS_OWN)],
    )
    message = takeover.message()
    assert (
        "(deleting it and sitemap-0.xml; keeping and naming blog\\x1b[31m\\u202e.xml, "
        "not Astro's own)" in message
    )
    assert message.isprintable()
