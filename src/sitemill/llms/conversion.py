"""The listed pages as Markdown, in two passes: the blocks the site repeats, then each page."""
# The first pass counts each page's edge-block hashes (llms.blocks); the second leaves out the
# blocks found repeated and converts the rest (llms.markdown). While the first pass has a region
# parsed (most of a page's cost) it converts it already, guessing the repeated blocks from a
# sample (SAMPLE_PAGES spread over the site); the second converts again only the pages whose guess
# the whole count belies: the same bytes, most pages parsed once. The first pass stops converting
# past ``budget`` characters (llms-full.txt's limit), so memory never holds every page. Results are
# taken in the list's order: the same with a pool of any size. With a WorkPool of more than one
# worker a page's bytes callable must pickle (functools.partial, not a lambda).

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Final, TypeVar

from sitemill.llms._blocks import BlockCount, RepeatedBlocks, edge_blocks
from sitemill.llms._markdown import region_markdown
from sitemill.llms._region import Region, content_region
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
    _, lang, keys = _read_region(page, data)
    return lang, keys


def _read_region(page: LlmsPage, data: bytes) -> tuple[Region, str, list[bytes]]:
    """A page's region (of bytes ``data``), its language and the hashes of its edge blocks."""
    region = content_region(data, page.url)
    return region, page_language(page, region.lang), [key for key, _ in edge_blocks(region.parts)]


def _hashes_of(chunk: Sequence[ListedPage]) -> list[tuple[str, list[bytes]]]:
    return [page_block_keys(page, read()) for page, read in chunk]


@dataclass(frozen=True, slots=True)
class _FirstRead:
    """The first pass's reading of one page: its language, the hashes of its edge blocks and,
    when it was converted, its Markdown without the blocks whose hashes are ``left_out``."""

    lang: str
    keys: frozenset[bytes]
    left_out: frozenset[bytes] | None = None
    markdown: str = ""

    def holds(self, repeated: RepeatedBlocks) -> bool:
        """Whether its Markdown is the second pass's: it left out what ``repeated`` leaves out."""
        found = self.keys & repeated.by_lang.get(self.lang, frozenset())
        return self.left_out is not None and self.left_out == found


SAMPLE_PAGES: Final = 64  # (read for the first pass's guess: see above)
_UNMADE: Final = _FirstRead("", frozenset())  # (a page the first pass did not convert)


def _first_of(work: tuple[Sequence[ListedPage], RepeatedBlocks, bool]) -> list[_FirstRead]:
    """The first pass for a chunk; with ``convert``, each page converted without the blocks
    ``guess`` repeats."""
    chunk, guess, convert = work
    found: list[_FirstRead] = []
    for page, read in chunk:
        region, lang, listed = _read_region(page, read())
        keys = frozenset(listed)
        if not convert:
            found.append(_FirstRead(lang, keys))
            continue
        left_out = keys & guess.by_lang.get(lang, frozenset())
        RepeatedBlocks({lang: left_out}).drop_from(region.parts, lang)
        found.append(_FirstRead(lang, keys, left_out, region_markdown(region)))
    return found


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
    pages: Sequence[ListedPage], pool: WorkPool | None = None, budget: int | None = None
) -> Iterator[PageMarkdown]:
    """Both passes: each page's Markdown, without the blocks the site repeats, in order; the
    first converts pages while its Markdown stays within ``budget`` characters (None: every
    page), the second the rest and those whose guess did not hold (see above)."""
    guess = repeated_blocks(pages[:: -(-len(pages) // SAMPLE_PAGES) or 1], pool)
    count, reads, made = BlockCount(), list[_FirstRead](), 0
    chunks, done, wave = _chunks(pages, pool), 0, 1 if pool is None else pool.workers
    while done < len(chunks):
        convert = budget is None or made <= budget
        taken = chunks[done:] if budget is None or not convert else chunks[done : done + wave]
        for found in _run(_first_of, [(chunk, guess, convert) for chunk in taken], pool):
            for read in found:
                count.add(read.lang, read.keys)
                made += len(read.markdown)
                reads.append(read if read.left_out is not None else _UNMADE)
        done, wave = done + len(taken), wave * 2
    return _second_pass(pages, reads, count.repeated(), pool)


def _second_pass(
    pages: Sequence[ListedPage],
    reads: list[_FirstRead],
    repeated: RepeatedBlocks,
    pool: WorkPool | None,
) -> Iterator[PageMarkdown]:
    """Each page's Markdown in order: the first pass's where it holds, else converted now; the
    pages past the first pass's budget (from the first it left unmade) only once the caller
    asks for one of them (a pool given them all at once would convert them for nothing)."""
    held = [read.holds(repeated) for read in reads]
    cut = next((index for index, read in enumerate(reads) if read is _UNMADE), len(reads))
    again = page_markdowns(
        [page for page, ok in zip(pages[:cut], held[:cut], strict=True) if not ok], repeated, pool
    )
    for index, ((page, _), ok) in enumerate(zip(pages, held, strict=True)):
        if index == cut:  # (the rest, converted from here on)
            rest = [other for other, good in zip(pages[cut:], held[cut:], strict=True) if not good]
            again = page_markdowns(rest, repeated, pool)
        yield PageMarkdown(page, reads[index].markdown) if ok else next(again)
        reads[index] = _UNMADE  # (its Markdown is the caller's now)


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
