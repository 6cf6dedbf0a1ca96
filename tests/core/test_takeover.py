"""The shapes of generators' sitemaps (sitemill.writing.generators): each generator's is told, and
none of sitemill's own outputs (a urlset with alternates and images, a sharded index and its
children, the empty urlset) is taken for a generator's, or for anything but sitemill's."""

from __future__ import annotations

from pathlib import Path

import pytest

from clirun import run_sitemill
from conftest import BASE_URL, SiteMaker, page
from sitemill.writing.generators import (
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
