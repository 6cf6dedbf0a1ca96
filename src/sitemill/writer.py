"""Name, stage and publish sitemap files: children first, the index last, then stale ones go."""

from __future__ import annotations

import gzip
import logging
import tempfile
from collections import deque
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final

from sitemill.config.model import Config, OutputFormat
from sitemill.entries import Entry
from sitemill.errors import SourceError
from sitemill.htmlmap.output import HtmlSitemap
from sitemill.outputs import ENTRY_TXT, ENTRY_XML, ROBOTS_TXT, content_type, is_own_name
from sitemill.publish import Publisher, StagedChild
from sitemill.render.indexes import IndexItem
from sitemill.render.renderer import Renderer
from sitemill.render.split import RenderedSitemap
from sitemill.report import WriteResult
from sitemill.robots_lines import replace_sitemap_lines
from sitemill.sinks import Sink
from sitemill.staging import Staging

log = logging.getLogger(__name__)

# Fixed compression level and mtime 0: the same input gives the same bytes.
_GZIP_LEVEL: Final = 6


@dataclass(frozen=True, slots=True)
class _Child:
    name: str
    lastmod: str | None


def write_sitemaps(
    entries: Iterator[Entry],
    sink: Sink,
    config: Config,
    *,
    on_file: Callable[[str, int], None] | None = None,
    robots_source: bytes | None = None,
    extensions: bool = False,
    remembered: Collection[str] = (),
    staging: Staging | None = None,
) -> WriteResult:
    """Render all entries, then publish through the sink only if everything rendered.

    ``extensions``: whether entries may carry alternates or images (else they are not looked
    for: a URL list's millions of entries cost nothing more).
    Children are staged in a temporary directory so that a failure while rendering (a bad
    line in a URL list, a template error, ill-formed output) leaves the previous output exactly
    as it was; publishing then keeps the live index consistent at every step (sitemill.publish).
    ``remembered``: the own files the state says earlier runs left (deleted unless this build
    names them); ``staging``: this run's staging names (default: new ones).
    """
    text = config.format is OutputFormat.TXT
    renderer = Renderer(config.templates_dir, text=text)
    html = HtmlSitemap(config, sink)  # sitemap.html: its links are taken on the way
    entries = html.watch(entries)
    rendered = renderer.render_sitemaps(
        entries, max_urls=config.max_urls, max_bytes=config.max_bytes, extensions=extensions
    )
    result = WriteResult()
    record = partial(_record, result)
    publisher_for = partial(Publisher, sink, content_type, record, remembered, staging)
    first = _first(rendered)
    second = next(rendered, None)
    if second is None:
        name = ENTRY_TXT if text else ENTRY_XML
        result.url_count = first.url_count
        result.entry_files.append(name)
        result.files.append(name)
        renderer.check(name, first.data)
        robots = _rendered_last(html, renderer, sink, config, result, robots_source)
        publisher = publisher_for()
        publisher.put(name, first.data)
    else:
        head = [first, second]
        del first, second  # the staging loop must be the only holder of a rendered file
        with tempfile.TemporaryDirectory(prefix="sitemill-") as folder:
            children = _stage_children(
                _chain(head, rendered), Path(folder), config, result, on_file, renderer.check
            )
            render = partial(_render_indexes, renderer, children, config)
            indexes = render([child.name for child in children])
            result.entry_files.extend(name for name, _ in indexes)
            result.files[:0] = result.entry_files
            robots = _rendered_last(html, renderer, sink, config, result, robots_source)
            publisher = publisher_for()
            staged = [StagedChild(child.name, Path(folder) / child.name) for child in children]
            with _abandoned_on_failure(publisher):
                publisher.publish_split(staged, indexes, render)
    _finish(publisher, robots, result, html)
    return result


def _first(rendered: Iterator[RenderedSitemap]) -> RenderedSitemap:
    first = next(rendered, None)
    if first is None:
        raise SourceError("no pages to list: nothing matched include/exclude; nothing was written")
    return first


def _rendered_last(
    html: HtmlSitemap,
    renderer: Renderer,
    sink: Sink,
    config: Config,
    result: WriteResult,
    robots_source: bytes | None,
) -> bytes | None:
    """Once every entry has been rendered: sitemap.html, and robots.txt's new bytes."""
    html.render(renderer, result)
    return _new_robots(sink, config, result.entry_files, robots_source)


def _finish(
    publisher: Publisher, robots: bytes | None, result: WriteResult, html: HtmlSitemap
) -> None:
    """sitemap.html and robots.txt, then the deletion of what this build no longer names;
    ``result.outputs`` is what is left of sitemill's files (a failed deletion is a warning,
    tried again later)."""
    with _abandoned_on_failure(publisher):
        html.publish(publisher, result)
        if robots is not None:
            publisher.put(ROBOTS_TXT, robots)
        deletion = publisher.delete_stale(result.files)
    result.deleted.extend(deletion.deleted)
    result.outputs = sorted({*result.files, *deletion.failed})
    warning = deletion.warning()
    if warning is not None:
        log.warning("%s", warning)
        result.warnings.append(warning)


@contextmanager
def _abandoned_on_failure(publisher: Publisher) -> Iterator[None]:
    """A failure while publishing takes this run's unnamed staging copies with it."""
    try:
        yield
    except BaseException:
        publisher.abandon()
        raise


def _chain(
    head: list[RenderedSitemap], rest: Iterator[RenderedSitemap]
) -> Iterator[RenderedSitemap]:
    while head:
        yield head.pop(0)
    yield from rest


def _stage_children(
    rendered: Iterator[RenderedSitemap],
    staging: Path,
    config: Config,
    result: WriteResult,
    on_file: Callable[[str, int], None] | None,
    check: Callable[[str, bytes], None],
) -> list[_Child]:
    suffix = ".txt" if config.format is OutputFormat.TXT else ".xml"
    if config.gzip:
        suffix += ".gz"
    children: list[_Child] = []
    # Compressing and writing a child (zlib and file I/O release the GIL) overlaps with
    # rendering the next one; at most two children are held in memory at a time.
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="sitemill-stage") as pool:
        pending: deque[Future[None]] = deque()
        for number, sitemap in enumerate(rendered, start=1):
            name = f"sitemap-{number}{suffix}"
            check(name, sitemap.data)
            pending.append(pool.submit(_stage_file, staging / name, sitemap.data, config.gzip))
            children.append(_Child(name, sitemap.lastmod))
            result.files.append(name)
            result.url_count += sitemap.url_count
            if on_file is not None:
                on_file(name, result.url_count)
            while len(pending) > 1:
                pending.popleft().result()
            del sitemap  # only the staging thread holds this file now
        for future in pending:
            future.result()
    return children


def _stage_file(path: Path, data: bytes, compress: bool) -> None:
    if compress:
        data = gzip.compress(data, compresslevel=_GZIP_LEVEL, mtime=0)
    path.write_bytes(data)


def _render_indexes(
    renderer: Renderer, children: list[_Child], config: Config, names: list[str]
) -> list[tuple[str, bytes]]:
    """Index files of at most max_sitemaps_per_index children and max_bytes each.

    ``names`` are the file names to give the children (their own, or staging copies').
    """
    items = [
        IndexItem(config.base_url + name, child.lastmod)
        for name, child in zip(names, children, strict=True)
    ]
    return renderer.render_indexes(
        items, max_per_index=config.max_sitemaps_per_index, max_bytes=config.max_bytes
    )


def _record(result: WriteResult, name: str, changed: bool) -> None:
    (result.written if changed else result.unchanged).append(name)


def _new_robots(
    sink: Sink, config: Config, entry_files: list[str], source: bytes | None
) -> bytes | None:
    """robots.txt with sitemill's Sitemap lines, or None when it is not maintained.

    The starting point is ``source`` (the site's robots.txt, when the output folder is
    another one: deploying that folder over the site must keep the site's rules), else the
    sink's own. That is read in any case before anything is published, so that a robots.txt
    sitemill may not rewrite (a link, a file over Google's 500 KiB) stops the run before it
    changes anything.
    """
    if not config.robots_txt:
        return None
    old = sink.read(ROBOTS_TXT)
    if source is not None:
        old = source
    # surrogateescape keeps any byte that is not UTF-8 exactly as it was.
    old_text = None if old is None else old.decode("utf-8", "surrogateescape")
    base = config.base_url

    def is_own(url: str) -> bool:
        return url.startswith(base) and is_own_name(url[len(base) :])

    new_text = replace_sitemap_lines(old_text, [base + name for name in entry_files], is_own)
    return new_text.encode("utf-8", "surrogateescape")
