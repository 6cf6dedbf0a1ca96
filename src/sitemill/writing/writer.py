"""Name, stage and publish sitemap files: children first, the index last, then stale ones go."""

from __future__ import annotations

import gzip
import logging
import tempfile
from collections import deque
from collections.abc import Callable, Collection, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final

from sitemill.config.groups import group_names
from sitemill.config.model import Config, OutputFormat, ShardsMode
from sitemill.entries import Entry
from sitemill.filenames.groupnames import known_groups
from sitemill.filenames.outputs import ROBOTS_TXT, content_type, stored_digest
from sitemill.filenames.staging import Staging
from sitemill.render.indexes import IndexItem
from sitemill.render.rendered import RenderedSitemap
from sitemill.render.renderer import Renderer
from sitemill.report import WriteResult
from sitemill.shards.layout import ShardSetup
from sitemill.shards.plan import MAX_SHARDS
from sitemill.sinks import Sink
from sitemill.workers.threadpool import interruptible_pool
from sitemill.writing.grouped import grouped_children, refuse_others
from sitemill.writing.htmlmap.output import HtmlSitemap
from sitemill.writing.layouts import (
    Out,
    note_sitemap,
    rendered_last,
    shard_children,
    split_children,
)
from sitemill.writing.publish import Publisher, StagedChild

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
    shards: ShardSetup | None = None,
    kept: Collection[str] = (),
    digests: bool = True,
) -> WriteResult:
    """Render all entries, then publish through the sink only if everything rendered.

    ``extensions``: whether entries may carry alternates or images (else they are not looked
    for: a URL list's millions of entries cost nothing more).
    Children are staged in a temporary directory so that a failure while rendering (a bad
    line in a URL list, a template error, ill-formed output) leaves the previous output exactly
    as it was; publishing then keeps the live index consistent at every step
    (sitemill.writing.publish).
    ``remembered``: the own files the state says earlier runs left (deleted unless this build
    names them); ``staging``: this run's staging names (default: new ones). ``shards``: the
    source's key order and last plan, when its sitemaps may be shards (config.shards): then
    the entries are held, and written as shards when one file is not enough (or shards =
    "on"), each child named by its shard's stable id (sitemill.shards.layout). ``kept``:
    own files not to delete in this run although no index names them (a deferred deletion).
    ``digests``: whether to take the MD5 of each file as stored (``WriteResult.sitemaps``, the
    state's record for `sitemill check`): a pass over every byte written, which a job that
    keeps no state (a URL list) does not need ("" then).
    """
    text = config.format is OutputFormat.TXT
    renderer = Renderer(config.templates_dir, text=text)
    html = HtmlSitemap(config, sink)  # sitemap.html: its links are taken on the way
    entries = html.watch(entries)
    render = partial(
        renderer.render_sitemaps,
        max_urls=config.max_urls,
        max_bytes=config.max_bytes,
        extensions=extensions,
    )
    result = WriteResult()
    out = Out(sink, config, renderer, html, result, robots_source, digests=digests)
    publisher_for = partial(
        Publisher, sink, content_type, partial(_record, result), remembered, staging,
        groups=known_groups(group_names(config.groups), remembered),
    )  # fmt: skip
    children, max_per_index = _children(entries, shards, render, out, publisher_for)
    if children is not None:
        _publish_children(children, out, on_file, publisher_for, max_per_index)
    assert out.publisher is not None
    _finish(out.publisher, out.robots, result, html, kept)
    return result


def _children(
    entries: Iterator[Entry],
    shards: ShardSetup | None,
    render: Callable[[Iterator[Entry]], Iterator[RenderedSitemap]],
    out: Out,
    publisher_for: Callable[[], Publisher],
) -> tuple[Iterator[tuple[str, RenderedSitemap]] | None, int]:
    """The children in the index's order and how many an index names (None: one file,
    published already)."""
    config = out.config
    if config.groups:  # (named groups: always an index)
        children, sharded = grouped_children(entries, shards, render, out)
        return children, MAX_SHARDS if sharded else config.max_sitemaps_per_index
    if shards is not None and config.shards is not ShardsMode.OFF:
        return shard_children(entries, shards, render, out, publisher_for), MAX_SHARDS
    split = split_children(render(entries), out, publisher_for)
    return split, config.max_sitemaps_per_index


def _publish_children(
    children: Iterator[tuple[str, RenderedSitemap]],
    out: Out,
    on_file: Callable[[str, int], None] | None,
    publisher_for: Callable[[], Publisher],
    max_per_index: int,
) -> None:
    """Stage the children, render the index(es), then publish, children first."""
    config, renderer, result = out.config, out.renderer, out.result
    with tempfile.TemporaryDirectory(prefix="sitemill-") as folder:
        staged = _stage_children(children, Path(folder), out, on_file)
        render_index = partial(_render_indexes, renderer, staged, config, max_per_index)
        indexes = render_index([child.name for child in staged])
        result.entry_files.extend(name for name, _ in indexes)
        if out.digests:
            result.entry_digest = stored_digest(indexes[0][1])
            result.index_digests = {name: stored_digest(data) for name, data in indexes}
        result.files[:0] = result.entry_files
        out.robots = rendered_last(out.html, renderer, out.sink, config, result, out.robots_source)
        out.publisher = publisher_for()
        if config.groups:
            refuse_others(out.publisher, (child.name for child in staged), config)
        copies = [StagedChild(child.name, Path(folder) / child.name) for child in staged]
        with _abandoned_on_failure(out.publisher):
            out.publisher.publish_split(copies, indexes, render_index)


def _finish(
    publisher: Publisher,
    robots: bytes | None,
    result: WriteResult,
    html: HtmlSitemap,
    kept: Collection[str] = (),
) -> None:
    """sitemap.html and robots.txt, then the deletion of what this build no longer names;
    ``result.outputs`` is what is left of sitemill's files (a failed deletion is a warning,
    tried again later)."""
    with _abandoned_on_failure(publisher):
        html.publish(publisher, result)
        if robots is not None:
            publisher.put(ROBOTS_TXT, robots)
        deletion = publisher.delete_stale([*result.files, *kept])
    result.deleted.extend(deletion.deleted)
    result.outputs = sorted({*result.files, *deletion.failed, *(set(kept) & publisher.live.names)})
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


def _stage_children(
    rendered: Iterator[tuple[str, RenderedSitemap]],
    staging: Path,
    out: Out,
    on_file: Callable[[str, int], None] | None,
) -> list[_Child]:
    config, result, check = out.config, out.result, out.renderer.check
    stage = partial(_stage_file, compress=config.gzip, result=result, digest=out.digests)
    children: list[_Child] = []
    # Compressing and writing a child (zlib and file I/O release the GIL) overlaps with
    # rendering the next one; at most two children are held in memory at a time.
    with interruptible_pool(1, "sitemill-stage") as pool:
        pending: deque[Future[None]] = deque()
        for name, sitemap in rendered:
            check(name, sitemap)
            pending.append(pool.submit(stage, staging / name, sitemap))
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


def _stage_file(
    path: Path, sitemap: RenderedSitemap, *, compress: bool, result: WriteResult, digest: bool
) -> None:
    if compress:
        data = gzip.compress(sitemap.data, compresslevel=_GZIP_LEVEL, mtime=0)
        path.write_bytes(data)
        note_sitemap(result, path.name, data, sitemap, digest=digest)
        return
    with path.open("wb") as file:  # in its parts: the file is never copied whole
        file.writelines(sitemap.parts)
    note_sitemap(result, path.name, sitemap.parts, sitemap, digest=digest)


def _render_indexes(
    renderer: Renderer,
    children: list[_Child],
    config: Config,
    max_per_index: int,
    names: list[str],
) -> list[tuple[str, bytes]]:
    """Index files of at most max_sitemaps_per_index children and max_bytes each.

    ``names`` are the file names to give the children (their own, or staging copies').
    """
    items = [
        IndexItem(config.base_url + name, child.lastmod)
        for name, child in zip(names, children, strict=True)
    ]
    return renderer.render_indexes(items, max_per_index=max_per_index, max_bytes=config.max_bytes)


def _record(result: WriteResult, name: str, changed: bool) -> None:
    (result.written if changed else result.unchanged).append(name)
