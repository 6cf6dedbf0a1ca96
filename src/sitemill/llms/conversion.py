"""The listed pages as Markdown, in two passes: the blocks the site repeats, then each page."""
# The first pass reads each page's region and counts the hashes of its edge blocks
# (llms.blocks); the second reads each page again, leaves out the blocks that pass found repeated
# and converts the rest (llms.markdown). Memory holds hashes and one page at a time (per worker),
# never every page. Both passes take the pages in sitemap order and give the same result with a
# pool of any size as with none: a chunk's results are taken in the list's order.
#
# A page is given as (LlmsPage, a callable returning its bytes). With a WorkPool of more than one
# worker the callables go to worker processes: they must pickle (functools.partial of a
# top-level function, e.g. partial(Path.read_bytes, path)); a lambda will not.

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TypeVar

from sitemill.llms._blocks import BlockCount, RepeatedBlocks, edge_blocks
from sitemill.llms._markdown import region_markdown
from sitemill.llms._region import content_region
from sitemill.llms.page import LlmsPage
from sitemill.workers.workpool import WorkPool, cut

_T = TypeVar("_T")
_R = TypeVar("_R")
LazyBytes = Callable[[], bytes]
ListedPage = tuple[LlmsPage, LazyBytes]


@dataclass(frozen=True, slots=True)
class PageMarkdown:
    """One listed page's content region as Markdown ("" when it holds no text)."""

    page: LlmsPage
    markdown: str


def page_language(page: LlmsPage, declared: str) -> str:
    """The language a page's blocks are counted in: its hreflang, else its ``<html lang>``
    (``declared``), its primary subtag, lower-cased ("" when neither says)."""
    return (page.hreflang or declared).split("-")[0].split("_")[0].strip().lower()


def page_block_keys(page: LlmsPage, data: bytes) -> tuple[str, list[bytes]]:
    """The first pass for one page (of bytes ``data``): its language and the hashes of its edge
    blocks, what BlockCount.add counts (a job that reads each page anyway may count here)."""
    region = content_region(data, page.url)
    return page_language(page, region.lang), [key for key, _ in edge_blocks(region.parts)]


def _hashes_of(chunk: Sequence[ListedPage]) -> list[tuple[str, list[bytes]]]:
    return [page_block_keys(page, read()) for page, read in chunk]


def repeated_blocks(pages: Sequence[ListedPage], pool: WorkPool | None = None) -> RepeatedBlocks:
    """The first pass: the blocks the pages repeat (llms.blocks), read in ``pool`` if given."""
    count = BlockCount()
    for lang, keys in chain.from_iterable(_mapped(_hashes_of, pages, pool)):
        count.add(lang, keys)
    return count.repeated()


def _markdown_of(work: tuple[Sequence[ListedPage], RepeatedBlocks]) -> list[PageMarkdown]:
    chunk, repeated = work
    return [page_markdown(page, read(), repeated) for page, read in chunk]


def page_markdown(page: LlmsPage, data: bytes, repeated: RepeatedBlocks) -> PageMarkdown:
    """The second pass for one page: its region (of ``data``), the site's repeated blocks left
    out, as Markdown."""
    region = content_region(data, page.url)
    repeated.drop_from(region.parts, page_language(page, region.lang))
    return PageMarkdown(page, region_markdown(region))


def page_markdowns(
    pages: Sequence[ListedPage], repeated: RepeatedBlocks, pool: WorkPool | None = None
) -> Iterator[PageMarkdown]:
    """The second pass: each page's Markdown, in the order of ``pages``."""
    works = [(chunk, repeated) for chunk in _chunks(pages, pool)]
    for found in _run(_markdown_of, works, pool):
        yield from found


def site_markdowns(
    pages: Sequence[ListedPage], pool: WorkPool | None = None
) -> Iterator[PageMarkdown]:
    """Both passes: each page's Markdown, without the blocks the site repeats, in order."""
    return page_markdowns(pages, repeated_blocks(pages, pool), pool)


def _chunks(pages: Sequence[ListedPage], pool: WorkPool | None) -> list[Sequence[ListedPage]]:
    return cut(pages, pool.workers if pool is not None else 1, most=64)


def _mapped(
    work: Callable[[Sequence[ListedPage]], list[tuple[str, list[bytes]]]],
    pages: Sequence[ListedPage],
    pool: WorkPool | None,
) -> Iterator[list[tuple[str, list[bytes]]]]:
    return _run(work, _chunks(pages, pool), pool)


def _run(work: Callable[[_T], _R], chunks: Sequence[_T], pool: WorkPool | None) -> Iterator[_R]:
    return pool.imap(work, chunks) if pool is not None else map(work, chunks)
