"""How entries become files: one sitemap.xml, children split by count, or shards."""
# Shards with stable names (sitemill.shards.layout); and what is published last of all (the
# outputs published with the sitemaps, such as sitemap.html; robots.txt).

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from sitemill.config.model import Config, OutputFormat, ShardsMode
from sitemill.entries import Entry, RenderedSitemap
from sitemill.errors import NoPagesError
from sitemill.filenames.outputs import ENTRY_TXT, ENTRY_XML, ROBOTS_TXT, is_own_name, stored_digest
from sitemill.render.renderer import Renderer
from sitemill.report import WriteResult
from sitemill.robots.lines import replace_sitemap_lines, written_lines
from sitemill.shards.cuts import CutRule
from sitemill.shards.layout import ShardFile, ShardSetup, render_shards, sorted_entries
from sitemill.shards.plan import Plan, child_name
from sitemill.sinks import Sink
from sitemill.urls import UrlStyle
from sitemill.writing.publish import Publisher
from sitemill.writing.usersitemaps import UserSitemaps

RenderSitemaps = Callable[[Iterator[Entry]], Iterator[RenderedSitemap]]


@runtime_checkable
class PublishedOutput(Protocol):
    """An output whose file goes up with the sitemaps (sitemill.outputs: sitemap.html)."""

    def render(self, renderer: Renderer, result: WriteResult) -> None:
        """Once every entry has gone by, before anything is published: its bytes made (a
        problem raised here leaves the site as it was), named in ``result.files``."""
        ...

    def publish(self, publisher: Publisher, result: WriteResult) -> None:
        """After the index, before the deletion of what the build no longer names."""
        ...


@dataclass(slots=True)
class Out:
    """What publishing one file needs, and what it left (the publisher, robots.txt's bytes)."""

    sink: Sink
    config: Config
    renderer: Renderer
    published: Sequence[PublishedOutput]  # the outputs that go up with the sitemaps
    result: WriteResult
    robots_source: bytes | None
    publisher: Publisher | None = None
    robots: bytes | None = None
    digests: bool = True  # whether to take each file's MD5 (sitemill.writing.writer)
    named: Callable[[], UserSitemaps] | None = None  # the user's sitemaps (usersitemaps)

    def users(self) -> UserSitemaps:
        """The user's sitemaps this run names (asked once every entry is rendered)."""
        return UserSitemaps() if self.named is None else self.named()

    def locs(self) -> list[str]:
        """The locs of the user's sitemaps the index names (sitemill.writing.publish)."""
        return self.users().index

    def single(self, sitemap: RenderedSitemap, publisher_for: Callable[[], Publisher]) -> None:
        """The one sitemap.xml (sitemap.txt) that lists everything, published."""
        name = ENTRY_TXT if self.config.format is OutputFormat.TXT else ENTRY_XML
        result = self.result
        result.url_count = sitemap.url_count
        result.entry_files.append(name)
        result.files.append(name)
        data = sitemap.data
        self.renderer.check(name, data)
        self.robots = rendered_last(self, result)
        self.publisher = publisher_for()
        self.publisher.put(name, data)
        note_sitemap(result, name, data, sitemap, digest=self.digests)


def split_children(
    rendered: Iterator[RenderedSitemap], out: Out, publisher_for: Callable[[], Publisher]
) -> Iterator[tuple[str, RenderedSitemap]] | None:
    """Children split by count, or (None) one file, published here."""
    first = _first(rendered)
    if first.last is False:  # the renderer knows more follow: no second file held to tell
        return _numbered(_chain([first], rendered), suffix_of(out.config))
    second = None if first.last else next(rendered, None)
    if second is None and out.users().index:  # (an index names the user's: ours go in a child)
        return _numbered(iter([first]), suffix_of(out.config))
    if second is None:
        out.single(first, publisher_for)
        return None
    head = [first, second]
    del first, second  # the staging loop must be the only holder of a rendered file
    return _numbered(_chain(head, rendered), suffix_of(out.config))


def shard_children(
    entries: Iterator[Entry],
    shards: ShardSetup,
    render: Callable[[Iterator[Entry]], Iterator[RenderedSitemap]],
    out: Out,
    publisher_for: Callable[[], Publisher],
) -> Iterator[tuple[str, RenderedSitemap]] | None:
    """Shards (sitemill.shards.layout), or (None) one file, published here, when shards =
    "auto" and one is enough. The entries are held: a shard's are found by their keys."""
    config = out.config
    listed = list(entries)
    if not listed or (config.shards is ShardsMode.AUTO and len(listed) <= config.max_urls):
        rendered = render(iter(listed))
        first = _first(rendered)
        if next(rendered, None) is None:
            if out.users().index:  # (an index names the user's: ours go in a child)
                return _numbered(iter([first]), suffix_of(config))
            out.single(first, publisher_for)
            return None
        del first, rendered
    plan, files = render_planned(listed, shards, render, config)
    out.result.plan = plan
    suffix = suffix_of(config)
    names = [child_name(file.shard, suffix, file.number) for file in files]
    out.result.boundaries.update(
        (name, file.after) for name, file in zip(names, files, strict=True)
    )
    return ((name, file.sitemap) for name, file in zip(names, files, strict=True))


def render_planned(
    listed: list[Entry],
    shards: ShardSetup,
    render: RenderSitemaps,
    config: Config,
    kinds: Callable[[Entry], int] | None = None,
) -> tuple[Plan, list[ShardFile]]:
    """The ``listed`` entries rendered shard by shard by the site's plan (shards.layout);
    ``kinds``: each entry's named group's number (its files are rendered apart)."""
    return render_shards(
        sorted_entries(listed, shards.order),
        shards.plan,
        lambda part: list(render(part)),
        CutRule(
            shards.order,
            config.max_bytes,
            clean=config.url_style is UrlStyle.CLEAN,
            fill=min(config.shard_fill, config.max_urls),
        ),
        keys=shards.keys,
        kinds=kinds,
    )


def note_sitemap(
    result: WriteResult,
    name: str,
    stored: bytes | Iterable[bytes | memoryview],
    sitemap: RenderedSitemap,
    *,
    digest: bool = True,
) -> None:
    """Remember what a sitemap file holds, as ``stored`` (its bytes whole or in parts:
    ``WriteResult.sitemaps``; with ``digest`` False, no MD5: "")."""
    md5 = stored_digest(stored) if digest else ""
    result.sitemaps[name] = (sitemap.url_count, sitemap.lastmod, md5)


def _first(rendered: Iterator[RenderedSitemap]) -> RenderedSitemap:
    first = next(rendered, None)
    if first is None:
        raise NoPagesError("no pages to list: nothing matched include/exclude; nothing was written")
    return first


def rendered_last(out: Out, result: WriteResult) -> bytes | None:
    """Once every entry has been rendered: the outputs published with the sitemaps, and
    robots.txt's new bytes (its Sitemap lines: sitemill's entry files, then the user's sitemaps
    only it may name)."""
    for output in out.published:
        output.render(out.renderer, result)
    urls = [out.config.base_url + name for name in result.entry_files] + out.users().robots
    return new_robots(out.sink, out.config, urls, out.robots_source, out.users())


def _chain(
    head: list[RenderedSitemap], rest: Iterator[RenderedSitemap]
) -> Iterator[RenderedSitemap]:
    while head:
        yield head.pop(0)
    yield from rest


def suffix_of(config: Config) -> str:
    suffix = ".txt" if config.format is OutputFormat.TXT else ".xml"
    return suffix + ".gz" if config.gzip else suffix


def _numbered(
    rendered: Iterator[RenderedSitemap], suffix: str
) -> Iterator[tuple[str, RenderedSitemap]]:
    """Children split by count: sitemap-1.xml, sitemap-2.xml, ..."""
    for number, sitemap in enumerate(rendered, start=1):
        yield f"sitemap-{number}{suffix}", sitemap
        del sitemap  # not held while the next one renders: one file in memory, not two


def new_robots(
    sink: Sink,
    config: Config,
    sitemap_urls: list[str],
    source: bytes | None,
    users: UserSitemaps | None = None,
) -> bytes | None:
    """robots.txt with sitemill's Sitemap lines, or None when it is not maintained.

    The starting point is ``source`` (the site's robots.txt, when the output folder is
    another one: deploying that folder over the site must keep the site's rules), else the
    sink's own. That is read in any case before anything is published, so that a robots.txt
    sitemill may not rewrite (a link, a file over Google's 500 KiB) stops the run before it
    changes anything. ``users``: the lines sitemill wrote before (``robots_before``, replaced;
    the user's own stay), and where the lines it writes now are noted (``robots_written``).
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

    written = users.robots_before if users is not None else frozenset()
    new_text = replace_sitemap_lines(old_text, sitemap_urls, is_own, written)
    if users is not None:
        users.robots_written = written_lines(old_text, sitemap_urls, is_own, written)
    return new_text.encode("utf-8", "surrogateescape")
