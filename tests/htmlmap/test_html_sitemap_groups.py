"""sitemap.html follows the named groups (docs/output.md, Named groups): one section per group, in
the configuration's order, then the rest as without groups; no group, the same bytes as before."""

from __future__ import annotations

import re
from pathlib import Path

from test_html_sitemap import links_of

from conftest import BASE_URL, SiteMaker, page
from outputlist import build_from_tree
from sitemill.config.model import load_config
from sitemill.filenames.outputs import HTML_SITEMAP
from sitemill.sinks import LocalDirSink

SITE = {
    "index.html": page("Home"),
    "about/team.html": page("Team"),
    "blog/b.html": page("Post B"),
    "blog/2024/a.html": page("Post A"),
    "docs/guide.html": page("Guide"),
}
GROUPS = [
    {"name": "docs", "include": ["docs/**"]},
    {"name": "blog", "include": ["blog/**"]},
]


def build(site: Path, out: Path, groups: list[dict[str, object]]) -> bytes:
    flags = {"base_url": BASE_URL, "lastmod": "mtime", "html_sitemap": True}
    config = load_config(flags, {}, {"groups": groups} if groups else {})
    build_from_tree(config, site, LocalDirSink(out))
    return (out / HTML_SITEMAP).read_bytes()


def test_a_section_per_group_in_their_order_then_the_rest(
    make_site: SiteMaker, tmp_path: Path
) -> None:
    site = make_site(SITE)
    data = build(site, tmp_path / "out", GROUPS)
    text = data.decode()
    headings = re.findall(r'<h2 id="([^"]+)">([^<]*)', text)
    assert headings[1:] == [
        ("group-1", "docs"),
        ("group-2", "blog"),
        ("language-1", "Other pages"),
    ]
    hrefs = [href for href, _ in links_of(data).links if "#" not in href]
    order = [href.removeprefix(BASE_URL) for href in hrefs[1:]]  # (after the XML sitemap's)
    # (a group's pages by folder, as the rest: /blog/ before /blog/2024/)
    assert order == ["docs/guide.html", "blog/b.html", "blog/2024/a.html", "", "about/team.html"]
    assert 'href="#group-1">docs</a>' in text  # (the contents name each group)


def test_without_groups_the_page_is_as_before(make_site: SiteMaker, tmp_path: Path) -> None:
    site = make_site(SITE)
    plain = build(site, tmp_path / "plain", [])
    assert "group-" not in plain.decode() and "<h3" not in plain.decode()
    grouped = build(site, tmp_path / "grouped", GROUPS)
    assert grouped != plain
    again = build(site, tmp_path / "plain", [])
    assert again == plain
