"""llms-full.txt: the head, a block per page in sitemap order, never cut inside a page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import timing
from sitemill.llms._blocks import RepeatedBlocks
from sitemill.llms._markdownfiles import twin_bytes
from sitemill.llms._ownership import SITEMILL_MARK, has_mark_line
from sitemill.llms.conversion import PageMarkdown, page_block_keys, page_markdown
from sitemill.llms.full import full_head, llms_full_text, page_block
from sitemill.llms.page import LlmsPage, LlmsSite

SITE = LlmsSite("https://example.org/", "https://example.org/sitemap.xml", summary="A site.")


def converted(count: int, words: int = 20) -> list[PageMarkdown]:
    return [
        PageMarkdown(
            LlmsPage(f"https://example.org/p{index}/", f"Page {index}"),
            f"# Page {index}\n\n" + " ".join(f"w{index}" for _ in range(words)) + "\n",
        )
        for index in range(count)
    ]


def test_the_file_reads_head_then_pages_in_order() -> None:
    text = llms_full_text(SITE, "Example", converted(2, words=2)).decode()
    assert text == (
        "# Example\n\n> A site.\n\n"
        "The content of the pages https://example.org/sitemap.xml lists, as Markdown, in its"
        " order.\n\n"
        f"{SITEMILL_MARK}\n\n"
        "---\n\n# [Page 0](https://example.org/p0/)\n\n## Page 0\n\nw0 w0\n\n"
        "---\n\n# [Page 1](https://example.org/p1/)\n\n## Page 1\n\nw1 w1\n"
    )


def test_no_summary_gives_no_quote_line() -> None:
    head = full_head(LlmsSite("https://e.org/", "https://e.org/sitemap.xml"), "E")
    assert "\n> " not in head and head.startswith("# E\n\nThe content")


def test_a_title_and_url_that_markdown_would_misread_are_escaped() -> None:
    page = PageMarkdown(LlmsPage("https://e.org/a_(b)/", "Array[T]\nguide"), "")
    assert page_block(page) == "---\n\n# [Array&#91;T&#93; guide](https://e.org/a_%28b%29/)\n"


def test_a_page_without_a_title_is_named_by_its_url() -> None:
    page = PageMarkdown(LlmsPage("https://e.org/a/"), "Words.\n")
    assert page_block(page).startswith("---\n\n# [https://e.org/a/](https://e.org/a/)\n")


@pytest.mark.parametrize("max_bytes", [400, 700, 1000, 1500, 2500])
def test_the_limit_is_kept_and_never_cuts_a_page(max_bytes: int) -> None:
    pages = converted(30)
    data = llms_full_text(SITE, "Example", pages, max_bytes=max_bytes)
    text = data.decode()
    assert len(data) <= max_bytes
    taken = [page for page in pages if f"]({page.page.url})" in text]
    assert taken == pages[: len(taken)]  # (in order, from the first)
    for page in taken:
        assert page_block(page).rstrip("\n") in text  # whole
    left = len(pages) - len(taken)
    assert text.endswith(
        f"llms-full.txt stops here, at its limit of {max_bytes:,} bytes: {left} more pages of"
        f" the sitemap, from {pages[len(taken)].page.url} on, are left out.\n"
    )


def test_within_the_limit_there_is_no_stop_line() -> None:
    data = llms_full_text(SITE, "Example", converted(3), max_bytes=100_000)
    assert b"stops here" not in data and data.endswith(b"w2\n")


def test_bytes_are_utf8_lf_ending_with_one_lf_and_the_same_twice() -> None:
    pages = [PageMarkdown(LlmsPage("https://e.org/é/", "Café"), "Crème\n\n\n")]
    first = llms_full_text(SITE, "Ex", pages)
    assert first == llms_full_text(SITE, "Ex", pages)
    assert b"\r" not in first and first.endswith(b"Cr\xc3\xa8me\n")


def test_the_mark_tells_sitemill_s_file_from_a_user_s() -> None:
    assert has_mark_line(llms_full_text(SITE, "Ex", converted(1)))
    assert not has_mark_line(b"# My own llms-full.txt\n\nWords.\n")
    quoted = f"A line quoting the mark: {SITEMILL_MARK}\n".encode()
    assert not has_mark_line(quoted)


def test_no_pages_is_the_head_alone() -> None:
    data = llms_full_text(SITE, "Example", [])
    assert data == full_head(SITE, "Example").encode() and data.endswith(b"-->\n")


def test_past_the_limit_no_page_is_asked_for() -> None:
    """With every page's URL given, the pages after the first that does not fit are counted
    from the URLs, never taken from the (lazy, converting) stream."""
    site = LlmsSite("https://e.org/", "https://e.org/sitemap.xml")
    urls = [f"https://e.org/p{n}/" for n in range(50)]
    taken: list[str] = []

    def stream() -> Iterator[PageMarkdown]:
        for url in urls:
            taken.append(url)
            yield PageMarkdown(LlmsPage(url, url), "word " * 2_000)

    data = llms_full_text(site, "E", stream(), 64 * 1024, urls)
    every = (PageMarkdown(LlmsPage(url, url), "word " * 2_000) for url in urls)
    whole = llms_full_text(site, "E", every, 64 * 1024)
    assert data == whole
    assert len(taken) < 10


@pytest.mark.parametrize(
    "filler",
    [
        "<ul><li>",  # (issue 78: unclosed lists after a paragraph, 20,000 of them)
        "<ul><li>item ",
        "<ul>\n  <li><p>item [1] &lt;b&gt; \u202e",  # (escaped text, controls removed)
        "<div style='display:none'><p hidden>x",  # (hidden elements, each left out)
        "<li><a href='javascript:x' title='t\\'>a</a><img src='data:,' alt='[i]'>",
        "<pre>```\n",  # (code blocks holding fences)
    ],
)
def test_a_page_s_markdown_files_cost_grows_linearly(filler: str) -> None:
    # Every reader of the page's markup on the way to llms-full.txt and its twin: the head,
    # the region, the repeated blocks' hashes, the Markdown, the file's block, the twin.
    page = LlmsPage("https://example.org/big/", "Big <b>page</b>")

    def html_page(count: int) -> bytes:
        body = "<p>A paragraph.</p>" + filler * count
        return f"<html><head><title>Big</title></head><body>{body}</body></html>".encode()

    def write(data: bytes) -> int:
        page_block_keys(page, data)
        converted = page_markdown(page, data, RepeatedBlocks())
        return len(llms_full_text(SITE, "Example", [converted])) + len(twin_bytes(converted))

    assert timing.linear(write, html_page(400), html_page(3_200), 20)
