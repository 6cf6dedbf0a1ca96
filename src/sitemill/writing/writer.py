"""Name, stage and publish sitemap files: children first, the index last, then stale ones go."""

from __future__ import annotations

import gzip
import logging
import tempfile
from collections import Counter, deque
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Final

from sitemill.config.model import Config, OutputFormat, ShardsMode
from sitemill.config.tables import group_names
from sitemill.entries import Entry, RenderedSitemap, SkipReason
from sitemill.errors import NoPagesError
from sitemill.filenames.groupnames import known_groups
from sitemill.filenames.outputs import ROBOTS_TXT, content_type, stored_digest
from sitemill.filenames.staging import Staging
from sitemill.render.indexes import IndexItem
from sitemill.render.renderer import Renderer
from sitemill.report import WriteResult
from sitemill.shards.layout import ShardSetup
from sitemill.shards.plan import MAX_SHARDS
from sitemill.sinks import Sink
from sitemill.workers.workpool import interruptible_pool
from sitemill.writing._grouped import grouped_children, refuse_others
from sitemill.writing.childdates import ChildDates
from sitemill.writing.layouts import (
    Out,
    PublishedOutput,
    note_sitemap,
    rendered_last,
    shard_children,
    split_children,
)
from sitemill.writing.publish import Publisher, StagedChild, StateClaims
from sitemill.writing.usersitemaps import UserSitemaps

if TYPE_CHECKING:
    from sitemill.writing.ownbytes import OwnFiles


log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class WriteSetup:
    """What a job tells the writer beside the entries, the sink and the configuration.

    ``on_file`` is told each file staged (its name and URLs). ``robots_source``: the site's
    robots.txt when sitemill keeps one elsewhere (``--out``). ``extensions``: whether entries
    may carry alternates or images (else not looked for). ``remembered``: the own files the
    state says earlier runs left (deleted unless this build names them); ``staging``: this
    run's staging names (default: new ones). ``shards``: the source's key order and last plan,
    when its sitemaps may be shards (config.shards): then the entries are held, and written as
    shards when one file is not enough (or shards = "on"), each child named by its shard's
    stable id (sitemill.shards.layout). ``kept``: own files not to delete in this run although
    no index names them (a deferred deletion). ``digests``: whether to take the MD5 of each
    file as stored (``WriteResult.sitemaps``, the state's record for `sitemill check`), which
    a job keeping no state skips ("" then). ``dates``: when each child's bytes changed
    (writing.childdates; None: no state, its newest page's date). ``named``: the user's
    sitemaps the index names too (writing.usersitemaps). ``recorded``: the MD5 the state
    holds for each of ``remembered`` (a remembered file is deleted only when its bytes are
    those: writing.ownbytes, which asks the ``owners``: the features of the run's list that
    answer for their files). ``outputs``: the run's started outputs (sitemill.outputs);
    those that go up with the sitemaps (PublishedOutput) render before anything is published and
    publish after the index. ``before_publishing`` is told once every entry is rendered, before
    the first file goes to the sink: what it raises leaves every file as it was."""

    on_file: Callable[[str, int], None] | None = None
    robots_source: bytes | None = None
    extensions: bool = False
    remembered: Collection[str] = ()
    staging: Staging | None = None
    shards: ShardSetup | None = None
    kept: Collection[str] = ()
    digests: bool = True
    dates: ChildDates | None = None
    named: Callable[[], UserSitemaps] | None = None
    recorded: Mapping[str, str] = field(default_factory=dict)
    outputs: Sequence[object] = ()
    owners: Sequence[OwnFiles] = ()
    before_publishing: Callable[[], None] | None = None


_NO_SETUP: Final = WriteSetup()


def write_sitemaps(
    entries: Iterator[Entry], sink: Sink, config: Config, setup: WriteSetup = _NO_SETUP
) -> WriteResult:
    """Render all entries, then publish through the sink only if everything rendered
    (``setup``: what the job tells besides, WriteSetup).

    Children are staged in a temporary directory so that a failure while rendering (a bad
    line in a URL list, a template error, ill-formed output) leaves the previous output exactly
    as it was; publishing keeps the live index consistent at every step (writing.publish)."""
    text = config.format is OutputFormat.TXT
    renderer = Renderer(config.templates_dir, text=text)
    published = [output for output in setup.outputs if isinstance(output, PublishedOutput)]
    render = partial(
        renderer.render_sitemaps,
        max_urls=config.max_urls,
        max_bytes=config.max_bytes,
        extensions=setup.extensions,
    )
    result = WriteResult()
    out = Out(
        sink, config, renderer, published, result, setup.robots_source,
        digests=setup.digests, named=setup.named,
    )  # fmt: skip
    remembered = setup.remembered

    def publisher_for() -> Publisher:  # (called once, when the first file is to go up)
        if setup.before_publishing is not None:
            setup.before_publishing()
        return Publisher(
            sink, content_type, partial(_record, result),
            StateClaims(remembered, setup.recorded, setup.owners, config.base_url),
            setup.staging, out.locs,
            groups=known_groups(group_names(config.groups), remembered),
            configured=group_names(config.groups),
        )  # fmt: skip

    children, max_per_index = _children(entries, setup.shards, render, out, publisher_for)
    if children is not None:
        _publish_children(children, out, setup.on_file, publisher_for, max_per_index, setup.dates)
    assert out.publisher is not None
    _finish(out.publisher, out.robots, result, published, setup.kept)
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
    dates: ChildDates | None = None,
) -> None:
    """Stage the children, render the index(es), then publish, children first."""
    config, renderer, result = out.config, out.renderer, out.result
    with tempfile.TemporaryDirectory(prefix="sitemill-") as folder:
        staged = stage_children(children, Path(folder), out, on_file)
        if dates is not None:  # (each child's digest is known once it is staged)
            digest_of = result.sitemaps
            staged = [
                StagedFile(c.name, dates.date(c.name, digest_of[c.name][2], c.lastmod))
                for c in staged
            ]
        users = out.users().index
        result.users_named = len(users)
        render_index = partial(_render_indexes, renderer, staged, users, config, max_per_index)
        indexes = render_index([child.name for child in staged])
        result.entry_files.extend(name for name, _ in indexes)
        if out.digests:
            result.index_digests = {name: stored_digest(data) for name, data in indexes}
        result.files[:0] = result.entry_files
        out.robots = rendered_last(out, result)
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
    published: Sequence[PublishedOutput],
    kept: Collection[str] = (),
) -> None:
    """The outputs published with the sitemaps and robots.txt, then the deletion of what this
    build no longer names;
    ``result.outputs`` is what is left of sitemill's files (a failed deletion is a warning,
    tried again later)."""
    with _abandoned_on_failure(publisher):
        for output in published:
            output.publish(publisher, result)
        if robots is not None:
            publisher.put(ROBOTS_TXT, robots)
        deletion = publisher.delete_stale([*result.files, *kept])
    result.deleted.extend(deletion.deleted)
    result.left_digests = deletion.digests
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


def _render_indexes(
    renderer: Renderer,
    children: list[StagedFile],
    users: list[str],
    config: Config,
    max_per_index: int,
    names: list[str],
) -> list[tuple[str, bytes]]:
    """Index files of at most max_sitemaps_per_index children and max_bytes each: sitemill's
    own children, then the ``users``' sitemaps (absolute locs, sorted), which carry no
    <lastmod> (sitemill does not know when the user changed one).

    ``names`` are the file names to give the children (their own, or staging copies').
    """
    items = [
        IndexItem(config.base_url + name, child.lastmod)
        for name, child in zip(names, children, strict=True)
    ]
    items += [IndexItem(loc, None) for loc in users]
    return renderer.render_indexes(items, max_per_index=max_per_index, max_bytes=config.max_bytes)


def _record(result: WriteResult, name: str, changed: bool) -> None:
    (result.written if changed else result.unchanged).append(name)


@contextmanager
def explain_empty_run(skipped: Counter[SkipReason]) -> Iterator[None]:
    """A NoPagesError raised within (the writer's: no page to write) names the reasons and
    counts of ``skipped``, the run's skips, so far: a wrong base URL shows as "off site"."""
    try:
        yield
    except NoPagesError:
        counts = ", ".join(f"{reason.value} {count:,}" for reason, count in skipped.most_common())
        if counts:
            why = f"every page found was left out ({counts})"
        else:
            why = "none found, or none matched include/exclude"
        raise NoPagesError(f"no pages to list: {why}; nothing was written") from None


# Staging rendered children in a temporary folder, each written while the next one renders.
# Fixed compression level and mtime 0: the same input gives the same bytes.
_GZIP_LEVEL: Final = 6


@dataclass(frozen=True, slots=True)
class StagedFile:
    """A staged child: its name and the <lastmod> its index gives it."""

    name: str
    lastmod: str | None  # the newest page's, then (with a state) when its bytes changed


def stage_children(
    rendered: Iterator[tuple[str, RenderedSitemap]],
    staging: Path,
    out: Out,
    on_file: Callable[[str, int], None] | None,
) -> list[StagedFile]:
    """Stage each of ``rendered`` in the folder ``staging``; count it in ``out.result``."""
    config, result, check = out.config, out.result, out.renderer.check
    stage = partial(_stage_file, compress=config.gzip, result=result, digest=out.digests)
    children: list[StagedFile] = []
    # Compressing and writing a child (zlib and file I/O release the GIL) overlaps with
    # rendering the next one; at most two children are held in memory at a time.
    with interruptible_pool(1, "sitemill-stage") as pool:
        pending: deque[Future[None]] = deque()
        for name, sitemap in rendered:
            check(name, sitemap)
            pending.append(pool.submit(stage, staging / name, sitemap))
            children.append(StagedFile(name, sitemap.lastmod))
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
