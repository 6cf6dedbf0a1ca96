"""Which files of a folder are sitemill's live indexes and the children they name."""
# Read before publishing and again right before deleting (sitemill.writing.publish): an index is
# sitemill's when every child it names is a name sitemill gives its own (a group's too), or one of
# the user's sitemaps sitemill names beside them.

from __future__ import annotations

import logging
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from html import unescape
from typing import Final

from sitemill.errors import RefusedError, SinkError, TooLargeError
from sitemill.filenames.outputs import ENTRY_XML, MORE_INDEX_NAME, is_child_name, is_staging_name
from sitemill.sinks import Sink

log = logging.getLogger(__name__)

_LOC: Final = re.compile(rb"<loc>\s*([^<]*?)\s*</loc>")
# An index is recognised by its root element within its first bytes.
_INDEX_ROOT: Final = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?sitemapindex[\s>]")
_SNIFF_BYTES: Final = 4_096


@dataclass
class LiveSet:
    """What sitemill's own live indexes name: read before publishing and again before deleting."""

    entry: bytes | None = None  # the bytes of sitemap.xml (an index or a urlset), if any
    indexes: set[str] = field(default_factory=set)  # own index files: sitemap.xml, -index-N
    children: set[str] = field(default_factory=set)  # the children those indexes name
    staging: set[str] = field(default_factory=set)  # staging copies in the folder
    names: set[str] = field(default_factory=set)  # every file in the folder


def read_live(sink: Sink, named: Collection[str] = (), groups: Collection[str] = ()) -> LiveSet:
    """The index files that are sitemill's (each child a sitemill name, ``groups``' too, or a
    loc in ``named``)."""
    live = LiveSet()
    names = list(sink.names())
    live.names = set(names)
    live.staging = {name for name in names if is_staging_name(name, groups)}
    candidates = [ENTRY_XML, *sorted(name for name in names if MORE_INDEX_NAME.fullmatch(name))]
    for name in candidates:
        data = _read_index(sink, name)
        if name == ENTRY_XML:
            live.entry = data
        children = _own_children(data, named, groups)
        if children is not None:
            live.indexes.add(name)
            live.children |= children
    return live


def _read_index(sink: Sink, name: str) -> bytes | None:
    """An index file's bytes, or None when the sink refuses to read it (a link, not a regular
    file, far too big): then it is no index of sitemill's, and writing replaces it."""
    try:
        return sink.read(name)
    except SinkError as exc:
        if not isinstance(exc.__cause__, RefusedError):
            raise
        if name == ENTRY_XML and isinstance(exc.__cause__, TooLargeError):
            # Larger than any sitemap sitemill writes: someone else's, and the takeover says
            # whose (sitemill.writing.takeover reads its head), in one line.
            log.info("%s: it is replaced, and names nothing sitemill would delete", exc)
            return None
        log.warning("%s: it is replaced, and names nothing sitemill would delete", exc)
        return None


def _own_children(
    data: bytes | None, named: Collection[str], groups: Collection[str]
) -> set[str] | None:
    """An index's own children; None when it is no index of sitemill's (``named``: the user's
    sitemaps' locs; ``groups``: the named groups whose children are sitemill's)."""
    if data is None or not _INDEX_ROOT.search(data[:_SNIFF_BYTES]):
        return None
    children = set()
    for match in _LOC.finditer(data):
        if (loc := unescape(match.group(1).decode("utf-8", "replace"))) in named:
            continue  # (one of the user's sitemaps sitemill names: sitemill.writing.usersitemaps)
        # sitemill's children are siblings of their index: the last segment names one (any base)
        name = loc.rpartition("/")[2]
        if not is_child_name(name, groups):
            return None
        children.add(name)
    return children
