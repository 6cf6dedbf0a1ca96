"""The site's pages as Markdown in two passes: the blocks the site repeats are left out."""

from __future__ import annotations

import functools
import pickle
from collections import Counter
from itertools import islice

import pytest

from sitemill.llms._blocks import EDGE_BLOCKS, REPEATED_MIN_PAGES, BlockCount
from sitemill.llms._region import Region, content_region
from sitemill.llms.conversion import (
    SAMPLE_PAGES,
    PageMarkdown,
    page_block_keys,
    page_markdown,
    repeated_blocks,
    site_markdowns,
)
from sitemill.llms.page import LlmsPage
from sitemill.workers.workpool import WorkPool

BASE = "https://example.org/"


def page_bytes(body: str, lang: str = "en") -> bytes:
    return f"<html lang='{lang}'><body><main>{body}</main></body></html>".encode()


def pages_of(
    bodies: list[str], lang: str = "en"
) -> list[tuple[LlmsPage, functools.partial[bytes]]]:
    return [
        (LlmsPage(f"{BASE}p{index}/", f"Page {index}"), functools.partial(page_bytes, body, lang))
        for index, body in enumerate(bodies)
    ]


def article(index: int) -> str:
    return (
        "<article><div class='banner'>You are reading the docs of version 2.</div>"
        f"<h1>Page {index}</h1><p>Own words {index}.</p><p>More of page {index}.</p>"
        f"<footer class='doc-footer'>Unique footer {index}</footer>"
        "<div><a href='https://github.com/x/edit/p.md'>Edit this page</a></div></article>"
    )


def test_a_block_on_most_pages_is_gone_one_unique_to_a_page_stays() -> None:
    # "Edit this page" closes the article on every page: the site's. Each page's own footer,
    # in the same footer-like spot beside it, is the page's; so is the one closing line that
    # page 4 has instead of the banner's.
    bodies = [article(index) for index in range(5)]
    bodies[4] = bodies[4].replace("You are reading the docs of version 2.", "Page 4's own note.")
    converted = list(site_markdowns(pages_of(bodies)))
    for index, page in enumerate(converted):
        assert "Edit this page" not in page.markdown
        assert "version 2" not in page.markdown
        assert f"Own words {index}." in page.markdown
        assert f"Unique footer {index}" in page.markdown
    assert "Page 4's own note." in converted[4].markdown
    assert [page.page.url for page in converted] == [f"{BASE}p{index}/" for index in range(5)]


def test_a_block_on_half_the_pages_or_fewer_stays() -> None:
    bodies = [article(index) for index in range(4)] + [f"<p>Other {i}</p>" for i in range(4)]
    converted = list(site_markdowns(pages_of(bodies)))
    assert all("Edit this page" in page.markdown for page in converted[:4])


def test_too_few_pages_repeat_nothing() -> None:
    bodies = [article(index) for index in range(REPEATED_MIN_PAGES - 1)]
    assert all("Edit this page" in page.markdown for page in site_markdowns(pages_of(bodies)))


def test_a_repeated_block_in_the_middle_of_pages_stays() -> None:
    # A "Note" label many pages hold among their own paragraphs is each page's text.
    middle = "".join(f"<p>Paragraph {n}.</p>" for n in range(EDGE_BLOCKS + 1))
    bodies = [f"<p>Top {i}</p>{middle}<p class='note'>Note</p>{middle}" for i in range(6)]
    assert all("\nNote\n" in page.markdown for page in site_markdowns(pages_of(bodies)))


def test_pages_are_counted_by_language() -> None:
    english = pages_of([article(index) for index in range(5)], "en")
    french = pages_of([f"<p>Texte {index}.</p><p>Edit this page</p>" for index in range(5)], "fr")
    french = [
        (LlmsPage(page.url.replace("/p", "/fr/p"), page.title), read) for page, read in french
    ]
    repeated = repeated_blocks(english + french[:1])
    assert set(repeated.by_lang) == {"en", "fr"} and not repeated.by_lang["fr"]


def test_the_page_s_hreflang_is_its_language_before_html_lang() -> None:
    pages = [
        (
            LlmsPage(f"{BASE}p{index}/", hreflang="de-AT"),
            functools.partial(page_bytes, article(index)),
        )
        for index in range(5)
    ]
    assert set(repeated_blocks(pages).by_lang) == {"de"}


def test_a_pool_gives_the_same_markdown_as_one_process() -> None:
    pages = pages_of([article(index) for index in range(9)])
    pickle.dumps(pages)  # (what the workers are handed)
    alone = list(site_markdowns(pages))
    with WorkPool(2) as pool:
        pooled = list(site_markdowns(pages, pool))
    assert pooled == alone


@pytest.mark.parametrize("runs", [2])
def test_two_runs_give_the_same_markdown(runs: int) -> None:
    pages = pages_of([article(index) for index in range(6)])
    results = [[page.markdown for page in site_markdowns(pages)] for _ in range(runs)]
    assert results[0] == results[1]


def merge(count: BlockCount, other: BlockCount) -> None:
    """Adds the pages ``other`` counted (another shard's) to ``count``: counts add."""
    count.pages.update(other.pages)
    for lang, counter in other.holding.items():
        count.holding.setdefault(lang, Counter()).update(counter)


def test_counts_of_two_shards_merge_to_the_whole_site_s() -> None:
    pages = pages_of([article(index) for index in range(4)] + ["<p>Other</p>"] * 3)
    shards = [BlockCount(), BlockCount()]
    for index, (page, read) in enumerate(pages):
        shards[index % 2].add(*page_block_keys(page, read()))
    merge(shards[0], shards[1])
    assert shards[0].repeated() == repeated_blocks(pages)
    assert shards[0].repeated().by_lang["en"]  # (4 of 7 pages: repeated)


def two_readings(pages: list[tuple[LlmsPage, functools.partial[bytes]]]) -> list[PageMarkdown]:
    """Each page read twice: the count of the whole site first, then each page converted."""
    repeated = repeated_blocks(pages)
    return [page_markdown(page, read(), repeated) for page, read in pages]


def sample(size: int) -> int:
    """How many of ``size`` pages the guess reads: every n-th, at most SAMPLE_PAGES."""
    return len(range(0, size, -(-size // SAMPLE_PAGES)))


def readings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URL of each page whose region is read from now on (in this process)."""
    read: list[str] = []

    def counted(data: bytes, url: str) -> Region:
        read.append(url)
        return content_region(data, url)

    monkeypatch.setattr("sitemill.llms.conversion.content_region", counted)
    return read


@pytest.mark.parametrize("size", [200, 400])
def test_a_page_is_read_once_beside_the_sample(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    # Both passes from one parse a page: the site's repeated banner and "Edit this page" guessed
    # from SAMPLE_PAGES spread over it, each page converted in the first pass (issue 81).
    pages = pages_of([article(index) for index in range(size)])
    expected = two_readings(pages)
    read = readings(monkeypatch)
    assert list(site_markdowns(pages)) == expected
    assert len(read) == size + sample(size) <= size + SAMPLE_PAGES
    assert "Edit this page" not in expected[0].markdown


def test_a_page_whose_guess_fails_is_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every second page holds a sponsor line: the sample (every second page of 100) finds it on
    # all of them, the site on half (not more than half: it stays). Those pages are read again.
    sponsor = "<p>Sponsored</p></article>"
    bodies = [
        article(n).replace("</article>", sponsor if n % 2 == 0 else "</article>")
        for n in range(100)
    ]
    pages = pages_of(bodies)
    expected = two_readings(pages)
    read = readings(monkeypatch)
    assert list(site_markdowns(pages)) == expected
    assert all("Sponsored" in page.markdown for page in expected[::2])
    assert Counter(Counter(read).values()) == {3: 50, 1: 50}  # (sample, first pass, again)


def test_past_the_budget_a_page_is_converted_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pages = pages_of([article(index) for index in range(300)])
    expected = two_readings(pages)
    read = readings(monkeypatch)
    first = list(islice(site_markdowns(pages, budget=0), 70))
    assert first == expected[:70]
    # The sample, the first pass (its first chunk of 60 converted there: then past the
    # budget), and the one chunk of 60 that holds the 10 more asked for; not the 180 after it.
    assert len(read) == sample(300) + 300 + 60
    assert list(site_markdowns(pages, budget=0)) == expected
