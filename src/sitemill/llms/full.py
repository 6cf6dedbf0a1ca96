"""llms-full.txt: each listed page's content region as Markdown, in sitemap order, to a limit."""
# llmstxt.org gives llms-full.txt no format; this one is one Markdown document (docs/llms-full.md):
# the head (name, summary, the line naming the sitemap, the mark), then per page a rule, its title
# as an H1 link and its Markdown with its headings one level down. Pages are taken whole while the
# file stays within ``max_bytes``; at the first that does not fit, a last block says where it
# stopped and how many were left out. UTF-8, LF, one LF at the end: same pages, same bytes.

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from sitemill.config.llms import DEFAULT_LLMS_FULL_BYTES
from sitemill.llms._markdown import headings_down
from sitemill.llms._ownership import SITEMILL_MARK
from sitemill.llms._text import block_text, heading_text, inline_text, link_url, one_line
from sitemill.llms.conversion import PageMarkdown
from sitemill.llms.page import LlmsSite

_SEPARATOR: Final = "---\n\n"


def full_head(site: LlmsSite, name: str) -> str:
    """The head of llms-full.txt: the name as H1, the summary (if any), one info line, the mark."""
    lines = [f"# {heading_text(one_line(name))}", ""]
    summary = one_line(site.summary)
    if summary:
        lines += [f"> {block_text(summary)}", ""]
    lines += [
        f"The content of the pages {site.sitemap_url} lists, as Markdown, in its order.",
        "",
        SITEMILL_MARK,
    ]
    return "\n".join(lines) + "\n"


def page_block(converted: PageMarkdown) -> str:
    """One page's block: the separator, ``# [Title](URL)``, its Markdown a level down."""
    page = converted.page
    title = inline_text(one_line(page.title) or one_line(page.url))
    url = link_url(one_line(page.url))
    body = headings_down(converted.markdown).strip("\n")
    return f"{_SEPARATOR}# [{title}]({url})\n" + (f"\n{body}\n" if body else "")


def stop_block(max_bytes: int, left_out: int, first_left_out: str) -> str:
    """The last block of a file that reached its limit: where it stopped, what it left out."""
    pages = "page" if left_out == 1 else "pages"
    return (
        f"{_SEPARATOR}llms-full.txt stops here, at its limit of {max_bytes:,} bytes: "
        f"{left_out:,} more {pages} of the sitemap, from {first_left_out} on, are left out.\n"
    )


def llms_full_text(
    site: LlmsSite,
    name: str,
    pages: Iterable[PageMarkdown],
    max_bytes: int = DEFAULT_LLMS_FULL_BYTES,
    urls: Sequence[str] = (),
) -> bytes:
    """llms-full.txt's bytes from the pages' Markdown in sitemap order (see above): the head,
    then each page whole while the file stays within ``max_bytes``. Blocks are joined by a
    blank line (counted in ``size``); the file is built once, at the end. ``urls``: every
    page's URL in the same order, when known: past the limit no page is asked for (none is
    converted for nothing), the rest are counted from them."""
    head = full_head(site, name).encode()
    taken: list[tuple[str, bytes]] = []  # (the page's URL, its block)
    size = len(head)
    left_out: list[str] = []  # the URLs of the pages left out, in order
    for index, converted in enumerate(pages):
        block = b"" if left_out else page_block(converted).encode()
        if not left_out and size + 1 + len(block) > max_bytes and urls:
            left_out = list(urls[index:])
            break
        if left_out or size + 1 + len(block) > max_bytes:
            left_out.append(converted.page.url)
            continue
        taken.append((converted.page.url, block))
        size += 1 + len(block)
    blocks = [block for _, block in taken]
    if left_out:
        blocks = _with_stop(taken, size, max_bytes, left_out)
    return b"\n".join([head, *blocks])


def _with_stop(
    taken: list[tuple[str, bytes]], size: int, max_bytes: int, left_out: list[str]
) -> list[bytes]:
    """The blocks taken and the stop block at their end, the last pages given up until it fits
    (or none is left: a head alone may pass the limit)."""
    while True:
        stop = stop_block(max_bytes, len(left_out), left_out[0]).encode()
        if size + 1 + len(stop) <= max_bytes or not taken:
            return [block for _, block in taken] + [stop]
        url, block = taken.pop()
        left_out.insert(0, url)
        size -= 1 + len(block)
