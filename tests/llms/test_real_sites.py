"""Two real built sites end to end: `sitemill build --llms-txt --llms-full --llms-pages`.

The sites are the `after/` builds of tests/diff/realsites (mdBook: rust-patterns, 44 listed
pages; Sphinx: four versions of spyder-docs's panes, 79), unmodified. What sitemill writes is
judged by readings that share no code with it: the sitemap's `<loc>`s with lxml, llms.txt with
the reference parser (`llms_txt.miniparse`), each page's `<title>` with lxml, its article and
furniture with articlereading (lxml). Measured on these pages (benchmarks/realsites/llmseval.py
gives the figures on whole real sites, results-67-llms.md): word recall 0.988 at least on
rust-patterns (its unsafe-mods page; median 0.998); on spyder-panes 1.0 (0.975 while main's
8ba30d7 took a block most of a section's pages end with, "Related components", for template: it
is reverted); no furniture word in any page's block.
"""

from __future__ import annotations

import html
import re
import tarfile
from collections import Counter
from pathlib import Path

import lxml.etree
import lxml.html
import pytest
from articlereading import article_words, furniture_words, markdown_words, recall
from llms_txt.miniparse import parse_llms_txt

from sitemill.cli.main import main

HERE = Path(__file__).parent.parent / "diff" / "realsites"
SITES = {
    "rust-patterns": "https://rust-unofficial.github.io/patterns/",
    "spyder-panes": "https://docs.spyder-ide.org/",
}
MIN_RECALL = 0.98  # (see above: 0.988 is the lowest page)
SITEMAP_LOC = "{http://www.sitemaps.org/schemas/sitemap/0.9}loc"
# Where a title's parts are joined: a dash, a bar, a dot, a chevron, spaced on both sides.
TITLE_JOIN = re.compile(r"\s+[-\u2013\u2014|\u00b7\u2022\u00bb]\s+")
BLOCK_HEAD = re.compile(r"^---\n\n# \[(.*)\]\((\S+)\)\n", re.MULTILINE)
# Elements a browser renders inline: their text joins the words around them ("Sour<span>c</span>e"
# is one word, Sphinx's menu accelerators), which articlereading's itertext() would split.
INLINE = (
    "a",
    "abbr",
    "b",
    "cite",
    "code",
    "em",
    "i",
    "kbd",
    "mark",
    "q",
    "s",
    "samp",
    "small",
    "span",
    "strong",
    "sub",
    "sup",
    "time",
    "u",
    "var",
)


class Built:
    """A site as the archive holds it and what `sitemill build` wrote for it."""

    def __init__(self, name: str, folder: Path) -> None:
        with tarfile.open(HERE / f"{name}.tar.xz") as archive:
            members = [m for m in archive.getmembers() if m.name.startswith("after/")]
            archive.extractall(folder, members=members, filter="data")
        self.base, self.site, self.out = SITES[name], folder / "after", folder / "out"
        argv = ["-q", "build", str(self.site), "--out", str(self.out), "--base-url", self.base]
        assert main([*argv, "--lastmod", "mtime", "--llms-txt", "--llms-full", "--llms-pages"]) == 0
        root = lxml.etree.parse(str(self.out / "sitemap.xml")).getroot()
        self.locs = [" ".join((loc.text or "").split()) for loc in root.iter(SITEMAP_LOC)]

    def page(self, url: str) -> bytes:
        relative = url.removeprefix(self.base)
        path = self.site / (
            relative + "index.html" if relative.endswith("/") or not relative else relative
        )
        return path.read_bytes()


def inline_joined(data: bytes) -> bytes:
    """The page with its inline elements' text merged into their parents (see INLINE)."""
    root = lxml.html.fromstring(data)
    lxml.etree.strip_tags(root, *INLINE)
    return bytes(lxml.html.tostring(root, encoding="utf-8"))


@pytest.fixture(scope="module", params=sorted(SITES))
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Built:
    name = str(request.param)
    return Built(name, tmp_path_factory.mktemp(name))


def title_of(data: bytes) -> str:
    titles = lxml.html.fromstring(data).xpath("//title")
    return " ".join(titles[0].text_content().split()) if titles else ""


def test_llms_txt_links_exactly_the_sitemap_s_pages_each_once(built: Built) -> None:
    parsed = parse_llms_txt((built.out / "llms.txt").read_text(encoding="utf-8"))
    links = Counter(item["url"] for items in parsed["sections"].values() for item in items)
    assert len(built.locs) > 40
    # every page but the listings (issue 82): here each version's search.html
    assert set(links) <= set(built.locs)
    assert all(url.endswith("/search.html") for url in set(built.locs) - set(links))
    assert set(links.values()) == {1}
    assert sorted(built.out.rglob("llms.txt")) == [built.out / "llms.txt"]  # (no hreflang)


def own_titles(title: str) -> set[str]:
    """The title, its parts, and the title less one part and its separator (the site's name, or
    a part a section's titles share: 'Editor — Spyder 3 documentation' is 'Editor')."""
    pieces = re.split(f"({TITLE_JOIN.pattern})", title)
    parts, joins = pieces[::2], pieces[1::2]
    found = {title, *parts}
    for gone in range(len(parts)):
        kept = [(joins[i - 1] if i else "", part) for i, part in enumerate(parts) if i != gone]
        found.add(
            "".join(join + part for join, part in kept).removeprefix(kept[0][0]) if kept else ""
        )
    return found


def test_each_title_is_the_page_s_own(built: Built) -> None:
    """The page's <title>, a part of it, or the title less one part."""
    parsed = parse_llms_txt((built.out / "llms.txt").read_text(encoding="utf-8"))
    # (a ']' in a title is written as '&#93;', which the reference parser leaves as it is)
    items = [item for items in parsed["sections"].values() for item in items]
    assert len(items) == len([url for url in built.locs if not url.endswith("/search.html")])
    for item in items:
        assert html.unescape(item["title"]) in own_titles(title_of(built.page(item["url"]))), item


def test_llms_full_holds_each_page_s_article_and_none_of_its_furniture(built: Built) -> None:
    text = (built.out / "llms-full.txt").read_text(encoding="utf-8")
    heads = list(BLOCK_HEAD.finditer(text))
    blocks = {
        head.group(2): text[head.end() : heads[i + 1].start() if i + 1 < len(heads) else None]
        for i, head in enumerate(heads)
    }
    assert list(blocks) == built.locs  # (every page, in the sitemap's order: no limit hit)
    for url, block in blocks.items():
        data = inline_joined(built.page(url))
        got = markdown_words(block)
        assert recall(article_words(data), got) >= MIN_RECALL, url
        assert furniture_words(data) & set(got) == set(), url


def test_each_twin_is_its_page_s_block(built: Built) -> None:
    text = (built.out / "llms-full.txt").read_text(encoding="utf-8")
    twins = sorted(built.out.rglob("*.md"))  # (x.html.md beside x.html's place)
    assert len(twins) == len(built.locs)
    for twin in twins:
        page = built.site / twin.relative_to(built.out).as_posix().removesuffix(".md")
        data = inline_joined(page.read_bytes())
        got = markdown_words(twin.read_text(encoding="utf-8"))
        assert recall(article_words(data), got) >= MIN_RECALL, twin
        assert set(got) <= set(markdown_words(text)), twin
