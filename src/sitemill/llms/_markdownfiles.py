"""llms-full.txt and the Markdown twins of a run: the listed pages read once more, converted."""
# The pages are the ones llms.txt links (llms.run), in the sitemap's order; an HTML
# page is read by its key (a tree's file, a bucket's object: the job's reader) and converted in
# two passes (llms.conversion: the blocks the site repeats, then each page). A page that is gone
# since it was listed, or is no HTML file (a PDF), has no Markdown: it is left out of both.

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from urllib.parse import unquote, urlsplit

from sitemill.config.model import Config
from sitemill.filenames.outputs import LLMS_FULL, twin_url
from sitemill.lastmod.fingerprint.versions import HTML_SUFFIXES
from sitemill.llms._files import path_name
from sitemill.llms._markdown import headings_down
from sitemill.llms._ownership import SITEMILL_MARK
from sitemill.llms._paths import is_home
from sitemill.llms._sitename import common_title_part, own_title, site_name
from sitemill.llms._text import heading_text, one_line, real_description
from sitemill.llms.conversion import ListedPage, PageMarkdown, site_markdowns
from sitemill.llms.page import LlmsPage, LlmsSite
from sitemill.state.llmsfiles import is_llms_file
from sitemill.version import __version__
from sitemill.workers.workpool import MIN_POOL_BYTES, WorkPool, pool_size

_PageBytes = Callable[[str], "bytes | None"]  # a page's key -> its bytes (None: gone)
# Pages a site needs for its conversion to go to worker processes (their start costs a few
# tenths of a second; a page costs 5 to 40 ms to convert: benchmarks/README.md, llms-full).
POOL_PAGES = 64


def markdown_files(
    config: Config,
    pages: Sequence[LlmsPage],
    keys: Sequence[str | None],
    site: LlmsSite,
    page_bytes: _PageBytes | None,
    parallel: bool = False,
) -> dict[str, bytes]:
    """llms-full.txt (llms_full) and each HTML page's twin (llms_pages), by name below the
    site's root; none when the job cannot read its pages (``page_bytes`` None). ``parallel``:
    ``page_bytes`` pickles, and a site of POOL_PAGES or more is converted by worker processes
    (``workers``: one per core by default), the same bytes as in one."""
    if page_bytes is None:
        return {}
    shared = common_title_part([title for page in pages if (title := one_line(page.title))])
    listed: list[ListedPage] = [
        (_own_titled(page, shared, site.base_url), partial(_read, page_bytes, key))
        for page, key in zip(pages, keys, strict=True)
        if key is not None and key.lower().endswith(HTML_SUFFIXES)
    ]
    files: dict[str, bytes] = {}
    workers = pool_size(config.workers, MIN_POOL_BYTES) if parallel else 1
    with WorkPool(workers if len(listed) >= POOL_PAGES else 1) as pool:
        _convert(config, listed, pages, site, pool, files)
    return files


def _convert(
    config: Config,
    listed: list[ListedPage],
    pages: Sequence[LlmsPage],
    site: LlmsSite,
    pool: WorkPool,
    files: dict[str, bytes],
) -> None:
    budget = None if config.llms_pages else config.llms_full_max_bytes  # (twins: every page)
    converted = site_markdowns(listed, pool if pool.workers > 1 else None, budget)
    if config.llms_pages:
        converted = _twins(converted, site.base_url, files)
    if config.llms_full:
        from sitemill.llms.full import llms_full_text

        head = replace(site, summary=real_description(site.summary) or None)
        name = site_name(pages, site)
        urls = [page.url for page, _ in listed]
        files[LLMS_FULL] = llms_full_text(head, name, converted, config.llms_full_max_bytes, urls)
    if config.llms_pages:
        for _ in converted:  # (the twins are made on the way: those past llms-full's limit too)
            pass


def _twins(
    converted: Iterator[PageMarkdown], base_url: str, files: dict[str, bytes]
) -> Iterator[PageMarkdown]:
    """The pages' Markdown, each one's twin put in ``files`` on the way."""
    for page in converted:
        name = twin_name(page.page.url, base_url)
        if name is not None and is_llms_file(name):
            files[name] = twin_bytes(page)
        yield page


def _own_titled(page: LlmsPage, shared: str, base_url: str) -> LlmsPage:
    """``page`` titled as its block's and twin's H1 say it: its <title> less the part most of
    the site's titles share (the site's name: "Installation — Python-Markdown 3.10.3
    documentation" -> "Installation"), and one titled with that part alone by its URL's last
    name (a tag page: "Rust"), as llms.txt links it (llms.files)."""
    title = one_line(page.title)
    own = own_title(title, shared)
    if own and own == shared and not is_home(page.url, base_url):
        own = path_name(page.url, base_url) or own
    return page if own == title else replace(page, title=own)


def _read(page_bytes: _PageBytes, key: str) -> bytes:
    return page_bytes(key) or b""


def markdown_source_digest(
    config: Config,
    pages: Sequence[LlmsPage],
    keys: Sequence[str | None],
    site: LlmsSite,
    fingerprint: Callable[[str], str | None] | None,
) -> str:
    """A digest of what llms-full.txt and the twins are made from: this sitemill (its
    converter), the settings, the site's head, and each listed page's URL, title, description,
    language, and the version of its bytes with its content fingerprint (``fingerprint``: the
    job's; the Markdown shows markup the fingerprint does not count). "" when a page has none a
    state vouches for: then they are made anew."""
    if fingerprint is None:
        return ""
    digest = hashlib.blake2b(digest_size=16)
    head = (__version__, config.llms_full, config.llms_pages, config.llms_full_max_bytes, site)
    digest.update(repr(head).encode())
    for page, key in zip(pages, keys, strict=True):
        if key is None or not key.lower().endswith(HTML_SUFFIXES):
            continue
        printed = fingerprint(key)
        if printed is None:
            return ""
        digest.update(repr((page, key, printed)).encode())
    return digest.hexdigest()


# A listed page's Markdown twin: its name beside the page as llmstxt.org proposes (/guide/ ->
# guide/index.html.md, /guide.html -> guide.html.md, a clean /guide -> guide.md) and its bytes:
# the title as its H1, sitemill's mark, the page's Markdown with its headings one level down.
def twin_name(url: str, base_url: str) -> str | None:
    """The path of the twin of the page at ``url``, relative to the site's root ``base_url``
    (decoded: a file's name); None for a URL outside the site."""
    page, base = urlsplit(url), urlsplit(base_url)
    root = base.path if base.path.endswith("/") else base.path + "/"
    if (page.scheme, page.netloc) != (base.scheme, base.netloc):
        return None
    path = page.path or "/"
    if not (path + "/").startswith(root):
        return None
    twin = twin_url(path if path.startswith(root) else root)  # (the root's own: /docs)
    return unquote(twin[len(root) :])


def twin_bytes(converted: PageMarkdown) -> bytes:
    """The twin of one page: ``# Title`` (its URL when it has none; escaped as llms.txt
    escapes a heading: llms.text), the mark, its Markdown; UTF-8, LF, ending with one LF."""
    title = heading_text(one_line(converted.page.title) or one_line(converted.page.url))
    body = headings_down(converted.markdown).strip("\n")
    text = f"# {title}\n\n{SITEMILL_MARK}\n" + (f"\n{body}\n" if body else "")
    return text.encode()
