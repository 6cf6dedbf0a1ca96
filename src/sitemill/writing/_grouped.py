"""Children with named groups (``[[groups]]``): the default children first, then each group's."""
# docs/output.md, Named groups: the first group whose globs take a page holds it; the rest go to
# the default children. The entry file is always an index; its children come as the default ones,
# then each group's in the configuration's order. Sharded, every kind shares the site's one plan
# (sitemap-<group>-r<id>.xml): adding a group renames only its own pages' children.

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from typing import Final

from sitemill.bounded.inflate import inflate_head
from sitemill.config.model import Config, ShardsMode
from sitemill.entries import Entry, RenderedSitemap
from sitemill.errors import ConfigError, NoPagesError
from sitemill.filenames.groupnames import child_group, group_child_name
from sitemill.shards.layout import ShardSetup
from sitemill.shards.plan import child_name
from sitemill.writing._generators import looks_like_sitemills
from sitemill.writing.groupkind import kind_name, kind_of
from sitemill.writing.layouts import Out, RenderSitemaps, render_planned, suffix_of
from sitemill.writing.publish import Publisher

log = logging.getLogger(__name__)

Children = Iterator[tuple[str, RenderedSitemap]]
_SNIFF: Final = 4_096  # bytes of a file enough to tell whose it is


def grouped_children(
    entries: Iterator[Entry], shards: ShardSetup | None, render: RenderSitemaps, out: Out
) -> tuple[Children, bool]:
    """The children of every kind, in the index's order, and whether they are shards. The
    entries are held: each kind is rendered apart."""
    config = out.config
    kind = kind_of(config)
    listed = list(entries)
    if not listed:
        raise NoPagesError("no pages to list: nothing matched include/exclude; nothing was written")
    sharded = shards is not None and config.shards is not ShardsMode.OFF
    if sharded and (config.shards is ShardsMode.ON or len(listed) > config.max_urls):
        assert shards is not None
        return _sharded(listed, shards, render, out, kind), True
    kinds: list[list[Entry]] = [[] for _ in range(len(config.groups) + 1)]
    for entry in listed:
        kinds[kind(entry)].append(entry)
    del listed
    _say_empty_groups(config, kinds, out)
    return _numbered(kinds, config, render), False


def _say_empty_groups(config: Config, kinds: list[list[Entry]], out: Out) -> None:
    """One warning per group that takes no page of the site (a glob that matches nothing is a
    mistake that is otherwise silent). Said where every page is seen, not by a shard's pass of
    a distributed run, which sees only its own pages."""
    suffix = suffix_of(config)
    for number, group in enumerate(config.groups, start=1):
        if not kinds[number]:
            message = (
                f"groups[{number}] ({group.name}) takes no page: its include matches none, or "
                f"an earlier group takes each; no {group_child_name(group.name, suffix, 1)} "
                "is written"
            )
            log.warning("%s", message)
            out.result.warnings.append(message)


def _numbered(kinds: list[list[Entry]], config: Config, render: RenderSitemaps) -> Children:
    """sitemap-1.xml, ... for the default children; sitemap-<group>.xml, -2.xml, ... for
    each group's."""
    suffix = suffix_of(config)
    for kind in range(len(kinds)):
        group = kind_name(config.groups, kind)
        entries, kinds[kind] = kinds[kind], []
        rendered = render(iter(entries)) if entries else iter(())
        del entries  # (held by the renderer alone now)
        for number, sitemap in enumerate(rendered, start=1):
            if group is None:
                yield f"sitemap-{number}{suffix}", sitemap
            else:
                yield group_child_name(group, suffix, number), sitemap
            del sitemap  # not held while the next one renders


def _sharded(
    listed: list[Entry],
    shards: ShardSetup,
    render: RenderSitemaps,
    out: Out,
    kind: Callable[[Entry], int],
) -> Children:
    """sitemap-r<id>.xml, ... for the default children; sitemap-<group>-r<id>.xml, ... for
    each group's; the plan and each file's boundary go in ``out.result``."""
    config = out.config
    plan, files = render_planned(listed, shards, render, config, kind)
    out.result.plan = plan
    suffix = suffix_of(config)
    named = []
    for file in files:
        group = kind_name(config.groups, file.kind)
        if group is None:
            named.append((child_name(file.shard, suffix, file.number), file))
        else:
            named.append((group_child_name(group, suffix, file.number, file.shard), file))
    # (in the plan's order, as a partitioned bucket's manifest keeps its shards' files)
    out.result.boundaries.update((name, file.after) for name, file in named)
    named.sort(key=lambda item: item[1].kind)  # (stable: the plan's order within a kind)
    return ((name, file.sitemap) for name, file in named)


def refuse_others(publisher: Publisher, names: Iterable[str], config: Config) -> None:
    """A ConfigError naming the group when one of its children would replace a sitemap that
    sitemill did not write: no index of sitemill's names it, its bytes are not the ones the
    state recorded for it (writing.ownbytes: a state's word is no proof), and they are not as
    sitemill writes them (a hand-written sitemap-news.xml; text children cannot be told: they
    are taken as sitemill's). Checked before anything is written."""
    live, numbers = publisher.live, {group.name: n for n, group in enumerate(config.groups, 1)}
    for name in names:
        group = child_group(name)
        if group is None or name not in live.names or name in live.children:
            continue
        if ".txt" in name:
            continue
        data = publisher.sink.read(name) or b""
        if name in publisher.remembered and publisher.proven(name, data):
            continue  # (the bytes the state recorded: a state alone proves nothing)
        if name.endswith(".gz"):
            head = inflate_head(data, _SNIFF)
            if head is None:
                continue  # (no sitemap of anyone's: replaced)
            data = head
        if not looks_like_sitemills(data):
            raise ConfigError(
                f"groups[{numbers.get(group, 0)}].name",
                f"{name} is there already and sitemill did not write it; rename the group, "
                "or move the file",
            )
