"""Render entries into sitemap files, each within max_urls and max_bytes, in one stream.

A template renders one file at a time while it pulls entries from a feed. Each pull marks
the end of the previous entry's output, so the feed knows that entry's exact byte size
and can decide, before the entry is kept, whether it still fits; if not, it ends the loop
(the template then writes its closing markup) and keeps the entry for the next file.
That way any user template is split byte-exactly without rendering anything twice.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate, islice
from operator import attrgetter

import jinja2

from sitemill.entries import Entry
from sitemill.errors import TemplateError
from sitemill.specialize import CompiledTemplate, compile_template

# Entries rendered per step of the compiled path: large enough to keep the loop in C, small
# enough that the lookahead past a file's end costs nothing.
_BATCH = 1_024
_LASTMOD = attrgetter("lastmod")


@dataclass(frozen=True, slots=True)
class RenderedSitemap:
    """One finished sitemap file (uncompressed), with what an index needs to know of it."""

    data: bytes
    url_count: int
    lastmod: str | None


def _utf8_size(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


class _PushbackIterator:
    """An iterator that can take back one item."""

    __slots__ = ("_held", "_source")

    def __init__(self, source: Iterator[Entry]) -> None:
        self._source = source
        self._held: Entry | None = None

    def __iter__(self) -> _PushbackIterator:
        return self

    def __next__(self) -> Entry:
        if self._held is not None:
            held, self._held = self._held, None
            return held
        return next(self._source)

    def push_back(self, entry: Entry) -> None:
        self._held = entry

    def exhausted(self) -> bool:
        if self._held is not None:
            return False
        try:
            self._held = next(self._source)
        except StopIteration:
            return True
        return False


class _Feed:
    """The ``entries`` a template iterates over while one file is rendered.

    The template's output goes straight into ``parts``; each pull records where the
    previous entry's output began, so that an entry that does not fit can be cut off.
    """

    __slots__ = (
        "_budget",
        "_current",
        "_mark",
        "_max_urls",
        "_source",
        "count",
        "lastmod",
        "parts",
        "size",
    )

    def __init__(self, source: _PushbackIterator, max_urls: int, budget: int) -> None:
        self._source = source
        self._max_urls = max_urls
        self._budget = budget  # bytes for header and entries; the footer's share is held back
        self.parts: list[str] = []
        self._mark = 0  # index in parts where the current entry's output begins
        self._current: Entry | None = None
        self.size = 0  # bytes of parts[:_mark]
        self.count = 0
        self.lastmod: str | None = None

    def __iter__(self) -> _Feed:
        return self

    def __next__(self) -> Entry:
        parts = self.parts
        current = self._current
        if current is None:  # first pull: everything so far is the header
            self.size = _utf8_size("".join(parts))
        else:
            self._current = None
            size = _utf8_size("".join(parts[self._mark :]))
            if self.size + size > self._budget:
                if self.count == 0:
                    raise TemplateError(
                        f"one URL does not fit in max_bytes ({self._budget} bytes): {current.loc}"
                    )
                del parts[self._mark :]
                self._source.push_back(current)
                raise StopIteration
            self.size += size
            self.count += 1
            lastmod = current.lastmod
            if lastmod is not None and (self.lastmod is None or lastmod > self.lastmod):
                self.lastmod = lastmod
        self._mark = len(parts)
        if self.count >= self._max_urls:
            raise StopIteration
        entry = next(self._source)
        self._current = entry
        return entry


def _footer_size(template: jinja2.Template) -> int:
    """Bytes a template writes after its entries (measured on an empty render)."""
    after = 0
    seen_pull = False

    class Marker:
        def __iter__(self) -> Marker:
            return self

        def __next__(self) -> Entry:
            nonlocal seen_pull
            seen_pull = True
            raise StopIteration

    for fragment in template.generate(entries=Marker()):
        if seen_pull:
            after += _utf8_size(fragment)
    return after


def render_sitemaps(
    entries: Iterator[Entry], template: jinja2.Template, *, max_urls: int, max_bytes: int
) -> Iterator[RenderedSitemap]:
    """Stream entries into as many files as the limits need; yields nothing for no entries."""
    compiled = compile_template(template)
    if compiled is not None:
        return _render_compiled(entries, compiled, max_urls=max_urls, max_bytes=max_bytes)
    return _render_with_jinja(entries, template, max_urls=max_urls, max_bytes=max_bytes)


def _render_compiled(
    entries: Iterator[Entry], compiled: CompiledTemplate, *, max_urls: int, max_bytes: int
) -> Iterator[RenderedSitemap]:
    """The same split, for a template compiled to a function per entry (see specialize).

    Entries are rendered a batch at a time and the byte limit is found with running sums
    and a bisection, so the per-entry work stays in C.
    """
    render_batch = compiled.render_batch
    budget = max_bytes - _utf8_size(compiled.header) - _utf8_size(compiled.footer)
    source = iter(entries)
    held: list[Entry] = []  # taken from the source, rendered, not yet in a file
    held_text: list[str] = []
    while True:
        parts = [compiled.header]
        size = count = 0
        lastmod: str | None = None
        while count < max_urls:
            if not held:
                held = list(islice(source, _BATCH))
                if not held:
                    break
                held_text = render_batch(held)
            room = max_urls - count
            texts = held_text[:room]
            sizes = (
                list(map(len, texts))
                if all(map(str.isascii, texts))
                else [len(text.encode("utf-8")) for text in texts]
            )
            totals = list(accumulate(sizes, initial=size))  # totals[k]: size with k more
            fit = bisect_right(totals, budget) - 1
            if fit == 0 and count == 0:
                raise TemplateError(
                    f"one URL does not fit in max_bytes ({max_bytes} bytes): {held[0].loc}"
                )
            parts += texts[:fit]
            size = totals[fit]
            count += fit
            newest = max(filter(None, map(_LASTMOD, held[:fit])), default=None)
            if newest is not None and (lastmod is None or newest > lastmod):
                lastmod = newest
            held, held_text = held[fit:], held_text[fit:]
            if fit < len(texts):
                break  # the next entry does not fit in this file
        if count == 0:
            return
        parts.append(compiled.footer)
        text = "".join(parts)
        del parts  # hold at most two copies of a file at a time, and only the bytes after
        data = text.encode("utf-8")
        del text
        yield RenderedSitemap(data, count, lastmod)


def _render_with_jinja(
    entries: Iterator[Entry], template: jinja2.Template, *, max_urls: int, max_bytes: int
) -> Iterator[RenderedSitemap]:
    source = _PushbackIterator(entries)
    try:
        budget = max_bytes - _footer_size(template)
        while not source.exhausted():
            feed = _Feed(source, max_urls, budget)
            append = feed.parts.append
            for fragment in template.generate(entries=feed):
                append(fragment)
            data = "".join(feed.parts).encode("utf-8")
            if len(data) > max_bytes:
                raise TemplateError(
                    f"template {template.name} wrote {len(data)} bytes, over max_bytes {max_bytes}"
                )
            if feed.count == 0:
                raise TemplateError(f"template {template.name} does not iterate over 'entries'")
            yield RenderedSitemap(data, feed.count, feed.lastmod)
    except jinja2.TemplateError as exc:
        raise TemplateError(f"template {template.name}: {exc}") from exc
